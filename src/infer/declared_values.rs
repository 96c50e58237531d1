//! The values a file's declarations give the parameters of classes and defined types,
//! judged against the parameters' types as Puppet judges them when it evaluates the
//! declaration: each value given, and the defaults left, evaluated in the definition's
//! file, in parameter order, each seeing `$title`, `$name` and the parameters before
//! it. A value its parameter's type rejects fails the declaration ("Class[Ntp]:
//! parameter 'port' expects an Integer value, got String"), whatever the body does.
//! Found for every declaration of the file the first time a rule asks
//! (`FileInference::rejected_values`).

use super::declarations::{
    capitalized, class_parameter_may_be_bound, each_declaration, each_included_class, Declaration,
};
use super::parameter_values::{declared_type, mismatch, Undef};
use super::{FileInference, FileView};
use crate::ast::AttributeOp;
use crate::env::{Definition, Environment};
use crate::eval::FileAliases;
use crate::eval::{AbstractValue, Binding, Evaluator, TitleAndName};
use crate::source::Span;
use crate::types::resolve::Resolver;
use crate::types::Value;
use std::path::PathBuf;

/// Values a declaration gives, or leaves, that a parameter's type rejects.
#[derive(Debug, Clone)]
pub struct RejectedValue {
    /// The value given; for defaults, the declaration (a resource's title, the
    /// `create_resources` call, or the name an `include` gives).
    pub at: Span,
    /// How Puppet names what is declared (`Class[Ntp]`, `Ntp::Peer[x]`).
    pub subject: String,
    /// Puppet's words for each value rejected, in parameter order.
    pub reasons: Vec<String>,
    pub rejected: Rejected,
    /// The nodes the value is rejected on, when a fact decides it ("on nodes where
    /// $facts['os']['family'] is 'RedHat'"); `None`: wherever the declaration is.
    pub nodes: Option<String>,
}

/// Which values a [`RejectedValue`] is about.
#[derive(Debug, Clone)]
pub enum Rejected {
    /// The value given to `param`, declared as `declared` (`None`: a type pupcheck does
    /// not show) in `path`.
    Given {
        param: String,
        declared: Option<String>,
        path: PathBuf,
    },
    /// The defaults the declaration leaves, written in `path`.
    Defaults { path: PathBuf },
}

/// What a declaration gives one parameter.
enum Supplied<'v> {
    /// Nothing: the default is used (or, without one, the declaration fails anyway).
    Nothing,
    /// A value, known as far as the evaluation knows it.
    Value(&'v AbstractValue),
    /// Something the evaluation does not know (a `* =>` hash, Hiera for a class).
    Unknown,
}

/// The rejected values of the file's declarations: the defaults of the classes
/// `include`, `contain` and `require` name (each parameter gets Hiera's value or its
/// default), then, for each resource declaration of a class or defined type, the values
/// it gives and the defaults it leaves. Not judged: virtual and exported resources; for
/// defaults also `default:` bodies, a declaration with a `* =>` hash the evaluation
/// does not know, a defined type some code may give attributes apart (resource
/// defaults, overrides), a class parameter Hiera may bind.
pub(super) fn rejected_values(view: FileView, record: &FileInference) -> Vec<RejectedValue> {
    let env = view.env;
    let mut found = Vec::new();
    each_included_class(view, |definition, at| {
        let given = |param: &str| {
            if class_parameter_may_be_bound(env, &definition.name, param) {
                Supplied::Unknown
            } else {
                Supplied::Nothing
            }
        };
        let reasons = evaluate_defaults(env, &definition, &definition.name, given);
        if !reasons.is_empty() {
            found.push(RejectedValue {
                at: at.span,
                subject: format!("Class[{}]", capitalized(&definition.name)),
                reasons,
                rejected: Rejected::Defaults {
                    path: definition.path.clone(),
                },
                nodes: None,
            });
        }
    });
    let mut declarations = Vec::new();
    each_declaration(view, record, |declaration| {
        if !declaration.virtual_or_exported {
            declarations.push(declaration);
        }
    });
    if declarations.is_empty() {
        return found;
    }
    let aliases = FileAliases::new(view.program, env);
    let mut resolver = Resolver::new(&aliases);
    for declaration in &declarations {
        given_values(
            &mut resolver,
            view,
            record,
            &aliases,
            declaration,
            &mut found,
        );
        found.extend(left_defaults(env, declaration));
    }
    found
}

