//! Cost of `accepts` over the lattice golden table (tests/golden/types/lattice.jsonl):
//! every pair of types is resolved once, then `accepts(a, b)` and `accepts(b, a)` are
//! timed. Prints the median and 99th percentile per call, over pairs without aliases
//! (non-recursive types) and over all pairs. Run by scripts/bench.sh.

use pupcheck::types::from_ast::{parse_aliases, parse_type_expr};
use pupcheck::types::resolve::{resolve_type, AliasTable};
use pupcheck::types::{accepts, Type};
use std::time::Instant;

fn resolve(text: &str, aliases: &AliasTable) -> Option<Type> {
    resolve_type(&parse_type_expr(text).ok()?, aliases).ok()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize]
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/types/lattice.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("lattice table");
    let mut plain = Vec::new();
    let mut all = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut aliases = AliasTable::new();
        let prelude = case.get("prelude").and_then(|p| p.as_str());
        if let Some(p) = prelude {
            for (name, body) in parse_aliases(p).unwrap_or_default() {
                aliases.insert(&name, body);
            }
        }
        let (Some(a), Some(b)) = (
            resolve(case["a"].as_str().unwrap_or(""), &aliases),
            resolve(case["b"].as_str().unwrap_or(""), &aliases),
        ) else {
            continue;
        };
        if case.get("error").is_some() {
            continue; // Puppet itself overflows on these
        }
        if prelude.is_none() {
            plain.push((a.clone(), b.clone()));
        }
        all.push((a, b));
    }
    for (label, pairs) in [("non-recursive pairs", &plain), ("all pairs", &all)] {
        let reps = 200;
        let mut per_call: Vec<f64> = pairs
            .iter()
            .map(|(a, b)| {
                let start = Instant::now();
                for _ in 0..reps {
                    std::hint::black_box(accepts(std::hint::black_box(a), std::hint::black_box(b)));
                    std::hint::black_box(accepts(std::hint::black_box(b), std::hint::black_box(a)));
                }
                start.elapsed().as_secs_f64() * 1e9 / (2 * reps) as f64
            })
            .collect();
        per_call.sort_by(|x, y| x.partial_cmp(y).unwrap());
        println!(
            "accepts, {label} ({}): median {:.0} ns, p99 {:.0} ns per call",
            pairs.len(),
            percentile(&per_call, 0.5),
            percentile(&per_call, 0.99)
        );
    }
}
