//! `--format sarif`: a SARIF 2.1.0 log, as GitHub code scanning and other SARIF viewers
//! read it.
//!
//! One run: the tool with the catalogue's metadata and documentation of every rule the
//! results use, then one result per finding. Locations are URIs relative to
//! `%SRCROOT%` (the working directory, given in `originalUriBaseIds`), so uploads from
//! a checkout map onto the repository; columns count Unicode code points, as pupcheck's
//! do. Each result carries a `partialFingerprints` entry from
//! [`fingerprint`](crate::baseline::fingerprint), so alerts keep their identity when
//! lines move. Paths that cannot be checked are tool execution notifications.

use super::span_positions;
use crate::baseline::fingerprint::{stable_path, Fingerprints};
use crate::check::{FileReport, Report};
use crate::diagnostics::Severity;
use crate::rules::{self, Rule};
use crate::source::Span;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base the relative artifact URIs are resolved against.
pub const SRCROOT: &str = "%SRCROOT%";
/// The key of pupcheck's fingerprint in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "pupcheck/v1";

pub fn write(
    report: &Report,
    fingerprints: &Fingerprints,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // The rules the results use, in id order; results point at them by index.
    let used: BTreeMap<&str, usize> = report
        .diagnostics()
        .map(|(_, d)| d.rule)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .enumerate()
        .map(|(i, rule)| (rule, i))
        .collect();
    let descriptors: Vec<Value> = used.keys().map(|id| descriptor(id)).collect();
    let notifications: Vec<Value> = report
        .walk_errors
        .iter()
        .map(|(path, message)| {
            json!({
                "level": "error",
                "message": {"text": format!("{}: cannot check: {message}", path.display())},
            })
        })
        .collect();
    let mut run = json!({
        "tool": {"driver": {
            "name": "pupcheck",
            "version": env!("CARGO_PKG_VERSION"),
            "semanticVersion": env!("CARGO_PKG_VERSION"),
            "rules": descriptors,
        }},
        "invocations": [{
            "executionSuccessful": report.walk_errors.is_empty(),
            "toolExecutionNotifications": notifications,
        }],
        "columnKind": "unicodeCodePoints",
        "results": RESULTS_MARKER,
    });
    if let Some(root) = srcroot() {
        run["originalUriBaseIds"] = json!({SRCROOT: {"uri": root}});
    }
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    });
    // The results are streamed into the log's place for them, one at a time, so a
    // report of any size takes the memory of one result (a tree of every result took
    // 14 times the output's size), printed exactly as serde_json prints the whole.
    let frame = serde_json::to_string_pretty(&log)?;
    let marker = format!("\"{RESULTS_MARKER}\"");
    let at = frame
        .find(&marker)
        .expect("the results marker is in the serialized log");
    let line_start = frame[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = frame[line_start..at].len() - frame[line_start..at].trim_start().len();
    out.write_all(&frame.as_bytes()[..at])?;
    super::write_fingerprinted_array(
        report,
        fingerprints,
        indent,
        out,
        |file| artifact_location(&file.path),
        |file, uri, d, fingerprint| {
            let result = result(file, uri, d, used[d.rule], &fingerprint.context);
            super::json_element(&result, indent + 2)
        },
    )?;
    out.write_all(&frame.as_bytes()[at + marker.len()..])?;
    writeln!(out)
}

/// Where the results go in the serialized log (a string no result can hold).
const RESULTS_MARKER: &str = "@@pupcheck-sarif-results@@";

/// One SARIF result, typed: serialized straight from these fields (a `json!` tree per
/// result, built and dropped, was most of the format's time on a run with many findings).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    rule_index: usize,
    level: &'static str,
    message: Text<'a>,
    locations: [Location<'a>; 1],
    partial_fingerprints: PartialFingerprints<'a>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation<'a>>,
}

/// `partialFingerprints`: pupcheck's one fingerprint, under [`FINGERPRINT_KEY`].
#[derive(serde::Serialize)]
struct PartialFingerprints<'a> {
    #[serde(rename = "pupcheck/v1")]
    pupcheck: &'a str,
}

