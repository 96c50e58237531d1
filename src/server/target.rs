//! What the name under the cursor refers to: a class, defined type, function, type
//! alias or resource type by name, a variable, or a Hiera key. Hover, go to
//! definition and find references all start here.

use crate::ast::{Expr, ExprKind, Program};
use crate::env::definition_key;
use crate::env::symbols::{symbols, SymbolKind};
use crate::source::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Class(String),
    /// A name a resource declaration or reference uses: a defined type or a resource
    /// type written in Ruby (`ntp::peer { }`, `File['x']`).
    ResourceType(String),
    Function(String),
    /// A capitalised name: a type alias, else a resource type (`Ntp::Port`, `File`).
    TypeName(String),
    /// `$x`, `$a::b::x` (the name without `$`), at the expression `Variable`'s span.
    Variable(String),
    /// A key `lookup()` reads, or the key automatic parameter lookup binds to a class
    /// parameter (`ntp::servers`).
    HieraKey(String),
    /// A template `epp()` or `template()` names (`ntp/ntp.conf.epp`: the file
    /// `templates/ntp.conf.epp` of the module `ntp`).
    Template(String),
    /// A definition's own name (hover and references treat it as a use).
    Definition(SymbolKind, String),
    /// An attribute's name in a resource body or resource defaults (`port` in
    /// `class { 'ntp': port => 123 }`): a parameter of the class or defined type
    /// `owner` names (`Class`, `ResourceType`), or an attribute of the resource type.
    Attribute {
        owner: Box<Target>,
        name: String,
    },
}

/// The functions whose arguments name classes.
const CLASS_FUNCTIONS: &[&str] = &["include", "contain", "require"];

/// What is at `offset` of `program`, and the span of the name there.
pub fn target_at(program: &Program, exprs: &[&Expr], offset: u32) -> Option<(Target, Span)> {
    let holds = |span: Span| span.start <= offset && offset < span.end.max(span.start + 1);
    for symbol in symbols(program) {
        if holds(symbol.name_span) {
            return Some((
                Target::Definition(symbol.kind, symbol.name),
                symbol.name_span,
            ));
        }
        // A class parameter's name: the Hiera key automatic lookup binds to it.
        if symbol.kind == SymbolKind::Class {
            for param in symbol.params.into_iter().flatten() {
                if holds(param.name.span) {
                    return Some((
                        Target::HieraKey(format!("{}::{}", symbol.name, param.name.name)),
                        param.name.span,
                    ));
                }
            }
        }
        if let ExprKind::Class(c) = &symbol.expr.kind {
            if let Some(parent) = c.parent.as_ref().filter(|p| holds(p.span)) {
                return Some((Target::Class(definition_key(&parent.name)), parent.span));
            }
        }
    }
    if let Some(found) = exprs
        .iter()
        .copied()
        .filter(|e| holds(e.span))
        .find_map(|e| attribute_at(e, &holds))
    {
        return Some(found);
    }
    // The innermost expression holding the offset, seen from the expressions around it.
    let innermost = exprs
        .iter()
        .copied()
        .filter(|e| holds(e.span))
        .min_by_key(|e| e.span.end - e.span.start)?;
    for expr in exprs.iter().copied().filter(|e| holds(e.span)) {
        if let Some(found) = named_in(expr, innermost) {
            return Some((found, innermost.span));
        }
    }
    match &innermost.kind {
        ExprKind::Variable(name) => Some((Target::Variable(name.clone()), innermost.span)),
        ExprKind::TypeRef(name) => Some((Target::TypeName(name.clone()), innermost.span)),
        _ => None,
    }
}

/// The attribute name of a resource body or of resource defaults that `holds` the
/// cursor, with the span of the name.
fn attribute_at(expr: &Expr, holds: &dyn Fn(Span) -> bool) -> Option<(Target, Span)> {
    let (owner, attributes): (Target, Vec<&crate::ast::Attribute>) = match &expr.kind {
        ExprKind::Resource(resource) => {
            let ExprKind::Name(type_name) = &resource.type_expr.kind else {
                return None;
            };
            let body = resource
                .bodies
                .iter()
                .find(|b| b.attributes.iter().any(|a| holds(a.name.span)))?;
            let owner = if type_name.eq_ignore_ascii_case("class") {
                match &body.title.kind {
                    ExprKind::String(s) => Target::Class(definition_key(&s.value)),
                    ExprKind::Name(n) => Target::Class(definition_key(n)),
                    _ => return None,
                }
            } else {
                Target::ResourceType(definition_key(type_name))
            };
            (owner, body.attributes.iter().collect())
        }
        ExprKind::ResourceDefaults(defaults) => {
            let ExprKind::TypeRef(type_name) = &defaults.type_ref.kind else {
                return None;
            };
            let owner = Target::ResourceType(definition_key(type_name));
            (owner, defaults.attributes.iter().collect())
        }
        _ => return None,
    };
    let attribute = attributes
        .into_iter()
        .find(|a| a.name.name != "*" && holds(a.name.span))?;
    Some((
        Target::Attribute {
            owner: Box::new(owner),
            name: attribute.name.name.clone(),
        },
        attribute.name.span,
    ))
}

/// What `inner`, a direct part of `outer`, names there.
fn named_in(outer: &Expr, inner: &Expr) -> Option<Target> {
    let is = |e: &Expr| std::ptr::eq(e, inner);
    let text = |e: &Expr| match &e.kind {
        ExprKind::String(s) => Some(s.value.clone()),
        ExprKind::Name(n) => Some(n.clone()),
        _ => None,
    };
    match &outer.kind {
        ExprKind::Resource(resource) => {
            let ExprKind::Name(type_name) = &resource.type_expr.kind else {
                return None;
            };
            let is_class = type_name.eq_ignore_ascii_case("class");
            if is(&resource.type_expr) && !is_class {
                return Some(Target::ResourceType(definition_key(type_name)));
            }
            if is_class {
                for body in &resource.bodies {
                    if is(&body.title) {
                        return text(&body.title).map(|t| Target::Class(definition_key(&t)));
                    }
                }
            }
            None
        }
        ExprKind::Call(call) => {
            let ExprKind::Name(function) = &call.function.kind else {
                return None;
            };
            if is(&call.function) {
                return Some(Target::Function(definition_key(function)));
            }
            let function = function.to_ascii_lowercase();
            let arg = call.args.iter().position(is)?;
            if CLASS_FUNCTIONS.contains(&function.as_str()) {
                return text(inner).map(|t| Target::Class(definition_key(&t)));
            }
            let is_template = (function == "epp" && arg == 0) || function == "template";
            if is_template {
                if let ExprKind::String(s) = &inner.kind {
                    return Some(Target::Template(s.value.clone()));
                }
            }
            if function == "lookup" && arg == 0 {
                if let ExprKind::String(s) = &inner.kind {
                    return Some(Target::HieraKey(s.value.clone()));
                }
            }
            None
        }
        // `Class['ntp']`, `Ntp::Peer['x']`.
        ExprKind::Access { object, args } => {
            let ExprKind::TypeRef(type_name) = &object.kind else {
                return None;
            };
            if type_name.eq_ignore_ascii_case("class") && args.iter().any(is) {
                return text(inner).map(|t| Target::Class(definition_key(&t)));
            }
            None
        }
        _ => None,
    }
}
