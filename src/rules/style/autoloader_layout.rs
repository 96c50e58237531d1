use crate::analysis::walks::each_expr;
use crate::rules::FileContext;
use crate::ast::ExprKind;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a class or defined type `a::b::c` that is not in `<...>/a/manifests/b/c.pp`
    /// (and `a` not in `<...>/a/manifests/init.pp`). As in puppet-lint, the module's directory
    /// must be named after the module, unless `.puppet-lint.rc` says `--relative`.
    ///
    /// ## Why it matters
    /// Puppet finds classes and defined types only by this layout: anywhere else they fail to
    /// load ("Could not find class") unless another file happens to load first.
    ///
    /// ## Example
    /// `demo::config` defined in `demo/manifests/init.pp`.
    ///
    /// ## How to fix
    /// Move the definition to the file its name implies, or rename it.
    "autoloader-layout" (Style, Warning)
    "A class or defined type is not in the file the autoloader looks in"
    { puppet_lint: "autoloader_layout", check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let path = std::path::absolute(&ctx.source.path).unwrap_or_else(|_| ctx.source.path.clone());
    let full = path.to_string_lossy().replace('\\', "/");
    if full.is_empty() {
        return;
    }
    each_expr(ctx, |expr| {
        let name = match &expr.kind {
            ExprKind::Class(c) => &c.name,
            ExprKind::Define(d) => &d.name,
            _ => return,
        };
        let parts: Vec<&str> = name.name.split("::").collect();
        let expected = if parts.len() > 1 {
            format!("/{}/manifests/{}.pp", parts[0], parts[1..].join("/"))
        } else {
            format!("/{}/manifests/init.pp", name.name)
        };
        // puppet-lint's `--relative` (a `.puppet-lint.rc` option): the module's folder
        // may have any name (a checkout called `puppet-ntp`).
        let expected = if ctx.options.relative_layout {
            expected.splitn(3, '/').nth(2).unwrap_or("").to_string()
        } else {
            expected
        };
        if !full.ends_with(&expected) {
            out.push(RULE.diagnostic(
                name.span,
                format!("{} not in autoload module layout", name.name),
            ));
        }
    });
}
