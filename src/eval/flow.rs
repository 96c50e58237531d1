//! Walking a body in the order Puppet evaluates it, so a check sees each resource
//! expression with what the code fixes at that point: `$port = 80` before
//! `ntp::peer { 'x': port => $port }` makes the port known there.
//!
//! The walk never stops at what it cannot evaluate: a statement it cannot run leaves
//! the variables it would set unknown. A conditional whose condition is known takes
//! its branch; another one is walked branch by branch, each from the scope before it,
//! and the variables any branch sets are unknown after it. Lambdas and nested
//! definitions are not entered (a lambda's parameters may hide the variables around it;
//! definitions are walked on their own).

use super::{AbstractValue, Evaluator};
use crate::ast::{CaseExpr, ElseBranch, Expr, ExprKind, Lambda, ResourceExpr, Visitor};

/// What the walk stops at for a check.
pub enum Reached<'p> {
    /// A resource expression (`file { ... }`, `class { 'x': }`).
    Resource(&'p ResourceExpr),
    /// A function or method call (outside lambdas), before its statement is evaluated.
    Call(&'p Expr),
}

/// Called at each resource expression and call the walk reaches.
pub type AtResource<'f, 'a, 'p> = dyn FnMut(&mut Evaluator<'a>, Reached<'p>) + 'f;

/// The calls in an expression, outside lambdas.
#[derive(Default)]
struct Calls<'p>(Vec<&'p Expr>);

impl<'p> Visitor<'p> for Calls<'p> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        if matches!(expr.kind, ExprKind::Call(_) | ExprKind::MethodCall(_)) {
            self.0.push(expr);
        }
        crate::ast::walk_expr(self, expr);
    }
    fn visit_lambda(&mut self, _: &'p Lambda) {}
}

