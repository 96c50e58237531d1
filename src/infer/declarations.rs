//! Declarations of classes and defined types the environment index knows
//! (`class { 'ntp': ... }`, `ntp::peer { 'x': ... }`), for the rules that check them
//! against the definitions.

use super::{FileInference, FileView};
use crate::ast::{ExprKind, ResourceBody, ResourceExpr, ResourceForm};
use crate::builtin::resource_type::ResourceType;
use crate::env::{Definition, Environment};
use crate::eval::AbstractValue;
use crate::types::value::Value;
use indexmap::IndexMap;
use std::sync::Arc;

/// One declaration with the definition it declares.
pub struct Declaration<'a> {
    pub definition: std::sync::Arc<Definition>,
    /// Its title (a class's is its name), when the evaluation knows it.
    pub title: Option<String>,
    /// The attributes it gives (`given`).
    pub attributes: Vec<Given<'a>>,
    /// Whether `attributes` are all it gives (no `* =>` hash the evaluation does not
    /// know).
    pub complete: bool,
    /// A class's declaration (`class { 'ntp': }`), not a defined type's.
    pub is_class: bool,
    /// Where it is declared: the resource's title, or the `create_resources` call.
    pub span: crate::source::Span,
    /// The `default:` body of a resource expression, which declares nothing itself:
    /// Puppet gives its attributes to every other body of the expression.
    pub is_default_body: bool,
    /// The attributes the expression's `default:` body gives this body (those it
    /// does not give itself).
    pub shared: Vec<&'a str>,
    /// A virtual or exported resource (`@web::vhost`, `@@web::vhost`): Puppet still
    /// requires its parameters, but may never evaluate it.
    pub virtual_or_exported: bool,
    /// The title as written (`None`: a `create_resources` call's).
    pub title_expr: Option<&'a crate::ast::Expr>,
}

impl Declaration<'_> {
    /// How Puppet names it in messages: `Class[Ntp]`, `Ntp::Peer[x]` (`Ntp::Peer` when
    /// the title is not known). Made when a message needs it: most declarations have
    /// none.
    pub fn subject(&self) -> String {
        let shown = capitalized(&self.definition.name);
        match &self.title {
            _ if self.is_class => format!("Class[{shown}]"),
            Some(title) => format!("{shown}[{title}]"),
            None => shown,
        }
    }
}

/// `ntp::peer` is `Ntp::Peer`.
pub fn capitalized(name: &str) -> String {
    crate::types::display::capitalize_segments(name)
}

/// The strings a title evaluates to where the evaluation reached it (one, or an array
/// of them); none when it is not known.
fn titles(record: &FileInference, title: &crate::ast::Expr) -> Vec<String> {
    match record.value(title) {
        Some(AbstractValue::Known(Value::String(s))) => vec![s.to_string()],
        Some(AbstractValue::Known(Value::Array(items))) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The declarations a resource expression makes of classes or defined types the index
/// has.
pub fn declarations_in<'a>(
    view: FileView<'a>,
    record: &'a FileInference,
    resource: &'a ResourceExpr,
) -> Vec<Declaration<'a>> {
    let env: &Environment = view.env;
    let mut found = Vec::new();
    let ExprKind::Name(type_name) = &resource.type_expr.kind else {
        return found;
    };
    let virtual_or_exported = resource.form != ResourceForm::Regular;
    let is_default = |body: &ResourceBody| matches!(body.title.kind, ExprKind::Default);
    let default_body = resource.bodies.iter().find(|b| is_default(b));
    let shared: Vec<&str> = default_body
        .map(|b| {
            b.attributes
                .iter()
                .filter(|a| a.name.name != "*")
                .map(|a| a.name.name.as_str())
                .collect()
        })
        .unwrap_or_default();
    let defaults_known = default_body.is_none_or(|b| all_splats_known(record, b));
    for body in &resource.bodies {
        let is_default_body = is_default(body);
        let shared = if is_default_body {
            Vec::new()
        } else {
            shared.clone()
        };
        let complete = defaults_known && all_splats_known(record, body);
        if type_name == "class" {
            for title in titles(record, &body.title) {
                if let Some(definition) = env.class(&title) {
                    found.push(Declaration {
                        title: Some(definition.name.clone()),
                        definition,
                        attributes: given(record, resource, body),
                        complete,
                        is_class: true,
                        span: body.title.span,
                        is_default_body,
                        shared: shared.clone(),
                        virtual_or_exported,
                        title_expr: Some(&body.title),
                    });
                }
            }
        } else if let Some(definition) = env.define(type_name.as_str()) {
            // With several titles, Puppet fails on the first resource.
            let first = titles(record, &body.title).into_iter().next();
            found.push(Declaration {
                definition,
                title: first,
                attributes: given(record, resource, body),
                complete,
                is_class: false,
                span: body.title.span,
                is_default_body,
                shared,
                virtual_or_exported,
                title_expr: Some(&body.title),
            });
        }
    }
    found
}

