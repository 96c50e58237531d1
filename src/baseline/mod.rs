//! Baselines: adopting pupcheck on a code base that already has findings.
//!
//! `--write-baseline FILE` records today's findings by [fingerprint](fingerprint);
//! `--baseline FILE` then hides the findings it records, so only new ones are reported
//! and fail the run. A finding matches an entry with the same context fingerprint (the
//! offending line and its neighbours) or, failing that, one with the same line
//! fingerprint (the offending line alone), each entry matching at most one finding.
//! Entries that match nothing are findings that were fixed; they are counted so the
//! user can prune the file.

pub mod fingerprint;

use crate::check::Report;
use fingerprint::{stable_path, Fingerprints};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// The baseline file's format version.
const FORMAT_VERSION: u32 = 1;
/// The largest baseline read: far above any real one (a finding takes ~200 bytes).
pub const BASELINE_LIMIT: u64 = 256 * 1024 * 1024;

/// A baseline file: `{"version":1,"fingerprint_version":1,"findings":[...]}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub fingerprint_version: u32,
    pub findings: Vec<Entry>,
}

/// One recorded finding. `line` and `message` are there for the reader; matching uses
/// the fingerprints only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub path: String,
    pub rule: String,
    pub line: u32,
    pub message: String,
    pub fingerprint: String,
    pub line_fingerprint: String,
}

/// What applying a baseline did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Findings hidden because the baseline records them.
    pub known: usize,
    /// Baseline entries whose finding is gone.
    pub fixed: usize,
}

impl Baseline {
    /// Every finding of a report.
    pub fn from_report(report: &Report, fingerprints: &Fingerprints) -> Baseline {
        let mut findings = Vec::new();
        for (index, file) in report.files.iter().enumerate() {
            let path = stable_path(&file.path);
            for (d, fp) in file.diagnostics.iter().zip(fingerprints.file(index)) {
                let line = crate::check::positions(file, d).0.line;
                findings.push(Entry {
                    path: path.clone(),
                    rule: d.rule.to_string(),
                    line,
                    message: d.message.clone(),
                    fingerprint: fp.context.clone(),
                    line_fingerprint: fp.line.clone(),
                });
            }
        }
        Baseline {
            version: FORMAT_VERSION,
            fingerprint_version: fingerprint::VERSION,
            findings,
        }
    }

    /// Reads a baseline (a regular file, at most [`BASELINE_LIMIT`] bytes).
    pub fn read(path: &Path) -> Result<Baseline, String> {
        let text = crate::source::read::read_text(path, BASELINE_LIMIT)
            .map_err(|e| format!("cannot read the baseline {}: {e}", path.display()))?;
        let baseline: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a pupcheck baseline: {e}", path.display()))?;
        if baseline.version != FORMAT_VERSION {
            return Err(format!(
                "{} has baseline format version {}; this pupcheck reads version {FORMAT_VERSION}",
                path.display(),
                baseline.version
            ));
        }
        if baseline.fingerprint_version != fingerprint::VERSION {
            return Err(format!(
                "{} was written with fingerprint version {}; run --write-baseline again",
                path.display(),
                baseline.fingerprint_version
            ));
        }
        Ok(baseline)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        text.push('\n');
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the baseline {}: {e}", path.display()))
    }

    /// Removes from `report` (and `fingerprints`, kept in step) the findings this
    /// baseline records.
    pub fn apply(&self, report: &mut Report, fingerprints: &mut Fingerprints) -> Outcome {
        let mut by_context: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        let mut by_line: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
        for (i, entry) in self.findings.iter().enumerate() {
            by_context
                .entry((&entry.path, &entry.fingerprint))
                .or_default()
                .push(i);
            by_line
                .entry((&entry.path, &entry.line_fingerprint))
                .or_default()
                .push(i);
        }
        let mut used = vec![false; self.findings.len()];
        let take = |candidates: Option<&Vec<usize>>, used: &mut [bool]| -> bool {
            let free = candidates.and_then(|c| c.iter().copied().find(|&i| !used[i]));
            if let Some(i) = free {
                used[i] = true;
            }
            free.is_some()
        };
        // Exact matches first, so a coarse match never steals an exact one's entry.
        let mut known: Vec<Vec<bool>> = Vec::with_capacity(report.files.len());
        for (index, file) in report.files.iter().enumerate() {
            let path = stable_path(&file.path);
            known.push(
                fingerprints
                    .file(index)
                    .iter()
                    .map(|fp| take(by_context.get(&(&*path, &*fp.context)), &mut used))
                    .collect(),
            );
        }
        for (index, file) in report.files.iter().enumerate() {
            let path = stable_path(&file.path);
            for (fp, known) in fingerprints.file(index).iter().zip(&mut known[index]) {
                if !*known {
                    *known = take(by_line.get(&(&*path, &*fp.line)), &mut used);
                }
            }
        }
        let outcome = Outcome {
            known: known.iter().flatten().filter(|&&k| k).count(),
            fixed: used.iter().filter(|&&u| !u).count(),
        };
        for (file, known) in report.files.iter_mut().zip(&known) {
            let mut index = 0;
            file.diagnostics.retain(|_| {
                index += 1;
                !known[index - 1]
            });
        }
        fingerprints.retain(|file, index| !known[file][index]);
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_text;
    use std::path::PathBuf;

    fn report(text: &str) -> Report {
        Report {
            files: vec![check_text(PathBuf::from("x.pp"), text.as_bytes().to_vec())],
            walk_errors: Vec::new(),
            files_checked: 1,
        }
    }

    #[test]
    fn known_findings_are_hidden_and_fixed_ones_counted() {
        let old = report("$a = \"x\"\n$b = \"y\"\n$c = \"z\"\n");
        let baseline = Baseline::from_report(&old, &Fingerprints::of(&old));
        assert_eq!(baseline.findings.len(), 3);
        // $b fixed, a line inserted above $a (its neighbour changed), $d new.
        let mut new = report("$z = 1\n$a = \"x\"\n$b = 'y'\n$c = \"z\"\n$d = \"w\"\n");
        let mut fingerprints = Fingerprints::of(&new);
        let outcome = baseline.apply(&mut new, &mut fingerprints);
        assert_eq!(outcome, Outcome { known: 2, fixed: 1 });
        let left: Vec<_> = new.diagnostics().map(|(_, d)| d.span.start).collect();
        assert_eq!(left.len(), 1);
        assert_eq!(fingerprints.file(0).len(), 1);
        assert!(
            new.files[0].source.as_ref().unwrap().text[left[0] as usize..].starts_with("\"w\"")
        );
    }

    #[test]
    fn identical_findings_are_matched_one_for_one() {
        let old = report("notice(\"x\")\nnotice(\"x\")\nnotice(\"x\")\n");
        let baseline = Baseline::from_report(&old, &Fingerprints::of(&old));
        let mut fewer = report("$b = 1\nnotice(\"x\")\nnotice(\"x\")\n");
        let mut fingerprints = Fingerprints::of(&fewer);
        let outcome = baseline.apply(&mut fewer, &mut fingerprints);
        assert_eq!(outcome, Outcome { known: 2, fixed: 1 });
        let mut more = report("notice(\"x\")\nnotice(\"x\")\nnotice(\"x\")\nnotice(\"x\")\n");
        let mut fingerprints = Fingerprints::of(&more);
        let outcome = baseline.apply(&mut more, &mut fingerprints);
        assert_eq!(outcome, Outcome { known: 3, fixed: 0 });
        assert_eq!(more.diagnostics().count(), 1);
    }
}
