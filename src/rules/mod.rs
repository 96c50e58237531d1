//! The rule catalogue: one file per rule, its metadata and documentation next to its
//! code, in the folder of its category (ruff's layout): `syntax/`, `validation/`,
//! `types/` (the rules of [`Category::Type`]: `type` is a keyword), `style/`,
//! `documentation/`, and `security/` once there is a security rule. A rule reads a file's
//! AST and text through a [`FileContext`] and pushes diagnostics; it never prints. What
//! several rules share and is not a rule (which spans are code, definitions,
//! declarations, naming patterns) is in `crate::analysis`.
//!
//! Adding a rule: write `src/rules/<category>/<module>.rs` (the module named after the
//! rule's id, `-` as `_`) with a `pub static RULE: Rule` of that category, name it once,
//! as `<category>::<module>`, in the `declare_rules!` list below (its place there is its
//! place in [`ALL`]), add `rules/<id>/fail.pp` and `rules/<id>/pass.pp` (examples with
//! inline expectations, see `tests/rules.rs`) and run `PUPCHECK_UPDATE_RULES=1 cargo test
//! --test rules` to write its `rules/<id>/README.md` from the metadata.

use crate::ast::{Expr, ExprTag, Program};
use crate::config::Settings;
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceFile;
use serde::Serialize;

pub use crate::analysis::text::CodeMap;

/// Declares the catalogue from one list of `folder::module` entries, one per rule in
/// `src/rules/<folder>/<module>.rs`: each folder's `mod` declarations (a module of the
/// catalogue, private to the crate) and [`ALL`], in the order of the list. A rule whose
/// `category` is not its folder's is a compile error.
macro_rules! declare_rules {
    ($($folder:ident :: $rule:ident),* $(,)?) => {
        declare_rules!(@folder syntax = Syntax; $($folder::$rule),*);
        declare_rules!(@folder validation = Validation; $($folder::$rule),*);
        declare_rules!(@folder types = Type; $($folder::$rule),*);
        declare_rules!(@folder style = Style; $($folder::$rule),*);
        declare_rules!(@folder documentation = Documentation; $($folder::$rule),*);
        declare_rules!(@folder security = Security; $($folder::$rule),*);

        /// Every rule, in the order of its declaration (`pupcheck rules --format json`
        /// lists them so).
        pub static ALL: &[&Rule] = &[$(&$folder::$rule::RULE),*];

        /// `(folder, module)` of every rule, for the test that no rule file is left out.
        #[cfg(test)]
        const DECLARED: &[(&str, &str)] = &[$((stringify!($folder), stringify!($rule))),*];
    };
    // One category's folder: the modules of its rules, each held to the category.
    (@folder $name:ident = $category:ident; $($folder:ident :: $rule:ident),*) => {
        #[doc = concat!("The rules of [`Category::", stringify!($category), "`] (`src/rules/",
            stringify!($name), "/`).")]
        pub(crate) mod $name {
            $(declare_rules!(@if $name = $folder { pub(crate) mod $rule; });)*
        }
        $(declare_rules!(@if $name = $folder {
            const _: () = assert!(
                matches!($folder::$rule::RULE.category, Category::$category),
                concat!("src/rules/", stringify!($folder), "/", stringify!($rule),
                    ".rs: its RULE's category is not Category::", stringify!($category))
            );
        });)*
    };
    // `$($t)*` when the two folder names are the same word (macro_rules cannot compare
    // two fragments, so one arm per folder).
    (@if syntax = syntax { $($t:tt)* }) => { $($t)* };
    (@if validation = validation { $($t:tt)* }) => { $($t)* };
    (@if types = types { $($t:tt)* }) => { $($t)* };
    (@if style = style { $($t:tt)* }) => { $($t)* };
    (@if documentation = documentation { $($t:tt)* }) => { $($t)* };
    (@if security = security { $($t:tt)* }) => { $($t)* };
    (@if $a:ident = $b:ident { $($t:tt)* }) => {};
}

