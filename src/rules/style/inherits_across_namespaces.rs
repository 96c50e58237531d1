use crate::analysis::definition_names::definitions;
use crate::rules::FileContext;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `class a::x inherits b::y` where the two classes are in different modules.
    ///
    /// ## Why it matters
    /// Inheritance couples a class to another module's internals; across modules it breaks as
    /// soon as the other module changes. Use composition (include, parameters) instead.
    ///
    /// ## Example
    /// ```puppet
    /// class demo::config inherits apache::params { }
    /// ```
    ///
    /// ## How to fix
    /// Include the other class and read its variables, or pass values as parameters.
    "inherits-across-namespaces" (Style, Warning)
    "A class inherits from a class of another module"
    { puppet_lint: "inherits_across_namespaces", check }
}

fn module_of(name: &str) -> &str {
    name.split("::").find(|s| !s.is_empty()).unwrap_or("")
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for d in definitions(ctx.program) {
        let Some(parent) = d.parent else { continue };
        if module_of(&d.name.name) != module_of(&parent.name) {
            out.push(RULE.diagnostic(parent.span, "class inherits across module namespaces"));
        }
    }
}
