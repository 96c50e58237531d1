//! Which classes the manifests of an environment may declare with parameters, read as
//! text: a class declared like a resource (`class { 'ntp': servers => [...] }`), or by
//! `create_resources('class', ...)` or `ensure_resource('class', ...)`, may have its
//! parameters given before an `include` of it is evaluated, so what an `include`
//! lacks is not judged for such a class. The text is searched rather than parsed: a
//! match in a comment or a string only makes pupcheck judge less.

use regex::Regex;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Larger manifests are not read (and make any class possibly declared).
const MAX_MANIFEST_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Default)]
pub struct ClassDeclarations {
    /// Classes declared like a resource with a literal title, lowercase, without `::`.
    named: HashSet<String>,
    /// Some declaration's class is not written literally (a variable, a list, a
    /// function's argument): any class may be declared so.
    any: bool,
}

impl ClassDeclarations {
    /// Searches every `.pp` file under `folders` (hidden folders and `.gitignore`d
    /// files included: a module installed by r10k is usually ignored).
    pub fn scan(folders: &[PathBuf]) -> ClassDeclarations {
        let mut found = ClassDeclarations::default();
        for folder in folders {
            let walk = ignore::WalkBuilder::new(folder)
                .standard_filters(false)
                .follow_links(false)
                .filter_entry(|e| e.file_name() != ".git")
                .build();
            for entry in walk.flatten() {
                let path = entry.path();
                if path.extension().is_none_or(|e| e != "pp")
                    || !entry.file_type().is_some_and(|t| t.is_file())
                {
                    continue;
                }
                match crate::source::read::read_text(path, MAX_MANIFEST_BYTES) {
                    Ok(text) => found.add(&text),
                    Err(_) => found.any = true,
                }
            }
        }
        found
    }

    fn add(&mut self, text: &str) {
        static LITERAL: OnceLock<Regex> = OnceLock::new();
        static OTHER: OnceLock<Regex> = OnceLock::new();
        let literal = LITERAL.get_or_init(|| {
            Regex::new(
                r#"(?i)\bclass\s*\{\s*(?:'|")?(?:::)?([a-z0-9_]+(?:::[a-z0-9_]+)*)(?:'|")?\s*:"#,
            )
            .expect("a valid pattern")
        });
        let other = OTHER.get_or_init(|| {
            Regex::new(
                r#"(?i)\bclass\s*\{\s*[^\s'"a-z0-9_:]|\b(?:create_resources|ensure_resources?)\s*\(\s*(?:'|")?(?:::)?class\b"#,
            )
            .expect("a valid pattern")
        });
        for capture in literal.captures_iter(text) {
            self.named.insert(capture[1].to_ascii_lowercase());
        }
        self.any |= other.is_match(text);
    }

    /// Whether class `name` may be declared with parameters.
    pub fn may_declare(&self, name: &str) -> bool {
        self.any
            || self
                .named
                .contains(&name.trim_start_matches("::").to_ascii_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> ClassDeclarations {
        let mut found = ClassDeclarations::default();
        found.add(text);
        found
    }

    #[test]
    fn resource_like_declarations_are_found_by_their_title() {
        let found = of("class { 'ntp::server': port => 1 }\nclass {\"::Web\":\n}\nclass foo { }\n");
        assert!(found.may_declare("ntp::server") && found.may_declare("web"));
        assert!(!found.may_declare("foo") && !found.any);
    }

    #[test]
    fn declarations_not_written_literally_may_declare_any_class() {
        assert!(of("class { $role: }").any);
        assert!(of("class { ['a', 'b']: }").any);
        assert!(of("create_resources('class', $classes)").any);
        assert!(of("ensure_resource('class', 'ntp', {})").any);
        assert!(!of("create_resources('file', $files)").any);
    }
}
