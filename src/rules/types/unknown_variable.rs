use crate::ast::names;
use crate::rules::FileContext;
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, RuleId, Severity};
use crate::analysis::unset_variables::{has_variable, UnsetRead, Verdict};

declare_rule! {
    /// ## What it does
    /// Reports a variable Puppet cannot find when it reads it:
    /// - a qualified variable (`$ntp::servers`) of a class pupcheck has read whose body sets
    ///   no such variable on any path, has no such parameter, and inherits from no class that
    ///   has one, or of a class no module on the modulepath defines;
    /// - a variable without a namespace that the code shows to be its own but that is not set
    ///   where it is read: a read before the body's own assignment (`$x = $x + 1`), a lambda's
    ///   variable or parameter read after the lambda, and a name one letter from a variable
    ///   that is visible there (two for long names).
    ///
    /// Nothing pupcheck cannot see may set the variable: not a fact (Facter's or the
    /// modules'), not a variable the environment's manifests set at top scope or in a node
    /// definition, not one named in `top-scope-variables` in `pupcheck.toml`, not one tested
    /// with `defined('$x')`, not one read on a line where `# lint:ignore:variable_scope`
    /// says a top-scope variable is meant. Classes pupcheck has not read, and classes whose
    /// body holds a syntax error, are not judged. A name only node data could set is
    /// `possibly-unknown-variable`'s (off by default).
    ///
    /// ## Why it matters
    /// With `strict_variables`, the default from Puppet 8, the compile fails ("Unknown
    /// variable: 'ntp::servers'."); Puppet 7 by default reads the variable as `undef` and
    /// warns. It is most often a typo, a variable the class no longer sets, or a lambda's
    /// variable used after the lambda.
    ///
    /// An error by default, as in Puppet 8; `strict-variables = false` in `pupcheck.toml`
    /// makes it a warning, for estates on Puppet 7's default.
    ///
    /// ## Example
    /// ```puppet
    /// class ntp (Array[String] $servers = []) {
    ///   $servers.each |$server| { $line = "server ${server}" }
    ///   notice($line)
    /// }
    /// notice($ntp::server)
    /// ```
    ///
    /// ## How to fix
    /// Name a variable that is set (`$ntp::servers`), set it before it is read, or return
    /// what a lambda computes (`$lines = $servers.map |$server| { ... }`).
    "unknown-variable" (Type, Error)
    "A variable is read where it is certainly not set"
    { check }
}

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    check_qualified(ctx, out);
    for unset in ctx.unset_reads() {
        if unset.verdict == Verdict::Unknown {
            out.push(diagnostic(unset, RULE.id, severity(ctx)));
        }
    }
}

/// The finding of an unqualified read Puppet cannot answer, in Puppet's words.
pub(crate) fn diagnostic(unset: &UnsetRead, rule: RuleId, severity: Severity) -> Diagnostic {
    let name = &unset.name;
    let mut diagnostic = Diagnostic::new(
        rule,
        severity,
        unset.span,
        format!("Unknown variable: '{name}'."),
    );
    if let Some(lambda) = unset.lambda_variable {
        diagnostic = diagnostic.with_label(
            lambda,
            format!("'${name}' is this lambda's own variable, not visible after it"),
        );
    }
    if let Some(note) = &unset.note {
        diagnostic = diagnostic.with_note(note.clone());
    }
    if let Some(near) = &unset.near {
        diagnostic = diagnostic.with_note(format!("did you mean '${near}'?"));
    }
    diagnostic
}

/// Puppet 7 without strict_variables only warns.
fn severity(ctx: &FileContext) -> Severity {
    if ctx.options.strict_variables {
        RULE.severity
    } else {
        Severity::Warning
    }
}

fn check_qualified(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    for expr in &ctx.exprs {
        let ExprKind::Variable(written) = &expr.kind else {
            continue;
        };
        let Some((class, variable)) = names::split_last(names::without_top_scope(written)) else {
            continue;
        };
        let class = class.to_ascii_lowercase();
        let missing_class = ctx.env.class_certainly_missing(&class);
        if class.is_empty()
            || !missing_class && has_variable(ctx.env, &class, variable, 0) != Some(false)
        {
            continue;
        }
        let mut diagnostic = Diagnostic::new(
            RULE.id,
            severity(ctx),
            expr.span,
            format!("Unknown variable: '{}'.", names::without_top_scope(written)),
        );
        if missing_class {
            diagnostic = diagnostic.with_note(format!(
                "no module on the modulepath defines a class '{class}'"
            ));
        }
        out.push(diagnostic);
    }
}

