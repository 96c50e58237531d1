use crate::analysis::validator::{a_an_label, a_label};
use crate::rules::validation::illegal_epp_parameters::each_juxtaposed_paren;

use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a call whose function is not a name (`$f(1)`, `"notice"(1)`) and a collector
    /// whose type is not a type name (`$type <| |>`), as Puppet's validator does
    /// (`ILLEGAL_EXPRESSION`).
    ///
    /// ## Why it matters
    /// Puppet calls functions only by name and collects only by resource type: it rejects the
    /// whole file. Writing an expression right before `(` is usually a missing line break
    /// or operator, which makes Puppet read two statements as one call.
    ///
    /// ## Example
    /// ```puppet
    /// $greet = 'hello'
    /// $greet('world')
    /// ```
    ///
    /// ## How to fix
    /// Call the function by its name (`call($name, ...)` calls a function whose name is in a
    /// variable; a lambda in a variable is called with `$fn.call(...)`), and write the resource
    /// type of a collector as a type name (`File <| |>`).
    "illegal-expression" (Validation, Error)
    "An expression stands where Puppet needs a function or type name"
    { check, on_expr: [Call, Collector] }
}

/// Puppet calls `QualifiedName`s, and types (`Integer('1')`, `Array[Integer]([1])`).
fn is_callable_name(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(_) | ExprKind::TypeRef(_) => true,
        ExprKind::Access { object, .. } => matches!(object.kind, ExprKind::TypeRef(_)),
        _ => false,
    }
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::Call(call) if !is_callable_name(&call.function) => {
        out.push(RULE.diagnostic(
            call.function.span,
            format!(
                "Illegal expression. {} is unacceptable as function name in a Function Call",
                a_label(&call.function)
            ),
        ));
    }
    ExprKind::Collector(collector)
        if !matches!(collector.type_expr.kind, ExprKind::TypeRef(_)) =>
    {
        out.push(RULE.diagnostic(
            collector.type_expr.span,
            format!(
                "Illegal expression. {} is unacceptable as type name in {}",
                a_label(&collector.type_expr),
                a_an_label(expr)
            ),
        ));
    }
    _ => {}
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    // In a template, `<%= $x %><%(1)%>` reads as a call of the rendered expression.
    each_juxtaposed_paren(ctx, |functor, _| {
        if let ExprKind::EppRender(_) = functor.kind {
            out.push(RULE.diagnostic(
                functor.span,
                format!(
                    "Illegal expression. {} is unacceptable as function name in a Function Call",
                    a_label(functor)
                ),
            ));
        }
    });
}
