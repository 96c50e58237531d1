//! The rule catalogue: one file per rule, its metadata and documentation next to its
//! code, in the folder of its category (ruff's layout): `syntax/`, `validation/`,
//! `types/` (the rules of [`Category::Type`]: `type` is a keyword), `style/`,
//! `documentation/`, and `security/` once there is a security rule. A rule reads a file's
//! AST and text through a [`FileContext`] and pushes diagnostics; it never prints. What
//! several rules share and is not a rule (which spans are code, definitions,
//! declarations, naming patterns) is in `crate::analysis`.
//!
//! Adding a rule: write `src/rules/<category>/<module>.rs` (the module named after the
//! rule's id, `-` as `_`) with its `RULE` declared by `declare_rule!` in that category, name it once,
//! as `<category>::<module>`, in the `declare_rules!` list below (its place there is its
//! place in [`ALL`]), add `rules/<id>/fail.pp` and `rules/<id>/pass.pp` (examples with
//! inline expectations, see `tests/rules.rs`) and run `PUPCHECK_UPDATE_RULES=1 cargo test
//! --test rules` to write its `rules/<id>/README.md` from the metadata.

use crate::ast::{Expr, ExprTag};
use crate::diagnostics::{Diagnostic, RuleId, Severity};
use serde::Serialize;

pub use crate::analysis::code_map::CodeMap;
pub use crate::analysis::context::{FileContext, InterpretedFile};

