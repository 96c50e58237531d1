//! Rendering a [`Report`](crate::check::Report): one module per format. Formats decide
//! nothing about what is a finding; they only print.

pub mod catalog;
pub mod checkstyle;
pub mod concise;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod progress;
pub mod report;
pub mod report_html;
pub mod sarif;
pub mod statistics;
mod xml;

use crate::baseline::fingerprint::Fingerprints;
pub(crate) use crate::check::{positions, span_positions};
use crate::check::{FileReport, Report};
use codespan_reporting::term::termcolor::WriteColor;

/// The time the check's workers spent rendering files' parts, in nanoseconds of CPU
/// summed over the workers (what `--timings` shows beside the output's own time).
pub static RENDERED_IN_WORKERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The findings one rendering unit holds at most: a file with more is rendered in
/// several units, so that one huge file spreads over the cores too.
const UNIT_FINDINGS: usize = 1024;

/// The findings of a file the check's worker renders at most: while the other files
/// are checked on the other cores, one file's rendering only has to stay short beside
/// a check; one with tens of thousands of findings (a generated file) is better split.
const WORKER_FINDINGS: usize = 4 * UNIT_FINDINGS;

/// The units rendered at a time: what a run's rendered output holds in memory at once
/// is one batch, whatever the number of findings.
const BATCH_UNITS: usize = 64;

/// The formats of a check's report (`--format`), one module of this folder each.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Findings with source snippets, and a summary.
    Human,
    /// One line per finding: `path:line:col: rule message`.
    Concise,
    /// pupcheck's JSON report, with statistics.
    Json,
    /// SARIF 2.1.0 (GitHub code scanning and other SARIF viewers).
    Sarif,
    /// GitHub Actions annotations (workflow commands).
    Github,
    /// GitLab Code Quality report.
    Gitlab,
    /// JUnit XML: one test case per file.
    Junit,
    /// Checkstyle XML.
    Checkstyle,
}

/// What writing a report takes besides the report: the findings' fingerprints (SARIF
/// and GitLab's report use them) and how long the check took.
pub struct ReportContext<'a> {
    pub fingerprints: &'a Fingerprints,
    pub duration_ms: u128,
}

impl Format {
    /// Writes the whole report in this format.
    pub fn write(
        self,
        report: &Report,
        context: &ReportContext,
        out: &mut dyn WriteColor,
    ) -> std::io::Result<()> {
        let ReportContext {
            fingerprints,
            duration_ms,
        } = *context;
        match self {
            Format::Human => human::write(report, duration_ms, out),
            Format::Concise => write_concatenated(report, out, concise::part),
            Format::Json => json::write(report, duration_ms, out),
            Format::Sarif => sarif::write(report, fingerprints, out),
            Format::Github => write_concatenated(report, out, github::part),
            Format::Gitlab => gitlab::write(report, fingerprints, out),
            Format::Junit => junit::write(report, duration_ms, out),
            Format::Checkstyle => checkstyle::write(report, out),
        }
    }

    /// Whether its report holds the findings' fingerprints (other runs skip them).
    pub fn uses_fingerprints(self) -> bool {
        matches!(self, Format::Sarif | Format::Gitlab)
    }
}

/// A file's part of the report in a format (the human one with colour or without):
/// what the check's workers render of each file as its findings become final
/// ([`crate::check::Plan::render`]), and what [`write_parts`] renders of the files
/// they did not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartFormat {
    pub format: Format,
    /// For [`Format::Human`]: whether the part has colour.
    pub color: bool,
}

impl PartFormat {
    /// The whole of `file`'s part of the report, or `None` to leave it to the report's
    /// writer: a file with more findings than [`WORKER_FINDINGS`] is rendered there in
    /// several units, on every core.
    pub fn render(self, file: &FileReport) -> Option<Vec<u8>> {
        let all = 0..file.diagnostics.len();
        if all.len() > WORKER_FINDINGS {
            return None;
        }
        let part = match self.format {
            Format::Human => human::part(file, all, self.color),
            Format::Concise => concise::part(file, all),
            Format::Json => json::part(file, all),
            Format::Github => github::part(file, all),
            // (`None`: a finding of a rule outside the catalogue, which only the
            // report's writer can number.)
            Format::Sarif => return sarif::worker_part(file).ok().flatten(),
            Format::Gitlab => gitlab::worker_part(file),
            Format::Junit => junit::part(file),
            Format::Checkstyle => checkstyle::part(file),
        };
        part.ok()
    }
}

/// One piece of the report's files' parts: a file the check's worker rendered, or a
/// range of a file's findings to render now.
enum Unit {
    Rendered(usize),
    Findings(usize, std::ops::Range<usize>),
}

