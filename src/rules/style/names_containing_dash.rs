use crate::analysis::definition_names::definitions;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports class and defined type names with a `-`.
    ///
    /// ## Why it matters
    /// Puppet 4 and later do not accept dashes in class names; such a class cannot be found.
    ///
    /// ## Example
    /// ```puppet
    /// class my-module { }
    /// ```
    ///
    /// ## How to fix
    /// Use underscores: `class my_module { }`.
    "names-containing-dash" (Style, Warning)
    "A class or defined type name contains a dash"
    { puppet_lint: "names_containing_dash", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        if d.name.name.contains('-') {
            out.push(RULE.diagnostic(d.name.span, format!("{} name containing a dash", d.what)));
        }
    }
}
