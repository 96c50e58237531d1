//! Walking a body in the order Puppet evaluates it, so a check sees each resource
//! expression with what the code fixes at that point: `$port = 80` before
//! `ntp::peer { 'x': port => $port }` makes the port known there.
//!
//! The walk never stops at what it cannot evaluate: a statement it cannot run leaves
//! the variables it would set unknown. A conditional whose condition is known takes
//! its branch; another one is walked branch by branch, each from the scope before it,
//! with the variable its condition tests narrowed (`$x =~ T`, `$x == undef`, `$x`), and
//! a branch no value can reach is not walked. After it, a variable the branches set
//! holds their common value or the join of their types (`undef` for a branch that did
//! not set it). The lambda of a call is entered where the call is (`eval::lambdas`);
//! nested definitions are not (they are walked on their own).

use super::{AbstractValue, Evaluator};
use crate::ast::{CaseExpr, ElseBranch, Expr, ExprKind, Lambda, ResourceExpr, Visitor};

/// What the walk stops at for a check.
pub enum Reached<'p> {
    /// A resource expression (`file { ... }`, `class { 'x': }`).
    Resource(&'p ResourceExpr),
    /// A function or method call, before its statement is evaluated.
    Call(&'p Expr),
    /// Statements Puppet does not run here: the branch a known condition does not
    /// take, a branch no value can reach, the body of a lambda never called. Nothing in
    /// them may be judged, not even on its own.
    Skipped(&'p [Expr]),
    /// A resource expression reached again, in a walk of a lambda's body for one
    /// element of the known collection it iterates (`eval::lambdas`): its values are
    /// that element's.
    ForElement(&'p ResourceExpr),
    /// A chaining arrow, before its statement is evaluated.
    Arrow(&'p Expr),
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
        self.walk_observed(statements, at, &mut |_, _| {})
    }

    /// As [`Evaluator::walk`], calling `before` with the index of each statement before
    /// walking it (where a body's walk keeps its resumptions, `eval::resume`).
    pub fn walk_observed<'p>(
        &mut self,
        statements: &'p [Expr],
        at: &mut AtResource<'_, 'a, 'p>,
        before: &mut dyn FnMut(&mut Self, usize),
    ) {
        let noted = self.failures.len();
        let duplicates = self.duplicates.len();
        for (index, statement) in statements.iter().enumerate() {
            // Explaining one expression (a hover): once reached, what follows it in its
            // block changes nothing of it.
            if !self.watched.is_empty() && statement.span.start >= self.watch_end {
                break;
            }
            before(self, index);
            self.match_groups.clear();
            self.walk_statement(statement, at);
        }
        // A block that calls `fail` is there to stop the compile: an error on its way
        // there (a duplicate declaration too) only changes the message.
        if statements.iter().any(calls_fail) {
            self.failures.truncate(noted);
            self.duplicates.truncate(duplicates);
        }
    }

    fn walk_statement<'p>(&mut self, statement: &'p Expr, at: &mut AtResource<'_, 'a, 'p>) {
        match &statement.kind {
            ExprKind::Resource(resource) if self.element_walk => {
                at(self, Reached::ForElement(resource))
            }
            ExprKind::Resource(resource) => {
                self.reach_calls(statement, at);
                at(self, Reached::Resource(resource))
            }
            ExprKind::Relationship { left, right, .. } => {
                at(self, Reached::Arrow(statement));
                self.walk_statement(left, at);
                self.walk_statement(right, at);
            }
            ExprKind::Assignment { left, .. } => {
                self.reach_calls(statement, at);
                if self.run(statement).is_err() {
                    let mut names = Vec::new();
                    assigned_names(left, &mut names);
                    self.forget(&names);
                }
            }
            ExprKind::If(i) => {
                self.reach_calls(&i.condition, at);
                let condition = self.run(&i.condition);
                match condition {
                    Ok(AbstractValue::Known(v)) if super::truthy(&v) => {
                        self.walk(&i.then_block.statements, at);
                        match &i.else_branch {
                            Some(ElseBranch::Elsif(next)) => {
                                at(self, Reached::Skipped(std::slice::from_ref(&**next)))
                            }
                            Some(ElseBranch::Else(block)) => {
                                at(self, Reached::Skipped(&block.statements))
                            }
                            None => {}
                        }
                    }
                    Ok(AbstractValue::Known(_)) => {
                        at(self, Reached::Skipped(&i.then_block.statements));
                        match &i.else_branch {
                            Some(ElseBranch::Elsif(next)) => self.walk_statement(next, at),
                            Some(ElseBranch::Else(block)) => self.walk(&block.statements, at),
                            None => {}
                        }
                    }
                    _ => {
                        let (then, otherwise) = self.narrowing(&i.condition);
                        let else_statements: &'p [Expr] = match &i.else_branch {
                            Some(ElseBranch::Elsif(next)) => std::slice::from_ref(next),
                            Some(ElseBranch::Else(block)) => &block.statements,
                            None => &[],
                        };
                        self.walk_branches(
                            &[
                                (&i.then_block.statements[..], then),
                                (else_statements, otherwise),
                            ],
                            at,
                        );
                    }
                }
            }
            ExprKind::Unless(u) => {
                self.reach_calls(&u.condition, at);
                let condition = self.run(&u.condition);
                match condition {
                    Ok(AbstractValue::Known(v)) if !super::truthy(&v) => {
                        self.walk(&u.then_block.statements, at);
                        if let Some(block) = &u.else_block {
                            at(self, Reached::Skipped(&block.statements));
                        }
                    }
                    Ok(AbstractValue::Known(_)) => {
                        at(self, Reached::Skipped(&u.then_block.statements));
                        if let Some(block) = &u.else_block {
                            self.walk(&block.statements, at);
                        }
                    }
                    _ => {
                        let (when_true, when_false) = self.narrowing(&u.condition);
                        let else_statements: &'p [Expr] =
                            u.else_block.as_ref().map_or(&[], |b| &b.statements[..]);
                        self.walk_branches(
                            &[
                                (&u.then_block.statements[..], when_false),
                                (else_statements, when_true),
                            ],
                            at,
                        );
                    }
                }
            }
            ExprKind::Case(c) => self.walk_case(c, at),
            ExprKind::ResourceDefaults(defaults) => {
                self.reach_calls(statement, at);
                self.check_default_not_set(statement, defaults);
                self.set_resource_defaults(defaults);
            }
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
                // Its value is not needed; an error Puppet raises is noted.
                let _ = self.run(statement);
            }
        }
    }

    /// Tells `at` about the calls in `expr`, with the scope before it is evaluated.
    fn reach_calls<'p>(&mut self, expr: &'p Expr, at: &mut AtResource<'_, 'a, 'p>) {
        let mut calls = Calls::default();
        calls.visit_expr(expr);
        for call in calls.0 {
            at(self, Reached::Call(call));
            self.walk_lambda(call, at);
        }
    }

    /// A case whose subject and options are known takes its option; another one is
    /// walked option by option.
    fn walk_case<'p>(&mut self, c: &'p CaseExpr, at: &mut AtResource<'_, 'a, 'p>) {
        self.reach_calls(&c.subject, at);
        if let Ok(AbstractValue::Known(subject)) = self.run(&c.subject) {
            if let Some(taken) = self.option_taken(c, &subject) {
                for (i, option) in c.options.iter().enumerate() {
                    if Some(i) == taken {
                        self.walk(&option.body.statements, at);
                    } else {
                        at(self, Reached::Skipped(&option.body.statements));
                    }
                }
                return;
            }
        }
        let mut branches: Vec<(&'p [Expr], Branch)> = c
            .options
            .iter()
            .map(|o| (&o.body.statements[..], Branch::Unchanged))
            .collect();
        // Without a default option, no option at all may match.
        let has_default = c.options.iter().any(|o| {
            o.matchers
                .iter()
                .any(|m| matches!(m.kind, ExprKind::Default))
        });
        if !has_default {
            branches.push((&[], Branch::Unchanged));
        }
        self.walk_branches(&branches, at);
    }

    /// The option a case whose subject is known takes (`Some(None)`: none), when
    /// every matcher before it is known too.
    fn option_taken(
        &mut self,
        c: &CaseExpr,
        subject: &crate::types::Value,
    ) -> Option<Option<usize>> {
        let mut fallback = None;
        for (i, option) in c.options.iter().enumerate() {
            for m in &option.matchers {
                if matches!(m.kind, ExprKind::Default) {
                    fallback = Some(i);
                    continue;
                }
                match self.run(m) {
                    Ok(AbstractValue::Known(candidate)) => {
                        if self.case_matches(subject, &candidate).unwrap_or(false) {
                            return Some(Some(i));
                        }
                    }
                    _ => return None,
                }
            }
        }
        Some(fallback)
    }

    /// Walks each branch that can be taken from the same scope (with what its condition
    /// tells about a variable); afterwards a variable the branches set holds what any of
    /// them left: their common value, or the join of their types (`undef` where a branch
    /// did not set it).
    fn walk_branches<'p>(
        &mut self,
        branches: &[(&'p [Expr], Branch)],
        at: &mut AtResource<'_, 'a, 'p>,
    ) {
        let start = self.fork_scopes();
        let before = self.scopes.clone();
        // Defaults a branch sets hold on its paths only.
        let defaults = self.resource_defaults.len();
        let mut outcomes: Vec<super::Scope> = Vec::new();
        // Which of several branches Puppet takes is not known.
        let uncertain = branches
            .iter()
            .filter(|(_, b)| !matches!(b, Branch::Dead))
            .count()
            > 1;
        self.uncertain += usize::from(uncertain);
        for (statements, branch) in branches {
            self.scopes = before.clone();
            match branch {
                Branch::Dead => {
                    at(self, Reached::Skipped(statements));
                    continue;
                }
                Branch::Unchanged => {}
                Branch::Narrowed(name, value) => self.narrow_to(name, value.clone()),
            }
            self.walk(statements, at);
            self.resource_defaults.truncate(defaults);
            outcomes.push(self.scopes.last().expect("a scope").clone());
        }
        self.uncertain -= usize::from(uncertain);
        self.scopes = before;
        self.merge_branches(&start, outcomes);
    }

    /// Freezes what every scope set so far, before branches are walked from here: a
    /// copy of the scopes for each branch then costs what the branch sets. Gives the
    /// innermost scope's fork point, to merge the branches' outcomes against.
    pub(super) fn fork_scopes(&mut self) -> super::scope::ForkPoint {
        let (innermost, outer) = self.scopes.split_last_mut().expect("a scope");
        for scope in outer {
            scope.fork();
        }
        innermost.fork()
    }

    /// After branches walked from the same scope (forked at `start`; `outcomes` is
    /// that scope as each branch left it): a variable the branches set holds what any
    /// of them left, their common value or the join of their types (`undef` where a
    /// branch did not set it).
    pub(super) fn merge_branches(
        &mut self,
        start: &super::scope::ForkPoint,
        outcomes: Vec<super::Scope>,
    ) {
        let mut assigned: Vec<String> = Vec::new();
        for outcome in &outcomes {
            for name in outcome.set_since(start) {
                if !assigned.contains(name) {
                    assigned.push(name.clone());
                }
            }
        }
        // What changes is worked out first and the outcomes dropped before the scope
        // changes: they share its layers until then, and the scope's next fork adds
        // to its newest layer in place only once no one else holds it.
        let mut maybe_unset: Vec<String> = Vec::new();
        let mut set: Vec<(String, AbstractValue)> = Vec::new();
        let scope = self.scopes.last().expect("a scope");
        for name in assigned {
            if scope.contains_key(&name) {
                continue; // Puppet does not let a variable change.
            }
            // Set on some paths only: a branch did not set it, or set it on some of
            // its own. (A name the scope did not hold that a branch may not have set
            // is one the branch assigned, in a conditional of its own.)
            if outcomes
                .iter()
                .any(|o| !o.contains_key(&name) || o.maybe_unset().contains(&name))
            {
                maybe_unset.push(name.clone());
            }
            let values: Vec<AbstractValue> = outcomes
                .iter()
                .map(|o| {
                    o.get(&name)
                        .cloned()
                        .unwrap_or(AbstractValue::Known(crate::types::Value::Undef))
                })
                .collect();
            set.push((name, join(&values)));
        }
        drop(outcomes);
        let scope = self.scopes.last_mut().expect("a scope");
        if !maybe_unset.is_empty() {
            scope.maybe_unset_mut().extend(maybe_unset);
        }
        for (name, value) in set {
            scope.insert(name, value);
        }
    }

    /// A resource default certainly set where the same scope already set one for the
    /// type's attribute fails ("Default already defined for File { mode }; cannot
    /// redefine"), at the second; the walk notes the pairs it certainly sets.
    fn check_default_not_set(&mut self, statement: &Expr, defaults: &crate::ast::ResourceDefaults) {
        if self.uncertain > 0 {
            return;
        }
        let Some(type_name) = default_type_name(defaults) else {
            return;
        };
        for attribute in defaults.set_attributes() {
            let pair = (type_name.clone(), attribute.to_string());
            if self.defaults_set.contains(&pair) {
                self.failures.push(super::Failure {
                    message: already_defined(&type_name, attribute),
                    span: statement.span,
                    kind: super::FailureKind::Other,
                });
                return;
            }
            self.defaults_set.push(pair);
        }
    }

    /// `Type { attribute => value, ... }`: defaults for the resources of that type the
    /// walk reaches from here on (a value it cannot evaluate sets no known default).
    fn set_resource_defaults(&mut self, defaults: &crate::ast::ResourceDefaults) {
        let Some(type_name) = default_type_name(defaults) else {
            return;
        };
        let certain = self.walks_every_path();
        for attribute in &defaults.attributes {
            if attribute.op != crate::ast::AttributeOp::Set || attribute.name.name == "*" {
                continue;
            }
            if let Ok(value) = self.run(&attribute.value) {
                self.resource_defaults.push(super::ResourceDefault {
                    type_name: type_name.clone(),
                    attribute: attribute.name.name.clone(),
                    value,
                    span: attribute.value.span,
                    certain,
                });
            }
        }
    }

    /// Narrows a variable for a branch, in the scope that holds it (the branch's walk
    /// restores the scopes after it). A variable no scope holds is not narrowed:
    /// binding it would make the branch's own assignment to it look like a second one.
    fn narrow_to(&mut self, name: &str, value: AbstractValue) {
        if let Some(scope) = self.scopes.iter_mut().rev().find(|s| s.contains_key(name)) {
            scope.insert(name.to_string(), value);
        }
    }

    /// What a condition whose value is not known tells about a variable it tests, when
    /// it is true and when it is false: `$x =~ T`, `$x !~ T`, `$x == undef`,
    /// `$x != undef`, `$x` alone, `!` and parentheses around those. A branch no value
    /// of the variable can reach is dead.
    fn narrowing(&mut self, condition: &Expr) -> (Branch, Branch) {
        use crate::ast::{BinaryOp, UnaryOp};
        use crate::types::{accepts, disjoint::disjoint, t, Kind};
        match &condition.kind {
            ExprKind::Paren(inner) => self.narrowing(inner),
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                let (when_true, when_false) = self.narrowing(operand);
                (when_false, when_true)
            }
            ExprKind::Binary {
                op: op @ (BinaryOp::Match | BinaryOp::NotMatch),
                left,
                right,
                ..
            } => {
                let Some((name, known_by)) = self.narrowable(left) else {
                    return (Branch::Unchanged, Branch::Unchanged);
                };
                let Ok(AbstractValue::Known(crate::types::Value::Type(tested))) = self.eval(right)
                else {
                    return (Branch::Unchanged, Branch::Unchanged);
                };
                let matching = if disjoint(&known_by, &tested) {
                    Branch::Dead
                } else if accepts(&known_by, &tested) {
                    Branch::Narrowed(name.clone(), AbstractValue::Inferred(tested.clone()))
                } else {
                    Branch::Unchanged
                };
                let other = if accepts(&tested, &known_by) {
                    Branch::Dead
                } else {
                    without(&name, &known_by, &tested)
                };
                if *op == BinaryOp::Match {
                    (matching, other)
                } else {
                    (other, matching)
                }
            }
            ExprKind::Binary {
                op: op @ (BinaryOp::Equal | BinaryOp::NotEqual),
                left,
                right,
                ..
            } if matches!(right.kind, ExprKind::Undef) => {
                let Some((name, known_by)) = self.narrowable(left) else {
                    return (Branch::Unchanged, Branch::Unchanged);
                };
                let is_undef = if disjoint(&known_by, &t::undef()) {
                    Branch::Dead
                } else {
                    // Known by its type only: an error this value would raise is
                    // not certain, as the branch may not be reachable (an earlier
                    // condition may have failed for undef).
                    Branch::Narrowed(name.clone(), AbstractValue::Inferred(t::undef()))
                };
                let defined = match known_by.kind() {
                    Kind::Undef => Branch::Dead,
                    Kind::Optional(Some(inner)) => {
                        Branch::Narrowed(name, AbstractValue::Inferred(inner.clone()))
                    }
                    _ => Branch::Unchanged,
                };
                if *op == BinaryOp::Equal {
                    (is_undef, defined)
                } else {
                    (defined, is_undef)
                }
            }
            // Truthy: neither undef nor false.
            ExprKind::Variable(_) => {
                let Some((name, known_by)) = self.narrowable(condition) else {
                    return (Branch::Unchanged, Branch::Unchanged);
                };
                let truthy = match known_by.kind() {
                    Kind::Undef => Branch::Dead,
                    Kind::Optional(Some(inner)) => {
                        Branch::Narrowed(name, AbstractValue::Inferred(inner.clone()))
                    }
                    _ => Branch::Unchanged,
                };
                (truthy, Branch::Unchanged)
            }
            _ => (Branch::Unchanged, Branch::Unchanged),
        }
    }

    /// A local variable known only by its type: its name and the type.
    fn narrowable(&self, expr: &Expr) -> Option<(String, crate::types::Type)> {
        let ExprKind::Variable(name) = &expr.kind else {
            return None;
        };
        if name.contains("::") || name.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        match self.variable(name).ok()? {
            AbstractValue::Inferred(t) => Some((name.clone(), t)),
            AbstractValue::Known(_) => None,
        }
    }

    /// Makes variables of the innermost scope unknown (unless they already have a value:
    /// Puppet does not let them change).
    fn forget(&mut self, names: &[String]) {
        let unknown = AbstractValue::Inferred(crate::types::t::any());
        let scope = self.scopes.last_mut().expect("a scope");
        for name in names {
            scope.insert_if_absent(name, || unknown.clone());
        }
    }
}