/// Hands the report's files' parts to `write` in the report's order: what the check's
/// workers rendered as it is, the rest rendered here on every core, a bounded batch at
/// a time (a run with many findings spends no serial time formatting them, and never
/// holds their whole rendering). `render` gets a file (with its index in the report)
/// and the range of its findings to render; a file without findings is rendered once,
/// with an empty range.
pub(crate) fn write_parts(
    report: &Report,
    render: impl Fn(usize, &FileReport, std::ops::Range<usize>) -> std::io::Result<Vec<u8>> + Sync,
    write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_parts_finishing(report, render, unchanged, write)
}

/// A report in a format that is nothing but its findings one after another (a line
/// each): every part as `part` renders it, written out in order.
pub(crate) fn write_concatenated(
    report: &Report,
    out: &mut dyn std::io::Write,
    part: fn(&FileReport, std::ops::Range<usize>) -> std::io::Result<Vec<u8>>,
) -> std::io::Result<()> {
    write_parts(
        report,
        |_, file, range| part(file, range),
        |p| out.write_all(p),
    )
}

/// A worker's part as it is.
pub(crate) fn unchanged(part: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    std::borrow::Cow::Borrowed(part)
}

/// [`write_parts`], with `finish` making the final text of each part a worker
/// rendered (SARIF numbers the rules a report uses only once all are known).
pub(crate) fn write_parts_finishing(
    report: &Report,
    render: impl Fn(usize, &FileReport, std::ops::Range<usize>) -> std::io::Result<Vec<u8>> + Sync,
    finish: impl for<'a> Fn(&'a [u8]) -> std::borrow::Cow<'a, [u8]> + Sync,
    mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    use std::borrow::Cow;
    let units: Vec<Unit> = report
        .files
        .iter()
        .enumerate()
        .flat_map(|(index, file)| {
            let n = file.diagnostics.len();
            let starts = match file.rendered {
                Some(_) => 0..0,
                None => 0..n.max(1),
            };
            let rendered = file.rendered.as_ref().map(|_| Unit::Rendered(index));
            rendered.into_iter().chain(
                starts
                    .step_by(UNIT_FINDINGS)
                    .map(move |start| Unit::Findings(index, start..(start + UNIT_FINDINGS).min(n))),
            )
        })
        .collect();
    for batch in units.chunks(BATCH_UNITS) {
        let parts: Vec<Cow<[u8]>> = batch
            .par_iter()
            .map(|unit| match unit {
                Unit::Rendered(index) => Ok(finish(
                    report.files[*index].rendered.as_deref().unwrap_or_default(),
                )),
                Unit::Findings(index, range) => {
                    render(*index, &report.files[*index], range.clone()).map(Cow::Owned)
                }
            })
            .collect::<std::io::Result<_>>()?;
        for part in parts {
            write(&part)?;
        }
    }
    Ok(())
}

/// `value` pretty-printed as an element of an array whose elements sit `indent`
/// spaces deep: a new line, the indentation, and the text serde_json's pretty printer
/// gives the element there (serialized straight at that depth, not re-indented).
pub(crate) fn json_element<T: serde::Serialize>(
    value: &T,
    indent: usize,
) -> std::io::Result<String> {
    let mut text = Vec::with_capacity(512);
    text.push(b'\n');
    text.resize(1 + indent, b' ');
    let formatter = PrettyAt {
        level: indent / 2,
        has_value: false,
    };
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut text, formatter,
    ))?;
    String::from_utf8(text).map_err(std::io::Error::other)
}

/// serde_json's `PrettyFormatter` (two spaces a level), begun `level` levels deep.
struct PrettyAt {
    level: usize,
    has_value: bool,
}

