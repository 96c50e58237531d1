//! `pupcheck report --compare OLD.json`: what changed since an earlier report (the JSON
//! of `pupcheck report --format json`): the totals, and the rules, repositories, modules
//! and groups of errors whose counts moved, the biggest moves first. The earlier report
//! is read as plain JSON, so a report of an older pupcheck compares too: what it did not
//! record counts as absent.

use super::Estate;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Serialize)]
pub struct Comparison {
    /// The earlier report's file, as given.
    pub previous: String,
    pub totals: Vec<Change>,
    pub rules: Vec<Change>,
    pub repositories: Vec<Change>,
    /// Errors by module.
    pub modules: Vec<Change>,
    /// Errors by rule and what they are about.
    pub errors: Vec<Change>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub name: String,
    pub before: u64,
    pub now: u64,
}

/// Reads an earlier report; a clear message when it is no report.
pub fn read(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not a report of `pupcheck report --format json`: {e}",
            path.display()
        )
    })?;
    if !(value["errors"].is_u64() && value["rules"].is_array()) {
        return Err(format!(
            "{}: not a report of `pupcheck report --format json` (no `errors` and `rules`)",
            path.display()
        ));
    }
    Ok(value)
}

/// `module` of `repository`, and its part when not code: `profile (examples) in ./a`.
pub fn module_label(repository: &str, module: &str, part: &str) -> String {
    let part = if part == "code" || part.is_empty() {
        String::new()
    } else {
        format!(" ({part})")
    };
    format!("{module}{part} in {repository}")
}

/// `unknown-parameter: class nova`, `syntax-error` (and ` (spec)` for tests').
pub fn error_group_label(rule: &str, subject: Option<&str>, part: &str) -> String {
    let mut label = rule.to_string();
    if let Some(subject) = subject {
        label.push_str(": ");
        label.push_str(subject);
    }
    if part != "code" && !part.is_empty() {
        label.push_str(&format!(" ({part})"));
    }
    label
}

/// The changes from `previous` (an earlier report's JSON) to `now`.
pub fn compare(previous_name: &str, previous: &Value, now: &Estate) -> Comparison {
    let now_json = serde_json::to_value(now).expect("the report serializes");
    let totals = [
        "files_checked",
        "lines",
        "errors",
        "warnings",
        "fixable",
        "type_mismatches",
    ]
    .iter()
    .map(|key| Change {
        name: key.replace('_', " "),
        before: previous[key].as_u64().unwrap_or(0),
        now: now_json[key].as_u64().unwrap_or(0),
    })
    .collect();
    let rule = |row: &Value| row["rule"].as_str().map(str::to_string);
    let repository = |row: &Value| row["repository"].as_str().map(str::to_string);
    let module = |row: &Value| {
        Some(module_label(
            row["repository"].as_str().unwrap_or(""),
            row["module"].as_str()?,
            row["part"].as_str().unwrap_or(""),
        ))
    };
    let group = |row: &Value| {
        Some(error_group_label(
            row["rule"].as_str()?,
            row["subject"].as_str(),
            row["part"].as_str().unwrap_or(""),
        ))
    };
    let changes = |section: &str, name: &dyn Fn(&Value) -> Option<String>, count: &str| {
        changed(
            counts(&previous[section], name, count),
            counts(&now_json[section], name, count),
        )
    };
    Comparison {
        previous: previous_name.to_string(),
        totals,
        rules: changes("rules", &rule, "count"),
        repositories: changes("repositories", &repository, "errors"),
        modules: changes("modules", &module, "errors"),
        errors: changes("fix_first", &group, "count"),
    }
}

fn counts(
    rows: &Value,
    name: &dyn Fn(&Value) -> Option<String>,
    count: &str,
) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for row in rows.as_array().into_iter().flatten() {
        if let Some(name) = name(row) {
            *counts.entry(name).or_default() += row[count].as_u64().unwrap_or(0);
        }
    }
    counts
}

/// The names whose count differs, the biggest change first.
fn changed(before: BTreeMap<String, u64>, now: BTreeMap<String, u64>) -> Vec<Change> {
    let names: std::collections::BTreeSet<&String> = before.keys().chain(now.keys()).collect();
    let mut changes: Vec<Change> = names
        .into_iter()
        .map(|name| Change {
            name: name.clone(),
            before: before.get(name).copied().unwrap_or(0),
            now: now.get(name).copied().unwrap_or(0),
        })
        .filter(|c| c.before != c.now)
        .collect();
    changes.sort_by(|a, b| {
        b.now
            .abs_diff(b.before)
            .cmp(&a.now.abs_diff(a.before))
            .then(a.name.cmp(&b.name))
    });
    changes
}

impl Change {
    /// `+3`, `-12`.
    pub fn delta(&self) -> String {
        if self.now >= self.before {
            format!("+{}", self.now - self.before)
        } else {
            format!("-{}", self.before - self.now)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_moved_is_listed_biggest_first() {
        let before = BTreeMap::from([("a".to_string(), 3), ("b".to_string(), 5)]);
        let now = BTreeMap::from([
            ("a".to_string(), 3),
            ("b".to_string(), 1),
            ("c".to_string(), 1),
        ]);
        let changes = changed(before, now);
        assert_eq!(
            changes,
            vec![
                Change {
                    name: "b".into(),
                    before: 5,
                    now: 1
                },
                Change {
                    name: "c".into(),
                    before: 0,
                    now: 1
                },
            ]
        );
        assert_eq!(changes[0].delta(), "-4");
        assert_eq!(changes[1].delta(), "+1");
    }

    #[test]
    fn a_file_that_is_no_report_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.json");
        std::fs::write(&file, "{\"version\": 1}").unwrap();
        assert!(read(&file).unwrap_err().contains("not a report"));
        std::fs::write(&file, "not json").unwrap();
        assert!(read(&file).unwrap_err().contains("not a report"));
        assert!(read(&dir.path().join("missing.json"))
            .unwrap_err()
            .contains("cannot read"));
    }
}
