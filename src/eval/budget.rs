//! What one interpretation may spend. The code pupcheck interprets is a program that
//! can loop, recurse and grow its values without end (`999999.each |$i| { ... }`,
//! `$a1 = "${a0}${a0}"` forty times); Puppet on a real node would run out of time or
//! memory, and pupcheck must not. Every evaluator of one file's interpretation, and of
//! the bodies it calls into (functions, declared classes and defined types), draws on
//! one [`Budget`]:
//!
//! - **Steps.** Each expression evaluated is a step; the allowance grows with the
//!   file's size (a walk of the code visits each expression a few times, so real code
//!   never comes near it). Past the allowance, nothing repeats: an iteration, a
//!   function body, a class body or a declared body is no longer run and its value is
//!   known by its type only. Past twice the allowance, nothing more is evaluated.
//! - **Iterations.** One call walks at most [`MAX_ITERATIONS`] elements concretely;
//!   a longer collection is known by its elements' type.
//! - **Values.** A value the evaluator builds holds at most [`MAX_VALUE_NODES`]
//!   elements and [`MAX_TEXT_BYTES`] bytes of text, counted as a tree (an array that
//!   holds one array twice counts it twice: that is what printing or comparing it
//!   walks), or as much as the text of the expression building it (a literal written
//!   out in the code is never cut); a larger one is known by its type only.
//!
//! A cut never makes a finding: past a budget a value is less known, never otherwise
//! known, and the rules judge only what is certain. Real code never reaches a budget
//! (ARCHITECTURE.md gives the largest figures of the corpus and of the public
//! repositories); `PUPCHECK_BUDGET_STATS=1` prints each interpretation's figures on
//! stderr to measure them.

use crate::types::Value;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Steps any interpretation may take, whatever the size of its file.
pub const STEPS_FLOOR: u64 = 2_000_000;
/// Steps more for each byte of the interpreted file.
pub const STEPS_PER_BYTE: u64 = 16;
/// Elements one call of an iteration function walks concretely.
pub const MAX_ITERATIONS: usize = 100_000;
/// Elements (arrays' and hashes' entries, nested ones included) of one value built.
pub const MAX_VALUE_NODES: usize = 100_000;
/// Bytes of text (every string in it, nested ones included) of one value built.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// The allowance of one interpretation, shared by the evaluators it starts.
#[derive(Clone, Debug)]
pub struct Budget(Arc<Meter>);

#[derive(Debug)]
struct Meter {
    allowance: u64,
    steps: AtomicU64,
    /// The largest figures seen, for `PUPCHECK_BUDGET_STATS`.
    largest_value_nodes: AtomicU64,
    largest_value_bytes: AtomicU64,
    largest_iteration: AtomicU64,
}

impl Budget {
    /// The budget of interpreting a file of `bytes` bytes.
    pub fn for_source(bytes: usize) -> Budget {
        Budget(Arc::new(Meter {
            allowance: STEPS_FLOOR.saturating_add(STEPS_PER_BYTE.saturating_mul(bytes as u64)),
            steps: AtomicU64::new(0),
            largest_value_nodes: AtomicU64::new(0),
            largest_value_bytes: AtomicU64::new(0),
            largest_iteration: AtomicU64::new(0),
        }))
    }

    /// Counts `n` steps; `false` once twice the allowance is spent (nothing more is
    /// evaluated then).
    pub fn charge(&self, n: u64) -> bool {
        let before = self.0.steps.fetch_add(n, Relaxed);
        before.saturating_add(n) <= self.0.allowance.saturating_mul(2)
    }

    /// Whether the allowance is spent: nothing repeats any more (iterations, bodies).
    pub fn spent(&self) -> bool {
        self.0.steps.load(Relaxed) > self.0.allowance
    }

    /// Notes an iteration of `n` elements (for the statistics).
    pub fn note_iteration(&self, n: usize) {
        self.0.largest_iteration.fetch_max(n as u64, Relaxed);
    }

