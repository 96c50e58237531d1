use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `class x inherits x::params`, the "params pattern" (off by default, as in
    /// puppet-lint).
    ///
    /// ## Why it matters
    /// Since Puppet 4, module data (Hiera in the module, `data/common.yaml`) gives parameters
    /// their defaults without the inheritance, which couples the classes and hides where a
    /// value comes from.
    ///
    /// ## Example
    /// ```puppet
    /// class ntp ($servers = $ntp::params::servers) inherits ntp::params { }
    /// ```
    ///
    /// ## How to fix
    /// Move the defaults to the module's Hiera data (or to the parameter list), and drop the
    /// `inherits`.
    "class-inherits-from-params-class" (Style, Warning)
    "A class inherits from a `::params` class"
    { off_by_default, puppet_lint: "class_inherits_from_params_class", on_expr: [Class] }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if let ExprKind::Class(class) = &expr.kind {
        if let Some(parent) = class
            .parent
            .as_ref()
            .filter(|p| p.name.ends_with("::params"))
        {
            out.push(RULE.diagnostic(parent.span, "class inheriting from params class"));
        }
    }
}
