use crate::rules::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Severity};

pub static RULE: Rule = Rule {
    id: "idem-expression",
    summary: "A statement produces a value that is then forgotten",
    category: Category::Validation,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    reads_interpretation: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports the first statement of a block that only produces a value (a literal, a name,
an arithmetic or comparison expression, an access, a selector...) when it is not the last
statement, so the value is lost (Puppet's `IDEM_EXPRESSION_NOT_LAST`).

## Why it matters
Puppet's validator rejects it. It usually means a statement was split in two by a
missing operator or comma, e.g. a function name written without its statement-call form.

## Example
```puppet
ensure_packages ['vim']
```
(`ensure_packages` is not one of the functions Puppet lets you call without
parentheses, so this is the name `ensure_packages` followed by an array.)

## How to fix
Call the function with parentheses, `ensure_packages(['vim'])`, or remove the leftover
value.
",
    check: Some(check),
    on_expr: None,
};

/// Whether evaluating the expression has no effect besides producing its value (Puppet's
/// `idem` in checker4_0.rb).
pub(in crate::rules) fn idem(e: &Expr) -> bool {
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
pub(in crate::rules) fn label(e: &Expr) -> String {
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
pub(in crate::rules) fn a_label(e: &Expr) -> String {
    let label = label(e);
    let article = if starts_with_vowel(&label) { "An" } else { "A" };
    format!("{article} {label}")
}

/// Puppet's `a_an`: the label with its lowercase article ("a Virtual Query").
pub(in crate::rules) fn a_an_label(e: &Expr) -> String {
    let label = label(e);
    let article = if starts_with_vowel(&label) { "an" } else { "a" };
    format!("{article} {label}")
}

fn starts_with_vowel(label: &str) -> bool {
    matches!(label.chars().next(), Some('A' | 'E' | 'I' | 'O' | 'U'))
}

struct Find<'a> {
    out: &'a mut Vec<Diagnostic>,
}

impl Find<'_> {
    fn statements(&mut self, statements: &[Expr]) {
        if let Some((_, init)) = statements.split_last() {
            if let Some(s) = init.iter().find(|s| idem(s)) {
                self.out.push(RULE.diagnostic(
                    s.span,
                    format!(
                        "This {} has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                        label(s)
                    ),
                ));
            }
        }
    }
}

impl Visitor<'_> for Find<'_> {
    fn visit_block(&mut self, block: &Block) {
        self.statements(&block.statements);
        for s in &block.statements {
            self.visit_expr(s);
        }
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    find.statements(&ctx.program.body);
    for s in &ctx.program.body {
        find.visit_expr(s);
    }
}
