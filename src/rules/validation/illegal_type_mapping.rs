use crate::rules::validation::unsupported_expression::is_runtime_access;
use crate::rules::FileContext;
use crate::ast::*;
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Checks Pcore runtime type mappings, `type Runtime[<runtime>, <what>] = <to>`, as Puppet's
    /// validator does: a single runtime name (`Runtime['ruby', 'My::Class']`) maps to a type,
    /// and a pattern with its replacement (`Runtime['ruby', [/^My::(\w+)$/, 'Your::\1']]`) maps
    /// to a pattern with its replacement (`ILLEGAL_SINGLE_TYPE_MAPPING`,
    /// `ILLEGAL_REGEXP_TYPE_MAPPING`). Puppet's messages say "left side" where they mean the
    /// right one; pupcheck keeps its words.
    ///
    /// ## Why it matters
    /// Puppet rejects the file.
    ///
    /// ## Example
    /// ```puppet
    /// type Runtime['ruby', 'My::Point'] = [/^Puppet::(\w+)$/, 'My::\1']
    /// ```
    ///
    /// ## How to fix
    /// Map a single name to a type, `type Runtime['ruby', 'My::Point'] = Mymodule::Point`, or a
    /// pattern to a pattern.
    "illegal-type-mapping" (Validation, Error)
    "A runtime type mapping maps a name to a pattern, or a pattern to a type"
    { on_expr: [TypeMapping] }
}

/// `[/regexp/, 'replacement']`
fn is_pattern_with_replacement(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Array(items)
        if items.len() == 2
            && matches!(items[0].kind, ExprKind::Regex(_))
            && matches!(items[1].kind, ExprKind::String(_)))
}

fn is_type_ref(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::TypeRef(_) => true,
        ExprKind::Access { object, .. } => matches!(object.kind, ExprKind::TypeRef(_)),
        _ => false,
    }
}

const SINGLE: &str = "Illegal type mapping. Expected a Type on the left side, got A Type Mapping";
const REGEXP: &str =
    "Illegal type mapping. Expected a Tuple[Regexp,String] on the left side, got A Type Mapping";

fn check_expr(_ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::TypeMapping(m) = &expr.kind else {
        return;
    };
    let ExprKind::Access { args, .. } = &m.type_expr.kind else {
        return;
    };
    if !is_runtime_access(&m.type_expr) {
        return; // unsupported-expression
    }
    let maps_pattern = args.len() == 2 && is_pattern_with_replacement(&args[1]);
    let message = if is_pattern_with_replacement(&m.mapping) {
        (!maps_pattern).then_some(SINGLE)
    } else if is_type_ref(&m.mapping) {
        maps_pattern.then_some(REGEXP)
    } else if maps_pattern {
        Some(REGEXP)
    } else {
        Some(SINGLE)
    };
    if let Some(message) = message {
        out.push(
            RULE.diagnostic(m.type_expr.span, message)
                .with_label(m.mapping.span, "mapped to this"),
        );
    }
}
