use crate::infer::parameter_values::{mismatch, Undef};
use crate::rules::InterpretedFile;
use crate::ast::{Expr, ExprKind};
use indexmap::IndexMap;
use crate::diagnostics::Diagnostic;
use crate::eval::FileAliases;
use crate::eval::AbstractValue;
use crate::types::resolve::Resolver;
use crate::types::Value;

declare_rule! {
    /// ## What it does
    /// Reports a call `epp('mod/file.epp', { ... })` or `inline_epp('<text>', { ... })`
    /// whose template declares its parameters
    /// (`<%- | Integer $port, String $host = 'localhost' | -%>`) when the hash the code gives
    /// names a parameter the template does not have, leaves out one without a default, or
    /// gives one a value its type refuses. The message is Puppet's, listing every problem as
    /// Puppet does.
    ///
    /// The template is read where `epp()` finds it: `templates/` of the module the name
    /// starts with, on the modulepath around the checked files; `inline_epp()`'s is the text
    /// the code gives, when the evaluation knows it. A hash is judged by its keys when the
    /// code writes them, and each value as far as the evaluation knows it: a value known only
    /// by its type (a parameter's) when no value of that type fits.
    ///
    /// ## Why it matters
    /// The catalog does not compile: every node whose catalog renders the template fails.
    ///
    /// ## Example
    /// ```puppet
    /// # templates/ntp.conf.epp starts with <%- | Array[String] $servers | -%>
    /// file { '/etc/ntp.conf':
    ///   content => epp('ntp/ntp.conf.epp', { 'server' => 'pool.ntp.org' }),
    /// }
    /// ```
    ///
    /// ## How to fix
    /// Give the template the parameters its tag declares, with values of their types.
    "epp-parameter-type" (Type, Error)
    "An EPP template called with parameters its parameter tag refuses"
    { reads_interpretation, check }
}

fn check(ctx: &InterpretedFile, out: &mut Vec<Diagnostic>) {
    let aliases = FileAliases::new(ctx.program, ctx.env);
    let mut resolver = Resolver::new(&aliases);
    for expr in &ctx.exprs {
        let ExprKind::Call(call) = &expr.kind else {
            continue;
        };
        let inline = match &call.function.kind {
            ExprKind::Name(n) if n == "epp" => false,
            ExprKind::Name(n) if n == "inline_epp" => true,
            _ => continue,
        };
        let given = match call.args.as_slice() {
            [_] => Some(Default::default()),
            [_, hash] => given_parameters(ctx, hash),
            _ => None,
        };
        let (Some(given), Some(AbstractValue::Known(Value::String(name)))) = (
            given,
            call.args.first().and_then(|a| ctx.inference().value(a)),
        ) else {
            continue;
        };
        let parameters = if inline {
            inline_template_parameters(name)
        } else {
            ctx.env.epp_template(name).and_then(|t| t.parameters)
        };
        let Some(parameters) = parameters else {
            continue;
        };
        if let Some(problems) = refused(&mut resolver, &parameters, &given) {
            out.push(RULE.diagnostic(
                expr.span,
                format!(
                    "Error while evaluating a Function Call, {}",
                    crate::types::mismatch::of_subject("lambda", &problems)
                ),
            ));
        }
    }
}

/// Puppet's reasons to refuse `given` for a template's `parameters`, in its order:
/// names it does not have, then each parameter missing or of the wrong type. `None`
/// when it takes them, or when a type cannot be judged.
/// The parameters an `inline_epp` template's text declares; `None` without a parameter
/// tag, or for text that does not parse whole.
fn inline_template_parameters(text: &str) -> Option<Vec<crate::ast::Parameter>> {
    let source = crate::source::SourceFile::new(
        "inline_epp",
        crate::source::SourceKind::Epp,
        text.to_string(),
    );
    let parsed = crate::syntax::parse(&source);
    (parsed.error_nodes == 0)
        .then_some(parsed.program.epp_parameters)
        .flatten()
}

/// The parameters a call gives, by name: a hash the evaluation knows, or a hash written
/// out whose keys are strings, each value as the evaluation knows it (by its type, or
/// not at all). `None` when the names are not known.
fn given_parameters(ctx: &InterpretedFile, hash: &Expr) -> Option<IndexMap<String, AbstractValue>> {
    if let Some(AbstractValue::Known(Value::Hash(map))) = ctx.inference().value(hash) {
        return map
            .iter()
            .map(|(k, v)| match k {
                Value::String(k) => Some((k.to_string(), AbstractValue::Known(v.clone()))),
                _ => None,
            })
            .collect();
    }
    let ExprKind::Hash(entries) = &hash.kind else {
        return None;
    };
    entries
        .iter()
        .map(|entry| {
            let key = match ctx.inference().value(&entry.key) {
                Some(AbstractValue::Known(Value::String(k))) => k.to_string(),
                _ => return None,
            };
            // A parameter around the call that defaults to undef may be undef, which
            // the template's own default then replaces: not judged.
            let value = ctx
                .inference()
                .value(&entry.value)
                .filter(|_| !crate::infer::enclosing::defaults_to_undef(ctx.program, &entry.value))
                .cloned()
                .unwrap_or(AbstractValue::Inferred(crate::types::t::any()));
            Some((key, value))
        })
        .collect()
}

fn certainly_not_undef(value: &AbstractValue) -> bool {
    match value {
        AbstractValue::Known(v) => !matches!(v, Value::Undef),
        AbstractValue::Inferred(ty) => {
            crate::types::disjoint::disjoint(ty, &crate::types::t::undef())
        }
    }
}

fn refused(
    resolver: &mut Resolver,
    parameters: &[crate::ast::Parameter],
    given: &IndexMap<String, AbstractValue>,
) -> Option<Vec<String>> {
    let mut problems = Vec::new();
    for (key, value) in given {
        // Puppet passes on no undef the template does not declare.
        if !parameters.iter().any(|p| p.name.name == *key) && certainly_not_undef(value) {
            problems.push(format!("has no parameter named '{key}'"));
        }
    }
    for p in parameters {
        let name = &p.name.name;
        match given.get(name.as_str()) {
            None | Some(AbstractValue::Known(Value::Undef)) if p.default.is_some() => {}
            None => problems.push(format!("expects a value for parameter '{name}'")),
            Some(value) => {
                let Some(type_expr) = &p.type_expr else {
                    continue;
                };
                // Undef leaves a parameter with a default its default.
                let undef = if p.default.is_some() {
                    Undef::LeavesTheDefault
                } else {
                    Undef::IsAValue
                };
                if let Some(why) = mismatch(resolver, type_expr, name, value, undef) {
                    problems.extend(why);
                }
            }
        }
    }
    (!problems.is_empty()).then_some(problems)
}
