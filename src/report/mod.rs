//! `pupcheck report`: where the findings of a whole estate concentrate. The findings are
//! `check`'s, counted (never filtered or re-judged): the type mismatches grouped by
//! expected and actual type and rule, by class or defined-type parameter, by the
//! definition they violate; the modules ranked by errors per thousand lines; the rules
//! ranked by findings. `output::report` renders it.

pub mod mismatch;

use crate::check::Report;
use crate::diagnostics::Severity;
use crate::rules::Category;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// How many example locations a group keeps.
pub const EXAMPLES: usize = 5;

#[derive(Debug, Serialize)]
pub struct Estate {
    pub files_checked: usize,
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Every type finding whose message names an expected and an actual type.
    pub type_mismatches: usize,
    pub mismatches: Vec<MismatchGroup>,
    pub parameters: Vec<ParameterGroup>,
    pub definitions: Vec<DefinitionGroup>,
    pub modules: Vec<ModuleRow>,
    pub rules: Vec<RuleRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Location {
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
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

#[derive(Debug, Serialize)]
pub struct ModuleRow {
    pub module: String,
    pub files: usize,
    pub lines: usize,
    pub errors: usize,
    pub warnings: usize,
    pub errors_per_kloc: f64,
}

#[derive(Debug, Serialize)]
pub struct RuleRow {
    pub rule: &'static str,
    pub severity: Severity,
    pub category: &'static str,
    pub count: usize,
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
    /// Counts `report`'s findings. Lines are counted from each checked file (`lines`
    /// gives them for the files the report holds no text of).
    pub fn of(report: &Report, lines_of: impl Fn(&std::path::Path) -> usize + Sync) -> Estate {
        let lines: Vec<usize> = report
            .files
            .par_iter()
            .map(|f| match &f.source {
                Some(source) => count_lines(source.text.as_bytes()),
                None => lines_of(&f.path),
            })
            .collect();
        let mut modules: BTreeMap<String, ModuleRow> = BTreeMap::new();
        let mut rules: BTreeMap<&'static str, (Severity, usize)> = BTreeMap::new();
        let mut by_types: BTreeMap<(String, String, &'static str), Tally> = BTreeMap::new();
        let mut by_parameter: BTreeMap<(&'static str, String, String, String), Tally> =
            BTreeMap::new();
        let mut by_definition: BTreeMap<
            (&'static str, String),
            (Tally, std::collections::BTreeSet<String>),
        > = BTreeMap::new();
        let (mut errors, mut warnings, mut infos, mut type_mismatches) = (0, 0, 0, 0);
        for (file, file_lines) in report.files.iter().zip(&lines) {
            let module = crate::statistics::module_of(&file.path);
            let row = modules.entry(module.clone()).or_insert_with(|| ModuleRow {
                module,
                files: 0,
                lines: 0,
                errors: 0,
                warnings: 0,
                errors_per_kloc: 0.0,
            });
            row.files += 1;
            row.lines += file_lines;
            let path = file.path.display().to_string();
            for d in &file.diagnostics {
                match d.severity {
                    Severity::Error => {
                        errors += 1;
                        row.errors += 1;
                    }
                    Severity::Warning => {
                        warnings += 1;
                        row.warnings += 1;
                    }
                    Severity::Info => infos += 1,
                }
                let rule = rules.entry(d.rule.as_str()).or_insert((d.severity, 0));
                rule.0 = rule.0.max(d.severity);
                rule.1 += 1;
                let is_type_rule = crate::rules::find(d.rule.as_str())
                    .is_some_and(|r| r.category == Category::Type);
                let Some(found) = is_type_rule.then(|| mismatch::read(&d.message)).flatten() else {
                    continue;
                };
                type_mismatches += 1;
                let position = file.source.as_ref().map(|s| s.position(d.span.start));
                let at = Location {
                    path: path.clone(),
                    line: position.map_or(1, |p| p.line),
                    column: position.map_or(1, |p| p.column),
                    message: d.message.clone(),
                };
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
        let mut modules: Vec<ModuleRow> = modules
            .into_values()
            .map(|mut row| {
                row.errors_per_kloc = if row.lines == 0 {
                    0.0
                } else {
                    (row.errors as f64 * 1000.0 / row.lines as f64 * 100.0).round() / 100.0
                };
                row
            })
            .collect();
        modules.sort_by(|a, b| {
            b.errors_per_kloc
                .total_cmp(&a.errors_per_kloc)
                .then(b.errors.cmp(&a.errors))
                .then(a.module.cmp(&b.module))
        });
        Estate {
            files_checked: report.files_checked,
            lines: lines.iter().sum(),
            errors,
            warnings,
            infos,
            type_mismatches,
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
            modules,
            rules: ranked(
                rules.into_iter().collect::<BTreeMap<_, _>>(),
                |(_, count)| *count,
            )
            .into_iter()
            .map(|(rule, (severity, count))| RuleRow {
                rule,
                severity,
                category: crate::rules::find(rule).map_or("other", |r| r.category.name()),
                count,
            })
            .collect(),
        }
    }
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
