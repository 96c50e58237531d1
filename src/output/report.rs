//! `pupcheck report` as text: a terminal table and Markdown (for a CI job summary).
//! Each section shows its first `top` rows; JSON and HTML hold them all.

use crate::report::{Estate, Location};
use std::fmt::Write;

/// A table: a title, column names, rows of cells; numeric columns are right-aligned.
struct Table {
    title: String,
    columns: Vec<&'static str>,
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
    total: usize,
}

fn example(at: &[Location]) -> String {
    at.first()
        .map(|l| format!("{}:{}", l.path, l.line))
        .unwrap_or_default()
}

fn tables(estate: &Estate, top: usize) -> Vec<Table> {
    let take = |n: usize| n.min(top);
    vec![
        Table {
            title: "Type mismatches by expected and actual type".into(),
            columns: vec!["count", "expected", "actual", "rule", "e.g."],
            numeric: vec![true, false, false, false, false],
            rows: estate.mismatches[..take(estate.mismatches.len())]
                .iter()
                .map(|g| {
                    vec![
                        g.count.to_string(),
                        g.expected.clone(),
                        g.actual.clone(),
                        g.rule.to_string(),
                        example(&g.examples),
                    ]
                })
                .collect(),
            total: estate.mismatches.len(),
        },
        Table {
            title: "Parameters receiving values their type rejects".into(),
            columns: vec!["count", "parameter", "receives", "e.g."],
            numeric: vec![true, false, false, false],
            rows: estate.parameters[..take(estate.parameters.len())]
                .iter()
                .map(|g| {
                    vec![
                        g.count.to_string(),
                        parameter_name(g.kind, &g.definition, &g.parameter),
                        g.actual.clone(),
                        example(&g.examples),
                    ]
                })
                .collect(),
            total: estate.parameters.len(),
        },
        Table {
            title: "Definitions whose parameters are given mismatched values".into(),
            columns: vec!["count", "parameters", "definition", "e.g."],
            numeric: vec![true, true, false, false],
            rows: estate.definitions[..take(estate.definitions.len())]
                .iter()
                .map(|g| {
                    vec![
                        g.count.to_string(),
                        g.parameters.to_string(),
                        definition_name(g.kind, &g.definition),
                        example(&g.examples),
                    ]
                })
                .collect(),
            total: estate.definitions.len(),
        },
        Table {
            title: "Modules by errors per 1,000 lines".into(),
            columns: vec![
                "errors/kloc",
                "errors",
                "warnings",
                "lines",
                "files",
                "module",
            ],
            numeric: vec![true, true, true, true, true, false],
            rows: estate.modules[..take(estate.modules.len())]
                .iter()
                .map(|m| {
                    vec![
                        format!("{:.2}", m.errors_per_kloc),
                        m.errors.to_string(),
                        m.warnings.to_string(),
                        m.lines.to_string(),
                        m.files.to_string(),
                        m.module.clone(),
                    ]
                })
                .collect(),
            total: estate.modules.len(),
        },
        Table {
            title: "Rules by findings".into(),
            columns: vec!["count", "rule", "severity", "category"],
            numeric: vec![true, false, false, false],
            rows: estate.rules[..take(estate.rules.len())]
                .iter()
                .map(|r| {
                    vec![
                        r.count.to_string(),
                        r.rule.to_string(),
                        r.severity.to_string(),
                        r.category.to_string(),
                    ]
                })
                .collect(),
            total: estate.rules.len(),
        },
    ]
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

fn summary(estate: &Estate) -> String {
    format!(
        "{} files, {} lines: {} errors, {} warnings, {} type mismatches",
        estate.files_checked, estate.lines, estate.errors, estate.warnings, estate.type_mismatches
    )
}

/// Aligned columns for a terminal.
pub fn terminal(estate: &Estate, top: usize) -> String {
    let mut out = format!("{}\n", summary(estate));
    for table in tables(estate, top) {
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
    for table in tables(estate, top) {
        let _ = write!(out, "\n## {}\n\n", table.title);
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
