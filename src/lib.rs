//! pupcheck: a static type checker and linter for the Puppet language.
//!
//! See ARCHITECTURE.md for the layers and the way data flows between them.

pub mod types;
