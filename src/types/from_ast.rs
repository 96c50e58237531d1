//! Conversion of the syntax layer's expressions into [`TypeExpr`], and the text
//! entry point used by the type-system tests and `pupcheck types`: the text is parsed
//! by the real grammar (`syntax::parse_expression`), never by a parser of our own.

use crate::ast::{Expr, ExprKind, StringPart, UnaryOp};

use super::expr::{TypeExpr, TypeExprKind};

/// Converts a parsed expression; parts that cannot appear in a type expression
/// become [`TypeExprKind::Other`] (reported when resolved).
pub fn type_expr_from_ast(e: &Expr) -> TypeExpr {
    let span = (e.span.start as usize, e.span.end as usize);
    let kind = match &e.kind {
        ExprKind::Integer(i) => TypeExprKind::Integer(*i),
        ExprKind::Float(f) => TypeExprKind::Float(*f),
        ExprKind::String(s) => TypeExprKind::String(s.value.clone()),
        ExprKind::Interpolated(parts) => {
            let mut text = String::new();
            let mut literal = true;
            for p in parts {
                match p {
                    StringPart::Text(t, _) => text.push_str(t),
                    StringPart::Interpolation(_) => literal = false,
                }
            }
            if literal {
                TypeExprKind::String(text)
            } else {
                TypeExprKind::Other
            }
        }
        ExprKind::Regex(r) => TypeExprKind::Regex(r.clone()),
        ExprKind::Boolean(b) => TypeExprKind::Boolean(*b),
        ExprKind::Undef => TypeExprKind::Undef,
        ExprKind::Default => TypeExprKind::Default,
        ExprKind::Name(n) | ExprKind::TypeRef(n) => TypeExprKind::Name(n.clone()),
        ExprKind::Array(items) => {
            TypeExprKind::Array(items.iter().map(type_expr_from_ast).collect())
        }
        ExprKind::Hash(entries) => TypeExprKind::Hash(
            entries
                .iter()
                .map(|en| (type_expr_from_ast(&en.key), type_expr_from_ast(&en.value)))
                .collect(),
        ),
        ExprKind::Access { object, args } => TypeExprKind::Access {
            base: Box::new(type_expr_from_ast(object)),
            args: args.iter().map(type_expr_from_ast).collect(),
        },
        ExprKind::Paren(inner) => return type_expr_from_ast(inner),
        ExprKind::Unary {
            op: UnaryOp::Negate,
            operand,
        } => match &operand.kind {
            ExprKind::Integer(i) => TypeExprKind::Integer(i.wrapping_neg()),
            ExprKind::Float(f) => TypeExprKind::Float(-f),
            _ => TypeExprKind::Other,
        },
        _ => TypeExprKind::Other,
    };
    TypeExpr::new(kind, span)
}

/// Parses `text` as one Puppet expression and converts it.
pub fn parse_type_expr(text: &str) -> Result<TypeExpr, String> {
    let e = crate::syntax::parse_expression(text)?;
    Ok(type_expr_from_ast(&e))
}

/// Parses a prelude of alias definitions (`type X = ...` statements) into
/// (name, body) pairs; other statements are an error.
pub fn parse_aliases(text: &str) -> Result<Vec<(String, TypeExpr)>, String> {
    let parsed = crate::syntax::parse_text(text, crate::source::SourceKind::Manifest);
    if let Some(d) = parsed.diagnostics.first() {
        return Err(d.message.clone());
    }
    let mut out = Vec::new();
    for stmt in &parsed.program.body {
        match &stmt.kind {
            ExprKind::TypeAlias(a) => {
                out.push((a.name.name.clone(), type_expr_from_ast(&a.type_expr)))
            }
            _ => return Err("the prelude may only define type aliases".to_string()),
        }
    }
    Ok(out)
}
