//! `--fix`: applies the safe fixes rules attach to their findings, re-checks, and repeats
//! until nothing changes; never keeps a round that makes the file parse worse; writes
//! the result atomically, and only when it changed.
//!
//! ```text
//! text ─check─▶ findings with fixes ─apply (safe, non-overlapping)─▶ text' ─check─▶ ...
//! ```

mod write;

pub use write::write_atomically;

use crate::check::{self, FileReport, Plan};
use crate::config::Settings;
use crate::diagnostics::RuleId;
use crate::diagnostics::{rule_ids, Applicability, Diagnostic, Edit};
use crate::env::Environment;
use crate::source::{SourceFile, SourceKind};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Rounds go on until nothing is left to fix, so one `--fix` reaches the fixed point
/// (each round of nested fixes, like `"${"${x}"}"`, undoes one level); more rounds than
/// this, or a text grown past twice its size, mean fixes keep undoing each other or run
/// away: stop there.
const MAX_ROUNDS: usize = 500;

/// What fixing one file did.
#[derive(Debug, Clone)]
pub struct Fixed {
    /// The fixed text (the original when nothing was fixed).
    pub text: String,
    /// How many findings of each rule were fixed.
    pub counts: BTreeMap<RuleId, usize>,
    /// Fixes not applied, by rule, because the file has syntax errors or the result
    /// would not parse.
    pub refused: BTreeMap<RuleId, usize>,
    /// The findings that remain in the fixed text.
    pub report: FileReport,
}

impl Fixed {
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }
}

/// Which fixes `--fix` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Allowed {
    /// Only those that keep the program's meaning.
    #[default]
    Safe,
    /// Also those that may change it (`--unsafe-fixes`).
    Unsafe,
}

impl Allowed {
    fn allows(self, applicability: Applicability) -> bool {
        applicability == Applicability::Safe || self == Allowed::Unsafe
    }
}

/// Fixes a file's text: rounds of check + apply until no allowed fix is left. A round
/// whose result has more syntax errors than its input is retried rule by rule, then fix
/// by fix, and only what keeps the file parsing is applied; fixing stops when nothing
/// is.
pub fn fix_source(
    path: PathBuf,
    kind: SourceKind,
    text: String,
    settings: &Settings,
    env: &Environment,
    allowed: Allowed,
) -> Fixed {
    fix_rounds(text, allowed, |text| {
        check_text(&path, kind, text, settings, env)
    })
}

/// Fixes only what lies inside `range` (byte offsets of `text`): the fixes all of
/// whose edits are inside it, round after round (the range's end moves with what the
/// fixes inside it add or remove; nothing before it changes). An editor's "format
/// selection": a fix whose edits reach outside (one moving an attribute from below the
/// selection) is left whole, never applied in part.
pub fn fix_source_within(
    path: PathBuf,
    kind: SourceKind,
    text: String,
    range: crate::source::Span,
    settings: &Settings,
    env: &Environment,
    allowed: Allowed,
) -> Fixed {
    let original = text.len() as i64;
    fix_rounds(text, allowed, |text| {
        let mut report = check_text(&path, kind, text, settings, env);
        let end = (i64::from(range.end) + text.len() as i64 - original).max(0) as u32;
        for d in &mut report.diagnostics {
            let inside = d.fix.as_ref().is_some_and(|f| {
                f.edits
                    .iter()
                    .all(|e| range.start <= e.span.start && e.span.end <= end)
            });
            if !inside {
                d.fix = None;
            }
        }
        report
    })
}

/// How many fixes of one rule are tried one at a time when the rule's fixes together
/// break the file (the others wait for the next round).
const SINGLE_TRIES: usize = 32;

