use crate::analysis::walks::each_parameter_list;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports an assignment inside the default value of a parameter (of a class, defined
    /// type, function, lambda or EPP template), outside a lambda there (Puppet's
    /// `ILLEGAL_ASSIGNMENT_CONTEXT`).
    ///
    /// ## Why it matters
    /// Default values are evaluated in the scope being created: Puppet does not let them set
    /// variables and rejects the file.
    ///
    /// ## Example
    /// ```puppet
    /// class demo ($port = ($default_port = 8080)) { }
    /// ```
    ///
    /// ## How to fix
    /// Write the value itself (`$port = 8080`), and compute other variables in the body.
    "illegal-assignment-context" (Validation, Error)
    "A parameter's default value assigns a variable"
    { check }
}

/// Finds assignments in a default value; a lambda there may assign its own locals.
struct Find<'a> {
    out: &'a mut Vec<Diagnostic>,
}

impl Visitor<'_> for Find<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        if let ExprKind::Assignment { .. } = expr.kind {
            self.out
                .push(RULE.diagnostic(expr.span, "Assignment not allowed here"));
            return;
        }
        walk_expr(self, expr);
    }

    fn visit_lambda(&mut self, _lambda: &Lambda) {}
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let mut find = Find { out };
    each_parameter_list(ctx, |_, params| {
        for default in params.iter().filter_map(|p| p.default.as_ref()) {
            find.visit_expr(default);
        }
    });
}
