//! The grammar's own checks: the committed parser matches grammar.js, the test corpus
//! (tree-sitter's format, also run by `tree-sitter test`) parses as recorded, and the
//! highlight query compiles.

use sha2::{Digest, Sha256};
use std::path::Path;
use tree_sitter::{Node, Parser, Query};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn committed_parser_is_generated_from_the_current_grammar() {
    let grammar = std::fs::read(root().join("grammar.js")).unwrap();
    let digest = format!("{:x}", Sha256::digest(&grammar));
    let recorded = std::fs::read_to_string(root().join("src/grammar.js.sha256")).unwrap();
    assert_eq!(
        digest,
        recorded.trim(),
        "src/parser.c is stale: grammar.js changed since it was generated. Run ./regenerate.sh"
    );
}

fn parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_puppet::LANGUAGE.into())
        .unwrap();
    parser
}

/// The S-expression of a tree without field names, as `tree-sitter test` compares them.
fn sexp(node: Node, out: &mut String) {
    if !node.is_named() {
        return;
    }
    out.push('(');
    if node.is_missing() {
        out.push_str("MISSING ");
    }
    out.push_str(node.kind());
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.is_named() {
            out.push(' ');
            sexp(child, out);
        }
    }
    out.push(')');
}

fn normalize(s: &str) -> String {
    let spaced = s.replace('(', " (").replace(')', " ) ");
    spaced
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" )", ")")
        .replace("( ", "(")
}

struct Case {
    file: String,
    name: String,
    input: String,
    expected: String,
}

/// Reads tree-sitter's corpus format: a `===` header with the name, the input, a `---`
/// line, the expected tree.
fn read_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let dir = root().join("test/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        while i < lines.len() {
            if !lines[i].starts_with("===") {
                i += 1;
                continue;
            }
            let name = lines[i + 1].to_string();
            i += 3;
            let start = i;
            while !lines[i].starts_with("---") {
                i += 1;
            }
            let mut input = lines[start..i].join("\n");
            input = input.trim_start_matches('\n').to_string();
            let input = input.trim_end_matches('\n').to_string() + "\n";
            i += 1;
            let expected_start = i;
            while i < lines.len() && !lines[i].starts_with("===") {
                i += 1;
            }
            cases.push(Case {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                name,
                input,
                expected: lines[expected_start..i].join("\n"),
            });
        }
    }
    cases
}

#[test]
fn test_corpus_parses_as_recorded() {
    let cases = read_cases();
    assert!(cases.len() >= 50, "only {} corpus cases found", cases.len());
    let mut parser = parser();
    let mut failures = Vec::new();
    for case in &cases {
        let tree = parser.parse(&case.input, None).unwrap();
        let mut actual = String::new();
        sexp(tree.root_node(), &mut actual);
        if normalize(&actual) != normalize(&case.expected) {
            failures.push(format!(
                "{} / {}:\n  expected {}\n  actual   {}",
                case.file,
                case.name,
                normalize(&case.expected),
                normalize(&actual)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn highlight_query_compiles() {
    Query::new(
        &tree_sitter_puppet::LANGUAGE.into(),
        tree_sitter_puppet::HIGHLIGHTS_QUERY,
    )
    .expect("queries/highlights.scm is valid for the grammar");
}