/// Whether a statement is a call of `fail` (`fail('...')`, `'...'.fail`).
pub(super) fn calls_fail(statement: &Expr) -> bool {
    crate::ast::called_name(statement) == Some("fail")
}

/// How a branch is walked.
#[derive(Clone)]
enum Branch {
    /// From the scope before the conditional.
    Unchanged,
    /// With the variable known better (its condition tested it).
    Narrowed(String, AbstractValue),
    /// Not walked: no value that reaches the conditional takes it.
    Dead,
}

/// A variable known by a variant, in the branch where it is not an instance of
/// `tested`: the members `tested` holds entirely are left out.
fn without(name: &str, known_by: &crate::types::Type, tested: &crate::types::Type) -> Branch {
    use crate::types::{accepts, t, Kind};
    let Kind::Variant(members) = known_by.kind() else {
        return Branch::Unchanged;
    };
    let left: Vec<crate::types::Type> = members
        .iter()
        .filter(|m| !accepts(tested, m))
        .cloned()
        .collect();
    if left.len() == members.len() {
        Branch::Unchanged
    } else if left.is_empty() {
        Branch::Dead
    } else {
        Branch::Narrowed(name.to_string(), AbstractValue::Inferred(t::variant(left)))
    }
}

/// What a variable holds where paths meet: the value every path gave it, or the join
/// of their types. Puppet's common type is used only where it holds every value (it
/// is not a union: `common(Undef, Integer)` is `Integer`); elsewhere the variant.
pub(super) fn join(values: &[AbstractValue]) -> AbstractValue {
    use crate::types::{infer_detailed, t, Type};
    if let Some(AbstractValue::Known(first)) = values.first() {
        if values
            .iter()
            .all(|v| matches!(v, AbstractValue::Known(other) if super::equals(other, first)))
        {
            return AbstractValue::Known(first.clone());
        }
    }
    if values.is_empty() {
        return AbstractValue::Inferred(t::any());
    }
    // Strings each path knows: the value is one of them, which an `Enum` says exactly
    // (an operator that fails on every one of them fails on every path).
    let strings: Option<Vec<&str>> = values
        .iter()
        .map(|v| match v {
            AbstractValue::Known(crate::types::Value::String(s)) => Some(&**s),
            _ => None,
        })
        .collect();
    if let Some(strings) = strings {
        return AbstractValue::Inferred(t::enumeration(&strings, false));
    }
    let types: Vec<Type> = values
        .iter()
        .map(|v| match v {
            AbstractValue::Known(value) => infer_detailed(value),
            AbstractValue::Inferred(ty) => ty.clone(),
        })
        .collect();
    // Strings and Enums only (a tuple of thousands of string values is how an array of
    // distinct strings is typed): one Enum of them all, which is what joining them one
    // by one gives, without rebuilding a growing Enum at each (quadratic: 20,000
    // strings took 23 s).
    if let Some(all) = enum_members(&types) {
        return AbstractValue::Inferred(t::enumeration(&all, false));
    }
    AbstractValue::Inferred(join_one_by_one(&types))
}

