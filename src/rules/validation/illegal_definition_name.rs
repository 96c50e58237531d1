use crate::analysis::definition_name_rules::named_definitions;
use crate::analysis::puppet_patterns;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports class, defined type and function names that are not lowercase words separated
    /// by `::` (each starting with a letter), Puppet's `ILLEGAL_DEFINITION_NAME`: names with a
    /// dash, a leading `::` or other characters.
    ///
    /// ## Why it matters
    /// Puppet's validator rejects the manifest; the autoloader could not find it anyway.
    ///
    /// ## Example
    /// ```puppet
    /// class my-module::config { }
    /// ```
    ///
    /// ## How to fix
    /// Use underscores and lowercase letters: `my_module::config`.
    "illegal-definition-name" (Validation, Error)
    "A class, defined type or function name is not a valid name"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    named_definitions(ctx, |name, label| {
        // As written: a name with a capital first letter (`class TEMPLATE`) is
        // unacceptable too (Puppet 7.23's `parser validate`).
        if !name.name.is_empty() && !puppet_patterns::definition_name().is_match(&name.name) {
            out.push(RULE.diagnostic(
                name.span,
                format!(
                    "Unacceptable name. The name '{}' is unacceptable as the name of {label}",
                    name.name
                ),
            ));
        }
    });
}
