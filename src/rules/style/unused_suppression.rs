//! The rule reporting suppression comments that suppress nothing (as ruff reports an
//! unused `noqa`) or name no rule. The comments are read by
//! `crate::analysis::suppressions` and applied by the rule runner (`check::suppress`),
//! which reports these findings.


declare_rule! {
    /// ## What it does
    /// Reports a `# pupcheck:ignore:<rule>` or `# lint:ignore:<check>` comment that suppresses
    /// no finding, and a `pupcheck:ignore` naming a rule that does not exist.
    ///
    /// ## Why it matters
    /// Stale suppressions hide the next real problem on that line and mislead readers.
    ///
    /// ## Example
    /// ```puppet
    /// $a = 1 # lint:ignore:140chars
    /// ```
    ///
    /// ## How to fix
    /// Remove the comment, or correct the rule name (`pupcheck rules` lists them).
    "unused-suppression" (Style, Warning)
    "A suppression comment suppresses nothing"
}
