use crate::analysis::walks::each_parameter_list;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a lambda parameter that captures the rest of the arguments (`*$rest`) followed
    /// by other parameters (Puppet's `CAPTURES_REST_NOT_LAST`, which its validator checks for
    /// lambdas).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects it: nothing can follow the parameter that takes all the rest.
    ///
    /// ## Example
    /// ```puppet
    /// $list.each |String *$parts, String $separator| { }
    /// ```
    ///
    /// ## How to fix
    /// Move `*$parts` to the end.
    "captures-rest-not-last" (Validation, Error)
    "A lambda's `*$rest` parameter is not the last one"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_parameter_list(ctx, |owner, params| {
        if owner != "the lambda" {
            return;
        }
        if let Some((_, init)) = params.split_last() {
            for p in init.iter().filter(|p| p.captures_rest) {
                out.push(RULE.diagnostic(
                    p.name.span,
                    format!(
                        "Parameter ${} is not last, and has 'captures rest'",
                        p.name.name
                    ),
                ));
            }
        }
    });
}
