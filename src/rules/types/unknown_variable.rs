use crate::rules::{Category, FileContext, Rule};
use crate::ast::ExprKind;
use crate::diagnostics::{Diagnostic, Severity};
use crate::env::Environment;

pub static RULE: Rule = Rule {
    id: "unknown-variable",
    summary: "A variable is read that no scope sets",
    category: Category::Type,
    severity: Severity::Error,
    enabled_by_default: true,
    fixable: false,
    puppet_lint: None,
    docs: "\
## What it does
Reports a variable Puppet cannot find when it reads it:
- a qualified variable (`$ntp::servers`) of a class pupcheck has read whose body sets
  no such variable on any path, has no such parameter, and inherits from no class that
  has one, or of a class no module on the modulepath defines;
- in a class, defined type or function, a variable without a namespace that is not
  one of its parameters, not assigned in it before the read (in the body, or in the
  lambda the read is in), not set by the class it inherits from, not set at top scope
  or in a node definition by the environment's manifests, not a fact Facter or the
  modules define, and not one of the variables Puppet sets (`$title`, `$name`,
  `$facts`, `$trusted`, metaparameters, ...);
- at top scope, a variable read before the top scope assigns it (`$x = $x + 1`), a
  lambda's own variable read after the lambda, and a name one letter from a variable
  that is set there.

Classes pupcheck has not read, classes whose body holds a syntax error, names tested
with `defined('$x')`, and top-scope reads of other names (which the node classifier may
set) are not judged. Variables that the node classifier (ENC) or facts on the agents
set at top scope can be named in `top-scope-variables` in `pupcheck.toml` (names and
the names they start).

## Why it matters
With `strict_variables`, the default from Puppet 8, the compile fails (\"Unknown
variable: 'ntp::servers'.\"); Puppet 7 by default reads the variable as `undef` and
warns. It is most often a typo, a variable the class no longer sets, or a lambda's
variable used after the lambda.

An error by default, as in Puppet 8; `strict-variables = false` in `pupcheck.toml`
makes it a warning, for estates on Puppet 7's default.

## Example
```puppet
class ntp (Array[String] $servers = []) {
  $servers.each |$server| { $line = \"server ${server}\" }
  notice($line)
}
notice($ntp::server)
```

## How to fix
Name a variable that is set (`$ntp::servers`), set it before it is read, or return
what a lambda computes (`$lines = $servers.map |$server| { ... }`).
",
    check: Some(check),
};

fn check(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    check_qualified(ctx, out);
    if ctx.source.kind == crate::source::SourceKind::Manifest {
        check_unqualified(ctx, out);
    }
}

/// Puppet 7 without strict_variables only warns.
fn severity(ctx: &FileContext) -> Severity {
    if ctx.settings.strict_variables {
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
        let Some((class, variable)) = written.trim_start_matches("::").rsplit_once("::") else {
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
            format!("Unknown variable: '{}'.", written.trim_start_matches("::")),
        );
        if missing_class {
            diagnostic = diagnostic.with_note(format!(
                "no module on the modulepath defines a class '{class}'"
            ));
        }
        out.push(diagnostic);
    }
}

/// Variables Puppet sets in every scope: the top scope's (what the server sets,
/// beside the facts) and those of every class and defined type.
const ALWAYS_SET: &[&str] = &[
    "facts",
    "trusted",
    "server_facts",
    "environment",
    "clientcert",
    "clientversion",
    "clientnoop",
    "servername",
    "serverip",
    "serverversion",
    "agent_specified_environment",
    "title",
    "name",
    "module_name",
    "caller_module_name",
];

/// Metaparameters: a class or defined type declared with one has it as a variable.
const METAPARAMETERS: &[&str] = &[
    "alias",
    "audit",
    "before",
    "consume",
    "export",
    "loglevel",
    "noop",
    "notify",
    "require",
    "schedule",
    "stage",
    "subscribe",
    "tag",
];

fn check_unqualified(ctx: &FileContext, out: &mut Vec<Diagnostic>) {
    use crate::analysis::variables::{variable_reads, Place};
    let reads = variable_reads(ctx.program);
    for read in &reads.unresolved {
        let name = read.name;
        if ALWAYS_SET.contains(&name)
            || reads.tested_with_defined.contains(name)
            || may_be_set_outside(ctx, name)
        {
            continue;
        }
        let slip = slip_of(name, &read.visible);
        let note = match &read.place {
            Place::TopScope if read.assigned_later_at_top => {
                "the top scope assigns it only after this read".to_string()
            }
            // Any other name may be one the node classifier sets.
            Place::TopScope | Place::Node
                if read.lambda_variable.is_none() && slip.is_none() =>
            {
                continue
            }
            Place::TopScope | Place::Node => String::new(),
            Place::Class { .. } | Place::Define | Place::Function
                if reads.assigned_at_top.contains(name)
                    || METAPARAMETERS.contains(&name) && read.place != Place::Function =>
            {
                continue
            }
            Place::Class {
                parent: Some(parent),
            } if has_variable(ctx.env, parent, name, 0) != Some(false) => continue,
            Place::Class { .. } | Place::Define | Place::Function => format!(
                "no scope of the {} sets '${name}' before this read, the environment's \
                 manifests do not set it at top scope, and no fact Facter or the modules \
                 define has its name; a variable the node classifier or a fact on the \
                 agents sets can be named in `top-scope-variables` in pupcheck.toml",
                match read.place {
                    Place::Class { .. } => "class",
                    Place::Define => "defined type",
                    _ => "function",
                }
            ),
        };
        let mut diagnostic = Diagnostic::new(
            RULE.id,
            severity(ctx),
            read.span,
            format!("Unknown variable: '{name}'."),
        );
        if let Some(lambda) = read.lambda_variable {
            diagnostic = diagnostic.with_label(
                lambda,
                format!("'${name}' is this lambda's own variable, not visible after it"),
            );
        }
        if !note.is_empty() {
            diagnostic = diagnostic.with_note(note);
        }
        if let Some(near) = slip.or_else(|| crate::analysis::text::nearest(name, read.visible.iter().copied())) {
            diagnostic = diagnostic.with_note(format!("did you mean '${near}'?"));
        }
        out.push(diagnostic);
    }
}

/// Whether something outside the file's bodies may set `name` where an unqualified
/// read finds it: a fact (Facter's, or the modules' custom and external facts), a
/// variable the configuration names, or one another file sets at top or node scope.
fn may_be_set_outside(ctx: &FileContext, name: &str) -> bool {
    crate::env::builtin::facts::is_known(name)
        || ctx.env.modules_may_define_fact(name)
        || ctx
            .settings
            .top_scope_variables
            .iter()
            .any(|v| name.starts_with(v.trim_start_matches("::")))
        || ctx
            .env
            .top_scope_variable_outside(name, &ctx.source.path)
}

/// A visible name `name` is a slip of: one edit away (two for long names); short
/// names are too near each other to tell.
fn slip_of<'a>(name: &str, visible: &[&'a str]) -> Option<&'a str> {
    if name.len() < 4 {
        return None;
    }
    let allowed = if name.len() >= 8 { 2 } else { 1 };
    visible
        .iter()
        .map(|v| (strsim::damerau_levenshtein(name, v), *v))
        .filter(|(distance, _)| (1..=allowed).contains(distance))
        .min()
        .map(|(_, v)| v)
}

/// Whether the class `class` (or one it inherits from) has the variable; `None` when
/// that is not known (a class not read, or not read whole).
fn has_variable(env: &Environment, class: &str, variable: &str, depth: usize) -> Option<bool> {
    // Every class scope has these; an inheritance chain this long is a cycle.
    if matches!(
        variable,
        "title" | "name" | "module_name" | "caller_module_name"
    ) || depth > 32
    {
        return (depth <= 32).then_some(true);
    }
    let definition = env.class(class)?;
    let variables = definition.variables.as_ref()?;
    if variables.iter().any(|v| v == variable) || definition.param(variable).is_some() {
        return Some(true);
    }
    match &definition.parent {
        Some(parent) => has_variable(env, parent, variable, depth + 1),
        None => Some(false),
    }
}
