//! `--format human`: diagnostics with source snippets (codespan-reporting), colour on a
//! terminal unless `NO_COLOR` is set, and a one-line summary.

use super::positions;
use crate::check::Report;
use crate::diagnostics::Severity;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
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
    let parts = super::render_files(report, |_, file| {
        let mut part = if color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        write_file(file, &mut part)?;
        Ok(part)
    })?;
    for part in parts {
        out.write_all(part.as_slice())?;
    }
    for (path, message) in &report.walk_errors {
        writeln!(out, "{}: cannot check: {message}", path.display())?;
    }
    writeln!(out, "{}", summary(report, duration_ms))
}

/// One file's findings, with snippets.
fn write_file(file: &crate::check::FileReport, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let config = term::Config::default();
    // Built once per file: it indexes the file's line starts, which per diagnostic made a
    // file with many findings quadratic.
    let simple = file
        .source
        .as_ref()
        .map(|source| SimpleFile::new(file.path.display().to_string(), source.text.as_str()));
    for d in &file.diagnostics {
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
