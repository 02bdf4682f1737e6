//! The per-process memo of what a run's search builds (SPEC §5's
//! [`Built`]): sessions that share a catalog, and a harness's re-replays,
//! build it once.
//!
//! A speed-up beside the rule: [`built`] is its one entry point, and what
//! it returns is [`Built::of`] of the same candidates, a pure function of
//! their bytes, so a hit answers every query as a fresh build would
//! (`tests::a_hit_answers_as_a_fresh_build`). It owns the key, the bounds
//! and the lock; it does not own what is built. The seam (`crate::seam`)
//! calls the rule directly, past this memo, while a test has a broken rule
//! planted.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::Candidate;
use super::score::Built;
use super::words::{params_of, properties};

/// How much the memo holds before it starts over: candidates built, and
/// bytes of keys.
struct Bound {
    candidates: usize,
    key_bytes: usize,
}

/// The process's bound: about 32k candidates' vectors (4 MiB of i64
/// lanes), 16 MiB of keys.
const BOUND: Bound = Bound {
    candidates: 1 << 15,
    key_bytes: 1 << 24,
};

// The process's bound holds catalogs of thousands of tools.
const _: () = assert!(BOUND.candidates >= 10_000 && BOUND.key_bytes >= 1 << 20);

/// Built searches by their key, and the bytes of the keys held.
struct Memo {
    map: BTreeMap<Box<[u8]>, Arc<Built>>,
    key_bytes: usize,
}

impl Memo {
    const fn new() -> Memo {
        Memo {
            map: BTreeMap::new(),
            key_bytes: 0,
        }
    }

    fn get(&self, key: &[u8]) -> Option<Arc<Built>> {
        self.map.get(key).cloned()
    }

    /// Remembers `made` under `key`, first starting over when holding it
    /// too would pass `bound`.
    fn insert(&mut self, key: Vec<u8>, made: &Arc<Built>, bound: &Bound) {
        let held: usize = self.map.values().map(|b| b.n).sum();
        if held + made.n > bound.candidates || self.key_bytes + key.len() > bound.key_bytes {
            self.map.clear();
            self.key_bytes = 0;
        }
        self.key_bytes += key.len();
        self.map.insert(key.into_boxed_slice(), Arc::clone(made));
    }
}

