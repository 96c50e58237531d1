use crate::rules::InterpretedFile;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::hiera::yaml;
use crate::eval::AbstractValue;
use crate::types::mismatch::{describe_value, each_named};
use crate::types::{instance_of, Value};

declare_rule! {
    /// ## What it does
    /// Checks `lookup('key', Type)` (and `lookup('key', Type, 'first', default)`) against the
    /// values the data files of the environment bind the key to: a value the type rejects,
    /// in a file some node reads it from (not hidden for every node by a file Hiera reads
    /// before), is reported at the call, with the data file in a note. Not judged: another
    /// merge than `first`, keys `lookup_options` names, values with an interpolation, hiera-eyaml's
    /// values, `~`.
    ///
    /// The default (`lookup('key', Integer, 'first', 'none')`) is checked against the type
    /// too, where Puppet uses it: when no data file binds the key and every Hiera layer
    /// that may serve it was read whole (as hiera-missing-key asks). A key some data binds
    /// never reaches its default.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog of the nodes that read that value ("Found value has wrong
    /// type, expects an Integer value, got String").
    ///
    /// ## Example
    /// ```puppet
    /// $port = lookup('profile::web::port', Integer)   # data/common.yaml: profile::web::port: '8080'
    /// ```
    ///
    /// ## How to fix
    /// Write the value as the type asks in the data file (`8080`), or widen the type.
    "hiera-lookup-type" (Type, Error)
    "lookup() with a type the value Hiera finds does not match"
    { reads_interpretation, on_expr: [Call] }
}

fn check_expr(ctx: &InterpretedFile, expr: &Expr, out: &mut Vec<Diagnostic>) {
    if ctx.env.root().is_none() {
        return;
    }
    let ExprKind::Call(call) = &expr.kind else {
        return;
    };
    if !matches!(&call.function.kind, ExprKind::Name(f) if f == "lookup") {
        return;
    }
    let [key_arg, type_arg, rest @ ..] = call.args.as_slice() else {
        return;
    };
    let ExprKind::String(key) = &key_arg.kind else {
        return;
    };
    let key = key.value.as_str();
    let first_merge = match rest.first().map(|m| &m.kind) {
        None | Some(ExprKind::Undef) => true,
        Some(ExprKind::String(s)) => s.value == "first",
        Some(_) => false,
    };
    if !first_merge {
        return;
    }
    let Some(AbstractValue::Known(Value::Type(expected))) = ctx.inference().value(type_arg)
    else {
        return;
    };
    if !expected.patterns_runnable() {
        return;
    }
    let hiera = ctx.env.hiera();
    // The default: Puppet checks it only when it uses it, where nothing binds the key.
    if let Some(default) = rest.get(1) {
        if !key.contains(['.', '%', '$']) && !key.starts_with("::") && !hiera.may_bind(key) {
            if let Some(AbstractValue::Known(value)) = ctx.inference().value(default) {
                let parts = describe_value(expected, value, &[]);
                if !instance_of(value, expected) && !parts.is_empty() {
                    let mut finding = RULE
                        .diagnostic(default.span, each_named("Default value has wrong type,", &parts))
                        .with_note(format!("no data file binds '{key}'"));
                    crate::rules::warn_if_declared_open(ctx.env, &mut finding, "a Hiera layer");
                    out.push(finding);
                }
            }
        }
    }
    let Some(overridden) = hiera.keys_with_lookup_options() else {
        return;
    };
    if overridden.contains(key) {
        return;
    }
    for (file, node) in hiera.candidates(key) {
        if file.encrypted {
            continue;
        }
        let Some(value) = yaml::value(node) else {
            continue;
        };
        if matches!(value, Value::Undef) || instance_of(&value, expected) {
            continue;
        }
        let parts = describe_value(expected, &value, &[]);
        if parts.is_empty() {
            continue;
        }
        let line = file.text[..node.offset.min(file.text.len())]
            .matches('\n')
            .count()
            + 1;
        out.push(
            RULE.diagnostic(
                key_arg.span,
                each_named("Found value has wrong type,", &parts),
            )
            .with_note(format!(
                "{}:{line} binds '{key}' to the value",
                crate::source::shown_path(&file.path)
            )),
        );
        // Puppet stops at the first node's failure: one finding a call.
        return;
    }
}