impl<'a> Evaluator<'a> {
    /// Walks `statements` in order (see the module's documentation).
    pub fn walk<'p>(&mut self, statements: &'p [Expr], at: &mut AtResource<'_, 'a, 'p>) {
        for statement in statements {
            self.match_groups.clear();
            self.walk_statement(statement, at);
        }
    }

    fn walk_statement<'p>(&mut self, statement: &'p Expr, at: &mut AtResource<'_, 'a, 'p>) {
        match &statement.kind {
            ExprKind::Resource(resource) => {
                self.reach_calls(statement, at);
                at(self, Reached::Resource(resource))
            }
            ExprKind::Relationship { left, right, .. } => {
                self.walk_statement(left, at);
                self.walk_statement(right, at);
            }
            ExprKind::Assignment { left, .. } => {
                self.reach_calls(statement, at);
                if self.eval(statement).is_err() {
                    let mut names = Vec::new();
                    assigned_names(left, &mut names);
                    self.forget(&names);
                }
            }
            ExprKind::If(i) => {
                self.reach_calls(&i.condition, at);
                let condition = self.eval(&i.condition);
                match condition {
                    Ok(AbstractValue::Known(v)) if super::truthy(&v) => {
                        self.walk(&i.then_block.statements, at)
                    }
                    Ok(AbstractValue::Known(_)) => match &i.else_branch {
                        Some(ElseBranch::Elsif(next)) => self.walk_statement(next, at),
                        Some(ElseBranch::Else(block)) => self.walk(&block.statements, at),
                        None => {}
                    },
                    _ => {
                        let mut branches: Vec<&'p [Expr]> = vec![&i.then_block.statements];
                        match &i.else_branch {
                            Some(ElseBranch::Elsif(next)) => {
                                branches.push(std::slice::from_ref(next))
                            }
                            Some(ElseBranch::Else(block)) => branches.push(&block.statements),
                            None => {}
                        }
                        self.walk_branches(&branches, at);
                    }
                }
            }
            ExprKind::Unless(u) => {
                self.reach_calls(&u.condition, at);
                let condition = self.eval(&u.condition);
                match condition {
                    Ok(AbstractValue::Known(v)) if !super::truthy(&v) => {
                        self.walk(&u.then_block.statements, at)
                    }
                    Ok(AbstractValue::Known(_)) => {
                        if let Some(block) = &u.else_block {
                            self.walk(&block.statements, at);
                        }
                    }
                    _ => {
                        let mut branches: Vec<&'p [Expr]> = vec![&u.then_block.statements];
                        if let Some(block) = &u.else_block {
                            branches.push(&block.statements);
                        }
                        self.walk_branches(&branches, at);
                    }
                }
            }
            ExprKind::Case(c) => self.walk_case(c, at),
            // Walked on their own, or not code that runs here.
            ExprKind::Class(_)
            | ExprKind::Define(_)
            | ExprKind::Function(_)
            | ExprKind::Plan(_)
            | ExprKind::Node(_)
            | ExprKind::TypeAlias(_)
            | ExprKind::TypeMapping(_)
            | ExprKind::TypeDefinition(_) => {}
            _ => {
                self.reach_calls(statement, at);
                // Its value is not needed; an error here is found by other checks.
                let _ = self.eval(statement);
            }
        }
    }

    /// Tells `at` about the calls in `expr`, with the scope before it is evaluated.
    fn reach_calls<'p>(&mut self, expr: &'p Expr, at: &mut AtResource<'_, 'a, 'p>) {
        let mut calls = Calls::default();
        calls.visit_expr(expr);
        for call in calls.0 {
            at(self, Reached::Call(call));
        }
    }

    /// A case whose subject and options are known takes its option; another one is
    /// walked option by option.
    fn walk_case<'p>(&mut self, c: &'p CaseExpr, at: &mut AtResource<'_, 'a, 'p>) {
        self.reach_calls(&c.subject, at);
        if let Ok(AbstractValue::Known(subject)) = self.eval(&c.subject) {
            let mut fallback = None;
            let mut decided = true;
            'options: for option in &c.options {
                for m in &option.matchers {
                    if matches!(m.kind, ExprKind::Default) {
                        fallback = Some(&option.body);
                        continue;
                    }
                    match self.eval(m) {
                        Ok(AbstractValue::Known(candidate)) => {
                            if self.case_matches(&subject, &candidate).unwrap_or(false) {
                                return self.walk(&option.body.statements, at);
                            }
                        }
                        _ => {
                            decided = false;
                            break 'options;
                        }
                    }
                }
            }
            if decided {
                if let Some(body) = fallback {
                    self.walk(&body.statements, at);
                }
                return;
            }
        }
        let branches: Vec<&'p [Expr]> = c.options.iter().map(|o| &o.body.statements[..]).collect();
        self.walk_branches(&branches, at);
    }

    /// Walks each branch from the same scope; afterwards what any of them set is
    /// unknown.
    fn walk_branches<'p>(&mut self, branches: &[&'p [Expr]], at: &mut AtResource<'_, 'a, 'p>) {
        let before = self.scopes.clone();
        let mut assigned = Vec::new();
        for branch in branches {
            self.scopes = before.clone();
            self.walk(branch, at);
            let innermost = self.scopes.last().expect("a scope");
            let start = before.last().map_or(0, |s| s.len());
            assigned.extend(innermost.keys().skip(start).cloned());
        }
        self.scopes = before;
        self.forget(&assigned);
    }

    /// Makes variables of the innermost scope unknown (unless they already have a value:
    /// Puppet does not let them change).
    fn forget(&mut self, names: &[String]) {
        let unknown = AbstractValue::Inferred(crate::types::t::any());
        let scope = self.scopes.last_mut().expect("a scope");
        for name in names {
            scope.entry(name.clone()).or_insert_with(|| unknown.clone());
        }
    }
}

/// The variables an assignment's left side names.
fn assigned_names(target: &Expr, out: &mut Vec<String>) {
    match &target.kind {
        ExprKind::Variable(name) => out.push(name.trim_start_matches("::").to_string()),
        ExprKind::Array(items) => {
            for item in items {
                assigned_names(item, out);
            }
        }
        _ => {}
    }
}
