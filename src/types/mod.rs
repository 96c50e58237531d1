//! The Puppet type system (spec 001 "Types, Values, and Variables").
//!
//! * [`model`]: the representation of every type ([`Type`], [`Kind`]).
//! * [`display`]: printing types as Puppet prints them.
//! * [`accepts()`], [`normalize()`], [`common()`], [`generalize()`]: the lattice
//!   operations, following Puppet 7 where it differs from the spec (`DEVIATIONS.md`).
//! * [`value`]: the evaluator's values; [`instance_of`], [`infer()`] on them.
//! * [`expr`]: the type-expression input tree, converted to types by [`resolve`].
//! * [`mismatch`]: Puppet's "expects ..., got ..." descriptions.
//! * [`query`]: answering oracle-format JSON cases (for `pupcheck types`).

pub mod accepts;
pub mod common;
pub mod disjoint;
pub mod display;
pub mod expr;
pub mod from_ast;
pub mod generalize;
pub mod guard;
pub mod infer;
pub mod init;
pub mod instance;
pub mod labels;
pub mod mismatch;
pub mod model;
pub mod normalize;
pub mod query;
pub mod resolve;
pub mod semver_range;
pub mod time;
pub mod value;

pub use accepts::accepts;
pub use common::common;
pub use generalize::generalize;
pub use infer::{infer, infer_detailed, infer_generalized};
pub use instance::instance_of;
pub use model::{t, Alias, IntRange, Kind, Type};
pub use normalize::normalize;
pub use value::Value;
