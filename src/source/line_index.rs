/// A 1-based line and column. Columns count characters (Unicode scalar values), as
/// editors and Puppet's own messages do, not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

/// The byte offset where each line starts, for offset → position look-ups.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    /// The 0-based lines holding a non-ASCII character, sorted: on the others a column
    /// is a byte difference, not a count of characters (counting made a long line with
    /// many findings quadratic).
    non_ascii_lines: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = Vec::with_capacity(text.len() / 32 + 1);
        line_starts.push(0);
        line_starts.extend(memchr_newlines(text.as_bytes()).map(|i| i as u32 + 1));
        let mut non_ascii_lines = Vec::new();
        if !text.is_ascii() {
            let mut line = 0u32;
            for &b in text.as_bytes() {
                if b == b'\n' {
                    line += 1;
                } else if b >= 0x80 && non_ascii_lines.last() != Some(&line) {
                    non_ascii_lines.push(line);
                }
            }
        }
        LineIndex {
            line_starts,
            non_ascii_lines,
        }
    }

    /// The number of lines (a text ending in a newline has an empty last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte offset where 0-based line `line` starts.
    pub fn line_start(&self, line: usize) -> Option<u32> {
        self.line_starts.get(line).copied()
    }

    /// Each line of `text` (the text this index was built from) with the byte offset
    /// where it starts, without its line break (`\n` or `\r\n`): the text-level rules'
    /// walk, with the breaks the index already found.
    pub fn lines<'t>(&'t self, text: &'t str) -> impl Iterator<Item = (u32, &'t str)> + 't {
        let ends = self.line_starts[1..]
            .iter()
            .map(|&next| next as usize - 1)
            .chain(std::iter::once(text.len()));
        self.line_starts
            .iter()
            .zip(ends)
            .filter_map(move |(&start, end)| {
                // After a final line break (or in an empty text) there is no line to walk.
                if start as usize == text.len() {
                    return None;
                }
                let line = &text[start as usize..end];
                Some((start, line.strip_suffix('\r').unwrap_or(line)))
            })
    }

    /// The 0-based line holding a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// The 1-based position of a byte offset in `text` (the text this index was built
    /// from). Offsets past the end, or inside a character, are clamped.
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let offset = offset.min(text.len() as u32);
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let ascii = self.non_ascii_lines.binary_search(&(line as u32)).is_err();
        let column = if ascii {
            (end - start) as u32 + 1
        } else {
            text[start..end].chars().count() as u32 + 1
        };
        Position {
            line: line as u32 + 1,
            column,
        }
    }

    /// The byte offset of a 1-based line and column (a column counts characters, as
    /// `position` does); `None` past the end of the line or of the text.
    pub fn offset(&self, text: &str, line: u32, column: u32) -> Option<u32> {
        let start = *self.line_starts.get((line as usize).checked_sub(1)?)? as usize;
        let end = self
            .line_starts
            .get(line as usize)
            .map_or(text.len(), |&next| next as usize);
        let line_text = &text[start..end];
        let skip = (column as usize).checked_sub(1)?;
        let within = match line_text.char_indices().nth(skip) {
            Some((i, _)) => i,
            None if line_text.chars().count() == skip => line_text.len(),
            None => return None,
        };
        Some((start + within) as u32)
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_texts_between_line_breaks() {
        for text in [
            "",
            "a",
            "a\n",
            "\n",
            "\n\n",
            "a\r\nb",
            "a\nb\r\n",
            "é\n\r\nx",
        ] {
            let index = LineIndex::new(text);
            let mut offset = 0;
            let split: Vec<(u32, &str)> = text
                .split_inclusive('\n')
                .map(|raw| {
                    let start = offset;
                    offset += raw.len() as u32;
                    let line = raw.strip_suffix('\n').unwrap_or(raw);
                    (start, line.strip_suffix('\r').unwrap_or(line))
                })
                .collect();
            assert_eq!(index.lines(text).collect::<Vec<_>>(), split, "{text:?}");
        }
    }

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let text = "ab\ncé d\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position { line: 1, column: 1 });
        assert_eq!(index.position(text, 3), Position { line: 2, column: 1 });
        // 'd' is after the two-byte 'é' and a space: byte 7, column 4
        assert_eq!(index.position(text, 7), Position { line: 2, column: 4 });
        assert_eq!(index.line_count(), 3);
    }

    #[test]
    fn offsets_of_positions_count_characters() {
        let text = "ab\ncé d\n";
        let index = LineIndex::new(text);
        assert_eq!(index.offset(text, 2, 4), Some(7));
        assert_eq!(index.offset(text, 1, 3), Some(2));
        assert_eq!(index.offset(text, 1, 5), None);
        assert_eq!(index.offset(text, 9, 1), None);
        assert_eq!(index.offset(text, 1, 0), None);
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let text = "x";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 99), Position { line: 1, column: 2 });
    }
}
