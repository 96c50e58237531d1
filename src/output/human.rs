//! `--format human`: diagnostics with source snippets (codespan-reporting), colour on a
//! terminal unless `NO_COLOR` is set, and a one-line summary.

use super::positions;
use crate::check::Report;
use crate::diagnostics::Severity;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{
    self,
    termcolor::{Buffer, WriteColor},
};

fn severity(s: Severity) -> CsSeverity {
    match s {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Info => CsSeverity::Note,
    }
}

pub fn write(report: &Report, duration_ms: u128, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let color = out.supports_color();
    super::write_parts(
        report,
        |_, file, range| part(file, range, color),
        |part| out.write_all(part),
    )?;
    for (path, message) in &report.walk_errors {
        writeln!(out, "{}: cannot check: {message}", path.display())?;
    }
    writeln!(out, "{}", summary(report, duration_ms))
}

/// Some of a file's findings (`range`) as the report shows them, in colour or not.
pub(super) fn part(
    file: &crate::check::FileReport,
    range: std::ops::Range<usize>,
    color: bool,
) -> std::io::Result<Vec<u8>> {
    let mut part = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    write_findings(file, range, &mut part)?;
    Ok(part.into_inner())
}

/// Some of a file's findings (`range`), with snippets.
fn write_findings(
    file: &crate::check::FileReport,
    range: std::ops::Range<usize>,
    out: &mut dyn WriteColor,
) -> std::io::Result<()> {
    let config = term::Config::default();
    let simple = file.source.as_ref().map(|source| IndexedFile {
        name: file.path.display().to_string(),
        source,
    });
    for d in &file.diagnostics[range] {
        // A snippet prints the finding's whole line: for a line of hundreds of KB with
        // thousands of findings the output would grow with their product.
        let snippet = simple.as_ref().filter(|_| !on_long_line(file, d));
        let Some(simple) = snippet else {
            let (start, _) = positions(file, d);
            writeln!(
                out,
                "{}: {}[{}]: {} ({}:{})",
                file.path.display(),
                d.severity,
                d.rule,
                d.message,
                start.line,
                start.column
            )?;
            continue;
        };
        let mut labels = vec![Label::primary((), d.span.range())];
        labels.extend(
            d.labels
                .iter()
                .map(|l| Label::secondary((), l.span.range()).with_message(&l.message)),
        );
        let diagnostic = CsDiagnostic::new(severity(d.severity))
            .with_code(d.rule)
            .with_message(&d.message)
            .with_labels(labels)
            .with_notes(d.notes.clone());
        term::emit(out, &config, simple, &diagnostic).map_err(std::io::Error::other)?;
    }
    Ok(())
}

/// A checked file as codespan-reporting reads it, through the line index the file
/// already has (its `SimpleFile` indexes the text again: per part of a file with many
/// findings, that grew with their product). Lines are what `SimpleFile` makes them.
struct IndexedFile<'a> {
    name: String,
    source: &'a crate::source::SourceFile,
}

impl<'a> Files<'a> for IndexedFile<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.source.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, FilesError> {
        let offset = u32::try_from(byte_index).unwrap_or(u32::MAX);
        Ok(self.source.lines.line_of(offset))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, FilesError> {
        Ok(self.line_start(line_index)?..self.line_start(line_index + 1)?)
    }
}

impl IndexedFile<'_> {
    /// Where line `line_index` starts; the end of the text for the line after the
    /// last, as `SimpleFile` answers.
    fn line_start(&self, line_index: usize) -> Result<usize, FilesError> {
        let lines = &self.source.lines;
        match line_index.cmp(&lines.line_count()) {
            std::cmp::Ordering::Less => Ok(lines.line_start(line_index).unwrap_or(0) as usize),
            std::cmp::Ordering::Equal => Ok(self.source.text.len()),
            std::cmp::Ordering::Greater => Err(FilesError::LineTooLarge {
                given: line_index,
                max: lines.line_count() - 1,
            }),
        }
    }
}

/// Lines longer than this are not shown in snippets (the finding is printed on one line).
const MAX_SNIPPET_LINE: usize = 1000;

/// Whether the finding's line (or a label's) is too long to show.
fn on_long_line(file: &crate::check::FileReport, d: &crate::diagnostics::Diagnostic) -> bool {
    let Some(source) = &file.source else {
        return false;
    };
    let long = |offset: u32| {
        let line = source.lines.line_of(offset.min(source.text.len() as u32));
        let start = source.lines.line_start(line).unwrap_or(0) as usize;
        let end = source
            .lines
            .line_start(line + 1)
            .map_or(source.text.len(), |e| e as usize);
        end - start > MAX_SNIPPET_LINE
    };
    long(d.span.start) || long(d.span.end) || d.labels.iter().any(|l| long(l.span.start))
}

/// `Checked 4 files in 3 ms: 2 errors, 0 warnings.`
pub fn summary(report: &Report, duration_ms: u128) -> String {
    let errors = report.count(Severity::Error);
    let warnings = report.count(Severity::Warning);
    format!(
        "Checked {} file{} in {} ms: {} error{}, {} warning{}.",
        report.files_checked,
        plural(report.files_checked),
        duration_ms,
        errors,
        plural(errors),
        warnings,
        plural(warnings)
    )
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
