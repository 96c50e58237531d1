use crate::analysis::definition_names::definitions;
use crate::rules::FileContext;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports class and defined type names with uppercase letters.
    ///
    /// ## Why it matters
    /// Names are lowercase in Puppet; the autoloader looks for lowercase file names, so such a
    /// class is not found on case-sensitive file systems.
    ///
    /// ## Example
    /// ```puppet
    /// class Demo::Config { }
    /// ```
    ///
    /// ## How to fix
    /// Use the lowercase name: `class demo::config { }`.
    "names-containing-uppercase" (Style, Warning)
    "A class or defined type name contains an uppercase letter"
    { fixable, puppet_lint: "names_containing_uppercase", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        if d.name.name.chars().any(|c| c.is_ascii_uppercase()) {
            // Puppet resolves class and type names ignoring case, so the lowercase name
            // still names the same definition.
            out.push(
                RULE.diagnostic(
                    d.name.span,
                    format!("{} '{}' contains illegal uppercase", d.what, d.name.name),
                )
                .with_fix(Fix::replace(d.name.span, d.name.name.to_lowercase())),
            );
        }
    }
}
