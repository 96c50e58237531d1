//! The Puppet grammar for tree-sitter: manifests (`.pp`) and, through a marker the
//! caller prepends, EPP templates (`.epp`). See the README for how to regenerate it.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_puppet() -> *const ();
}

/// The tree-sitter language of Puppet manifests and EPP templates.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_puppet) };

/// The bytes a caller puts before an EPP template's text so the grammar parses it as
/// a template (text with `<% %>` tags) instead of as a manifest. A manifest can never
/// start with them, so the two readings cannot be confused.
pub const EPP_MARKER: &str = "<%EPP%>";

/// The node types, as tree-sitter generated them.
pub const NODE_TYPES: &str = include_str!("../src/node-types.json");

/// The syntax-highlighting query.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../queries/highlights.scm");
