//! Hover: a definition's signature and documentation (its puppet-strings comments),
//! a resource type's attributes, a built-in function's signatures, where Hiera binds
//! a key, and for any other expression what pupcheck's evaluation of the file knows
//! of its value (`infer::answer`, the answer `pupcheck explain` gives).

use super::navigation::Site;
use super::target::Target;
use crate::ast::{CommentKind, Program};
use crate::env::symbols::SymbolKind;
use crate::env::Environment;
use crate::infer::answer::Answer;
use crate::source::SourceFile;
use std::fmt::Write;

/// The markdown shown for `target`, when it names something pupcheck knows.
pub fn describe(target: &Target, env: &Environment, site: Option<(&Site, &str)>) -> Option<String> {
    if let Some((site, text)) = site {
        if let Some(found) = site.kind.and_then(|kind| definition_text(site, kind, text)) {
            return Some(found);
        }
    }
    match target {
        Target::ResourceType(name) | Target::TypeName(name) => resource_type(env, name),
        Target::Function(name) => {
            builtin_function(name).or_else(|| ruby_function(env, name, site?.0, site?.1))
        }
        Target::HieraKey(key) => hiera_key(env, key),
        Target::Template(_) => template(site?.0, site?.1),
        _ => None,
    }
}

/// A definition's header (up to its body) in a code block, then its documentation.
fn definition_text(site: &Site, kind: SymbolKind, text: &str) -> Option<String> {
    let (source, parsed) = super::workspace::parse(site.path.clone(), text)?;
    let symbol = crate::env::symbols::find(&parsed.program, kind, &site.name)?;
    let end = symbol.body.map_or(symbol.expr.span.end, |b| b.span.start);
    let header = source.text[symbol.expr.span.start as usize..end as usize].trim_end();
    let mut out = format!("```puppet\n{header}\n```\n");
    let docs = documentation(&source, &parsed.program, symbol.expr.span.start);
    if !docs.is_empty() {
        let _ = write!(out, "\n{docs}\n");
    }
    let line = source.position(symbol.name_span.start).line;
    let _ = write!(out, "\n*{}:{line}*", crate::source::shown_path(&site.path));
    Some(out)
}

