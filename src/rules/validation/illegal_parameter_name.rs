use crate::analysis::puppet_patterns;
use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports parameter names that do not match `/^[a-z_]\w*$/` (Puppet's
    /// `ILLEGAL_PARAM_NAME`), such as `$Port` or `$a::b`.
    ///
    /// ## Why it matters
    /// Puppet's validator rejects the manifest.
    ///
    /// ## Example
    /// ```puppet
    /// class demo (Integer $Port) { }
    /// ```
    ///
    /// ## How to fix
    /// Use a lowercase name: `$port`.
    "illegal-parameter-name" (Validation, Error)
    "A parameter name does not follow Puppet's naming rule"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_parameter_list(ctx, |_, params| {
        for p in params {
            let name = &p.name.name;
            if !puppet_patterns::param_name().is_match(name)
                && !name.bytes().all(|b| b.is_ascii_digit())
            {
                out.push(RULE.diagnostic(
                    p.name.span,
                    format!("Illegal parameter name. The given name '{name}' does not conform to the naming rule /^[a-z_]\\w*$/"),
                ));
            }
        }
    });
}
