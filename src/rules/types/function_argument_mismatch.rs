use crate::infer::parameter_values::{mismatch, Undef};
use crate::rules::InterpretedFile;
use crate::ast::{Expr, ExprKind, Parameter, UnaryOp};
use crate::diagnostics::Diagnostic;
use crate::eval::FileAliases;
use crate::eval::FailureKind;
use crate::infer::FileInference;
use crate::source::Span;
use crate::types::resolve::Resolver;

declare_rule! {
    /// ## What it does
    /// Checks calls of functions against their signatures: the number of arguments, the type
    /// of each argument whose value follows from the code (or that is a parameter of the
    /// enclosing definition whose type shares no value with the function's parameter), and
    /// the lambda (one given to a function that takes none, none given where one is needed,
    /// or one with a number of parameters the function never calls it with).
    ///
    /// - Puppet's own functions (`split`, `join`, `regsubst`, `lookup`, `each`, ...) are
    ///   judged against every signature Puppet's dispatcher tries, in its order, with its
    ///   message; a function still written with the 3.x API (`sprintf`, `template`,
    ///   `fqdn_rand`, ...) only by its count of arguments. The signatures are data generated
    ///   from Puppet 7 (`data/functions.toml`).
    /// - A module's functions written in Ruby with the 4.x API
    ///   (`lib/puppet/functions/<module>/<name>.rb`, such as `stdlib::ip_in_range`) are judged
    ///   the same way against their `dispatch` blocks, read as text and never run. A file
    ///   pupcheck does not read with certainty (a type built in Ruby, a multi-line string,
    ///   local types, no `dispatch`) leaves the function's calls unjudged.
    /// - Functions written in the Puppet language (`functions/*.pp` of a module, or defined in
    ///   the files checked) are judged against their parameters.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog at the call ("'split' parameter 'str' expects a String value,
    /// got Integer", "'ntp::port' expects between 1 and 2 arguments, got 3").
    ///
    /// ## Example
    /// ```puppet
    /// $parts = split($facts['networking']['ip'], 46)
    /// function ntp::port(Integer $p) >> Integer { $p }
    /// $port = ntp::port('123')
    /// ```
    ///
    /// ## How to fix
    /// Pass what the function's signature asks for (`split($ip, '[.]')`, `ntp::port(123)`).
    "function-argument-mismatch" (Type, Error)
    "A function is called with arguments none of its signatures takes"
    { reads_interpretation, check }
}

/// `1 argument`, `2 arguments`.
fn arguments(n: usize) -> String {
    if n == 1 {
        "1 argument".to_string()
    } else {
        format!("{n} arguments")
    }
}

/// Puppet's wording when the count is wrong; `None` when it is right.
fn arity_problem(params: &[Parameter], given: usize) -> Option<String> {
    let rest = params.iter().any(|p| p.captures_rest);
    let min = params
        .iter()
        .filter(|p| p.default.is_none() && !p.captures_rest)
        .count();
    let max = params.iter().filter(|p| !p.captures_rest).count();
    if given >= min && (rest || given <= max) {
        return None;
    }
    let got = if given == 0 {
        "none".to_string()
    } else {
        given.to_string()
    };
    Some(if rest {
        format!("expects at least {}, got {got}", arguments(min))
    } else if min == max {
        format!("expects {}, got {got}", arguments(min))
    } else {
        format!("expects between {min} and {max} arguments, got {got}")
    })
}

/// The name a call calls, if it may be a function written in Puppet: one with a
/// namespace, or a global name the environment defines and Puppet does not (Puppet's
/// own functions, which this check does not judge, are found first).
fn puppet_callee<'e>(ctx: &InterpretedFile, expr: &'e Expr) -> Option<&'e str> {
    let name = match &expr.kind {
        ExprKind::Call(call) => match &call.function.kind {
            ExprKind::Name(n) => n.as_str(),
            _ => return None,
        },
        ExprKind::MethodCall(call) => call.method.name.as_str(),
        _ => return None,
    };
    (name.contains("::") || ctx.env.calls_global_puppet_function(name)).then_some(name)
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    // Puppet's own functions: judged by the evaluator, as the dispatcher judges them.
    RULE.report_failures(ctx, FailureKind::FunctionArguments, out);
    // The walk evaluates every body: only worth it when a function the index knows is
    // called.
    let calls_known = ctx
        .exprs
        .iter()
        .filter_map(|e| puppet_callee(ctx, e))
        .any(|name| ctx.env.function(name).is_some());
    if !calls_known {
        return;
    }
    let inference = ctx.inference();
    let aliases = FileAliases::new(ctx.program, ctx.env);
    let mut resolver = Resolver::new(&aliases);
    for expr in &ctx.exprs {
        check_call(ctx, inference, &mut resolver, expr, out);
    }
}

