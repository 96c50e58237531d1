//! Class and defined-type definitions, for the rules about their names and nesting.

use crate::ast::{ExprKind, Ident, Parameter, Program};

/// A class or defined type as this file writes it (what the index holds of one is
/// `env::Definition`).
pub struct ClassOrDefine<'a> {
    /// `class` or `defined type`, as puppet-lint names them.
    pub what: &'static str,
    pub name: &'a Ident,
    pub params: Option<&'a [Parameter]>,
    pub parent: Option<&'a Ident>,
    pub body: &'a crate::ast::Block,
}

pub fn definitions(program: &Program) -> Vec<ClassOrDefine<'_>> {
    let mut found = Vec::new();
    collect(program, &mut found);
    found
}

fn collect<'a>(program: &'a Program, found: &mut Vec<ClassOrDefine<'a>>) {
    fn walk<'a>(exprs: &'a [crate::ast::Expr], found: &mut Vec<ClassOrDefine<'a>>) {
        for expr in exprs {
            visit(expr, found);
        }
    }
    fn visit<'a>(expr: &'a crate::ast::Expr, found: &mut Vec<ClassOrDefine<'a>>) {
        match &expr.kind {
            ExprKind::Class(c) => {
                found.push(ClassOrDefine {
                    what: "class",
                    name: &c.name,
                    params: c.params.as_deref(),
                    parent: c.parent.as_ref(),
                    body: &c.body,
                });
                walk(&c.body.statements, found);
            }
            ExprKind::Define(d) => {
                found.push(ClassOrDefine {
                    what: "defined type",
                    name: &d.name,
                    params: d.params.as_deref(),
                    parent: None,
                    body: &d.body,
                });
                walk(&d.body.statements, found);
            }
            _ => {
                // Definitions nested elsewhere (in a node, an if) are still definitions.
                for block in blocks(expr) {
                    walk(block, found);
                }
            }
        }
    }
    walk(&program.body, found);
}

fn blocks(expr: &crate::ast::Expr) -> Vec<&[crate::ast::Expr]> {
    use crate::ast::ElseBranch;
    match &expr.kind {
        ExprKind::Node(n) => vec![&n.body.statements],
        ExprKind::If(i) => {
            let mut v: Vec<&[crate::ast::Expr]> = vec![&i.then_block.statements];
            match &i.else_branch {
                Some(ElseBranch::Else(b)) => v.push(&b.statements),
                Some(ElseBranch::Elsif(e)) => v.push(std::slice::from_ref(e.as_ref())),
                None => {}
            }
            v
        }
        ExprKind::Unless(u) => {
            let mut v: Vec<&[crate::ast::Expr]> = vec![&u.then_block.statements];
            if let Some(b) = &u.else_block {
                v.push(&b.statements);
            }
            v
        }
        ExprKind::Case(c) => c
            .options
            .iter()
            .map(|o| o.body.statements.as_slice())
            .collect(),
        _ => Vec::new(),
    }
}
