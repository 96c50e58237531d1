use crate::rules::InterpretedFile;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::hiera::merge::Merge;
use crate::eval::AbstractValue;
use crate::types::mismatch::{describe_value, each_named};
use crate::source::Span;
use crate::types::{instance_of, Value};

declare_rule! {
    /// ## What it does
    /// Checks `lookup('key', Type)` (and `lookup('key', Type, merge, default)`, the options
    /// hash form `lookup({'name' => 'key', 'value_type' => Type, ...})`, and a block giving
    /// the default) against the values the data files of the environment bind the key to: a
    /// value the type rejects, in a file some node reads it from (not hidden for every node
    /// by a file Hiera reads before), is reported at the call, with the data file in a note.
    /// The value is merged as the call's merge argument says, or else the key's
    /// `lookup_options` (`unique` gives an array of every level's elements), and converted
    /// by their `convert_to`. Not judged: keys whose `lookup_options` differ by node, values
    /// with an interpolation, hiera-eyaml's values, `~`.
    ///
    /// The default (`lookup('key', Integer, 'first', 'none')`, `default_value`, or what the
    /// block returns) is checked against the type too, where Puppet uses it: when no data
    /// file binds the key and every Hiera layer that may serve it was read whole (as
    /// hiera-missing-key asks). A key some data binds never reaches its default.
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

/// A `lookup()` call's arguments as the interpreter knows them, in any of its forms:
/// positional (`lookup(name, type, merge, default)`), with a block giving the
/// default, or with an options hash (`lookup({'name' => ..., 'value_type' => ...})`,
/// `lookup(name, {...})`).
struct LookupCall<'a> {
    key: &'a Expr,
    value_type: Option<Option<Value>>,
    /// `None`: not given; `Some(None)`: given, not known.
    merge: Option<Option<Value>>,
    default: Option<Default>,
}

struct Default {
    span: Span,
    value: Option<Value>,
    /// Given by the block (`lookup('k') |$k| { ... }`).
    block: bool,
}

