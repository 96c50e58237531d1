//! `--statistics`: the findings counted by rule, by module and by file (the top
//! offenders), as tables.

use crate::statistics::{Count, Statistics};
use std::io::Write;

/// How many files the table of offenders lists.
pub const TOP_FILES: usize = 10;

pub fn write(statistics: &Statistics, out: &mut dyn Write) -> std::io::Result<()> {
    if statistics.by_rule.is_empty() {
        return writeln!(out, "No findings.");
    }
    let rules: Vec<[String; 3]> = statistics
        .by_rule
        .iter()
        .map(|r| [r.count.to_string(), r.rule.clone(), r.severity.to_string()])
        .collect();
    table(
        out,
        "Findings by rule",
        ["count", "rule", "severity"],
        &rules,
    )?;
    writeln!(out)?;
    table(
        out,
        "Findings by module",
        ["count", "module"],
        &rows(&statistics.by_module, usize::MAX),
    )?;
    writeln!(out)?;
    let title = if statistics.by_file.len() > TOP_FILES {
        format!(
            "Top {TOP_FILES} files (of {} with findings)",
            statistics.by_file.len()
        )
    } else {
        "Findings by file".to_string()
    };
    table(
        out,
        &title,
        ["count", "file"],
        &rows(&statistics.by_file, TOP_FILES),
    )
}

fn rows(counts: &[Count], limit: usize) -> Vec<[String; 2]> {
    counts
        .iter()
        .take(limit)
        .map(|c| [c.count.to_string(), c.name.clone()])
        .collect()
}

/// A titled table: the first column (the count) right-aligned, the others left-aligned.
fn table<const N: usize>(
    out: &mut dyn Write,
    title: &str,
    header: [&str; N],
    rows: &[[String; N]],
) -> std::io::Result<()> {
    let mut widths = header.map(str::len);
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    writeln!(out, "{title}:")?;
    let line = |cells: Vec<&str>| -> String {
        let mut text = String::from(" ");
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            if i == 0 {
                text.push_str(&format!(" {cell:>width$}"));
            } else {
                text.push_str(&format!("  {cell:<width$}"));
            }
        }
        text.trim_end().to_string()
    };
    writeln!(out, "{}", line(header.to_vec()))?;
    for row in rows {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}
