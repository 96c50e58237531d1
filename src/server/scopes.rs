//! The scopes of a file, read in one walk: each definition and lambda with its
//! parameters and its enclosing scope, the variables each assigns, and the variables
//! each reads. Completion (what a place can read) and rename (what a variable's scope
//! holds) ask it; both stay linear in the file's size (a generated class of 5 MB has
//! tens of thousands of lambdas).

use crate::ast::{walk_expr, walk_lambda_parts, Visitor};
use crate::ast::{Expr, ExprKind, Lambda, Parameter, Program};
use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Class,
    Define,
    Function,
    Node,
    Lambda,
}

pub struct Scope<'p> {
    pub kind: ScopeKind,
    pub span: Span,
    /// A class's name (as written).
    pub name: Option<&'p str>,
    pub params: &'p [Parameter],
    /// The scope around it (`None`: the file's top scope).
    pub parent: Option<usize>,
}

/// A variable assigned or read, with its scope.
pub struct Use<'p> {
    pub scope: Option<usize>,
    /// The `Variable` expression.
    pub variable: &'p Expr,
    pub name: &'p str,
    /// For an assignment: the whole assignment (its span ends where the value is set).
    pub assignment: Option<&'p Expr>,
}

pub struct Scopes<'p> {
    pub scopes: Vec<Scope<'p>>,
    pub assigned: Vec<Use<'p>>,
    pub read: Vec<Use<'p>>,
}

impl<'p> Scopes<'p> {
    pub fn of(program: &'p Program) -> Scopes<'p> {
        let mut walk = Walk {
            found: Scopes {
                scopes: Vec::new(),
                assigned: Vec::new(),
                read: Vec::new(),
            },
            stack: Vec::new(),
            assignment_targets: Vec::new(),
        };
        for statement in &program.body {
            walk.visit_expr(statement);
        }
        walk.found
    }

    /// The innermost scope holding `offset`, if any.
    pub fn innermost_at(&self, offset: u32) -> Option<usize> {
        self.scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.span.start <= offset && offset <= s.span.end)
            .min_by_key(|(_, s)| s.span.end - s.span.start)
            .map(|(i, _)| i)
    }

    /// `scope` and the scopes around it, innermost first.
    pub fn chain(&self, scope: Option<usize>) -> Vec<usize> {
        std::iter::successors(scope, |&s| self.scopes[s].parent).collect()
    }

    /// Whether `inner` is `outer` or inside it.
    pub fn within(&self, inner: Option<usize>, outer: usize) -> bool {
        std::iter::successors(inner, |&s| self.scopes[s].parent).any(|s| s == outer)
    }

    /// The scopes that have a parameter `name` or assign it themselves (`None`: the
    /// top scope assigns it).
    pub fn setters(&self, name: &str) -> std::collections::HashSet<Option<usize>> {
        let parameters = self
            .scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.params.iter().any(|p| p.name.name == name))
            .map(|(i, _)| Some(i));
        let assignments = self
            .assigned
            .iter()
            .filter(|u| u.name == name)
            .map(|u| u.scope);
        parameters.chain(assignments).collect()
    }
}

struct Walk<'p> {
    found: Scopes<'p>,
    stack: Vec<usize>,
    /// The variables an assignment being walked sets (its left side's), so that they
    /// count as assigned, not read.
    assignment_targets: Vec<(&'p Expr, &'p Expr)>,
}

impl<'p> Walk<'p> {
    fn enter(
        &mut self,
        kind: ScopeKind,
        span: Span,
        name: Option<&'p str>,
        params: &'p [Parameter],
    ) {
        self.found.scopes.push(Scope {
            kind,
            span,
            name,
            params,
            parent: self.stack.last().copied(),
        });
        self.stack.push(self.found.scopes.len() - 1);
    }
}

impl<'p> Visitor<'p> for Walk<'p> {
    fn visit_expr(&mut self, expr: &'p Expr) {
        let scope = match &expr.kind {
            ExprKind::Class(c) => Some((
                ScopeKind::Class,
                Some(c.name.name.as_str()),
                c.params.as_deref(),
            )),
            ExprKind::Define(d) => Some((ScopeKind::Define, None, d.params.as_deref())),
            ExprKind::Function(f) => Some((ScopeKind::Function, None, f.params.as_deref())),
            ExprKind::Node(_) => Some((ScopeKind::Node, None, None)),
            _ => None,
        };
        if let Some((kind, name, params)) = scope {
            self.enter(kind, expr.span, name, params.unwrap_or_default());
            walk_expr(self, expr);
            self.stack.pop();
            return;
        }
        match &expr.kind {
            ExprKind::Assignment { left, .. } => {
                let targets: Vec<&'p Expr> = match &left.kind {
                    ExprKind::Array(items) => items.iter().collect(),
                    _ => vec![left.as_ref()],
                };
                for target in targets {
                    if let ExprKind::Variable(name) = &target.kind {
                        self.found.assigned.push(Use {
                            scope: self.stack.last().copied(),
                            variable: target,
                            name,
                            assignment: Some(expr),
                        });
                        self.assignment_targets.push((target, expr));
                    }
                }
            }
            ExprKind::Variable(name) => {
                let is_target = self
                    .assignment_targets
                    .iter()
                    .any(|(t, _)| std::ptr::eq(*t, expr));
                if !is_target {
                    self.found.read.push(Use {
                        scope: self.stack.last().copied(),
                        variable: expr,
                        name,
                        assignment: None,
                    });
                }
            }
            _ => {}
        }
        walk_expr(self, expr);
        if matches!(expr.kind, ExprKind::Assignment { .. }) {
            self.assignment_targets
                .retain(|(_, assignment)| !std::ptr::eq(*assignment, expr));
        }
    }

    fn visit_lambda(&mut self, lambda: &'p Lambda) {
        self.enter(ScopeKind::Lambda, lambda.span, None, &lambda.params);
        walk_lambda_parts(self, lambda);
        self.stack.pop();
    }
}
