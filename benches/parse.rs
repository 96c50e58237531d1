//! Parse throughput on the real-world corpus, single-threaded: tree-sitter alone, and the
//! whole syntax layer (tree-sitter + scan + syntax errors + lowering). Run by
//! scripts/bench.sh (`cargo bench --bench parse`); it is a measurement, not a test.

use pupcheck::source::{walk, SourceKind};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let list = std::env::var("PUPCHECK_BENCH_FILES")
        .unwrap_or_else(|_| "/tmp/pupcheck-bench-files.txt".into());
    let Ok(text) = std::fs::read_to_string(&list) else {
        eprintln!("no file list at {list}: run scripts/bench.sh");
        return;
    };
    let sources: Vec<_> = text
        .lines()
        .filter_map(|p| {
            let path = PathBuf::from(p);
            let kind = SourceKind::from_path(&path).unwrap_or(SourceKind::Manifest);
            walk::read_file(&walk::FoundFile {
                path,
                kind,
                within: None,
            })
            .ok()
        })
        .collect();
    let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
    let mb = bytes as f64 / 1e6;
    let rounds = 5;

    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_puppet::LANGUAGE.into())
        .unwrap();
    let best = |f: &mut dyn FnMut()| {
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    };
    let ts = best(&mut || {
        for s in &sources {
            let tree = parser.parse(&s.text, None).unwrap();
            std::hint::black_box(tree);
        }
    });
    let full = best(&mut || {
        for s in &sources {
            std::hint::black_box(pupcheck::syntax::parse(s));
        }
    });
    println!("files: {}  bytes: {:.2} MB", sources.len(), mb);
    println!(
        "tree-sitter parse only:       {:.3} s  {:.1} MB/s per thread",
        ts,
        mb / ts
    );
    println!(
        "syntax layer (parse + lower): {:.3} s  {:.1} MB/s per thread",
        full,
        mb / full
    );
}
