//! Source files: text, byte spans and the line index that turns offsets into positions.
//!
//! Every later layer speaks in [`Span`]s (byte ranges into one file's text). Lines and
//! columns are computed on demand from the [`LineIndex`], so AST nodes stay small.

pub mod confined;
mod line_index;
pub mod path_order;
pub mod read;
mod span;
pub mod temporary;
pub mod walk;

pub use line_index::{LineIndex, Position};
pub use span::Span;

use std::path::{Path, PathBuf};

/// What kind of Puppet source a file holds, decided by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    /// A `.pp` manifest.
    Manifest,
    /// An `.epp` template.
    Epp,
    /// A data file pupcheck checks without parsing it as Puppet: Hiera's YAML (found
    /// through a `hiera.yaml`), a module's `metadata.json`.
    Data,
}

impl SourceKind {
    /// The kind for a path, or `None` when pupcheck does not check such files.
    pub fn from_path(path: &Path) -> Option<SourceKind> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("pp") => Some(SourceKind::Manifest),
            Some("epp") => Some(SourceKind::Epp),
            _ => None,
        }
    }

    /// Whether a file of this name holds data pupcheck may read besides manifests:
    /// Hiera's YAML and hiera-eyaml files, a `metadata.json`.
    pub fn is_data_path(path: &Path) -> bool {
        matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "eyaml" | "json")
        )
    }
}

/// One file's text, as read from disk (or stdin), with its line index.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as the user gave it (or as found under a path they gave).
    pub path: PathBuf,
    pub kind: SourceKind,
    pub text: String,
    pub lines: LineIndex,
    /// The file started with a UTF-8 byte-order mark, left out of `text` (Puppet
    /// refuses such a file; the syntax layer says so).
    pub byte_order_mark: bool,
}

impl SourceFile {
    /// Each line with the byte offset where it starts, without its line break.
    pub fn each_line(&self) -> impl Iterator<Item = (u32, &str)> {
        self.lines.lines(&self.text)
    }

    pub fn new(path: impl Into<PathBuf>, kind: SourceKind, text: String) -> SourceFile {
        let lines = LineIndex::new(&text);
        SourceFile {
            path: path.into(),
            kind,
            text,
            lines,
            byte_order_mark: false,
        }
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    /// The byte offset of a 1-based line and column, if the text has them.
    pub fn offset(&self, line: u32, column: u32) -> Option<u32> {
        self.lines.offset(&self.text, line, column)
    }

    /// The 1-based line and column of a byte offset.
    pub fn position(&self, offset: u32) -> Position {
        self.lines.position(&self.text, offset)
    }
}

/// A path as pupcheck shows it in a message about another file (where a class is
/// defined, a data file): relative to the working folder when it is inside it, without
/// a leading `./`, so that one file is shown one way whether pupcheck found it under a
/// named path or through the modulepath.
pub fn shown_path(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok())
        .unwrap_or(path);
    let without_dot: PathBuf = relative
        .components()
        .skip_while(|c| matches!(c, std::path::Component::CurDir))
        .collect();
    without_dot.display().to_string()
}
