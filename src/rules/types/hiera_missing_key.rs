use crate::rules::FileContext;
use crate::ast::{Expr, ExprKind};
use crate::diagnostics::Diagnostic;

declare_rule! {
    /// ## What it does
    /// Reports a call of `lookup` (or `hiera`, `hiera_array`, `hiera_hash`, `hiera_include`)
    /// with a key written as a string and no default (no default argument, no
    /// `default_value`, no block), in a control repository whose Hiera pupcheck reads whole,
    /// when no data file of the environment's layer, nor of the module the key is in, binds
    /// the key. What reads the Hiera whole is what `missing-parameter` asks for classes: a
    /// version 5 `hiera.yaml` whose every level pupcheck can read. The global layer, outside
    /// the repository, is taken as empty.
    ///
    /// ## Why it matters
    /// Puppet fails the catalog ("Function lookup() did not find a value for the name
    /// 'profile::ntp::servers'") on every node that evaluates the call.
    ///
    /// ## Example
    /// ```puppet
    /// $servers = lookup('profile::ntp::servers')   # no data file has the key
    /// ```
    ///
    /// ## How to fix
    /// Add the key to the data (`data/common.yaml`), correct its name, or give a default
    /// (`lookup('profile::ntp::servers', Array[String], 'first', [])`).
    "hiera-missing-key" (Type, Error)
    "lookup() of a key no Hiera layer binds, without a default"
    { on_expr: [Call] }
}

fn check_expr(ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
    let ExprKind::Call(call) = &expr.kind else {
        return;
    };
    let ExprKind::Name(function) = &call.function.kind else {
        return;
    };
    if call.lambda.is_some() {
        return;
    }
    let (first, defaulted) = match function.as_str() {
        // lookup(name, type, merge, default) or lookup(name, options).
        "lookup" => (call.args.first(), call.args.len() >= 4),
        // hiera*(name, default, override).
        "hiera" | "hiera_array" | "hiera_hash" | "hiera_include" => {
            (call.args.first(), call.args.len() >= 2)
        }
        _ => return,
    };
    let Some(first) = first else {
        return;
    };
    if defaulted {
        return;
    }
    let key = match &first.kind {
        ExprKind::String(s) => s.value.as_str(),
        ExprKind::Hash(entries) if function == "lookup" && call.args.len() == 1 => {
            match options_name(entries) {
                Some(name) => name,
                None => return,
            }
        }
        _ => return,
    };
    if function == "lookup"
        && call
            .args
            .get(1)
            .is_some_and(|options| matches!(options.kind, ExprKind::Hash(_)))
    {
        // lookup(name, options): the options may hold a default.
        return;
    }
    // A dotted key digs into the value of its first part.
    let root = key.split('.').next().unwrap_or_default();
    if root.is_empty() || root.starts_with("::") || root.contains(['$', '%', '"', '\'']) {
        return;
    }
    let env = ctx.env;
    if env.root().is_none() || env.hiera().may_bind(root) {
        return;
    }
    let mut finding = RULE.diagnostic(
        first.span,
        format!("Function lookup() did not find a value for the name '{key}'"),
    );
    crate::rules::warn_if_declared_open(env, &mut finding, "a Hiera layer");
    out.push(finding);
}

/// The key of `lookup({ 'name' => 'key', ... })`, when the options give no default.
fn options_name(entries: &[crate::ast::HashEntry]) -> Option<&str> {
    fn literal(e: &Expr) -> Option<&str> {
        match &e.kind {
            ExprKind::String(s) => Some(s.value.as_str()),
            _ => None,
        }
    }
    let mut name = None;
    for entry in entries {
        match literal(&entry.key)? {
            "name" => name = literal(&entry.value),
            "default_value" | "default_values_hash" => return None,
            _ => {}
        }
    }
    name
}
