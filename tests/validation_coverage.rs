//! Every problem Puppet's validator can raise is listed in docs/validation.md, with the
//! rule that reports it (or why none can). The list is checked against the `Issues::`
//! names in the installed checker4_0.rb, so a problem cannot be missed silently.

use std::collections::BTreeSet;

const CHECKER: &str = "/usr/lib/ruby/vendor_ruby/puppet/pops/validation/checker4_0.rb";

#[test]
fn every_validator_issue_is_listed() {
    let Ok(checker) = std::fs::read_to_string(CHECKER) else {
        assert!(
            std::env::var("PUPCHECK_REQUIRE_CORPUS").as_deref() != Ok("1"),
            "{CHECKER} is missing: run scripts/setup.sh --tools-only"
        );
        eprintln!("Puppet not installed; skipping");
        return;
    };
    let issues: BTreeSet<&str> = checker
        .match_indices("Issues::")
        .map(|(i, _)| {
            let rest = &checker[i + "Issues::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect();
    assert!(issues.len() >= 40, "only {} issues found", issues.len());
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/validation.md"))
        .unwrap();
    let missing: Vec<_> = issues
        .iter()
        .filter(|i| !doc.contains(&format!("| `{i}` |")))
        .collect();
    assert!(missing.is_empty(), "not in docs/validation.md: {missing:?}");
    // Every rule named in the table exists (a cell starting with a rule id names one).
    for line in doc.lines().filter(|l| l.starts_with("| `")) {
        let cell = line.split('|').nth(2).unwrap_or("").trim();
        if let Some(rule) = cell.strip_prefix('`').and_then(|c| c.split('`').next()) {
            assert!(
                pupcheck::rules::find(rule).is_some(),
                "docs/validation.md names unknown rule {rule}"
            );
        }
    }
}
