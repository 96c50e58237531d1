//! Values worked out once per key and shared by the threads of a run: the files the
//! index reads on demand, the resource types and functions asked about, and the like.

use foldhash::{HashMap, HashMapExt};
use std::borrow::Borrow;
use std::hash::Hash;
use std::sync::Mutex;

#[derive(Debug)]
pub(crate) struct Memo<K, V> {
    values: Mutex<HashMap<K, V>>,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo {
            values: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// The value of `key`: the one worked out before, else what `compute` gives. It runs
    /// without the lock, so other look-ups go on meanwhile (two threads may work out one
    /// key at once; they get the same value). A poisoned lock, a bug elsewhere, only
    /// loses the memo.
    pub fn get_or_compute<Q>(&self, key: &Q, compute: impl FnOnce() -> V) -> V
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(known) = self.values.lock().ok().and_then(|v| v.get(key).cloned()) {
            return known;
        }
        let value = compute();
        if let Ok(mut values) = self.values.lock() {
            values.insert(key.to_owned(), value.clone());
        }
        value
    }

    /// Gives `key` a value already worked out elsewhere (a later look-up returns it).
    pub fn insert(&self, key: K, value: V) {
        if let Ok(mut values) = self.values.lock() {
            values.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_key_is_worked_out_once() {
        let memo: super::Memo<String, usize> = super::Memo::default();
        let mut calls = 0;
        for _ in 0..3 {
            assert_eq!(
                memo.get_or_compute("a", || {
                    calls += 1;
                    7
                }),
                7
            );
        }
        assert_eq!(calls, 1);
        assert_eq!(memo.get_or_compute("b", || 8), 8);
    }
}