fn check_call(
    ctx: &InterpretedFile,
    inference: &FileInference,
    resolver: &mut Resolver,
    expr: &Expr,
    out: &mut Vec<Diagnostic>,
) {
    // The function's name, its arguments (a method call's receiver first) and where to
    // report a wrong count.
    let (name, args, at, site): (&str, Vec<&Expr>, Span, &str) = match &expr.kind {
        ExprKind::Call(call) if call.lambda.is_none() => match &call.function.kind {
            ExprKind::Name(n) => (
                n,
                call.args.iter().collect(),
                call.function.span,
                "Function Call",
            ),
            _ => return,
        },
        ExprKind::MethodCall(call) if call.lambda.is_none() => {
            let mut args = vec![&call.receiver];
            args.extend(call.args.iter().flatten());
            (&call.method.name, args, call.method.span, "Method call")
        }
        _ => return,
    };
    if puppet_callee(ctx, expr).is_none() {
        return;
    }
    let Some(function) = ctx.env.function(name) else {
        return;
    };
    // `*$array` spreads an unknown number of arguments.
    let spreads = args.iter().any(|a| {
        matches!(
            a.kind,
            ExprKind::Unary {
                op: UnaryOp::Splat,
                ..
            }
        )
    });
    if spreads {
        return;
    }
    let params = function.params.as_deref().unwrap_or(&[]);
    let shown = name.trim_start_matches("::");
    if let Some(problem) = arity_problem(params, args.len()) {
        out.push(RULE.diagnostic(
            at,
            format!("Error while evaluating a {site}, '{shown}' {problem}"),
        ));
        return;
    }
    for (param, arg) in params.iter().filter(|p| !p.captures_rest).zip(&args) {
        let Some(type_expr) = &param.type_expr else {
            continue;
        };
        let Some(value) = inference.value(arg) else {
            continue;
        };
        let Some(why) = mismatch(
            resolver,
            type_expr,
            &param.name.name,
            value,
            Undef::IsAValue,
        ) else {
            continue;
        };
        let message = match why.as_slice() {
            [one] => format!("'{shown}' {one}"),
            // Several parts: Puppet's dispatcher shows the signature, then each part.
            many => match signature(resolver, params) {
                Some(signature) => format!(
                    "'{shown}' expects ({signature})\n  rejected: {}",
                    many.join("\n  rejected: ")
                ),
                None => format!("'{shown}' {}", many.join("; ")),
            },
        };
        out.push(RULE.diagnostic(
            arg.span,
            format!("Error while evaluating a {site}, {message}"),
        ));
    }
}

/// A function's signature as Puppet's dispatcher prints it: `Type name` for each
/// parameter (`Any` untyped), `?` after one with a default (its `Optional` dropped),
/// `*` after a rest parameter; `None` when a type cannot be resolved.
fn signature(resolver: &mut Resolver, params: &[Parameter]) -> Option<String> {
    let mut shown = Vec::with_capacity(params.len());
    for p in params {
        let ty = match &p.type_expr {
            Some(type_expr) => crate::infer::parameter_values::declared_type(resolver, type_expr)?,
            None => crate::types::t::any(),
        };
        let optional = p.default.is_some() && !p.captures_rest;
        let ty = match ty.kind() {
            crate::types::Kind::Optional(Some(inner)) if optional => inner.clone(),
            _ => ty,
        };
        let suffix = if p.captures_rest {
            "*"
        } else if optional {
            "?"
        } else {
            ""
        };
        shown.push(format!("{ty} {}{suffix}", p.name.name));
    }
    Some(shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Ident;

    fn param(name: &str, default: bool, rest: bool) -> Parameter {
        Parameter {
            name: Ident {
                name: name.into(),
                span: Span::at(0),
            },
            type_expr: None,
            default: default.then(|| Expr {
                kind: ExprKind::Undef,
                span: Span::at(0),
            }),
            captures_rest: rest,
            span: Span::at(0),
        }
    }

    #[test]
    fn counts_are_worded_as_puppet_words_them() {
        let one = [param("p", false, false)];
        let two = [param("p", false, false), param("q", true, false)];
        let rest = [param("p", false, false), param("r", false, true)];
        assert_eq!(
            arity_problem(&one, 2).as_deref(),
            Some("expects 1 argument, got 2")
        );
        assert_eq!(
            arity_problem(&two, 3).as_deref(),
            Some("expects between 1 and 2 arguments, got 3")
        );
        assert_eq!(
            arity_problem(&two, 0).as_deref(),
            Some("expects between 1 and 2 arguments, got none")
        );
        assert_eq!(arity_problem(&rest, 5), None);
        assert_eq!(
            arity_problem(&rest, 0).as_deref(),
            Some("expects at least 1 argument, got none")
        );
        assert_eq!(arity_problem(&two, 1), None);
    }
}