/// The fixing loop, over any checker (tests give one with fixes of their own).
fn fix_rounds(text: String, allowed: Allowed, check: impl Fn(&str) -> FileReport) -> Fixed {
    let mut counts: BTreeMap<RuleId, usize> = BTreeMap::new();
    let mut refused: BTreeMap<RuleId, usize> = BTreeMap::new();
    let crlf = uses_crlf(&text);
    let mut current = text;
    let mut report = check(&current);
    let size_limit = current.len() * 2 + 4096;
    for _ in 0..MAX_ROUNDS {
        if current.len() > size_limit {
            break;
        }
        let candidates: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| {
                d.fix
                    .as_ref()
                    .is_some_and(|f| allowed.allows(f.applicability) && !f.edits.is_empty())
            })
            .collect();
        if candidates.is_empty() {
            break;
        }
        // What stays refused is what the last round refused.
        refused.clear();
        let limit = syntax_errors(&report);
        // Around a syntax error the tree is a guess (an arrow without its key, a body cut
        // short): fixes computed from it can move code without end. Nothing is fixed in
        // a file that does not parse, as puppet-lint fixes nothing there either.
        if limit > 0 {
            for d in candidates {
                *refused.entry(d.rule).or_default() += 1;
            }
            break;
        }
        let attempt = |subset: &[&Diagnostic]| {
            let (edits, applied) = allowed_edits(subset, crlf);
            if edits.is_empty() {
                return None;
            }
            let next = apply_edits(&current, &edits);
            if next == current {
                return None;
            }
            let next_report = check(&next);
            (syntax_errors(&next_report) <= limit).then_some((next, next_report, applied))
        };
        let accepted = attempt(&candidates).or_else(|| {
            // Keep what parses on its own: each rule's fixes together, else one by one.
            let mut good: Vec<&Diagnostic> = Vec::new();
            let mut rules: Vec<RuleId> = candidates.iter().map(|d| d.rule).collect();
            rules.sort_unstable();
            rules.dedup();
            for rule in rules {
                let of_rule: Vec<&Diagnostic> = candidates
                    .iter()
                    .copied()
                    .filter(|d| d.rule == rule)
                    .collect();
                if attempt(&of_rule).is_some() {
                    good.extend(of_rule);
                    continue;
                }
                for d in of_rule.into_iter().take(SINGLE_TRIES) {
                    if attempt(&[d]).is_some() {
                        good.push(d);
                    } else {
                        *refused.entry(d.rule).or_default() += 1;
                    }
                }
            }
            good.sort_by_key(|d| (d.span.start, d.span.end, d.rule));
            attempt(&good).or_else(|| good.first().and_then(|d| attempt(&[d])))
        });
        let Some((next, next_report, applied)) = accepted else {
            break;
        };
        for rule in applied {
            *counts.entry(rule).or_default() += 1;
        }
        current = next;
        report = next_report;
    }
    Fixed {
        text: current,
        counts,
        refused,
        report,
    }
}

/// Whether the file's lines end with CRLF (decided by its first line break).
pub fn uses_crlf(text: &str) -> bool {
    text.find('\n')
        .is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r')
}

fn check_text(
    path: &std::path::Path,
    kind: SourceKind,
    text: &str,
    settings: &Settings,
    env: &Environment,
) -> FileReport {
    check::check_source_with(SourceFile::new(path, kind, text.to_string()), settings, env)
}

fn syntax_errors(report: &FileReport) -> usize {
    report
        .diagnostics
        .iter()
        .filter(|d| d.rule == rule_ids::SYNTAX_ERROR)
        .count()
}

/// The edits of every fix that overlaps no fix taken before it (in source order), and
/// the rule of each fix taken. Rules write `\n`; in a CRLF file it becomes `\r\n`.
fn allowed_edits(diagnostics: &[&Diagnostic], crlf: bool) -> (Vec<Edit>, Vec<RuleId>) {
    let mut taken: Vec<Edit> = Vec::new();
    let mut rules = Vec::new();
    for d in diagnostics {
        let Some(fix) = &d.fix else { continue };
        let overlaps = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.span.end && t.span.start < e.span.end
                    // Two insertions at one place would have an order nobody chose.
                    || e.span.start == t.span.start
            })
        });
        if overlaps {
            continue;
        }
        taken.extend(fix.edits.iter().map(|e| Edit {
            span: e.span,
            replacement: if crlf && e.replacement.contains('\n') {
                e.replacement.replace("\r\n", "\n").replace('\n', "\r\n")
            } else {
                e.replacement.clone()
            },
        }));
        rules.push(d.rule);
    }
    taken.sort_by_key(|e| (e.span.start, e.span.end));
    (taken, rules)
}