/// The strings of `types` when each is a string value or a case-sensitive Enum.
fn enum_members(types: &[crate::types::Type]) -> Option<Vec<&str>> {
    use crate::types::model::StringSpec;
    use crate::types::Kind;
    let mut all = Vec::new();
    for ty in types {
        match ty.kind() {
            Kind::String(StringSpec::Value(v)) => all.push(&**v),
            Kind::Enum {
                values,
                case_insensitive: false,
            } if !values.is_empty() => all.extend(values.iter().map(|v| &**v)),
            _ => return None,
        }
    }
    (all.len() > 1).then_some(all)
}

/// The join of `types` (at least one), each folded into the join of those before it.
fn join_one_by_one(types: &[crate::types::Type]) -> crate::types::Type {
    use crate::types::{accepts, common, t, Kind};
    types.iter().skip(1).fold(types[0].clone(), |acc, ty| {
        // `undef` on one path: Optional of the other.
        match (acc.kind(), ty.kind()) {
            (Kind::Undef, Kind::Undef) => return acc,
            (Kind::Undef, Kind::Optional(_)) => return ty.clone(),
            (Kind::Optional(_), Kind::Undef) => return acc,
            (Kind::Undef, _) => return t::optional(ty.clone()),
            (_, Kind::Undef) => return t::optional(acc),
            _ => {}
        }
        let c = common(&acc, ty);
        if accepts(&c, &acc) && accepts(&c, ty) {
            c
        } else {
            t::variant(vec![acc, ty.clone()])
        }
    })
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

/// The type a regular resource default is for, in lower case (`web::vhost`).
pub(super) fn default_type_name(defaults: &crate::ast::ResourceDefaults) -> Option<String> {
    match &defaults.type_ref.kind {
        ExprKind::TypeRef(name) if defaults.form == crate::ast::ResourceForm::Regular => {
            Some(name.trim_start_matches("::").to_ascii_lowercase())
        }
        _ => None,
    }
}

/// Puppet's error for a resource default set twice in one scope.
pub(super) fn already_defined(type_name: &str, attribute: &str) -> String {
    format!(
        "Default already defined for {} {{ {attribute} }}; cannot redefine",
        crate::types::display::capitalize_segments(type_name)
    )
}

#[cfg(test)]
mod tests {
    use super::{enum_members, join_one_by_one};
    use crate::types::{t, Type};

    #[test]
    fn strings_and_enums_join_into_the_enum_one_by_one_joining_gives() {
        let value = |s: &str| t::string_value(s);
        let cases: Vec<Vec<Type>> = vec![
            vec![value("b"), value("a")],
            vec![value("a"), value("a"), value("c")],
            vec![t::enumeration(&["x", "y"], false), value("a"), value("y")],
            vec![
                value("z"),
                t::enumeration(&["b", "a"], false),
                t::enumeration(&["q"], false),
            ],
            (0..40).map(|i| value(&format!("s{}", i % 17))).collect(),
        ];
        for types in cases {
            let all = enum_members(&types).expect("strings and Enums");
            assert_eq!(
                t::enumeration(&all, false),
                join_one_by_one(&types),
                "{types:?}"
            );
        }
        // A case-insensitive Enum or another type joins one by one.
        assert!(enum_members(&[value("a"), t::enumeration(&["b"], true)]).is_none());
        assert!(enum_members(&[value("a"), t::string()]).is_none());
    }
}
