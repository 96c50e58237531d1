//! The rule catalogue in `rules/`: every rule has its documentation (generated from the
//! code's metadata, so the two cannot drift), a failing example that produces exactly
//! that rule at the marked places, and a passing example that produces none of it.
//!
//! `PUPCHECK_UPDATE_RULES=1 cargo test --test rules` rewrites the READMEs.

mod common;

use pupcheck::rules::{Rule, ALL};
use std::path::{Path, PathBuf};

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

fn readme(rule: &Rule) -> String {
    let mut out = format!("# {}\n\n{}.\n\n", rule.id.as_str(), rule.summary);
    out.push_str("| | |\n|---|---|\n");
    out.push_str(&format!("| category | {} |\n", rule.category.name()));
    out.push_str(&format!("| default severity | {} |\n", rule.severity));
    out.push_str(&format!(
        "| enabled by default | {} |\n",
        if rule.enabled_by_default { "yes" } else { "no" }
    ));
    out.push_str(&format!(
        "| fixable | {} |\n",
        if rule.fixable { "yes" } else { "no" }
    ));
    out.push_str(&format!(
        "| puppet-lint check | {} |\n\n",
        rule.puppet_lint
            .map(|n| format!("`{n}`"))
            .unwrap_or_else(|| "none".into())
    ));
    out.push_str(rule.documentation().trim_end());
    let link = |kind: &str| match example(rule, kind) {
        Some(file) => file.file_name().unwrap().to_string_lossy().into_owned(),
        None => format!("{kind}/"),
    };
    out.push_str(&format!(
        "\n\nExamples: [fail]({}) and [pass]({}), checked by `tests/rules.rs`.\n",
        link("fail"),
        link("pass")
    ));
    out
}

#[test]
fn every_rule_has_an_up_to_date_readme() {
    let update = std::env::var("PUPCHECK_UPDATE_RULES").as_deref() == Ok("1");
    let mut stale = Vec::new();
    for rule in ALL {
        let dir = rules_dir().join(rule.id.as_str());
        let path = dir.join("README.md");
        let want = readme(rule);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
            stale.push(rule.id.as_str());
        }
    }
    assert!(
        stale.is_empty(),
        "rules/<id>/README.md is stale for {stale:?}: run PUPCHECK_UPDATE_RULES=1 cargo test --test rules"
    );
    // No folder without a rule.
    for entry in std::fs::read_dir(rules_dir()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            assert!(
                ALL.iter().any(|r| r.id.as_str() == name),
                "rules/{name} has no rule"
            );
        }
    }
}

/// `rules/<id>/<kind>.pp` (or `.epp`); an example may also be a folder `rules/<id>/pass/`
/// or `rules/<id>/fail/` (a small module tree, for rules about file layout).
fn example(rule: &Rule, kind: &str) -> Option<PathBuf> {
    let dir = rules_dir().join(rule.id.as_str());
    ["pp", "epp"]
        .iter()
        .map(|ext| dir.join(format!("{kind}.{ext}")))
        .find(|p| p.exists())
}

fn example_files(rule: &Rule, kind: &str) -> Vec<PathBuf> {
    if let Some(file) = example(rule, kind) {
        return vec![file];
    }
    let dir = rules_dir().join(rule.id.as_str()).join(kind);
    let (found, _) = pupcheck::source::walk::find_files(&[dir]);
    found.into_iter().map(|f| f.path).collect()
}

/// Whether a rule's examples are repositories checked whole: a rule whose findings are
/// on Hiera's files, not on Puppet files (`rules/hiera-*/{fail,pass}/`, the
/// expectations written in the YAML files' comments), and one whose findings depend on
/// the whole environment (its failing example holds an `environment.conf`).
fn is_checked_whole(id: &str) -> bool {
    id.starts_with("hiera-")
        || id == "metadata-json"
        || rules_dir().join(id).join("fail/environment.conf").is_file()
}

/// The expectations of a JSON example (JSON has no comments): the lines of
/// `<file>.expected`, each `line:column: severity[rule]: message`.
fn json_expectations(path: &std::path::Path) -> Vec<common::Finding> {
    let expected = path.with_extension("json.expected");
    let text = std::fs::read_to_string(&expected).unwrap_or_default();
    let mut found: Vec<common::Finding> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (position, rest) = line.split_once(": ").expect("line:column: ...");
            let (l, c) = position.split_once(':').expect("line:column");
            let (severity, rest) = rest.split_once('[').expect("severity[rule]");
            let (rule, message) = rest.split_once("]: ").expect("[rule]: message");
            common::Finding {
                line: l.parse().unwrap(),
                column: c.parse().unwrap(),
                severity: severity.to_string(),
                rule: rule.to_string(),
                message: message.to_string(),
            }
        })
        .collect();
    found.sort();
    found
}

