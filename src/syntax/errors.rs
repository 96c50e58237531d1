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
    // A lexical error: Puppet's lexer stops there, before any parse error at or after
    // it (listed first, so the stable sort keeps it ahead of one starting there too).
    for &at in &scan.illegal_class_references {
        found.push(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            Span::new(at, at + 2),
            "Illegal class reference",
        ));
    }
    for &at in &scan.division_not_regex {
        found.push(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            Span::new(at, at + 1),
            "Syntax error at '/': after an operand Puppet reads `/` as division, so a \
             regular expression (or a `//` comment) cannot start here",
        ));
    }
    for &text in &scan.text_after_split_trim_tag {
        let raw = format!("-{}", cst.text(text));
        let value = super::strings::epp_text(&raw);
        let at = (text.start_byte() as u32 + 2).saturating_sub(cst.offset);
        found.push(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            Span::new(at, at + 1),
            format!("Syntax error at '{}'", value.lines().next().unwrap_or("")),
        ));
    }
    for &node in &scan.missing {
        found.push(missing_node(cst, node));
    }
    for &error in &scan.errors {
        found.extend(error_node(cst, error));
    }
    found.sort_by_key(|d| d.span.start);
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

/// The offset of the next code after `offset` (skipping blanks and comments), as the
/// token Puppet's parser stops at when something is missing before it.
fn next_code(cst: &Cst, offset: usize) -> usize {
    let bytes = cst.source.as_bytes();
    let mut i = offset;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes.get(i) == Some(&b'#') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        return i;
    }
}

fn token_at(cst: &Cst, offset: usize) -> Span {
    let start = (offset as u32).saturating_sub(cst.offset);
    let text = &cst.source[offset.min(cst.source.len())..];
    let len = text
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    Span::new(start, start + len as u32)
}

fn missing_node(cst: &Cst, node: Node) -> Diagnostic {
    let kind = node.kind();
    if kind == "heredoc_end" {
        // Puppet reports the first line of the body that never ends.
        let body_start = node
            .parent()
            .map(|p| p.start_byte() + 1)
            .unwrap_or(node.start_byte());
        let at = token_at(cst, next_code(cst, body_start));
        return Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            at,
            "Heredoc without end-tagged line",
        );
    }
    // Puppet reports the token after the place where something is missing; for an
    // unclosed quote, the quote that opens the string.
    let opening_quote = (kind == "\"" || kind == "'")
        .then(|| node.parent().and_then(|p| p.child(0)))
        .flatten()
        .filter(|open| open.kind() == kind);
    let at = match opening_quote {
        Some(open) => {
            let span = cst.span(open);
            return Diagnostic::error(
                rule_ids::SYNTAX_ERROR,
                span,
                "Syntax error: unclosed quote (the string opened here never ends)",
            );
        }
        None => token_at(cst, next_code(cst, node.start_byte())),
    };
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

/// The token before `node` in the source, if any.
fn previous_leaf(node: Node) -> Option<Node> {
    let mut n = node;
    loop {
        if let Some(prev) = n.prev_sibling() {
            let mut leaf = prev;
            while let Some(last) = leaf.child(leaf.child_count().saturating_sub(1)) {
                leaf = last;
            }
            return Some(leaf);
        }
        n = n.parent()?;
    }
}

