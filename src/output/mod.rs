//! Rendering a [`Report`](crate::check::Report): one module per format. Formats decide
//! nothing about what is a finding; they only print.

pub mod human;
pub mod json;

use crate::check::FileReport;
use crate::diagnostics::Diagnostic;
use crate::source::Position;

/// The 1-based start and end positions of a diagnostic in its file (1:1 when the file's
/// text is not available, e.g. it could not be read).
pub fn positions(file: &FileReport, diagnostic: &Diagnostic) -> (Position, Position) {
    match &file.source {
        Some(source) => (
            source.position(diagnostic.span.start),
            source.position(diagnostic.span.end),
        ),
        None => {
            let p = Position { line: 1, column: 1 };
            (p, p)
        }
    }
}
