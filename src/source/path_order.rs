//! Sorting by path in `Path`'s own order, at the cost of byte comparisons.
//!
//! `Path`'s `Ord` compares component by component, which costs a few hundred
//! instructions a comparison; sorting the files of a large run by path was a visible
//! part of its serial time. A path's [`order_key`] is a byte string whose byte order
//! is the paths' order, built once per path.

use std::path::{Component, Path};

/// A byte string that orders as `path` does among paths: each component as a tag
/// (components' own order: prefix, root, `.`, `..`, name) followed by its bytes and the
/// two bytes `0 0`. A name that is a prefix of another ends first, with `0 0`, so it
/// sorts first, as `OsStr` order has it; a path whose components are a prefix of
/// another's is shorter, so it sorts first, as `Path` order has it.
///
/// No file system allows a NUL in a name, but a `Path` may hold one (a name read from
/// a file list, say), so a NUL of the name is written `0 1`: above the end of a name,
/// below every other byte, the order it has among bytes.
pub fn order_key(path: &Path) -> Vec<u8> {
    let mut key = Vec::with_capacity(path.as_os_str().len() + 8);
    for component in path.components() {
        let tag = match component {
            Component::Prefix(_) => 1,
            Component::RootDir => 2,
            Component::CurDir => 3,
            Component::ParentDir => 4,
            Component::Normal(_) => 5,
        };
        key.push(tag);
        if let Component::Prefix(_) | Component::Normal(_) = component {
            for &byte in component.as_os_str().as_encoded_bytes() {
                key.push(byte);
                if byte == 0 {
                    key.push(1);
                }
            }
        }
        key.extend_from_slice(&[0, 0]);
    }
    key
}

/// Sorts `items` by the path each has, in `Path` order, stably (as `sort_by` with
/// `Path::cmp` would).
pub fn sort_by_path<T>(items: &mut Vec<T>, path: impl Fn(&T) -> &Path) {
    let mut keyed: Vec<(Vec<u8>, T)> = items
        .drain(..)
        .map(|item| (order_key(path(&item)), item))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    items.extend(keyed.into_iter().map(|(_, item)| item));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn path_text() -> impl Strategy<Value = String> {
        // Separators doubled and leading, `.` and `..`, names that are prefixes of
        // each other and differ at a `.` or `-` (which sort below `/` as bytes), and
        // (from a pattern: a bare string is one in proptest) names of any byte but `/`,
        // NUL and 0x01 among them.
        let part = prop_oneof![
            Just(String::new()),
            Just(".".to_string()),
            Just("..".to_string()),
            Just("a".to_string()),
            Just("a.b".to_string()),
            Just("a-b".to_string()),
            Just("ab".to_string()),
            Just("b".to_string()),
            Just("a/".to_string()),
            "[^/]{1,3}",
            "[a\\x00\\x01.-]{1,3}",
        ];
        proptest::collection::vec(part, 0..6)
            .prop_map(|parts| parts.join("/"))
            .prop_flat_map(|p| prop_oneof![Just(p.clone()), Just(format!("/{p}"))])
    }

    proptest! {
        #[test]
        fn keys_order_as_paths_do(a in path_text(), b in path_text()) {
            let (a, b) = (Path::new(&a), Path::new(&b));
            prop_assert_eq!(order_key(a).cmp(&order_key(b)), a.cmp(b), "{:?} {:?}", a, b);
        }
    }

    #[test]
    fn a_nul_in_a_name_orders_as_its_byte_does() {
        // Found by the property above on CI: a name's NUL was taken for its end.
        for (a, b) in [
            ("b/\0", "b\0/a"),
            ("a\0", "a"),
            ("a\0", "a\x01"),
            ("a\0b", "a/b"),
        ] {
            let (a, b) = (Path::new(a), Path::new(b));
            assert_eq!(order_key(a).cmp(&order_key(b)), a.cmp(b), "{a:?} {b:?}");
        }
    }

    #[test]
    fn sorting_is_path_order_and_stable() {
        let mut items = vec![
            ("a/b", 1),
            ("a.b", 2),
            ("a/b/", 3),
            ("a-b/c", 4),
            ("a", 5),
            ("./a", 6),
        ];
        let mut expected = items.clone();
        expected.sort_by(|x, y| Path::new(x.0).cmp(Path::new(y.0)));
        sort_by_path(&mut items, |(p, _)| Path::new(p));
        assert_eq!(items, expected);
        // "a/b" and "a/b/" are the same path: they keep their order.
        let b = items.iter().position(|i| i.1 == 1).unwrap();
        assert_eq!(items[b + 1].1, 3);
    }
}
