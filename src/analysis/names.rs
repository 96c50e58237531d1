//! Names compared: which repeat an earlier one, and which known name a misspelling is
//! near.

/// For each item, the index of the first earlier item with the same key (`None` for a
/// first occurrence or an item without a key): one pass with a map, so a hash of 60,000
/// keys on one line costs no more than 60,000 lookups.
pub fn earlier_duplicates<'a, T, K: std::hash::Hash + Eq>(
    items: &'a [T],
    key: impl Fn(&'a T) -> Option<K>,
) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let k = key(item)?;
            match first.entry(k) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(i);
                    None
                }
            }
        })
        .collect()
}

/// The name among `names` nearest to `name`, when within two edits of it (and `name`
/// is long enough for that to mean a misspelling).
pub fn nearest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    if name.len() < 4 {
        return None;
    }
    // Names whose lengths differ by more than 2 are further apart than that: the
    // distance (which allocates a table per pair) is computed for the others only.
    let length = name.chars().count();
    names
        .filter(|candidate| candidate.chars().count().abs_diff(length) <= 2)
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, candidate)| candidate)
}
