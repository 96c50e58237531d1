use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a call of a namespaced function (`stdlib::ensure_packages(...)`,
    /// `$list.mymod::flatten_all`) whose module is on the modulepath but has no such
    /// function where Puppet looks for one: not in `functions/` (written in Puppet), not in
    /// `lib/puppet/functions/<module>/` (written in Ruby), not defined by any file checked,
    /// and not one of Puppet's own. A function without a namespace may come from outside the
    /// modules (a gem on the server, such as `puppetdb_query`), so it is never reported.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("Unknown function: 'stdlib::ensure_package'."), usually
    /// because of a typo or a function the installed version of the module does not have yet.
    ///
    /// ## Example
    /// ```puppet
    /// stdlib::ensure_package('vim')   # stdlib has ensure_packages
    /// ```
    ///
    /// ## How to fix
    /// Correct the name, or install the version of the module that has the function.
    "unknown-function" (Type, Error)
    "A call of a module's function the module does not have"
    { on_expr: [Call, MethodCall] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let (name, span) = match &expr.kind {
        ExprKind::Call(call) => match &call.function.kind {
            ExprKind::Name(name) => (name.as_str(), call.function.span),
            _ => return,
        },
        ExprKind::MethodCall(call) => (call.method.name.as_str(), call.method.span),
        _ => return,
    };
    if name.contains("::") && ctx.env.function_certainly_missing(name) {
        let shown = name.trim_start_matches("::");
        out.push(RULE.diagnostic(span, format!("Unknown function: '{shown}'.")));
    }
}
