use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::{Applicability, Diagnostic, Fix};

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
    /// A name the environment's own code sets at top scope or in a node definition
    /// (`$realm = 'prod'` in `manifests/site.pp`) is that variable, not a fact: it is not
    /// reported.
    ///
    /// ## How to fix
    /// Read the facts hash: `$facts['my_custom_fact']`. The fix does that; it is safe for
    /// the facts Facter reports (`$::timezone`), and unsafe (`--unsafe-fixes`) for any
    /// other name, which may be a top-scope variable set where pupcheck cannot see (a main
    /// manifest elsewhere, a node classifier): then `$facts['name']` is undef. Such
    /// variables are better passed as class parameters.
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
    // A variable the environment's own top-scope or node code sets is that variable,
    // not a fact: `$facts['name']` would be another value (undef).
    if ctx.sets_top_scope_variable(name)
    {
        return;
    }
    let code = format!("facts['{name}']");
    let mut fix = Fix::replace(
        expr.span,
        ctx.variable_sites().replacement(ctx, expr.span, &code),
    );
    // Only a fact Facter reports is certainly the same value in `$facts`: any other
    // name may be a top-scope variable set where pupcheck cannot see (a main manifest
    // outside the folders checked, a node classifier), which the fix would lose.
    if !crate::builtin::facts::is_known(name) {
        fix.applicability = Applicability::Unsafe;
    }
    out.push(RULE.diagnostic(expr.span, "top scope fact instead of facts hash").with_fix(fix));
}
