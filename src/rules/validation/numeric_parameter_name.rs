use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports parameters named with digits only (`$1`), Puppet's `ILLEGAL_NUMERIC_PARAMETER`.
    ///
    /// ## Why it matters
    /// They clash with the numeric match result variables; Puppet rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// $list.each |$0| { }
    /// ```
    ///
    /// ## How to fix
    /// Use a name: `|$item|`.
    "numeric-parameter-name" (Validation, Error)
    "A parameter is named like a match variable (`$1`)"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_parameter_list(ctx, |_, params| {
        for p in params {
            let name = &p.name.name;
            if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
                out.push(RULE.diagnostic(
                    p.name.span,
                    format!("The numeric parameter name '${name}' cannot be used (clashes with numeric match result variables)"),
                ));
            }
        }
    });
}
