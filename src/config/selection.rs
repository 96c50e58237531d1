//! Which rules run, and at what severity: the result of layering `select`, `extend-select`
//! and `ignore` (from a config file, its per-path overrides and the command line) over
//! the rules enabled by default.

use crate::diagnostics::{RuleId, Severity};
use crate::rules::{self, Category, Rule, ALL};

/// What a selector names: one rule (by id or puppet-lint check name), a category, or
/// every rule (`all`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Rule(RuleId),
    Category(Category),
    All,
}

impl Selector {
    /// Reads `trailing-whitespace`, `trailing_whitespace`, `style` or `all`.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let text = text.trim();
        if text == "all" {
            return Ok(Selector::All);
        }
        if let Some(category) = Category::from_name(text) {
            return Ok(Selector::Category(category));
        }
        match rules::find(text) {
            Some(rule) => Ok(Selector::Rule(rule.id)),
            None => Err(format!(
                "unknown rule or category '{text}' (`pupcheck rules` lists them)"
            )),
        }
    }

    fn matches(&self, rule: &Rule) -> bool {
        match self {
            Selector::Rule(id) => rule.id == *id,
            Selector::Category(c) => rule.category == *c,
            Selector::All => true,
        }
    }
}

/// One layer of configuration about rules; absent fields change nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleLayer {
    /// Replaces the selection so far.
    pub select: Option<Vec<Selector>>,
    /// Adds to it.
    pub extend_select: Vec<Selector>,
    /// Removes from it.
    pub ignore: Vec<Selector>,
    /// Severity for rules or categories; later entries win.
    pub severity: Vec<(Selector, Severity)>,
}

impl RuleLayer {
    pub fn is_empty(&self) -> bool {
        self == &RuleLayer::default()
    }
}

/// The rules that run on a file, by position in [`ALL`], with their severities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSelection {
    enabled: Vec<bool>,
    severity: Vec<Severity>,
}

impl Default for RuleSelection {
    fn default() -> Self {
        RuleSelection {
            enabled: ALL.iter().map(|r| r.enabled_by_default).collect(),
            severity: ALL.iter().map(|r| r.severity).collect(),
        }
    }
}

impl RuleSelection {
    /// Applies one layer on top of this selection.
    pub fn apply(&mut self, layer: &RuleLayer) {
        if let Some(select) = &layer.select {
            for (i, rule) in ALL.iter().enumerate() {
                self.enabled[i] = select.iter().any(|s| s.matches(rule));
            }
        }
        for (i, rule) in ALL.iter().enumerate() {
            if layer.extend_select.iter().any(|s| s.matches(rule)) {
                self.enabled[i] = true;
            }
            if layer.ignore.iter().any(|s| s.matches(rule)) {
                self.enabled[i] = false;
            }
            for (selector, severity) in &layer.severity {
                if selector.matches(rule) {
                    self.severity[i] = *severity;
                }
            }
        }
    }

    pub fn is_enabled(&self, rule: &Rule) -> bool {
        self.index(rule.id).is_some_and(|i| self.enabled[i])
    }

    /// The severity findings of `rule_id` are reported at (the rule's own by default).
    pub fn severity(&self, rule_id: RuleId) -> Option<Severity> {
        self.index(rule_id).map(|i| self.severity[i])
    }

    /// The severity configured for `rule_id` where it is not the rule's own: what
    /// replaces a finding's severity (a rule may give some findings another severity of
    /// its own, which only a configured one overrides).
    pub fn severity_override(&self, rule_id: RuleId) -> Option<Severity> {
        let i = self.index(rule_id)?;
        (self.severity[i] != ALL[i].severity).then_some(self.severity[i])
    }

    /// The enabled rules, in id order.
    pub fn enabled(&self) -> impl Iterator<Item = &'static Rule> + '_ {
        ALL.iter()
            .zip(&self.enabled)
            .filter(|(_, on)| **on)
            .map(|(r, _)| *r)
    }

    fn index(&self, rule_id: RuleId) -> Option<usize> {
        ALL.iter().position(|r| r.id == rule_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(select: Option<&[&str]>, extend: &[&str], ignore: &[&str]) -> RuleLayer {
        let parse = |names: &[&str]| -> Vec<Selector> {
            names.iter().map(|n| Selector::parse(n).unwrap()).collect()
        };
        RuleLayer {
            select: select.map(parse),
            extend_select: parse(extend),
            ignore: parse(ignore),
            severity: Vec::new(),
        }
    }

    #[test]
    fn select_replaces_extend_adds_ignore_removes() {
        let mut s = RuleSelection::default();
        s.apply(&layer(
            Some(&["validation"]),
            &["trailing_whitespace"],
            &["duplicate-key"],
        ));
        let on: Vec<_> = s.enabled().map(|r| r.id.as_str()).collect();
        assert!(
            on.contains(&"trailing-whitespace"),
            "puppet-lint names select rules"
        );
        assert!(on.contains(&"not-rvalue"));
        assert!(!on.contains(&"duplicate-key"));
        assert!(!on.contains(&"hard-tabs"), "select replaced the defaults");
    }

    #[test]
    fn unknown_names_are_errors() {
        assert!(Selector::parse("no-such-rule").is_err());
        assert_eq!(Selector::parse("all"), Ok(Selector::All));
    }

    #[test]
    fn severity_overrides_apply_by_category_then_rule() {
        let mut s = RuleSelection::default();
        s.apply(&RuleLayer {
            severity: vec![
                (Selector::parse("style").unwrap(), Severity::Error),
                (Selector::parse("hard-tabs").unwrap(), Severity::Info),
            ],
            ..RuleLayer::default()
        });
        assert_eq!(
            s.severity(rules::find("trailing-whitespace").unwrap().id),
            Some(Severity::Error)
        );
        assert_eq!(
            s.severity(rules::find("hard-tabs").unwrap().id),
            Some(Severity::Info)
        );
    }
}