/// The `#` comment lines right above `start` (puppet-strings' documentation), as
/// markdown: `@summary` as a paragraph, `@param name text` as a list.
fn documentation(source: &SourceFile, program: &Program, start: u32) -> String {
    let mut lines: Vec<&str> = Vec::new();
    let mut expected_line = source.position(start).line;
    for comment in program
        .comments
        .iter()
        .rev()
        .filter(|c| c.span.end <= start)
    {
        let line = source.position(comment.span.start).line;
        if comment.kind != CommentKind::Hash || line + 1 != expected_line {
            break;
        }
        // Only a comment alone on its line documents what follows.
        let line_start = source.text[..comment.span.start as usize]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        if !source.text[line_start..comment.span.start as usize]
            .trim()
            .is_empty()
        {
            break;
        }
        lines.push(source.slice(comment.span));
        expected_line = line;
    }
    lines.reverse();
    let mut out = String::new();
    for line in lines {
        let text = line.trim_start_matches('#');
        let text = text.strip_prefix(' ').unwrap_or(text);
        let trimmed = text.trim();
        if let Some(rest) = trimmed.strip_prefix("@summary") {
            let _ = writeln!(out, "{}\n", rest.trim());
        } else if let Some(rest) = trimmed.strip_prefix("@param") {
            let rest = rest.trim();
            let (name, what) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let _ = writeln!(
                out,
                "- `${}`: {}",
                name.trim_start_matches('$'),
                what.trim()
            );
        } else if let Some(rest) = trimmed.strip_prefix("@example") {
            let _ = writeln!(out, "\n**Example** {}", rest.trim());
        } else if let Some(tag) = trimmed.strip_prefix('@') {
            let (tag, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            let _ = writeln!(out, "*@{tag}* {}", rest.trim());
        } else {
            let _ = writeln!(out, "{text}");
        }
    }
    out.trim().to_string()
}

/// An attribute's name in a resource body: the parameter of the class or defined type
/// (declared type, default, documentation), a metaparameter, or an attribute of the
/// resource type (its type or values).
pub fn attribute(
    env: &Environment,
    owner: &super::target::Target,
    name: &str,
    text_of: impl Fn(&std::path::Path) -> Option<String>,
) -> Option<String> {
    use super::target::Target;
    let (kind, key) = match owner {
        Target::Class(class) => ("class", crate::env::definition_key(class)),
        Target::ResourceType(t) => ("defined type", crate::env::definition_key(t)),
        _ => return None,
    };
    if crate::builtin::metaparameters().iter().any(|m| m == name) {
        return Some(format!(
            "```puppet
{name}
```

metaparameter: every resource and class takes it"
        ));
    }
    let definition = match kind {
        "class" => env.class(&key),
        _ => env.define(&key),
    };
    let Some(definition) = definition else {
        let found = env.resource_type(&key)?;
        let mut out = format!(
            "```puppet
{name}
```

attribute of resource type `{key}`"
        );
        if let Some(ty) = found.types.get(name) {
            let _ = write!(out, ": `{ty}`");
        } else if let Some(values) = found.values.get(name) {
            let _ = write!(out, ": {}", values.join(", "));
        }
        return found.attributes.iter().any(|a| a == name).then_some(out);
    };
    let param = definition.param(name)?;
    let text = text_of(&definition.path)?;
    let slice = |e: &Option<crate::ast::Expr>| {
        e.as_ref()
            .and_then(|e| text.get(e.span.range()))
            .map(str::to_string)
    };
    let mut out = String::from(
        "```puppet
",
    );
    if let Some(ty) = slice(&param.type_expr) {
        let _ = write!(out, "{ty} ");
    }
    let _ = write!(out, "${name}");
    if let Some(default) = slice(&param.default) {
        let _ = write!(out, " = {}", crate::infer::answer::one_line(&default));
    }
    let _ = write!(
        out,
        "
```

parameter of {kind} `{key}`"
    );
    if let Some(doc) = parameter_documentation(&definition.path, &text, name) {
        let _ = write!(
            out,
            "

{doc}"
        );
    }
    let line = text[..(param.name.span.start as usize).min(text.len())]
        .matches('\n')
        .count()
        + 1;
    let _ = write!(
        out,
        "

*{}:{line}*",
        crate::source::shown_path(&definition.path)
    );
    Some(out)
}

/// The text of `@param name` in the documentation of the definition in `text`, with
/// its continuation lines.
fn parameter_documentation(path: &std::path::Path, text: &str, name: &str) -> Option<String> {
    let (_, parsed) = super::workspace::parse(path.to_path_buf(), text)?;
    let mut out: Option<String> = None;
    for comment in &parsed.program.comments {
        let line = text.get(comment.span.range())?.trim_start_matches('#');
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("@param") {
            if out.is_some() {
                break;
            }
            let rest = rest.trim();
            let (param, what) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            if param.trim_start_matches('$') == name {
                out = Some(what.trim().to_string());
            }
        } else if let Some(doc) = out.as_mut() {
            // Continuation lines are indented under the tag; another tag ends it.
            if trimmed.starts_with('@') || !line.starts_with("   ") {
                break;
            }
            doc.push(' ');
            doc.push_str(trimmed);
        }
    }
    out.map(|d| d.trim().to_string()).filter(|d| !d.is_empty())
}

/// A resource type written in Ruby: its attributes, with the values each accepts
/// where the type lists them.
fn resource_type(env: &Environment, name: &str) -> Option<String> {
    let key = crate::env::definition_key(name);
    let found = env.resource_type(&key)?;
    let mut out = format!("```puppet\ntype {key}\n```\n\nresource type");
    if let Some(module) = &found.module {
        let _ = write!(out, " (module `{module}`)");
    }
    out.push_str(", attributes:\n");
    for attribute in &found.attributes {
        let _ = write!(out, "\n- `{attribute}`");
        if let Some(ty) = found.types.get(attribute) {
            let _ = write!(out, ": `{ty}`");
        } else if let Some(values) = found.values.get(attribute) {
            let _ = write!(out, ": {}", values.join(", "));
        }
    }
    Some(out)
}

/// A built-in function's signatures, as Puppet prints them.
fn builtin_function(name: &str) -> Option<String> {
    use crate::builtin::functions::{self, Function};
    let key = crate::env::definition_key(name);
    let mut out = String::from("```puppet\n");
    match functions::function(&key)? {
        Function::Typed(dispatches) => {
            for dispatch in dispatches.iter().filter(|d| !d.mismatch_handler) {
                let _ = write!(out, "{key}({})", dispatch.signature);
                if let Some(returns) = &dispatch.returns {
                    let _ = write!(out, " >> {returns}");
                }
                out.push('\n');
            }
        }
        Function::Legacy { arity, returns } => {
            match returns {
                Some(returns) => {
                    let _ = writeln!(out, "{key}(...) >> {returns}");
                }
                None => {
                    let _ = writeln!(out, "{key}(...)");
                }
            }
            out.push_str("```\n");
            let _ = write!(
                out,
                "Puppet 3.x function: {}",
                if *arity < 0 {
                    format!("at least {} arguments", -arity - 1)
                } else {
                    format!("{arity} arguments")
                }
            );
            return Some(format!("{out}\n\nbuilt-in function"));
        }
    }
    out.push_str("```\n\nbuilt-in function");
    Some(out)
}

/// A template: an EPP template's parameter tag (what `epp()` must give it), and its
/// file.
fn template(site: &Site, text: &str) -> Option<String> {
    static TAG: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\A\s*(?:<%#[\s\S]*?%>\s*)*(<%-?\s*\|[^|]*\|\s*-?%>)")
            .expect("a valid pattern")
    });
    let mut out = String::new();
    let is_epp = site.path.extension().is_some_and(|e| e == "epp");
    match TAG.captures(text).and_then(|c| c.get(1)).filter(|_| is_epp) {
        Some(tag) => {
            let _ = write!(out, "```puppet\n{}\n```\n\n", tag.as_str());
        }
        None if is_epp => out.push_str("EPP template without parameters (takes any)\n\n"),
        None => out.push_str("ERB template\n\n"),
    }
    let _ = write!(out, "*{}*", crate::source::shown_path(&site.path));
    Some(out)
}

/// A module's function written in Ruby: its signatures (the 4.x API's dispatches as
/// pupcheck reads them), the documentation above its `create_function` (YARD's `#`
/// lines) or its `:doc` text (3.x), and its file.
fn ruby_function(env: &Environment, name: &str, site: &Site, text: &str) -> Option<String> {
    if site.path.extension().is_none_or(|e| e != "rb") {
        return None;
    }
    use crate::ruby::function::ParamKind;
    let key = crate::env::definition_key(name);
    let mut out = String::from("```puppet\n");
    match env.ruby_function(&key) {
        Some(function) => {
            for dispatch in function.dispatches.iter().filter(|d| !d.mismatch_handler) {
                let params: Vec<String> = dispatch
                    .params
                    .iter()
                    .map(|p| {
                        let marker = match p.kind {
                            ParamKind::Required => "",
                            ParamKind::Optional => "?",
                            ParamKind::Repeated => "*",
                            ParamKind::RequiredRepeated => "+",
                        };
                        format!("{} ${}{marker}", p.type_text, p.name)
                    })
                    .collect();
                let _ = write!(out, "{key}({})", params.join(", "));
                if let Some(returns) = &dispatch.returns {
                    let _ = write!(out, " >> {returns}");
                }
                out.push('\n');
            }
        }
        None => {
            let _ = writeln!(out, "{key}(...)");
        }
    }
    out.push_str("```\n");
    let definition = super::navigation::ruby_definition_span(text);
    let docs = ruby_documentation(text, definition.start as usize);
    if !docs.is_empty() {
        let _ = write!(out, "\n{docs}\n");
    }
    let line = super::document::position_in(text, definition.start as usize).line + 1;
    let _ = write!(
        out,
        "\nfunction written in Ruby, *{}:{line}*",
        crate::source::shown_path(&site.path)
    );
    Some(out)
}

/// A Ruby function's documentation: the `#` lines right above `at` (YARD), else the
/// heredoc its `:doc =>` (3.x) opens.
fn ruby_documentation(text: &str, at: usize) -> String {
    let before: Vec<&str> = text[..at].lines().collect();
    // The line holding `at` itself is the definition's.
    let above = before.len().saturating_sub(1);
    let comments: Vec<&str> = before[..above]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with('#'))
        .collect();
    let mut lines: Vec<&str> = comments
        .into_iter()
        .rev()
        .map(|l| {
            let l = l.trim_start_matches('#');
            l.strip_prefix(' ').unwrap_or(l)
        })
        .collect();
    if lines.is_empty() {
        static DOC: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r#"(?:\bdoc\s*(?:=>|:)\s*|\bdesc\s+)<<[-~]?['"]?(\w+)['"]?"#)
                .expect("a valid pattern")
        });
        if let Some(found) = DOC.captures(&text[at..]) {
            let start = at + found.get(0).map_or(0, |m| m.end());
            let body = text[start..].split_once('\n').map_or("", |(_, b)| b);
            let terminator = &found[1];
            lines = body
                .lines()
                .take_while(|l| l.trim() != terminator)
                .map(str::trim)
                .collect();
        }
    }
    lines.join("\n").trim().to_string()
}

