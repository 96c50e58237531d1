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

/// The findings one rendering unit holds at most: a file with more is rendered in
/// several units, so that one huge file spreads over the cores too.
const UNIT_FINDINGS: usize = 1024;

/// The units rendered at a time: what a run's rendered output holds in memory at once
/// is one batch, whatever the number of findings.
const BATCH_UNITS: usize = 64;

/// Renders the report's findings on every core and hands the parts to `write` in the
/// report's order, a bounded batch at a time: a run with many findings spends no
/// serial time formatting them, and never holds their whole rendering. `render` gets
/// a file (with its index in the report) and the range of its findings to render; a
/// file without findings is rendered once, with an empty range.
pub(crate) fn render_in_batches<B: Send>(
    report: &Report,
    render: impl Fn(usize, &FileReport, std::ops::Range<usize>) -> std::io::Result<B> + Sync,
    mut write: impl FnMut(B) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    let units: Vec<(usize, std::ops::Range<usize>)> = report
        .files
        .iter()
        .enumerate()
        .flat_map(|(index, file)| {
            let n = file.diagnostics.len();
            let starts = (0..n.max(1)).step_by(UNIT_FINDINGS);
            starts.map(move |start| (index, start..(start + UNIT_FINDINGS).min(n)))
        })
        .collect();
    for batch in units.chunks(BATCH_UNITS) {
        let parts: Vec<B> = batch
            .par_iter()
            .map(|(index, range)| render(*index, &report.files[*index], range.clone()))
            .collect::<std::io::Result<_>>()?;
        for part in parts {
            write(part)?;
        }
    }
    Ok(())
}

/// `value` pretty-printed as an element of an array whose elements sit `indent`
/// spaces deep: a new line, the indentation, and the text serde_json's pretty printer
/// gives the element there (serialized straight at that depth, not re-indented).
pub(crate) fn json_element<T: serde::Serialize>(
    value: &T,
    indent: usize,
) -> std::io::Result<String> {
    let mut text = Vec::with_capacity(512);
    text.push(b'\n');
    text.resize(1 + indent, b' ');
    let formatter = PrettyAt {
        level: indent / 2,
        has_value: false,
    };
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut text, formatter,
    ))?;
    String::from_utf8(text).map_err(std::io::Error::other)
}

/// serde_json's `PrettyFormatter` (two spaces a level), begun `level` levels deep.
struct PrettyAt {
    level: usize,
    has_value: bool,
}

impl PrettyAt {
    fn new_line<W: ?Sized + std::io::Write>(
        &self,
        writer: &mut W,
        comma: bool,
    ) -> std::io::Result<()> {
        writer.write_all(if comma { b",\n" } else { b"\n" })?;
        (0..self.level).try_for_each(|_| writer.write_all(b"  "))
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.new_line(writer, false)?;
        }
        writer.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for PrettyAt {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.new_line(writer, !first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.new_line(writer, !first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// A pretty-printed JSON array written an element (each from `json_element`) at a
/// time, exactly as serde_json prints the whole array.
/// The report's findings with their fingerprints as the elements of a pretty-printed
/// JSON array whose closing bracket sits `indent` spaces deep (GitLab's issues, SARIF's
/// results), rendered on every core ([`render_in_batches`]): `element` renders one
/// finding, given what `per_file` made once of its file.
pub(crate) fn write_fingerprinted_array<P>(
    report: &Report,
    fingerprints: &crate::baseline::fingerprint::Fingerprints,
    indent: usize,
    out: &mut dyn std::io::Write,
    per_file: impl Fn(&FileReport) -> P + Sync,
    element: impl Fn(
            &FileReport,
            &P,
            &Diagnostic,
            &crate::baseline::fingerprint::Fingerprint,
        ) -> std::io::Result<String>
        + Sync,
) -> std::io::Result<()> {
    let mut array = JsonArray::new(indent);
    render_in_batches(
        report,
        |index, file, range| {
            let context = per_file(file);
            file.diagnostics[range.clone()]
                .iter()
                .zip(&fingerprints.file(index)[range])
                .map(|(d, fingerprint)| element(file, &context, d, fingerprint))
                .collect::<std::io::Result<Vec<String>>>()
        },
        |part| part.iter().try_for_each(|e| array.push(out, e)),
    )?;
    array.finish(out)
}

pub(crate) struct JsonArray {
    indent: usize,
    empty: bool,
}

impl JsonArray {
    pub(crate) fn new(indent: usize) -> JsonArray {
        JsonArray {
            indent,
            empty: true,
        }
    }

    pub(crate) fn push(
        &mut self,
        out: &mut dyn std::io::Write,
        element: &str,
    ) -> std::io::Result<()> {
        out.write_all(if self.empty { b"[" } else { b"," })?;
        self.empty = false;
        out.write_all(element.as_bytes())
    }

    pub(crate) fn finish(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.empty {
            out.write_all(b"[]")
        } else {
            write!(out, "\n{:width$}]", "", width = self.indent)
        }
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
