//! `--format gitlab`: a GitLab Code Quality report (the Code Climate subset GitLab
//! reads): a JSON array of issues with a description, the rule as `check_name`, a
//! stable `fingerprint`, a severity and the location.

use crate::baseline::fingerprint::{
    file_context_fingerprints, stable_path, Fingerprint, Fingerprints,
};
use crate::check::{FileReport, Report};
use crate::diagnostics::Severity;
use crate::rules::{self, Category};
use std::io::Write;

pub fn write(
    report: &Report,
    fingerprints: &Fingerprints,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    super::write_fingerprinted_array(report, fingerprints, 0, out, part, super::unchanged)?;
    writeln!(out)
}

/// Some of a file's findings (`range`), given their fingerprints, as elements of the
/// array of issues.
fn part(
    file: &FileReport,
    range: std::ops::Range<usize>,
    fingerprints: &[Fingerprint],
) -> std::io::Result<Vec<u8>> {
    let path = stable_path(&file.path);
    super::json_elements(
        file.diagnostics[range].iter().zip(fingerprints),
        |(d, fingerprint)| {
            let (start, end) = super::positions(file, d);
            let issue = Issue {
                kind: "issue",
                check_name: d.rule.as_str(),
                description: &d.message,
                categories: [category(d.rule.as_str())],
                severity: severity(d.severity),
                fingerprint: &fingerprint.context,
                location: Location {
                    path: &path,
                    lines: Lines {
                        begin: start.line,
                        end: end.line,
                    },
                },
            };
            super::json_element(&issue, 2)
        },
    )
}

/// The file's whole part, with its fingerprints, as the check's worker renders it.
pub(super) fn worker_part(file: &FileReport) -> std::io::Result<Vec<u8>> {
    part(
        file,
        0..file.diagnostics.len(),
        &file_context_fingerprints(file),
    )
}

/// One Code Quality issue, typed: serialized straight from these fields, in this order
/// (a `json!` tree per issue, built and dropped, cost most of the format's time).
#[derive(serde::Serialize)]
struct Issue<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    check_name: &'a str,
    description: &'a str,
    categories: [&'static str; 1],
    severity: &'static str,
    fingerprint: &'a str,
    location: Location<'a>,
}

#[derive(serde::Serialize)]
struct Location<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(serde::Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

/// Code Quality's severities: `info`, `minor`, `major`, `critical`, `blocker`. Errors
/// are code Puppet rejects; warnings are style and risks.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "critical",
        Severity::Warning => "minor",
        Severity::Info => "info",
    }
}

/// Code Climate's category for a rule.
fn category(rule: &str) -> &'static str {
    match rules::find(rule).map(|r| r.category) {
        Some(Category::Style) => "Style",
        Some(Category::Documentation) => "Clarity",
        Some(Category::Security) => "Security",
        Some(Category::Syntax | Category::Validation | Category::Type) | None => "Bug Risk",
    }
}
