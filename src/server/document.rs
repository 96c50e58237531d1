//! An open document: the editor's text (not the file on disk), its version, and the
//! conversions between LSP positions (lines and UTF-16 code units) and the byte
//! offsets pupcheck's spans use.

use crate::source::{SourceKind, Span};
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Url};
use std::path::PathBuf;
use std::sync::Arc;

pub struct Document {
    pub uri: Url,
    /// Where the file is (or would be) on disk: its module, environment and
    /// configuration are found from here.
    pub path: PathBuf,
    pub version: i32,
    pub text: String,
    /// The byte offset each line starts at.
    line_starts: Vec<u32>,
    /// The text as the last check parsed and interpreted it: requests read it while its
    /// version is the document's.
    pub analysed: Option<Analysed>,
    /// The findings last published, with the version they are of.
    pub findings: Option<(i32, Arc<super::checker::Findings>)>,
}

/// What the last check of a document's text kept for the requests on it.
pub struct Analysed {
    pub version: i32,
    pub source: Arc<crate::source::SourceFile>,
    pub program: Arc<crate::ast::Program>,
    /// Where explaining an expression of a long body starts its walk (a hover): kept by
    /// the check's interpretation of this program in this environment.
    pub resume: Option<Arc<crate::infer::ResumePoints>>,
}

impl Document {
    pub fn new(uri: Url, path: PathBuf, version: i32, text: String) -> Document {
        let line_starts = line_starts(&text);
        Document {
            uri,
            path,
            version,
            text,
            line_starts,
            analysed: None,
            findings: None,
        }
    }

    /// A manifest or a template, by the file's name (a manifest when it says neither).
    pub fn kind(&self) -> SourceKind {
        SourceKind::from_path(&self.path).unwrap_or(SourceKind::Manifest)
    }

    /// Applies the editor's changes in order: each replaces a range (positions in the
    /// text as the previous changes left it), or the whole text. Changes of a version
    /// not newer than the document's are stale (a client resending, or messages out of
    /// order): applying them to text they were not made on would corrupt it, so they
    /// are left out; whether they were applied is returned.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) -> bool {
        if version <= self.version {
            return false;
        }
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.offset(range.start) as usize;
                    let end = (self.offset(range.end) as usize).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
                None => self.text = change.text,
            }
            self.line_starts = line_starts(&self.text);
        }
        self.version = version;
        true
    }

    /// The byte offset of `position`; a position past the end of its line is the
    /// line's end, one past the last line the end of the text (as LSP asks).
    pub fn offset(&self, position: Position) -> u32 {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len() as u32;
        };
        let line_end = self
            .line_starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next as usize);
        let line = &self.text[start as usize..line_end];
        let mut units = 0u32;
        for (index, c) in line.char_indices() {
            if units >= position.character || c == '\n' || c == '\r' {
                return start + index as u32;
            }
            units += c.len_utf16() as u32;
        }
        line_end as u32
    }

    /// The position of the byte offset `offset` (clamped to the text, and to a
    /// character boundary).
    pub fn position(&self, offset: u32) -> Position {
        let mut offset = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .line_starts
            .partition_point(|&start| start as usize <= offset)
            .saturating_sub(1);
        let start = self.line_starts[line] as usize;
        let character = self.text[start..offset]
            .chars()
            .map(|c| c.len_utf16() as u32)
            .sum();
        Position::new(line as u32, character)
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// How far pupcheck's offsets are from this text's: the byte-order mark it leaves
    /// out of the program.
    pub fn offset_shift(&self) -> u32 {
        if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        }
    }

    /// The range of a span pupcheck reported on this text.
    pub fn reported_range(&self, span: Span) -> Range {
        let shift = self.offset_shift();
        self.range(Span::new(span.start + shift, span.end + shift))
    }

    /// The offset pupcheck's spans give the place at `position`.
    pub fn reported_offset(&self, position: Position) -> u32 {
        self.offset(position).saturating_sub(self.offset_shift())
    }
}

/// The position of `offset` in any text (a file that is not open).
pub fn position_in(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = before[start..].chars().map(|c| c.len_utf16() as u32).sum();
    Position::new(line as u32, character)
}

fn line_starts(text: &str) -> Vec<u32> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i as u32 + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::new(
            Url::parse("file:///m/init.pp").unwrap(),
            PathBuf::from("/m/init.pp"),
            1,
            text.to_string(),
        )
    }

    #[test]
    fn positions_count_utf16_code_units() {
        // 'é' is two bytes and one unit; '𝄞' four bytes and two units.
        let d = doc("$a = 'é𝄞x'\n$b = 1\n");
        let x = d.text.find('x').unwrap() as u32;
        assert_eq!(d.position(x), Position::new(0, 9));
        assert_eq!(d.offset(Position::new(0, 9)), x);
        assert_eq!(
            d.offset(Position::new(1, 1)),
            d.text.find("b =").unwrap() as u32
        );
        // Past the end of a line: its end; past the last line: the text's end.
        assert_eq!(d.offset(Position::new(0, 99)), x + 2);
        assert_eq!(d.offset(Position::new(9, 0)), d.text.len() as u32);
    }

    #[test]
    fn incremental_changes_apply_in_order() {
        let mut d = doc("class a {\n}\n");
        d.apply(
            2,
            vec![
                TextDocumentContentChangeEvent {
                    range: Some(Range::new(Position::new(0, 6), Position::new(0, 7))),
                    range_length: None,
                    text: "bb".into(),
                },
                TextDocumentContentChangeEvent {
                    range: Some(Range::new(Position::new(1, 0), Position::new(1, 0))),
                    range_length: None,
                    text: "  $x = 1\n".into(),
                },
            ],
        );
        assert_eq!(d.text, "class bb {\n  $x = 1\n}\n");
        assert_eq!(d.version, 2);
        // A reversed range never panics.
        d.apply(
            3,
            vec![TextDocumentContentChangeEvent {
                range: Some(Range::new(Position::new(1, 4), Position::new(0, 2))),
                range_length: None,
                text: "!".into(),
            }],
        );
        assert!(d.text.contains('!'));
    }

    #[test]
    fn other_files_positions() {
        assert_eq!(position_in("a\nbé c", 6), Position::new(1, 3));
    }
}
