//! The syntax layer: the direct parser, else tree-sitter's parse and the lowering of
//! its tree, to the AST; syntax diagnostics.
//!
//! A manifest is read by the direct parser (`direct`) when it reads it whole; anything
//! else, errors included, by tree-sitter. This is the only layer that sees tree-sitter. Its output is a [`Parsed`]: the
//! [`Program`](crate::ast::Program) and the diagnostics found on the way (syntax errors,
//! invalid literals).
//!
//! (Type expressions given as text, for `pupcheck types` and the type-system tests, are
//! parsed with [`parse_expression`] and turned into the type layer's input by
//! the type layer (`types::from_ast`).)

pub mod allocator;
mod cst;
pub mod direct;
mod errors;
mod lower;
mod strings;

use crate::ast::{Expr, ExprKind, Program};
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, SourceKind, Span};
use std::sync::Arc;

/// A file read and parsed, waiting for its checks.
pub struct ParsedFile {
    /// Shared with the index, which evaluates the bodies of the definitions it holds.
    pub source: Arc<SourceFile>,
    pub program: Arc<Program>,
    /// The syntax layer's findings.
    pub diagnostics: Vec<Diagnostic>,
    /// ERROR and MISSING nodes (see [`Parsed`]).
    pub error_nodes: usize,
}

impl ParsedFile {
    pub fn new(source: SourceFile, parsed: Parsed) -> ParsedFile {
        ParsedFile {
            source: Arc::new(source),
            program: Arc::new(parsed.program),
            diagnostics: parsed.diagnostics,
            error_nodes: parsed.error_nodes,
        }
    }
}

/// Deeper nesting than this is reported instead of lowered, so that no input can
/// overflow the stack of the (recursive) lowering or of the later layers.
pub const MAX_NESTING: usize = 400;

/// A parsed file.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
    /// ERROR and MISSING nodes in the tree-sitter tree. Zero means the file parsed
    /// without error recovery (the corpus check asserts this, not only the absence of
    /// diagnostics).
    pub error_nodes: usize,
}

/// Parses one source file. Never panics: whatever the input, the result is a program
/// (with `Error` nodes where parsing failed) and diagnostics.
pub fn parse(file: &SourceFile) -> Parsed {
    let mut parsed = parse_text(&file.text, file.kind);
    if file.byte_order_mark {
        // Puppet's lexer refuses the mark (manifests and templates alike).
        parsed.diagnostics.insert(
            0,
            Diagnostic::error(
                crate::diagnostics::rule_ids::SYNTAX_ERROR,
                Span::at(0),
                "Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source",
            ),
        );
        one_syntax_error_per_line(&file.text, &mut parsed.diagnostics);
    }
    parsed
}

/// Parses text as a manifest or template.
pub fn parse_text(text: &str, kind: SourceKind) -> Parsed {
    if kind == SourceKind::Manifest {
        if let Some((program, mut diagnostics)) = direct::parse(text) {
            diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
            return Parsed {
                program,
                diagnostics,
                error_nodes: 0,
            };
        }
    }
    parse_with_tree_sitter(text, kind)
}

/// Parses text with tree-sitter and lowers its tree.
pub fn parse_with_tree_sitter(text: &str, kind: SourceKind) -> Parsed {
    let parse = cst::parse(text, kind);
    let mut diagnostics = Vec::new();
    let scan = cst::scan(&parse);
    if scan.too_deep {
        diagnostics.push(Diagnostic::error(
            crate::diagnostics::rule_ids::SYNTAX_ERROR,
            Span::at(scan.too_deep_at),
            format!("the code is nested more than {MAX_NESTING} levels deep; pupcheck does not check it"),
        ));
        return Parsed {
            program: Program::default(),
            diagnostics,
            error_nodes: scan.errors.len() + scan.missing.len(),
        };
    }
    let error_nodes = scan.errors.len() + scan.missing.len();
    diagnostics.extend(errors::syntax_errors(&parse, &scan));
    let (program, lower_diagnostics) = lower::lower(&parse, &scan);
    diagnostics.extend(lower_diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    one_syntax_error_per_line(text, &mut diagnostics);
    Parsed {
        program,
        diagnostics,
        error_nodes,
    }
}

/// The tree and the lowering can both see one problem (an unclosed EPP tag is an ERROR
/// node and a render without its `%>`): keep the first syntax error of each line.
fn one_syntax_error_per_line(text: &str, diagnostics: &mut Vec<Diagnostic>) {
    let mut last_line = None;
    diagnostics.retain(|d| {
        if d.rule != crate::diagnostics::rule_ids::SYNTAX_ERROR {
            return true;
        }
        let end = (d.span.start as usize).min(text.len());
        let line = text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let keep = last_line != Some(line);
        last_line = Some(line);
        keep
    });
}

/// Parses `text` as a single expression (for example a type: `Hash[String, Integer]`).
/// Fails with a message when the text does not parse or holds more than one expression.
pub fn parse_expression(text: &str) -> Result<Expr, String> {
    let parsed = parse_text(text, SourceKind::Manifest);
    if let Some(d) = parsed.diagnostics.first() {
        return Err(d.message.clone());
    }
    let mut body = parsed.program.body;
    match body.len() {
        1 => {
            let expr = body.pop().expect("one statement");
            if matches!(expr.kind, ExprKind::Error) {
                Err(format!("`{text}` is not an expression"))
            } else {
                Ok(expr)
            }
        }
        0 => Err("empty expression".to_string()),
        _ => Err(format!("`{text}` is more than one expression")),
    }
}

#[cfg(test)]
mod holding_tests {
    use crate::ast::{holding, preorder};

    /// (`ast::holding`, tested here where a parser is: `ast` is below `syntax`.) Every
    /// expression holding an offset is among those `holding` finds, at every
    /// offset of code with heredocs (bodies after their statement's span), nested
    /// definitions, lambdas and branches.
    #[test]
    fn holding_finds_every_expression_that_holds_the_offset() {
        let text = r#"class outer (String $p = 'x') {
  $a = @("END")
    text ${p} and $a_var
    | END
  notice(@(E2), $p)
    plain
    | E2
  class inner { $b = [1, 2].map |$x| { $x + 1 } }
  if $p == 'x' {
    case $facts['os']['family'] { 'Debian': { $c = "${p}!" } default: {} }
  } else { file { '/tmp/a': ensure => file } }
}
$top = 1
"#;
        let source = crate::source::SourceFile::new(
            "m/manifests/outer.pp",
            crate::source::SourceKind::Manifest,
            text.to_string(),
        );
        let parsed = crate::syntax::parse(&source);
        assert!(parsed.diagnostics.is_empty() && parsed.error_nodes == 0);
        let all = preorder(&parsed.program);
        assert!(all.len() > 40, "{}", all.len());
        for offset in 0..=text.len() as u32 {
            let found = holding(&parsed.program, offset);
            for e in all
                .iter()
                .filter(|e| e.span.start <= offset && offset <= e.span.end)
            {
                assert!(
                    found.iter().any(|f| std::ptr::eq(*f, *e)),
                    "offset {offset}: {:?} missing",
                    &text[e.span.start as usize..e.span.end as usize]
                );
            }
        }
    }
}