/// Applies sorted, non-overlapping edits.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for e in edits {
        let (start, end) = (e.span.start as usize, e.span.end as usize);
        if start < at
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&e.replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// What `--fix` or `--diff` did to one file.
#[derive(Debug)]
pub struct FileOutcome {
    /// The findings left (of the fixed text; of the original when nothing changed).
    pub report: FileReport,
    /// The original and fixed text, when fixing changed something.
    pub change: Option<(String, String)>,
    pub counts: BTreeMap<RuleId, usize>,
    /// Fixes not applied because the file has syntax errors or the result would not
    /// parse, by rule.
    pub refused: BTreeMap<RuleId, usize>,
    /// Why the fixed text could not be written.
    pub write_error: Option<String>,
}

/// Fixes every planned file in parallel; writes the changed ones when `write` is set.
/// Unchanged files are never written. The outcomes are in path order.
pub fn fix_plan(plan: &Plan, write: bool, allowed: Allowed) -> Vec<FileOutcome> {
    if write {
        let folders: std::collections::BTreeSet<&std::path::Path> = plan
            .files
            .iter()
            .filter_map(|(found, _)| found.path.parent())
            .collect();
        for folder in folders {
            write::remove_leftovers(folder);
        }
    }
    let environments = check::environments_for(plan);
    let mut outcomes: Vec<FileOutcome> = plan
        .files
        .par_iter()
        .map(|(found, settings)| {
            let env = environments.for_file(&found.path);
            let unchanged = |report| FileOutcome {
                report,
                change: None,
                counts: BTreeMap::new(),
                refused: BTreeMap::new(),
                write_error: None,
            };
            let bytes = match crate::source::walk::read_found_bytes(found) {
                Ok(bytes) => bytes,
                Err(_) => return unchanged(check::check_found_file(found, settings, env)),
            };
            // Fixing is checking again and again: the file's working memory is reserved
            // from the run's pool, as a check's is.
            let pool = crate::parallel::MemoryPool::for_files();
            let _working = pool.reserve_for_source(bytes.len() as u64);
            let source = match crate::source::walk::source_from_bytes(
                found.path.clone(),
                found.kind,
                bytes.clone(),
            ) {
                Ok(source) => source,
                Err(unreadable) => {
                    return unchanged(FileReport {
                        path: found.path.clone(),
                        source: None,
                        diagnostics: vec![unreadable.into()],
                        rendered: None,
                    })
                }
            };
            let original = source.text;
            let fixing = || {
                fix_source(
                    found.path.clone(),
                    found.kind,
                    original.clone(),
                    settings,
                    env,
                    allowed,
                )
            };
            let fixed = match check::catch_file_panic(fixing) {
                Ok(fixed) => fixed,
                Err(internal_error) => {
                    return unchanged(FileReport {
                        path: found.path.clone(),
                        source: None,
                        diagnostics: vec![internal_error],
                        rendered: None,
                    })
                }
            };
            if fixed.text == original {
                let refused = fixed.refused;
                return FileOutcome {
                    refused,
                    ..unchanged(fixed.report)
                };
            }
            let write_error = if write {
                write_atomically(&found.path, &bytes, &fixed.text, &plan.write_roots).err()
            } else {
                None
            };
            FileOutcome {
                report: fixed.report,
                change: Some((original, fixed.text)),
                counts: fixed.counts,
                refused: fixed.refused,
                write_error,
            }
        })
        .collect();
    outcomes.sort_by(|a, b| a.report.path.cmp(&b.report.path));
    outcomes
}

