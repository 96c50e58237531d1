//! A type finding's message read back into its parts. Every type rule words a mismatch
//! as Puppet's `TypeMismatchDescriber` does: a subject (`Class[Ntp]:`, `Ntp::Peer[x]:`,
//! `class 'ntp':`, `defined type 'ntp::peer':`, `'fn'`, `the EPP parameter list:`), a
//! path (`parameter 'port'`, `entry 'a'`, `index 1`), then `expects <expected>, got
//! <actual>`. That wording is held to Puppet's by the tests (the golden tables and the
//! corpus findings), so reading it back is reading a fixed format.

use regex::Regex;
use std::sync::OnceLock;

/// What a type finding says was expected and what was given, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// `Integer`, `Enum['a', 'b']`, `Undef or String` (Puppet's words without "a ...
    /// value").
    pub expected: String,
    /// `String`, `'c'`, `Undef`.
    pub actual: String,
    /// The class, defined type, function or template whose parameter it is.
    pub definition: Option<NamedDefinition>,
    /// The parameter, when the finding names one.
    pub parameter: Option<String>,
}

/// The class, defined type, function or template a finding's message names.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NamedDefinition {
    /// `class`, `defined type`, `function`, `template`.
    pub kind: &'static str,
    /// Lowercase (`apache::vhost`); empty for an EPP template's parameter list.
    pub name: String,
}

/// The mismatch a finding's message describes; `None` for any other message.
pub fn read(message: &str) -> Option<Mismatch> {
    let (subject, rest) = message.split_once(" expects ")?;
    let (expected, actual) = rest.rsplit_once(", got ")?;
    let expected = expected
        .strip_prefix("a value of type ")
        .or_else(|| expected.strip_prefix("a match for "))
        .or_else(|| {
            expected
                .strip_prefix("an ")
                .or_else(|| expected.strip_prefix("a "))
                .map(|e| e.strip_suffix(" value").unwrap_or(e))
        })
        .unwrap_or(expected);
    Some(Mismatch {
        expected: expected.to_string(),
        actual: actual.trim_end_matches('.').to_string(),
        definition: definition(subject),
        parameter: parameter_pattern()
            .captures(subject)
            .map(|c| c[1].to_string()),
    })
}

fn parameter_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| Regex::new(r"parameter '([^']+)'").expect("a valid pattern"))
}

/// The class, defined type or function a message's subject (its start) names.
pub(super) fn definition(subject: &str) -> Option<NamedDefinition> {
    static PATTERNS: OnceLock<[(Regex, &'static str); 5]> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("a valid pattern");
        [
            (re(r"^Class\[([A-Za-z0-9_:]+)\]"), "class"),
            (re(r"^class '([^']+)'"), "class"),
            (re(r"^defined type '([^']+)'"), "defined type"),
            (
                re(r"^([A-Z][A-Za-z0-9_]*(?:::[A-Z][A-Za-z0-9_]*)*)\["),
                "defined type",
            ),
            (re(r"^'([^']+)' parameter"), "function"),
        ]
    });
    if subject.starts_with("the EPP parameter list") {
        return Some(NamedDefinition {
            kind: "template",
            name: String::new(),
        });
    }
    patterns.iter().find_map(|(pattern, kind)| {
        let name = pattern.captures(subject)?[1].to_ascii_lowercase();
        Some(NamedDefinition {
            kind,
            name: name.trim_start_matches("::").to_string(),
        })
    })
}

/// A type as Puppet prints it, each alias shown by its name only:
/// `Stdlib::Absolutepath = Variant[Stdlib::Windowspath = Pattern[/.../], ...]` becomes
/// `Stdlib::Absolutepath` (the report shows the whole on demand).
pub fn alias_names(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        if text[at..].starts_with(" = ") && ends_with_type_name(&out) {
            at = skip_type(bytes, at + 3);
            continue;
        }
        let literal_end = match bytes[at] {
            quote @ (b'\'' | b'"') => Some(skip_quoted(bytes, at, quote)),
            b'/' if out.trim_end().ends_with(['[', ',']) => Some(skip_regexp(bytes, at)),
            _ => None,
        };
        if let Some(end) = literal_end {
            out.push_str(&text[at..=end]);
            at = end + 1;
            continue;
        }
        let c = text[at..].chars().next().expect("inside the text");
        out.push(c);
        at += c.len_utf8();
    }
    out
}

fn ends_with_type_name(text: &str) -> bool {
    let name = text
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .next()
        .unwrap_or("");
    name.trim_start_matches(':')
        .starts_with(|c: char| c.is_ascii_uppercase())
}

