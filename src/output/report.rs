//! `pupcheck report` as text: a terminal table and Markdown (for a CI job summary).
//! Each section shows its first `top` rows; JSON and HTML hold them all.

use crate::report::compare::module_label;
use crate::report::mismatch::alias_names;
use crate::report::place::Part;
use crate::report::{ErrorGroup, Estate, Location};
use std::fmt::Write;

/// A cell of a report's table, rendered by each format in its own way.
pub enum Cell {
    Text(String),
    /// A type as Puppet prints it: shown with aliases by name (HTML keeps the whole
    /// on demand).
    Type(String),
    /// Sorted as a number, shown as the text.
    Number(f64, String),
    /// A bar of `value` against the column's `max` (HTML only).
    Bar(f64, f64),
    /// Locations: the first are shown, the rest on demand (HTML) or counted.
    Locations(Vec<Location>, usize),
}

pub struct Column {
    pub name: &'static str,
    pub numeric: bool,
}

/// A table of the report: an id (the HTML table's), a title, a sentence under it.
pub struct Section {
    pub id: &'static str,
    pub title: String,
    pub note: Option<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
}

fn columns(names: &[(&'static str, bool)]) -> Vec<Column> {
    names
        .iter()
        .map(|&(name, numeric)| Column { name, numeric })
        .collect()
}

pub fn count(n: usize) -> Cell {
    Cell::Number(n as f64, n.to_string())
}

fn examples(at: &[Location], total: usize) -> Cell {
    Cell::Locations(at.to_vec(), total)
}

fn error_groups(id: &'static str, title: &str, note: String, groups: &[&ErrorGroup]) -> Section {
    Section {
        id,
        title: title.to_string(),
        note: Some(note),
        columns: columns(&[
            ("count", true),
            ("rule", false),
            ("about", false),
            ("where", false),
        ]),
        rows: groups
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    Cell::Text(g.rule.to_string()),
                    Cell::Text(g.subject.clone().unwrap_or_default()),
                    examples(&g.locations, g.count),
                ]
            })
            .collect(),
    }
}

