//! The rule catalogue: one file per rule, its metadata and documentation next to its
//! code (ruff's layout). A rule reads a file's AST and text through a [`FileContext`]
//! and pushes diagnostics; it never prints.
//!
//! Adding a rule: write `src/rules/<id>.rs` with a `pub static RULE: Rule`, list it in
//! [`ALL`], add `rules/<id>/fail.pp` and `rules/<id>/pass.pp` (examples with inline
//! expectations, see `tests/rules.rs`) and run `PUPCHECK_UPDATE_RULES=1 cargo test
//! --test rules` to write its `rules/<id>/README.md` from the metadata.

mod access;
mod appends_deletes;
mod arrow_alignment;
mod arrow_on_right_operand_line;
mod assert_type;
mod attribute_append_outside_override;
mod autoloader_layout;
mod bodies;
mod captures_rest_not_last;
mod captures_rest_not_supported;
mod case_without_default;
mod class_inherits_from_params_class;
mod class_not_virtualizable;
mod code_on_top_scope;
mod conversion;
mod cross_scope_assignment;
mod declarations;
mod definition_name_rules;
mod definition_names;
mod division_by_zero;
mod documentation;
mod double_quoted_strings;
mod duplicate_default;
mod duplicate_key;
mod duplicate_parameter;
mod duplicate_resource_attribute;
mod ensure_first_param;
mod ensure_not_symlink_target;
mod epp_parameter_type;
mod evaluation_error;
mod file_mode;
mod function_argument_mismatch;
mod hard_tabs;
pub mod hiera_config;
mod hiera_lookup_type;
mod hiera_missing_key;
pub mod hiera_parameter_type;
pub mod hiera_syntax;
pub mod hiera_unknown_key;
mod idem_expression;
mod idem_last;
mod illegal_assignment;
mod illegal_assignment_context;
mod illegal_definition_location;
mod illegal_definition_name;
mod illegal_epp_parameters;
mod illegal_expression;
mod illegal_hostname;
mod illegal_parameter_name;
mod illegal_query_expression;
mod illegal_top_construct_location;
mod illegal_type_mapping;
mod illegal_variable_name;
mod indexed_assignment;
mod inherits_across_namespaces;
mod internal_error;
mod invalid_attribute_value;
mod legacy_facts;
mod line_longer_than_80;
mod line_too_long;
pub mod metadata_json;
mod metaparameter_name;
mod missing_parameter;
mod module_layout;
mod multiple_attributes_unfold;
mod names_containing_dash;
mod names_containing_uppercase;
mod nested_classes_or_defines;
mod node_inheritance;
mod not_absolute_top_level;
mod not_rvalue;
mod not_top_level;
mod not_virtualizable;
mod numeric_assignment;
mod numeric_overflow;
mod numeric_parameter_name;
mod only_variable_string;
mod operator_type;
mod parameter_default_type;
mod parameter_order;
mod parameter_type_mismatch;
mod params_empty_string_assignment;
mod puppet_patterns;
mod puppet_url_without_modules;
mod quoted_booleans;
mod relationship_arrows;
mod reserved_parameter;
mod reserved_type_name;
mod reserved_variable_assignment;
mod reserved_word;
mod return_type;
mod revealed_type;
mod right_to_left_relationship;
mod selector_inside_resource;
mod selector_no_match;
mod single_quote_string_with_variables;
mod slash_comments;
mod soft_tabs;
mod space_before_arrow;
mod star_comments;
mod strict_indent;
mod suppress;
mod syntax_error;
pub(crate) mod text;
mod top_scope_facts;
mod trailing_comma;
mod trailing_whitespace;
mod undeclared_dependency;
mod unknown_attribute;
mod unknown_class;
mod unknown_fact;
mod unknown_function;
mod unknown_parameter;
mod unknown_variable;
mod unquoted_file_mode;
mod unquoted_node_name;
mod unquoted_resource_title;
pub mod unreadable_file;
mod unrecognized_escape;
mod unsupported_expression;
mod variable_contains_dash;
mod variable_is_lowercase;
mod variable_scope;
mod variables_not_enclosed;

pub use text::CodeMap;

use crate::ast::Program;
use crate::config::Settings;
use crate::diagnostics::{Diagnostic, Severity};
use crate::source::SourceFile;
use serde::Serialize;

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
    /// Every expression, outermost first, in source order ([`text::each_expr`]).
    pub exprs: Vec<&'a crate::ast::Expr>,
    /// The configuration the file is checked with.
    pub settings: &'a Settings,
    /// What the other files of the run and their modules define (partial: a name it
    /// lacks is unknown, not missing).
    pub env: &'a crate::env::Environment,
    /// The evaluation of the file's bodies, made the first time a rule asks for it.
    inference: std::cell::OnceCell<crate::infer::FileInference>,
}

impl FileContext<'_> {
    /// The evaluation of the file's bodies ([`crate::infer`]), shared by every rule.
    pub fn inference(&self) -> &crate::infer::FileInference {
        self.inference
            .get_or_init(|| crate::infer::FileInference::infer(self))
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
    /// The puppet-lint check this rule reproduces, if any.
    pub puppet_lint: Option<&'static str>,
    /// Markdown: "What it does", "Why it matters", "Example", "How to fix".
    pub docs: &'static str,
    /// `None` for diagnostics produced by the syntax layer or the file reader.
    pub check: Option<fn(&FileContext, &mut Vec<Diagnostic>)>,
}

impl Rule {
    pub fn diagnostic(
        &'static self,
        span: crate::source::Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(self.id, self.severity, span, message)
    }
}

