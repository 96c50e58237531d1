//! What the XML formats (`junit`, `checkstyle`) share: a quick-xml writer with the
//! declaration written, and attribute values and text escaped for XML 1.0: markup
//! characters become entities (apostrophes stay readable), line breaks in attributes
//! become character references (a parser would turn them into spaces), and characters
//! XML 1.0 cannot carry at all (most control characters) become U+FFFD.

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer;
use std::borrow::Cow;
use std::io::Write;

/// An indenting writer that has written `<?xml version="1.0" encoding="UTF-8"?>`.
pub fn writer(out: &mut dyn Write) -> std::io::Result<Writer<&mut dyn Write>> {
    let mut writer = Writer::new_with_indent(out, b' ', 2);
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    Ok(writer)
}

/// Where the files' parts go in a document's frame ([`frame`]): an element no report
/// holds otherwise.
pub const FILES_PLACE: &str = "pupcheck-files-place";

/// The text of a document around its files' parts: `write` writes the whole document
/// (declaration and all) with an empty [`FILES_PLACE`] element where the parts go, and
/// this gives what comes before that element's line and what comes after it. The parts
/// ([`part`]) each begin on a line of their own, so the document is the text before,
/// the parts, and the text after, exactly as if it were written at once.
pub fn frame(
    write: impl FnOnce(&mut Writer<&mut dyn Write>) -> std::io::Result<()>,
) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut text = Vec::new();
    let mut writer = self::writer(&mut text)?;
    write(&mut writer)?;
    finish(writer)?;
    let place = format!("<{FILES_PLACE}/>");
    let at = memchr::memmem::find(&text, place.as_bytes())
        .ok_or_else(|| std::io::Error::other("the files' place is in the frame"))?;
    let line = text[..at].iter().rposition(|&b| b == b'\n').unwrap_or(at);
    let after = text[at + place.len()..].to_vec();
    text.truncate(line);
    Ok((text, after))
}

/// One file's part of a document: `write` writes its element as if `depth` elements
/// were open around it (it begins with a line break and the indentation of that depth).
pub fn part(
    depth: usize,
    write: impl FnOnce(&mut Writer<&mut Vec<u8>>) -> std::io::Result<()>,
) -> std::io::Result<Vec<u8>> {
    let mut text = Vec::new();
    let mut writer = Writer::new_with_indent(&mut text, b' ', 2);
    for _ in 0..depth {
        writer.write_event(Event::Start(quick_xml::events::BytesStart::new("open")))?;
    }
    writer.get_mut().clear();
    write(&mut writer)?;
    Ok(text)
}

/// A report's XML document: the frame's text before the files' parts, each file's part
/// (`part` renders a file's element whole; the worker's part where it rendered it), and
/// the frame's text after them.
pub fn write_document(
    report: &crate::check::Report,
    (before, after): (Vec<u8>, Vec<u8>),
    part: impl Fn(&crate::check::FileReport) -> std::io::Result<Vec<u8>> + Sync,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    out.write_all(&before)?;
    // (A file's element is rendered whole, with its first unit of findings.)
    super::write_parts(
        report,
        |_, file, range| match range.start {
            0 => part(file),
            _ => Ok(Vec::new()),
        },
        |part| out.write_all(part),
    )?;
    out.write_all(&after)
}

/// Ends the document with a newline.
pub fn finish(mut writer: Writer<&mut dyn Write>) -> std::io::Result<()> {
    writeln!(writer.get_mut())
}

/// An attribute with its value escaped.
pub fn attr<'a>(key: &'a str, value: &str) -> Attribute<'a> {
    Attribute {
        key: QName(key),
        value: Cow::Owned(escape(value, true)),
    }
}

/// Character data, escaped.
pub fn text(value: &str) -> BytesText<'static> {
    BytesText::from_escaped(escape(value, false))
}

fn escape(value: &str, attribute: bool) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in allowed(value).chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if attribute => escaped.push_str("&quot;"),
            '\n' if attribute => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\t' if attribute => escaped.push_str("&#9;"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// `text` with every character XML 1.0 forbids replaced by U+FFFD.
fn allowed(text: &str) -> Cow<'_, str> {
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
    };
    if text.chars().all(allowed) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(
            text.chars()
                .map(|c| if allowed(c) { c } else { '\u{FFFD}' })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_escaped_for_xml() {
        assert_eq!(escape("a\u{1}b\tc", false), "a\u{FFFD}b\tc");
        assert_eq!(escape("<'a' & \"b\">", false), "&lt;'a' &amp; \"b\"&gt;");
        assert_eq!(escape("\"x\"\ny", true), "&quot;x&quot;&#10;y");
        assert!(matches!(allowed("plain"), Cow::Borrowed(_)));
    }
}
