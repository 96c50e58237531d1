//! `pupcheck rules` (the catalogue) and `pupcheck rule ID` (one rule's documentation).

use super::{EXIT_CLEAN, EXIT_USAGE};
use crate::rules::{find, Rule, ALL};
use serde_json::json;

fn as_json(rule: &Rule) -> serde_json::Value {
    json!({
        "id": rule.id,
        "summary": rule.summary,
        "category": rule.category.name(),
        "severity": rule.severity.to_string(),
        "enabled_by_default": rule.enabled_by_default,
        "fixable": rule.fixable,
        "puppet_lint": rule.puppet_lint,
    })
}

pub fn list(json_format: bool) -> i32 {
    if json_format {
        let all: Vec<_> = ALL.iter().map(|r| as_json(r)).collect();
        println!("{}", serde_json::Value::Array(all));
        return EXIT_CLEAN;
    }
    println!(
        "{:<22} {:<8} {:<13} {:<5} {:<7} {:<22} summary",
        "rule", "severity", "category", "fix", "enabled", "puppet-lint"
    );
    let mut rules: Vec<&Rule> = ALL.to_vec();
    rules.sort_by_key(|r| r.id);
    for r in rules {
        println!(
            "{:<22} {:<8} {:<13} {:<5} {:<7} {:<22} {}",
            r.id,
            r.severity.to_string(),
            r.category.name(),
            if r.fixable { "yes" } else { "-" },
            if r.enabled_by_default { "yes" } else { "no" },
            r.puppet_lint.unwrap_or("-"),
            r.summary
        );
    }
    EXIT_CLEAN
}

pub fn explain(name: &str) -> i32 {
    let Some(rule) = find(name) else {
        eprintln!("pupcheck: no rule `{name}` (`pupcheck rules` lists them)");
        return EXIT_USAGE;
    };
    println!(
        "# {} ({} {})\n",
        rule.id,
        rule.severity,
        rule.category.name()
    );
    println!("{}.", rule.summary);
    if let Some(lint) = rule.puppet_lint {
        println!("puppet-lint check: {lint}");
    }
    println!("\n{}", rule.documentation().trim_end());
    EXIT_CLEAN
}