/// Every rule, in id order.
pub static ALL: &[&Rule] = &[
    &access::RULE,
    &appends_deletes::RULE,
    &arrow_alignment::RULE,
    &arrow_on_right_operand_line::RULE,
    &assert_type::RULE,
    &attribute_append_outside_override::RULE,
    &autoloader_layout::RULE,
    &captures_rest_not_last::RULE,
    &captures_rest_not_supported::RULE,
    &case_without_default::RULE,
    &class_inherits_from_params_class::RULE,
    &class_not_virtualizable::RULE,
    &code_on_top_scope::RULE,
    &conversion::RULE,
    &cross_scope_assignment::RULE,
    &division_by_zero::RULE,
    &documentation::RULE,
    &double_quoted_strings::RULE,
    &duplicate_default::RULE,
    &duplicate_key::RULE,
    &duplicate_parameter::RULE,
    &duplicate_resource_attribute::RULE,
    &ensure_first_param::RULE,
    &ensure_not_symlink_target::RULE,
    &epp_parameter_type::RULE,
    &evaluation_error::RULE,
    &file_mode::RULE,
    &function_argument_mismatch::RULE,
    &hard_tabs::RULE,
    &idem_expression::RULE,
    &idem_last::RULE,
    &illegal_assignment::RULE,
    &illegal_assignment_context::RULE,
    &illegal_definition_location::RULE,
    &illegal_definition_name::RULE,
    &illegal_epp_parameters::RULE,
    &illegal_expression::RULE,
    &illegal_hostname::RULE,
    &illegal_parameter_name::RULE,
    &illegal_query_expression::RULE,
    &illegal_top_construct_location::RULE,
    &illegal_type_mapping::RULE,
    &illegal_variable_name::RULE,
    &indexed_assignment::RULE,
    &inherits_across_namespaces::RULE,
    &internal_error::RULE,
    &invalid_attribute_value::RULE,
    &legacy_facts::RULE,
    &line_longer_than_80::RULE,
    &line_too_long::RULE,
    &metadata_json::RULE,
    &metaparameter_name::RULE,
    &multiple_attributes_unfold::RULE,
    &names_containing_dash::RULE,
    &names_containing_uppercase::RULE,
    &nested_classes_or_defines::RULE,
    &node_inheritance::RULE,
    &not_absolute_top_level::RULE,
    &not_rvalue::RULE,
    &not_top_level::RULE,
    &not_virtualizable::RULE,
    &numeric_assignment::RULE,
    &numeric_overflow::RULE,
    &numeric_parameter_name::RULE,
    &only_variable_string::RULE,
    &operator_type::RULE,
    &parameter_default_type::RULE,
    &parameter_order::RULE,
    &parameter_type_mismatch::RULE,
    &params_empty_string_assignment::RULE,
    &puppet_url_without_modules::RULE,
    &quoted_booleans::RULE,
    &reserved_parameter::RULE,
    &reserved_type_name::RULE,
    &reserved_variable_assignment::RULE,
    &reserved_word::RULE,
    &return_type::RULE,
    &revealed_type::RULE,
    &right_to_left_relationship::RULE,
    &selector_inside_resource::RULE,
    &selector_no_match::RULE,
    &single_quote_string_with_variables::RULE,
    &slash_comments::RULE,
    &soft_tabs::RULE,
    &space_before_arrow::RULE,
    &star_comments::RULE,
    &strict_indent::RULE,
    &suppress::RULE,
    &syntax_error::RULE,
    &top_scope_facts::RULE,
    &trailing_comma::RULE,
    &trailing_whitespace::RULE,
    &unknown_attribute::RULE,
    &unknown_class::RULE,
    &undeclared_dependency::RULE,
    &unknown_fact::RULE,
    &unknown_function::RULE,
    &unknown_parameter::RULE,
    &missing_parameter::RULE,
    &hiera_config::RULE,
    &hiera_lookup_type::RULE,
    &hiera_missing_key::RULE,
    &hiera_parameter_type::RULE,
    &hiera_syntax::RULE,
    &hiera_unknown_key::RULE,
    &unknown_variable::RULE,
    &unquoted_file_mode::RULE,
    &unquoted_node_name::RULE,
    &unquoted_resource_title::RULE,
    &unreadable_file::RULE,
    &unrecognized_escape::RULE,
    &unsupported_expression::RULE,
    &variable_contains_dash::RULE,
    &variable_is_lowercase::RULE,
    &variable_scope::RULE,
    &variables_not_enclosed::RULE,
];

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
    diagnostics: &mut Vec<Diagnostic>,
) {
    with_context(source, program, settings, env, |ctx| {
        check_in_context(ctx, settings, diagnostics)
    })
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
    let ctx = FileContext {
        source,
        program,
        code: &code,
        exprs: text::preorder(program),
        settings,
        env,
        inference: Default::default(),
    };
    f(&ctx)
}

fn check_in_context(ctx: &FileContext, settings: &Settings, diagnostics: &mut Vec<Diagnostic>) {
    for rule in settings.rules.enabled() {
        if let Some(check) = rule.check {
            check(ctx, diagnostics);
        }
    }
    suppress::apply(ctx, diagnostics);
    // A configured severity replaces the rule's; a rule that gives some findings
    // another severity of its own (metaparameter-name's errors) keeps it by default.
    for d in diagnostics.iter_mut() {
        if let Some(severity) = settings.rules.severity_override(d.rule) {
            d.severity = severity;
        }
    }
}
