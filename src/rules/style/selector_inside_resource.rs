use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports attribute values that are a selector on a variable (`mode => $x ? { ... }`).
    ///
    /// ## Why it matters
    /// The style guide keeps resource bodies simple: compute the value in a variable first.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/tmp/x':
    ///   mode => $secure ? { true => '0600', default => '0644' },
    /// }
    /// ```
    ///
    /// ## How to fix
    /// `$mode = $secure ? { ... }` before the resource, then `mode => $mode`.
    "selector-inside-resource" (Style, Warning)
    "A selector is used as a resource attribute value"
    { puppet_lint: "selector_inside_resource", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let text = &ctx.source.text;
    each_resource_body(ctx, |_, body| {
        for a in &body.attributes {
            if let ExprKind::Selector { subject, .. } = &a.value.kind {
                if matches!(subject.kind, ExprKind::Variable(_)) {
                    let from = a.name.span.end as usize;
                    let arrow = text[from..a.value.span.start as usize]
                        .find("=>")
                        .map(|i| (from + i) as u32)
                        .unwrap_or(a.value.span.start);
                    out.push(RULE.diagnostic(
                        crate::source::Span::new(arrow, arrow + 2),
                        "selector inside resource block",
                    ));
                }
            }
        }
    });
}
