//! The expressions of a program listed once, outermost first, in source order: built
//! once per file, so that the rules and the interpretation iterate a list instead of
//! each walking the tree again.

use super::{walk_expr, Expr, ExprKind, Parameter, Program, Visitor};

/// Every expression of the program, outermost first, in source order (EPP parameters'
/// types and defaults first). Built once per file: rules iterate this list instead of
/// each walking the tree again.
pub fn preorder(program: &Program) -> Vec<&Expr> {
    struct Collect<'p>(Vec<&'p Expr>);
    impl<'p> Visitor<'p> for Collect<'p> {
        fn visit_expr(&mut self, expr: &'p Expr) {
            self.0.push(expr);
            walk_expr(self, expr);
        }
    }
    let mut collect = Collect(Vec::new());
    for p in program.epp_parameters.iter().flatten() {
        collect.visit_parameter(p);
    }
    for statement in &program.body {
        collect.visit_expr(statement);
    }
    collect.0
}

/// The expressions that may hold `offset`, outermost first: every expression whose span
/// holds it, and perhaps a few around it (a superset: callers test the spans they
/// need). Found by descending, not by listing the whole program: a block's statement
/// is entered only when the text from its start to the next statement's holds the
/// offset (that stretch holds its heredocs' bodies too, which lie after the statement's
/// own span). What a hover reads of a file of megabytes.
pub fn holding(program: &Program, offset: u32) -> Vec<&Expr> {
    struct Descend<'p> {
        offset: u32,
        found: Vec<&'p Expr>,
    }
    impl<'p> Descend<'p> {
        fn statements(&mut self, statements: &'p [Expr]) {
            for (i, statement) in statements.iter().enumerate() {
                let until = statements
                    .get(i + 1)
                    .map_or(u32::MAX, |next| next.span.start);
                if statement.span.start <= self.offset && self.offset <= until {
                    self.visit_expr(statement);
                }
            }
        }
    }
    impl<'p> Visitor<'p> for Descend<'p> {
        fn visit_expr(&mut self, expr: &'p Expr) {
            self.found.push(expr);
            walk_expr(self, expr);
        }
        fn visit_block(&mut self, block: &'p super::Block) {
            self.statements(&block.statements);
        }
    }
    let mut descend = Descend {
        offset,
        found: Vec::new(),
    };
    for p in program.epp_parameters.iter().flatten() {
        descend.visit_parameter(p);
    }
    descend.statements(&program.body);
    descend.found
}

/// Every parameter list of the program (classes, defined types, functions, plans,
/// lambdas, the EPP parameter tag), with a label for messages.
pub fn each_parameter_list(
    program: &Program,
    exprs: &[&Expr],
    mut f: impl FnMut(String, &[Parameter]),
) {
    if let Some(params) = &program.epp_parameters {
        f("the EPP parameter list".to_string(), params);
    }
    for expr in exprs {
        match &expr.kind {
            ExprKind::Class(c) => {
                if let Some(p) = &c.params {
                    f(format!("class '{}'", c.name.name), p);
                }
            }
            ExprKind::Define(d) => {
                if let Some(p) = &d.params {
                    f(format!("defined type '{}'", d.name.name), p);
                }
            }
            ExprKind::Function(func) => {
                if let Some(p) = &func.params {
                    f(format!("function '{}'", func.name.name), p);
                }
            }
            ExprKind::Plan(plan) => {
                if let Some(p) = &plan.params {
                    f(format!("plan '{}'", plan.name.name), p);
                }
            }
            ExprKind::Call(call) => {
                if let Some(l) = &call.lambda {
                    f("the lambda".to_string(), &l.params);
                }
            }
            ExprKind::MethodCall(call) => {
                if let Some(l) = &call.lambda {
                    f("the lambda".to_string(), &l.params);
                }
            }
            _ => {}
        }
    }
}
