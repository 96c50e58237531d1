//! Fingerprints: a finding's identity that survives unrelated edits.
//!
//! A fingerprint is built from the rule, the file's [stable path](stable_path) and the
//! text of the offending line and its two neighbours (each trimmed), never from the line
//! number: inserting or deleting lines elsewhere in the file leaves it unchanged. When
//! the same rule fires several times on identical text in one file, an occurrence
//! counter keeps the fingerprints distinct. A second, coarser fingerprint uses the
//! offending line alone, so that editing a neighbouring line does not make an old
//! finding new (the baseline falls back to it; it is not unique).
//!
//! SARIF's `partialFingerprints`, GitLab's `fingerprint` and the baseline all use these.

use crate::check::{FileReport, Report};
use crate::diagnostics::{Diagnostic, RuleId};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Component, Path};

/// Bumped when the way fingerprints are computed changes (old baselines then no longer
/// match, so `--write-baseline` must be run again).
pub const VERSION: u32 = 1;

/// The identity of one finding.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fingerprint {
    /// Rule, path, the offending line with its neighbours, occurrence: unique in a
    /// report (what SARIF and GitLab show).
    pub context: String,
    /// Rule, path, the offending line alone: shared by findings on identical lines
    /// (the baseline matches these as a multiset). Empty where only the output asks
    /// ([`Fingerprints::of_contexts`]).
    pub line: String,
}

/// Which fingerprints of each finding to compute.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wanted {
    /// Both: a baseline matches on the line fingerprint when the context one changed.
    Both,
    /// The context fingerprint only: what SARIF and GitLab print.
    Context,
}

/// The fingerprints of every diagnostic of a report, file by file, in the report's order.
#[derive(Debug, Clone, Default)]
pub struct Fingerprints {
    files: Vec<Vec<Fingerprint>>,
}

impl Fingerprints {
    /// Computed file by file in parallel: a run with many findings hashes the lines
    /// around each.
    pub fn of(report: &Report) -> Fingerprints {
        Fingerprints::computed(report, Wanted::Both)
    }

    /// The context fingerprints only (`line` left empty): what an output format prints,
    /// for half the hashing when no baseline is read or written. None for the files
    /// whose part of the report the check's workers rendered (with theirs).
    pub fn of_contexts(report: &Report) -> Fingerprints {
        Fingerprints::computed(report, Wanted::Context)
    }

    fn computed(report: &Report, wanted: Wanted) -> Fingerprints {
        use rayon::prelude::*;
        Fingerprints {
            files: report
                .files
                .par_iter()
                .map(|file| match (&file.rendered, wanted) {
                    (Some(_), Wanted::Context) => Vec::new(),
                    _ => fingerprints_of(file, wanted),
                })
                .collect(),
        }
    }

    /// The fingerprints of the `index`th file's diagnostics.
    pub fn file(&self, index: usize) -> &[Fingerprint] {
        self.files.get(index).map_or(&[], Vec::as_slice)
    }

    /// Keeps the fingerprints whose diagnostics `keep` accepts, mirroring a filter
    /// applied to the report (so the survivors keep their fingerprints).
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(usize, usize) -> bool) {
        for (file, fingerprints) in self.files.iter_mut().enumerate() {
            let mut index = 0;
            fingerprints.retain(|_| {
                index += 1;
                keep(file, index - 1)
            });
        }
    }
}

/// The fingerprints of one file's diagnostics, in order.
pub fn file_fingerprints(file: &FileReport) -> Vec<Fingerprint> {
    fingerprints_of(file, Wanted::Both)
}

/// The context fingerprints of one file's diagnostics, in order (`line` left empty):
/// what SARIF and GitLab print.
pub fn file_context_fingerprints(file: &FileReport) -> Vec<Fingerprint> {
    fingerprints_of(file, Wanted::Context)
}

