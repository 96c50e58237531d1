//! Bodies evaluated with the values a declaration gives (issue: "a declaration with
//! known values makes that body's errors depend on those values the way Puppet's
//! would"). The walk of a class or defined-type body knows its parameters by their
//! types; where a declaration in this file gives every attribute a value the code fixes
//! (`ntp::peer { 'a': port => 123 }`, `class { 'ntp': servers => [] }`), the body is
//! evaluated again with those values, and the errors Puppet raises there for them
//! (and not for every value of the types) are this declaration's.
//!
//! Not evaluated: virtual and exported resources (they may never be realised), an
//! expression with a `default:` body, a type whose attributes some code sets apart
//! (defaults, overrides), a declaration with an attribute the evaluation does not know,
//! an `* =>` splat, an attribute the definition does not take, a value its parameter's
//! type rejects (Puppet fails before the body: other rules say so), a defined type
//! missing a required parameter, and definitions in files that do not parse.

use super::FileInference;
use super::FileView;
use crate::ast::{AttributeOp, ExprKind, ResourceBody, ResourceExpr, ResourceForm};
use crate::env::definition_key;
use crate::env::symbols::{self, SymbolKind};
use crate::eval::FileAliases;
use crate::eval::{AbstractValue, Binding, Budget, Evaluator, Failure, TitleAndName};
use crate::source::Span;
use crate::types::{instance_of, t, Value};
use foldhash::HashSet;
use std::path::PathBuf;

/// An error Puppet raises in a body for the values one declaration gives.
#[derive(Debug, Clone)]
pub struct DeclaredFailure {
    /// The declaration's title, in this file.
    pub at: Span,
    /// The failure, located in the definition's file.
    pub failure: Failure,
    /// `class` or `defined type`.
    pub kind: &'static str,
    pub definition: String,
    pub path: PathBuf,
    /// The 1-based line of the failure in the definition's file.
    pub line: u32,
    /// The bodies the values went through before it, outermost first (`class
    /// 'site::web'`), when the failure is in a body another body declares.
    pub through: Vec<String>,
}

/// The failures of every declaration of the file evaluated into its body.
pub(super) fn failures(
    ctx: &FileView,
    record: &FileInference,
    budget: &Budget,
) -> Vec<DeclaredFailure> {
    let mut found = Vec::new();
    for expr in ctx.exprs {
        let ExprKind::Resource(resource) = &expr.kind else {
            continue;
        };
        if resource.form != ResourceForm::Regular
            || resource
                .bodies
                .iter()
                .any(|b| matches!(b.title.kind, ExprKind::Default))
        {
            continue;
        }
        for body in &resource.bodies {
            found.extend(declaration(ctx, record, resource, body, budget));
        }
    }
    found
}

/// The failures of one declaration, if it can be evaluated into its body.
fn declaration(
    ctx: &FileView,
    record: &FileInference,
    resource: &ResourceExpr,
    body: &ResourceBody,
    budget: &Budget,
) -> Vec<DeclaredFailure> {
    let ExprKind::Name(type_name) = &resource.type_expr.kind else {
        return Vec::new();
    };
    let Some(AbstractValue::Known(Value::String(title))) = record.value(&body.title) else {
        return Vec::new();
    };
    let mut given: Vec<(String, Value)> = Vec::new();
    for attribute in &body.attributes {
        match record.value(&attribute.value) {
            Some(AbstractValue::Known(v))
                if attribute.name.name != "*" && attribute.op == AttributeOp::Set =>
            {
                given.push((attribute.name.name.clone(), v.clone()))
            }
            _ => return Vec::new(),
        }
    }
    let declared = Declared {
        type_name: type_name.clone(),
        title: title.to_string(),
        given,
    };
    evaluate(ctx.env, &declared, 0, budget)
        .map(|(failure, found)| DeclaredFailure {
            at: body.title.span,
            failure,
            ..found
        })
        .into_iter()
        .collect()
}

/// A declaration whose title and attributes are known.
struct Declared {
    /// As written (`site::pool`, `class`).
    type_name: String,
    title: String,
    given: Vec<(String, Value)>,
}

/// How many declared bodies deep declarations are followed (a body declaring another
/// resource whose values it fixes).
const MAX_DEPTH: usize = 4;

