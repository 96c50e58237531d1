//! Rendering a [`Report`](crate::check::Report): one module per format. Formats decide
//! nothing about what is a finding; they only print.

pub mod checkstyle;
pub mod concise;
pub mod estate;
pub mod estate_html;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod progress;
pub mod sarif;
pub mod statistics;
mod xml;

use crate::check::{FileReport, Report};
use crate::diagnostics::Diagnostic;
use crate::source::{Position, Span};

/// Each file's part of a report, rendered by `render` on every core, in the report's
/// order: a run with many findings spends no serial time formatting them, only writing
/// the parts out.
pub(crate) fn render_files<B: Send>(
    report: &Report,
    render: impl Fn(usize, &FileReport) -> std::io::Result<B> + Sync,
) -> std::io::Result<Vec<B>> {
    use rayon::prelude::*;
    report
        .files
        .par_iter()
        .enumerate()
        .map(|(index, file)| render(index, file))
        .collect()
}

/// The lines of `text`, each on a new line indented by `indent` spaces: how an element
/// serialized on its own sits in an array serde_json pretty-prints.
pub(crate) fn indented(text: &str, indent: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for line in text.lines() {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', indent));
        out.push_str(line);
    }
    out
}

/// Elements (each already `indented`) as the pretty-printed JSON array serde_json would
/// print of them.
pub(crate) fn write_json_array<'a>(
    out: &mut dyn std::io::Write,
    elements: impl Iterator<Item = &'a str>,
    indent: usize,
) -> std::io::Result<()> {
    let mut first = true;
    for element in elements {
        out.write_all(if first { b"[" } else { b"," })?;
        first = false;
        out.write_all(element.as_bytes())?;
    }
    if first {
        out.write_all(b"[]")
    } else {
        write!(out, "\n{:width$}]", "", width = indent)
    }
}

/// The 1-based start and end positions of a diagnostic in its file (1:1 when the file's
/// text is not available, e.g. it could not be read).
pub fn positions(file: &FileReport, diagnostic: &Diagnostic) -> (Position, Position) {
    span_positions(file, diagnostic.span)
}

/// The 1-based start and end positions of a span in a file (1:1 without its text).
pub fn span_positions(file: &FileReport, span: Span) -> (Position, Position) {
    match &file.source {
        Some(source) => (source.position(span.start), source.position(span.end)),
        None => {
            let p = Position { line: 1, column: 1 };
            (p, p)
        }
    }
}
