use crate::analysis::validator::a_label;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a collector (`File <| |>`, `File <<| |>>`) or a definition used as a value: as
    /// the value of an assignment, an attribute, an operand, a condition, a `case` or selector
    /// subject or match, an array element or a hash key or value (Puppet's `NOT_RVALUE`).
    ///
    /// ## Why it matters
    /// A collector realizes resources; it does not produce a value Puppet can store or compare,
    /// so Puppet rejects the file.
    ///
    /// ## Example
    /// ```puppet
    /// $packages = Package <| tag == 'base' |>
    /// ```
    ///
    /// ## How to fix
    /// Use the collector as a statement (or in a relationship, `Package <| |> -> Service['x']`);
    /// to get the resources as values, use a resource reference or a function such as
    /// `find_resource`-style lookups from a module.
    "not-rvalue" (Validation, Error)
    "A collector or definition is used where a value is needed"
    {
        on_expr: [
            Array, Assignment, Binary, Case, Collector, Hash, If, Resource, ResourceDefaults,
            ResourceOverride, Selector, Unary, Unless
        ],
    }
}

fn produces_no_value(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Collector(_)) || e.kind.is_definition()
}

/// Puppet's `rvalue` check. (Puppet's also looks through a unary operator, and checks
/// every unary operand on its own as well, reporting the same node twice; checking unary
/// operands only on their own reports it once.)
fn rvalue(e: &Expr, out: &mut Vec<Diagnostic>) {
    if produces_no_value(e) {
        out.push(RULE.diagnostic(
            e.span,
            format!(
                "Invalid use of expression. {} does not produce a value",
                a_label(e)
            ),
        ));
    }
}

fn attributes(attributes: &[Attribute], out: &mut Vec<Diagnostic>) {
    for a in attributes {
        rvalue(&a.value, out);
    }
}

/// The places Puppet's checker4_0.rb calls `rvalue` on (its `check_*` methods).
fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::Assignment { right, .. } => rvalue(right, out),
    ExprKind::Unary { operand, .. } => rvalue(operand, out),
    ExprKind::Binary { left, right, .. } => {
        rvalue(left, out);
        rvalue(right, out);
    }
    ExprKind::If(i) => rvalue(&i.condition, out),
    ExprKind::Unless(u) => rvalue(&u.condition, out),
    ExprKind::Case(c) => {
        rvalue(&c.subject, out);
        for option in &c.options {
            for m in &option.matchers {
                rvalue(m, out);
            }
        }
    }
    ExprKind::Selector { subject, entries } => {
        rvalue(subject, out);
        for entry in entries {
            rvalue(&entry.matcher, out);
        }
    }
    ExprKind::Array(items) => items.iter().for_each(|i| rvalue(i, out)),
    ExprKind::Hash(entries) => {
        for entry in entries {
            rvalue(&entry.key, out);
            rvalue(&entry.value, out);
        }
    }
    ExprKind::Resource(r) => r.bodies.iter().for_each(|b| attributes(&b.attributes, out)),
    ExprKind::ResourceDefaults(d) => attributes(&d.attributes, out),
    ExprKind::ResourceOverride(o) => attributes(&o.attributes, out),
    ExprKind::Collector(c) => attributes(c.overrides.as_deref().unwrap_or(&[]), out),
    _ => {}
    }
}
