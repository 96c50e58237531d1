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
use crate::analysis::symbols::{self, SymbolKind};
use crate::ast::{AttributeOp, ExprKind, ResourceBody, ResourceExpr, ResourceForm};
use crate::env::{definition_key, FileAliases};
use crate::eval::{AbstractValue, Evaluator, Failure};
use crate::rules::FileContext;
use crate::source::Span;
use crate::types::{t, Value};
use std::collections::HashSet;
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
}

/// The failures of every declaration of the file evaluated into its body.
pub(super) fn failures(ctx: &FileContext, record: &FileInference) -> Vec<DeclaredFailure> {
    let mut found = Vec::new();
    for expr in &ctx.exprs {
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
            found.extend(declaration(ctx, record, resource, body));
        }
    }
    found
}

/// The failures of one declaration, if it can be evaluated into its body.
fn declaration(
    ctx: &FileContext,
    record: &FileInference,
    resource: &ResourceExpr,
    body: &ResourceBody,
) -> Vec<DeclaredFailure> {
    let ExprKind::Name(type_name) = &resource.type_expr.kind else {
        return Vec::new();
    };
    let Some(AbstractValue::Known(Value::String(title))) = record.value(&body.title) else {
        return Vec::new();
    };
    let is_class = type_name.eq_ignore_ascii_case("class");
    let name = if is_class {
        definition_key(title)
    } else {
        definition_key(type_name)
    };
    // Declaring a class with no attributes is including it: its own walk judged that.
    if body.attributes.is_empty() || (!is_class && ctx.env.may_set_attributes_apart(&name)) {
        return Vec::new();
    }
    let mut given: Vec<(&str, Value)> = Vec::new();
    for attribute in &body.attributes {
        match record.value(&attribute.value) {
            Some(AbstractValue::Known(v))
                if attribute.name.name != "*" && attribute.op == AttributeOp::Set =>
            {
                given.push((attribute.name.name.as_str(), v.clone()))
            }
            _ => return Vec::new(),
        }
    }
    let definition = if is_class {
        ctx.env.class(&name)
    } else {
        ctx.env.define(&name)
    };
    let Some(definition) = definition else {
        return Vec::new();
    };
    let Some(file) = ctx.env.definition_file(&definition.path) else {
        return Vec::new();
    };
    let kind = if is_class {
        SymbolKind::Class
    } else {
        SymbolKind::Define
    };
    let Some(symbol) = symbols::find(&file.program, kind, &name) else {
        return Vec::new();
    };
    let (Some(params), Some(block)) = (symbol.params.or(Some(&[])), symbol.body) else {
        return Vec::new();
    };
    let takes = |n: &str| {
        params.iter().any(|p| p.name.name == n) || crate::env::builtin::is_metaparameter(n)
    };
    if given.iter().any(|(n, _)| !takes(n)) {
        return Vec::new();
    }
    let aliases = FileAliases::new(&file.program, ctx.env);
    let title_value = AbstractValue::Known(Value::string(title));
    let statements = &block.statements;
    let Some(with_values) = walk(
        &aliases,
        title_value.clone(),
        params,
        &given,
        is_class,
        statements,
    ) else {
        return Vec::new();
    };
    let for_every_value: HashSet<(Span, String)> =
        walk(&aliases, title_value, params, &[], true, statements)
            .unwrap_or_default()
            .into_iter()
            .map(|f| (f.span, f.message))
            .collect();
    // Puppet stops at the first error the body raises for these values.
    with_values
        .into_iter()
        .find(|f| !for_every_value.contains(&(f.span, f.message.clone())))
        .map(|failure| DeclaredFailure {
            at: body.title.span,
            line: file.source.position(failure.span.start).line,
            failure,
            kind: if is_class { "class" } else { "defined type" },
            definition: name.clone(),
            path: definition.path.clone(),
        })
        .into_iter()
        .collect()
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
) -> Option<Vec<Failure>> {
    let mut evaluator = Evaluator::new(aliases).with_functions(aliases);
    evaluator.bind("title", title.clone());
    let name = given
        .iter()
        .find(|(n, _)| *n == "name")
        .map_or(title, |(_, v)| AbstractValue::Known(v.clone()));
    evaluator.bind("name", name);
    for p in params.iter().filter(|p| !p.captures_rest) {
        let declared = match &p.type_expr {
            Some(t) => evaluator.resolve_type(t).ok(),
            None => Some(t::any()),
        };
        let value = match given.iter().find(|(n, _)| *n == p.name.name) {
            Some((_, v)) => {
                // A value its type rejects, or a type pupcheck cannot read: not judged.
                if !declared
                    .as_ref()
                    .is_some_and(|ty| crate::types::instance_of(v, ty))
                {
                    return None;
                }
                AbstractValue::Known(v.clone())
            }
            None => match &p.default {
                Some(default) if !given.is_empty() => match evaluator.eval(default) {
                    Ok(value) => value,
                    Err(_) => AbstractValue::Inferred(declared.unwrap_or_else(t::any)),
                },
                _ if given.is_empty() || lenient => {
                    AbstractValue::Inferred(declared.unwrap_or_else(t::any))
                }
                _ => return None,
            },
        };
        evaluator.bind(&p.name.name, value);
    }
    evaluator.walk(statements, &mut |_, _| {});
    // With values, only what the body raises for certain: a failure in a branch whose
    // condition the evaluation does not know (`if is_array($packages)`, a function it
    // does not model) may be in code Puppet never runs for them. By types, every
    // failure: the body's own findings, reported there.
    Some(if given.is_empty() {
        evaluator.take_failures()
    } else {
        evaluator.take_certain_failures()
    })
}
