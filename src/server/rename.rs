//! Rename of a variable within its scope: the lambda, function, defined type or class
//! that sets it, every read of it there (strings' interpolations too), and for a
//! class's variable the reads `$class::name` of the workspace's files. A rename that
//! could miss a read is refused with the reason, never half done: a class or defined
//! type parameter (declarations and Hiera keys name it), a top-scope or node-scope
//! variable (read from other files unqualified), a scope that renders ERB templates
//! (they read `@name`) or names the variable in a string (`getvar('x')`), a class
//! another inherits (the child reads its variables unqualified).

use super::scopes::{ScopeKind, Scopes};
use crate::ast::{ExprKind, Program};
use crate::source::Span;
use std::path::PathBuf;

/// Names Puppet sets itself, or that no code may assign.
const RESERVED: &[&str] = &[
    "facts",
    "trusted",
    "server_facts",
    "title",
    "name",
    "module_name",
    "caller_module_name",
    "environment",
    "settings",
];

/// The variable a rename at `offset` is about: its name and the span of the name in
/// the text (without `$`).
pub fn variable_at(text: &str, scopes: &Scopes, offset: u32) -> Option<(String, Span)> {
    let holds = |span: Span| span.start <= offset && offset <= span.end;
    if let Some(used) = scopes
        .assigned
        .iter()
        .chain(&scopes.read)
        .find(|u| holds(u.variable.span))
    {
        return Some((
            used.name.to_string(),
            name_span(text, used.variable.span, used.name)?,
        ));
    }
    let param = scopes
        .scopes
        .iter()
        .flat_map(|s| s.params)
        .find(|p| holds(p.name.span))?;
    let span = name_span(text, param.name.span, &param.name.name)?;
    Some((param.name.name.clone(), span))
}

/// Where `name` is written inside `span` of `text`: its last whole occurrence.
fn name_span(text: &str, span: Span, name: &str) -> Option<Span> {
    let slice = text.get(span.start as usize..span.end as usize)?;
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let at = slice.rmatch_indices(name).map(|(i, _)| i).find(|&i| {
        let after = slice.as_bytes().get(i + name.len()).copied();
        let before = i.checked_sub(1).map(|b| slice.as_bytes()[b]);
        !after.is_some_and(is_word) && !before.is_some_and(is_word)
    })?;
    let start = span.start + at as u32;
    Some(Span::new(start, start + name.len() as u32))
}

/// What a rename changes: each file's name spans.
pub type Changes = Vec<(PathBuf, String, Vec<Span>)>;

