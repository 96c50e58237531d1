//! Applying a file's suppression comments (read by `crate::analysis::suppressions`)
//! to its findings, and reporting those that suppress nothing (`unused-suppression`).

use crate::analysis::context::FileContext;
use crate::config::RuleSelection;
use crate::diagnostics::Diagnostic;
use crate::rules::style::unused_suppression::RULE;

/// Removes suppressed diagnostics and adds the unused-suppression findings.
pub fn apply(ctx: &FileContext, rules: &RuleSelection, diagnostics: &mut Vec<Diagnostic>) {
    let suppressions = &ctx.suppressions.comments;
    let mut problems: Vec<Diagnostic> = ctx
        .suppressions
        .unknown_rules
        .iter()
        .map(|(span, name)| {
            RULE.diagnostic(
                *span,
                format!("`{name}` is not a pupcheck rule (see `pupcheck rules`)"),
            )
        })
        .collect();
    if suppressions.is_empty() && problems.is_empty() {
        return;
    }
    // Whether each name of each comment suppressed something.
    let mut used: Vec<Vec<bool>> = suppressions
        .iter()
        .map(|s| vec![false; s.names.len()])
        .collect();
    diagnostics.retain(|d| {
        if crate::diagnostics::rule_ids::ALWAYS_REPORTED.contains(&d.rule) {
            return true;
        }
        let line = ctx.source.position(d.span.start).line;
        let mut keep = true;
        for (s, used) in suppressions
            .iter()
            .zip(used.iter_mut())
            .filter(|(s, _)| s.first_line <= line && line <= s.last_line)
        {
            for ((id, _), used) in s.names.iter().zip(used.iter_mut()) {
                if *id == Some(d.rule) {
                    *used = true;
                    keep = false;
                }
            }
        }
        keep
    });
    for (s, used) in suppressions
        .iter()
        .zip(&used)
        .filter(|_| rules.is_enabled(&RULE))
    {
        for ((id, name), used) in s.names.iter().zip(used) {
            let enabled = id
                .and_then(|id| crate::rules::find(id.as_str()))
                .is_some_and(|r| rules.is_enabled(r) && r.checks_files());
            if !used && enabled {
                problems.push(RULE.diagnostic(
                    s.comment,
                    format!("this suppression of `{name}` suppresses nothing"),
                ));
            }
        }
    }
    diagnostics.extend(problems);
}
