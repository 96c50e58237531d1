//! What an error finding is about, read from its message (Puppet's wording, held to
//! Puppet's by the tests): the class an unknown parameter was given to, the class
//! `include` could not find, the resource declared twice, the variable nobody sets.
//! Errors about the same thing are fixed together (one class gains the parameter, one
//! module is installed), so the report's "fix first" section groups them by it.

use regex::Regex;
use std::sync::OnceLock;

/// `class nova`, `defined type apache::vhost`, `resource type firewall`,
/// `variable $apache::version`, `function icinga2::unwrap`, `Class[Erlang]`; `None` when
/// the message names nothing to group by.
pub fn of(message: &str) -> Option<String> {
    if let Some(definition) = super::mismatch::definition(message) {
        if !definition.name.is_empty() {
            return Some(format!("{} {}", definition.kind, definition.name));
        }
    }
    static PATTERNS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        let re = |p: &str| Regex::new(p).expect("a valid pattern");
        vec![
            (re(r"^Could not find class (?:::)?([\w:]+)"), "class"),
            (re(r"^Duplicate declaration: (.+?) is already declared"), ""),
            (re(r"^Could not find resource '(.+?)'"), ""),
            (re(r" on ([A-Z][\w]*(?:::[A-Z]\w*)*)\["), "resource type"),
            (
                re(r"^Resource type (?:::)?([\w:]+) doesn't exist"),
                "resource type",
            ),
            (
                re(r"^Unknown resource type: '(?:::)?([\w:]+)'"),
                "resource type",
            ),
            (re(r"^Unknown function: '([\w:]+)'"), "function"),
            (re(r"^Unknown variable: '(?:::)?([\w:]+)'"), "variable"),
        ]
    });
    patterns.iter().find_map(|(pattern, kind)| {
        let name = &pattern.captures(message)?[1];
        Some(match *kind {
            "" => name.to_string(),
            "variable" => format!("variable ${name}"),
            "resource type" => format!("resource type {}", name.to_ascii_lowercase()),
            kind => format!("{kind} {}", name.to_ascii_lowercase()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::of;

    #[test]
    fn errors_are_about_what_their_message_names() {
        let cases = [
            (
                "Class[Nova]: has no parameter named 'database_connection'",
                Some("class nova"),
            ),
            (
                "Oslo::Messaging::Amqp[congress_config]: has no parameter named 'x'",
                Some("defined type oslo::messaging::amqp"),
            ),
            (
                "Apache::Vhost[x]: parameter 'override' expects an Array value, got String",
                Some("defined type apache::vhost"),
            ),
            (
                "Could not find class ::cinder::ceilometer",
                Some("class cinder::ceilometer"),
            ),
            (
                "Duplicate declaration: Class[Erlang] is already declared",
                Some("Class[Erlang]"),
            ),
            (
                "Could not find resource 'Class[Profile::Epel]' in parameter 'require'",
                Some("Class[Profile::Epel]"),
            ),
            (
                "no parameter named 'value' on Sysctl[vm.overcommit_memory]",
                Some("resource type sysctl"),
            ),
            (
                "Unknown resource type: 'java::oracle'",
                Some("resource type java::oracle"),
            ),
            (
                "Resource type common::mkuser doesn't exist",
                Some("resource type common::mkuser"),
            ),
            (
                "Unknown function: 'icinga2::unwrap'.",
                Some("function icinga2::unwrap"),
            ),
            (
                "Unknown variable: 'apache::apache_version'.",
                Some("variable $apache::apache_version"),
            ),
            ("Cannot reassign variable '$collector'", None),
            ("Syntax error at ':'", None),
        ];
        for (message, subject) in cases {
            assert_eq!(of(message).as_deref(), subject, "{message}");
        }
    }
}
