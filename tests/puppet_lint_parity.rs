//! Parity with puppet-lint 3.0.1 on the real-world corpus: for every puppet-lint check
//! pupcheck implements, the same findings (file, line, column, message) as puppet-lint
//! reported, recorded in tests/golden/puppet-lint/corpus.tsv by
//! scripts/puppet-lint-golden.sh. Checks not implemented yet are listed, not compared.

mod common;

use common::{corpus_files, MODULES};
use pupcheck::rules::ALL;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn implemented_checks_find_what_puppet_lint_finds() {
    let Some(files) = corpus_files() else { return };
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/puppet-lint/corpus.tsv"
    ))
    .unwrap();
    // Only the checks puppet-lint 3.0.1 has (rules for plugin checks are not in the golden).
    let known = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/puppet-lint/checks.txt"
    ))
    .unwrap();
    let known: BTreeSet<&str> = known.lines().collect();
    let implemented: BTreeMap<&str, &str> = ALL
        .iter()
        .filter(|r| r.checks_files())
        .filter_map(|r| r.puppet_lint.map(|lint| (lint, r.id.as_str())))
        .filter(|(lint, _)| known.contains(lint))
        .collect();
    let mut expected: BTreeSet<String> = BTreeSet::new();
    let mut not_implemented: BTreeMap<String, usize> = BTreeMap::new();
    for row in golden.lines() {
        let cols: Vec<&str> = row.split('\t').collect();
        let (path, line, column, check, message) = (cols[0], cols[1], cols[2], cols[3], cols[5]);
        if implemented.contains_key(check) {
            expected.insert(format!("{path}\t{line}\t{column}\t{check}\t{message}"));
        } else {
            *not_implemented.entry(check.to_string()).or_default() += 1;
        }
    }
    let by_rule: BTreeMap<&str, &str> = implemented.iter().map(|(l, r)| (*r, *l)).collect();
    let mut actual: BTreeSet<String> = BTreeSet::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pp"))
    {
        let report = pupcheck::check::check_text(path.clone(), std::fs::read(path).unwrap());
        let Some(source) = &report.source else {
            continue;
        };
        let relative = path.strip_prefix(MODULES).unwrap().display().to_string();
        for d in &report.diagnostics {
            if let Some(check) = by_rule.get(d.rule.as_str()) {
                let p = source.position(d.span.start);
                actual.insert(format!(
                    "{relative}\t{}\t{}\t{check}\t{}",
                    p.line, p.column, d.message
                ));
            }
        }
    }
    eprintln!(
        "compared {} findings of {} checks; not implemented yet: {:?}",
        expected.len(),
        implemented.len(),
        not_implemented
    );
    let missing: Vec<_> = expected.difference(&actual).collect();
    let extra: Vec<_> = actual.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "puppet-lint found, pupcheck did not ({}):\n{}\npupcheck found, puppet-lint did not ({}):\n{}",
        missing.len(),
        missing.iter().take(30).map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        extra.len(),
        extra.iter().take(30).map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
    );
}
