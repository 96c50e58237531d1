use crate::analysis::module_layout::module_file;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// In a file Puppet autoloads from a module (`<module>/manifests/`, `functions/`, `types/`,
    /// `plans/`), reports a class, defined type, function or plan whose name does not start
    /// with the namespace the file's path gives: `<module>::<folders>::<file>`, or `<module>`
    /// for `manifests/init.pp` (Puppet's `ILLEGAL_DEFINITION_LOCATION`).
    ///
    /// pupcheck counts a folder as a module when its name is a valid module name and it has a
    /// `metadata.json` or sits in a folder named `modules`, `site`, `site-modules` or `dist`.
    ///
    /// ## Why it matters
    /// Puppet refuses to load the file ("Unacceptable location"), and the autoloader would not
    /// find the definition there anyway.
    ///
    /// ## Example
    /// In `modules/ntp/manifests/config.pp`:
    /// ```puppet
    /// class ntp::service { }
    /// ```
    ///
    /// ## How to fix
    /// Move the definition to the file its name implies (`modules/ntp/manifests/service.pp`)
    /// or rename it.
    "illegal-definition-location" (Validation, Error)
    "A module file defines a class, defined type, function or plan outside its namespace"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let Some(module) = module_file(&ctx.source.path, |dir| ctx.env.folder_evidence(dir)) else {
        return;
    };
    // Nested definitions take their enclosing class's name as prefix, so only the
    // top-level ones can be misplaced.
    for statement in &ctx.program.body {
        let name = match &statement.kind {
            ExprKind::Class(c) => &c.name,
            ExprKind::Define(d) => &d.name,
            ExprKind::Function(f) => &f.name,
            ExprKind::Plan(p) => &p.name,
            _ => continue,
        };
        if !name.name.to_lowercase().starts_with(&module.namespace) {
            out.push(
                RULE.diagnostic(
                    statement.span,
                    format!(
                        "Unacceptable location. The name '{}' is unacceptable in file '{}'",
                        name.name, module.in_module
                    ),
                )
                .with_note(format!(
                    "this file may only define names in '{}'",
                    module.namespace
                )),
            );
        }
    }
}
