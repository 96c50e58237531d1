//! Code actions: each fix `--fix` can make, as a quick fix on its finding; a quick
//! fix that suppresses a finding on its line (`# pupcheck:ignore:<rule>`); and "fix
//! all" (`source.fixAll`), what `pupcheck check --fix` makes of the file.

use super::document::Document;
use crate::ast::{CommentKind, Program};
use crate::diagnostics::{Applicability, Diagnostic};
use crate::source::Span;
use lsp_types::{CodeAction, CodeActionKind, TextEdit, Url, WorkspaceEdit};
use std::collections::HashMap;

fn edit(uri: &Url, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}

/// The quick fix of a finding, when its rule knows one.
pub fn fix(
    doc: &Document,
    diagnostic: &Diagnostic,
    shown: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    let fix = diagnostic.fix.as_ref().filter(|f| !f.edits.is_empty())?;
    let safe = fix.applicability == Applicability::Safe;
    let edits = fix
        .edits
        .iter()
        .map(|e| TextEdit::new(doc.reported_range(e.span), e.replacement.clone()))
        .collect();
    Some(CodeAction {
        title: format!(
            "Fix {}{}",
            diagnostic.rule,
            if safe {
                ""
            } else {
                " (may change what the code does)"
            }
        ),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![shown.clone()]),
        edit: Some(edit(&doc.uri, edits)),
        is_preferred: Some(safe),
        ..CodeAction::default()
    })
}

/// The quick fix that suppresses a finding on its line: a trailing
/// `# pupcheck:ignore:<rule>` comment, or the rule's name added to the line's comment.
/// `None` where the line ends inside a string or heredoc (a comment there would be
/// text), and for findings no comment suppresses.
pub fn suppress(
    doc: &Document,
    source: &crate::source::SourceFile,
    program: &Program,
    diagnostic: &Diagnostic,
    shown: &lsp_types::Diagnostic,
) -> Option<CodeAction> {
    if crate::diagnostics::rule_ids::ALWAYS_REPORTED.contains(&diagnostic.rule) {
        return None;
    }
    let text = &source.text;
    let start = (diagnostic.span.start as usize).min(text.len());
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line_end = if text[..line_end].ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let name = format!("pupcheck:ignore:{}", diagnostic.rule);
    let comment = program.comments.iter().find(|c| {
        c.kind == CommentKind::Hash
            && c.span.start as usize >= line_start
            && c.span.start as usize <= line_end
    });
    let (span, insert) = match comment {
        // After `#` and its space: the names come first, the rest stays as the reason.
        Some(c) => {
            let body = source.slice(c.span);
            let skip = 1 + (body[1..].len() - body[1..].trim_start().len());
            (Span::at(c.span.start + skip as u32), format!("{name} "))
        }
        None => {
            let code = crate::analysis::code_map::CodeMap::new(source, program);
            // The line's end must be code: not inside a string or heredoc.
            if line_end > line_start && !code.is_code(line_end as u32 - 1) {
                return None;
            }
            (Span::at(line_end as u32), format!(" # {name}"))
        }
    };
    Some(CodeAction {
        title: format!("Suppress {} on this line", diagnostic.rule),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![shown.clone()]),
        edit: Some(edit(
            &doc.uri,
            vec![TextEdit::new(doc.reported_range(span), insert)],
        )),
        ..CodeAction::default()
    })
}

/// The whole file as `--fix` leaves it, when that changes it.
pub fn fix_all(doc: &Document, source_text: &str, fixed: &str) -> Option<CodeAction> {
    if fixed == source_text {
        return None;
    }
    let whole = Span::new(0, source_text.len() as u32);
    Some(CodeAction {
        title: "Fix all pupcheck findings that have a safe fix".to_string(),
        kind: Some(CodeActionKind::SOURCE_FIX_ALL),
        edit: Some(edit(
            &doc.uri,
            vec![TextEdit::new(doc.reported_range(whole), fixed.to_string())],
        )),
        ..CodeAction::default()
    })
}
