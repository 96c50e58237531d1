//! Which unqualified variable reads Puppet cannot answer ([`super::variables`] lists
//! those no scope of their body answers; here the environment judges the rest): a
//! read is *unknown* when the code shows the variable is its own (a slip of a visible
//! name, a lambda's variable read after the lambda, a read before the body's own
//! assignment), and *left to node data* when only the node classifier or a fact on
//! the agents could set it, which pupcheck cannot see.
//!
//! Architecture Invariant: a name that a fact (Facter's, or a module's), the
//! configuration's `top-scope-variables`, another file's top or node scope, the
//! environment's main manifest, the class's parent, or `defined('$x')` may answer is
//! never judged; nor a top-scope or node-scope read of a name the code does not show
//! to be its own (that is where node data is read).

use super::variables::{variable_reads, Place};
use crate::analysis::context::FileContext;
use crate::env::Environment;
use crate::source::Span;

/// What a read that fails finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The code shows the variable is its own, and it is not set there.
    Unknown,
    /// A class, defined type or function reads a name that only node data (the node
    /// classifier, an agent's fact) could set.
    LeftToNodeData,
}

#[derive(Debug)]
pub struct UnsetRead {
    pub name: String,
    pub span: Span,
    pub verdict: Verdict,
    /// The lambda whose own variable this is, read after it.
    pub lambda_variable: Option<Span>,
    /// Why, when the message does not say it.
    pub note: Option<String>,
    /// A visible name it may be a misspelling of.
    pub near: Option<String>,
}

/// The names a file's unanswered reads are compared with, in all (a few tenths of a
/// second).
const MAX_COMPARISONS: usize = 2_000_000;

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

/// The id of the rule whose suppression says a read is of a top-scope variable set
/// where pupcheck cannot see (`variable-scope`; its test holds the two the same).
pub const VARIABLE_SCOPE: crate::diagnostics::RuleId =
    crate::diagnostics::RuleId::declared("variable-scope");

/// The unqualified reads of the file that Puppet cannot answer.
pub fn unset_reads(ctx: &FileContext) -> Vec<UnsetRead> {
    if ctx.source.kind != crate::source::SourceKind::Manifest {
        return Vec::new();
    }
    let mut reads = variable_reads(ctx.program);
    if reads.unresolved.is_empty() {
        return Vec::new();
    }
    // `# lint:ignore:variable_scope` says the author reads a top-scope variable there
    // on purpose: one pupcheck cannot see is set (the node classifier's).
    let declared_top_scope = ctx.suppressions.lines_of(VARIABLE_SCOPE);
    let mut unset = Vec::new();
    // Names compared for a "did you mean" in the whole file: a big body of reads that
    // fail would otherwise compare each with every name before it. Past it a read gets
    // no near name, so the weaker verdict (left to node data), never a stronger one.
    let mut comparisons = MAX_COMPARISONS;
    for read in std::mem::take(&mut reads.unresolved) {
        let name = read.name;
        let line = ctx.source.position(read.span.start).line;
        let in_definition = !matches!(read.place, Place::TopScope | Place::Node);
        if ALWAYS_SET.contains(&name)
            || reads.tested_with_defined.contains(name)
            || in_definition && reads.assigned_at_top.contains(name)
            || matches!(read.place, Place::Class { .. } | Place::Define)
                && crate::builtin::is_metaparameter_or_retired(name)
            || may_be_set_outside(ctx, name)
            || declared_top_scope.iter().any(|lines| lines.contains(&line))
        {
            continue;
        }
        if let Place::Class {
            parent: Some(parent),
        } = &read.place
        {
            if has_variable(ctx.env, parent, name, 0) != Some(false) {
                continue;
            }
        }
        let visible = match comparisons.checked_sub(2 * reads.visible_count(&read)) {
            Some(left) => {
                comparisons = left;
                reads.visible(&read)
            }
            None => Vec::new(),
        };
        let near = slip_of(name, &visible);
        // Outside the top scope, `$x = f($x)` may read a top-scope `$x` and shadow it.
        let own_later = read.assigned_later
            && (read.place == Place::TopScope || !read.assigned_by_its_statement);
        let (verdict, note) = if own_later {
            (
                Verdict::Unknown,
                Some(format!("'${name}' is assigned only after this read")),
            )
        } else if read.lambda_variable.is_some() || near.is_some() {
            (Verdict::Unknown, None)
        } else if in_definition {
            let body = match read.place {
                Place::Class { .. } => "class",
                Place::Define => "defined type",
                _ => "function",
            };
            (
                Verdict::LeftToNodeData,
                Some(format!(
                    "no scope of the {body} sets '${name}', the environment's manifests do \
                     not set it at top scope, and no fact Facter or the modules define has \
                     its name: only the node classifier or a fact on the agents could set \
                     it (name those in `top-scope-variables` in pupcheck.toml)"
                )),
            )
        } else {
            // A top-scope or node-scope read of a name the code does not show to be its
            // own: where node data is read.
            continue;
        };
        let near = near.or_else(|| super::names::nearest(name, visible.iter().copied()));
        unset.push(UnsetRead {
            name: name.to_string(),
            span: read.span,
            verdict,
            lambda_variable: read.lambda_variable,
            note,
            near: near.map(str::to_string),
        });
    }
    unset
}

/// Whether something outside the file's bodies may set `name` where an unqualified
/// read finds it: a fact (Facter's, or the modules' custom and external facts), a
/// variable the configuration names, or one another file sets at top or node scope.
fn may_be_set_outside(ctx: &FileContext, name: &str) -> bool {
    crate::builtin::facts::is_known(name)
        || ctx.env.modules_may_define_fact(name)
        || ctx
            .options
            .top_scope_variables
            .iter()
            .any(|v| name.starts_with(v.trim_start_matches("::")))
        || ctx.env.top_scope_variable_outside(name, &ctx.source.path)
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
pub(crate) fn has_variable(
    env: &Environment,
    class: &str,
    variable: &str,
    depth: usize,
) -> Option<bool> {
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
