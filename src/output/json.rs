//! `--format json`: one JSON object with every diagnostic and a summary.
//!
//! `{"version":1,"diagnostics":[{"path","line","column","end_line","end_column",
//! "severity","rule","message"}...],"summary":{"files","errors","warnings","duration_ms",
//! "by_rule":[{"rule","severity","count"}...],"by_module":[{"name","count"}...],
//! "by_file":[{"name","count"}...]}}`, the counts most first.

use super::positions;
use crate::check::Report;
use crate::diagnostics::Severity;
use crate::statistics::{Count, RuleCount, Statistics};
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: String,
    line: u32,
    column: u32,
    end_line: u32,
    end_column: u32,
    severity: Severity,
    rule: &'a str,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    duration_ms: u128,
    by_rule: Vec<RuleCount>,
    by_module: Vec<Count>,
    by_file: Vec<Count>,
}

/// Written as serde_json writes the whole report compactly, the diagnostics rendered on
/// every core in bounded batches (`write_parts`) between the report's head and its
/// summary.
pub fn write(report: &Report, duration_ms: u128, out: &mut dyn Write) -> std::io::Result<()> {
    out.write_all(br#"{"version":1,"diagnostics":["#)?;
    let mut first = true;
    super::write_parts(
        report,
        |_, file, range| part(file, range),
        |part| {
            if part.is_empty() {
                return Ok(());
            }
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            out.write_all(part)
        },
    )?;
    out.write_all(br#"],"summary":"#)?;
    let Statistics {
        by_rule,
        by_module,
        by_file,
    } = Statistics::of(report);
    let summary = Summary {
        files: report.files_checked,
        errors: report.count(Severity::Error),
        warnings: report.count(Severity::Warning),
        duration_ms,
        by_rule,
        by_module,
        by_file,
    };
    serde_json::to_writer(&mut *out, &summary)?;
    writeln!(out, "}}")
}

/// Some of a file's findings (`range`), as the elements of the diagnostics array.
pub(super) fn part(
    file: &crate::check::FileReport,
    range: std::ops::Range<usize>,
) -> std::io::Result<Vec<u8>> {
    let path = file.path.display().to_string();
    let mut part = Vec::new();
    for d in &file.diagnostics[range] {
        let (start, end) = positions(file, d);
        let diagnostic = JsonDiagnostic {
            path: path.clone(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            severity: d.severity,
            rule: d.rule.as_str(),
            message: &d.message,
        };
        if !part.is_empty() {
            part.push(b',');
        }
        serde_json::to_writer(&mut part, &diagnostic)?;
    }
    Ok(part)
}
