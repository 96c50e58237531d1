use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports `type Name { ... }` and `type Name inherits Parent { ... }` (Pcore object type
    /// definitions, which the grammar accepts but Puppet 7 does not implement), and a type
    /// mapping whose left side is not `Runtime[...]` (`type Integer[1] = ...`), as Puppet's
    /// validator does (`UNSUPPORTED_EXPRESSION`).
    ///
    /// ## Why it matters
    /// Puppet rejects the file.
    ///
    /// ## Example
    /// ```puppet
    /// type Mymodule::Point inherits Mymodule::Base {
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Declare an Object type through a type alias:
    /// `type Mymodule::Point = Object[{ attributes => { x => Integer, y => Integer } }]`.
    "unsupported-expression" (Validation, Error)
    "A type definition or type mapping Puppet 7 does not support"
    { on_expr: [TypeDefinition, TypeMapping] }
}

/// `Runtime[...]`: the only left side of a type mapping Puppet supports.
pub(in crate::rules) fn is_runtime_access(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Access { object, .. } if matches!(&object.kind, ExprKind::TypeRef(t) if t == "Runtime"))
}

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    match &expr.kind {
    ExprKind::TypeDefinition(_) => out.push(RULE.diagnostic(
        expr.span,
        "Expressions of type a Type Definition are not supported in this version of Puppet",
    )),
    ExprKind::TypeMapping(m) if !is_runtime_access(&m.type_expr) => out.push(RULE.diagnostic(
        m.type_expr.span,
        "Expressions of type a Type Mapping are not supported in this version of Puppet",
    )),
    _ => {}
    }
}
