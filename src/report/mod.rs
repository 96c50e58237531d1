//! `pupcheck report`: where the findings of a whole estate concentrate. The findings are
//! `check`'s, counted (never filtered or re-judged): the type mismatches grouped by
//! expected and actual type and rule, by class or defined-type parameter, by the
//! definition they violate; the modules ranked by errors per thousand lines; the rules
//! ranked by findings. `output::report` renders it.

pub mod compare;
pub mod links;
pub mod mismatch;
pub mod place;
pub mod subject;

use crate::check::Report;
use crate::diagnostics::{Applicability, Diagnostic, Severity};
use crate::rules::Category;
use links::Links;
use place::{Part, Repositories};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How many example locations a group keeps.
pub const EXAMPLES: usize = 5;

#[derive(Debug, Serialize)]
pub struct Estate {
    pub files_checked: usize,
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings `pupcheck check --fix` clears (they carry a safe fix).
    pub fixable: usize,
    /// Every type finding whose message names an expected and an actual type.
    pub type_mismatches: usize,
    /// Every error, grouped by rule and by what it is about, most first: the module
    /// code's, then the examples' and tests'.
    pub fix_first: Vec<ErrorGroup>,
    pub mismatches: Vec<MismatchGroup>,
    pub parameters: Vec<ParameterGroup>,
    pub definitions: Vec<DefinitionGroup>,
    pub repositories: Vec<RepositoryRow>,
    pub modules: Vec<ModuleRow>,
    pub rules: Vec<RuleRow>,
    /// What changed since an earlier report (`--compare`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared: Option<compare::Comparison>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// Relative to the report, or from `--link-base`.
    pub link: String,
}

#[derive(Debug, Serialize)]
pub struct ErrorGroup {
    pub rule: &'static str,
    /// What the errors are about (`class nova`), when their message names it.
    pub subject: Option<String>,
    pub part: Part,
    pub count: usize,
    /// Every one of them.
    pub locations: Vec<Location>,
}

#[derive(Debug, Serialize)]
pub struct MismatchGroup {
    pub expected: String,
    pub actual: String,
    pub rule: &'static str,
    pub count: usize,
    pub examples: Vec<Location>,
}

#[derive(Debug, Serialize)]
pub struct ParameterGroup {
    /// `class`, `defined type`, `function`, `template`.
    pub kind: &'static str,
    pub definition: String,
    pub parameter: String,
    pub actual: String,
    pub count: usize,
    pub examples: Vec<Location>,
}

#[derive(Debug, Serialize)]
pub struct DefinitionGroup {
    pub kind: &'static str,
    pub definition: String,
    pub count: usize,
    /// How many of its parameters receive a value they reject.
    pub parameters: usize,
    pub examples: Vec<Location>,
}

/// Counts of a set of files.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Counts {
    pub files: usize,
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    pub fixable: usize,
    pub errors_per_kloc: f64,
}

impl Counts {
    fn add(&mut self, lines: usize, diagnostics: &[Diagnostic]) {
        self.files += 1;
        self.lines += lines;
        for d in diagnostics {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => {}
            }
            self.fixable += usize::from(is_fixable(d));
        }
    }

    fn rate(mut self) -> Counts {
        self.errors_per_kloc = if self.lines == 0 {
            0.0
        } else {
            (self.errors as f64 * 1000.0 / self.lines as f64 * 100.0).round() / 100.0
        };
        self
    }
}

/// One repository (a root the run was given, or a git repository inside it).
#[derive(Debug, Serialize)]
pub struct RepositoryRow {
    pub repository: String,
    #[serde(flatten)]
    pub counts: Counts,
}

/// One module of one repository, its code apart from its examples and tests.
#[derive(Debug, Serialize)]
pub struct ModuleRow {
    pub repository: String,
    pub module: String,
    pub part: Part,
    #[serde(flatten)]
    pub counts: Counts,
}

#[derive(Debug, Serialize)]
pub struct RuleRow {
    pub rule: &'static str,
    pub severity: Severity,
    pub category: &'static str,
    pub count: usize,
    pub fixable: usize,
}

/// Whether `--fix` clears the finding (it applies safe fixes only).
fn is_fixable(d: &Diagnostic) -> bool {
    d.fix
        .as_ref()
        .is_some_and(|f| f.applicability == Applicability::Safe)
}

/// How the report is made: the roots the run was given and where its links point.
pub struct Options<'a> {
    pub roots: &'a [PathBuf],
    pub links: &'a Links,
}