fn whole_example_problems(id: &str, kind: &str) -> Vec<String> {
    let dir = rules_dir().join(id).join(kind);
    let mut problems = Vec::new();
    let report = pupcheck::check::check_paths(std::slice::from_ref(&dir));
    let mut example_files = Vec::new();
    let mut pending = vec![dir.clone()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "pp" || e == "epp" || e == "json")
            {
                example_files.push(path);
            }
        }
    }
    if example_files.is_empty() {
        problems.push(format!("rules/{id}/{kind}: no *.yaml or *.pp"));
    }
    let mut marked = 0;
    for path in example_files {
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = if path.extension().is_some_and(|e| e == "json") {
            json_expectations(&path)
        } else {
            common::expectations(&text)
        };
        if !expected.is_empty() {
            marked += 1;
        }
        let real = std::fs::canonicalize(&path).unwrap();
        let mut actual: Vec<common::Finding> = report
            .files
            .iter()
            .filter(|f| std::fs::canonicalize(&f.path).is_ok_and(|p| p == real))
            .flat_map(|f| {
                // A report keeps its text only when it has findings.
                f.diagnostics
                    .iter()
                    .filter(|d| d.rule.as_str() == id)
                    .map(|d| common::finding(f.source.as_ref().expect("a source"), d))
                    .collect::<Vec<_>>()
            })
            .collect();
        actual.sort();
        if kind == "pass" {
            problems.extend(actual.iter().map(|f| format!("{}: {f}", path.display())));
        } else if let Some(diff) = common::difference(&path, &expected, &actual) {
            problems.push(diff);
        }
    }
    if kind == "fail" && marked == 0 {
        problems.push(format!("rules/{id}: no expectation markers"));
    }
    problems
}

#[test]
fn failing_examples_produce_exactly_their_rule() {
    let mut problems = Vec::new();
    for rule in ALL {
        if is_checked_whole(rule.id.as_str()) {
            problems.extend(whole_example_problems(rule.id.as_str(), "fail"));
            continue;
        }
        let files = example_files(rule, "fail");
        if files.is_empty() {
            problems.push(format!("rules/{}: no fail.pp", rule.id.as_str()));
            continue;
        }
        let mut marked = 0;
        for path in files {
            let mut text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            if path.extension().is_some_and(|e| e == "epp") {
                // Expectation lines are template text there: `<%%` is how text writes `<%`.
                text = text.replace("<%%", "<%");
            }
            let expected = common::expectations(&text);
            if !expected.is_empty() {
                marked += 1;
            }
            if expected.iter().any(|e| e.rule != rule.id.as_str()) {
                problems.push(format!("{}: marks another rule", path.display()));
            }
            let actual: Vec<_> = common::actual(&path)
                .into_iter()
                .filter(|f| f.rule == rule.id.as_str())
                .collect();
            if rule.id.as_str() == "internal-error" {
                // Only a failing pupcheck produces it: tests/hostile.rs makes one fail.
                continue;
            }
            if rule.id.as_str() == "unreadable-file" {
                if actual.len() != 1 {
                    problems.push(format!(
                        "{}: expected one unreadable-file finding",
                        path.display()
                    ));
                }
                continue;
            }
            if let Some(diff) = common::difference(&path, &expected, &actual) {
                problems.push(diff);
            }
        }
        if marked == 0 && !["unreadable-file", "internal-error"].contains(&rule.id.as_str()) {
            problems.push(format!(
                "rules/{}: no expectation markers",
                rule.id.as_str()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn passing_examples_produce_none_of_their_rule() {
    let mut problems = Vec::new();
    for rule in ALL {
        if is_checked_whole(rule.id.as_str()) {
            problems.extend(whole_example_problems(rule.id.as_str(), "pass"));
            continue;
        }
        let files = example_files(rule, "pass");
        if files.is_empty() {
            problems.push(format!("rules/{}: no pass.pp", rule.id.as_str()));
        }
        for path in files {
            let found: Vec<_> = common::actual(&path)
                .into_iter()
                .filter(|f| f.rule == rule.id.as_str())
                .collect();
            for f in found {
                problems.push(format!("{}: {f}", path.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `rules/<id>/fail.fixed.pp`: what `--fix --unsafe-fixes` makes of the failing example
/// with only that rule selected. Every fixable rule has one; fixing it again changes
/// nothing. `PUPCHECK_UPDATE_RULES=1` rewrites them.
#[test]
fn fixable_rules_fix_their_failing_example() {
    use pupcheck::config::{RuleLayer, Selector, Settings};
    use pupcheck::fix::{fix_source, Allowed};
    let update = std::env::var_os("PUPCHECK_UPDATE_RULES").is_some();
    let mut problems = Vec::new();
    for rule in ALL.iter().filter(|r| r.fixable) {
        let Some(fail) = example(rule, "fail") else {
            continue;
        };
        let mut settings = Settings::default();
        settings.rules.apply(&RuleLayer {
            select: Some(vec![Selector::Rule(rule.id)]),
            ..RuleLayer::default()
        });
        let kind = pupcheck::source::SourceKind::from_path(&fail).unwrap();
        let fix = |text: String| {
            fix_source(
                fail.clone(),
                kind,
                text,
                &settings,
                &pupcheck::env::Environment::empty(),
                Allowed::Unsafe,
            )
        };
        let fixed = fix(std::fs::read_to_string(&fail).unwrap());
        let ext = fail.extension().unwrap().to_string_lossy().into_owned();
        let expected_path = fail.with_file_name(format!("fail.fixed.{ext}"));
        if update {
            std::fs::write(&expected_path, &fixed.text).unwrap();
        }
        match std::fs::read_to_string(&expected_path) {
            Err(_) => problems.push(format!("{}: missing", expected_path.display())),
            Ok(expected) if expected != fixed.text => problems.push(format!(
                "{}: --fix gives\n{}",
                expected_path.display(),
                fixed.text
            )),
            Ok(_) => {}
        }
        if fixed.total() == 0 {
            problems.push(format!("{}: nothing was fixed", fail.display()));
        }
        let again = fix(fixed.text.clone());
        if again.text != fixed.text {
            problems.push(format!("{}: a second --fix changes it", fail.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
