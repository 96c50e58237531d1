use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports top-scope variables such as `$::my_custom_fact`, as puppet-lint 4's
    /// `top_scope_facts` does (`$::facts`, `$::trusted` and `$::server_facts` excepted). Legacy
    /// facts (`$::osfamily`) are left to `legacy-facts`, which suggests the structured fact, as
    /// puppet-lint 4 leaves them to `legacy_facts`.
    ///
    /// ## Why it matters
    /// `$facts['name']` says where the value comes from and cannot be overridden by a
    /// top-scope variable of the same name, which `$::name` can.
    ///
    /// ## Example
    /// ```puppet
    /// $service = $::my_custom_fact ? { 'yes' => 'apache2', default => 'httpd' }
    /// ```
    ///
    /// ## How to fix
    /// Read the facts hash: `$facts['my_custom_fact']` (the fix does that). A top-scope
    /// variable that is not a fact (set in `site.pp`) is reported too; such variables are
    /// better passed as class parameters.
    "top-scope-facts" (Style, Warning)
    "A fact read as a top-scope variable instead of from `$facts`"
    { fixable, puppet_lint: "top_scope_facts", on_expr: [Variable] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Variable(v) = &expr.kind else {
        return;
    };
    let Some(name) = v.strip_prefix("::") else {
        return;
    };
    if name.contains("::") || matches!(name, "facts" | "trusted" | "server_facts") {
        return;
    }
    // A legacy fact (`$::osfamily`) is legacy-facts' finding, whose fix reads the
    // structured fact; puppet-lint 4 reports it under legacy_facts only too.
    if crate::builtin::legacy_facts::lookup(name).is_some() {
        return;
    }
    let allowed = &ctx.options.top_scope_variables;
    if allowed.iter().any(|a| name.starts_with(a.as_str())) {
        return;
    }
    if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return; // $::0 is not a fact
    }
    let code = format!("facts['{name}']");
    out.push(
        RULE.diagnostic(expr.span, "top scope fact instead of facts hash")
            .with_fix(Fix::replace(
                expr.span,
                ctx.variable_sites().replacement(ctx, expr.span, &code),
            )),
    );
}
