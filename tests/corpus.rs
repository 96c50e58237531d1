//! The real-world corpus (../shared/corpus): every manifest and template there is valid
//! Puppet, so every one must parse without tree-sitter error recovery (no ERROR or
//! MISSING node) and without any syntax diagnostic.
//!
//! The corpus is installed by `../shared/corpus/install.sh` (.ci/run does it). Without
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

/// Puppet rejects a statement that has no effect (a bare word, a literal, a variable)
/// unless it is the last one of its block (then it is the block's value). Such a
/// statement in the valid corpus means the grammar split an expression in two.
#[test]
fn no_corpus_statement_is_a_value_without_effect() {
    use pupcheck::ast::{walk_expr, Block, Expr, ExprKind, Visitor};

    struct Idem<'a> {
        found: &'a mut Vec<u32>,
    }
    impl Idem<'_> {
        fn check(&mut self, statements: &[Expr]) {
            if statements.len() < 2 {
                return;
            }
            for s in &statements[..statements.len() - 1] {
                if matches!(
                    s.kind,
                    ExprKind::Name(_)
                        | ExprKind::String(_)
                        | ExprKind::Integer(_)
                        | ExprKind::Float(_)
                        | ExprKind::Variable(_)
                        | ExprKind::TypeRef(_)
                        | ExprKind::Array(_)
                        | ExprKind::Hash(_)
                ) {
                    self.found.push(s.span.start);
                }
            }
        }
    }
    impl Visitor for Idem<'_> {
        fn visit_block(&mut self, block: &Block) {
            self.check(&block.statements);
            for s in &block.statements {
                self.visit_expr(s);
            }
        }
        fn visit_expr(&mut self, expr: &Expr) {
            walk_expr(self, expr);
        }
    }

    let Some(files) = corpus_files() else { return };
    let mut failures = Vec::new();
    for path in &files {
        let kind = SourceKind::from_path(path).unwrap_or(SourceKind::Manifest);
        if kind == SourceKind::Epp {
            continue; // template text runs are statements that do have an effect
        }
        let found = walk::FoundFile {
            path: path.clone(),
            kind,
        };
        let source = walk::read_file(&found).unwrap();
        let program = syntax::parse(&source).program;
        let mut found_at = Vec::new();
        let mut idem = Idem {
            found: &mut found_at,
        };
        idem.check(&program.body);
        for s in &program.body {
            idem.visit_expr(s);
        }
        for offset in found_at {
            failures.push(format!(
                "{}:{}",
                path.display(),
                source.position(offset).line
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "statements without effect:\n{}",
        failures.join("\n")
    );
}
