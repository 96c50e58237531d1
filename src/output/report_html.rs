//! `pupcheck report --format html`: one self-contained page (no network access:
//! styles and script inline), the tables of `output::report::sections`. Every table
//! sorts by any column from its header, by mouse or keyboard (focus it, Enter or
//! Space; the first time the biggest first), and from the address
//! (`#sort=<table>:<column>:<asc|desc>`, so a page can be opened sorted); the pages
//! follow the browser's dark preference and fit 800 px (wide tables scroll in
//! place); the modules table draws each module's errors per thousand lines as a bar;
//! every location links to its file and line (relative to the page, or `--link-base`).

use super::report::{sections, Cell, Section};
use crate::report::mismatch::alias_names;
use crate::report::{Estate, Location};
use quick_xml::escape::escape;
use std::fmt::Write;

/// How many locations a cell shows before "N more".
const SHOWN_LOCATIONS: usize = 5;

const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #222; --bg: #fff; --muted: #666; --line: #ddd;
  --head: #f4f4f4; --code: #f4f4f4; --bar: #c0392b; --link: #0645ad; --focus: #1a73e8; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --bg: #17181a; --muted: #a0a0a0; --line: #3a3c40;
    --head: #25272b; --code: #2a2c30; --bar: #e0604f; --link: #8ab4f8; --focus: #8ab4f8; }
}
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
nav { display: flex; flex-wrap: wrap; gap: .3em 1em; }
.note { color: var(--muted); max-width: 60em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin-top: .5em; }
th, td { padding: .25em .6em; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; max-width: 40em; }
th { cursor: pointer; user-select: none; background: var(--head); white-space: nowrap; }
th:focus-visible { outline: 2px solid var(--focus); outline-offset: -2px; }
th[aria-sort=ascending]::after { content: " \25B2"; } th[aria-sort=descending]::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { background: var(--code); padding: 0 .2em; }
details > summary { cursor: pointer; }
.bar { background: var(--bar); height: .9em; display: inline-block; vertical-align: middle; }
.where a, .where span { display: block; font-size: .9em; }
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
    // The first click sorts the biggest first; the next one reverses.
    const sort = () => {
      const direction = th.getAttribute("aria-sort") === "descending" ? "asc" : "desc";
      sortTable(table, column, direction);
    };
    th.addEventListener("click", sort);
    th.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        sort();
      }
    });
  });
});
const wanted = /^#sort=([\w-]+):(\d+):(asc|desc)$/.exec(location.hash);
if (wanted) {
  const table = document.getElementById(wanted[1]);
  if (table) sortTable(table, parseInt(wanted[2], 10), wanted[3]);
}
"#;

fn link(at: &Location) -> String {
    format!(
        "<a href=\"{}\" title=\"{}\">{}:{}:{}</a>",
        escape(at.link.as_str()),
        escape(at.message.as_str()),
        escape(at.path.as_str()),
        at.line,
        at.column
    )
}

fn cell(out: &mut String, cell: &Cell) {
    match cell {
        Cell::Text(text) => {
            let _ = write!(out, "<td>{}</td>", escape(text.as_str()));
        }
        Cell::Type(full) => {
            let short = alias_names(full);
            if short == *full {
                let _ = write!(out, "<td><code>{}</code></td>", escape(full.as_str()));
            } else {
                // The alias names sort; the whole type is one click (or Enter) away.
                let _ = write!(
                    out,
                    "<td data-value=\"{}\"><details><summary><code>{}</code></summary><code>{}</code></details></td>",
                    escape(short.as_str()),
                    escape(short.as_str()),
                    escape(full.as_str())
                );
            }
        }
        Cell::Number(value, shown) => {
            let _ = write!(out, "<td class=\"num\" data-value=\"{value}\">{shown}</td>");
        }
        Cell::Bar(value, max) => {
            let width = if *max > 0.0 { value / max * 200.0 } else { 0.0 };
            let _ = write!(
                out,
                "<td data-value=\"{value}\"><span class=\"bar\" style=\"width:{width:.1}px\"></span></td>"
            );
        }
        Cell::Locations(at, total) => {
            out.push_str("<td class=\"where\">");
            let (first, rest) = at.split_at(at.len().min(SHOWN_LOCATIONS));
            for l in first {
                out.push_str(&link(l));
            }
            if !rest.is_empty() {
                let _ = write!(out, "<details><summary>{} more</summary>", rest.len());
                for l in rest {
                    out.push_str(&link(l));
                }
                out.push_str("</details>");
            }
            if *total > at.len() {
                let _ = write!(out, "<span>and {} more</span>", total - at.len());
            }
            out.push_str("</td>");
        }
    }
}

fn table(out: &mut String, section: &Section) {
    let _ = writeln!(
        out,
        "<h2 id=\"{}-title\">{}</h2>",
        section.id,
        escape(section.title.as_str())
    );
    if let Some(note) = &section.note {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", code_spans(note));
    }
    if section.rows.is_empty() {
        out.push_str("<p>None.</p>\n");
        return;
    }
    let _ = write!(
        out,
        "<div class=\"scroll\"><table class=\"sortable\" id=\"{}\" aria-labelledby=\"{}-title\"><thead><tr>",
        section.id, section.id
    );
    for column in &section.columns {
        let kind = if column.numeric { "num" } else { "text" };
        let _ = write!(
            out,
            "<th data-type=\"{kind}\" tabindex=\"0\" scope=\"col\">{}</th>",
            escape(column.name)
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &section.rows {
        out.push_str("<tr>");
        for c in row {
            cell(out, c);
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// Text with its `code` spans marked up.
fn code_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{}</code>", escape(part))
            } else {
                escape(part).into_owned()
            }
        })
        .collect()
}

pub fn page(estate: &Estate) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>pupcheck report</title><style>{STYLE}</style></head><body>\n\
         <h1>pupcheck report</h1>\n<p class=\"summary\">{}.</p>\n",
        code_spans(&super::report::summary(estate))
    );
    let sections = sections(estate);
    out.push_str("<nav>");
    for section in &sections {
        let _ = write!(
            out,
            "<a href=\"#{}-title\">{}</a>",
            section.id,
            escape(section.title.as_str())
        );
    }
    out.push_str("</nav>\n");
    for section in &sections {
        table(&mut out, section);
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}
