//! Syntax errors from the ERROR and MISSING nodes of the tree: one diagnostic per
//! problem, pointing where Puppet's parser would (the first token it cannot use), with a
//! label on the bracket a missing closer belongs to.

use super::cst::{Cst, ErrorNode, Scan};
use crate::diagnostics::{rule_ids, Diagnostic};
use crate::source::Span;
use tree_sitter::Node;

/// More syntax errors than this in one file are not reported: after so many, the rest
/// are almost always consequences of the first ones.
const MAX_ERRORS_PER_FILE: usize = 10;

pub fn syntax_errors(cst: &Cst, scan: &Scan) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    for &node in &scan.missing {
        found.push(missing_node(cst, node));
    }
    for &error in &scan.errors {
        found.extend(error_node(cst, error));
    }
    found.sort_by_key(|d| (d.span.start, d.span.end));
    // One problem often shows as an ERROR and a MISSING node close together, or as
    // several ERROR nodes on one line: keep the first on each line.
    let mut kept: Vec<Diagnostic> = Vec::new();
    let mut last_line: Option<usize> = None;
    for d in found {
        let line = line_of(cst, d.span.start);
        if last_line == Some(line) {
            continue;
        }
        last_line = Some(line);
        kept.push(d);
        if kept.len() == MAX_ERRORS_PER_FILE {
            break;
        }
    }
    kept
}

fn line_of(cst: &Cst, offset: u32) -> usize {
    let start = (offset + cst.offset) as usize;
    cst.source.as_bytes()[..start.min(cst.source.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

fn describe_missing(kind: &str) -> String {
    match kind {
        "heredoc_end" => "the end tag of the heredoc".to_string(),
        "name" => "a name".to_string(),
        "variable" => "a variable".to_string(),
        "type_ref" => "a type name".to_string(),
        k if k.chars().all(|c| c.is_ascii_punctuation()) => format!("`{k}`"),
        k => format!("`{k}`"),
    }
}

fn opener_for(closer: &str) -> Option<&'static str> {
    Some(match closer {
        "}" => "{",
        ")" => "(",
        "]" => "[",
        "|>" => "<|",
        "|>>" => "<<|",
        "|" => "|",
        "'" => "'",
        "\"" => "\"",
        _ => return None,
    })
}

fn missing_node(cst: &Cst, node: Node) -> Diagnostic {
    let kind = node.kind();
    let at = cst.span(node);
    let mut diagnostic = Diagnostic::error(
        rule_ids::SYNTAX_ERROR,
        at,
        format!("Syntax error: expected {}", describe_missing(kind)),
    );
    if let (Some(opener), Some(parent)) = (opener_for(kind), node.parent()) {
        let mut cursor = parent.walk();
        let open = parent
            .children(&mut cursor)
            .find(|c| c.kind() == opener && !c.is_missing());
        if let Some(open) = open {
            diagnostic.message =
                format!("Syntax error: expected `{kind}` to close the `{opener}` opened here");
            diagnostic = diagnostic.with_label(cst.span(open), format!("`{opener}` opened here"));
        }
    }
    diagnostic
}

/// The first leaf (token) of a node.
fn first_leaf(node: Node) -> Node {
    let mut n = node;
    while let Some(child) = n.child(0) {
        n = child;
    }
    n
}

/// The diagnostic for an ERROR node. An ERROR that contains other ERRORs is explained
/// by them, unless it also leaves a bracket open (then that is its own problem).
fn error_node(cst: &Cst, error: ErrorNode) -> Option<Diagnostic> {
    let node = error.node;
    let unclosed = unclosed_opener(node);
    if error.has_nested_errors {
        let open = unclosed?;
        let closer = closer_for(open.kind());
        let at = Span::at(cst.span(node).end);
        return Some(
            Diagnostic::error(
                rule_ids::SYNTAX_ERROR,
                at,
                format!(
                    "Syntax error: expected `{closer}` to close the `{}` opened here",
                    open.kind()
                ),
            )
            .with_label(cst.span(open), format!("`{}` opened here", open.kind())),
        );
    }
    let offending = first_leaf(node);
    let text = cst.text(offending);
    let span = cst.span(offending);
    let shown: String = text.chars().take(40).collect();
    let message = if text.starts_with('\'') || text.starts_with('"') {
        "Syntax error: unterminated quoted string".to_string()
    } else if text.starts_with("/*") {
        "Syntax error: unterminated /* comment".to_string()
    } else if text.starts_with("@(") {
        "Syntax error: invalid heredoc header".to_string()
    } else if text.is_empty() {
        "Syntax error: unexpected end of file".to_string()
    } else {
        format!("Syntax error at '{}'", shown.lines().next().unwrap_or(""))
    };
    let mut diagnostic = Diagnostic::error(rule_ids::SYNTAX_ERROR, span, message);
    if let Some(open) = unclosed {
        if open.id() != offending.id() {
            diagnostic =
                diagnostic.with_label(cst.span(open), format!("`{}` is not closed", open.kind()));
        }
    }
    Some(diagnostic)
}

fn closer_for(opener: &str) -> &'static str {
    match opener {
        "{" => "}",
        "(" => ")",
        _ => "]",
    }
}

/// An opening bracket among the children of an ERROR node that has no closer there.
fn unclosed_opener(node: Node) -> Option<Node> {
    let mut stack: Vec<Node> = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "{" | "(" | "[" => stack.push(child),
            "}" | ")" | "]" => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.pop()
}
