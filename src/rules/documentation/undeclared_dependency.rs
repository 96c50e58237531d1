use crate::analysis::walks::each_expr;
use crate::infer::declarations::literal_names;
use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// In a module with a `metadata.json`, reports the first use in each file of another
    /// module on the modulepath that `dependencies` does not list: a class it includes or
    /// declares, a defined type it declares, a function it calls, unless a listed module
    /// depends on it in turn (it is installed with it). Not judged: the modules of a control
    /// repository (its `Puppetfile` installs what they use), a module whose `metadata.json`
    /// cannot be read, its `examples/`, `spec/` and `tests/`, and uses of modules pupcheck
    /// does not see.
    ///
    /// Off by default: many modules use some modules only when asked to (`apt` to manage a
    /// package repository on Debian, `docker` for a containerised install) and leave them out
    /// of `dependencies` on purpose, documenting them instead, since `metadata.json` has no
    /// optional dependencies. Select it (`extend-select = ["undeclared-dependency"]`) to
    /// have every use listed.
    ///
    /// ## Why it matters
    /// `puppet module install`, r10k's dependency resolution and the Forge install what
    /// `dependencies` lists: a module used but not listed is missing where the module is
    /// installed alone, and the catalog fails ("Could not find class ::stdlib").
    ///
    /// ## Example
    /// ```puppet
    /// # metadata.json lists no dependency
    /// class ntp { include stdlib }
    /// ```
    ///
    /// ## How to fix
    /// Add the module to `dependencies` in `metadata.json`, with the range of versions the
    /// code works with (`{ "name": "puppetlabs/stdlib", "version_requirement": ">= 9.0.0 < 10.0.0" }`).
    "undeclared-dependency" (Documentation, Warning)
    "A module uses another module its metadata.json does not list as a dependency"
    { off_by_default, check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let Some(module) = ctx.env.module_dependencies(&ctx.source.path) else {
        return;
    };
    // Examples and tests use other modules to show or exercise this one.
    let in_examples = ctx
        .source
        .path
        .components()
        .any(|c| matches!(c.as_os_str().to_str(), Some("examples" | "spec" | "tests")));
    if in_examples {
        return;
    }
    let mut reported = std::collections::HashSet::new();
    let mut used = |name: &str, at: &Expr, what: &str| {
        let name = name.trim_start_matches("::").to_ascii_lowercase();
        let Some((other, _)) = name.split_once("::").or(Some((name.as_str(), ""))) else {
            return;
        };
        if other == module.name
            || module.dependencies.iter().any(|d| d == other)
            || !ctx.env.has_module(other)
            || !reported.insert(other.to_string())
        {
            return;
        }
        out.push(RULE.diagnostic(
            at.span,
            format!(
                "module '{}' uses {what} '{name}' of module '{other}', which its metadata.json does not list as a dependency",
                module.name
            ),
        ));
    };
    each_expr(ctx, |expr| match &expr.kind {
        ExprKind::Call(call) => {
            let ExprKind::Name(function) = &call.function.kind else {
                return;
            };
            if matches!(function.as_str(), "include" | "contain" | "require") {
                for (name, at) in literal_names(&call.args) {
                    used(name, at, "class");
                }
            } else if function.contains("::") {
                used(function, &call.function, "function");
            }
        }
        ExprKind::Resource(resource) => {
            let ExprKind::Name(type_name) = &resource.type_expr.kind else {
                return;
            };
            if type_name == "class" {
                for body in &resource.bodies {
                    for (name, at) in literal_names(std::slice::from_ref(&body.title)) {
                        used(name, at, "class");
                    }
                }
            } else if type_name.contains("::") {
                used(type_name, &resource.type_expr, "defined type");
            }
        }
        _ => {}
    });
}