// The catalogue. The order is that of `ALL`, which `pupcheck rules --format json` prints.
declare_rules! {
    types::access,
    validation::appends_deletes,
    style::arrow_alignment,
    style::arrow_on_right_operand_line,
    types::assert_type,
    validation::attribute_append_outside_override,
    style::autoloader_layout,
    validation::captures_rest_not_last,
    validation::captures_rest_not_supported,
    style::case_without_default,
    style::class_inherits_from_params_class,
    validation::class_not_virtualizable,
    style::code_on_top_scope,
    types::conversion,
    validation::cross_scope_assignment,
    types::division_by_zero,
    documentation::documentation,
    style::double_quoted_strings,
    validation::duplicate_default,
    validation::duplicate_key,
    validation::duplicate_parameter,
    validation::duplicate_resource_attribute,
    style::ensure_first_param,
    style::ensure_not_symlink_target,
    types::epp_parameter_type,
    types::evaluation_error,
    style::file_mode,
    types::function_argument_mismatch,
    style::hard_tabs,
    validation::idem_expression,
    validation::idem_last,
    validation::illegal_assignment,
    validation::illegal_assignment_context,
    validation::illegal_definition_location,
    validation::illegal_definition_name,
    validation::illegal_epp_parameters,
    validation::illegal_expression,
    validation::illegal_hostname,
    validation::illegal_parameter_name,
    validation::illegal_query_expression,
    validation::illegal_top_construct_location,
    validation::illegal_type_mapping,
    validation::illegal_variable_name,
    validation::indexed_assignment,
    style::inherits_across_namespaces,
    syntax::internal_error,
    types::invalid_attribute_value,
    style::legacy_facts,
    style::line_longer_than_80,
    style::line_too_long,
    documentation::metadata_json,
    validation::metaparameter_name,
    validation::multiple_attributes_unfold,
    style::names_containing_dash,
    style::names_containing_uppercase,
    style::nested_classes_or_defines,
    validation::node_inheritance,
    validation::not_absolute_top_level,
    validation::not_rvalue,
    validation::not_top_level,
    validation::not_virtualizable,
    validation::numeric_assignment,
    validation::numeric_overflow,
    validation::numeric_parameter_name,
    style::only_variable_string,
    types::operator_type,
    types::parameter_default_type,
    style::parameter_order,
    types::parameter_type_mismatch,
    types::possibly_unknown_variable,
    style::params_empty_string_assignment,
    style::puppet_url_without_modules,
    style::quoted_booleans,
    validation::reserved_parameter,
    validation::reserved_type_name,
    validation::reserved_variable_assignment,
    validation::reserved_word,
    types::return_type,
    types::revealed_type,
    style::right_to_left_relationship,
    style::selector_inside_resource,
    types::selector_no_match,
    style::single_quote_string_with_variables,
    style::slash_comments,
    style::soft_tabs,
    style::space_before_arrow,
    style::star_comments,
    style::strict_indent,
    style::suppress,
    syntax::syntax_error,
    style::top_scope_facts,
    style::trailing_comma,
    style::trailing_whitespace,
    types::unknown_attribute,
    types::unknown_class,
    documentation::undeclared_dependency,
    types::unknown_fact,
    types::unknown_function,
    types::unknown_parameter,
    types::missing_parameter,
    types::hiera_config,
    types::hiera_lookup_type,
    types::hiera_missing_key,
    types::hiera_parameter_type,
    types::hiera_syntax,
    types::hiera_unknown_key,
    types::unknown_variable,
    style::unquoted_file_mode,
    style::unquoted_node_name,
    style::unquoted_resource_title,
    syntax::unreadable_file,
    validation::unrecognized_escape,
    validation::unsupported_expression,
    style::variable_contains_dash,
    style::variable_is_lowercase,
    style::variable_scope,
    style::variables_not_enclosed,
}

/// What a rule is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// The file cannot be read or parsed.
    Syntax,
    /// Puppet's validator rejects the code (it parses, but is illegal).
    Validation,
    /// A value does not match a type.
    Type,
    /// Formatting and conventions (most of puppet-lint).
    Style,
    /// Missing or wrong documentation.
    Documentation,
    /// Code that risks a security problem.
    Security,
}

impl Category {
    pub const ALL: [Category; 6] = [
        Category::Syntax,
        Category::Validation,
        Category::Type,
        Category::Style,
        Category::Documentation,
        Category::Security,
    ];

    /// The category called `name` (`style`).
    pub fn from_name(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Category::Syntax => "syntax",
            Category::Validation => "validation",
            Category::Type => "type",
            Category::Style => "style",
            Category::Documentation => "documentation",
            Category::Security => "security",
        }
    }
}

