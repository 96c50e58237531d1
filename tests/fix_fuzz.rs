//! `--fix` on damaged real code: every rule example of the repository, mutated many ways
//! (lines dropped, duplicated or swapped, brackets, quotes, arrows and commas inserted or
//! deleted, the text cut short), is fixed twice with every rule and unsafe fixes on. The
//! first run must end (no panic: no internal-error finding), and the second must change
//! nothing: `--fix` reaches its fixed point in one run, and never runs away.
//!
//! Deterministic (a fixed seed per file); `scripts/fuzz.sh` is the long, random version
//! over the corpus.

use pupcheck::config::Settings;
use pupcheck::env::Environment;
use pupcheck::fix::{fix_source, Allowed};
use pupcheck::source::SourceKind;
use std::path::{Path, PathBuf};

/// A small deterministic generator (xorshift), so the test needs no seed file.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The failing and passing examples of every rule: real code, full of findings to fix.
fn seeds() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    let mut files = Vec::new();
    for rule in std::fs::read_dir(root).unwrap() {
        for file in std::fs::read_dir(rule.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy();
            if (name.starts_with("fail") || name.starts_with("pass")) && name.ends_with(".pp") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

const INSERTS: &[&str] = &[
    "{", "}", "(", ")", "[", "]", "'", "\"", "=>", ",", "$", "|", "\n", "  ", "${", ":", ";",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let at = rng.below(lines.len());
        match rng.below(6) {
            0 => {
                lines.remove(at);
            }
            1 => {
                let copy = lines[at].clone();
                lines.insert(at, copy);
            }
            2 => {
                let other = rng.below(lines.len());
                lines.swap(at, other);
            }
            3 | 4 => {
                let line = &mut lines[at];
                let mut cut = rng.below(line.len() + 1);
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line.insert_str(cut, INSERTS[rng.below(INSERTS.len())]);
            }
            _ => {
                let line = &mut lines[at];
                let mut cut = rng.below(line.len() + 1);
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                line.truncate(cut);
            }
        }
    }
    lines.join("\n") + "\n"
}

fn fix(text: &str) -> (String, Vec<String>) {
    let mut settings = Settings::default();
    settings
        .rules
        .apply(&pupcheck::config::selection::RuleLayer {
            select: Some(vec![pupcheck::config::selection::Selector::All]),
            ..Default::default()
        });
    let fixed = fix_source(
        PathBuf::from("x.pp"),
        SourceKind::Manifest,
        text.to_string(),
        &settings,
        &Environment::empty(),
        Allowed::Unsafe,
    );
    let internal = fixed
        .report
        .diagnostics
        .iter()
        .filter(|d| d.rule.as_str() == "internal-error")
        .map(|d| d.message.clone())
        .collect();
    (fixed.text, internal)
}

#[test]
fn fixing_damaged_code_ends_without_panic_at_a_fixed_point() {
    let mut problems = Vec::new();
    let (mut cases, mut changed) = (0, 0);
    for (n, path) in seeds().iter().enumerate() {
        // unreadable-file's example is Latin-1 on purpose: nothing to fix there.
        let Ok(original) = std::fs::read_to_string(path) else {
            continue;
        };
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1));
        for round in 0..6 {
            let damaged = mutate(&original, &mut rng);
            let (once, internal) = fix(&damaged);
            cases += 1;
            changed += usize::from(once != damaged);
            if !internal.is_empty() {
                problems.push(format!(
                    "{} #{round}: {internal:?}\n{damaged}",
                    path.display()
                ));
                continue;
            }
            let (twice, _) = fix(&once);
            if twice != once {
                problems.push(format!(
                    "{} #{round}: a second --fix changed the result\n--- damaged\n{damaged}\n--- once\n{once}\n--- twice\n{twice}",
                    path.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    // The test means something only if fixes happen.
    // (Most damage is a syntax error, and nothing is fixed in such a file.)
    assert!(
        changed * 20 > cases,
        "only {changed} of {cases} damaged files were fixed"
    );
}
