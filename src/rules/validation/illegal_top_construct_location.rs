use crate::analysis::validator::label;
use crate::analysis::module_layout::module_file;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// In a file Puppet autoloads from a module (`<module>/manifests/`, `functions/`, `types/`,
    /// `plans/`), reports every top-level statement that is not a class, defined type,
    /// function, plan or type alias: resources, calls, assignments, conditionals, node
    /// definitions (Puppet's `ILLEGAL_TOP_CONSTRUCT_LOCATION`).
    ///
    /// pupcheck counts a folder as a module as `illegal-definition-location` does.
    ///
    /// ## Why it matters
    /// Puppet rejects the file: code at the top of a module file would run whenever the
    /// autoloader happens to load it, so it is not allowed.
    ///
    /// ## Example
    /// In `modules/ntp/manifests/init.pp`:
    /// ```puppet
    /// class ntp { }
    /// include ntp
    /// ```
    ///
    /// ## How to fix
    /// Move the code into the class (or into a node definition in the environment's
    /// `manifests/site.pp`).
    "illegal-top-construct-location" (Validation, Error)
    "A module file has code outside its definitions"
    { check }
}

/// What a module file may hold at its top: definitions, except nodes.
fn is_allowed(e: &Expr) -> bool {
    e.kind.is_definition() && !matches!(e.kind, ExprKind::Node(_))
}

/// Puppet's label of a top-level statement ("Resource Statement", "'+=' expression").
fn top_label(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Resource(_) => "Resource Statement".into(),
        ExprKind::ResourceDefaults(_) => "Resource Defaults Expression".into(),
        ExprKind::ResourceOverride(_) => "Resource Override".into(),
        ExprKind::Unless(_) => "'unless' Statement".into(),
        ExprKind::Assignment { op, .. } => format!("'{}' expression", op.symbol()),
        ExprKind::Relationship { op, .. } => format!("'{}' expression", op.symbol()),
        _ => label(e),
    }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    let misplaced: Vec<&crate::ast::Expr> = ctx
        .program
        .body
        .iter()
        .filter(|s| !is_allowed(s) && !matches!(s.kind, ExprKind::Error))
        .collect();
    // Whether the file is a module's asks the file system: only when it matters.
    if misplaced.is_empty() || module_file(&ctx.source.path, |dir| ctx.env.folder_evidence(dir)).is_none() {
        return;
    }
    for statement in misplaced {
        out.push(RULE.diagnostic(
            statement.span,
            format!(
                "This {} is unacceptable as a top level construct in this location",
                top_label(statement)
            ),
        ));
    }
}
