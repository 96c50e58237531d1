//! Rename of a variable within its scope: the lambda, function, defined type or class
//! that sets it, every read of it there (strings' interpolations too), and for a
//! class's variable the reads `$class::name` of the workspace's files. A rename that
//! could miss a read is refused with the reason, never half done: a class or defined
//! type parameter (declarations and Hiera keys name it), a top-scope or node-scope
//! variable (read from other files unqualified), a scope that renders ERB templates
//! (they read `@name`) or names the variable in a string (`getvar('x')`), a class
//! another inherits (the child reads its variables unqualified).

use crate::ast::{Expr, ExprKind, Parameter, Program};
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

/// A scope: a definition or a lambda.
#[derive(Clone, Copy)]
enum Scope<'p> {
    Class(&'p Expr, &'p str),
    Define(&'p Expr),
    Function(&'p Expr),
    Node(&'p Expr),
    Lambda(&'p crate::ast::Lambda),
}

impl<'p> Scope<'p> {
    fn span(&self) -> Span {
        match self {
            Scope::Class(e, _) | Scope::Define(e) | Scope::Function(e) | Scope::Node(e) => e.span,
            Scope::Lambda(l) => l.span,
        }
    }

    fn params(&self) -> &'p [Parameter] {
        match self {
            Scope::Class(e, _) | Scope::Define(e) | Scope::Function(e) => match &e.kind {
                ExprKind::Class(c) => c.params.as_deref().unwrap_or_default(),
                ExprKind::Define(d) => d.params.as_deref().unwrap_or_default(),
                ExprKind::Function(f) => f.params.as_deref().unwrap_or_default(),
                _ => &[],
            },
            Scope::Node(_) => &[],
            Scope::Lambda(l) => &l.params,
        }
    }
}

fn scopes<'p>(exprs: &[&'p Expr]) -> Vec<Scope<'p>> {
    let mut found = Vec::new();
    for expr in exprs.iter().copied() {
        match &expr.kind {
            ExprKind::Class(c) => found.push(Scope::Class(expr, c.name.name.as_str())),
            ExprKind::Define(_) => found.push(Scope::Define(expr)),
            ExprKind::Function(_) => found.push(Scope::Function(expr)),
            ExprKind::Node(_) => found.push(Scope::Node(expr)),
            ExprKind::Call(call) => found.extend(call.lambda.as_ref().map(Scope::Lambda)),
            ExprKind::MethodCall(call) => found.extend(call.lambda.as_ref().map(Scope::Lambda)),
            _ => {}
        }
    }
    found
}

fn encloses(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.end <= outer.end && outer != inner
}

