use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::rules::InterpretedFile;

declare_rule! {
    /// ## What it does
    /// Reports a resource declaration (`pakage { 'vim': }`, virtual and exported ones
    /// too), a resource default (`Pakage { ... }`) or a collector (`Pakage <| |>`) whose
    /// type nothing defines: not one of Puppet's own, not a defined type of the files
    /// checked, the main manifest or the module its name says, not a type written in
    /// Ruby in any module's `lib/puppet/type/`.
    ///
    /// A closed environment (docs/certainty.md: a control repository whose `Puppetfile`
    /// is installed and whose modulepath is its own, a module whose `.fixtures.yml` is, or `environment = "closed"` in
    /// `pupcheck.toml`) holds every type Puppet could load, so the finding is an error.
    /// In an open one a module pupcheck was not shown may define the type: the finding
    /// is a warning saying what is missing. Not judged: files in no environment or
    /// module repository, plans (Bolt has types of its own), code Puppet does not run and, as an error, code a
    /// condition decides (an `if`, `case` or selector branch),
    /// and Puppet Enterprise's own types (`pe_*`, installed outside every repository).
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("Unknown resource type: 'pakage'"): a typo, or a type of
    /// a module the environment does not install.
    ///
    /// ## Example
    /// ```puppet
    /// pakage { 'vim': ensure => installed }
    /// ```
    ///
    /// ## How to fix
    /// Correct the type's name (`package`), or install the module that has it.
    "unknown-resource-type" (Type, Error)
    "A resource of a type nothing defines"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    if crate::analysis::module_layout::is_plan_file(ctx.program, &ctx.source.path) {
        return;
    }
    let mut found = Vec::new();
    for expr in &ctx.exprs {
        let Some((type_expr, name, puppet_says)) = type_named(expr) else {
            continue;
        };
        if ctx.inference().is_skipped(expr) {
            continue;
        }
        if let Some(unresolved) = ctx.env.unresolved_resource_type(name) {
            found.push((type_expr.span, puppet_says(name), unresolved));
        }
    }
    RULE.report_unresolved(ctx, found, out);
}

/// How Puppet words that nothing defines the type a construct names.
type PuppetSays = fn(&str) -> String;

/// The type expression of a declaration, resource default or collector that names a
/// resource type, the name, and how Puppet words that nothing defines it there.
fn type_named(expr: &Expr) -> Option<(&Expr, &str, PuppetSays)> {
    let (type_expr, puppet_says): (&Expr, PuppetSays) = match &expr.kind {
        ExprKind::Resource(resource) => (&resource.type_expr, |name| {
            format!("Unknown resource type: '{}'", name.to_ascii_lowercase())
        }),
        ExprKind::ResourceDefaults(defaults) => (&defaults.type_ref, |name| {
            format!("Resource type not found: {name}")
        }),
        ExprKind::Collector(collector) => (&collector.type_expr, |name| {
            format!("Resource type {} doesn't exist", name.to_ascii_lowercase())
        }),
        _ => return None,
    };
    let name = match &type_expr.kind {
        ExprKind::Name(name) | ExprKind::TypeRef(name) => name.trim_start_matches("::"),
        _ => return None,
    };
    // `class { 'x': }` declares a class; `Class`, `Node` and `Resource` are not types
    // of resources.
    let is_type = !matches!(name.to_ascii_lowercase().as_str(), "class" | "node" | "resource");
    is_type.then_some((type_expr, name, puppet_says))
}