/// The diagnostic for an ERROR node. An ERROR that contains other ERRORs is explained
/// by them, unless it also leaves a bracket open (then that is its own problem).
fn error_node(cst: &Cst, error: ErrorNode) -> Option<Diagnostic> {
    let node = error.node;
    let first = first_leaf(node);
    // A `-` right before the text is the trimming `-%>` the grammar took for a minus.
    let before_text = previous_leaf(first).and_then(|p| {
        if p.kind() == "-" && p.end_byte() == first.start_byte() {
            previous_leaf(p)
        } else {
            Some(p)
        }
    });
    let after_operand = before_text.is_some_and(super::cst::ends_operand);
    if first.kind() == "epp_text" && first.end_byte() < cst.source.len() && !after_operand {
        // Text between two tags that continue one statement (`<% } %>` then
        // `<% else {`): Puppet takes the text as a value where one may start and names
        // the code after it. (After a complete operand it names the text itself.)
        let at = next_code(cst, first.end_byte()).min(cst.source.len());
        let span = token_at(cst, at);
        let shown: String = cst.source[at..at + span.len() as usize]
            .chars()
            .take(40)
            .collect();
        return Some(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            span,
            format!("Syntax error at '{shown}'"),
        ));
    }
    if first.kind() == "epp_text" {
        // Template text where code was expected: a tag was closed too early.
        let shown: String = strings_preview(cst.text(first));
        return Some(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            cst.span(first),
            format!("Syntax error at '{shown}'"),
        ));
    }
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
    // `@(` that is not a complete heredoc header: the scanner left it to the grammar.
    let mut cursor = node.walk();
    let at_sign = node
        .children(&mut cursor)
        .find(|c| cst.text(*c) == "@" && cst.source[c.end_byte()..].starts_with('('));
    if let Some(at_sign) = at_sign {
        return Some(Diagnostic::error(
            rule_ids::SYNTAX_ERROR,
            cst.span(at_sign),
            "Syntax error: unclosed parenthesis after '@(' (an invalid heredoc header)",
        ));
    }
    let (text, span) = match unexpected_token(node) {
        Unexpected::Node(n) => (cst.text(n), cst.span(n)),
        Unexpected::After(offset) => {
            let at = next_code(cst, offset).min(cst.source.len());
            let span = token_at(cst, at);
            (&cst.source[at..at + span.len() as usize], span)
        }
    };
    let offending_start = span.start;
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
        if cst.span(open).start != offending_start {
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

const INFIX_OPERATORS: &[&str] = &[
    "->", "~>", "<-", "<~", "=", "+=", "-=", "+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<",
    ">", "<=", ">=", "=~", "!~", "and", "or", "in", "=>", "+>", ".",
];

enum Unexpected<'t> {
    Node(Node<'t>),
    /// The token right after this byte offset.
    After(usize),
}

/// Where Puppet's parser would have stopped inside an ERROR node. tree-sitter wraps in
/// ERROR a valid prefix together with the tokens it could not use, so: the first child
/// that starts on a later line than the node (the prefix ended at a line break); else,
/// when the node is one complete construct, the token after it; else its first token.
fn unexpected_token(node: Node) -> Unexpected {
    let line = node.start_position().row;
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    // A token that can only follow something complete (`:` in a hash, a stray `,`).
    let first = first_leaf(node);
    if [":", ",", ";", "=>", ")", "]", "}", "|>", "|>>"].contains(&first.kind()) {
        return Unexpected::Node(first);
    }
    // Template text where code was expected (a tag closed too early).
    if let Some(text) = children.iter().skip(1).find(|c| c.kind() == "epp_text") {
        return Unexpected::Node(*text);
    }
    if let Some(later) = children.iter().find(|c| c.start_position().row > line) {
        return Unexpected::Node(first_leaf(*later));
    }
    if let [only] = children.as_slice() {
        // A complete construct, or an infix operator with nothing after it: the
        // problem is the token that follows.
        let complete = only.is_named() && !only.has_error();
        if complete || INFIX_OPERATORS.contains(&only.kind()) {
            return Unexpected::After(node.end_byte());
        }
    }
    Unexpected::Node(first_leaf(node))
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

/// The start of a text run as Puppet quotes it: the first line, without the tag.
fn strings_preview(raw: &str) -> String {
    let text = raw.trim_start_matches('-').trim_start_matches("%>");
    let text = text.trim_start_matches(['\r', '\n']);
    text.lines().next().unwrap_or("").chars().take(40).collect()
}
