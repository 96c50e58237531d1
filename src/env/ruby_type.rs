//! A module's resource types written in Ruby (`lib/puppet/type/<name>.rb`), read as
//! text, never run: the attributes `Puppet::Type.newtype(:name) do ... end` declares
//! with `newparam(:x)`, `newproperty(:x)` and `ensurable`. A type the reader is not
//! sure of is unknown: one with a parent type, attributes named otherwise than
//! literally (in a loop, say), code that may add attributes elsewhere (a helper of
//! `puppet_x`, a `require` of anything but Puppet's or Ruby's own libraries,
//! `instance_eval`, `define_method`, `send`), or a Resource API type.
//! `scripts/differential/ruby_types.sh` compares what it reads with the attributes
//! Puppet itself loads.

use regex::Regex;
use std::sync::OnceLock;

/// The attributes of a resource type, as its file declares them.
#[derive(Debug, Clone, PartialEq)]
pub struct RubyType {
    /// Its parameters and properties (not `provider`, `name` or the metaparameters,
    /// which every type accepts).
    pub attributes: Vec<String>,
}

impl RubyType {
    /// Whether a declaration may give `name`: one of its attributes, `name` (its
    /// namevar's other name), `provider` (Puppet adds it once a provider exists) or a
    /// metaparameter.
    pub fn accepts_attribute(&self, name: &str) -> bool {
        name == "name"
            || name == "provider"
            || self.attributes.iter().any(|a| a == name)
            || super::builtin::is_metaparameter(name)
    }
}

/// Reads the type `name` from the text of its file; `None` when the reader is not
/// sure of it.
pub fn read_type(text: &str, name: &str) -> Option<RubyType> {
    static NEWTYPE: OnceLock<Regex> = OnceLock::new();
    static ATTRIBUTE: OnceLock<Regex> = OnceLock::new();
    static LITERAL_ATTRIBUTE: OnceLock<Regex> = OnceLock::new();
    static REQUIRE: OnceLock<Regex> = OnceLock::new();
    static ENSURABLE: OnceLock<Regex> = OnceLock::new();
    let code: String = text
        .lines()
        .map(super::ruby::strip_comment)
        .collect::<Vec<_>>()
        .join("\n");
    // Attributes added from elsewhere, or by code this reader does not follow.
    const NOT_FOLLOWED: &[&str] = &[
        "PuppetX",
        "Puppet_X",
        "puppet_x",
        "ResourceApi",
        "instance_eval",
        "class_eval",
        "module_eval",
        "define_method",
        ".send(",
        "eval(",
        "=begin",
        "<<-",
        "<<~",
    ];
    if NOT_FOLLOWED.iter().any(|s| code.contains(s)) {
        return None;
    }
    let require = REQUIRE.get_or_init(|| {
        Regex::new(r#"(?m)^\s*(?:require|require_relative|load)\b\s*\(?\s*(.*)$"#)
            .expect("a valid pattern")
    });
    for capture in require.captures_iter(&code) {
        // Puppet's own libraries (`puppet/parameter/boolean`) and Ruby's (`uri`).
        let argument = capture[1].trim().trim_end_matches(')').trim();
        let library = argument
            .strip_prefix('\'')
            .and_then(|a| a.strip_suffix('\''))
            .or_else(|| argument.strip_prefix('"').and_then(|a| a.strip_suffix('"')));
        let ours = library.is_some_and(|l| {
            !l.contains('#') && (l == "puppet" || l.starts_with("puppet/") || !l.contains('/'))
        });
        if !ours {
            return None;
        }
    }
    let newtype = NEWTYPE.get_or_init(|| {
        Regex::new(r#"\bnewtype\s*\(\s*(?::|'|")([A-Za-z0-9_]+)['"]?\s*(\)|,)"#)
            .expect("a valid pattern")
    });
    let declared: Vec<_> = newtype.captures_iter(&code).collect();
    let [one] = declared.as_slice() else {
        return None;
    };
    // `newtype(:x, parent: ...)` inherits attributes this reader does not see.
    if &one[1] != name || &one[2] == "," {
        return None;
    }
    let any = ATTRIBUTE
        .get_or_init(|| Regex::new(r"\b(?:newparam|newproperty)\b").expect("a valid pattern"));
    let literal = LITERAL_ATTRIBUTE.get_or_init(|| {
        Regex::new(r#"\b(?:newparam|newproperty)\s*\(?\s*(?::([A-Za-z_][A-Za-z0-9_]*)|'([A-Za-z_][A-Za-z0-9_]*)'|"([A-Za-z_][A-Za-z0-9_]*)")"#)
            .expect("a valid pattern")
    });
    let mut attributes: Vec<String> = literal
        .captures_iter(&code)
        .filter_map(|c| c.get(1).or(c.get(2)).or(c.get(3)))
        .map(|m| m.as_str().to_string())
        .collect();
    if attributes.len() != any.find_iter(&code).count() {
        return None;
    }
    let ensurable =
        ENSURABLE.get_or_init(|| Regex::new(r"(?m)^\s*ensurable\b").expect("a valid pattern"));
    if ensurable.is_match(&code) {
        attributes.push("ensure".to_string());
    }
    attributes.sort();
    attributes.dedup();
    Some(RubyType { attributes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_from_newparam_newproperty_and_ensurable() {
        let text = "require 'puppet/parameter/boolean'\n\
            Puppet::Type.newtype(:ini_line) do\n  ensurable\n  # newparam(:commented)\n\
            newparam(:name, namevar: true) do\n    desc 'x'\n  end\n\
            newproperty(:value, array_matching: :all)\n  newparam :path do\n  end\nend\n";
        let t = read_type(text, "ini_line").expect("read");
        assert_eq!(t.attributes, ["ensure", "name", "path", "value"]);
        assert!(t.accepts_attribute("provider") && t.accepts_attribute("require"));
        assert!(!t.accepts_attribute("valeu"));
    }

    #[test]
    fn what_the_reader_does_not_follow_makes_the_type_unknown() {
        let base = "Puppet::Type.newtype(:t) do\n  newparam(:name)\n";
        for extra in [
            "  [:a, :b].each { |p| newparam(p) }\n",
            "  require_relative '../../puppet_x/t/params'\n",
            "  PuppetX::T.add_params(self)\n",
            "  require File.expand_path('../helpers', __FILE__)\n",
        ] {
            assert_eq!(
                read_type(&format!("{base}{extra}end\n"), "t"),
                None,
                "{extra}"
            );
        }
        assert_eq!(
            read_type(
                "Puppet::Type.newtype(:t, parent: Puppet::Type::File) do\nend\n",
                "t"
            ),
            None
        );
        assert_eq!(
            read_type("Puppet::Type.newtype(:other) do\nend\n", "t"),
            None
        );
    }
}
