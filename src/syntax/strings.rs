//! The text of string literals: escapes, heredoc margins and EPP trimming, following
//! Puppet's lexer (spec "Expressions", Literal Strings and Heredoc).

/// The value of a single-quoted string: only `\\` and `\'` are escapes.
pub fn single_quoted_value(raw: &str) -> String {
    let inner = raw
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or(raw);
    if !inner.contains('\\') {
        return inner.to_string();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek() {
                if next == '\\' || next == '\'' {
                    out.push(next);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// Which escapes a double-quoted string or heredoc processes.
#[derive(Debug, Clone, Copy)]
pub struct Escapes {
    pub tab: bool,
    pub carriage_return: bool,
    pub newline: bool,
    pub space: bool,
    pub unicode: bool,
    pub dollar: bool,
    /// `\` + line break joins lines.
    pub line_continuation: bool,
    /// `\"` and `\'` (double-quoted strings only).
    pub quotes: bool,
}

impl Escapes {
    /// Everything a double-quoted string processes.
    pub const DOUBLE_QUOTED: Escapes = Escapes {
        tab: true,
        carriage_return: true,
        newline: true,
        space: true,
        unicode: true,
        dollar: true,
        line_continuation: false,
        quotes: true,
    };

    /// The escapes of a heredoc header's `/flags` (`/` alone enables all).
    pub fn heredoc(flags: &str) -> Escapes {
        let all = flags.is_empty();
        Escapes {
            tab: all || flags.contains('t'),
            carriage_return: all || flags.contains('r'),
            newline: all || flags.contains('n'),
            space: all || flags.contains('s'),
            unicode: all || flags.contains('u'),
            dollar: all || flags.contains('$'),
            line_continuation: all || flags.contains('L'),
            quotes: false,
        }
    }
}

/// An escape that Puppet does not recognise: it is kept as written and warned about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEscape {
    /// Byte offset of the backslash in the text given to [`unescape`].
    pub offset: usize,
    pub sequence: String,
}

/// Applies escapes to `text`. `\\` is always an escape. Unknown escapes stay as written.
pub fn unescape(text: &str, escapes: Escapes, unknown: &mut Vec<UnknownEscape>) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut iter = text.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&(_, next)) = iter.peek() else {
            out.push('\\');
            break;
        };
        let simple = match next {
            '\\' => Some('\\'),
            't' if escapes.tab => Some('\t'),
            'r' if escapes.carriage_return => Some('\r'),
            'n' if escapes.newline => Some('\n'),
            's' if escapes.space => Some(' '),
            '$' if escapes.dollar => Some('$'),
            '"' | '\'' if escapes.quotes => Some(next),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            iter.next();
            continue;
        }
        if next == 'u' && escapes.unicode {
            iter.next();
            if let Some(ch) = read_unicode_escape(&mut iter) {
                out.push(ch);
                continue;
            }
            out.push_str("\\u");
            unknown.push(UnknownEscape {
                offset: i,
                sequence: "\\u".into(),
            });
            continue;
        }
        if escapes.line_continuation && (next == '\n' || next == '\r') {
            iter.next();
            if next == '\r' && iter.peek().map(|&(_, c)| c) == Some('\n') {
                iter.next();
            }
            continue;
        }
        if next == '\n' || next == '\r' {
            out.push('\\');
            continue;
        }
        unknown.push(UnknownEscape {
            offset: i,
            sequence: format!("\\{next}"),
        });
        out.push('\\');
    }
    out
}

fn read_unicode_escape(iter: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Option<char> {
    let mut digits = String::new();
    if iter.peek().map(|&(_, c)| c) == Some('{') {
        iter.next();
        while let Some(&(_, c)) = iter.peek() {
            iter.next();
            if c == '}' {
                break;
            }
            digits.push(c);
        }
    } else {
        for _ in 0..4 {
            match iter.peek() {
                Some(&(_, c)) if c.is_ascii_hexdigit() => {
                    digits.push(c);
                    iter.next();
                }
                _ => return None,
            }
        }
    }
    u32::from_str_radix(&digits, 16)
        .ok()
        .and_then(char::from_u32)
}

/// How the end line of a heredoc shapes its text: `|` removes the margin (the blanks
/// before it) from each line, `-` removes the last line break.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeredocEnd {
    pub margin: Option<String>,
    pub trim_last_break: bool,
}

