//! `textDocument/formatting` and `rangeFormatting`: what `pupcheck check --fix` makes of
//! the document (the safe fixes only: whitespace, quoting, alignment, equivalent
//! spellings), as the few line edits that change it rather than one replacement of the
//! whole text (the editor keeps the cursor, folds and marks where nothing changed).
//! A range is fixed by `fix::fix_source_within` (only the fixes inside it, each whole),
//! never by keeping part of the whole file's changes: a fix moving a line (an
//! attribute, an arrow) changes two places, and half of it would change the code.

use super::document::Document;
use crate::source::Span;
use lsp_types::TextEdit;

/// The edits turning the document's text into `fixed`.
pub fn edits(doc: &Document, fixed: &str) -> Vec<TextEdit> {
    let before = doc.text.as_str();
    let old_starts = line_offsets(before);
    let new_starts = line_offsets(fixed);
    let diff = similar::TextDiff::from_lines(before, fixed);
    let mut edits = Vec::new();
    // A run of changed lines replacing as many lines is a change of each line (the
    // lines between that did not change are left alone); other runs are one change.
    let runs = diff.ops().iter().flat_map(|op| {
        let (tag, old, new) = op.as_tag_tuple();
        let pairwise = tag == similar::DiffTag::Replace && old.len() == new.len();
        let runs: Vec<_> = match (tag, pairwise) {
            (similar::DiffTag::Equal, _) => Vec::new(),
            (_, true) => old
                .clone()
                .zip(new.clone())
                .map(|(o, n)| (o..o + 1, n..n + 1))
                .collect(),
            (_, false) => vec![(old, new)],
        };
        runs
    });
    for (old, new) in runs {
        if old.len() == new.len()
            && before[old_starts[old.start] as usize..old_starts[old.end] as usize]
                == fixed[new_starts[new.start] as usize..new_starts[new.end] as usize]
        {
            continue;
        }
        let span = Span::new(old_starts[old.start], old_starts[old.end]);
        let replacement = &fixed[new_starts[new.start] as usize..new_starts[new.end] as usize];
        edits.push(TextEdit::new(doc.range(span), replacement.to_string()));
    }
    edits
}

/// The byte offset each line starts at, and the text's end.
fn line_offsets(text: &str) -> Vec<u32> {
    let mut starts = vec![0];
    starts.extend(
        text.match_indices('\n')
            .map(|(i, _)| i as u32 + 1)
            .filter(|&i| (i as usize) < text.len()),
    );
    starts.push(text.len() as u32);
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Url};

    fn doc(text: &str) -> Document {
        Document::new(
            Url::parse("file:///m/manifests/init.pp").unwrap(),
            "/m/manifests/init.pp".into(),
            1,
            text.to_string(),
        )
    }

    /// The edits applied from the last to the first, as an editor does.
    fn applied(doc: &Document, edits: &[TextEdit]) -> String {
        let mut text = doc.text.clone();
        for edit in edits.iter().rev() {
            let start = doc.offset(edit.range.start) as usize;
            let end = doc.offset(edit.range.end) as usize;
            text.replace_range(start..end, &edit.new_text);
        }
        text
    }

    #[test]
    fn only_the_changed_lines_are_replaced() {
        let d = doc("a\nb  \nc\nd\"\ne");
        let fixed = "a\nb\nc\nd'\ne";
        let edits = edits(&d, fixed);
        assert_eq!(edits.len(), 2, "{edits:?}");
        assert_eq!(edits[0].range.start, Position::new(1, 0));
        assert_eq!(applied(&d, &edits), fixed);
        // A last line without its newline, changed.
        let d = doc("x\ny  ");
        assert_eq!(applied(&d, &super::edits(&d, "x\ny")), "x\ny");
        // Lines added and removed.
        let d = doc("a\nb\n");
        assert_eq!(applied(&d, &super::edits(&d, "a\nz\nb\n\n")), "a\nz\nb\n\n");
        assert_eq!(applied(&d, &super::edits(&d, "b\n")), "b\n");
    }
}
