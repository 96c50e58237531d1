//! `pupcheck merge`: the JSON or SARIF reports of the `check --shard I/N` jobs of one
//! run, joined into the report one unsharded run would have written (the findings in
//! path order, the summary's counts added up, the rules the results use listed once).

use super::{EXIT_CLEAN, EXIT_USAGE};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;

/// The largest report read (the SARIF of a very large estate stays well below).
const REPORT_LIMIT: u64 = 1 << 30;

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The reports of the jobs: all pupcheck JSON (`--format json`) or all SARIF.
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Write the merged report to FILE instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    output_file: Option<PathBuf>,
}

pub fn merge(args: MergeArgs) -> i32 {
    match merged(&args.reports).and_then(|text| write(&args, &text)) {
        Ok(()) => EXIT_CLEAN,
        Err(message) => {
            eprintln!("pupcheck merge: {message}");
            EXIT_USAGE
        }
    }
}

fn write(args: &MergeArgs, text: &str) -> Result<(), String> {
    match &args.output_file {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| format!("stdout: {e}")),
    }
}

/// The merged report's text.
fn merged(paths: &[PathBuf]) -> Result<String, String> {
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let text = crate::source::read::read_text(path, REPORT_LIMIT)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let report: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
        reports.push((path, report));
    }
    let kind_of = |report: &Value| {
        if report.get("runs").is_some() && report["version"] == "2.1.0" {
            Some(Kind::Sarif)
        } else if report["version"] == 1 && report["diagnostics"].is_array() {
            Some(Kind::Json)
        } else {
            None
        }
    };
    let mut kind = None;
    for (path, report) in &reports {
        let this = kind_of(report).ok_or_else(|| {
            format!(
                "{}: not a pupcheck JSON report or a SARIF log",
                path.display()
            )
        })?;
        if kind.is_some_and(|k| k != this) {
            return Err(format!(
                "{}: a {} report among {} reports: merge reports of one format",
                path.display(),
                this.name(),
                kind.map_or("", Kind::name)
            ));
        }
        kind = Some(this);
    }
    let reports: Vec<Value> = reports.into_iter().map(|(_, r)| r).collect();
    match kind {
        Some(Kind::Json) => merge_json(reports),
        Some(Kind::Sarif) => merge_sarif(reports),
        None => Err("no report to merge".into()),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Json,
    Sarif,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Json => "JSON",
            Kind::Sarif => "SARIF",
        }
    }
}

/// pupcheck's JSON reports: the diagnostics in path order (each file is one job's, in
/// its order), the counts added up, the longest job's duration.
fn merge_json(reports: Vec<Value>) -> Result<String, String> {
    let mut diagnostics = Vec::new();
    let (mut files, mut errors, mut warnings, mut duration) = (0, 0, 0, 0);
    let mut by_rule: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut by_module: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_file: BTreeMap<String, u64> = BTreeMap::new();
    for report in reports {
        let summary = &report["summary"];
        let number = |key: &str| summary[key].as_u64().unwrap_or(0);
        files += number("files");
        errors += number("errors");
        warnings += number("warnings");
        duration = duration.max(number("duration_ms"));
        for count in summary["by_rule"].as_array().into_iter().flatten() {
            let key = (text(&count["rule"]), text(&count["severity"]));
            *by_rule.entry(key).or_default() += count["count"].as_u64().unwrap_or(0);
        }
        for (table, key) in [(&mut by_module, "by_module"), (&mut by_file, "by_file")] {
            for count in summary[key].as_array().into_iter().flatten() {
                *table.entry(text(&count["name"])).or_default() +=
                    count["count"].as_u64().unwrap_or(0);
            }
        }
        if let Value::Array(items) = report["diagnostics"].clone() {
            diagnostics.extend(items);
        }
    }
    // As a report orders its files: by path, component by component.
    diagnostics.sort_by_key(|d| PathBuf::from(text(&d["path"])));
    // The statistics' order: most first, then by name.
    let mut rules: Vec<_> = by_rule.into_iter().collect();
    rules.sort_by(|a, b| (b.1, &a.0 .0).cmp(&(a.1, &b.0 .0)));
    let counts = |table: BTreeMap<String, u64>| {
        let mut counts: Vec<_> = table.into_iter().collect();
        counts.sort_by(|a, b| (b.1, &a.0).cmp(&(a.1, &b.0)));
        counts
            .into_iter()
            .map(|(name, count)| json!({"name": name, "count": count}))
            .collect::<Vec<_>>()
    };
    let merged = json!({
        "version": 1,
        "diagnostics": diagnostics,
        "summary": {
            "files": files,
            "errors": errors,
            "warnings": warnings,
            "duration_ms": duration,
            "by_rule": rules
                .into_iter()
                .map(|((rule, severity), count)| json!({"rule": rule, "severity": severity, "count": count}))
                .collect::<Vec<_>>(),
            "by_module": counts(by_module),
            "by_file": counts(by_file),
        },
    });
    Ok(format!("{merged}\n"))
}

/// SARIF logs of one run each: one run whose rules are the union of theirs (by id, in
/// id order, the results' indexes renumbered), whose results are theirs in path order,
/// and whose invocation succeeded only if every job's did.
fn merge_sarif(reports: Vec<Value>) -> Result<String, String> {
    let mut runs: Vec<Map<String, Value>> = Vec::new();
    for report in reports {
        match report["runs"].as_array().map(Vec::as_slice) {
            Some([Value::Object(run)]) => runs.push(run.clone()),
            _ => return Err("a SARIF log with other than one run: not pupcheck's".into()),
        }
    }
    let rules_of = |run: &Map<String, Value>| -> Vec<Value> {
        run.get("tool")
            .and_then(|t| t["driver"]["rules"].as_array().cloned())
            .unwrap_or_default()
    };
    let mut rules: BTreeMap<String, Value> = BTreeMap::new();
    for run in &runs {
        for rule in rules_of(run) {
            rules.entry(text(&rule["id"])).or_insert(rule);
        }
    }
    let index: HashMap<&str, usize> = rules
        .keys()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut succeeded = true;
    for run in &runs {
        for mut result in run
            .get("results")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
        {
            let id = text(&result["ruleId"]);
            let renumbered = index
                .get(id.as_str())
                .ok_or_else(|| format!("a result of rule '{id}', which its run does not list"))?;
            result["ruleIndex"] = json!(renumbered);
            results.push(result);
        }
        for invocation in run
            .get("invocations")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            succeeded &= invocation["executionSuccessful"].as_bool().unwrap_or(true);
            if let Some(list) = invocation["toolExecutionNotifications"].as_array() {
                notifications.extend(list.iter().cloned());
            }
        }
    }
    results.sort_by_key(|r| {
        PathBuf::from(text(
            &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ))
    });
    let mut run = runs.swap_remove(0);
    run["tool"]["driver"]["rules"] = Value::Array(rules.into_values().collect());
    run.insert(
        "invocations".into(),
        json!([{"executionSuccessful": succeeded, "toolExecutionNotifications": notifications}]),
    );
    run.insert("results".into(), Value::Array(results));
    let log = json!({
        "$schema": crate::output::sarif::SCHEMA,
        "version": "2.1.0",
        "runs": [run],
    });
    serde_json::to_string_pretty(&log)
        .map(|text| text + "\n")
        .map_err(|e| e.to_string())
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}
