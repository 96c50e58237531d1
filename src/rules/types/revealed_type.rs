use crate::rules::InterpretedFile;
use crate::ast::ExprKind;
use crate::diagnostics::Diagnostic;
use crate::eval::AbstractValue;

declare_rule! {
    /// ## What it does
    /// Reports, at each call of `pupcheck::reveal(...)`, what pupcheck's evaluation of the
    /// code knows of the value of its argument there: the value itself when the code fixes it
    /// (`'a'`, `[1, 2]`, `Integer`), `any T` when it is known only to be an instance of the
    /// type `T` (a parameter, a fact), `unknown` when nothing is known of it. A debugging
    /// probe, as `reveal_type` is in Python's type checkers: the inference tests use it, and
    /// it shows why a type finding is or is not reported.
    ///
    /// ## Why it matters
    /// Type findings follow from what the evaluation knows; this makes that visible.
    ///
    /// ## Example
    /// ```puppet
    /// class demo (Integer[0, 9] $port) {
    ///   pupcheck::reveal($port)
    /// }
    /// ```
    /// (`any Integer[0, 9]`)
    ///
    /// ## How to fix
    /// Remove the probe: Puppet has no function `pupcheck::reveal`, so a catalog that calls it
    /// fails to compile.
    "revealed-type" (Type, Info)
    "What pupcheck knows of the value given to `pupcheck::reveal(...)`"
    { reads_interpretation, check }
}

/// The probe's name.
pub const PROBE: &str = "pupcheck::reveal";

/// How the message shows what is known.
pub fn describe(value: Option<&AbstractValue>) -> String {
    match value {
        Some(AbstractValue::Known(v)) => v.to_string(),
        Some(AbstractValue::Inferred(t)) if matches!(t.kind(), crate::types::Kind::Any) => {
            "unknown".to_string()
        }
        Some(AbstractValue::Inferred(t)) => format!("any {t}"),
        None => "unknown (not evaluated)".to_string(),
    }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    for expr in &ctx.exprs {
        let ExprKind::Call(call) = &expr.kind else {
            continue;
        };
        let ExprKind::Name(name) = &call.function.kind else {
            continue;
        };
        if name.trim_start_matches("::") != PROBE {
            continue;
        }
        for arg in &call.args {
            let shown = describe(ctx.inference().value(arg));
            out.push(RULE.diagnostic(arg.span, shown));
        }
    }
}