/// A file as the rules see it.
pub struct FileContext<'a> {
    pub source: &'a SourceFile,
    pub program: &'a Program,
    /// Where the code is, as opposed to strings and comments (for text-level rules).
    pub code: &'a CodeMap,
    /// Every expression, outermost first, in source order (`crate::analysis::text::each_expr`).
    pub exprs: Vec<&'a crate::ast::Expr>,
    /// The configuration the file is checked with.
    pub settings: &'a Settings,
    /// What the other files of the run and their modules define (partial: a name it
    /// lacks is unknown, not missing).
    pub env: &'a crate::env::Environment,
    /// The evaluation of the file's bodies, made the first time a rule asks for it.
    inference: std::sync::OnceLock<crate::infer::FileInference>,
    /// The unqualified variable reads Puppet cannot answer, found on first use.
    unset_reads: std::sync::OnceLock<Vec<crate::analysis::unset_variables::UnsetRead>>,
    /// Where fixes may replace a variable reference, found on first use.
    variable_sites: std::sync::OnceLock<crate::analysis::text::VariableSites>,
    /// The tokens of each resource body, found on first use.
    resource_bodies: std::sync::OnceLock<Vec<Vec<crate::analysis::resource_tokens::Token>>>,
}

impl FileContext<'_> {
    /// The evaluation of the file's bodies ([`crate::infer`]), shared by every rule.
    pub fn inference(&self) -> &crate::infer::FileInference {
        self.inference
            .get_or_init(|| crate::infer::FileInference::infer(self))
    }

    /// The unqualified variable reads Puppet cannot answer
    /// ([`crate::analysis::unset_variables`]), shared by the rules reporting them.
    pub fn unset_reads(&self) -> &[crate::analysis::unset_variables::UnsetRead] {
        self.unset_reads
            .get_or_init(|| crate::analysis::unset_variables::unset_reads(self))
    }

    /// Where a fix may put code in place of a variable reference
    /// ([`crate::analysis::text::VariableSites`]), shared by the rules whose fixes do.
    pub fn variable_sites(&self) -> &crate::analysis::text::VariableSites {
        self.variable_sites
            .get_or_init(|| crate::analysis::text::VariableSites::of(self))
    }

    /// The tokens of every resource body ([`crate::analysis::resource_tokens`]), shared
    /// by the rules that look at arrows.
    pub fn resource_body_tokens(&self) -> &[Vec<crate::analysis::resource_tokens::Token>] {
        self.resource_bodies
            .get_or_init(|| crate::analysis::resource_tokens::resource_body_tokens(self))
    }
}

/// A rule: metadata, documentation and the check.
pub struct Rule {
    /// Stable, kebab-case.
    pub id: &'static str,
    pub summary: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub enabled_by_default: bool,
    pub fixable: bool,
    /// Whether the rule reads the file's interpretation (`FileContext::inference`):
    /// a check of one file starts the rules that do not while it is made, and those
    /// that do after them (a rule declaring it wrongly only waits, or is waited for).
    pub reads_interpretation: bool,
    /// The puppet-lint check this rule reproduces, if any.
    pub puppet_lint: Option<&'static str>,
    /// Markdown: "What it does", "Why it matters", "Example", "How to fix".
    pub docs: &'static str,
    /// A check of the whole file, run once (`None` for diagnostics produced by the
    /// syntax layer or the file reader, and for rules that only look at expressions).
    pub check: Option<fn(&FileContext, &mut Vec<Diagnostic>)>,
    /// What the rule looks at in the one walk over the file's expressions.
    pub on_expr: Option<ExprVisit>,
}

/// A rule's part of the one walk over a file's expressions: called on each expression
/// of the kinds it names, in source order, outermost first (oxc's `run`, ruff's
/// expression dispatch). A rule that needs the whole file at once has a `check`.
pub struct ExprVisit {
    pub kinds: &'static [ExprTag],
    pub visit: ExprCheck,
}

/// A rule's check of one expression.
pub type ExprCheck = fn(&FileContext, &Expr, &mut Vec<Diagnostic>);

impl Rule {
    /// Whether the rule checks files itself (rather than naming the diagnostics the
    /// syntax layer or the file reader produce).
    pub fn checks_files(&self) -> bool {
        self.check.is_some() || self.on_expr.is_some()
    }

    pub fn diagnostic(
        &'static self,
        span: crate::source::Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, span, message)
    }
}

/// The rule with this id, or with this puppet-lint check name.
pub fn find(name: &str) -> Option<&'static Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.id == name || r.puppet_lint == Some(name))
}

