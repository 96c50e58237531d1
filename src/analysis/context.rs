//! A file as the rules see it ([`FileContext`]): its text, its AST, its expressions in
//! order, the options the rules run with, its suppression comments and its environment;
//! and what the analyses and the interpretation find in it, each made once, the first
//! time a rule asks. The rule runner (`check::rule_runner`) builds it; rules only read it.

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
    /// The evaluation of the file's bodies, made the first time a rule asks for it.
    inference: std::sync::OnceLock<crate::infer::FileInference>,
    /// The unqualified variable reads Puppet cannot answer, found on first use.
    unset_reads: std::sync::OnceLock<Vec<crate::analysis::unset_variables::UnsetRead>>,
    /// Where fixes may replace a variable reference, found on first use.
    variable_sites: std::sync::OnceLock<crate::analysis::variable_sites::VariableSites>,
    /// The tokens of each resource body, found on first use.
    resource_bodies: std::sync::OnceLock<Vec<Vec<crate::analysis::resource_tokens::Token>>>,
}

impl FileContext<'_> {
    /// The evaluation of the file's bodies ([`crate::infer`]), shared by every rule.
    pub fn inference(&self) -> &crate::infer::FileInference {
        self.inference
            .get_or_init(|| crate::infer::FileInference::infer(&self.view()))
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

    /// The tokens of every resource body ([`crate::analysis::resource_tokens`]), shared
    /// by the rules that look at arrows.
    pub fn resource_body_tokens(&self) -> &[Vec<crate::analysis::resource_tokens::Token>] {
        self.resource_bodies
            .get_or_init(|| crate::analysis::resource_tokens::resource_body_tokens(self))
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
            unset_reads: Default::default(),
            variable_sites: Default::default(),
            resource_bodies: Default::default(),
        }
    }
}
