use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::{Diagnostic, Fix};
use crate::builtin::legacy_facts::lookup;

declare_rule! {
    /// ## What it does
    /// Reports Facter's legacy facts read as top-scope variables (`$::osfamily`) or from the
    /// facts hash (`$facts['osfamily']`), as puppet-lint 4's `legacy_facts` does. The table of
    /// legacy facts and their structured replacements is data: `data/legacy_facts.toml`.
    ///
    /// `$::name` where the environment's own code sets `name` at top scope or in a node
    /// definition reads that variable, not a fact: it is not reported.
    ///
    /// ## Why it matters
    /// Legacy facts are not collected by default since Facter 4 (Puppet 7's
    /// `include_legacy_facts` is off in Puppet 8), so code reading them gets `undef`.
    ///
    /// ## Example
    /// ```puppet
    /// if $facts['osfamily'] == 'Debian' { }
    /// ```
    ///
    /// ## How to fix
    /// Read the structured fact: `$facts['os']['family']`. The fix does that for every fact
    /// with a structured equivalent (`ipaddress_eth0` becomes
    /// `$facts['networking']['interfaces']['eth0']['ip']`); a few (`memorysize_mb`,
    /// `blockdevices`, ...) have none of the same value and are left to you.
    "legacy-facts" (Style, Warning)
    "A legacy (flat) fact where a structured fact exists"
    { fixable, puppet_lint: "legacy_facts", on_expr: [Variable, Access] }
}

/// `facts['os']['family']`: indexes are quoted, except numeric ones (list positions).
fn facts_access(path: &[String]) -> String {
    let mut out = String::from("facts");
    for element in path {
        if !element.is_empty() && element.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{element}]"));
        } else {
            out.push_str(&format!("['{element}']"));
        }
    }
    out
}

/// The legacy fact an expression reads: `$::name`, or `$facts['name']`.
fn legacy_fact(expr: &Expr) -> Option<&str> {
    match &expr.kind {
        ExprKind::Variable(v) => v.strip_prefix("::").filter(|n| !n.contains("::")),
        ExprKind::Access { object, args } => match (&object.kind, args.as_slice()) {
            (ExprKind::Variable(v), [key]) if v == "facts" || v == "::facts" => match &key.kind {
                ExprKind::String(s) => Some(s.value.as_str()),
                // `$facts[osfamily]`: a bare word is a string too.
                ExprKind::Name(n) => Some(n.as_str()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let Some(name) = legacy_fact(expr) else {
        return;
    };
    let Some(replacement) = lookup(name) else {
        return;
    };
    // `$::name` where the environment's own top-scope or node code sets `name` reads
    // that variable (Puppet 8 collects no legacy fact to collide with it): no fact.
    let reads_top_scope = matches!(expr.kind, ExprKind::Variable(_));
    if reads_top_scope
        && ctx.sets_top_scope_variable(name)
    {
        return;
    }
    // puppet-lint 4's message, which names the fact.
    let d = RULE.diagnostic(expr.span, format!("legacy fact '{name}'"));
    out.push(match replacement {
        Some(path) => {
            let code = facts_access(&path);
            d.with_fix(Fix::replace(
                expr.span,
                ctx.variable_sites().replacement(ctx, expr.span, &code),
            ))
        }
        None => d,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_loads_and_patterns_fill_their_placeholders() {
        assert_eq!(
            lookup("osfamily"),
            Some(Some(vec!["os".into(), "family".into()]))
        );
        assert_eq!(
            lookup("ipaddress_eth0").flatten().map(|p| facts_access(&p)),
            Some("facts['networking']['interfaces']['eth0']['ip']".into())
        );
        assert_eq!(
            lookup("processor0").flatten().map(|p| facts_access(&p)),
            Some("facts['processors']['models'][0]".into())
        );
        assert_eq!(lookup("memorysize_mb"), Some(None));
        assert_eq!(lookup("my_custom_fact"), None);
    }
}
