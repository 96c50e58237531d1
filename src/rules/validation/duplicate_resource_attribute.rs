use crate::analysis::names::*;
use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an attribute given twice in one resource body.
    ///
    /// ## Why it matters
    /// Puppet fails compiling the catalog (the attribute is already set); which value was meant
    /// is unclear.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x':
    ///   ensure => file,
    ///   ensure => directory,
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Remove one of them.
    "duplicate-resource-attribute" (Validation, Error)
    "A resource body sets the same attribute twice"
    { puppet_lint: "duplicate_params", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |_, body| {
        let attributes = &body.attributes;
        let earlier = earlier_duplicates(attributes, |a| {
            (a.name.name != "*").then_some(a.name.name.as_str())
        });
        for (a, first) in attributes.iter().zip(earlier) {
            if first.is_some() {
                out.push(RULE.diagnostic(
                    a.name.span,
                    format!("The attribute '{}' has already been set", a.name.name),
                ));
            }
        }
    });
}