/// The first failure Puppet raises evaluating `declared`'s body (or, when that body
/// raises none, the bodies of the declarations it makes with known values), with
/// where it is; the `at` of the result is left for the caller.
fn evaluate(
    env: &crate::env::Environment,
    declared: &Declared,
    depth: usize,
    budget: &Budget,
) -> Option<(Failure, DeclaredFailure)> {
    // Past the budget, no more bodies are run.
    if budget.spent() {
        return None;
    }
    let is_class = declared.type_name.eq_ignore_ascii_case("class");
    let name = if is_class {
        definition_key(&declared.title)
    } else {
        definition_key(&declared.type_name)
    };
    // Declaring a class with no attributes is including it: its own walk judged that.
    if declared.given.is_empty() || (!is_class && env.may_set_attributes_apart(&name)) {
        return None;
    }
    let definition = if is_class {
        env.class(&name)
    } else {
        env.define(&name)
    }?;
    let file = env.definition_file(&definition.path)?;
    let kind = if is_class {
        SymbolKind::Class
    } else {
        SymbolKind::Define
    };
    let symbol = symbols::find(&file.program, kind, &name)?;
    let params = symbol.params.unwrap_or(&[]);
    let block = symbol.body?;
    let takes =
        |n: &str| params.iter().any(|p| p.name.name == n) || crate::builtin::is_metaparameter(n);
    if declared.given.iter().any(|(n, _)| !takes(n)) {
        return None;
    }
    let aliases = FileAliases::with_budget(&file.program, env, budget.clone());
    let title_value = AbstractValue::Known(Value::string(&declared.title));
    let statements = &block.statements;
    let given: Vec<(&str, Value)> = declared
        .given
        .iter()
        .map(|(n, v)| (n.as_str(), v.clone()))
        .collect();
    let (with_values, nested) = walk(
        &aliases,
        title_value.clone(),
        params,
        &given,
        is_class,
        statements,
    )?;
    let (for_every_value, _) =
        walk(&aliases, title_value, params, &[], true, statements).unwrap_or_default();
    let for_every_value: HashSet<(Span, String)> = for_every_value
        .into_iter()
        .map(|f| (f.span, f.message))
        .collect();
    let kind_name = if is_class { "class" } else { "defined type" };
    // Puppet stops at the first error the body raises for these values.
    if let Some(failure) = with_values
        .into_iter()
        .find(|f| !for_every_value.contains(&(f.span, f.message.clone())))
    {
        let found = DeclaredFailure {
            at: Span::at(0),
            line: file.source.position(failure.span.start).line,
            failure: failure.clone(),
            kind: kind_name,
            definition: name.clone(),
            path: definition.path.clone(),
            through: Vec::new(),
        };
        return Some((failure, found));
    }
    if depth + 1 >= MAX_DEPTH {
        return None;
    }
    // Else the bodies it declares with values it fixes, in order.
    nested
        .iter()
        .find_map(|inner| evaluate(env, inner, depth + 1, budget))
        .map(|(failure, mut found)| {
            found.through.insert(0, format!("{kind_name} '{name}'"));
            (failure, found)
        })
}

/// Walks a body with `given` bound to its parameters (the others to their defaults, or
/// known by their types); the failures it finds. `None` when Puppet would fail before
/// the body: a value its parameter's type rejects, or a required parameter of a
/// defined type not given (`lenient`: a class's, which Hiera may bind).
fn walk(
    aliases: &FileAliases,
    title: AbstractValue,
    params: &[crate::ast::Parameter],
    given: &[(&str, Value)],
    lenient: bool,
    statements: &[crate::ast::Expr],
) -> Option<(Vec<Failure>, Vec<Declared>)> {
    let mut evaluator = Evaluator::new(aliases).with_functions(aliases);
    let name = given
        .iter()
        .find(|(n, _)| *n == "name")
        .map_or(title.clone(), |(_, v)| AbstractValue::Known(v.clone()));
    let names = TitleAndName { title, name };
    evaluator.bind_parameters(Some(names), params, |evaluator, p| {
        if p.captures_rest {
            return Binding::Unbound;
        }
        let declared = match &p.type_expr {
            Some(t) => evaluator.resolve_type(t).ok(),
            None => Some(t::any()),
        };
        match given.iter().find(|(n, _)| *n == p.name.name) {
            // A value its type rejects, or a type pupcheck cannot read: not judged.
            Some((_, v)) if !declared.as_ref().is_some_and(|ty| instance_of(v, ty)) => {
                Binding::Refused
            }
            Some((_, v)) => Binding::To(AbstractValue::Known(v.clone())),
            None => match &p.default {
                Some(default) if !given.is_empty() => match evaluator.eval(default) {
                    Ok(value) => Binding::To(value),
                    Err(_) => Binding::To(AbstractValue::Inferred(declared.unwrap_or_else(t::any))),
                },
                _ if given.is_empty() || lenient => {
                    Binding::To(AbstractValue::Inferred(declared.unwrap_or_else(t::any)))
                }
                _ => Binding::Refused,
            },
        }
    })?;
    // The declarations the body makes, where the walk reaches them for certain, with
    // their title and every attribute known.
    let mut nested: Vec<Declared> = Vec::new();
    evaluator.walk(statements, &mut |evaluator, reached| {
        let crate::eval::flow::Reached::Resource(resource) = reached else {
            return;
        };
        let shared_defaults = resource
            .bodies
            .iter()
            .any(|b| matches!(b.title.kind, ExprKind::Default));
        if !evaluator.is_certain() || resource.form != ResourceForm::Regular || shared_defaults {
            return;
        }
        let ExprKind::Name(type_name) = &resource.type_expr.kind else {
            return;
        };
        for body in &resource.bodies {
            let Ok(AbstractValue::Known(Value::String(title))) = evaluator.eval(&body.title) else {
                continue;
            };
            let given: Option<Vec<(String, Value)>> = body
                .attributes
                .iter()
                .map(|a| match evaluator.eval(&a.value) {
                    Ok(AbstractValue::Known(v))
                        if a.name.name != "*" && a.op == AttributeOp::Set =>
                    {
                        Some((a.name.name.clone(), v))
                    }
                    _ => None,
                })
                .collect();
            if let Some(given) = given {
                nested.push(Declared {
                    type_name: type_name.clone(),
                    title: title.to_string(),
                    given,
                });
            }
        }
    });
    // With values, only what the body raises for certain: a failure in a branch whose
    // condition the evaluation does not know (`if is_array($packages)`, a function it
    // does not model) may be in code Puppet never runs for them. By types, every
    // failure: the body's own findings, reported there.
    let failures = if given.is_empty() {
        evaluator.take_failures()
    } else {
        evaluator.take_certain_failures()
    };
    Some((failures, nested))
}