/// Whether the evaluation knows every `* =>` hash of a body.
fn all_splats_known(inference: &FileInference, body: &ResourceBody) -> bool {
    body.attributes
        .iter()
        .filter(|a| a.name.name == "*")
        .all(|a| {
            matches!(
                inference.value(&a.value),
                Some(AbstractValue::Known(Value::Hash(_)))
            )
        })
}

/// An attribute a resource body gives: written, or an entry of a `* =>` hash the
/// evaluation knows.
pub struct Given<'a> {
    pub name: std::borrow::Cow<'a, str>,
    /// What the evaluation knows of the value; `None` when it stopped before it.
    pub value: Option<std::borrow::Cow<'a, AbstractValue>>,
    /// Where the value is written (for a splat's entry, the splatted expression).
    pub span: crate::source::Span,
    /// Where the name is written (for a splat's entry, the splatted expression; for a
    /// resource default's, the declaration's title, where Puppet reports it).
    pub name_span: crate::source::Span,
    /// Where the resource default that gives it is written, if one does.
    pub default_at: Option<crate::source::Span>,
    /// `=>`, or `+>` (which only a resource override may use).
    pub op: crate::ast::AttributeOp,
    /// The expression written for the value (`None`: from a `* =>` hash, a resource
    /// default, `create_resources`).
    pub expr: Option<&'a crate::ast::Expr>,
}

/// The attributes a body of `resource` sets, in order: the written ones, the entries
/// of its `* =>` hash when the evaluation knows it (an entry also written is Puppet's
/// error of its own, not judged here), then the resource defaults in force for the
/// others.
pub fn given<'a>(
    inference: &'a FileInference,
    resource: &'a ResourceExpr,
    body: &'a ResourceBody,
) -> Vec<Given<'a>> {
    use crate::ast::AttributeOp;
    use std::borrow::Cow;
    let mut out: Vec<Given> = Vec::new();
    let mut splats = Vec::new();
    for attribute in &body.attributes {
        if attribute.name.name == "*" {
            splats.push(attribute);
            continue;
        }
        out.push(Given {
            name: Cow::Borrowed(&attribute.name.name),
            value: inference.value(&attribute.value).map(Cow::Borrowed),
            span: attribute.value.span,
            name_span: attribute.name.span,
            default_at: None,
            op: attribute.op,
            expr: Some(&attribute.value),
        });
    }
    for splat in splats {
        let Some(AbstractValue::Known(Value::Hash(entries))) = inference.value(&splat.value) else {
            continue;
        };
        add_entries(&mut out, entries, splat.value.span);
    }
    // (`Class { ... }` defaults are not known to reach class declarations.)
    let is_class = matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "class");
    for default in inference
        .resource_defaults(resource)
        .iter()
        .filter(|_| !is_class)
    {
        if out.iter().any(|g| g.name == default.attribute) {
            continue;
        }
        out.push(Given {
            name: Cow::Borrowed(&default.attribute),
            value: Some(Cow::Borrowed(&default.value)),
            span: default.span,
            name_span: body.title.span,
            default_at: Some(default.span),
            op: AttributeOp::Set,
            expr: None,
        });
    }
    out
}

/// The declarations `create_resources(type, { title => { attribute => value } },
/// defaults)` makes, where the evaluation knows its arguments: one per title, with
/// each entry's attributes, then the defaults for the others.
fn created_resources<'a>(
    env: &Environment,
    inference: &'a FileInference,
    call: &'a crate::ast::Call,
) -> Vec<Declaration<'a>> {
    let mut found = Vec::new();
    let is_create_resources = matches!(&call.function.kind, ExprKind::Name(n) if n.trim_start_matches("::") == "create_resources");
    if !is_create_resources || !(2..=3).contains(&call.args.len()) {
        return found;
    }
    let known = |e: &crate::ast::Expr| match inference.value(e) {
        Some(AbstractValue::Known(v)) => Some(v),
        _ => None,
    };
    let (Some(Value::String(type_name)), Some(Value::Hash(resources))) =
        (known(&call.args[0]), known(&call.args[1]))
    else {
        return found;
    };
    let defaults = match call.args.get(2).map(known) {
        None => None,
        Some(Some(Value::Hash(defaults))) => Some(defaults),
        Some(_) => return found,
    };
    let type_name = type_name.trim_start_matches("::").to_ascii_lowercase();
    for (title, attributes) in resources.iter() {
        let (Some(title), Value::Hash(attributes)) = (title.as_str(), attributes) else {
            continue;
        };
        let is_class = type_name == "class";
        let (definition, title) = if is_class {
            let Some(definition) = env.class(title) else {
                continue;
            };
            let name = definition.name.clone();
            (definition, name)
        } else {
            let Some(definition) = env.define(&type_name) else {
                return found;
            };
            (definition, title.to_string())
        };
        let mut given: Vec<Given> = Vec::new();
        add_entries(&mut given, attributes, call.args[1].span);
        if let Some(defaults) = defaults {
            add_entries(&mut given, defaults, call.args[2].span);
        }
        found.push(Declaration {
            definition,
            title: Some(title),
            attributes: given,
            complete: true,
            is_class,
            span: call.function.span,
            is_default_body: false,
            shared: Vec::new(),
            virtual_or_exported: false,
            title_expr: None,
        });
    }
    found
}