/// Every table of the report, in the order shown: what changed, the errors to fix
/// first, the type mismatches, then where findings concentrate.
pub fn sections(estate: &Estate) -> Vec<Section> {
    let mut sections = Vec::new();
    if let Some(compared) = &estate.compared {
        let mut rows = Vec::new();
        for (what, changes) in [
            ("total", &compared.totals),
            ("rule", &compared.rules),
            ("repository", &compared.repositories),
            ("module errors", &compared.modules),
            ("errors", &compared.errors),
        ] {
            for change in changes {
                rows.push(vec![
                    Cell::Text(what.to_string()),
                    Cell::Text(change.name.clone()),
                    Cell::Number(change.before as f64, change.before.to_string()),
                    Cell::Number(change.now as f64, change.now.to_string()),
                    Cell::Number(change.now as f64 - change.before as f64, change.delta()),
                ]);
            }
        }
        sections.push(Section {
            id: "changes",
            title: format!("Since {}", compared.previous),
            note: Some("Totals, then what moved, the biggest moves first.".into()),
            columns: columns(&[
                ("what", false),
                ("name", false),
                ("before", true),
                ("now", true),
                ("change", true),
            ]),
            rows,
        });
    }
    let (code, tests): (Vec<&ErrorGroup>, Vec<&ErrorGroup>) =
        estate.fix_first.iter().partition(|g| g.part == Part::Code);
    sections.push(error_groups(
        "fix-first",
        "Errors to fix first",
        format!(
            "Every error of the modules' code, grouped by rule and by what it is about \
             (one class gains the parameter, one module is installed), the biggest groups \
             first. Besides, {} findings have a safe fix: `pupcheck check --fix` clears them.",
            estate.fixable
        ),
        &code,
    ));
    sections.push(error_groups(
        "fix-first-tests",
        "Errors in examples and tests",
        "Errors of `examples/`, `tests/` and `spec/`: no node runs them.".into(),
        &tests,
    ));
    sections.push(Section {
        id: "mismatches",
        title: "Type mismatches by expected and actual type".into(),
        note: None,
        columns: columns(&[
            ("count", true),
            ("expected", false),
            ("actual", false),
            ("rule", false),
            ("where", false),
        ]),
        rows: estate
            .mismatches
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    Cell::Type(g.expected.clone()),
                    Cell::Type(g.actual.clone()),
                    Cell::Text(g.rule.to_string()),
                    examples(&g.examples, g.count),
                ]
            })
            .collect(),
    });
    sections.push(Section {
        id: "parameters",
        title: "Parameters receiving values their type rejects".into(),
        note: None,
        columns: columns(&[
            ("count", true),
            ("parameter", false),
            ("receives", false),
            ("where", false),
        ]),
        rows: estate
            .parameters
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    Cell::Text(parameter_name(g.kind, &g.definition, &g.parameter)),
                    Cell::Type(g.actual.clone()),
                    examples(&g.examples, g.count),
                ]
            })
            .collect(),
    });
    sections.push(Section {
        id: "definitions",
        title: "Definitions whose parameters are given mismatched values".into(),
        note: None,
        columns: columns(&[
            ("count", true),
            ("parameters", true),
            ("definition", false),
            ("where", false),
        ]),
        rows: estate
            .definitions
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    count(g.parameters),
                    Cell::Text(definition_name(g.kind, &g.definition)),
                    examples(&g.examples, g.count),
                ]
            })
            .collect(),
    });
    let several = estate.repositories.len() > 1;
    let rate_columns = [
        ("errors/kloc", true),
        ("", true),
        ("errors", true),
        ("warnings", true),
        ("fixable", true),
        ("lines", true),
        ("files", true),
    ];
    let rate_cells = |c: &crate::report::Counts, max: f64| {
        vec![
            Cell::Number(c.errors_per_kloc, format!("{:.2}", c.errors_per_kloc)),
            Cell::Bar(c.errors_per_kloc, max),
            count(c.errors),
            count(c.warnings),
            count(c.fixable),
            count(c.lines),
            count(c.files),
        ]
    };
    if several {
        let max = estate
            .repositories
            .iter()
            .map(|r| r.counts.errors_per_kloc)
            .fold(0.0, f64::max);
        sections.push(Section {
            id: "repositories",
            title: "Repositories by errors per 1,000 lines".into(),
            note: None,
            columns: columns(&[[("repository", false)].as_slice(), &rate_columns].concat()),
            rows: estate
                .repositories
                .iter()
                .map(|r| {
                    let mut row = vec![Cell::Text(r.repository.clone())];
                    row.extend(rate_cells(&r.counts, max));
                    row
                })
                .collect(),
        });
    }
    let max = estate
        .modules
        .iter()
        .map(|m| m.counts.errors_per_kloc)
        .fold(0.0, f64::max);
    sections.push(Section {
        id: "modules",
        title: "Modules by errors per 1,000 lines".into(),
        note: Some(
            "A module's examples and tests are counted apart from its code; \
             modules of different repositories are apart too."
                .into(),
        ),
        columns: columns(&[[("module", false)].as_slice(), &rate_columns].concat()),
        rows: estate
            .modules
            .iter()
            .map(|m| {
                let name = if several {
                    module_label(&m.repository, &m.module, m.part.name())
                } else if m.part == Part::Code {
                    m.module.clone()
                } else {
                    format!("{} ({})", m.module, m.part.name())
                };
                let mut row = vec![Cell::Text(name)];
                row.extend(rate_cells(&m.counts, max));
                row
            })
            .collect(),
    });
    sections.push(Section {
        id: "rules",
        title: "Rules by findings, errors first".into(),
        note: None,
        columns: columns(&[
            ("count", true),
            ("fixable", true),
            ("rule", false),
            ("severity", false),
            ("category", false),
        ]),
        rows: estate
            .rules
            .iter()
            .map(|r| {
                vec![
                    count(r.count),
                    count(r.fixable),
                    Cell::Text(r.rule.to_string()),
                    Cell::Text(r.severity.to_string()),
                    Cell::Text(r.category.to_string()),
                ]
            })
            .collect(),
    });
    sections
}

/// A cell as text (a location a Markdown link with `links`); `None` for what only
/// HTML draws.
fn plain(cell: &Cell, links: bool) -> Option<String> {
    Some(match cell {
        Cell::Text(text) => text.clone(),
        Cell::Type(text) => alias_names(text),
        Cell::Number(_, shown) => shown.clone(),
        Cell::Bar(..) => return None,
        Cell::Locations(at, total) => {
            let first = at
                .first()
                .map(|l| match links {
                    true => format!("[{}:{}]({})", l.path, l.line, l.link),
                    false => format!("{}:{}", l.path, l.line),
                })
                .unwrap_or_default();
            if *total > 1 {
                format!("{first} (+{})", total - 1)
            } else {
                first
            }
        }
    })
}

