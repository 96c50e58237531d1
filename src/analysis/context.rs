//! A file as the rules see it ([`FileContext`]): its text, its AST, its expressions in
//! order, the options the rules run with, its suppression comments and its environment;
//! and what the analyses and the interpretation find in it, each made once, the first
//! time a rule asks; and the same file with its interpretation ([`InterpretedFile`]),
//! for the rules that read it. The rule runner (`check::rule_runner`) builds them;
//! rules only read them.

use super::code_map::CodeMap;
use super::suppressions::Suppressions;
use crate::ast::{Expr, Program};
use crate::source::SourceFile;

/// The limit of `line-too-long` unless configured.
pub const DEFAULT_LINE_LENGTH: usize = 140;

/// What rules read of the configuration, beyond which rules run (`config::Settings`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleOptions {
    /// The limit of `line-too-long`.
    pub line_length: usize,
    /// puppet-lint's `--relative`: `autoloader-layout` ignores the module folder's name.
    pub relative_layout: bool,
    /// puppet-lint 4's `--top-scope-variables`: top-scope names `top-scope-facts`
    /// accepts (each name and the names it starts, as puppet-lint 4 compares).
    pub top_scope_variables: Vec<String>,
    /// Puppet's `strict_variables`: an unknown variable fails the compile (Puppet 8's
    /// default, so pupcheck's) or only warns (Puppet 7's; `strict-variables = false`).
    pub strict_variables: bool,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            line_length: DEFAULT_LINE_LENGTH,
            relative_layout: false,
            top_scope_variables: Vec::new(),
            strict_variables: true,
        }
    }
}

/// A file as the rules see it.
pub struct FileContext<'a> {
    pub source: &'a SourceFile,
    pub program: &'a Program,
    /// Where the code is, as opposed to strings and comments (for text-level rules).
    pub code: &'a CodeMap,
    /// Every expression, outermost first, in source order ([`crate::ast::preorder`]).
    pub exprs: Vec<&'a Expr>,
    /// The options the rules are run with.
    pub options: &'a RuleOptions,
    /// The file's suppression comments, read once before the rules run.
    pub suppressions: &'a Suppressions,
    /// What the other files of the run and their modules define (partial: a name it
    /// lacks is unknown, not missing).
    pub env: &'a crate::env::Environment,
    /// The evaluation of the file's bodies, made the first time a rule asks for it
    /// (or before, when the catalog pass read it: `with_prepared`).
    inference: std::sync::OnceLock<crate::infer::FileInference>,
    /// What the catalogs of the file's environment raise in this file (none where
    /// they were not assembled: a file checked alone, the editor).
    catalog: &'a [crate::catalog::Finding],
    /// The unqualified variable reads Puppet cannot answer, found on first use.
    unset_reads: std::sync::OnceLock<Vec<crate::analysis::unset_variables::UnsetRead>>,
    /// Where fixes may replace a variable reference, found on first use.
    variable_sites: std::sync::OnceLock<crate::analysis::variable_sites::VariableSites>,
    /// The variables the file sets at top scope or in node definitions, found on first
    /// use.
    top_scope_variables: std::sync::OnceLock<Vec<String>>,
    /// The tokens of each resource body, found on first use.
    resource_bodies: std::sync::OnceLock<Vec<Vec<crate::analysis::resource_tokens::Token>>>,
}

/// What was found of a file before its rules run: its interpretation, which the
/// catalog pass read, and what the catalogs raise in it.
#[derive(Default)]
pub struct Prepared<'a> {
    pub inference: Option<crate::infer::FileInference>,
    pub catalog: &'a [crate::catalog::Finding],
}

impl<'a> FileContext<'a> {
    /// The context with what was found of the file before (`Prepared`).
    pub(crate) fn with_prepared(mut self, prepared: Prepared<'a>) -> FileContext<'a> {
        if let Some(inference) = prepared.inference {
            self.inference = std::sync::OnceLock::from(inference);
        }
        self.catalog = prepared.catalog;
        self
    }
}

impl FileContext<'_> {
    /// The file with its interpretation ([`crate::infer`]), made the first time it is
    /// asked for and shared by every rule that reads it: for the rule runner, which
    /// gives it to those rules (a rule asks for it by the type its check takes).
    pub(crate) fn interpreted(&self) -> InterpretedFile<'_, '_> {
        self.inference
            .get_or_init(|| crate::infer::FileInference::infer(&self.view()));
        InterpretedFile { file: self }
    }

