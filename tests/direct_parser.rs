//! The direct parser (`syntax::direct`) against tree-sitter: wherever the direct parser
//! reads a text, the program and diagnostics must be tree-sitter's, and tree-sitter must
//! read the text without error. Compared on every manifest of the corpus, and on
//! damaged copies of them (a few bytes deleted, a token inserted or replaced), where
//! the direct parser must give up wherever tree-sitter finds an error.
//!
//! `PUPCHECK_DIRECT_FILES=LIST cargo test --release --test direct_parser` compares them
//! on the files LIST names, one path a line (the public repositories, for example).

mod common;

use pupcheck::source::SourceKind;
use pupcheck::syntax;
use std::path::PathBuf;

/// Whether the direct parser reads `text` as tree-sitter does (`None`: it gives up).
/// `Some(Err)` describes a difference.
fn compare(text: &str) -> Option<Result<(), String>> {
    let (program, diagnostics) = syntax::direct::parse(text)?;
    let expected = syntax::parse_with_tree_sitter(text, SourceKind::Manifest);
    if expected.error_nodes != 0 {
        return Some(Err(format!(
            "tree-sitter finds {} error nodes",
            expected.error_nodes
        )));
    }
    if expected.program != program {
        let a = format!("{:#?}", expected.program);
        let b = format!("{program:#?}");
        let at = a.lines().zip(b.lines()).position(|(x, y)| x != y);
        let line =
            |t: &str, i: Option<usize>| i.and_then(|i| t.lines().nth(i)).unwrap_or("").to_string();
        return Some(Err(format!(
            "programs differ: tree-sitter `{}`, direct `{}`",
            line(&a, at).trim(),
            line(&b, at).trim()
        )));
    }
    if expected.diagnostics != diagnostics {
        return Some(Err(format!(
            "diagnostics differ: tree-sitter {:?}, direct {:?}",
            expected.diagnostics, diagnostics
        )));
    }
    Some(Ok(()))
}

fn manifests() -> Option<Vec<PathBuf>> {
    if let Ok(list) = std::env::var("PUPCHECK_DIRECT_FILES") {
        let text = std::fs::read_to_string(list).expect("the list of files");
        return Some(text.lines().map(PathBuf::from).collect());
    }
    let files = common::corpus_files()?;
    Some(
        files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "pp"))
            .collect(),
    )
}

#[test]
fn the_direct_parser_reads_the_corpus_as_tree_sitter_does() {
    let Some(files) = manifests() else { return };
    let (mut read, mut total, mut failures, mut refused) = (0, 0, Vec::new(), Vec::new());
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        total += 1;
        match compare(&text) {
            None => refused.push(path.display().to_string()),
            Some(Ok(())) => read += 1,
            Some(Err(why)) => failures.push(format!("{}: {why}", path.display())),
        }
    }
    eprintln!("the direct parser reads {read} of {total} manifests");
    // (Those it gives up on are parsed by tree-sitter, several times slower: named, so
    // that what they hold can be read.)
    for path in &refused {
        eprintln!("  gives up on {path}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // It is the parser of nearly every manifest: a change that makes it give up on
    // many more files would only show as a slower check.
    if std::env::var("PUPCHECK_DIRECT_FILES").is_err() {
        assert!(read * 100 >= total * 99, "only {read} of {total}");
    }
}

#[test]
fn the_direct_parser_gives_up_where_tree_sitter_finds_an_error() {
    let Some(files) = manifests() else { return };
    // A xorshift generator: the same damage on every run.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    const PIECES: &[&str] = &[
        "{", "}", "(", ")", "[", "]", ",", ";", ":", "=>", "=", "->", "$", "\"", "'", "/", "|",
        "?", "*", "-", "!", ".", "@", "<|", "|>", "\n(", " [", "if ", "else", "class ", "${", "\\",
        "#", "/*", "0x", "1.", "::", "Foo", "foo", "in ", "and ", "<<", ">>", "@(",
    ];
    let (mut tried, mut failures) = (0, Vec::new());
    for path in files.iter().step_by(4) {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        if text.is_empty() || !text.is_ascii() {
            continue;
        }
        for _ in 0..20 {
            let mut damaged = text.clone();
            let at = next() % damaged.len();
            match next() % 3 {
                0 => {
                    let end = (at + 1 + next() % 4).min(damaged.len());
                    damaged.replace_range(at..end, "");
                }
                1 => damaged.insert_str(at, PIECES[next() % PIECES.len()]),
                _ => damaged.replace_range(at..at + 1, PIECES[next() % PIECES.len()]),
            }
            tried += 1;
            if let Some(Err(why)) = compare(&damaged) {
                let from = at.saturating_sub(40);
                let to = (at + 40).min(damaged.len());
                failures.push(format!(
                    "{} damaged at byte {at} ({:?}): {why}",
                    path.display(),
                    &damaged[from..to]
                ));
            }
        }
    }
    eprintln!("{tried} damaged manifests compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
