//! The definitions a file makes, by the names other files use for them: classes
//! (nested ones as `outer::inner`, as Puppet names them), defined types, functions and
//! type aliases, each with where its name is.

use crate::ast::{Block, Expr, ExprKind, Parameter, Program};
use crate::env::definition_key;
use crate::source::Span;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Class,
    Define,
    Function,
    TypeAlias,
}

impl fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SymbolKind::Class => "class",
            SymbolKind::Define => "define",
            SymbolKind::Function => "function",
            SymbolKind::TypeAlias => "type",
        })
    }
}

pub struct Symbol<'a> {
    pub kind: SymbolKind,
    /// Lowercase, without a leading `::` (`ntp::config`).
    pub name: String,
    pub name_span: Span,
    pub expr: &'a Expr,
    pub params: Option<&'a [Parameter]>,
    pub body: Option<&'a Block>,
}

/// Every definition of `program`, outermost first.
pub fn symbols(program: &Program) -> Vec<Symbol<'_>> {
    let mut found = Vec::new();
    collect(&program.body, "", &mut found);
    // Outermost first (sorted once: each class's body is collected inside it).
    found.sort_by_key(|s| s.expr.span.start);
    found
}

/// The definition of `kind` named `name` (any case, with or without `::`) in `program`.
pub fn find<'a>(program: &'a Program, kind: SymbolKind, name: &str) -> Option<Symbol<'a>> {
    let key = definition_key(name);
    symbols(program)
        .into_iter()
        .find(|s| s.kind == kind && s.name == key)
}

fn collect<'a>(statements: &'a [Expr], outer: &str, found: &mut Vec<Symbol<'a>>) {
    let qualified = |name: &str| crate::env::qualified_name(outer, name);
    for expr in statements {
        let symbol = match &expr.kind {
            ExprKind::Class(c) => {
                let name = qualified(&c.name.name);
                collect(&c.body.statements, &name, found);
                Symbol {
                    kind: SymbolKind::Class,
                    name,
                    name_span: c.name.span,
                    expr,
                    params: c.params.as_deref(),
                    body: Some(&c.body),
                }
            }
            ExprKind::Define(d) => Symbol {
                kind: SymbolKind::Define,
                name: qualified(&d.name.name),
                name_span: d.name.span,
                expr,
                params: d.params.as_deref(),
                body: Some(&d.body),
            },
            ExprKind::Function(f) => Symbol {
                kind: SymbolKind::Function,
                name: definition_key(&f.name.name),
                name_span: f.name.span,
                expr,
                params: f.params.as_deref(),
                body: Some(&f.body),
            },
            ExprKind::TypeAlias(a) => Symbol {
                kind: SymbolKind::TypeAlias,
                name: definition_key(&a.name.name),
                name_span: a.name.span,
                expr,
                params: None,
                body: None,
            },
            _ => continue,
        };
        found.push(symbol);
    }
}
