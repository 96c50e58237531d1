//! pupcheck: a static type checker and linter for the Puppet language.
//!
//! See ARCHITECTURE.md for the layers and the way data flows between them.

mod analysis;
pub mod ast;
pub mod baseline;
pub mod builtin;
pub mod builtin_data;
pub mod cache;
pub mod catalog;
pub mod check;
pub mod cli;
pub mod config;
pub mod diagnostics;
pub mod env;
pub mod eval;
pub mod fix;
pub mod hiera;
pub mod infer;
pub mod output;
pub mod parallel;
pub mod report;
pub mod ruby;
pub mod rules;
pub mod server;
pub mod source;
pub mod statistics;
pub mod syntax;
pub mod types;

/// The version and the commit it was built from.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("PUPCHECK_COMMIT"),
    ")"
);
