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

fn definition(subject: &str) -> Option<NamedDefinition> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