/// The values `declaration` gives that their parameters' types reject.
fn given_values(
    resolver: &mut Resolver,
    view: FileView,
    record: &FileInference,
    aliases: &FileAliases,
    declaration: &Declaration,
    found: &mut Vec<RejectedValue>,
) {
    for attribute in &declaration.attributes {
        if attribute.op != AttributeOp::Set {
            continue;
        }
        let Some(param) = declaration.definition.param(&attribute.name) else {
            continue;
        };
        let Some(type_expr) = &param.type_expr else {
            continue;
        };
        let Some(value) = attribute.value.as_deref() else {
            continue;
        };
        // `undef` given to a parameter with a default leaves the default (whose type
        // parameter-default-type judges); without one, it is judged like any value.
        if matches!(value, AbstractValue::Known(Value::Undef)) && param.default.is_some() {
            continue;
        }
        let name = &param.name.name;
        // A parameter of the enclosing definition that defaults to `undef`, passed on:
        // undef leaves this parameter its default, and is what a plain compile gives
        // (`Optional[String] $password = undef` passed to `Optional[Sensitive[String]]`
        // fails only once someone sets it).
        if attribute
            .expr
            .is_some_and(|expr| super::enclosing::defaults_to_undef(view.program, expr))
        {
            continue;
        }
        let (reasons, nodes, subject) =
            match mismatch(resolver, type_expr, name, value, Undef::LeavesTheDefault) {
                Some(reasons) => (reasons, None, declaration.subject()),
                None => {
                    let by_fact = attribute.expr.and_then(|expr| {
                        rejected_by_fact(resolver, view, record, aliases, expr, type_expr, name)
                    });
                    match by_fact {
                        Some((reasons, nodes)) => (reasons, Some(nodes), declaration.subject()),
                        None => match rejected_for_element(
                            resolver,
                            record,
                            declaration,
                            attribute,
                            param,
                        ) {
                            Some((reasons, subject)) => (reasons, None, subject),
                            None => continue,
                        },
                    }
                }
            };
        found.push(RejectedValue {
            at: attribute.span,
            subject,
            reasons,
            rejected: Rejected::Given {
                param: name.clone(),
                declared: declared_type(resolver, type_expr).map(|t| t.to_string()),
                path: declaration.definition.path.clone(),
            },
            nodes,
        });
    }
}

/// Puppet's words for the value `attribute` has for the first element of a known
/// collection whose iteration declares `declaration` that the parameter's type
/// rejects, with how Puppet names that element's resource (`Web::Vhost[b]`).
fn rejected_for_element(
    resolver: &mut Resolver,
    record: &FileInference,
    declaration: &Declaration,
    attribute: &super::declarations::Given,
    param: &crate::ast::Parameter,
) -> Option<(Vec<String>, String)> {
    if declaration.is_class {
        return None;
    }
    let title_expr = declaration.title_expr?;
    let expr = attribute.expr?;
    let type_expr = param.type_expr.as_ref()?;
    for values in record.element_values(title_expr) {
        let Some(value @ AbstractValue::Known(given)) = values.get(&super::ExprId::of(expr)) else {
            continue;
        };
        if matches!(given, Value::Undef) && param.default.is_some() {
            continue;
        }
        let Some(reasons) = mismatch(
            resolver,
            type_expr,
            &param.name.name,
            value,
            Undef::LeavesTheDefault,
        ) else {
            continue;
        };
        let Some(AbstractValue::Known(Value::String(title))) =
            values.get(&super::ExprId::of(title_expr))
        else {
            return None;
        };
        let shown = capitalized(&declaration.definition.name);
        return Some((reasons, format!("{shown}[{title}]")));
    }
    None
}