/// A section's first `top` rows as text; the columns only HTML draws left out.
struct Table {
    title: String,
    note: Option<String>,
    columns: Vec<&'static str>,
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
    total: usize,
}

fn tables(estate: &Estate, top: usize, links: bool) -> Vec<Table> {
    sections(estate)
        .into_iter()
        .filter(|s| s.id != "fix-first-tests" || !s.rows.is_empty())
        .map(|section| {
            let shown: Vec<usize> = (0..section.columns.len())
                .filter(|&i| {
                    section
                        .rows
                        .first()
                        .is_none_or(|row| plain(&row[i], links).is_some())
                        && !section.columns[i].name.is_empty()
                })
                .collect();
            Table {
                title: section.title,
                note: section.note,
                columns: shown.iter().map(|&i| section.columns[i].name).collect(),
                numeric: shown.iter().map(|&i| section.columns[i].numeric).collect(),
                total: section.rows.len(),
                rows: section
                    .rows
                    .iter()
                    .take(top)
                    .map(|row| {
                        shown
                            .iter()
                            .map(|&i| plain(&row[i], links).unwrap_or_default())
                            .collect()
                    })
                    .collect(),
            }
        })
        .collect()
}

/// `apache::vhost::port`; a template's, `$port of templates/vhost.epp`.
pub fn parameter_name(kind: &str, definition: &str, parameter: &str) -> String {
    if kind == "template" {
        format!("${parameter} of {definition}")
    } else {
        format!("{definition}::{parameter}")
    }
}

/// `class apache`, `defined type apache::vhost`, `template templates/vhost.epp`.
pub fn definition_name(kind: &str, definition: &str) -> String {
    format!("{kind} {definition}")
}

pub fn summary(estate: &Estate) -> String {
    format!(
        "{} files, {} lines: {} errors, {} warnings, {} type mismatches; {} findings have a safe fix (`pupcheck check --fix`)",
        estate.files_checked,
        estate.lines,
        estate.errors,
        estate.warnings,
        estate.type_mismatches,
        estate.fixable
    )
}

/// Aligned columns for a terminal.
pub fn terminal(estate: &Estate, top: usize) -> String {
    let mut out = format!("{}\n", summary(estate));
    for table in tables(estate, top, false) {
        let _ = write!(out, "\n{}", table.title);
        if table.total > table.rows.len() {
            let _ = write!(out, " (first {} of {})", table.rows.len(), table.total);
        }
        out.push('\n');
        if table.rows.is_empty() {
            out.push_str("  none\n");
            continue;
        }
        let widths: Vec<usize> = (0..table.columns.len())
            .map(|i| {
                table
                    .rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([table.columns[i].len()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: Vec<&str>| {
            let mut text = String::from(" ");
            for (i, cell) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(cell.chars().count());
                if table.numeric[i] {
                    text.push_str(&" ".repeat(pad + 1));
                    text.push_str(cell);
                } else {
                    text.push(' ');
                    text.push_str(cell);
                    if i + 1 < cells.len() {
                        text.push_str(&" ".repeat(pad));
                    }
                }
                text.push(' ');
            }
            text.trim_end().to_string() + "\n"
        };
        out.push_str(&line(table.columns.clone()));
        for row in &table.rows {
            out.push_str(&line(row.iter().map(String::as_str).collect()));
        }
    }
    out
}

/// GitHub-flavoured Markdown.
pub fn markdown(estate: &Estate, top: usize) -> String {
    let cell = |text: &str| text.replace('|', "\\|").replace('\n', " ");
    let mut out = format!("# pupcheck report\n\n{}\n", summary(estate));
    for table in tables(estate, top, true) {
        let _ = write!(out, "\n## {}\n\n", table.title);
        if let Some(note) = &table.note {
            let _ = write!(out, "{note}\n\n");
        }
        if table.rows.is_empty() {
            out.push_str("None.\n");
            continue;
        }
        let _ = writeln!(out, "| {} |", table.columns.join(" | "));
        let align: Vec<&str> = table
            .numeric
            .iter()
            .map(|&n| if n { "---:" } else { "---" })
            .collect();
        let _ = writeln!(out, "| {} |", align.join(" | "));
        for row in &table.rows {
            let cells: Vec<String> = row.iter().map(|c| cell(c)).collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        if table.total > table.rows.len() {
            let _ = writeln!(out, "\nFirst {} of {}.", table.rows.len(), table.total);
        }
    }
    out
}
