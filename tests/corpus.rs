//! The real-world corpus (the Puppet modules Debian packages): every manifest and template there is valid
//! Puppet, so every one must parse without tree-sitter error recovery (no ERROR or
//! MISSING node) and without any syntax diagnostic.
//!
//! The corpus is installed by `scripts/setup.sh` (scripts/test.sh runs it). Without
//! it this test fails when PUPCHECK_REQUIRE_CORPUS=1 (as in CI) and is skipped with a
//! message otherwise.

mod common;

use common::corpus_files;
use pupcheck::diagnostics::Severity;
use pupcheck::source::{walk, SourceKind};
use pupcheck::syntax;

#[test]
fn every_corpus_file_parses_without_error_recovery() {
    let Some(files) = corpus_files() else { return };
    assert!(files.len() >= 1887, "only {} corpus files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let kind = SourceKind::from_path(path).unwrap_or(SourceKind::Manifest);
        let found = walk::FoundFile {
            path: path.clone(),
            kind,
            within: None,
        };
        let source = walk::read_file(&found).expect("corpus files are readable UTF-8");
        let parsed = syntax::parse(&source);
        let errors: Vec<_> = parsed
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        if parsed.error_nodes > 0 || !errors.is_empty() {
            failures.push(format!(
                "{}: {} error nodes; {}",
                path.display(),
                parsed.error_nodes,
                errors
                    .iter()
                    .map(|d| format!("{} at {}", d.message, source.position(d.span.start).line))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus files fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Every corpus file passes `puppet parser validate`, which prints one warning there (a
/// defined type parameter named like a metaparameter in ceph::pool). pupcheck must report
/// no error at all but type findings, and among its validation findings exactly that
/// warning. Its type findings must be exactly those Puppet confirmed
/// (tests/golden/corpus_type_findings.tsv, scripts/corpus_type_findings.py).
#[test]
fn corpus_has_no_error_finding_and_only_puppets_one_validation_warning() {
    let Some(files) = corpus_files() else { return };
    let mut errors = Vec::new();
    let mut validation_warnings = Vec::new();
    let mut type_findings = Vec::new();
    // Cross-file checks read what the whole corpus defines, as in a run over it.
    let env = pupcheck::env::Environment::build([], &files).with_modulepaths_for(&files, &[]);
    // The default rules, and the type rules that are off by default too (as
    // scripts/corpus_type_findings.py records them).
    let mut settings = pupcheck::config::Settings::default();
    settings.rules.apply(&pupcheck::config::RuleLayer {
        extend_select: vec![pupcheck::config::Selector::Category(
            pupcheck::rules::Category::Type,
        )],
        ..Default::default()
    });
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let report = pupcheck::check::check_text_with(path.clone(), bytes, &settings, &env);
        for d in &report.diagnostics {
            let line = report
                .source
                .as_ref()
                .map(|s| s.position(d.span.start).line)
                .unwrap_or(1);
            let category = pupcheck::rules::find(d.rule.as_str()).map(|r| r.category);
            let entry = format!("{}:{line}: {} {}", path.display(), d.rule, d.message);
            if category == Some(pupcheck::rules::Category::Type) {
                let relative = path.strip_prefix(common::MODULES).unwrap_or(path);
                let relative = relative
                    .to_string_lossy()
                    .trim_start_matches('/')
                    .to_string();
                // Errors of the modules' own making (an API one module changed and
                // another still uses), each confirmed by Puppet: compared below.
                type_findings.push(format!("{relative}:{line}\t{}\t{}", d.rule, d.message));
            } else if d.severity == Severity::Error {
                errors.push(entry);
            } else if category == Some(pupcheck::rules::Category::Validation) {
                validation_warnings.push(entry);
            }
        }
    }
    assert!(
        errors.is_empty(),
        "error findings on valid code:\n{}",
        errors.join("\n")
    );
    assert_eq!(validation_warnings.len(), 1, "{validation_warnings:#?}");
    assert!(validation_warnings[0].contains("ceph/manifests/pool.pp"));
    assert!(validation_warnings[0].contains("metaparameter-name"));

    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/corpus_type_findings.tsv"
    ))
    .expect("the confirmed type findings");
    let mut confirmed: Vec<String> = table
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.splitn(4, '\t').take(3).collect::<Vec<_>>().join("\t"))
        .collect();
    confirmed.sort();
    type_findings.sort();
    assert_eq!(
        type_findings, confirmed,
        "type findings on the corpus differ from the ones Puppet confirmed: a new one is a \
         false alarm until `scripts/corpus_type_findings.py record` confirms it"
    );
}
