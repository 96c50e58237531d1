//! Puppet's qualified names (`apache::params::port`, `::fqdn`) taken apart at `::` with
//! byte comparisons. The evaluator and the rules do this for every variable they read;
//! `str`'s methods with a `"::"` pattern build a substring searcher on each call, which
//! cost more than the rest of reading the name.

/// `name` without its top-scope prefix (`::fqdn` is `fqdn`), as `trim_start_matches`
/// gives it (every leading `::`).
pub fn without_top_scope(name: &str) -> &str {
    let mut rest = name;
    while let Some(after) = rest.strip_prefix("::") {
        rest = after;
    }
    rest
}

/// `name` split at its last `::` (`apache::params::port` is `apache::params` and
/// `port`), as `rsplit_once("::")` gives it; `None` without one.
pub fn split_last(name: &str) -> Option<(&str, &str)> {
    let bytes = name.as_bytes();
    let mut end = bytes.len();
    while let Some(colon) = memchr::memrchr(b':', &bytes[..end]) {
        if colon > 0 && bytes[colon - 1] == b':' {
            return Some((&name[..colon - 1], &name[colon + 1..]));
        }
        end = colon;
    }
    None
}

/// Whether `name` holds a `::`, as `contains("::")` tells.
pub fn is_qualified(name: &str) -> bool {
    name.as_bytes().windows(2).any(|pair| pair == b"::")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn as_the_std_methods_give(name in "[a:b_]{0,9}") {
            prop_assert_eq!(without_top_scope(&name), name.trim_start_matches("::"));
            prop_assert_eq!(split_last(&name), name.rsplit_once("::"));
            prop_assert_eq!(is_qualified(&name), name.contains("::"));
        }
    }

    #[test]
    fn names() {
        assert_eq!(without_top_scope("::::fqdn"), "fqdn");
        assert_eq!(
            split_last("apache::params::port"),
            Some(("apache::params", "port"))
        );
        assert_eq!(split_last("a:::b"), Some(("a:", "b")));
        assert_eq!(split_last("port"), None);
        assert!(is_qualified("a::b") && !is_qualified("a:b"));
    }
}
