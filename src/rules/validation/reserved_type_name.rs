use crate::analysis::definition_name_rules::named_definitions;
use crate::analysis::puppet_patterns::RESERVED_TYPE_NAMES;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a class, defined type or function named `string`, `integer`, `hash`, ... (the
    /// names of Puppet's built-in types), Puppet's `RESERVED_TYPE_NAME`.
    ///
    /// ## Why it matters
    /// `Class[string]` and the type `String` would be the same reference; Puppet rejects the
    /// manifest.
    ///
    /// ## Example
    /// ```puppet
    /// class string { }
    /// ```
    ///
    /// ## How to fix
    /// Choose another name, usually prefixed with the module's name.
    "reserved-type-name" (Validation, Error)
    "A class, defined type or function is named like a built-in type"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    named_definitions(ctx, |name, label| {
        if RESERVED_TYPE_NAMES.contains(&name.name.as_str()) {
            out.push(RULE.diagnostic(
                name.span,
                format!(
                    "The name: '{}' is already defined by Puppet and can not be used as the name of {label}.",
                    name.name
                ),
            ));
        }
    });
}