/// The data files Hiera may take `key`'s value from, with the value.
fn hiera_key(env: &Environment, key: &str) -> Option<String> {
    let mut out = format!("Hiera key `{key}`\n");
    let mut any = false;
    for (file, value) in env.hiera().candidates(key) {
        any = true;
        let line = file.text[..value.offset.min(file.text.len())]
            .matches('\n')
            .count()
            + 1;
        let excerpt: String = file.text[value.offset.min(file.text.len())..]
            .lines()
            .next()
            .unwrap_or_default()
            .chars()
            .take(80)
            .collect();
        let _ = write!(
            out,
            "\n- {}:{line}: `{}`",
            crate::source::shown_path(&file.path),
            excerpt.trim()
        );
    }
    any.then_some(out)
}

/// What the evaluation knows of the expression: its value and type, or Puppet's
/// error there.
pub fn answers(excerpt: &str, answers: &[Answer]) -> String {
    let flat = crate::infer::answer::one_line(excerpt);
    let mut out = format!("```puppet\n{flat}\n```\n");
    if answers.is_empty() {
        out.push_str("\nnot evaluated: no value the code gives reaches it");
        return out;
    }
    for answer in answers {
        let line = match answer {
            Answer::Value(value, ty) => format!("`{value}`: `{ty}`"),
            Answer::AnyOf(ty) => format!("`{ty}` (the value is not known from the code)"),
            Answer::Unknown => "not known from the code (any value)".to_string(),
            Answer::Error(failure) => format!("**error**: {}", failure.message),
            Answer::NotModelled(what) => format!("not known: pupcheck does not evaluate {what}"),
        };
        let _ = write!(out, "\n{line}\n");
    }
    out
}

/// For `$class::name`, a parameter of that class: the type it is declared with (the
/// value Puppet gives it is an instance of it), else nothing.
pub fn class_parameter(
    variable: &str,
    env: &Environment,
    text_of: impl Fn(&std::path::Path) -> Option<String>,
) -> String {
    let variable = variable.strip_prefix("::").unwrap_or(variable);
    let Some((class, name)) = variable.rsplit_once("::") else {
        return String::new();
    };
    let Some(definition) = env.class(class) else {
        return String::new();
    };
    let Some(param) = definition.param(name) else {
        return String::new();
    };
    let declared = param
        .type_expr
        .as_ref()
        .and_then(|t| Some(text_of(&definition.path)?.get(t.span.range())?.to_string()))
        .unwrap_or_else(|| "Any".to_string());
    format!(
        "\nparameter `{name}` of class `{}`, declared `{declared}`\n",
        definition.name
    )
}
