//! The rule runner: runs the rules a file's settings enable on it, through one
//! [`FileContext`], in one walk over its expressions (oxc's and ruff's dispatch) plus each
//! whole-file check; then applies the file's suppression comments and the configured
//! severities.

use crate::analysis::code_map::CodeMap;
use crate::analysis::context::{FileContext, Prepared};
use crate::analysis::suppressions::Suppressions;
use crate::ast::{ExprTag, Program};
use crate::config::Settings;
use crate::diagnostics::Diagnostic;
use crate::rules::{self, Check, ExprCheck, Rule};
use crate::source::SourceFile;

/// Runs the rules the settings enable on a parsed file, adding to the diagnostics the
/// syntax layer found, applies the file's suppression comments to all of them (syntax
/// errors cannot be suppressed), then the configured severities.
pub fn check_file(
    source: &SourceFile,
    program: &Program,
    settings: &Settings,
    env: &crate::env::Environment,
    threads: RuleThreads,
    prepared: Prepared,
    diagnostics: &mut Vec<Diagnostic>,
) {
    with_prepared_context(source, program, settings, env, prepared, |ctx| {
        check_in_context(ctx, settings, threads, diagnostics)
    })
}

/// How the rules of one file use the cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleThreads {
    /// All on the calling thread: a run of many files keeps every core busy with files.
    One,
    /// Each rule's check of the whole file, and each category's walk over the
    /// expressions, a task of its own on rayon's threads, sharing the file's context
    /// (its interpretation a task too, started first, while the rules that do not read
    /// it go on): for a run of a file or two (a pre-commit hook, an editor), whose
    /// other cores would wait. The findings are the same; only their order before
    /// sorting differs.
    Split,
}

/// Runs `f` with what the rules see of a parsed file (also for questions about one
/// file, such as `pupcheck explain`).
pub fn with_context<R>(
    source: &SourceFile,
    program: &Program,
    settings: &Settings,
    env: &crate::env::Environment,
    f: impl FnOnce(&FileContext) -> R,
) -> R {
    with_prepared_context(source, program, settings, env, Prepared::default(), f)
}

fn with_prepared_context<R>(
    source: &SourceFile,
    program: &Program,
    settings: &Settings,
    env: &crate::env::Environment,
    prepared: Prepared,
    f: impl FnOnce(&FileContext) -> R,
) -> R {
    let code = CodeMap::new(source, program);
    let exprs = crate::ast::preorder(program);
    let suppressions = Suppressions::read(source, program, |name| rules::find(name).map(|r| r.id));
    f(&FileContext::new(
        source,
        program,
        &code,
        exprs,
        &settings.options,
        &suppressions,
        env,
    )
    .with_prepared(prepared))
}

fn check_in_context(
    ctx: &FileContext,
    settings: &Settings,
    threads: RuleThreads,
    diagnostics: &mut Vec<Diagnostic>,
) {
    // The syntax layer's warnings (unrecognized-escape) are found while parsing, for
    // every file; they are kept only where their rule is selected.
    diagnostics.retain(|d| {
        crate::diagnostics::rule_ids::ALWAYS_REPORTED.contains(&d.rule)
            || rules::find(d.rule.as_str()).is_none_or(|rule| settings.rules.is_enabled(rule))
    });
    let enabled: Vec<&'static Rule> = settings.rules.enabled().collect();
    match threads {
        RuleThreads::One => run_rules(ctx, &enabled, diagnostics),
        RuleThreads::Split => {
            // The interpretation first, the longest single piece of work; the rules
            // that do not read it next, on the other threads meanwhile; those that
            // read it last (a thread that reaches one before the interpretation is
            // done waits for it). Started in this order (`run_in_order`): rayon's
            // halving of a list gave the other thread type rules to wait on while the
            // rules after them were left for later.
            let (readers, others): (Vec<&Rule>, Vec<&Rule>) =
                enabled.iter().partition(|rule| rule.reads_interpretation());
            let mut tasks: Vec<RuleTask> = Vec::new();
            if !readers.is_empty() {
                tasks.push(RuleTask::Interpret);
            }
            for rules in [&others, &readers] {
                tasks.extend(rules.iter().filter_map(|r| r.check).map(RuleTask::Check));
                tasks.push(RuleTask::Walk(rules));
            }
            let found: Vec<Result<Vec<Diagnostic>, String>> = run_in_order(&tasks, |task| {
                let mut found = Vec::new();
                // (A panic is the file's internal error, raised on the file's thread.)
                super::catch_part_panic(|| task.run(ctx, &mut found)).map(|()| found)
            });
            for found in found {
                diagnostics.extend(found.unwrap_or_else(|what| super::resume_part_panic(what)));
            }
        }
    }
    drop_syntax_cascades(ctx, diagnostics);
    super::suppress::apply(ctx, &settings.rules, diagnostics);
    // A configured severity replaces the rule's; a rule that gives some findings
    // another severity of its own (metaparameter-name's errors) keeps it by default.
    for d in diagnostics.iter_mut() {
        if let Some(severity) = settings.rules.severity_override(d.rule) {
            d.severity = severity;
        }
    }
}