impl<'a> LookupCall<'a> {
    fn of(ctx: &InterpretedFile, call: &'a crate::ast::Call) -> Option<LookupCall<'a>> {
        let known = |expr: &Expr| match ctx.inference().value(expr) {
            Some(AbstractValue::Known(value)) => Some(value.clone()),
            _ => None,
        };
        let block = match &call.lambda {
            None => None,
            Some(lambda) => {
                let last = lambda.body.statements.last()?;
                // The walk records no value for a block's last literal; a block of
                // one literal gives it (no `next` before it).
                let only = lambda.body.statements.len() == 1;
                let literal = match &last.kind {
                    _ if !only => None,
                    ExprKind::String(s) => Some(Value::string(&s.value)),
                    ExprKind::Integer(i) => Some(Value::Integer(*i)),
                    ExprKind::Float(f) => Some(Value::Float(*f)),
                    ExprKind::Boolean(b) => Some(Value::Bool(*b)),
                    _ => None,
                };
                Some(Default {
                    span: last.span,
                    value: known(last).or(literal),
                    block: true,
                })
            }
        };
        let mut lookup = match call.args.as_slice() {
            [options @ Expr { kind: ExprKind::Hash(_), .. }] => {
                LookupCall::from_options(None, options, known(options)?)?
            }
            [key, options @ Expr { kind: ExprKind::Hash(_), .. }] => {
                LookupCall::from_options(Some(key), options, known(options)?)?
            }
            [key, rest @ ..] if rest.len() <= 3 => LookupCall {
                key,
                value_type: rest.first().map(known),
                merge: rest.get(1).map(known),
                default: rest.get(2).map(|d| Default {
                    span: d.span,
                    value: known(d),
                    block: false,
                }),
            },
            _ => return None,
        };
        // A block and a default value together are Puppet's error, not this rule's.
        if let Some(block) = block {
            if lookup.default.is_some() {
                return None;
            }
            lookup.default = Some(block);
        }
        Some(lookup)
    }

    /// The call whose options hash `options` has the value `value`; `None` for one
    /// that names what pupcheck does not model (`default_values_hash`, `override`).
    fn from_options(key: Option<&'a Expr>, options: &'a Expr, value: Value) -> Option<Self> {
        let ExprKind::Hash(entries) = &options.kind else {
            return None;
        };
        let Value::Hash(given) = value else {
            return None;
        };
        let mut lookup = LookupCall {
            key: key.unwrap_or(options),
            value_type: None,
            merge: None,
            default: None,
        };
        for (name, value) in given.iter() {
            let Value::String(name) = name else {
                return None;
            };
            match &**name {
                "name" => {
                    let entry = entries.iter().find(|e| {
                        matches!(&e.key.kind, ExprKind::String(n) if n.value == "name")
                    })?;
                    lookup.key = &entry.value;
                }
                "value_type" => lookup.value_type = Some(Some(value.clone())),
                "merge" => lookup.merge = Some(Some(value.clone())),
                "default_value" => {
                    lookup.default = Some(Default {
                        span: options.span,
                        value: Some(value.clone()),
                        block: false,
                    })
                }
                _ => return None,
            }
        }
        Some(lookup)
    }
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
    let Some(lookup) = LookupCall::of(ctx, call) else {
        return;
    };
    let ExprKind::String(key) = &lookup.key.kind else {
        return;
    };
    let key = key.value.as_str();
    let Some(Some(Value::Type(expected))) = &lookup.value_type else {
        return;
    };
    if !expected.patterns_runnable() {
        return;
    }
    let hiera = ctx.env.hiera();
    // The default: Puppet checks it only when it uses it, where nothing binds the key.
    if let Some(default) = &lookup.default {
        if !key.contains(['.', '%', '$']) && !key.starts_with("::") && !hiera.may_bind(key) {
            check_default(ctx, key, default, expected, out);
        }
    }
    let Some(mut options) = hiera.lookup_options(key) else {
        return;
    };
    // `lookup()`'s own merge wins over the data's.
    match &lookup.merge {
        None | Some(Some(Value::Undef)) => {}
        Some(Some(merge)) => match Merge::from_value(merge) {
            Some(merge) => options.merge = merge,
            None => return,
        },
        Some(None) => return,
    }
    for found in hiera.found(key, &options.merge) {
        let Some(value) = found.value.clone() else {
            continue;
        };
        if matches!(value, Value::Undef) {
            continue;
        }
        let message = match super::hiera_parameter_type::converted(&options, key, value) {
            None => continue,
            Some(Err(message)) => message,
            Some(Ok(value)) if instance_of(&value, expected) => continue,
            Some(Ok(value)) => {
                let parts = describe_value(expected, &value, &[]);
                if parts.is_empty() {
                    continue;
                }
                each_named("Found value has wrong type,", &parts)
            }
        };
        let line = found.file.text[..found.node.offset.min(found.file.text.len())]
            .matches('\n')
            .count()
            + 1;
        let mut finding = RULE.diagnostic(lookup.key.span, message).with_note(format!(
            "{}:{line} binds '{key}' to the value",
            crate::source::shown_path(&found.file.path)
        ));
        if let Some(merged) = found.merged_note() {
            finding = finding.with_note(format!("{merged} ({})", options.merge.name()));
        }
        out.push(finding);
        // Puppet stops at the first node's failure: one finding a call.
        return;
    }
}

/// The default a lookup of `key` uses, which no data binds, against its type.
fn check_default(
    ctx: &InterpretedFile,
    key: &str,
    default: &Default,
    expected: &crate::types::Type,
    out: &mut Vec<Diagnostic>,
) {
    let Some(value) = &default.value else {
        return;
    };
    let parts = describe_value(expected, value, &[]);
    if instance_of(value, expected) || parts.is_empty() {
        return;
    }
    let prefix = if default.block {
        "Value returned from default block has wrong type,"
    } else {
        "Default value has wrong type,"
    };
    let mut finding = RULE
        .diagnostic(default.span, each_named(prefix, &parts))
        .with_note(format!("no data file binds '{key}'"));
    crate::rules::warn_if_declared_open(ctx.env, &mut finding, "a Hiera layer");
    out.push(finding);
}
