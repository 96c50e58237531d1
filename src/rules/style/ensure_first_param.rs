use crate::rules::FileContext;
use crate::ast::{Attribute, Expr, ExprKind};
use crate::diagnostics::{Diagnostic, Edit, Fix};

declare_rule! {
    /// ## What it does
    /// Reports a resource body whose `ensure` attribute is not the first one. Class
    /// declarations (`class { 'x': }`) are not checked.
    ///
    /// ## Why it matters
    /// `ensure` decides whether the other attributes matter at all (an absent file has no
    /// mode); the style guide puts it first so a reader sees it first.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd':
    ///   mode   => '0644',
    ///   ensure => file,
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Move `ensure` to the top of the body.
    "ensure-first-param" (Style, Warning)
    "`ensure` is not the first attribute of a resource"
    { fixable, puppet_lint: "ensure_first_param", on_expr: [Resource] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Resource(resource) = &expr.kind else {
        return;
    };
    if matches!(&resource.type_expr.kind, ExprKind::Name(n) if n == "class") {
        return;
    }
    for body in &resource.bodies {
        let names: Vec<&Attribute> = body
            .attributes
            .iter()
            .filter(|a| a.name.name != "*")
            .collect();
        if let Some((i, ensure)) = names
            .iter()
            .enumerate()
            .find(|(_, a)| a.name.name == "ensure")
        {
            if i > 0 {
                out.push(
                    RULE.diagnostic(
                        ensure.name.span,
                        "ensure found on line but it's not the first attribute",
                    )
                    .with_fix(swap(&ctx.source.text, names[0], ensure)),
                );
            }
        }
    }
}

/// puppet-lint's fix: `ensure` and the first attribute change places (each with its
/// value; commas and line breaks stay where they are).
fn swap(text: &str, first: &Attribute, ensure: &Attribute) -> Fix {
    let code = |a: &Attribute| text[a.span.range()].to_string();
    Fix::safe(vec![
        Edit {
            span: first.span,
            replacement: code(ensure),
        },
        Edit {
            span: ensure.span,
            replacement: code(first),
        },
    ])
}
