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