    /// Whether `value`, built by an expression of `source_bytes` bytes, fits the
    /// limits of a value built: the budget's, or what the expression's text can hold
    /// (a literal is never cut, however large; a value larger than its text came from
    /// values shared or computed). Measuring it is charged as steps (it walks at most
    /// the limits).
    pub fn fits(&self, value: &Value, source_bytes: usize) -> bool {
        let mut size = Size {
            nodes: 0,
            bytes: 0,
            max_nodes: MAX_VALUE_NODES.max(source_bytes),
            max_bytes: MAX_TEXT_BYTES.max(source_bytes),
        };
        let fits = size.add(value);
        self.charge(size.nodes as u64);
        self.0
            .largest_value_nodes
            .fetch_max(size.nodes as u64, Relaxed);
        self.0
            .largest_value_bytes
            .fetch_max(size.bytes as u64, Relaxed);
        fits
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if self.steps.load(Relaxed) > 0 && stats_wanted() {
            eprintln!(
                "pupcheck-budget steps={} allowance={} value_nodes={} value_bytes={} iteration={}",
                self.steps.load(Relaxed),
                self.allowance,
                self.largest_value_nodes.load(Relaxed),
                self.largest_value_bytes.load(Relaxed),
                self.largest_iteration.load(Relaxed),
            );
        }
    }
}

/// What a value too large to keep is known as: its kind, nothing of what it holds.
pub fn kind_of(value: &Value) -> crate::types::Type {
    use crate::types::t;
    match value {
        Value::String(_) => t::string(),
        Value::Array(_) => t::array(),
        Value::Hash(_) => t::hash(),
        Value::Iterator(_) => t::iterator_of(t::any()),
        other => crate::types::infer(other),
    }
}

fn stats_wanted() -> bool {
    static WANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WANTED.get_or_init(|| std::env::var_os("PUPCHECK_BUDGET_STATS").is_some_and(|v| v == "1"))
}

/// A value's size counted as a tree, up to its limits.
struct Size {
    nodes: usize,
    bytes: usize,
    max_nodes: usize,
    max_bytes: usize,
}

impl Size {
    /// Adds `value`; `false` as soon as a limit is passed (the walk stops there).
    fn add(&mut self, value: &Value) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        match value {
            Value::String(s) => {
                self.bytes += s.len();
                self.bytes <= self.max_bytes
            }
            Value::Array(items) => items.iter().all(|item| self.add(item)),
            Value::Hash(map) => map.iter().all(|(k, v)| self.add(k) && self.add(v)),
            Value::Iterator(it) => it.elements.iter().all(|item| self.add(item)),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_holding_one_array_many_times_counts_each_time() {
        let mut inner = Value::array(vec![Value::Integer(1); 10]);
        for _ in 0..30 {
            // Each level doubles the tree (2^30 leaves) while memory stays small.
            inner = Value::array(vec![inner.clone(), inner]);
        }
        let budget = Budget::for_source(0);
        assert!(!budget.fits(&inner, 10));
        // The walk stopped at the limit: it cost at most the limit in steps.
        assert!(budget.0.steps.load(Relaxed) <= MAX_VALUE_NODES as u64 + 1);
    }

    #[test]
    fn text_counts_every_string_in_the_value() {
        let s = Value::string(&"x".repeat(MAX_TEXT_BYTES / 2));
        let budget = Budget::for_source(0);
        assert!(budget.fits(&Value::array(vec![s.clone()]), 10));
        let three = Value::array(vec![s.clone(), s.clone(), s]);
        assert!(!budget.fits(&three, 10));
        // Written out in the code, it is never cut.
        assert!(budget.fits(&three, 2 * MAX_TEXT_BYTES));
    }

    #[test]
    fn the_allowance_grows_with_the_file_and_twice_it_stops_everything() {
        let budget = Budget::for_source(1000);
        let allowance = STEPS_FLOOR + 16 * 1000;
        assert!(budget.charge(allowance));
        assert!(!budget.spent());
        assert!(budget.charge(1));
        assert!(budget.spent());
        assert!(budget.charge(allowance - 1));
        assert!(!budget.charge(1));
    }
}
