//! Syntax errors confirmed by Puppet: every file of tests/syntax/invalid is rejected by
//! `puppet parser validate` (or `puppet epp validate`) at the line recorded in
//! tests/syntax/expected.tsv (by tests/syntax/confirm_with_puppet.sh); pupcheck must
//! report a `syntax-error` on that line. Each corrected twin in tests/syntax/valid must
//! get no syntax error and no error-severity finding at all.

use pupcheck::diagnostics::Severity;
use std::path::Path;

struct Expected {
    file: String,
    verdict: String,
    line: Option<u32>,
    message: String,
}

fn expected() -> Vec<Expected> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/syntax");
    let text = std::fs::read_to_string(root.join("expected.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|row| {
            let cols: Vec<&str> = row.split('\t').collect();
            Expected {
                file: cols[0].to_string(),
                verdict: cols[1].to_string(),
                line: cols.get(2).and_then(|l| l.parse().ok()),
                message: cols.get(4).unwrap_or(&"").to_string(),
            }
        })
        .collect()
}

fn findings(file: &str) -> Vec<(Severity, &'static str, u32, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/syntax")
        .join(file);
    let report = pupcheck::check::check_text(path.clone(), std::fs::read(&path).unwrap());
    let source = report.source.as_ref();
    report
        .diagnostics
        .iter()
        .map(|d| {
            let line = source.map(|s| s.position(d.span.start).line).unwrap_or(1);
            (d.severity, d.rule.as_str(), line, d.message.clone())
        })
        .collect()
}

#[test]
fn invalid_files_get_a_syntax_error_where_puppet_reports_it() {
    let cases: Vec<Expected> = expected()
        .into_iter()
        .filter(|e| e.verdict == "error")
        .collect();
    assert!(cases.len() >= 40, "only {} invalid cases", cases.len());
    let mut misses = Vec::new();
    for case in &cases {
        let found = findings(&case.file);
        let syntax: Vec<_> = found.iter().filter(|f| f.1 == "syntax-error").collect();
        let ok = match case.line {
            Some(line) => syntax.iter().any(|f| f.2 == line),
            None => !syntax.is_empty(), // "at end of input": any line
        };
        if !ok {
            misses.push(format!(
                "{}: Puppet says line {:?} ({}); pupcheck: {:?}",
                case.file,
                case.line,
                case.message,
                syntax.iter().map(|f| (f.2, &f.3)).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        misses.is_empty(),
        "{} of {} invalid inputs missed:\n{}",
        misses.len(),
        cases.len(),
        misses.join("\n")
    );
}

#[test]
fn corrected_files_get_no_error() {
    let mut problems = Vec::new();
    for case in expected().into_iter().filter(|e| e.verdict == "ok") {
        for f in findings(&case.file) {
            if f.0 == Severity::Error {
                problems.push(format!("{}: line {}: {} {}", case.file, f.2, f.1, f.3));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// On a line where a syntax error starts, the rules report no error of their own:
/// Puppet reports only the parse error, and what they would judge there is the tree's
/// recovery from it (a merge conflict's markers make misplaced top-level statements).
#[test]
fn no_error_cascades_from_a_syntax_error_on_its_line() {
    let mut problems = Vec::new();
    for case in expected().into_iter().filter(|e| e.verdict == "error") {
        let found = findings(&case.file);
        let broken: Vec<u32> = found
            .iter()
            .filter(|f| f.1 == "syntax-error")
            .map(|f| f.2)
            .collect();
        for f in &found {
            if f.0 == Severity::Error && f.1 != "syntax-error" && broken.contains(&f.2) {
                problems.push(format!("{}: line {}: {} {}", case.file, f.2, f.1, f.3));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
