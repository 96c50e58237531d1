//! `--format gitlab`: a GitLab Code Quality report (the Code Climate subset GitLab
//! reads): a JSON array of issues with a description, the rule as `check_name`, a
//! stable `fingerprint`, a severity and the location.

use crate::baseline::fingerprint::{stable_path, Fingerprints};
use crate::check::Report;
use crate::diagnostics::Severity;
use crate::rules::{self, Category};
use serde_json::json;
use std::io::Write;

pub fn write(
    report: &Report,
    fingerprints: &Fingerprints,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut issues = super::JsonArray::new(0);
    super::render_in_batches(
        report,
        |index, file, range| {
            let path = stable_path(&file.path);
            file.diagnostics[range.clone()]
                .iter()
                .zip(&fingerprints.file(index)[range])
                .map(|(d, fingerprint)| {
                    let (start, end) = super::positions(file, d);
                    let issue = json!({
                        "type": "issue",
                        "check_name": d.rule,
                        "description": d.message,
                        "categories": [category(d.rule)],
                        "severity": severity(d.severity),
                        "fingerprint": fingerprint.context,
                        "location": {
                            "path": path,
                            "lines": {"begin": start.line, "end": end.line},
                        },
                    });
                    Ok(super::indented(&serde_json::to_string_pretty(&issue)?, 2))
                })
                .collect::<std::io::Result<Vec<String>>>()
        },
        |part| part.iter().try_for_each(|issue| issues.push(out, issue)),
    )?;
    issues.finish(out)?;
    writeln!(out)
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
