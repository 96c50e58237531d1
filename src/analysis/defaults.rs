//! The defaults a declaration leaves to a class or defined type, evaluated as Puppet
//! evaluates them when it evaluates the declaration: in the definition's file, in
//! parameter order, each seeing `$title`, `$name` and the parameters before it. A
//! default its parameter's type rejects fails the declaration ("Class[Ntp]: parameter
//! 'port' expects an Integer value, got String"), whatever the body does.

use crate::analysis::parameter_values::{mismatch, Undef};
use crate::env::{Definition, Environment};
use crate::eval::FileAliases;
use crate::eval::{AbstractValue, Evaluator};
use crate::types::resolve::Resolver;
use crate::types::Value;

/// What a declaration gives one parameter.
pub enum Supplied<'v> {
    /// Nothing: the default is used (or, without one, the declaration fails anyway).
    Nothing,
    /// A value, known as far as the evaluation knows it.
    Value(&'v AbstractValue),
    /// Something the evaluation does not know (a `* =>` hash, Hiera for a class).
    Unknown,
}

/// Puppet's words for each default that `definition`'s parameters get from a
/// declaration titled `title` (`given` says what the declaration gives each
/// parameter) and that their types reject, in parameter order. Empty when none does,
/// when the definition's file cannot be read, or when the declaration fails before
/// (a required parameter it does not give: missing-parameter says so; a value it gives
/// that its parameter rejects: parameter-type-mismatch says so), since Puppet then
/// words the failure with those too.
pub fn unusable_defaults<'v>(
    env: &Environment,
    definition: &Definition,
    title: &str,
    given: impl Fn(&str) -> Supplied<'v>,
) -> Vec<String> {
    let Some(params) = &definition.params else {
        return Vec::new();
    };
    // Most declarations give every typed parameter with a default its value: nothing
    // to evaluate, and the definition's file is not read.
    let uses_a_typed_default = params.iter().any(|p| {
        p.default.is_some()
            && p.type_expr.is_some()
            && matches!(given(&p.name.name), Supplied::Nothing)
    });
    if !uses_a_typed_default {
        return Vec::new();
    }
    let Some(file) = env.definition_file(&definition.path) else {
        return Vec::new();
    };
    let aliases = FileAliases::new(&file.program, env);
    let mut resolver = Resolver::new(&aliases);
    let mut evaluator = Evaluator::new(&aliases).with_functions(&aliases);
    let title_value = AbstractValue::Known(Value::string(title));
    evaluator.bind("title", title_value.clone());
    // `$name` is the title unless the declaration gives `name`.
    let name = match given("name") {
        Supplied::Value(value) => value.clone(),
        Supplied::Unknown => AbstractValue::Inferred(crate::types::t::any()),
        Supplied::Nothing => title_value,
    };
    evaluator.bind("name", name);
    let mut reasons = Vec::new();
    for p in params.iter().filter(|p| !p.captures_rest) {
        let value = match given(&p.name.name) {
            Supplied::Value(value) => {
                let rejected = p.type_expr.as_ref().is_some_and(|type_expr| {
                    mismatch(
                        &mut resolver,
                        type_expr,
                        &p.name.name,
                        value,
                        Undef::LeavesTheDefault,
                    )
                    .is_some()
                });
                if rejected {
                    return Vec::new();
                }
                value.clone()
            }
            Supplied::Unknown => AbstractValue::Inferred(crate::types::t::any()),
            Supplied::Nothing => {
                let Some(default) = &p.default else {
                    return Vec::new();
                };
                // A default the evaluation cannot follow is known only to be `Any`:
                // nothing is judged of it, nor of the defaults that read it.
                let value = evaluator
                    .eval(default)
                    .unwrap_or_else(|_| AbstractValue::Inferred(crate::types::t::any()));
                if let Some(type_expr) = &p.type_expr {
                    if let Some(why) = mismatch(
                        &mut resolver,
                        type_expr,
                        &p.name.name,
                        &value,
                        Undef::IsAValue,
                    ) {
                        reasons.extend(why);
                    }
                }
                value
            }
        };
        evaluator.bind(&p.name.name, value);
    }
    reasons
}