/// Declares a rule's `RULE`: its documentation is the doc comment (Markdown: "What it
/// does", "Why it matters", "Example", "How to fix"), then its id, category and
/// severity, its summary, and what it differs in from [`Rule::DEFAULTS`]:
///
/// ```text
/// declare_rule! {
///     /// ## What it does
///     /// ...
///     "line-too-long" (Style, Warning)
///     "A line is longer than the configured limit"
///     { fixable, puppet_lint: "140chars", check }
/// }
/// ```
///
/// `check` is the file's `fn check(&FileContext, &mut Vec<Diagnostic>)`; `on_expr:
/// [Kind, ...]` its `fn check_expr(&FileContext, &Expr, &mut Vec<Diagnostic>)`, called
/// on the expressions of those kinds. After `reads_interpretation` (written before
/// them) they take an [`InterpretedFile`] instead, the only way to the record of the
/// file's interpretation: the compiler holds the flag to what the checks read.
/// `reports_failures: Kind` is the whole check of a rule that reports the failures of
/// one [`crate::eval::FailureKind`] the interpretation found. `reads_catalog` (before
/// `check`) marks a rule that reads what the environment's catalogs raise
/// ([`crate::catalog`]): a run assembles them when one is selected. `fixable`,
/// `off_by_default` and `puppet_lint: "name"` say the rest.
macro_rules! declare_rule {
    (
        $(#[doc = $doc:literal])*
        $id:literal ($category:ident, $severity:ident)
        $summary:literal
        $({ $($flags:tt)* })?
    ) => {
        declare_rule!(@build File [
            id: $crate::diagnostics::RuleId::declared($id),
            summary: $summary,
            category: $crate::rules::Category::$category,
            severity: $crate::diagnostics::Severity::$severity,
            docs: concat!($($doc, "\n"),*),
        ] $($($flags)*)?);
    };
    // One flag at a time, into the fields that differ from the defaults; `File` or
    // `Interpreted` (after `reads_interpretation`) is what the checks take.
    (@build $takes:ident [$($done:tt)*] check $(, $($rest:tt)*)?) => {
        declare_rule!(@build $takes [$($done)* check: Some($crate::rules::Check::$takes(check)),]
            $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] on_expr: [$($kind:ident),* $(,)?] $(, $($rest:tt)*)?) => {
        declare_rule!(@build $takes [$($done)* on_expr: Some($crate::rules::ExprVisit {
            kinds: &[$($crate::ast::ExprTag::$kind),*],
            visit: $crate::rules::ExprCheck::$takes(check_expr),
        }),] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] reports_failures: $kind:ident $(, $($rest:tt)*)?) => {
        declare_rule!(@build Interpreted [$($done)* check: Some($crate::rules::Check::Interpreted(
            |ctx, out| RULE.report_failures(ctx, $crate::eval::FailureKind::$kind, out),
        )),] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] fixable $(, $($rest:tt)*)?) => {
        declare_rule!(@build $takes [$($done)* fixable: true,] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] reads_catalog $(, $($rest:tt)*)?) => {
        declare_rule!(@build Interpreted [$($done)* reads_catalog: true,] $($($rest)*)?);
    };
    (@build File [$($done:tt)*] reads_interpretation $(, $($rest:tt)*)?) => {
        declare_rule!(@build Interpreted [$($done)*] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] off_by_default $(, $($rest:tt)*)?) => {
        declare_rule!(@build $takes [$($done)* enabled_by_default: false,] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*] puppet_lint: $name:literal $(, $($rest:tt)*)?) => {
        declare_rule!(@build $takes [$($done)* puppet_lint: Some($name),] $($($rest)*)?);
    };
    (@build $takes:ident [$($done:tt)*]) => {
        pub static RULE: $crate::rules::Rule = $crate::rules::Rule {
            $($done)*
            ..$crate::rules::Rule::DEFAULTS
        };
    };
}

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
    types::duplicate_declaration,
    types::duplicate_class_declaration,
    types::unknown_relationship_target,
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
    style::unused_suppression,
    syntax::syntax_error,
    style::top_scope_facts,
    style::trailing_comma,
    style::trailing_whitespace,
    types::unknown_attribute,
    types::unknown_class,
    documentation::undeclared_dependency,
    types::unknown_fact,
    types::unknown_function,
    types::unknown_resource_type,
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

/// A rule: metadata, documentation and the check.
pub struct Rule {
    /// Stable, kebab-case.
    pub id: RuleId,
    pub summary: &'static str,
    pub category: Category,
    pub severity: Severity,
    pub enabled_by_default: bool,
    pub fixable: bool,
    /// The puppet-lint check this rule reproduces, if any.
    pub puppet_lint: Option<&'static str>,
    /// The doc comment of its declaration, each line as `///` leaves it (after a
    /// space), private so that every reader takes [`Rule::documentation`], the Markdown.
    docs: &'static str,
    /// Whether it reads what the environment's catalogs raise (`crate::catalog`).
    pub reads_catalog: bool,
    /// A check of the whole file, run once (`None` for diagnostics produced by the
    /// syntax layer or the file reader, and for rules that only look at expressions).
    pub check: Option<Check>,
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

/// A rule's check of the whole file: of the file, or of the file with its
/// interpretation.
#[derive(Clone, Copy)]
pub enum Check {
    File(fn(&FileContext, &mut Vec<Diagnostic>)),
    Interpreted(fn(&InterpretedFile, &mut Vec<Diagnostic>)),
}

/// A rule's check of one expression, as [`Check`].
#[derive(Clone, Copy)]
pub enum ExprCheck {
    File(fn(&FileContext, &Expr, &mut Vec<Diagnostic>)),
    Interpreted(fn(&InterpretedFile, &Expr, &mut Vec<Diagnostic>)),
}

impl Check {
    pub fn run(self, ctx: &FileContext, out: &mut Vec<Diagnostic>) {
        match self {
            Check::File(check) => check(ctx, out),
            Check::Interpreted(check) => check(&ctx.interpreted(), out),
        }
    }
}

impl ExprCheck {
    pub fn run(self, ctx: &FileContext, expr: &Expr, out: &mut Vec<Diagnostic>) {
        match self {
            ExprCheck::File(check) => check(ctx, expr, out),
            ExprCheck::Interpreted(check) => check(&ctx.interpreted(), expr, out),
        }
    }
}

impl Rule {
    /// What a rule declared with `declare_rule!` is unless it says otherwise (`id`,
    /// `summary`, `category`, `severity` and the docs it always says).
    pub const DEFAULTS: Rule = Rule {
        id: RuleId::declared(""),
        summary: "",
        category: Category::Style,
        severity: Severity::Warning,
        enabled_by_default: true,
        fixable: false,
        puppet_lint: None,
        docs: "",
        reads_catalog: false,
        check: None,
        on_expr: None,
    };

    /// The rule's documentation, Markdown: "What it does", "Why it matters",
    /// "Example", "How to fix".
    pub fn documentation(&self) -> String {
        let mut markdown = String::with_capacity(self.docs.len());
        for line in self.docs.lines() {
            markdown.push_str(line.strip_prefix(' ').unwrap_or(line));
            markdown.push('\n');
        }
        markdown
    }

    /// Whether the rule checks files itself (rather than naming the diagnostics the
    /// syntax layer or the file reader produce).
    pub fn checks_files(&self) -> bool {
        self.check.is_some() || self.on_expr.is_some()
    }

    /// Whether the rule reads the file's interpretation: whether its checks take an
    /// [`InterpretedFile`]. A check of one file starts the rules that do not while the
    /// interpretation is made, and those that do after them.
    pub fn reads_interpretation(&self) -> bool {
        matches!(self.check, Some(Check::Interpreted(_)))
            || matches!(
                self.on_expr,
                Some(ExprVisit {
                    visit: ExprCheck::Interpreted(_),
                    ..
                })
            )
    }

    /// Reports the failures of `kind` the file's interpretation found
    /// ([`crate::analysis::failures`]).
    pub fn report_failures(
        &'static self,
        ctx: &InterpretedFile,
        kind: crate::eval::FailureKind,
        out: &mut Vec<Diagnostic>,
    ) {
        for failure in crate::analysis::failures::failures_of_kind(ctx, kind) {
            let diagnostic = self.diagnostic(failure.span, failure.message);
            out.push(match failure.note {
                Some(note) => diagnostic.with_note(note),
                None => diagnostic,
            });
        }
    }

    /// The findings of one file's names that nothing defines, each `(span, what
    /// Puppet says, how certain)`, in the file's order: at the rule's severity where
    /// Puppet certainly fails; where something pupcheck was not shown may define the
    /// name, a warning saying what that is, once per file and reason (a control
    /// repository whose modules are not installed uses hundreds of their names), with
    /// a note counting the names it stands for.
    /// Names judged by what the environment holds are reported only where `ctx`'s file
    /// is the environment's own code ([`crate::env::Environment::judges_unseen_names_in`]),
    /// and an error only outside conditional code: a branch may run only on nodes no
    /// environment serves (`package_use` for Gentoo), and findings certain for the nodes
    /// a condition selects are not made yet.
    pub fn report_unresolved(
        &'static self,
        ctx: &FileContext,
        mut found: Vec<(crate::source::Span, String, crate::env::Unresolved)>,
        out: &mut Vec<Diagnostic>,
    ) {
        use crate::env::Unresolved;
        if found.iter().any(|(_, _, u)| *u != Unresolved::Certain)
            && !ctx.env.judges_unseen_names_in(&ctx.source.path)
        {
            found.retain(|(_, _, u)| *u == Unresolved::Certain);
        }
        if found.iter().any(|(_, _, u)| *u == Unresolved::Closed) {
            let branches = conditional_code(&ctx.exprs);
            found.retain(|(span, _, u)| {
                *u != Unresolved::Closed
                    || !branches
                        .iter()
                        .any(|(start, end)| (*start..*end).contains(&span.start))
            });
        }
        let mut uncertain: indexmap::IndexMap<String, (Diagnostic, usize)> = Default::default();
        for (span, puppet_says, unresolved) in found {
            match unresolved {
                Unresolved::Certain | Unresolved::Closed => {
                    out.push(self.diagnostic(span, puppet_says))
                }
                Unresolved::Uncertain(why) => {
                    let message = format!(
                        "{}, unless what pupcheck was not shown defines it ({why})",
                        puppet_says.trim_end_matches('.')
                    );
                    let diagnostic = Diagnostic::new(
                        self.id,
                        crate::diagnostics::Severity::Warning,
                        span,
                        message,
                    );
                    uncertain.entry(why).or_insert((diagnostic, 0)).1 += 1;
                }
            }
        }
        for (_, (diagnostic, count)) in uncertain {
            out.push(match count {
                1 => diagnostic,
                n => diagnostic.with_note(format!(
                    "{} more in this file, not reported, for the same reason",
                    n - 1
                )),
            });
        }
    }

    pub fn diagnostic(
        &'static self,
        span: crate::source::Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, span, message)
    }
}

/// Makes `finding` (about something only a Hiera layer or node classifier outside the
/// repository could give: `what`) a warning where `pupcheck.toml` declares the
/// environment open.
pub(crate) fn warn_if_declared_open(
    env: &crate::env::Environment,
    finding: &mut Diagnostic,
    what: &str,
) {
    if env.declared_open() {
        finding.severity = crate::diagnostics::Severity::Warning;
        finding.notes.push(format!(
            "pupcheck.toml declares the environment open: {what} outside the repository may \
             give it"
        ));
    }
}

/// The byte ranges of the code of a file that runs only when a condition holds: what
/// follows the condition of an `if` or `unless`, the subject of a `case` or selector.
pub(crate) fn conditional_code(exprs: &[&crate::ast::Expr]) -> Vec<(u32, u32)> {
    use crate::ast::ExprKind;
    exprs
        .iter()
        .filter_map(|expr| {
            let decided_by = match &expr.kind {
                ExprKind::If(i) => &i.condition,
                ExprKind::Unless(u) => &u.condition,
                ExprKind::Case(c) => &c.subject,
                ExprKind::Selector { subject, .. } => subject,
                _ => return None,
            };
            Some((decided_by.span.end, expr.span.end))
        })
        .collect()
}

/// The rules that read what the environment's catalogs raise.
pub fn catalog_rules() -> impl Iterator<Item = &'static Rule> {
    ALL.iter().copied().filter(|r| r.reads_catalog)
}

/// The rule with this id, or with this puppet-lint check name.
pub fn find(name: &str) -> Option<&'static Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.id.as_str() == name || r.puppet_lint == Some(name))
}

#[cfg(test)]
mod tests {
    use super::DECLARED;

    /// The ids the layers below the catalogue name (`diagnostics::rule_ids`, the
    /// variable-scope rule the unset-variable analysis reads the suppressions of) are
    /// ids of declared rules.
    #[test]
    fn ids_named_below_are_declared_rules() {
        let below = crate::diagnostics::rule_ids::ALL
            .iter()
            .chain([&crate::analysis::unset_variables::VARIABLE_SCOPE]);
        for id in below {
            assert!(super::ALL.iter().any(|r| r.id == *id), "{id}");
        }
    }

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
}