/// Reads an end line such as `  |-  END` (Puppet's pattern is not anchored at the start
/// of the line: the tag ends the line, `|` and `-` may stand before it).
pub fn heredoc_end(line: &str, tag: &str) -> HeredocEnd {
    let line = line.trim_end_matches([' ', '\t', '\r']);
    let Some(before_tag) = line.strip_suffix(tag) else {
        return HeredocEnd::default();
    };
    let mut rest = before_tag.trim_end_matches([' ', '\t']);
    let trim_last_break = if let Some(r) = rest.strip_suffix('-') {
        rest = r.trim_end_matches([' ', '\t']);
        true
    } else {
        false
    };
    let margin = rest.strip_suffix('|').map(|r| {
        let blanks = r.len() - r.trim_end_matches([' ', '\t']).len();
        r[r.len() - blanks..].to_string()
    });
    HeredocEnd {
        margin,
        trim_last_break,
    }
}

/// Removes `margin` from the start of each line of `text`; `at_line_start` says whether
/// `text` itself starts at the beginning of a line.
pub fn strip_margin(text: &str, margin: &str, at_line_start: bool) -> String {
    if margin.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut first = true;
    for line in text.split_inclusive('\n') {
        let starts_line = !first || at_line_start;
        first = false;
        match line.strip_prefix(margin) {
            Some(rest) if starts_line => out.push_str(rest),
            _ => out.push_str(line),
        }
    }
    out
}

/// Removes the last line break (`\n` or `\r\n`) of a heredoc's text.
pub fn trim_last_break(text: &mut String) {
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
}

/// The literal text of an EPP text run, from the raw token: the run starts with the `%>`
/// (or `-%>`) that closes the previous tag and ends with the `<%` (or `<%-`) that opens
/// the next one, if any. `-%>` removes the line break right after it (with the blanks
/// before that break); `<%-` removes the blanks before it on its line.
pub fn epp_text(raw: &str) -> String {
    let (mut text, trim_after) = if let Some(rest) = raw.strip_prefix("-%>") {
        (rest, true)
    } else {
        (raw.strip_prefix("%>").unwrap_or(raw), false)
    };
    let mut trim_before = false;
    if let Some(rest) = text.strip_suffix("<%-") {
        text = rest;
        trim_before = true;
    } else if let Some(rest) = text.strip_suffix("<%") {
        text = rest;
    }
    if trim_after {
        // Puppet's EppScanner removes /[ \t]*\r?(\n|\z)?/: the blanks even without a
        // line break after them, and a lone CR.
        text = text.trim_start_matches([' ', '\t']);
        text = text.strip_prefix('\r').unwrap_or(text);
        text = text.strip_prefix('\n').unwrap_or(text);
    }
    if trim_before {
        text = text.trim_end_matches([' ', '\t']);
    }
    text.replace("<%%", "<%").replace("%%>", "%>")
}

