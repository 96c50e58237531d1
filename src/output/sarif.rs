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
use crate::baseline::fingerprint::{
    file_context_fingerprints, stable_path, Fingerprint, Fingerprints,
};
use crate::check::{FileReport, Report};
use crate::diagnostics::{RuleId, Severity};
use crate::rules::{self, Rule};
use crate::source::Span;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
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
    let used: BTreeMap<RuleId, usize> = report
        .diagnostics()
        .map(|(_, d)| d.rule)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .enumerate()
        .map(|(i, rule)| (rule, i))
        .collect();
    let descriptors: Vec<Value> = used.keys().map(|id| descriptor(id.as_str())).collect();
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
    debug_assert_eq!(
        frame[line_start..at].len() - frame[line_start..at].trim_start().len(),
        RESULTS_INDENT,
        "the results array sits where its elements are rendered for"
    );
    out.write_all(&frame.as_bytes()[..at])?;
    super::write_fingerprinted_array(
        report,
        fingerprints,
        RESULTS_INDENT,
        out,
        |file, range, fingerprints| part(file, range, fingerprints, &|rule| used[&rule]),
        |rendered| renumbered(rendered, &used),
    )?;
    out.write_all(&frame.as_bytes()[at + marker.len()..])?;
    writeln!(out)
}

/// How deep the log's `results` array sits (`runs[0].results`), in spaces: its elements
/// are rendered one level deeper, where the report's frame is not known yet.
const RESULTS_INDENT: usize = 6;

/// Some of a file's findings (`range`), given their fingerprints, as elements of the
/// results array; `rule_index` numbers each finding's rule.
fn part(
    file: &FileReport,
    range: std::ops::Range<usize>,
    fingerprints: &[Fingerprint],
    rule_index: &dyn Fn(RuleId) -> usize,
) -> std::io::Result<Vec<u8>> {
    let uri = artifact_location(&file.path);
    super::json_elements(
        file.diagnostics[range].iter().zip(fingerprints),
        |(d, fingerprint)| {
            let result = result(file, &uri, d, rule_index(d.rule), &fingerprint.context);
            super::json_element(&result, RESULTS_INDENT + 2)
        },
    )
}

/// The file's whole part as the check's worker renders it: with its fingerprints, and
/// each rule numbered [`CATALOGUE_NUMBERS`] plus its place in the catalogue, for
/// [`renumbered`] to give it its index among the rules the report uses. `None` when a
/// finding's rule is not in the catalogue.
pub(super) fn worker_part(file: &FileReport) -> std::io::Result<Option<Vec<u8>>> {
    let places = catalogue_places();
    if file
        .diagnostics
        .iter()
        .any(|d| !places.contains_key(&d.rule))
    {
        return Ok(None);
    }
    let fingerprints = file_context_fingerprints(file);
    let number = |rule: RuleId| CATALOGUE_NUMBERS + places[&rule];
    part(file, 0..file.diagnostics.len(), &fingerprints, &number).map(Some)
}

/// Where a worker's rule numbers start: above any index of the rules a report uses.
const CATALOGUE_NUMBERS: usize = 1 << 40;

/// Each rule's place in the catalogue, by id.
fn catalogue_places() -> &'static foldhash::HashMap<RuleId, usize> {
    static PLACES: std::sync::OnceLock<foldhash::HashMap<RuleId, usize>> =
        std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        rules::ALL
            .iter()
            .enumerate()
            .map(|(place, rule)| (rule.id, place))
            .collect()
    })
}

/// A worker's part with each `"ruleIndex"` number that counts from
/// [`CATALOGUE_NUMBERS`] replaced by the rule's index among those the report uses. The
/// key cannot occur inside a JSON string (its quotes would be escaped there).
fn renumbered<'a>(part: &'a [u8], used: &BTreeMap<RuleId, usize>) -> Cow<'a, [u8]> {
    const KEY: &[u8] = b"\"ruleIndex\": ";
    // (One searcher for every part: building one costs more than a part's search.)
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(KEY));
    let mut out = Vec::with_capacity(part.len());
    let mut rest = part;
    while let Some(at) = FINDER.find(rest) {
        let digits = at + KEY.len();
        let len = rest[digits..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let number = std::str::from_utf8(&rest[digits..digits + len])
            .ok()
            .and_then(|n| n.parse::<usize>().ok());
        let index = number
            .and_then(|n| n.checked_sub(CATALOGUE_NUMBERS))
            .and_then(|place| rules::ALL.get(place))
            .and_then(|rule| used.get(&rule.id));
        out.extend_from_slice(&rest[..digits]);
        match index {
            Some(index) => write!(out, "{index}").expect("writing to a Vec"),
            None => out.extend_from_slice(&rest[digits..digits + len]),
        }
        rest = &rest[digits + len..];
    }
    out.extend_from_slice(rest);
    Cow::Owned(out)
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
        rule_id: d.rule.as_str(),
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
        category,
        severity,
        puppet_lint,
        ..
    } = rule;
    let docs = rule.documentation();
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