#[derive(serde::Serialize)]
struct Text<'a> {
    text: std::borrow::Cow<'a, str>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: Physical<'a>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct RelatedLocation<'a> {
    id: usize,
    physical_location: Physical<'a>,
    message: Text<'a>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical<'a> {
    artifact_location: &'a ArtifactLocation,
    region: Region,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

fn result<'a>(
    file: &FileReport,
    uri: &'a ArtifactLocation,
    d: &'a crate::diagnostics::Diagnostic,
    rule_index: usize,
    fingerprint: &'a str,
) -> SarifResult<'a> {
    SarifResult {
        rule_id: d.rule,
        rule_index,
        level: level(d.severity),
        message: Text {
            text: message_text(&d.message, &d.notes),
        },
        locations: [Location {
            physical_location: physical(file, uri, d.span),
        }],
        partial_fingerprints: PartialFingerprints {
            pupcheck: fingerprint,
        },
        related_locations: d
            .labels
            .iter()
            .enumerate()
            .map(|(id, label)| RelatedLocation {
                id,
                physical_location: physical(file, uri, label.span),
                message: Text {
                    text: label.message.as_str().into(),
                },
            })
            .collect(),
    }
}

/// A rule's reportingDescriptor, from the catalogue.
fn descriptor(id: &str) -> Value {
    let Some(rule) = rules::find(id) else {
        return json!({"id": id});
    };
    let Rule {
        summary,
        docs,
        category,
        severity,
        puppet_lint,
        ..
    } = rule;
    let mut properties = Map::new();
    properties.insert("tags".into(), json!([category.name()]));
    if let Some(lint) = puppet_lint {
        properties.insert("puppet-lint".into(), json!(lint));
    }
    json!({
        "id": id,
        "name": camel_case(id),
        "shortDescription": {"text": summary},
        "fullDescription": {"text": summary},
        "help": {"text": docs.trim(), "markdown": docs.trim()},
        "defaultConfiguration": {"level": level(*severity), "enabled": rule.enabled_by_default},
        "properties": properties,
    })
}

/// `trailing-whitespace` → `TrailingWhitespace` (SARIF's convention for rule names).
fn camel_case(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn message_text<'a>(message: &'a str, notes: &[String]) -> std::borrow::Cow<'a, str> {
    if notes.is_empty() {
        return message.into();
    }
    let mut text = message.to_string();
    for note in notes {
        text.push('\n');
        text.push_str(note);
    }
    text.into()
}

fn physical<'a>(file: &FileReport, location: &'a ArtifactLocation, span: Span) -> Physical<'a> {
    let (start, end) = span_positions(file, span);
    Physical {
        artifact_location: location,
        region: Region {
            start_line: start.line,
            start_column: start.column,
            end_line: end.line,
            end_column: end.column,
        },
    }
}

/// A relative URI under `%SRCROOT%`, or an absolute `file:` URI for a file outside the
/// working directory.
fn artifact_location(path: &Path) -> ArtifactLocation {
    let path = stable_path(path);
    if path.starts_with('/') {
        ArtifactLocation {
            uri: format!("file://{}", encode_uri_path(&path)),
            uri_base_id: None,
        }
    } else {
        ArtifactLocation {
            uri: encode_uri_path(&path),
            uri_base_id: Some(SRCROOT),
        }
    }
}

/// The working directory as a `file:` URI ending in `/`.
fn srcroot() -> Option<String> {
    let cwd = std::env::current_dir().ok()?;
    let cwd = cwd.to_str()?.replace('\\', "/");
    let cwd = cwd.trim_end_matches('/');
    let cwd = if cwd.starts_with('/') {
        cwd.to_string()
    } else {
        format!("/{cwd}")
    };
    Some(format!("file://{}/", encode_uri_path(&cwd)))
}

/// Percent-encodes what may not appear in a URI path (RFC 3986), keeping `/`.
fn encode_uri_path(path: &str) -> String {
    let mut uri = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b':'
            | b'@' => uri.push(byte as char),
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(encode_uri_path("a b/c%d/é.pp"), "a%20b/c%25d/%C3%A9.pp");
        assert_eq!(camel_case("line-too-long"), "LineTooLong");
    }

    #[test]
    fn the_fingerprint_is_under_its_key() {
        let shown = serde_json::to_string(&PartialFingerprints { pupcheck: "f" }).unwrap();
        assert_eq!(shown, format!("{{\"{FINGERPRINT_KEY}\":\"f\"}}"));
    }
}
