
// Produced by the pipeline when checking a file panics (`src/check/isolate.rs`).
declare_rule! {
    /// ## What it does
    /// Reports a file pupcheck could not finish checking because pupcheck itself failed (a
    /// panic: a bug). The message says what failed and where in pupcheck's code. The file's other
    /// findings are unknown; every other file is checked and reported as usual, and the run
    /// fails (exit status 1), so the gap is never silent.
    ///
    /// ## Why it matters
    /// A checker that loses a whole report to one unexpected file would be switched off; one
    /// that skipped the file quietly would hide the gap.
    ///
    /// ## Example
    /// Any file that makes pupcheck fail. (The test suite makes one fail on purpose, with a
    /// marker only debug builds look for.)
    ///
    /// ## How to fix
    /// Report it with the file (or the smallest part of it that still fails). Until it is
    /// fixed, `exclude` the file in `pupcheck.toml` to keep the run green.
    "internal-error" (Syntax, Error)
    "pupcheck failed on the file (a bug in pupcheck); the other files were checked"
}
