//! The failures the interpretation of a file found (`crate::infer`), of one kind, as
//! they are reported: where, Puppet's message, and for a failure in a body a
//! declaration of the file evaluated, a note naming the place in that body.

use super::context::InterpretedFile;
use crate::eval::FailureKind;
use crate::source::Span;

/// A failure as reported.
pub struct ReportedFailure {
    pub span: Span,
    pub message: String,
    pub note: Option<String>,
}

/// The failures of `kind` of the file's interpretation: those of its own bodies, then
/// those its declarations raise in the bodies they declare.
pub fn failures_of_kind(ctx: &InterpretedFile, kind: FailureKind) -> Vec<ReportedFailure> {
    let mut found = Vec::new();
    for failure in ctx.inference().failures() {
        if failure.kind == kind {
            found.push(ReportedFailure {
                span: failure.span,
                message: failure.message.clone(),
                note: None,
            });
        }
    }
    for declared in ctx.inference().declared_failures() {
        if declared.failure.kind == kind {
            let through = if declared.through.is_empty() {
                String::new()
            } else {
                format!(", declared by {}", declared.through.join(", then by "))
            };
            found.push(ReportedFailure {
                span: declared.at,
                message: declared.failure.message.clone(),
                note: Some(format!(
                    "Puppet raises it in the body of {} '{}' ({}:{}){through}, for the values this declaration gives",
                    declared.kind,
                    declared.definition,
                    crate::source::shown_path(&declared.path),
                    declared.line
                )),
            });
        }
    }
    found
}
