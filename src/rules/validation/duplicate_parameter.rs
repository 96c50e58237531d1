use crate::analysis::walks::each_parameter_list;
use crate::analysis::names::earlier_duplicates;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a parameter name that appears more than once in the parameters of a class,
    /// defined type, function, plan, lambda or EPP template (Puppet's `DUPLICATE_PARAMETER`).
    ///
    /// ## Why it matters
    /// Puppet's validator rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// class demo (String $name_of_site, Integer $name_of_site = 1) { }
    /// ```
    ///
    /// ## How to fix
    /// Rename or remove one of them.
    "duplicate-parameter" (Validation, Error)
    "A parameter is declared twice in one parameter list"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_parameter_list(ctx, |owner, params| {
        // Puppet checks the parameter lists of classes, defined types, functions, plans
        // and templates, not of lambdas: `|$x, $x|` is accepted (the later one wins).
        if owner == "the lambda" {
            return;
        }
        let earlier = earlier_duplicates(params, |p| Some(p.name.name.as_str()));
        for (p, first) in params.iter().zip(earlier) {
            if let Some(first) = first.map(|f| &params[f]) {
                out.push(
                    RULE.diagnostic(
                        p.name.span,
                        format!(
                            "The parameter '{}' is declared more than once in the parameter list",
                            p.name.name
                        ),
                    )
                    .with_label(first.name.span, "first declared here"),
                );
            }
        }
    });
}