/// What Ruby's regexp compiler says of a pattern whose brackets do not balance (the
/// only failures decided here, so a pattern Ruby accepts is never refused): a character
/// class left open (nested classes and `[:alpha:]` included), a group left open or
/// closed twice. Escapes, a `]` first in a class and `(?#...)` comments are Ruby's.
pub fn regex_structure_error(pattern: &str) -> Option<&'static str> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut groups = 0usize;
    let mut classes = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            i += 2;
            continue;
        }
        if classes > 0 {
            match c {
                '[' if chars.get(i + 1) == Some(&':') => {
                    // `[:alpha:]`, up to its `:]` (else a nested class).
                    let close = (i + 2..chars.len().saturating_sub(1))
                        .find(|&j| chars[j] == ':' && chars[j + 1] == ']');
                    match close {
                        Some(j) => i = j + 2,
                        None => {
                            classes += 1;
                            i += 1;
                            i += first_in_class(&chars, i);
                        }
                    }
                    continue;
                }
                '[' => {
                    classes += 1;
                    i += 1;
                    i += first_in_class(&chars, i);
                    continue;
                }
                ']' => classes -= 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            '[' => {
                classes = 1;
                i += 1;
                i += first_in_class(&chars, i);
                continue;
            }
            '(' if chars.get(i + 1) == Some(&'?') && chars.get(i + 2) == Some(&'#') => {
                // A comment: everything up to the next `)`.
                match (i + 3..chars.len()).find(|&j| chars[j] == ')') {
                    Some(j) => i = j + 1,
                    None => return Some("end pattern in group"),
                }
                continue;
            }
            '(' => groups += 1,
            ')' if groups == 0 => return Some("unmatched close parenthesis"),
            ')' => groups -= 1,
            _ => {}
        }
        i += 1;
    }
    if classes > 0 {
        Some("premature end of char-class")
    } else if groups > 0 {
        Some("end pattern with unmatched parenthesis")
    } else {
        None
    }
}

/// How many characters at the start of a class body are literal: a `^`, then a `]`
/// (Ruby reads `[]a]` and `[^]]` as classes holding `]`).
fn first_in_class(chars: &[char], at: usize) -> usize {
    let mut n = 0;
    if chars.get(at) == Some(&'^') {
        n += 1;
    }
    if chars.get(at + n) == Some(&']') {
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    fn regex_brackets_are_judged_as_ruby_does() {
        use super::regex_structure_error as e;
        // Each checked with puppet parser validate.
        assert_eq!(e("[a-"), Some("premature end of char-class"));
        assert_eq!(e("("), Some("end pattern with unmatched parenthesis"));
        assert_eq!(e(")"), Some("unmatched close parenthesis"));
        assert_eq!(e("a[[:alpha:]"), Some("premature end of char-class"));
        assert_eq!(e("[a[b]"), Some("premature end of char-class"));
        for fine in [
            "[]a]",
            "(?#(x)",
            "\\(",
            "[\\]]",
            "[^]]",
            "(?<n>a)",
            "a{2,",
            "[[:alpha:]]",
            "^(a|b)[c-d]$",
        ] {
            assert_eq!(e(fine), None, "{fine}");
        }
    }

    use super::*;

    #[test]
    fn single_quotes_keep_other_backslashes() {
        // spec 004 "Literal Strings": only \\ and \' are escapes in single quotes
        assert_eq!(single_quoted_value(r"'a\'b\\c\nd'"), r"a'b\c\nd");
    }

    #[test]
    fn double_quoted_escapes() {
        let mut unknown = Vec::new();
        let s = unescape(
            r#"a\tb\"c\u{1F600}\u00e9\$\d"#,
            Escapes::DOUBLE_QUOTED,
            &mut unknown,
        );
        assert_eq!(s, "a\tb\"c😀é$\\d");
        assert_eq!(unknown.len(), 1);
        assert_eq!(unknown[0].sequence, "\\d");
    }

    #[test]
    fn heredoc_end_line_margin_and_trim() {
        let end = heredoc_end("    |- END", "END");
        assert_eq!(end.margin.as_deref(), Some("    "));
        assert!(end.trim_last_break);
        assert_eq!(heredoc_end("END", "END"), HeredocEnd::default());
    }

    #[test]
    fn margin_is_removed_per_line() {
        assert_eq!(strip_margin("  a\n   b\nc\n", "  ", true), "a\n b\nc\n");
        assert_eq!(strip_margin("x\n  y", "  ", false), "x\ny");
    }

    #[test]
    fn epp_trimming() {
        assert_eq!(epp_text("-%>  \nabc  <%-"), "abc");
        assert_eq!(epp_text("%>\nabc <%"), "\nabc ");
        assert_eq!(epp_text("%>a <%% b"), "a <% b");
    }
}