/// Runs the rules the settings enable on a parsed file, adding to the diagnostics the
/// syntax layer found, applies the file's suppression comments to all of them (syntax
/// errors cannot be suppressed), then the configured severities.
pub fn check_file(
    source: &SourceFile,
    program: &Program,
    settings: &Settings,
    env: &crate::env::Environment,
    threads: RuleThreads,
    diagnostics: &mut Vec<Diagnostic>,
) {
    with_context(source, program, settings, env, |ctx| {
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
    let code = CodeMap::new(source, program);
    let exprs = crate::analysis::text::preorder(program);
    f(&FileContext::new(
        source, program, &code, exprs, settings, env,
    ))
}

impl<'a> FileContext<'a> {
    fn new(
        source: &'a SourceFile,
        program: &'a Program,
        code: &'a CodeMap,
        exprs: Vec<&'a crate::ast::Expr>,
        settings: &'a Settings,
        env: &'a crate::env::Environment,
    ) -> FileContext<'a> {
        FileContext {
            source,
            program,
            code,
            exprs,
            settings,
            env,
            inference: Default::default(),
            unset_reads: Default::default(),
            variable_sites: Default::default(),
            resource_bodies: Default::default(),
        }
    }
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
            || find(d.rule).is_none_or(|rule| settings.rules.is_enabled(rule))
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
                enabled.iter().partition(|rule| rule.reads_interpretation);
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
                crate::check::catch_part_panic(|| task.run(ctx, &mut found)).map(|()| found)
            });
            for found in found {
                diagnostics
                    .extend(found.unwrap_or_else(|what| crate::check::resume_part_panic(what)));
            }
        }
    }
    style::suppress::apply(ctx, diagnostics);
    // A configured severity replaces the rule's; a rule that gives some findings
    // another severity of its own (metaparameter-name's errors) keeps it by default.
    for d in diagnostics.iter_mut() {
        if let Some(severity) = settings.rules.severity_override(d.rule) {
            d.severity = severity;
        }
    }
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
    Check(fn(&FileContext, &mut Vec<Diagnostic>)),
    /// One walk over the expressions for these rules' checks of expressions.
    Walk(&'r [&'static Rule]),
}

impl RuleTask<'_> {
    fn run(&self, ctx: &FileContext, diagnostics: &mut Vec<Diagnostic>) {
        match self {
            RuleTask::Interpret => {
                ctx.inference();
            }
            RuleTask::Check(check) => check(ctx, diagnostics),
            RuleTask::Walk(rules) => walk_exprs(ctx, rules, diagnostics),
        }
    }
}

/// Runs `rules` on the file: each one's check of the whole file, then one walk over
/// the expressions calling each rule on the kinds it looks at.
fn run_rules(ctx: &FileContext, rules: &[&'static Rule], diagnostics: &mut Vec<Diagnostic>) {
    for rule in rules {
        if let Some(check) = rule.check {
            check(ctx, diagnostics);
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
                visit(ctx, expr, diagnostics);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DECLARED;

    /// Every `src/rules/<folder>/<module>.rs` is declared (a file left out of the list
    /// would not even be compiled), and declared once; `mod.rs` is the only file outside
    /// a folder.
    #[test]
    fn every_rule_file_is_declared() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files = Vec::new();
        for folder in std::fs::read_dir(&root).unwrap() {
            let folder = folder.unwrap();
            if !folder.file_type().unwrap().is_dir() {
                assert_eq!(
                    folder.file_name(),
                    "mod.rs",
                    "a rule belongs in its category's folder"
                );
                continue;
            }
            for file in std::fs::read_dir(folder.path()).unwrap() {
                let path = file.unwrap().path();
                if path.extension().is_some_and(|e| e == "rs") {
                    let module = path.file_stem().unwrap().to_string_lossy().into_owned();
                    files.push((folder.file_name().to_string_lossy().into_owned(), module));
                }
            }
        }
        files.sort();
        let mut declared: Vec<(String, String)> = DECLARED
            .iter()
            .map(|(f, m)| (f.to_string(), m.to_string()))
            .collect();
        declared.sort();
        assert_eq!(files, declared);
    }

    /// A rule whose file reads the interpretation, itself or through the helpers that
    /// do, says so (else a check of one file would start it early, and a thread would
    /// wait on the interpretation instead of running the rules that do not read it).
    #[test]
    fn rules_reading_the_interpretation_declare_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        const READING: &[&str] = &[
            "inference()",
            "evaluation_error::report",
            "each_declaration",
            "each_ruby_resource",
            "unusable_defaults",
        ];
        for (rule, (folder, module)) in super::ALL.iter().zip(DECLARED) {
            let text =
                std::fs::read_to_string(root.join(folder).join(format!("{module}.rs"))).unwrap();
            let reads = READING.iter().any(|call| text.contains(call));
            assert_eq!(rule.reads_interpretation, reads, "{}", rule.id);
        }
    }
}