impl PrettyAt {
    fn new_line<W: ?Sized + std::io::Write>(
        &self,
        writer: &mut W,
        comma: bool,
    ) -> std::io::Result<()> {
        writer.write_all(if comma { b",\n" } else { b"\n" })?;
        (0..self.level).try_for_each(|_| writer.write_all(b"  "))
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.new_line(writer, false)?;
        }
        writer.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for PrettyAt {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.new_line(writer, !first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.new_line(writer, !first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// The report's findings with their fingerprints as the elements of a pretty-printed
/// JSON array whose closing bracket sits `indent` spaces deep (GitLab's issues, SARIF's
/// results), through [`write_parts_finishing`]: `part` renders a range of a file's
/// findings given their fingerprints, and `finish` makes the final text of a part the
/// check's worker rendered.
pub(crate) fn write_fingerprinted_array(
    report: &Report,
    fingerprints: &crate::baseline::fingerprint::Fingerprints,
    indent: usize,
    out: &mut dyn std::io::Write,
    part: impl Fn(
            &FileReport,
            std::ops::Range<usize>,
            &[crate::baseline::fingerprint::Fingerprint],
        ) -> std::io::Result<Vec<u8>>
        + Sync,
    finish: impl for<'a> Fn(&'a [u8]) -> std::borrow::Cow<'a, [u8]> + Sync,
) -> std::io::Result<()> {
    let mut array = JsonArray::new(indent);
    write_parts_finishing(
        report,
        |index, file, range| part(file, range.clone(), &fingerprints.file(index)[range]),
        finish,
        |elements| {
            if elements.is_empty() {
                return Ok(());
            }
            array.push(out, elements)
        },
    )?;
    array.finish(out)
}

/// The elements of a pretty-printed JSON array (`json_element`), each rendered by
/// `element`, joined as [`JsonArray`] joins them: one file's part of such an array.
pub(crate) fn json_elements<T>(
    items: impl IntoIterator<Item = T>,
    mut element: impl FnMut(T) -> std::io::Result<String>,
) -> std::io::Result<Vec<u8>> {
    let mut part = Vec::new();
    for item in items {
        if !part.is_empty() {
            part.push(b',');
        }
        part.extend_from_slice(element(item)?.as_bytes());
    }
    Ok(part)
}

pub(crate) struct JsonArray {
    indent: usize,
    empty: bool,
}

impl JsonArray {
    pub(crate) fn new(indent: usize) -> JsonArray {
        JsonArray {
            indent,
            empty: true,
        }
    }

    /// Writes elements (one, or several already joined by commas).
    pub(crate) fn push(
        &mut self,
        out: &mut dyn std::io::Write,
        elements: &[u8],
    ) -> std::io::Result<()> {
        out.write_all(if self.empty { b"[" } else { b"," })?;
        self.empty = false;
        out.write_all(elements)
    }

    pub(crate) fn finish(self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.empty {
            out.write_all(b"[]")
        } else {
            write!(out, "\n{:width$}]", "", width = self.indent)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, PartFormat};
    use crate::baseline::fingerprint::Fingerprints;
    use crate::check::{self, Report};
    use crate::config::{Resolver, RuleLayer, Selector};
    use clap::ValueEnum;
    use codespan_reporting::term::termcolor::Buffer;
    use std::path::PathBuf;

    fn write(format: PartFormat, report: &Report) -> Vec<u8> {
        let fingerprints = Fingerprints::of_contexts(report);
        let context = super::ReportContext {
            fingerprints: &fingerprints,
            duration_ms: 1,
        };
        let mut buffer = if format.color {
            Buffer::ansi()
        } else {
            Buffer::no_color()
        };
        format.format.write(report, &context, &mut buffer).unwrap();
        buffer.into_inner()
    }

    /// Every format writes the same report whether the check's workers rendered the
    /// files' parts or the writer renders them: on the bundled example, with every rule,
    /// and with a file of more findings than a worker renders (its part is left to the
    /// writer, in several units).
    #[test]
    fn parts_rendered_by_the_workers_make_the_same_report() {
        let dir = std::env::temp_dir().join(format!("pupcheck-parts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let many = "$x = 1 \n".repeat(super::WORKER_FINDINGS + 10);
        std::fs::write(dir.join("many.pp"), many).unwrap();
        let roots = [
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/demo"),
            dir.clone(),
        ];
        let every_rule = RuleLayer {
            select: Some(vec![Selector::parse("all").unwrap()]),
            ..RuleLayer::default()
        };
        let mut resolver = Resolver::new(None, every_rule, &[]).unwrap();
        let mut formats = vec![PartFormat {
            format: Format::Human,
            color: true,
        }];
        formats.extend(Format::value_variants().iter().map(|&format| PartFormat {
            format,
            color: false,
        }));
        let mut plan = check::plan(&roots, &mut resolver).unwrap();
        let by_writer = check::check_plan(&plan, &());
        for format in formats {
            plan.render = Some(std::sync::Arc::new(move |file| format.render(file)));
            let by_workers = check::check_plan(&plan, &());
            assert!(by_workers.files.iter().any(|f| f.rendered.is_some()));
            assert!(by_workers.files.iter().any(|f| f.rendered.is_none()));
            assert!(
                by_workers
                    .files
                    .iter()
                    .map(|f| f.diagnostics.len())
                    .sum::<usize>()
                    > 100
            );
            let (expected, found) = (write(format, &by_writer), write(format, &by_workers));
            assert!(
                expected == found,
                "{format:?}:\n{}\n---\n{}",
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&found)
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
