//! Values a fact decides: the value a declaration gives a parameter when it comes from a
//! selector on a fact (`$facts['os']['family'] ? { 'RedHat' => '8443', default => 8443 }`),
//! directly or through a variable, or from the branches of a `case` on a fact that set
//! the variable. The interpreter joins such alternatives (one of them is the value, it
//! cannot say which); a check asks here for each alternative with the nodes it is
//! theirs on, to report a value certain to fail on every node where the fact has that
//! value ("on nodes where $facts['os']['family'] is 'RedHat'").
//!
//! Only what is certain is given: the fact is one whose values pupcheck knows some node
//! reports (`builtin::facts::taken_values`: a branch on a value no node reports is dead
//! code, never judged), the alternative's matcher is a string (Puppet compares it
//! without case), and the declaration is run on every path of its body (not inside a
//! conditional or a lambda), after the assignment.

use super::enclosing::{contains, enclosing_body};
use crate::ast::{ElseBranch, Expr, ExprKind, Program};

/// A value the expression has on the nodes where `fact` (as written) is `value`.
#[derive(Debug)]
pub struct Alternative<'p> {
    pub fact: String,
    pub value: String,
    pub expr: &'p Expr,
}

/// The alternatives of `value`, the expression a declaration gives a parameter.
pub fn alternatives<'p>(program: &'p Program, value: &'p Expr) -> Vec<Alternative<'p>> {
    let Some(body) = enclosing_body(&program.body, value.span) else {
        return Vec::new();
    };
    // The declaration must run wherever its body does.
    let Some(statement) = body.iter().find(|s| contains(s.span, value.span)) else {
        return Vec::new();
    };
    if !matches!(
        statement.kind,
        ExprKind::Resource(_) | ExprKind::Relationship { .. }
    ) {
        return Vec::new();
    }
    match &value.kind {
        ExprKind::Selector { .. } => of_selector(value),
        ExprKind::Variable(name) if !name.contains("::") => {
            of_variable(body, name, statement.span.start)
        }
        _ => Vec::new(),
    }
}

/// The arms of a selector on a fact.
fn of_selector(selector: &Expr) -> Vec<Alternative<'_>> {
    let ExprKind::Selector { subject, entries } = &selector.kind else {
        return Vec::new();
    };
    let Some((fact, path)) = fact_named(subject) else {
        return Vec::new();
    };
    let matchers: Vec<&Expr> = entries.iter().map(|e| &e.matcher).collect();
    entries
        .iter()
        .enumerate()
        .filter_map(|(at, entry)| {
            let value = taken(&path, &entry.matcher, &matchers[..at])?;
            Some(Alternative {
                fact: fact.clone(),
                value,
                expr: &entry.value,
            })
        })
        .collect()
}

/// The values the variable `name` of `body` has by fact: set once, before `before`, by
/// a selector on a fact, or in the options of one `case` on a fact.
fn of_variable<'p>(body: &'p [Expr], name: &str, before: u32) -> Vec<Alternative<'p>> {
    let mut assignments = Vec::new();
    collect_assignments(body, name, &mut assignments);
    let [only] = assignments.as_slice() else {
        return of_case_options(body, name, before, &assignments);
    };
    if only.span.start > before || !body.iter().any(|s| std::ptr::eq(s, *only)) {
        return of_case_options(body, name, before, &assignments);
    }
    match &only.kind {
        ExprKind::Assignment { right, .. } => of_selector(right),
        _ => Vec::new(),
    }
}

/// Where every assignment of `name` is a statement of an option of one `case` on a
/// fact, itself a statement of `body` before `before`: each option's value.
fn of_case_options<'p>(
    body: &'p [Expr],
    name: &str,
    before: u32,
    assignments: &[&'p Expr],
) -> Vec<Alternative<'p>> {
    let Some(case) = body.iter().find(|s| {
        s.span.start < before
            && matches!(&s.kind, ExprKind::Case(_))
            && assignments.iter().all(|a| contains(s.span, a.span))
    }) else {
        return Vec::new();
    };
    let ExprKind::Case(case) = &case.kind else {
        return Vec::new();
    };
    let Some((fact, path)) = fact_named(&case.subject) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut before_it: Vec<&Expr> = Vec::new();
    for option in &case.options {
        let assigned = option.body.statements.iter().find_map(|s| match &s.kind {
            ExprKind::Assignment { left, right, .. }
                if matches!(&left.kind, ExprKind::Variable(v) if v == name) =>
            {
                Some(&**right)
            }
            _ => None,
        });
        for matcher in &option.matchers {
            if let (Some(assigned), Some(value)) = (assigned, taken(&path, matcher, &before_it)) {
                out.push(Alternative {
                    fact: fact.clone(),
                    value,
                    expr: assigned,
                });
            }
            before_it.push(matcher);
        }
    }
    out
}

