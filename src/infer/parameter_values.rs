//! Judging a recorded value ([`crate::infer`]) against a declared parameter type, for
//! the rules that check values where they are passed.

use crate::ast::Expr;
use crate::eval::AbstractValue;
use crate::types::resolve::Resolver;
use crate::types::Type;

/// What `undef` means where a value is passed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Undef {
    /// Like any other value (a function's argument, a default).
    IsAValue,
    /// The parameter's default is used, where it has one (a resource attribute): a
    /// value known only by its type is judged on its values other than `undef`.
    LeavesTheDefault,
}

/// Why `value` (what the recorded expression holds) cannot be an instance of the type written `type_expr` (the
/// parameter `param`'s), in Puppet's words; `None` when it can, or when that is not
/// certain (a value known only by a type that shares values with it, a regexp pupcheck
/// cannot run, a type it cannot resolve).
pub fn mismatch(
    resolver: &mut Resolver,
    type_expr: &Expr,
    param: &str,
    value: &AbstractValue,
    undef: Undef,
) -> Option<Vec<String>> {
    use crate::types::mismatch::{describe_inferred, describe_value, PathElem};
    let ty = declared_type(resolver, type_expr)?;
    let path = [PathElem::Parameter(param.to_string())];
    match value {
        AbstractValue::Known(value) => (!crate::types::instance_of(value, &ty)
            && ty.patterns_runnable())
        .then(|| describe_value(&ty, value, &path))
        .filter(|why| !why.is_empty()),
        AbstractValue::Inferred(actual) => {
            let (certain, shown) = match undef {
                Undef::IsAValue => (
                    crate::types::disjoint::disjoint(actual, &ty),
                    actual.clone(),
                ),
                Undef::LeavesTheDefault => (
                    crate::types::disjoint::disjoint_but_undef(actual, &ty),
                    without_undef(actual),
                ),
            };
            certain
                .then(|| describe_inferred(&ty, &shown, &path))
                .filter(|why| !why.is_empty())
        }
    }
}

/// The type a parameter's type expression denotes, where the caller's aliases resolve
/// it; `None` when they do not (an unknown name, a Puppet error in the type).
pub fn declared_type(resolver: &mut Resolver, type_expr: &Expr) -> Option<Type> {
    resolver
        .resolve(&crate::types::from_ast::type_expr_from_ast(type_expr))
        .ok()
}

/// `Optional[T]` is `T` where an undef value leaves the parameter's default.
fn without_undef(ty: &crate::types::Type) -> crate::types::Type {
    match ty.kind() {
        crate::types::Kind::Optional(Some(inner)) => inner.clone(),
        _ => ty.clone(),
    }
}
