use crate::rules::FileContext;
use crate::ast::{walk_expr, Expr, ExprKind, StringPart, Visitor};
use crate::diagnostics::{Applicability, Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Reports `"${var}"` (or `"$var"`, `"${var['key']}"`): a string that is only a variable.
    /// Hash keys and selector options (a string before `=>`) are not reported.
    ///
    /// ## Why it matters
    /// The quotes turn the value into a string: an array, a number or `undef` silently becomes
    /// text, which is rarely what was meant.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x':
    ///   owner => "${owner}",
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Use the variable itself: `owner => $owner`. Use `String($owner)` when a string is meant.
    "only-variable-string" (Style, Warning)
    "A string holds nothing but one interpolated variable"
    { fixable, puppet_lint: "only_variable_string", check }
}

/// The variable of `\"${x}\"`, `\"$x\"` or `\"${x['k']}\"` (simple keys only, as
/// puppet-lint looks at tokens).
fn only_variable(expr: &Expr) -> Option<&Expr> {
    let ExprKind::Interpolated(parts) = &expr.kind else {
        return None;
    };
    let [StringPart::Interpolation(inner)] = parts.as_slice() else {
        return None;
    };
    let mut e = inner;
    while let ExprKind::Access { object, args } = &e.kind {
        let simple = args.len() == 1
            && matches!(
                args[0].kind,
                ExprKind::String(_)
                    | ExprKind::Integer(_)
                    | ExprKind::Variable(_)
                    | ExprKind::Name(_)
            );
        if !simple {
            return None;
        }
        e = object;
    }
    matches!(e.kind, ExprKind::Variable(_)).then_some(e)
}

struct Find<'a> {
    text: &'a str,
    /// Keys of `$var[...]`, which puppet-lint does not check (see `variable_access_keys`).
    keys: Vec<crate::source::Span>,
    out: &'a mut Vec<Diagnostic>,
}

impl Find<'_> {
    fn report(&mut self, expr: &Expr) {
        if self.keys.binary_search(&expr.span).is_ok() {
            return;
        }
        if let (Some(var), ExprKind::Interpolated(parts)) = (only_variable(expr), &expr.kind) {
            let mut d = RULE.diagnostic(var.span, "string containing only a variable");
            if let [StringPart::Interpolation(inner)] = parts.as_slice() {
                // `"${x}"` becomes `$x`: puppet-lint's fix. Unsafe: the value is no longer
                // a string (`"${port}"` is '8080', `$port` may be 8080).
                let code = &self.text[inner.span.range()];
                let code = if code.starts_with('$') {
                    code.to_string()
                } else {
                    format!("${code}")
                };
                d = d.with_fix(Fix {
                    edits: vec![Edit {
                        span: expr.span,
                        replacement: code,
                    }],
                    applicability: Applicability::Unsafe,
                });
            }
            self.out.push(d);
        }
    }
}

impl Visitor<'_> for Find<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        match &expr.kind {
            // A string followed by `=>` is a key: not reported, but its parts are visited.
            ExprKind::Hash(entries) => {
                for entry in entries {
                    walk_expr(self, &entry.key);
                    self.visit_expr(&entry.value);
                }
            }
            ExprKind::Selector { subject, entries } => {
                self.visit_expr(subject);
                for entry in entries {
                    walk_expr(self, &entry.matcher);
                    self.visit_expr(&entry.value);
                }
            }
            _ => {
                self.report(expr);
                walk_expr(self, expr);
            }
        }
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find {
        text: &ctx.source.text,
        keys: crate::analysis::walks::variable_access_keys(ctx),
        out,
    };
    for statement in &ctx.program.body {
        find.visit_expr(statement);
    }
}