/// Adds the entries of a known hash of attributes (written at `span`) that name an
/// attribute not given yet.
fn add_entries(
    given: &mut Vec<Given>,
    entries: &IndexMap<Value, Value>,
    span: crate::source::Span,
) {
    use std::borrow::Cow;
    for (name, value) in entries.iter() {
        let Some(name) = name.as_str() else { continue };
        if given.iter().any(|g| g.name == name) {
            continue;
        }
        given.push(Given {
            name: Cow::Owned(name.to_string()),
            value: Some(Cow::Owned(AbstractValue::Known(value.clone()))),
            span,
            name_span: span,
            default_at: None,
            op: crate::ast::AttributeOp::Set,
            expr: None,
        });
    }
}

/// Every declaration in the file of a class or defined type the index has: resource
/// expressions, and `create_resources` calls whose arguments the evaluation knows.
pub fn each_declaration<'a>(
    view: FileView<'a>,
    record: &'a FileInference,
    mut f: impl FnMut(Declaration<'a>),
) {
    for &expr in view.exprs {
        let found = match &expr.kind {
            ExprKind::Resource(resource) => declarations_in(view, record, resource),
            ExprKind::Call(call) => created_resources(view.env, record, call),
            _ => continue,
        };
        for declaration in found {
            f(declaration);
        }
    }
}

/// A regular resource body of a type written in Ruby (Puppet's, one Puppet ships in a
/// module, or a module's of the environment).
pub struct RubyResource<'a> {
    pub resource_type: Arc<ResourceType>,
    /// The type's name as the declaration writes it.
    pub type_name: &'a str,
    /// How Puppet names the resource in messages: `File[/etc/motd]`, or `File` when
    /// the title is not a literal.
    pub shown: String,
    pub resource: &'a ResourceExpr,
    pub body: &'a ResourceBody,
}

/// Every regular resource body (`file { ... }`) of a type written in Ruby that the
/// index knows.
pub fn each_ruby_resource<'a>(
    view: FileView<'a>,
    record: &FileInference,
    mut f: impl FnMut(RubyResource<'a>),
) {
    for &expr in view.exprs {
        let ExprKind::Resource(resource) = &expr.kind else {
            continue;
        };
        let ExprKind::Name(type_name) = &resource.type_expr.kind else {
            continue;
        };
        if resource.form != ResourceForm::Regular {
            continue;
        }
        let Some(resource_type) = view.env.resource_type(type_name) else {
            continue;
        };
        for body in &resource.bodies {
            let title = match titles(record, &body.title).as_slice() {
                [one] => format!("[{one}]"),
                _ => String::new(),
            };
            f(RubyResource {
                resource_type: resource_type.clone(),
                type_name,
                shown: format!("{}{title}", capitalized(type_name)),
                resource,
                body,
            });
        }
    }
}

/// Whether automatic parameter lookup may give the class `class` its parameter
/// `param`: some Hiera level of the environment or the module may bind
/// `class::param`, or a level pupcheck cannot read may.
pub fn class_parameter_may_be_bound(env: &Environment, class: &str, param: &str) -> bool {
    env.hiera().may_bind(&format!("{class}::{param}"))
}

/// Each class `include`, `contain` or `require` names with a literal that the index
/// has, with the argument naming it, where that inclusion gives the class its
/// parameters' values itself (from Hiera or the defaults): not where some manifest may
/// declare the class with parameters, which may be evaluated first.
pub fn each_included_class<'a>(
    view: FileView<'a>,
    mut f: impl FnMut(std::sync::Arc<Definition>, &'a crate::ast::Expr),
) {
    for &expr in view.exprs {
        let ExprKind::Call(call) = &expr.kind else {
            continue;
        };
        let ExprKind::Name(function) = &call.function.kind else {
            continue;
        };
        if !matches!(function.as_str(), "include" | "contain" | "require") {
            continue;
        }
        for (name, at) in literal_names(&call.args) {
            let Some(definition) = view.env.class(name) else {
                continue;
            };
            if !view.env.may_declare_class_with_parameters(&definition.name) {
                f(definition, at);
            }
        }
    }
}

/// The class names written as literals in `include`-like arguments.
pub(crate) fn literal_names(args: &[crate::ast::Expr]) -> Vec<(&str, &crate::ast::Expr)> {
    let mut out = Vec::new();
    for a in args {
        match &a.kind {
            ExprKind::String(s) => out.push((s.value.as_str(), a)),
            ExprKind::Name(n) => out.push((n.as_str(), a)),
            ExprKind::Array(items) => out.extend(literal_names(items)),
            _ => {}
        }
    }
    out
}
