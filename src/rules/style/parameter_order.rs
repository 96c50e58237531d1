use crate::analysis::definition_names::definitions;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a required parameter (one without a default, `Optional[...]` ones included) of a
    /// class or defined type that comes after a parameter with a default.
    ///
    /// ## Why it matters
    /// The style guide lists required parameters first, so a reader sees at once what must be
    /// given.
    ///
    /// ## Example
    /// ```puppet
    /// class demo (
    ///   Integer $port = 80,
    ///   String  $name,
    /// ) { }
    /// ```
    ///
    /// ## How to fix
    /// Move the required parameters to the front.
    "parameter-order" (Style, Warning)
    "An optional parameter comes before a required one"
    { puppet_lint: "parameter_order", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        let Some(params) = d.params else { continue };
        let mut seen_default = false;
        for p in params {
            // An `Optional[...]` parameter without a default is required too: Puppet
            // asks for a value ("expects a value for parameter"), and puppet-lint 4.0.1
            // stopped exempting it (3.0.1 did).
            let required = p.default.is_none();
            if required && seen_default {
                out.push(RULE.diagnostic(
                    p.name.span,
                    "optional parameter listed before required parameter",
                ));
            }
            seen_default |= p.default.is_some();
        }
    }
}
