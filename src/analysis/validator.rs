//! Puppet's validator's terms (`checker4_0.rb`): which expressions have no effect
//! besides their value (`idem`), and what its messages call each kind of expression.

use crate::ast::*;

/// Whether evaluating the expression has no effect besides producing its value (Puppet's
/// `idem` in checker4_0.rb).
pub fn idem(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Integer(_)
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::Interpolated(_)
        | ExprKind::Regex(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Name(_)
        | ExprKind::Variable(_)
        | ExprKind::TypeRef(_)
        | ExprKind::Array(_)
        | ExprKind::Hash(_)
        | ExprKind::Access { .. }
        | ExprKind::Unary { .. }
        | ExprKind::Selector { .. } => true,
        // A match sets $0..$n: an effect.
        ExprKind::Binary { op, .. } => !matches!(op, BinaryOp::Match | BinaryOp::NotMatch),
        ExprKind::Paren(inner) => idem(inner),
        ExprKind::If(i) => {
            idem(&i.condition)
                && block_idem(&i.then_block)
                && match &i.else_branch {
                    Some(ElseBranch::Elsif(e)) => idem(e),
                    Some(ElseBranch::Else(b)) => block_idem(b),
                    None => true,
                }
        }
        ExprKind::Case(c) => idem(&c.subject) && c.options.iter().all(|o| block_idem(&o.body)),
        _ => false,
    }
}

fn block_idem(b: &Block) -> bool {
    b.statements.iter().all(idem)
}

/// Puppet's name for the kind of expression, for the message.
pub fn label(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Integer(_) => "Literal Integer".into(),
        ExprKind::Float(_) => "Literal Float".into(),
        ExprKind::String(_) => "String".into(),
        ExprKind::Interpolated(_) => "Double Quoted String".into(),
        ExprKind::Regex(_) => "Regular Expression".into(),
        ExprKind::Boolean(_) => "Boolean".into(),
        ExprKind::Undef => "'undef' expression".into(),
        ExprKind::Default => "'default' expression".into(),
        ExprKind::Name(_) => "Name".into(),
        ExprKind::TypeRef(_) => "Type-Name".into(),
        ExprKind::Array(_) => "Array Expression".into(),
        ExprKind::Hash(_) => "Hash Expression".into(),
        ExprKind::Access { .. } => "'[]' expression".into(),
        ExprKind::Binary { op, .. } => format!("'{}' expression", op.symbol()),
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => "'not' expression".into(),
        ExprKind::Unary {
            op: UnaryOp::Negate,
            ..
        } => "Unary Minus".into(),
        ExprKind::Unary {
            op: UnaryOp::Splat, ..
        } => "Unfold".into(),
        ExprKind::Selector { .. } => "Selector Expression".into(),
        ExprKind::Paren(_) => "Parenthesized Expression".into(),
        ExprKind::If(_) => "'if' statement".into(),
        ExprKind::Case(_) => "'case' statement".into(),
        ExprKind::Variable(_) => "Variable".into(),
        ExprKind::Call(_) => "Function Call".into(),
        ExprKind::MethodCall(_) => "Method call".into(),
        ExprKind::Collector(c) => match c.kind {
            CollectorKind::Virtual => "Virtual Query".into(),
            CollectorKind::Exported => "Exported Query".into(),
        },
        ExprKind::EppRender(_) => "Epp Interpolated Expression".into(),
        ExprKind::EppText(_) => "Epp Text".into(),
        ExprKind::Function(_) => "Function Definition".into(),
        ExprKind::TypeAlias(_) => "Type Alias".into(),
        ExprKind::TypeMapping(_) => "Type Mapping".into(),
        ExprKind::TypeDefinition(_) => "Type Definition".into(),
        ExprKind::Class(_) => "Host Class Definition".into(),
        ExprKind::Define(_) => "Resource Type Definition".into(),
        ExprKind::Node(_) => "Node Definition".into(),
        _ => "expression".into(),
    }
}

/// Puppet's `a_an_uc`: the label with its capitalised article ("A Variable", "An Epp ...").
pub fn a_label(e: &Expr) -> String {
    let label = label(e);
    let article = if starts_with_vowel(&label) { "An" } else { "A" };
    format!("{article} {label}")
}

/// Puppet's `a_an`: the label with its lowercase article ("a Virtual Query").
pub fn a_an_label(e: &Expr) -> String {
    let label = label(e);
    let article = if starts_with_vowel(&label) { "an" } else { "a" };
    format!("{article} {label}")
}

fn starts_with_vowel(label: &str) -> bool {
    matches!(label.chars().next(), Some('A' | 'E' | 'I' | 'O' | 'U'))
}
