//! Expectations written inline in Puppet files (fixtures and rule examples):
//!
//! ```puppet
//! file { '/etc/motd':
//!   mode => '644',
//! #         ^^^^^ warning[file-mode]: mode should be represented as a 4 digit octal value or symbolic mode
//! }
//! ```
//! A line holding only `#`, spaces, carets and a verdict points at the columns of the
//! closest line above that is not itself such a marker. `# <- error[rule]: message`
//! points at column 1, `# <-140 ...` at column 140. A file without markers expects no
//! diagnostic.

#![allow(dead_code)]

use pupcheck::diagnostics::Diagnostic;
use pupcheck::source::SourceFile;
use pupcheck::source::{walk, SourceKind};
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub line: u32,
    pub column: u32,
    pub severity: String,
    pub rule: String,
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}[{}]: {}",
            self.line, self.column, self.severity, self.rule, self.message
        )
    }
}

fn parse_verdict(rest: &str) -> Option<(String, String, String)> {
    let rest = rest.trim();
    let open = rest.find('[')?;
    let close = rest.find("]:")?;
    let severity = rest[..open].to_string();
    if !["error", "warning", "info"].contains(&severity.as_str()) {
        return None;
    }
    let rule = rest[open + 1..close].to_string();
    // A message of several lines (Puppet lists each mismatch on its own) is written
    // on one, its line breaks as `\n`.
    let message = rest[close + 2..].trim().replace("\\n", "\n");
    Some((severity, rule, message))
}

/// The findings a file's markers expect.
pub fn expectations(text: &str) -> Vec<Finding> {
    let mut expected = Vec::new();
    let mut target_line = 0u32;
    for (i, line) in text.lines().enumerate() {
        let number = i as u32 + 1;
        let trimmed = line.trim_start();
        let Some(after_hash) = trimmed.strip_prefix('#') else {
            target_line = number;
            continue;
        };
        let marker = after_hash.trim_start();
        if let Some(rest) = marker.strip_prefix("<-") {
            // `<-` is column 1; `<-140` names the column (for places carets cannot reach).
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            let column = digits.parse().unwrap_or(1);
            if let Some((severity, rule, message)) = parse_verdict(&rest[digits.len()..]) {
                expected.push(Finding {
                    line: target_line,
                    column,
                    severity,
                    rule,
                    message,
                });
                continue;
            }
        }
        if marker.starts_with('^') {
            let caret = line.find('^').unwrap();
            let column = line[..caret].chars().count() as u32 + 1;
            let rest = marker.trim_start_matches('^');
            if let Some((severity, rule, message)) = parse_verdict(rest) {
                expected.push(Finding {
                    line: target_line,
                    column,
                    severity,
                    rule,
                    message,
                });
                continue;
            }
        }
        target_line = number;
    }
    expected.sort();
    expected
}

pub fn finding(source: &SourceFile, d: &Diagnostic) -> Finding {
    let p = source.position(d.span.start);
    Finding {
        line: p.line,
        column: p.column,
        severity: d.severity.to_string(),
        rule: d.rule.to_string(),
        message: d.message.clone(),
    }
}

/// What pupcheck reports for a file with every rule enabled (also those off by
/// default), as findings.
pub fn actual(path: &Path) -> Vec<Finding> {
    use pupcheck::config::{RuleLayer, Selector, Settings};
    let bytes = std::fs::read(path).unwrap();
    let mut settings = Settings::default();
    settings.rules.apply(&RuleLayer {
        select: Some(vec![Selector::All]),
        ..RuleLayer::default()
    });
    let env = pupcheck::check::environment_around(path, &[]);
    let report = pupcheck::check::check_text_with(path.to_path_buf(), bytes, &settings, &env);
    let mut found: Vec<Finding> = match &report.source {
        Some(source) => report
            .diagnostics
            .iter()
            .map(|d| finding(source, d))
            .collect(),
        None => report
            .diagnostics
            .iter()
            .map(|d| Finding {
                line: 1,
                column: 1,
                severity: d.severity.to_string(),
                rule: d.rule.to_string(),
                message: d.message.clone(),
            })
            .collect(),
    };
    found.sort();
    found
}

/// A readable difference, or `None` when both lists are equal.
pub fn difference(path: &Path, expected: &[Finding], actual: &[Finding]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let mut out = format!("{}:\n", path.display());
    for e in expected.iter().filter(|e| !actual.contains(e)) {
        out.push_str(&format!("  expected, not reported: {e}\n"));
    }
    for a in actual.iter().filter(|a| !expected.contains(a)) {
        out.push_str(&format!("  reported, not expected: {a}\n"));
    }
    Some(out)
}

// ------------------------------------------------------------------ the corpus

pub const MODULES: &str = "/usr/share/puppet/modules.available";

pub fn corpus_files() -> Option<Vec<PathBuf>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/corpus/files.sh");
    if !Path::new(MODULES).is_dir() || !script.exists() {
        if std::env::var("PUPCHECK_REQUIRE_CORPUS").as_deref() == Ok("1") {
            panic!("the corpus is not installed: run scripts/setup.sh");
        }
        eprintln!("corpus not installed; skipping (set PUPCHECK_REQUIRE_CORPUS=1 to require it)");
        return None;
    }
    let out = std::process::Command::new("bash")
        .arg(&script)
        .output()
        .expect("run files.sh");
    assert!(out.status.success(), "files.sh failed");
    let mut files: Vec<PathBuf> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(PathBuf::from)
        .collect();
    // The templates too: files.sh lists manifests only.
    let (found, _) = walk::find_files(&[PathBuf::from(MODULES)]);
    files.extend(
        found
            .into_iter()
            .filter(|f| f.kind == SourceKind::Epp && !f.path.to_string_lossy().contains("/spec/"))
            .map(|f| f.path),
    );
    Some(files)
}