/// The variable a rename at `offset` is about: its name and the span of the name in
/// the text (without `$`).
pub fn variable_at(text: &str, exprs: &[&Expr], offset: u32) -> Option<(String, Span)> {
    let holds = |span: Span| span.start <= offset && offset <= span.end;
    for expr in exprs.iter().copied() {
        if let ExprKind::Variable(name) = &expr.kind {
            if holds(expr.span) {
                return Some((name.clone(), name_span(text, expr.span, name)?));
            }
        }
    }
    for scope in scopes(exprs) {
        for p in scope.params() {
            if holds(p.name.span) {
                let span = name_span(text, p.name.span, &p.name.name)?;
                return Some((p.name.name.clone(), span));
            }
        }
    }
    None
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
/// `program`), or why it cannot be renamed. `workspace` gives the other files'
/// parsed files, for a class's variables read qualified.
pub fn renames(
    path: &std::path::Path,
    text: &str,
    program: &Program,
    offset: u32,
    new_name: Option<&str>,
    workspace: &[std::sync::Arc<crate::env::DefinitionFile>],
) -> Result<Changes, String> {
    let exprs = crate::ast::preorder(program);
    let (name, _) = variable_at(text, &exprs, offset)
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
    let all_scopes = scopes(&exprs);
    let holds = |s: &Scope| s.span().start <= offset && offset <= s.span().end;
    // The scopes around the cursor, innermost first.
    let mut around: Vec<Scope> = all_scopes.iter().copied().filter(holds).collect();
    around.sort_by_key(|s| s.span().end - s.span().start);
    let assignments: Vec<(&Expr, String)> = exprs
        .iter()
        .copied()
        .filter_map(|e| match &e.kind {
            ExprKind::Assignment { left, .. } => Some((e, left)),
            _ => None,
        })
        .flat_map(|(e, left)| {
            let targets: Vec<&Expr> = match &left.kind {
                ExprKind::Array(items) => items.iter().collect(),
                _ => vec![left.as_ref()],
            };
            targets.into_iter().filter_map(move |t| match &t.kind {
                ExprKind::Variable(n) => Some((e, n.clone())),
                _ => None,
            })
        })
        .collect();
    // The innermost scope holding `span`.
    let scope_of = |span: Span| {
        all_scopes
            .iter()
            .filter(|s| encloses(s.span(), span))
            .min_by_key(|s| s.span().end - s.span().start)
            .map(|s| s.span())
    };
    let sets = |scope: &Scope, variable: &str| {
        assignments
            .iter()
            .any(|(e, n)| n == variable && scope_of(e.span) == Some(scope.span()))
    };
    let scope = around
        .iter()
        .find(|s| s.params().iter().any(|p| p.name.name == name) || sets(s, &name))
        .copied();
    let Some(scope) = scope else {
        return Err(if assignments.iter().any(|(_, n)| *n == name) {
            format!("`${name}` is a top-scope variable: every file may read it")
        } else {
            format!("`${name}` is not set in this file")
        });
    };
    let is_param = scope.params().iter().any(|p| p.name.name == name);
    match scope {
        Scope::Class(..) | Scope::Define(_) if is_param => {
            return Err(format!(
                "`${name}` is a parameter: declarations and Hiera keys name it too"
            ));
        }
        Scope::Node(_) => {
            return Err(format!(
                "`${name}` is a node-scope variable: the classes the node declares may read it"
            ));
        }
        _ => {}
    }
    if let Some(new_name) = new_name {
        if scope.params().iter().any(|p| p.name.name == new_name) || sets(&scope, new_name) {
            return Err(format!("`${new_name}` is already set in this scope"));
        }
    }
    let inside = |span: Span| encloses(scope.span(), span) || scope.span() == span;
    // A nested lambda with a parameter or an assignment of the name has its own.
    let shadowing: Vec<Span> = all_scopes
        .iter()
        .filter(|s| encloses(scope.span(), s.span()))
        .filter(|s| s.params().iter().any(|p| p.name.name == name) || sets(s, &name))
        .map(Scope::span)
        .collect();
    if !shadowing.is_empty() {
        return Err(format!(
            "a lambda inside the scope has a `${name}` of its own: rename that one first"
        ));
    }
    for expr in exprs.iter().copied().filter(|e| inside(e.span)) {
        let reads_by_name = match &expr.kind {
            ExprKind::Call(call) => matches!(&call.function.kind,
                ExprKind::Name(f) if f == "template" || f == "inline_template"),
            ExprKind::String(s) => s.value == name || s.value == format!("${name}"),
            _ => false,
        };
        if reads_by_name && !matches!(scope, Scope::Lambda(_) | Scope::Function(_)) {
            return Err(format!(
                "the scope reads `${name}` by name (an ERB template's `@{name}`, \
                 `getvar`): those reads cannot be renamed"
            ));
        }
    }
    let mut spans: Vec<Span> = Vec::new();
    for p in scope.params().iter().filter(|p| p.name.name == name) {
        spans.extend(name_span(text, p.name.span, &name));
    }
    for expr in exprs.iter().copied().filter(|e| inside(e.span)) {
        if let ExprKind::Variable(n) = &expr.kind {
            if *n == name {
                spans.extend(name_span(text, expr.span, &name));
            }
        }
    }
    let mut changes: Changes = vec![(path.to_path_buf(), text.to_string(), spans)];
    if let Scope::Class(_, class) = scope {
        let class = class.trim_start_matches("::").to_ascii_lowercase();
        let qualified = format!("{class}::{name}");
        let mut refusal = None;
        for file in workspace {
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
