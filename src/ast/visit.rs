//! A read-only visitor over expressions, so rules can find the nodes they care about
//! without each writing its own recursion.

use super::*;

/// Override `visit_expr` (and call [`walk_expr`] to keep descending). `'ast` is the
/// lifetime of the tree, so a visitor may keep references to the nodes it sees.
pub trait Visitor<'ast> {
    fn visit_expr(&mut self, expr: &'ast Expr) {
        walk_expr(self, expr);
    }

    fn visit_parameter(&mut self, param: &'ast Parameter) {
        if let Some(t) = &param.type_expr {
            self.visit_expr(t);
        }
        if let Some(d) = &param.default {
            self.visit_expr(d);
        }
    }

    fn visit_block(&mut self, block: &'ast Block) {
        for statement in &block.statements {
            self.visit_expr(statement);
        }
    }

    /// Override to skip lambdas (or call [`walk_lambda_parts`] to keep descending).
    fn visit_lambda(&mut self, lambda: &'ast Lambda) {
        walk_lambda_parts(self, lambda);
    }
}

fn walk_attributes<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, attributes: &'ast [Attribute]) {
    for a in attributes {
        v.visit_expr(&a.value);
    }
}

fn walk_params<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, params: &'ast Option<Vec<Parameter>>) {
    for p in params.iter().flatten() {
        v.visit_parameter(p);
    }
}

fn walk_lambda<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, lambda: &'ast Option<Lambda>) {
    if let Some(l) = lambda {
        v.visit_lambda(l);
    }
}

/// Descends into a lambda's parameters, return type and body.
pub fn walk_lambda_parts<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, l: &'ast Lambda) {
    for p in &l.params {
        v.visit_parameter(p);
    }
    if let Some(r) = &l.return_type {
        v.visit_expr(r);
    }
    v.visit_block(&l.body);
}

fn walk_parts<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, parts: &'ast [StringPart]) {
    for part in parts {
        if let StringPart::Interpolation(e) = part {
            v.visit_expr(e);
        }
    }
}

