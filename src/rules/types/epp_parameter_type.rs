use crate::analysis::bodies::{mismatch, Undef};
use crate::rules::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::env::FileAliases;
use crate::eval::AbstractValue;
use crate::types::resolve::Resolver;
use crate::types::Value;

pub static RULE: Rule = Rule {
    id: "epp-parameter-type",
    summary: "An EPP template called with parameters its parameter tag refuses",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a call `epp('mod/file.epp', { ... })` or `inline_epp('<text>', { ... })`
whose template declares its parameters
(`<%- | Integer $port, String $host = 'localhost' | -%>`) when the hash the code gives
names a parameter the template does not have, leaves out one without a default, or
gives one a value its type refuses. The message is Puppet's, listing every problem as
Puppet does.

The template is read where `epp()` finds it: `templates/` of the module the name
starts with, on the modulepath around the checked files; `inline_epp()`'s is the text
the code gives, when the evaluation knows it. Only hashes whose every value
the code fixes are judged.

## Why it matters
The catalog does not compile: every node whose catalog renders the template fails.

## Example
```puppet
# templates/ntp.conf.epp starts with <%- | Array[String] $servers | -%>
file { '/etc/ntp.conf':
  content => epp('ntp/ntp.conf.epp', { 'server' => 'pool.ntp.org' }),
}
```

## How to fix
Give the template the parameters its tag declares, with values of their types.
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
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
            [_, hash] => match ctx.inference().value(hash) {
                Some(AbstractValue::Known(Value::Hash(map))) => Some((**map).clone()),
                _ => None,
            },
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

fn refused(
    resolver: &mut Resolver,
    parameters: &[crate::ast::Parameter],
    given: &indexmap::IndexMap<Value, Value>,
) -> Option<Vec<String>> {
    let mut problems = Vec::new();
    for key in given.keys() {
        let Value::String(key) = key else {
            return None;
        };
        if !parameters.iter().any(|p| p.name.name == **key) {
            problems.push(format!("has no parameter named '{key}'"));
        }
    }
    for p in parameters {
        let name = &p.name.name;
        match given.get(&Value::string(name)) {
            // undef leaves the default.
            None | Some(Value::Undef) if p.default.is_some() => {}
            None => problems.push(format!("expects a value for parameter '{name}'")),
            Some(value) => {
                let Some(type_expr) = &p.type_expr else {
                    continue;
                };
                let known = AbstractValue::Known(value.clone());
                if let Some(why) = mismatch(resolver, type_expr, name, &known, Undef::IsAValue) {
                    problems.extend(why);
                }
            }
        }
    }
    (!problems.is_empty()).then_some(problems)
}
