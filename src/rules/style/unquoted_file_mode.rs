use crate::analysis::text::*;
use crate::rules::{Category, FileContext, Rule};
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix, Severity};

pub static RULE: Rule = Rule {
    id: "unquoted-file-mode",
    summary: "A file mode is not quoted",
    category: Category::Style,
    severity: Severity::Warning,
    enabled_by_default: true,
    fixable: true,
    reads_interpretation: false,
    puppet_lint: Some("unquoted_file_mode"),
    docs: "\
## What it does
Reports the `mode` of `file` and `concat` resources written as a number or bare word.

## Why it matters
`mode => 644` is the decimal number 644 to Puppet, not the octal mode; always quote
modes.

## Example
```puppet
file { '/tmp/x': mode => 0644 }
```

## How to fix
Quote it: `mode => '0644'`.
",
    check: Some(check),
    on_expr: None,
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |t, body| {
        if t != "file" && t != "concat" {
            return;
        }
        for a in body.attributes.iter().filter(|a| a.name.name == "mode") {
            if matches!(a.value.kind, ExprKind::Integer(_) | ExprKind::Name(_)) {
                let mode = &ctx.source.text[a.value.span.range()];
                out.push(
                    RULE.diagnostic(a.value.span, "unquoted file mode")
                        .with_fix(Fix::replace(a.value.span, format!("'{mode}'"))),
                );
            }
        }
    });
}