/// The end of the type expression starting at `at`: a name, its `[...]` parameters
/// (strings and regexps inside skipped whole), and an alias's ` = ...` after it.
fn skip_type(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || b"_:".contains(&bytes[at])) {
        at += 1;
    }
    if bytes.get(at) == Some(&b'[') {
        let mut depth = 0usize;
        let mut last_significant = b' ';
        while at < bytes.len() {
            let c = bytes[at];
            match c {
                b'\'' | b'"' => at = skip_quoted(bytes, at, c),
                b'/' if matches!(last_significant, b'[' | b',') => at = skip_regexp(bytes, at),
                b'[' | b'{' => depth += 1,
                b']' | b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        at += 1;
                        break;
                    }
                }
                _ => {}
            }
            if !c.is_ascii_whitespace() {
                last_significant = c;
            }
            at += 1;
        }
    }
    if bytes[at.min(bytes.len())..].starts_with(b" = ") {
        return skip_type(bytes, at + 3);
    }
    at
}

/// The index of the `/` closing the regexp opening at `at`. Puppet prints a Pattern's
/// regexps with their slashes unescaped (`[\\/]`), so the closing one is the `/` that
/// ends the parameter: followed by `]` and the end of the Pattern, or by `, /`.
fn skip_regexp(bytes: &[u8], at: usize) -> usize {
    let ends_parameter = |i: usize| {
        let rest = &bytes[i + 1..];
        matches!(
            rest,
            [b']'] | [b']', b',' | b']' | b' ' | b'}', ..] | [b',', b' ', b'/', ..]
        )
    };
    (at + 1..bytes.len())
        .find(|&i| bytes[i] == b'/' && ends_parameter(i))
        .unwrap_or(bytes.len().saturating_sub(1))
}

/// The index of the closing `quote` of the literal opening at `at` (backslash escapes).
fn skip_quoted(bytes: &[u8], mut at: usize, quote: u8) -> usize {
    at += 1;
    while at < bytes.len() && bytes[at] != quote {
        at += if bytes[at] == b'\\' { 2 } else { 1 };
    }
    at.min(bytes.len().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_are_shown_by_their_names() {
        let full = "Stdlib::Absolutepath = Variant[Stdlib::Windowspath = Pattern[/\\A(([a-zA-Z]:[\\\\/])|([\\\\/][\\\\/][^\\\\/]+))/], Stdlib::Unixpath = Pattern[/\\A\\/([^\\n\\/\\0]+\\/*)*\\z/]]";
        assert_eq!(alias_names(full), "Stdlib::Absolutepath");
        assert_eq!(
            alias_names("Undef or Python::Package::Ensure = Enum['absent', 'a]b = c']"),
            "Undef or Python::Package::Ensure"
        );
        assert_eq!(
            alias_names("Array[Stdlib::Port = Integer[0, 65535]], or String"),
            "Array[Stdlib::Port], or String"
        );
        assert_eq!(
            alias_names("Struct[{'a' => Integer}]"),
            "Struct[{'a' => Integer}]"
        );
        assert_eq!(alias_names("Enum['X = y']"), "Enum['X = y']");
        assert_eq!(alias_names("Pattern[/A = b/]"), "Pattern[/A = b/]");
        assert_eq!(
            alias_names("Variant[X = Pattern[/a/, /[\\/]/], Y = Pattern[/\\A//]]"),
            "Variant[X, Y]"
        );
    }

    fn def(kind: &'static str, name: &str) -> Option<NamedDefinition> {
        Some(NamedDefinition {
            kind,
            name: name.to_string(),
        })
    }

    #[test]
    fn reads_each_subject_and_wording() {
        let m = read("Class[Demo]: parameter 'port' expects an Integer value, got String").unwrap();
        assert_eq!(
            (m.expected.as_str(), m.actual.as_str()),
            ("Integer", "String")
        );
        assert_eq!(m.definition, def("class", "demo"));
        assert_eq!(m.parameter.as_deref(), Some("port"));
        let m = read("Collectd::Type[absolute]: parameter 'min' expects a value of type Numeric or Enum['U'], got String").unwrap();
        assert_eq!(m.expected, "Numeric or Enum['U']");
        assert_eq!(m.definition, def("defined type", "collectd::type"));
        let m = read(
            "defined type 'quagga::bgpd::peer': parameter 'desc' expects a String value, got Undef",
        )
        .unwrap();
        assert_eq!(m.definition, def("defined type", "quagga::bgpd::peer"));
        let m =
            read("class 'quagga::bgpd': parameter 'my_asn' expects an Integer value, got Undef")
                .unwrap();
        assert_eq!(m.definition, def("class", "quagga::bgpd"));
        let m = read("'abs' parameter 'val' expects a match for Enum['a', 'b'], got 'c'").unwrap();
        assert_eq!(
            (m.expected.as_str(), m.actual.as_str()),
            ("Enum['a', 'b']", "'c'")
        );
        assert_eq!(m.definition, def("function", "abs"));
        let m = read("the EPP parameter list: parameter 'x' expects a Boolean value, got Undef")
            .unwrap();
        assert_eq!(m.definition, def("template", ""));
        assert_eq!(read("Class[Nova]: has no parameter named 'x'"), None);
    }
}