/// The [`Built`] search of `candidates`, remembered per process by their
/// content. The key is the content itself, every field length-framed (the
/// bytes are copied once, which costs less than hashing them), so a hit is
/// the same candidates in the same order, found by comparing bytes: no
/// hash, no collision. Bounded ([`BOUND`]): past it, the memo starts over.
pub(crate) fn built(candidates: &[Candidate<'_>]) -> Arc<Built> {
    static MEMO: Mutex<Memo> = Mutex::new(Memo::new());
    let mut key = Vec::with_capacity(candidates.len() * 512);
    let field = |key: &mut Vec<u8>, bytes: &[u8]| {
        key.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        key.extend_from_slice(bytes);
    };
    for candidate in candidates {
        field(&mut key, candidate.name.as_bytes());
        field(&mut key, candidate.text.as_bytes());
        // A skill (no schema) apart from a tool without params.
        field(&mut key, &[u8::from(candidate.schema.is_some())]);
        for part in params_of(properties(candidate.schema)) {
            field(&mut key, part.as_bytes());
        }
        // The params' end: no field is `u64::MAX` bytes long.
        key.extend_from_slice(&u64::MAX.to_le_bytes());
    }
    if let Some(found) = MEMO.lock().ok().and_then(|memo| memo.get(&key)) {
        return found;
    }
    let made = Arc::new(Built::of(candidates));
    if let Ok(mut memo) = MEMO.lock() {
        memo.insert(key, &made, &BOUND);
    }
    made
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::search::SearchIndex;

    fn indexed(caps: &[(&'static str, &'static str)]) -> SearchIndex {
        SearchIndex::new(caps.iter().map(|(name, text)| Candidate {
            name,
            text,
            schema: None,
        }))
    }

    #[test]
    fn equal_candidates_share_one_build() {
        let first = indexed(&[("memo_a", "shared text"), ("memo_b", "more")]);
        let second = indexed(&[("memo_a", "shared text"), ("memo_b", "more")]);
        assert!(Arc::ptr_eq(&first.built, &second.built));
        let other = indexed(&[("memo_a", "shared text"), ("memo_b", "more!")]);
        assert!(!Arc::ptr_eq(&first.built, &other.built));
        // A field boundary moved is other content.
        let moved = indexed(&[("memo_a", "shared tex"), ("tmemo_b", "more")]);
        assert!(!Arc::ptr_eq(&first.built, &moved.built));
        // A tool without params is not a skill, and a param moved from one
        // tool to the next is other content.
        let tools = |a: &Value, b: &Value| {
            SearchIndex::new([
                Candidate {
                    name: "memo_c",
                    text: "t",
                    schema: Some(a),
                },
                Candidate {
                    name: "memo_d",
                    text: "t",
                    schema: Some(b),
                },
            ])
        };
        let (none, one) = (json!({}), json!({"properties": {"repo": {}}}));
        let bare = tools(&none, &none);
        let skills = SearchIndex::new(["memo_c", "memo_d"].map(|name| Candidate {
            name,
            text: "t",
            schema: None,
        }));
        assert!(!Arc::ptr_eq(&bare.built, &skills.built));
        assert!(!Arc::ptr_eq(
            &tools(&one, &none).built,
            &tools(&none, &one).built
        ));
        assert!(Arc::ptr_eq(
            &tools(&one, &none).built,
            &tools(&one, &none).built
        ));
    }

    /// The bound, on a memo of its own with small limits: what fits is
    /// kept beside what came before, and what would pass either limit
    /// starts the memo over with itself alone.
    #[test]
    fn the_memo_starts_over_past_either_bound() {
        let made = |names: &[&'static str]| {
            let candidates: Vec<Candidate> = (names.iter())
                .map(|name| Candidate {
                    name,
                    text: "t",
                    schema: None,
                })
                .collect();
            Arc::new(Built::of(&candidates))
        };
        let (one, two) = (made(&["bound_a"]), made(&["bound_b", "bound_c"]));
        let (three, four) = (made(&["bound_d"]), made(&["bound_e"]));
        let bound = Bound {
            candidates: 3,
            key_bytes: 10,
        };
        let mut memo = Memo::new();
        memo.insert(b"k1".to_vec(), &one, &bound);
        memo.insert(b"k2".to_vec(), &two, &bound);
        // Three candidates and four key bytes: both within the bound.
        assert!(Arc::ptr_eq(&memo.get(b"k1").unwrap(), &one));
        assert!(Arc::ptr_eq(&memo.get(b"k2").unwrap(), &two));
        assert_eq!(memo.key_bytes, 4);
        // A fourth candidate passes the candidates' bound.
        memo.insert(b"k3".to_vec(), &three, &bound);
        assert!(memo.get(b"k1").is_none() && memo.get(b"k2").is_none());
        assert!(Arc::ptr_eq(&memo.get(b"k3").unwrap(), &three));
        assert_eq!(memo.key_bytes, 2);
        // Eight more key bytes reach the keys' bound exactly: kept.
        memo.insert(b"k4-56789".to_vec(), &four, &bound);
        assert!(memo.get(b"k3").is_some() && memo.get(b"k4-56789").is_some());
        assert_eq!(memo.key_bytes, 10);
        // One more byte passes it.
        memo.insert(b"k".to_vec(), &one, &bound);
        assert!(memo.get(b"k3").is_none() && memo.get(b"k4-56789").is_none());
        assert!(Arc::ptr_eq(&memo.get(b"k").unwrap(), &one));
        assert_eq!(memo.key_bytes, 1);
    }

    /// Whatever the memo held before, a hit answers as [`Built::of`] of
    /// the same candidates does, query by query.
    #[test]
    fn a_hit_answers_as_a_fresh_build() {
        let schema = json!({"properties": {"repo": {"description": "The repository"}}});
        let candidates = [
            Candidate {
                name: "memo_issue",
                text: "Open an issue.",
                schema: Some(&schema),
            },
            Candidate {
                name: "memo_pull",
                text: "List pull requests.",
                schema: None,
            },
        ];
        let first = built(&candidates);
        let hit = built(&candidates);
        assert!(Arc::ptr_eq(&first, &hit));
        let fresh = Built::of(&candidates);
        for query in ["issue", "repository pulls", "nothing here", "the"] {
            assert_eq!(hit.parts(query), fresh.parts(query), "{query}");
            assert_eq!(hit.scores(query), fresh.scores(query), "{query}");
        }
    }
}
