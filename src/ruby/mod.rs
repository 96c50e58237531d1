//! Modules' Ruby, read, never run: their 4.x functions' `dispatch` blocks and 3.x
//! functions' arity (`function`), and their resource types (`resource_type`), each read
//! as a syntax tree: tree-sitter's (`tree`) or, for the common shapes of a type file,
//! the skimmer's (`skim`), both answering through one trait (`syntax`). What a reader
//! is not sure of is unknown, never guessed.

pub mod function;
pub mod resource_type;
mod skim;
mod syntax;
mod tree;