/// The spans to rename for the variable at `offset` of the file (`path`, `text`,
/// `program`), or why it cannot be renamed. `workspace` gives the workspace's parsed
/// files, asked only for a class's variable (read qualified from anywhere): reading
/// them is the costly part of a rename.
pub fn renames(
    path: &std::path::Path,
    text: &str,
    program: &Program,
    offset: u32,
    new_name: Option<&str>,
    workspace: &mut dyn FnMut() -> Vec<std::sync::Arc<crate::env::DefinitionFile>>,
) -> Result<Changes, String> {
    let exprs = crate::ast::preorder(program);
    let scopes = Scopes::of(program);
    let (name, _) = variable_at(text, &scopes, offset)
        .ok_or_else(|| "no variable to rename here".to_string())?;
    if name.contains("::") {
        return Err(format!(
            "`${name}` names a class's variable: rename it where the class sets it"
        ));
    }
    if RESERVED.contains(&name.as_str()) || name.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`${name}` is a variable Puppet sets itself"));
    }
    if let Some(new_name) = new_name {
        let valid = new_name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
            && new_name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !valid || RESERVED.contains(&new_name) {
            return Err(format!(
                "`${new_name}` is not a name a local variable can have"
            ));
        }
    }
    let chain = scopes.chain(scopes.innermost_at(offset));
    let setters = scopes.setters(&name);
    let Some(scope) = chain.iter().copied().find(|&s| setters.contains(&Some(s))) else {
        return Err(if setters.contains(&None) {
            format!("`${name}` is a top-scope variable: every file may read it")
        } else {
            format!("`${name}` is not set in this file")
        });
    };
    let info = &scopes.scopes[scope];
    let is_param = info.params.iter().any(|p| p.name.name == name);
    match info.kind {
        ScopeKind::Class | ScopeKind::Define if is_param => {
            return Err(format!(
                "`${name}` is a parameter: declarations and Hiera keys name it too"
            ));
        }
        ScopeKind::Node => {
            return Err(format!(
                "`${name}` is a node-scope variable: the classes the node declares may read it"
            ));
        }
        _ => {}
    }
    if let Some(new_name) = new_name {
        if scopes.setters(new_name).contains(&Some(scope)) {
            return Err(format!("`${new_name}` is already set in this scope"));
        }
    }
    // A scope inside with a parameter or an assignment of the name has its own.
    let shadowed = setters
        .iter()
        .flatten()
        .any(|&s| s != scope && scopes.within(Some(s), scope));
    if shadowed {
        return Err(format!(
            "a lambda inside the scope has a `${name}` of its own: rename that one first"
        ));
    }
    let inside = |span: Span| info.span.start <= span.start && span.end <= info.span.end;
    if !matches!(info.kind, ScopeKind::Lambda | ScopeKind::Function) {
        for expr in exprs.iter().copied().filter(|e| inside(e.span)) {
            let reads_by_name = match &expr.kind {
                ExprKind::Call(call) => matches!(&call.function.kind,
                    ExprKind::Name(f) if f == "template" || f == "inline_template"),
                ExprKind::String(s) => s.value == name || s.value == format!("${name}"),
                _ => false,
            };
            if reads_by_name {
                return Err(format!(
                    "the scope reads `${name}` by name (an ERB template's `@{name}`, \
                     `getvar`): those reads cannot be renamed"
                ));
            }
        }
    }
    let mut spans: Vec<Span> = Vec::new();
    for p in info.params.iter().filter(|p| p.name.name == name) {
        spans.extend(name_span(text, p.name.span, &name));
    }
    for used in scopes.assigned.iter().chain(&scopes.read) {
        if used.name == name && scopes.within(used.scope, scope) {
            spans.extend(name_span(text, used.variable.span, &name));
        }
    }
    let mut changes: Changes = vec![(path.to_path_buf(), text.to_string(), spans)];
    if let (ScopeKind::Class, Some(class)) = (info.kind, info.name) {
        let class = class.trim_start_matches("::").to_ascii_lowercase();
        let qualified = format!("{class}::{name}");
        let mut refusal = None;
        for file in workspace() {
            let (other_path, other_text) = (file.source.path.as_path(), file.source.text.as_str());
            let other_exprs = crate::ast::preorder(&file.program);
            let mut found = Vec::new();
            for expr in &other_exprs {
                match &expr.kind {
                    ExprKind::Variable(n)
                        if n.trim_start_matches("::").eq_ignore_ascii_case(&qualified) =>
                    {
                        found.extend(name_span(other_text, expr.span, &name));
                    }
                    ExprKind::Class(c)
                        if c.parent.as_ref().is_some_and(|p| {
                            p.name.trim_start_matches("::").eq_ignore_ascii_case(&class)
                        }) =>
                    {
                        refusal = Some(format!(
                            "class {} inherits {class} and reads its variables unqualified",
                            c.name.name
                        ));
                    }
                    _ => {}
                }
            }
            if other_path == path {
                changes[0].2.extend(found);
            } else if !found.is_empty() {
                changes.push((other_path.to_path_buf(), other_text.to_string(), found));
            }
        }
        if let Some(refusal) = refusal {
            return Err(refusal);
        }
    }
    for (_, _, spans) in &mut changes {
        spans.sort_by_key(|s| s.start);
        spans.dedup();
    }
    Ok(changes)
}
