//! No input makes pupcheck panic or overflow its stack: random bytes, corrupted real
//! files, absurd nesting and very large files all end in diagnostics.
//!
//! The property tests run a few hundred cases by default; for a long run:
//!   PROPTEST_CASES=200000 cargo test --release --test robustness

use proptest::prelude::*;
use pupcheck::diagnostics::rule_ids;
use pupcheck::source::SourceKind;
use pupcheck::syntax::{self, MAX_NESTING};

/// Real code to corrupt: the grammar's test corpus inputs and the example module.
fn seeds() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seeds = Vec::new();
    for dir in [
        "examples/demo/manifests",
        "examples/demo/templates",
        "tree-sitter-puppet/test/corpus",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            seeds.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
    }
    seeds
}

fn parse_both_ways(text: &str) {
    let _ = syntax::parse_text(text, SourceKind::Manifest);
    let _ = syntax::parse_text(text, SourceKind::Epp);
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,300}") {
        parse_both_ways(&text);
    }

    #[test]
    fn random_puppet_punctuation_never_panics(
        text in "[ \\n${}()\\[\\]'\"@|<>%=:;,.*/#a-z$A-Z0-9-]{0,200}"
    ) {
        parse_both_ways(&text);
    }

    #[test]
    fn corrupted_real_files_never_panic(
        seed in 0usize..64,
        edits in proptest::collection::vec((any::<usize>(), 0u8..3, "[{}()\\[\\]'\"@|<%>$=:;,\\n]"), 1..8)
    ) {
        let seeds = seeds();
        let mut text = seeds[seed % seeds.len()].clone();
        for (at, op, insert) in edits {
            if text.is_empty() {
                text.push_str(&insert);
                continue;
            }
            let mut i = at % text.len();
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            match op {
                0 => text.insert_str(i, &insert),
                1 => {
                    let mut j = i + 1;
                    while j < text.len() && !text.is_char_boundary(j) {
                        j += 1;
                    }
                    text.replace_range(i..j.min(text.len()), "");
                }
                _ => text.replace_range(i..i, &insert),
            }
        }
        parse_both_ways(&text);
    }
}

fn assert_too_deep(text: &str) {
    let parsed = syntax::parse_text(text, SourceKind::Manifest);
    assert!(
        parsed
            .diagnostics
            .iter()
            .any(|d| d.rule == rule_ids::SYNTAX_ERROR && d.message.contains("nested")),
        "expected a nesting diagnostic, got {:?}",
        parsed
            .diagnostics
            .iter()
            .map(|d| &d.message)
            .collect::<Vec<_>>()
    );
}

#[test]
fn nesting_ten_thousand_levels_deep_is_a_diagnostic() {
    let n = 10_000;
    assert_too_deep(&format!("$a = {}1{}\n", "[".repeat(n), "]".repeat(n)));
    assert_too_deep(&format!("$a = {}1{}\n", "(".repeat(n), ")".repeat(n)));
    assert_too_deep(&format!("$a = {}1{}\n", "{a => ".repeat(n), "}".repeat(n)));
    assert_too_deep(&format!("{}{}\n", "if $x { ".repeat(n), "}".repeat(n)));
    assert_too_deep(&format!("$a = 1{}\n", " + 1".repeat(n)));
    assert_too_deep(&format!("$a = {}1\n", "!".repeat(n)));
    // Unbalanced: only openers.
    let _ = syntax::parse_text(&"[".repeat(n), SourceKind::Manifest);
    let _ = syntax::parse_text(&"${".repeat(n), SourceKind::Manifest);
}

/// Just below the limit the code is lowered, on the default 2 MiB test thread stack
/// (debug build): the limit leaves room for the recursion of later layers.
#[test]
fn nesting_below_the_limit_is_lowered_on_a_small_stack() {
    let n = MAX_NESTING - 10;
    let text = format!("$a = {}1{}\n", "[".repeat(n), "]".repeat(n));
    let result = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let parsed = syntax::parse_text(&text, SourceKind::Manifest);
            (parsed.diagnostics.len(), parsed.program.body.len())
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(result, (0, 1));
}

#[test]
fn a_fifty_megabyte_file_is_parsed() {
    let unit =
        "file { \"/tmp/x${i}\":\n  ensure  => file,\n  content => @(END),\n    text\n    END\n}\n";
    let count = 50 * 1024 * 1024 / unit.len() + 1;
    let text = unit.repeat(count);
    assert!(text.len() >= 50 * 1024 * 1024);
    let parsed = syntax::parse_text(&text, SourceKind::Manifest);
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        parsed.diagnostics.first()
    );
    assert_eq!(parsed.program.body.len(), count);
}
