//! [`Lookup`]: a hash map that can only be looked up, never iterated.
//!
//! The project bans `std::collections::HashMap` (clippy.toml) because
//! iterating one visits its entries in an order no rule chose, and every
//! output must be a pure function of its inputs (SPEC §2). A table that is
//! only ever asked "what is held under this key" has no order to leak, and
//! hashing beats an ordered map where keys are texts (each comparison there
//! follows a pointer to a text). This type gives exactly that and nothing
//! more, so the guarantee is in its shape, not in each caller's care. The
//! hasher is foldhash's, with a fixed seed.

// The one place the ban is lifted, for a map with no way to iterate it.
#![allow(clippy::disallowed_types)]

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;

/// A hash map without iteration.
#[derive(Debug, Clone)]
pub(crate) struct Lookup<K, V>(HashMap<K, V, FixedState>);

impl<K: Eq + Hash, V> Lookup<K, V> {
    /// An empty table (usable in a `static`).
    pub(crate) const fn new() -> Lookup<K, V> {
        Lookup(HashMap::with_hasher(FixedState::with_seed(0)))
    }

    /// An empty table with room for `capacity` entries.
    pub(crate) fn with_capacity(capacity: usize) -> Lookup<K, V> {
        Lookup(HashMap::with_capacity_and_hasher(
            capacity,
            FixedState::with_seed(0),
        ))
    }

    /// What is held under `key`.
    pub(crate) fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.get(key)
    }

    /// Holds `value` under `key`, in place of what was there.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        self.0.insert(key, value);
    }

    /// Holds `value` under `key` unless something is held there already.
    pub(crate) fn insert_first(&mut self, key: K, value: V) {
        self.0.entry(key).or_insert(value);
    }

    /// How many keys hold something.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
}

impl<K: Eq + Hash, V> Default for Lookup<K, V> {
    fn default() -> Lookup<K, V> {
        Lookup::new()
    }
}

impl<K: Eq + Hash, V> FromIterator<(K, V)> for Lookup<K, V> {
    /// A later pair for the same key replaces an earlier one.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Lookup<K, V> {
        let pairs = pairs.into_iter();
        // Room for what the iterator says it holds at least, so a table
        // of known size is not rehashed as it grows.
        let mut table = Lookup::with_capacity(pairs.size_hint().0);
        for (key, value) in pairs {
            table.insert(key, value);
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_it_is_given() {
        let mut table: Lookup<String, u32> = Lookup::with_capacity(4);
        table.insert("a".into(), 1);
        table.insert("a".into(), 2);
        table.insert_first("a".into(), 3);
        table.insert_first("b".into(), 4);
        table.insert_first("c".into(), 5);
        assert_eq!(
            (
                table.get("a"),
                table.get("b"),
                table.get("c"),
                table.get("d")
            ),
            (Some(&2), Some(&4), Some(&5), None)
        );
        assert_eq!(table.len(), 3);
        table.clear();
        assert_eq!(table.len(), 0);
        let collected: Lookup<&str, u32> = [("x", 1), ("x", 2)].into_iter().collect();
        assert_eq!(collected.get("x"), Some(&2));
    }
}
