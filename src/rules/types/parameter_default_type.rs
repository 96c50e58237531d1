//! Defaults that cannot be used: the file's evaluation (`infer`) holds each default it
//! could evaluate (literals, operators, conversions, other constants, the parameters
//! before it by their types), checked here against the parameter's type, as Puppet
//! does when the default is used.

use crate::analysis::walks::each_parameter_list;
use crate::rules::InterpretedFile;
use crate::ast::Parameter;
use crate::diagnostics::Diagnostic;
use crate::eval::FileAliases;
use crate::eval::AbstractValue;
use crate::types::mismatch::{describe_inferred, describe_value, PathElem};
use crate::types::resolve::Resolver;
use crate::types::Type;

declare_rule! {
    /// ## What it does
    /// Evaluates the default value of each typed parameter (of a class, defined type,
    /// function, plan, lambda or EPP template) where it follows from the code alone, and
    /// reports a default that is not an instance of the parameter's type. Type aliases come
    /// from the file and the modules around it (the environment index). Defaults that depend
    /// on facts, other parameters, lookups or functions pupcheck does not model are not
    /// judged; neither are types named from modules pupcheck has not read.
    ///
    /// ## Why it matters
    /// Puppet checks a default against the type when it uses it: declaring the class
    /// without that parameter fails the whole catalog ("Class[Ntp]: parameter 'servers'
    /// expects an Array value, got String"), on the node, at run time. `Integer $port =
    /// undef` is the usual case: `undef` is only accepted by `Optional[...]` types.
    ///
    /// ## Example
    /// ```puppet
    /// class ntp (
    ///   Array[String] $servers = 'pool.ntp.org',
    ///   Integer       $port    = undef,
    /// ) { }
    /// ```
    ///
    /// ## How to fix
    /// Make the default match (`['pool.ntp.org']`), or widen the type (`Optional[Integer]`).
    // Puppet fails only when the default is used: callers may always pass the value.
    "parameter-default-type" (Type, Warning)
    "A parameter's default value does not match the parameter's type"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    // The file's aliases, then those of the modules around it; others are unknown.
    let aliases = FileAliases::new(ctx.program, ctx.env);
    let mut resolver = Resolver::new(&aliases);
    let inference = ctx.inference();
    each_parameter_list(ctx, |subject, params| {
        for p in params {
            let (Some(type_expr), Some(default)) = (&p.type_expr, &p.default) else {
                continue;
            };
            let (Some(ty), Some(value)) = (
                crate::infer::parameter_values::declared_type(&mut resolver, type_expr),
                inference.value(default),
            ) else {
                continue;
            };
            if let Some(why) = default_mismatch(&ty, p, value) {
                out.push(
                    RULE.diagnostic(
                        default.span,
                        crate::types::mismatch::of_subject(&subject, &why),
                    )
                    .with_label(type_expr.span, format!("the type is {ty}")),
                );
            }
        }
    });
}

/// Why the default cannot be used, if it cannot: a value that does not match, or a
/// value known by a type that shares no value with the parameter's.
fn default_mismatch(ty: &Type, p: &Parameter, value: &AbstractValue) -> Option<Vec<String>> {
    let path = [PathElem::Parameter(p.name.name.clone())];
    match value {
        // A regexp pupcheck cannot run proves nothing by not matching.
        AbstractValue::Known(value) => (!crate::types::instance_of(value, ty)
            && ty.patterns_runnable())
        .then(|| describe_value(ty, value, &path))
        .filter(|why| !why.is_empty()),
        AbstractValue::Inferred(actual) => crate::types::disjoint::disjoint(actual, ty)
            .then(|| describe_inferred(ty, actual, &path))
            .filter(|why| !why.is_empty()),
    }
}
