use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;
use crate::builtin::facts;

declare_rule! {
    /// ## What it does
    /// Reports `$facts['name']` where no fact of that name exists but one within two letters
    /// of it does: not one Facter's schema or Puppet defines (data generated from Facter by
    /// `scripts/puppet/facts.rb`), not named in any custom fact (`lib/facter/`) or external
    /// fact (`facts.d/`) of a module on the modulepath; and a key of one of Facter's
    /// structured facts that its schema does not list, next to one it does
    /// (`$facts['os']['famliy']`). A name far from every fact may be a custom fact defined
    /// elsewhere (on the agent), and is not reported.
    ///
    /// ## Why it matters
    /// Puppet evaluates a fact that does not exist to `undef`, silently: the code then takes
    /// the branch or the default meant for nodes without the fact.
    ///
    /// ## Example
    /// ```puppet
    /// if $facts['os']['famliy'] == 'Debian' { include apt }   # never true
    /// ```
    ///
    /// ## How to fix
    /// Spell the fact as Facter does (`$facts['os']['family']`).
    "unknown-fact" (Type, Warning)
    "A fact name that looks like a misspelt fact Facter defines"
    { on_expr: [Access] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Access { object, args } = &expr.kind else {
        return;
    };
    let [key_expr] = args.as_slice() else {
        return;
    };
    let ExprKind::String(key) = &key_expr.kind else {
        return;
    };
    let Some(parent) = facts::facts_path(object) else {
        return;
    };
    let key = key.value.as_str();
    let message = if parent.is_empty() {
        if facts::is_known(key) || ctx.env.may_define_fact(key) {
            return;
        }
        let Some(near) = crate::analysis::names::nearest(key, facts::children("")) else {
            return;
        };
        format!("Unknown fact '{key}': Facter, Puppet and the modules define no fact of that name (did you mean '{near}'?)")
    } else {
        let parent_path = parent.join(".");
        let closed = facts::fact(&parent_path).is_some_and(|f| f.closed);
        if !closed || facts::children(&parent_path).any(|c| c == key) {
            return;
        }
        let Some(near) = crate::analysis::names::nearest(key, facts::children(&parent_path)) else {
            return;
        };
        format!("Facter's '{parent_path}' has no key '{key}' (did you mean '{near}'?)")
    };
    out.push(RULE.diagnostic(key_expr.span, message));
}