fn fingerprints_of(file: &FileReport, wanted: Wanted) -> Vec<Fingerprint> {
    let path = stable_path(&file.path);
    let mut seen: HashMap<String, u32> = HashMap::new();
    // The digests of one rule on one line, computed once: a line holding thousands of
    // findings (a one-line resource with 60,000 attributes) is hashed once, not once per
    // finding.
    let mut digests: HashMap<(&'static str, usize), (String, String)> = HashMap::new();
    file.diagnostics
        .iter()
        .map(|d| {
            let compute = || {
                let (context, line) = texts(file, d);
                let line = match wanted {
                    Wanted::Both => digest(d.rule, &path, &line),
                    Wanted::Context => String::new(),
                };
                (digest(d.rule, &path, &context), line)
            };
            let (context, line) = match offending_line(file, d) {
                Some(n) => digests
                    .entry((d.rule.as_str(), n))
                    .or_insert_with(compute)
                    .clone(),
                None => compute(),
            };
            let occurrence = seen.entry(context.clone()).or_insert(0);
            let fingerprint = Fingerprint {
                context: with_occurrence(&context, *occurrence),
                line,
            };
            *occurrence += 1;
            fingerprint
        })
        .collect()
}

/// The line a diagnostic is on, where the file's text is known.
fn offending_line(file: &FileReport, d: &Diagnostic) -> Option<usize> {
    let source = file.source.as_ref()?;
    Some(
        source
            .lines
            .line_of(d.span.start.min(source.text.len() as u32)),
    )
}

/// The offending line with its neighbours, and the offending line alone, each line
/// trimmed. A file whose text is not available (it could not be read) has the message
/// instead.
fn texts(file: &FileReport, d: &Diagnostic) -> (String, String) {
    let Some(source) = &file.source else {
        return (d.message.clone(), d.message.clone());
    };
    let line_text = |line: usize| -> &str {
        let Some(start) = source.lines.line_start(line) else {
            return "";
        };
        let end = source
            .lines
            .line_start(line + 1)
            .map_or(source.text.len(), |e| e as usize);
        source.text[start as usize..end].trim()
    };
    let line = source
        .lines
        .line_of(d.span.start.min(source.text.len() as u32));
    let before = line.checked_sub(1).map_or("", line_text);
    let context = format!("{before}\n{}\n{}", line_text(line), line_text(line + 1));
    (context, line_text(line).to_string())
}

fn digest(rule: RuleId, path: &str, text: &str) -> String {
    // The version's tag, as `pupcheck-fingerprint-v{VERSION}` spells it.
    const TAG_PREFIX: &str = "pupcheck-fingerprint-v";
    let version = VERSION.to_string();
    let mut hasher = Sha256::new();
    let tag_len = (TAG_PREFIX.len() + version.len()) as u64;
    hasher.update(tag_len.to_le_bytes());
    hasher.update(TAG_PREFIX.as_bytes());
    hasher.update(version.as_bytes());
    for part in [rule.as_str(), path, text] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    hex(&hasher.finalize()[..16])
}

fn with_occurrence(digest: &str, occurrence: u32) -> String {
    if occurrence == 0 {
        digest.to_string()
    } else {
        format!("{digest}-{occurrence}")
    }
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// The path as fingerprints and machine-readable formats name it: relative to the
/// working directory when it is under it, `/`-separated, without `.` components.
pub fn stable_path(path: &Path) -> String {
    // Asked once: every finding of every format asks (a system call each, 20,000 in a
    // run over the corpus), and pupcheck never changes its working directory.
    static CWD: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let cwd = CWD.get_or_init(|| std::env::current_dir().ok());
    let relative = match cwd {
        Some(cwd) if path.is_absolute() => path.strip_prefix(cwd).unwrap_or(path),
        _ => path,
    };
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::RootDir => absolute = true,
            Component::Prefix(p) => parts.push(p.as_os_str().to_string_lossy().into_owned()),
            Component::ParentDir => parts.push("..".into()),
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_text;
    use std::path::PathBuf;

    fn fingerprints(text: &str) -> Vec<Fingerprint> {
        file_fingerprints(&check_text(
            PathBuf::from("m/x.pp"),
            text.as_bytes().to_vec(),
        ))
    }

    #[test]
    fn lines_inserted_above_leave_fingerprints_unchanged() {
        let before = fingerprints("$a = \"x\"\n\n$b = \"y\"\n");
        let after = fingerprints("# new\n$c = 1\n$a = \"x\"\n\n$b = \"y\"\n");
        assert_eq!(before.len(), 2);
        assert_eq!(after.len(), 2);
        // The first finding's upper neighbour changed: only its line fingerprint holds.
        assert_ne!(before[0].context, after[0].context);
        assert_eq!(before[0].line, after[0].line);
        assert_eq!(before[1], after[1]);
    }

    #[test]
    fn the_output_formats_fingerprints_are_the_baselines() {
        let file = check_text(
            PathBuf::from("m/x.pp"),
            b"$a = \"x\"\n$a = \"x\"\n".to_vec(),
        );
        let both = fingerprints_of(&file, Wanted::Both);
        let contexts = fingerprints_of(&file, Wanted::Context);
        assert!(both.len() >= 2 && both.len() == contexts.len());
        for (b, c) in both.iter().zip(&contexts) {
            assert_eq!(b.context, c.context);
            assert!(!b.line.is_empty() && c.line.is_empty());
        }
    }

    #[test]
    fn identical_findings_get_distinct_fingerprints() {
        let found = fingerprints("$a = \"x\"\n$a = \"x\"\n$a = \"x\"\n$a = \"x\"\n");
        let distinct: std::collections::HashSet<_> = found.iter().map(|f| &f.context).collect();
        assert_eq!(distinct.len(), found.len());
    }

    #[test]
    fn paths_are_relative_and_slash_separated() {
        assert_eq!(stable_path(Path::new("./a/./b.pp")), "a/b.pp");
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(stable_path(&cwd.join("m").join("x.pp")), "m/x.pp");
        assert_eq!(stable_path(Path::new("/elsewhere/x.pp")), "/elsewhere/x.pp");
    }
}