/// Visits the children of `expr`, in source order.
pub fn walk_expr<'ast, V: Visitor<'ast> + ?Sized>(v: &mut V, expr: &'ast Expr) {
    match &expr.kind {
        ExprKind::Integer(_)
        | ExprKind::Float(_)
        | ExprKind::String(_)
        | ExprKind::Regex(_)
        | ExprKind::Boolean(_)
        | ExprKind::Undef
        | ExprKind::Default
        | ExprKind::Variable(_)
        | ExprKind::Name(_)
        | ExprKind::TypeRef(_)
        | ExprKind::Reserved(_)
        | ExprKind::EppText(_)
        | ExprKind::Error => {}
        ExprKind::Interpolated(parts) => walk_parts(v, parts),
        ExprKind::Heredoc(h) => walk_parts(v, &h.parts),
        ExprKind::Array(items) => items.iter().for_each(|e| v.visit_expr(e)),
        ExprKind::Hash(entries) => {
            for entry in entries {
                v.visit_expr(&entry.key);
                v.visit_expr(&entry.value);
            }
        }
        ExprKind::Binary { left, right, .. }
        | ExprKind::Assignment { left, right, .. }
        | ExprKind::Relationship { left, right, .. } => {
            v.visit_expr(left);
            v.visit_expr(right);
        }
        ExprKind::Unary { operand, .. } => v.visit_expr(operand),
        ExprKind::Selector { subject, entries } => {
            v.visit_expr(subject);
            for entry in entries {
                v.visit_expr(&entry.matcher);
                v.visit_expr(&entry.value);
            }
        }
        ExprKind::Paren(inner) | ExprKind::EppRender(inner) => v.visit_expr(inner),
        ExprKind::Access { object, args } => {
            v.visit_expr(object);
            args.iter().for_each(|e| v.visit_expr(e));
        }
        ExprKind::Call(call) => {
            v.visit_expr(&call.function);
            call.args.iter().for_each(|e| v.visit_expr(e));
            walk_lambda(v, &call.lambda);
        }
        ExprKind::MethodCall(call) => {
            v.visit_expr(&call.receiver);
            call.args.iter().flatten().for_each(|e| v.visit_expr(e));
            walk_lambda(v, &call.lambda);
        }
        ExprKind::If(if_expr) => {
            v.visit_expr(&if_expr.condition);
            v.visit_block(&if_expr.then_block);
            match &if_expr.else_branch {
                Some(ElseBranch::Elsif(e)) => v.visit_expr(e),
                Some(ElseBranch::Else(b)) => v.visit_block(b),
                None => {}
            }
        }
        ExprKind::Unless(unless) => {
            v.visit_expr(&unless.condition);
            v.visit_block(&unless.then_block);
            if let Some(b) = &unless.else_block {
                v.visit_block(b);
            }
        }
        ExprKind::Case(case) => {
            v.visit_expr(&case.subject);
            for option in &case.options {
                option.matchers.iter().for_each(|e| v.visit_expr(e));
                v.visit_block(&option.body);
            }
        }
        ExprKind::Resource(resource) => {
            v.visit_expr(&resource.type_expr);
            for body in &resource.bodies {
                v.visit_expr(&body.title);
                walk_attributes(v, &body.attributes);
            }
        }
        ExprKind::ResourceDefaults(defaults) => {
            v.visit_expr(&defaults.type_ref);
            walk_attributes(v, &defaults.attributes);
        }
        ExprKind::ResourceOverride(over) => {
            v.visit_expr(&over.target);
            walk_attributes(v, &over.attributes);
        }
        ExprKind::Collector(collector) => {
            v.visit_expr(&collector.type_expr);
            if let Some(q) = &collector.query {
                v.visit_expr(q);
            }
            if let Some(attributes) = &collector.overrides {
                walk_attributes(v, attributes);
            }
        }
        ExprKind::Class(class) => {
            walk_params(v, &class.params);
            v.visit_block(&class.body);
        }
        ExprKind::Define(define) => {
            walk_params(v, &define.params);
            v.visit_block(&define.body);
        }
        ExprKind::Node(node) => {
            node.matches.iter().for_each(|e| v.visit_expr(e));
            if let Some(p) = &node.parent {
                v.visit_expr(p);
            }
            v.visit_block(&node.body);
        }
        ExprKind::Function(function) => {
            walk_params(v, &function.params);
            if let Some(r) = &function.return_type {
                v.visit_expr(r);
            }
            v.visit_block(&function.body);
        }
        ExprKind::Plan(plan) => {
            walk_params(v, &plan.params);
            v.visit_block(&plan.body);
        }
        ExprKind::TypeAlias(alias) => v.visit_expr(&alias.type_expr),
        ExprKind::TypeMapping(mapping) => {
            v.visit_expr(&mapping.type_expr);
            v.visit_expr(&mapping.mapping);
        }
        ExprKind::TypeDefinition(def) => v.visit_block(&def.body),
    }
}

/// Whether `expr` holds a node lowering could not build (the code around a syntax
/// error): what it means is unknown.
pub fn contains_error(expr: &Expr) -> bool {
    any_within(std::slice::from_ref(expr), |e| {
        matches!(e.kind, ExprKind::Error)
    })
}

/// Whether `exprs` or an expression within them (lambdas' bodies included) is one
/// `found` holds for; the search stops at the first.
pub fn any_within(exprs: &[Expr], found: impl Fn(&Expr) -> bool) -> bool {
    struct Finder<F>(F, bool);
    impl<'ast, F: Fn(&Expr) -> bool> Visitor<'ast> for Finder<F> {
        fn visit_expr(&mut self, expr: &'ast Expr) {
            if (self.0)(expr) {
                self.1 = true;
            } else if !self.1 {
                walk_expr(self, expr);
            }
        }
    }
    let mut finder = Finder(found, false);
    for expr in exprs {
        if finder.1 {
            break;
        }
        finder.visit_expr(expr);
    }
    finder.1
}