/// A group being counted: its count and first examples.
#[derive(Default)]
struct Tally {
    count: usize,
    examples: Vec<Location>,
}

impl Tally {
    fn add(&mut self, at: &Location) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(at.clone());
        }
    }
}

/// Most first, then in the key's order.
fn ranked<K: Ord, T>(map: BTreeMap<K, T>, count: impl Fn(&T) -> usize) -> Vec<(K, T)> {
    let mut rows: Vec<(K, T)> = map.into_iter().collect();
    rows.sort_by(|a, b| count(&b.1).cmp(&count(&a.1)).then(a.0.cmp(&b.0)));
    rows
}

impl Estate {
    /// Counts `report`'s findings. Lines are counted from each checked file (`lines_of`
    /// gives them for the files the report holds no text of).
    pub fn of(
        report: &Report,
        options: &Options,
        lines_of: impl Fn(&Path) -> usize + Sync,
    ) -> Estate {
        let lines: Vec<usize> = report
            .files
            .par_iter()
            .map(|f| match &f.source {
                Some(source) => count_lines(source.text.as_bytes()),
                None => lines_of(&f.path),
            })
            .collect();
        let mut repositories_of = Repositories::new(options.roots);
        let mut repositories: BTreeMap<String, Counts> = BTreeMap::new();
        let mut modules: BTreeMap<(String, String, Part), Counts> = BTreeMap::new();
        let mut rules: BTreeMap<&'static str, (Severity, usize, usize)> = BTreeMap::new();
        let mut errors_by_subject: BTreeMap<(Part, &'static str, Option<String>), Vec<Location>> =
            BTreeMap::new();
        let mut by_types: BTreeMap<(String, String, &'static str), Tally> = BTreeMap::new();
        let mut by_parameter: BTreeMap<(&'static str, String, String, String), Tally> =
            BTreeMap::new();
        let mut by_definition: BTreeMap<
            (&'static str, String),
            (Tally, std::collections::BTreeSet<String>),
        > = BTreeMap::new();
        let (mut errors, mut warnings, mut infos, mut fixable, mut type_mismatches) =
            (0, 0, 0, 0, 0);
        for (file, file_lines) in report.files.iter().zip(&lines) {
            let absolute = place::absolute(&file.path);
            let repository_folder = repositories_of.of(&file.path);
            let repository = place::shown(&repository_folder);
            let part = Part::of(
                absolute
                    .strip_prefix(&repository_folder)
                    .unwrap_or(&absolute),
            );
            let module = crate::statistics::module_of(&file.path);
            repositories
                .entry(repository.clone())
                .or_default()
                .add(*file_lines, &file.diagnostics);
            modules
                .entry((repository, module, part))
                .or_default()
                .add(*file_lines, &file.diagnostics);
            let path = file.path.display().to_string();
            for d in &file.diagnostics {
                match d.severity {
                    Severity::Error => errors += 1,
                    Severity::Warning => warnings += 1,
                    Severity::Info => infos += 1,
                }
                let rule = rules.entry(d.rule.as_str()).or_insert((d.severity, 0, 0));
                rule.0 = rule.0.max(d.severity);
                rule.1 += 1;
                if is_fixable(d) {
                    rule.2 += 1;
                    fixable += 1;
                }
                let position = file.source.as_ref().map(|s| s.position(d.span.start));
                let at = || {
                    let line = position.map_or(1, |p| p.line);
                    Location {
                        path: path.clone(),
                        line,
                        column: position.map_or(1, |p| p.column),
                        message: d.message.clone(),
                        link: options.links.href(&absolute, &repository_folder, line),
                    }
                };
                if d.severity == Severity::Error {
                    errors_by_subject
                        .entry((part, d.rule.as_str(), subject::of(&d.message)))
                        .or_default()
                        .push(at());
                }
                let is_type_rule = crate::rules::find(d.rule.as_str())
                    .is_some_and(|r| r.category == Category::Type);
                let Some(found) = is_type_rule.then(|| mismatch::read(&d.message)).flatten() else {
                    continue;
                };
                type_mismatches += 1;
                let at = at();
                by_types
                    .entry((
                        found.expected.clone(),
                        found.actual.clone(),
                        d.rule.as_str(),
                    ))
                    .or_default()
                    .add(&at);
                // An EPP template's parameter list names no template: the finding's
                // file is the template.
                let found = match found.definition {
                    Some(mismatch::NamedDefinition { kind, name }) if name.is_empty() => {
                        mismatch::Mismatch {
                            definition: Some(mismatch::NamedDefinition {
                                kind,
                                name: path.clone(),
                            }),
                            ..found
                        }
                    }
                    _ => found,
                };
                if let Some(definition) = &found.definition {
                    let entry = by_definition
                        .entry((definition.kind, definition.name.clone()))
                        .or_default();
                    entry.0.add(&at);
                    if let Some(parameter) = &found.parameter {
                        entry.1.insert(parameter.clone());
                        by_parameter
                            .entry((
                                definition.kind,
                                definition.name.clone(),
                                parameter.clone(),
                                found.actual.clone(),
                            ))
                            .or_default()
                            .add(&at);
                    }
                }
            }
        }
        let mut fix_first: Vec<ErrorGroup> = errors_by_subject
            .into_iter()
            .map(|((part, rule, subject), locations)| ErrorGroup {
                rule,
                subject,
                part,
                count: locations.len(),
                locations,
            })
            .collect();
        // Code before examples and tests, then the biggest groups.
        fix_first.sort_by(|a, b| {
            (a.part != Part::Code)
                .cmp(&(b.part != Part::Code))
                .then(b.count.cmp(&a.count))
                .then(a.rule.cmp(b.rule))
                .then(a.subject.cmp(&b.subject))
        });
        let mut repositories: Vec<RepositoryRow> = repositories
            .into_iter()
            .map(|(repository, counts)| RepositoryRow {
                repository,
                counts: counts.rate(),
            })
            .collect();
        repositories
            .sort_by(|a, b| by_rate(&a.counts, &b.counts).then(a.repository.cmp(&b.repository)));
        let mut modules: Vec<ModuleRow> = modules
            .into_iter()
            .map(|((repository, module, part), counts)| ModuleRow {
                repository,
                module,
                part,
                counts: counts.rate(),
            })
            .collect();
        modules.sort_by(|a, b| {
            by_rate(&a.counts, &b.counts)
                .then(a.module.cmp(&b.module))
                .then(a.repository.cmp(&b.repository))
                .then(a.part.cmp(&b.part))
        });
        let mut rules: Vec<RuleRow> = rules
            .into_iter()
            .map(|(rule, (severity, count, fixable))| RuleRow {
                rule,
                severity,
                category: crate::rules::find(rule).map_or("other", |r| r.category.name()),
                count,
                fixable,
            })
            .collect();
        // Errors above warnings (style), then the most found.
        rules.sort_by(|a, b| {
            b.severity
                .cmp(&a.severity)
                .then(b.count.cmp(&a.count))
                .then(a.rule.cmp(b.rule))
        });
        Estate {
            files_checked: report.files_checked,
            lines: lines.iter().sum(),
            errors,
            warnings,
            infos,
            fixable,
            type_mismatches,
            fix_first,
            mismatches: ranked(by_types, |t| t.count)
                .into_iter()
                .map(|((expected, actual, rule), t)| MismatchGroup {
                    expected,
                    actual,
                    rule,
                    count: t.count,
                    examples: t.examples,
                })
                .collect(),
            parameters: ranked(by_parameter, |t| t.count)
                .into_iter()
                .map(
                    |((kind, definition, parameter, actual), t)| ParameterGroup {
                        kind,
                        definition,
                        parameter,
                        actual,
                        count: t.count,
                        examples: t.examples,
                    },
                )
                .collect(),
            definitions: ranked(by_definition, |t| t.0.count)
                .into_iter()
                .map(|((kind, definition), (t, parameters))| DefinitionGroup {
                    kind,
                    definition,
                    count: t.count,
                    parameters: parameters.len(),
                    examples: t.examples,
                })
                .collect(),
            repositories,
            modules,
            rules,
            compared: None,
        }
    }
}

/// Most errors per thousand lines first, then most errors.
fn by_rate(a: &Counts, b: &Counts) -> std::cmp::Ordering {
    b.errors_per_kloc
        .total_cmp(&a.errors_per_kloc)
        .then(b.errors.cmp(&a.errors))
}

/// The lines of a file on disk (bounded as every read is; 0 when it cannot be read).
pub fn lines_on_disk(path: &std::path::Path) -> usize {
    crate::source::read::read_bytes(path, crate::source::walk::MAX_FILE_SIZE)
        .map(|bytes| count_lines(&bytes))
        .unwrap_or(0)
}

/// Lines as editors count them: a last line without a newline counts.
fn count_lines(bytes: &[u8]) -> usize {
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(bytes.last().is_some_and(|&b| b != b'\n'))
}