/// Puppet's words for a value a fact decides (`node_dependent`) that the parameter's
/// type rejects on the nodes of some fact value, with those nodes in words (each value
/// the type rejects alike named: "'RedHat' or 'Suse'").
fn rejected_by_fact(
    resolver: &mut Resolver,
    view: FileView,
    record: &FileInference,
    aliases: &FileAliases,
    expr: &crate::ast::Expr,
    type_expr: &crate::ast::Expr,
    name: &str,
) -> Option<(Vec<String>, String)> {
    let mut rejected: Option<(Vec<String>, Vec<super::node_dependent::Alternative>)> = None;
    for alternative in super::node_dependent::alternatives(view.program, expr) {
        // The walk records the value of an arm it reached; one that reads nothing
        // (a literal) is the same wherever it is evaluated.
        let value = match record.value(alternative.expr) {
            Some(value @ AbstractValue::Known(_)) => value.clone(),
            Some(_) => continue,
            None if super::node_dependent::reads_nothing(alternative.expr) => {
                match Evaluator::new(aliases)
                    .with_functions(aliases)
                    .eval(alternative.expr)
                {
                    Ok(value @ AbstractValue::Known(_)) => value,
                    _ => continue,
                }
            }
            None => continue,
        };
        let Some(reasons) = mismatch(resolver, type_expr, name, &value, Undef::LeavesTheDefault)
        else {
            continue;
        };
        match &mut rejected {
            None => rejected = Some((reasons, vec![alternative])),
            Some((first, alike)) if *first == reasons => alike.push(alternative),
            Some(_) => {}
        }
    }
    let (reasons, alike) = rejected?;
    let values: Vec<String> = alike.iter().map(|a| format!("'{}'", a.value)).collect();
    let nodes = format!(
        "on nodes where {} is {}",
        alike[0].fact,
        values.join(" or ")
    );
    Some((reasons, nodes))
}

/// The defaults one declaration of a class or defined type leaves that fail it.
fn left_defaults(env: &Environment, declaration: &Declaration) -> Option<RejectedValue> {
    let definition = &declaration.definition;
    let title = declaration.title.as_ref()?;
    if declaration.is_default_body
        || !declaration.complete
        || (!declaration.is_class && env.may_set_attributes_apart(&definition.name))
    {
        return None;
    }
    let given = |name: &str| {
        if let Some(attribute) = declaration.attributes.iter().find(|a| a.name == name) {
            return match attribute.value.as_deref() {
                // `undef` leaves the default.
                Some(AbstractValue::Known(Value::Undef)) => Supplied::Nothing,
                Some(value) if attribute.op == AttributeOp::Set => Supplied::Value(value),
                _ => Supplied::Unknown,
            };
        }
        if declaration.shared.contains(&name)
            || (declaration.is_class && class_parameter_may_be_bound(env, &definition.name, name))
        {
            return Supplied::Unknown;
        }
        Supplied::Nothing
    };
    let reasons = evaluate_defaults(env, definition, title, given);
    (!reasons.is_empty()).then(|| RejectedValue {
        at: declaration.span,
        subject: declaration.subject(),
        reasons,
        rejected: Rejected::Defaults {
            path: definition.path.clone(),
        },
        nodes: None,
    })
}

/// Puppet's words for each default that `definition`'s parameters get from a
/// declaration titled `title` (`given` says what the declaration gives each
/// parameter) and that their types reject, in parameter order. Empty when none does,
/// when the definition's file cannot be read, or when the declaration fails before
/// (a required parameter it does not give: missing-parameter says so; a value it gives
/// that its parameter rejects: parameter-type-mismatch says so), since Puppet then
/// words the failure with those too.
fn evaluate_defaults<'v>(
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
    let unknown = || AbstractValue::Inferred(crate::types::t::any());
    let title = AbstractValue::Known(Value::string(title));
    // `$name` is the title unless the declaration gives `name`.
    let name = match given("name") {
        Supplied::Value(value) => value.clone(),
        Supplied::Unknown => unknown(),
        Supplied::Nothing => title.clone(),
    };
    let mut reasons = Vec::new();
    let bound = evaluator.bind_parameters(
        Some(TitleAndName { title, name }),
        params,
        |evaluator, p| {
            if p.captures_rest {
                return Binding::Unbound;
            }
            match given(&p.name.name) {
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
                        return Binding::Refused;
                    }
                    Binding::To(value.clone())
                }
                Supplied::Unknown => Binding::To(unknown()),
                Supplied::Nothing => {
                    let Some(default) = &p.default else {
                        return Binding::Refused;
                    };
                    // A default the evaluation cannot follow is known only to be `Any`:
                    // nothing is judged of it, nor of the defaults that read it.
                    let value = evaluator.eval(default).unwrap_or_else(|_| unknown());
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
                    Binding::To(value)
                }
            }
        },
    );
    match bound {
        Some(()) => reasons,
        None => Vec::new(),
    }
}