/// Drops the errors rules find on a line where a syntax error starts: Puppet reports
/// only the parse error, and what the rules judge there is the tree's recovery from it
/// (a merge conflict's `<<<<<<< HEAD` makes `class vcsrepo {` a misplaced top-level
/// statement naming a class the code does not define). Warnings stay: the style of a
/// line does not depend on its parsing.
fn drop_syntax_cascades(ctx: &FileContext, diagnostics: &mut Vec<Diagnostic>) {
    use crate::diagnostics::{rule_ids, Severity};
    let line = |d: &Diagnostic| ctx.source.lines.line_of(d.span.start);
    let mut broken: Vec<usize> = diagnostics
        .iter()
        .filter(|d| d.rule == rule_ids::SYNTAX_ERROR)
        .map(line)
        .collect();
    if broken.is_empty() {
        return;
    }
    broken.sort_unstable();
    diagnostics.retain(|d| {
        d.severity != Severity::Error
            || rule_ids::ALWAYS_REPORTED.contains(&d.rule)
            || broken.binary_search(&line(d)).is_err()
    });
}

/// `run` on every item, on rayon's threads, each thread taking the first item no thread
/// has taken yet, so items start in their order (a parallel iterator splits the list in
/// halves, and a thread takes the last ones early); the results in the items' order.
fn run_in_order<T: Sync, R: Send>(items: &[T], run: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    rayon::scope(|scope| {
        for _ in 0..rayon::current_num_threads().clamp(1, items.len().max(1)) {
            scope.spawn(|_| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else {
                    break;
                };
                let result = run(item);
                *results[index].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item was run")
        })
        .collect()
}

/// A part of the rules' work on a file that runs on its own ([`RuleThreads::Split`]).
enum RuleTask<'r> {
    /// The file's interpretation, which the type rules read.
    Interpret,
    /// A rule's check of the whole file.
    Check(Check),
    /// One walk over the expressions for these rules' checks of expressions.
    Walk(&'r [&'static Rule]),
}

impl RuleTask<'_> {
    fn run(&self, ctx: &FileContext, diagnostics: &mut Vec<Diagnostic>) {
        match self {
            RuleTask::Interpret => {
                ctx.interpreted();
            }
            RuleTask::Check(check) => check.run(ctx, diagnostics),
            RuleTask::Walk(rules) => walk_exprs(ctx, rules, diagnostics),
        }
    }
}

/// Runs `rules` on the file: each one's check of the whole file, then one walk over
/// the expressions calling each rule on the kinds it looks at.
fn run_rules(ctx: &FileContext, rules: &[&'static Rule], diagnostics: &mut Vec<Diagnostic>) {
    for rule in rules {
        if let Some(check) = rule.check {
            check.run(ctx, diagnostics);
        }
    }
    walk_exprs(ctx, rules, diagnostics);
}

/// One walk over the file's expressions calling each of `rules` on the kinds of
/// expression it looks at.
fn walk_exprs(ctx: &FileContext, rules: &[&'static Rule], diagnostics: &mut Vec<Diagnostic>) {
    let mut by_kind: [Vec<ExprCheck>; ExprTag::COUNT] = std::array::from_fn(|_| Vec::new());
    for rule in rules {
        if let Some(on_expr) = &rule.on_expr {
            for kind in on_expr.kinds {
                by_kind[*kind as usize].push(on_expr.visit);
            }
        }
    }
    if by_kind.iter().any(|visits| !visits.is_empty()) {
        for &expr in &ctx.exprs {
            for visit in &by_kind[expr.kind.tag() as usize] {
                visit.run(ctx, expr, diagnostics);
            }
        }
    }
}