    /// What the interpretation reads of the file.
    pub fn view(&self) -> crate::infer::FileView<'_> {
        crate::infer::FileView {
            program: self.program,
            exprs: &self.exprs,
            env: self.env,
        }
    }

    /// The unqualified variable reads Puppet cannot answer
    /// ([`crate::analysis::unset_variables`]), shared by the rules reporting them.
    pub fn unset_reads(&self) -> &[crate::analysis::unset_variables::UnsetRead] {
        self.unset_reads
            .get_or_init(|| crate::analysis::unset_variables::unset_reads(self))
    }

    /// Where a fix may put code in place of a variable reference
    /// ([`crate::analysis::variable_sites::VariableSites`]), shared by the rules whose fixes do.
    pub fn variable_sites(&self) -> &crate::analysis::variable_sites::VariableSites {
        self.variable_sites
            .get_or_init(|| crate::analysis::variable_sites::VariableSites::of(self))
    }

    /// Whether the environment's code sets the variable `name` at top or node scope:
    /// this file, another file of the run, or the main manifest. Then `$::name` reads
    /// that variable, and is no fact (`$facts['name']` is another value).
    pub fn sets_top_scope_variable(&self, name: &str) -> bool {
        let own = self
            .top_scope_variables
            .get_or_init(|| crate::env::top_scope::top_and_node_assignments(self.program));
        own.iter().any(|n| n == name)
            || self.env.top_scope_variable_outside(name, &self.source.path)
    }

    /// The tokens of every resource body ([`crate::analysis::resource_tokens`]), shared
    /// by the rules that look at arrows.
    pub fn resource_body_tokens(&self) -> &[Vec<crate::analysis::resource_tokens::Token>] {
        self.resource_bodies
            .get_or_init(|| crate::analysis::resource_tokens::resource_body_tokens(self))
    }
}

/// A file as the rules that read its interpretation see it: the [`FileContext`] every
/// rule sees, and the record of the evaluation of its bodies ([`Self::inference`]). A
/// rule's check that takes one reads the interpretation (and is run after it is made);
/// one that takes a `FileContext` cannot reach the record, so whether a rule reads it
/// follows from its check's signature (`Rule::reads_interpretation`).
pub struct InterpretedFile<'c, 'a> {
    file: &'c FileContext<'a>,
}

impl<'a> std::ops::Deref for InterpretedFile<'_, 'a> {
    type Target = FileContext<'a>;

    fn deref(&self) -> &FileContext<'a> {
        self.file
    }
}

impl InterpretedFile<'_, '_> {
    /// The evaluation of the file's bodies ([`crate::infer`]), shared by every rule.
    pub fn inference(&self) -> &crate::infer::FileInference {
        self.file
            .inference
            .get()
            .expect("made by FileContext::interpreted")
    }

    /// What the catalogs of the environment raise in this file ([`crate::catalog`]).
    pub fn catalog_findings(&self) -> &[crate::catalog::Finding] {
        self.file.catalog
    }
}

impl<'a> FileContext<'a> {
    pub(crate) fn new(
        source: &'a SourceFile,
        program: &'a Program,
        code: &'a CodeMap,
        exprs: Vec<&'a Expr>,
        options: &'a RuleOptions,
        suppressions: &'a Suppressions,
        env: &'a crate::env::Environment,
    ) -> FileContext<'a> {
        FileContext {
            source,
            program,
            code,
            exprs,
            options,
            suppressions,
            env,
            inference: Default::default(),
            catalog: &[],
            unset_reads: Default::default(),
            variable_sites: Default::default(),
            top_scope_variables: Default::default(),
            resource_bodies: Default::default(),
        }
    }
}