/// The assignments of `name` among `statements` and the branches of their
/// conditionals (the same scope), not in lambdas or definitions (scopes of their own).
fn collect_assignments<'p>(statements: &'p [Expr], name: &str, out: &mut Vec<&'p Expr>) {
    for statement in statements {
        match &statement.kind {
            ExprKind::Assignment { left, .. } => {
                let mut names = Vec::new();
                assigned_names(left, &mut names);
                if names.contains(&name) {
                    out.push(statement);
                }
            }
            ExprKind::If(i) => {
                collect_assignments(&i.then_block.statements, name, out);
                match &i.else_branch {
                    Some(ElseBranch::Else(block)) => {
                        collect_assignments(&block.statements, name, out)
                    }
                    Some(ElseBranch::Elsif(elsif)) => {
                        collect_assignments(std::slice::from_ref(&**elsif), name, out)
                    }
                    None => {}
                }
            }
            ExprKind::Unless(u) => {
                collect_assignments(&u.then_block.statements, name, out);
                if let Some(block) = &u.else_block {
                    collect_assignments(&block.statements, name, out);
                }
            }
            ExprKind::Case(c) => {
                for option in &c.options {
                    collect_assignments(&option.body.statements, name, out);
                }
            }
            _ => {}
        }
    }
}

fn assigned_names<'e>(target: &'e Expr, out: &mut Vec<&'e str>) {
    match &target.kind {
        ExprKind::Variable(v) => out.push(v),
        ExprKind::Array(items) => items.iter().for_each(|i| assigned_names(i, out)),
        _ => {}
    }
}

/// The fact an expression reads, as written and by its dotted path:
/// `$facts['os']['family']` or `$::os['family']` (`os.family`), `$::osfamily`.
fn fact_named(expr: &Expr) -> Option<(String, String)> {
    if let Some(path) = crate::builtin::facts::facts_path(expr) {
        if path.is_empty() {
            return None;
        }
        let written: String = path.iter().map(|k| format!("['{k}']")).collect();
        return Some((format!("$facts{written}"), path.join(".")));
    }
    let mut keys = Vec::new();
    let mut at = expr;
    while let ExprKind::Access { object, args } = &at.kind {
        let [key] = args.as_slice() else {
            return None;
        };
        let ExprKind::String(key) = &key.kind else {
            return None;
        };
        keys.push(key.value.clone());
        at = object;
    }
    let ExprKind::Variable(name) = &at.kind else {
        return None;
    };
    let top = name.strip_prefix("::")?;
    keys.reverse();
    let written: String = keys.iter().map(|k| format!("['{k}']")).collect();
    let mut path = vec![top.to_string()];
    path.extend(keys);
    Some((format!("$::{top}{written}"), path.join(".")))
}

/// The value a matcher names, when it is a string some node reports for the fact at
/// `path` (as Facter writes it: Puppet compares strings without case) and no matcher
/// tried before it (`earlier`) may match that value (a `default` is tried last).
fn taken(path: &str, matcher: &Expr, earlier: &[&Expr]) -> Option<String> {
    let ExprKind::String(literal) = &matcher.kind else {
        return None;
    };
    let shadowed = earlier.iter().any(|e| match &e.kind {
        ExprKind::Default => false,
        ExprKind::String(other) => other.value.eq_ignore_ascii_case(&literal.value),
        _ => true,
    });
    if shadowed {
        return None;
    }
    crate::builtin::facts::taken_values(path)
        .iter()
        .find(|v| v.eq_ignore_ascii_case(&literal.value))
        .map(|_| literal.value.clone())
}

/// Whether `expr` reads no variable and calls nothing: its value is the same wherever
/// it is evaluated.
pub fn reads_nothing(expr: &Expr) -> bool {
    struct Reads(bool);
    impl<'p> crate::ast::Visitor<'p> for Reads {
        fn visit_expr(&mut self, expr: &'p Expr) {
            if matches!(
                expr.kind,
                ExprKind::Variable(_)
                    | ExprKind::Call(_)
                    | ExprKind::MethodCall(_)
                    | ExprKind::Interpolated(_)
                    | ExprKind::Heredoc(_)
            ) {
                self.0 = true;
            }
            crate::ast::walk_expr(self, expr);
        }
    }
    let mut reads = Reads(false);
    crate::ast::Visitor::visit_expr(&mut reads, expr);
    !reads.0
}
