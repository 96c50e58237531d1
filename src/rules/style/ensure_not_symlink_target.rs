use crate::analysis::walks::*;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::{Diagnostic, Fix};

declare_rule! {
    /// ## What it does
    /// Reports `file` resources whose `ensure` is a path (`ensure => '/etc/foo'`).
    ///
    /// ## Why it matters
    /// It creates a symlink, but reads like a file; the style guide asks for
    /// `ensure => link` and `target => ...`.
    ///
    /// ## Example
    /// ```puppet
    /// file { '/etc/motd': ensure => '/etc/issue' }
    /// ```
    ///
    /// ## How to fix
    /// Write `ensure => link, target => '/etc/issue'`. The automatic fix writes
    /// `ensure => symlink`, as puppet-lint's does: Puppet's `file` type takes `symlink` as
    /// another name for `link` (checked with `puppet apply`).
    "ensure-not-symlink-target" (Style, Warning)
    "A file's `ensure` is a symlink target path"
    { fixable, puppet_lint: "ensure_not_symlink_target", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    each_resource_body(ctx, |t, body| {
        if t != "file" {
            return;
        }
        // A second `target` would be a duplicate attribute Puppet rejects: no fix then.
        let has_target = body.attributes.iter().any(|a| a.name.name == "target");
        for a in body.attributes.iter().filter(|a| a.name.name == "ensure") {
            if let ExprKind::String(s) = &a.value.kind {
                if s.value.starts_with('/') {
                    // puppet-lint's fix: `ensure => symlink,` then `target => '/path'` on
                    // the next line, after the blanks that stand before `ensure`.
                    let before = &ctx.source.text[..a.name.span.start as usize];
                    let indent = &before[before.trim_end_matches([' ', '\t']).len()..];
                    let diagnostic =
                        RULE.diagnostic(a.value.span, "symlink target specified in ensure attr");
                    out.push(if has_target {
                        diagnostic
                    } else {
                        diagnostic.with_fix(Fix::replace(
                            crate::source::Span::at(a.value.span.start),
                            format!("symlink,\n{indent}target => "),
                        ))
                    });
                }
            }
        }
    });
}
