use crate::rules::InterpretedFile;
use crate::ast::ExprKind;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a call of a namespaced function (`stdlib::ensure_packages(...)`,
    /// `$list.mymod::flatten_all`) whose module is on the modulepath but has no such
    /// function where Puppet looks for one: not in `functions/` (written in Puppet), not in
    /// `lib/puppet/functions/<module>/` (written in Ruby), not defined by any file checked,
    /// and not one of Puppet's own.
    ///
    /// Any other function nothing defines (a misspelled built-in, a function of a module
    /// that is not on the modulepath) is reported when the environment is closed
    /// (docs/certainty.md: a control repository whose `Puppetfile` is installed and whose
    /// modulepath is its own, a module whose `.fixtures.yml` is, or `environment = "closed"` in `pupcheck.toml`): not
    /// Puppet's, not PuppetDB's `puppetdb_query`, not written in Puppet in the files
    /// checked or the main manifest, not in any module's `lib/puppet/functions/` or
    /// `lib/puppet/parser/functions/`. In an open environment that is a warning saying
    /// what is missing. Not judged: files in no environment or module repository, plans'
    /// calls other than of a module's function (Bolt has functions of its own), code Puppet does not run, and Puppet
    /// Enterprise's own modules (`pe_*`).
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("Unknown function: 'stdlib::ensure_package'."), usually
    /// because of a typo or a function the installed version of the module does not have yet.
    ///
    /// ## Example
    /// ```puppet
    /// stdlib::ensure_package('vim')   # stdlib has ensure_packages
    /// ```
    ///
    /// ## How to fix
    /// Correct the name, or install the version of the module that has the function.
    "unknown-function" (Type, Error)
    "A call of a module's function the module does not have"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let in_plan = crate::analysis::module_layout::is_plan_file(ctx.program, &ctx.source.path);
    let mut found = Vec::new();
    for expr in &ctx.exprs {
        let (name, span) = match &expr.kind {
            ExprKind::Call(call) => match &call.function.kind {
                ExprKind::Name(name) => (name.as_str(), call.function.span),
                _ => continue,
            },
            ExprKind::MethodCall(call) => (call.method.name.as_str(), call.method.span),
            _ => continue,
        };
        // (The probe of the inference tests, which their confirmation with Puppet
        // defines.)
        if ctx.inference().is_skipped(expr) || name == super::revealed_type::PROBE {
            continue;
        }
        // A plan's calls: only a module's function the module lacks (Bolt adds its own).
        let unresolved = if in_plan {
            ctx.env
                .function_certainly_missing(name)
                .then_some(crate::env::Unresolved::Certain)
        } else {
            ctx.env.unresolved_function(name)
        };
        if let Some(unresolved) = unresolved {
            let shown = name.trim_start_matches("::");
            found.push((span, format!("Unknown function: '{shown}'."), unresolved));
        }
    }
    RULE.report_unresolved(ctx, found, out);
}
