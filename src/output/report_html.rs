//! `pupcheck report --format html`: one self-contained page (no network access:
//! styles and script inline). Every table sorts by any column on a click on its
//! header (and from the address, `#sort=<table>:<column>:<asc|desc>`, so a page can
//! be opened sorted); the modules table draws each module's errors per thousand lines
//! as a bar; every example links to its file and line.

use crate::report::{Estate, Location};
use quick_xml::escape::escape;
use std::fmt::Write;

const STYLE: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin-top: .5em; }
th, td { padding: .25em .6em; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
th { cursor: pointer; user-select: none; background: #f4f4f4; }
th[aria-sort=ascending]::after { content: " \25B2"; } th[aria-sort=descending]::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td code, .summary code { background: #f4f4f4; padding: 0 .2em; }
.bar { background: #c0392b; height: .9em; display: inline-block; vertical-align: middle; }
.examples a { display: block; font-size: .9em; }
"#;

const SCRIPT: &str = r#"
function sortTable(table, column, direction) {
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const numeric = table.tHead.rows[0].cells[column].dataset.type === "num";
  const key = (row) => {
    const cell = row.cells[column];
    const text = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent;
    return numeric ? parseFloat(text) : text.toLowerCase();
  };
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return direction === "asc" ? order : -order;
  });
  rows.forEach((row) => body.appendChild(row));
  Array.from(table.tHead.rows[0].cells).forEach((th, i) => {
    if (i === column) th.setAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  });
}
document.querySelectorAll("table.sortable").forEach((table) => {
  Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
    th.addEventListener("click", () => {
      const direction = th.getAttribute("aria-sort") === "descending" ? "asc" : "desc";
      sortTable(table, column, direction);
    });
  });
});
const wanted = /^#sort=([\w-]+):(\d+):(asc|desc)$/.exec(location.hash);
if (wanted) {
  const table = document.getElementById(wanted[1]);
  if (table) sortTable(table, parseInt(wanted[2], 10), wanted[3]);
}
"#;

/// A cell: its text, and whether it is a number (sorted as one, aligned right).
enum Cell {
    Text(String),
    Code(String),
    Number(f64, String),
    Bar(f64, f64),
    Examples(Vec<Location>),
}

fn link(at: &Location) -> String {
    let absolute = std::path::absolute(&at.path).unwrap_or_else(|_| at.path.clone().into());
    let href = format!("file://{}#L{}", absolute.display(), at.line);
    format!(
        "<a href=\"{}\" title=\"{}\">{}:{}:{}</a>",
        escape(href.as_str()),
        escape(at.message.as_str()),
        escape(at.path.as_str()),
        at.line,
        at.column
    )
}

fn table(out: &mut String, id: &str, title: &str, columns: &[(&str, bool)], rows: Vec<Vec<Cell>>) {
    let _ = writeln!(out, "<h2>{}</h2>", escape(title));
    if rows.is_empty() {
        out.push_str("<p>None.</p>\n");
        return;
    }
    let _ = write!(out, "<table class=\"sortable\" id=\"{id}\"><thead><tr>");
    for (name, numeric) in columns {
        let kind = if *numeric { "num" } else { "text" };
        let _ = write!(out, "<th data-type=\"{kind}\">{}</th>", escape(*name));
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            match cell {
                Cell::Text(text) => {
                    let _ = write!(out, "<td>{}</td>", escape(text.as_str()));
                }
                Cell::Code(text) => {
                    let _ = write!(out, "<td><code>{}</code></td>", escape(text.as_str()));
                }
                Cell::Number(value, shown) => {
                    let _ = write!(out, "<td class=\"num\" data-value=\"{value}\">{shown}</td>");
                }
                Cell::Bar(value, max) => {
                    let width = if max > 0.0 { value / max * 200.0 } else { 0.0 };
                    let _ = write!(
                        out,
                        "<td data-value=\"{value}\"><span class=\"bar\" style=\"width:{width:.1}px\"></span></td>"
                    );
                }
                Cell::Examples(at) => {
                    out.push_str("<td class=\"examples\">");
                    for l in &at {
                        out.push_str(&link(l));
                    }
                    out.push_str("</td>");
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table>\n");
}

fn count(n: usize) -> Cell {
    Cell::Number(n as f64, n.to_string())
}

pub fn page(estate: &Estate) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>pupcheck report</title><style>{STYLE}</style></head><body>\n\
         <h1>pupcheck report</h1>\n<p class=\"summary\">{} files, {} lines: \
         <strong>{}</strong> errors, {} warnings, <strong>{}</strong> type mismatches.</p>\n",
        estate.files_checked, estate.lines, estate.errors, estate.warnings, estate.type_mismatches
    );
    table(
        &mut out,
        "mismatches",
        "Type mismatches by expected and actual type",
        &[
            ("count", true),
            ("expected", false),
            ("actual", false),
            ("rule", false),
            ("where", false),
        ],
        estate
            .mismatches
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    Cell::Code(g.expected.clone()),
                    Cell::Code(g.actual.clone()),
                    Cell::Text(g.rule.to_string()),
                    Cell::Examples(g.examples.clone()),
                ]
            })
            .collect(),
    );
    table(
        &mut out,
        "parameters",
        "Parameters receiving values their type rejects",
        &[
            ("count", true),
            ("parameter", false),
            ("receives", false),
            ("where", false),
        ],
        estate
            .parameters
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    Cell::Code(super::report::parameter_name(
                        g.kind,
                        &g.definition,
                        &g.parameter,
                    )),
                    Cell::Code(g.actual.clone()),
                    Cell::Examples(g.examples.clone()),
                ]
            })
            .collect(),
    );
    table(
        &mut out,
        "definitions",
        "Definitions whose parameters are given mismatched values",
        &[
            ("count", true),
            ("parameters", true),
            ("definition", false),
            ("where", false),
        ],
        estate
            .definitions
            .iter()
            .map(|g| {
                vec![
                    count(g.count),
                    count(g.parameters),
                    Cell::Text(super::report::definition_name(g.kind, &g.definition)),
                    Cell::Examples(g.examples.clone()),
                ]
            })
            .collect(),
    );
    let max = estate
        .modules
        .iter()
        .map(|m| m.errors_per_kloc)
        .fold(0.0, f64::max);
    table(
        &mut out,
        "modules",
        "Modules by errors per 1,000 lines",
        &[
            ("module", false),
            ("errors/kloc", true),
            ("", true),
            ("errors", true),
            ("warnings", true),
            ("lines", true),
            ("files", true),
        ],
        estate
            .modules
            .iter()
            .map(|m| {
                vec![
                    Cell::Text(m.module.clone()),
                    Cell::Number(m.errors_per_kloc, format!("{:.2}", m.errors_per_kloc)),
                    Cell::Bar(m.errors_per_kloc, max),
                    count(m.errors),
                    count(m.warnings),
                    count(m.lines),
                    count(m.files),
                ]
            })
            .collect(),
    );
    table(
        &mut out,
        "rules",
        "Rules by findings",
        &[
            ("count", true),
            ("rule", false),
            ("severity", false),
            ("category", false),
        ],
        estate
            .rules
            .iter()
            .map(|r| {
                vec![
                    count(r.count),
                    Cell::Text(r.rule.to_string()),
                    Cell::Text(r.severity.to_string()),
                    Cell::Text(r.category.to_string()),
                ]
            })
            .collect(),
    );
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}