/// A unified diff of one file's fix, `a/` and `b/` prefixed as git prints them.
pub fn unified_diff(path: &std::path::Path, before: &str, after: &str) -> String {
    let name = path.display().to_string();
    let name = name.strip_prefix("./").unwrap_or(&name).to_string();
    let (old, new) = if path.is_absolute() {
        (name.clone(), name)
    } else {
        (format!("a/{name}"), format!("b/{name}"))
    };
    let mut diff = similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&old, &new)
        .to_string();
    if !diff.ends_with('\n') {
        diff.push('\n');
    }
    diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Fix;
    use crate::source::Span;

    fn edit(start: u32, end: u32, text: &str) -> Edit {
        Edit {
            span: Span::new(start, end),
            replacement: text.into(),
        }
    }

    #[test]
    fn edits_replace_insert_and_delete() {
        let text = "abcdef";
        let edits = [edit(0, 1, "A"), edit(3, 3, "-"), edit(4, 6, "")];
        assert_eq!(apply_edits(text, &edits), "Abc-d");
    }

    #[test]
    fn overlapping_fixes_are_left_for_later() {
        let d = |start, end| {
            Diagnostic::warning(RuleId::declared("x"), Span::new(start, end), "m")
                .with_fix(Fix::replace(Span::new(start, end), ""))
        };
        let all = [d(0, 4), d(2, 6), d(10, 12)];
        let refs: Vec<&Diagnostic> = all.iter().collect();
        let (edits, rules) = allowed_edits(&refs, false);
        assert_eq!(edits.len(), 2);
        assert_eq!(rules.len(), 2);
    }

    #[test]
    fn line_breaks_in_replacements_follow_the_file() {
        assert!(uses_crlf("a\r\nb\n"));
        assert!(!uses_crlf("a\nb\r\n"));
        let d = Diagnostic::warning(RuleId::declared("x"), Span::at(1), "m")
            .with_fix(Fix::replace(Span::at(1), "\n# c"));
        let (edits, _) = allowed_edits(&[&d], true);
        assert_eq!(apply_edits("a\r\nb\r\n", &edits), "a\r\n# c\r\nb\r\n");
    }

    /// The rules' findings, plus one whose fix deletes the last `}` (it breaks the file).
    fn check_with_breaker(text: &str) -> FileReport {
        let mut report = check_text(
            std::path::Path::new("x.pp"),
            SourceKind::Manifest,
            text,
            &Settings::default(),
            &Environment::empty(),
        );
        if let Some(at) = text.rfind('}') {
            let span = Span::new(at as u32, at as u32 + 1);
            report.diagnostics.push(
                Diagnostic::warning(RuleId::declared("breaker"), span, "m")
                    .with_fix(Fix::replace(span, "")),
            );
        }
        report
    }

    #[test]
    fn a_file_with_a_syntax_error_is_not_fixed_and_stays_put() {
        // An arrow without its key: every round used to push the arrows further right.
        let text = "file { '/tmp/x':\n  ensure => file,\n  => 'b',\n  mode => '0644',\n}\n";
        let check = |t: &str| {
            let settings = Settings::default();
            let env = Environment::empty();
            check_text(
                std::path::Path::new("x.pp"),
                SourceKind::Manifest,
                t,
                &settings,
                &env,
            )
        };
        let fixed = fix_rounds(text.into(), Allowed::Unsafe, check);
        assert_eq!(fixed.text, text);
        assert!(fixed
            .refused
            .get(&RuleId::declared("arrow-alignment"))
            .is_some_and(|n| *n > 0));
    }

    #[test]
    fn a_refused_round_keeps_the_fixes_that_parse_alone() {
        // The real fixes, and a breaking one next to them.
        let check = check_with_breaker;
        let fixed = fix_rounds("class x {   \n}\n".into(), Allowed::Safe, check);
        assert_eq!(fixed.text, "class x {\n}\n");
        assert_eq!(
            fixed.counts.get(&RuleId::declared("trailing-whitespace")),
            Some(&1)
        );
        assert_eq!(fixed.refused.get(&RuleId::declared("breaker")), Some(&1));
    }

    #[test]
    fn a_round_that_breaks_the_syntax_is_thrown_away() {
        // A file whose only fix is the breaking one.
        let check = check_with_breaker;
        let fixed = fix_rounds("class x {\n}\n".into(), Allowed::Safe, check);
        assert_eq!(fixed.text, "class x {\n}\n");
        assert_eq!(fixed.total(), 0);
    }

    #[test]
    fn trailing_whitespace_is_fixed_until_stable() {
        let fixed = fix_source(
            "x.pp".into(),
            SourceKind::Manifest,
            "# @summary x\nclass x {   \n  notice('a')\t \n}\n".into(),
            &Settings::default(),
            &Environment::empty(),
            Allowed::Safe,
        );
        assert_eq!(fixed.text, "# @summary x\nclass x {\n  notice('a')\n}\n");
        assert_eq!(
            fixed.counts.get(&RuleId::declared("trailing-whitespace")),
            Some(&2)
        );
    }
}
