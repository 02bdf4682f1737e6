//! The per-process memo of what a run's search builds (SPEC §5's
//! [`Built`]): sessions that share a catalog, and a harness's re-replays,
//! build it once.
//!
//! A speed-up beside the rule: [`built`] is its one entry point, and what
//! it returns is [`Built::of`] of the same candidates, a pure function of
//! their bytes (found by their digest), so a hit answers every query as a
//! fresh build would
//! (`tests::a_hit_answers_as_a_fresh_build`). It owns the key, the bounds
//! and the lock; it does not own what is built. The seam (`crate::seam`)
//! calls the rule directly, past this memo, while a test has a broken rule
//! planted.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::Candidate;
use super::score::Built;
use super::words::{params_of, properties};

/// A key: the BLAKE3 digest of the candidates' framed content.
type Key = [u8; 32];

/// How much the memo holds before it starts over: candidates built, and
/// builds.
struct Bound {
    candidates: usize,
    builds: usize,
}

/// The process's bound: 1,024 candidates (a candidate's vector is half a
/// KiB in its narrow form, so about 1 MiB with postings), 1,024 builds;
/// a larger catalog is held alone. Issue 26: the old bound of 32k
/// candidates and 16 MiB of keys let a corpus of sessions that share no
/// catalog hold 150 MiB, and never hit; at 4,096 the memo was a third of
/// `check`'s peak RSS on such a corpus.
const BOUND: Bound = Bound {
    candidates: 1 << 10,
    builds: 1 << 10,
};

// The process's bound holds a catalog of a thousand tools with others.
const _: () = assert!(BOUND.candidates >= 1_000 && BOUND.builds >= 1);

/// Built searches by their key, and the candidates they hold.
struct Memo {
    map: BTreeMap<Key, Arc<Built>>,
    candidates: usize,
}

impl Memo {
    const fn new() -> Memo {
        Memo {
            map: BTreeMap::new(),
            candidates: 0,
        }
    }

    fn get(&self, key: &Key) -> Option<Arc<Built>> {
        self.map.get(key).cloned()
    }

    /// Remembers `made` under `key`, first starting over when holding it
    /// too would pass `bound` (a build larger than the bound is then held
    /// alone: a run holds it anyway while it lives).
    fn insert(&mut self, key: Key, made: &Arc<Built>, bound: &Bound) {
        if self.candidates + made.n > bound.candidates || self.map.len() >= bound.builds {
            self.map.clear();
            self.candidates = 0;
        }
        if self.map.insert(key, Arc::clone(made)).is_none() {
            self.candidates += made.n;
        }
    }
}

/// The key of `candidates`: every field length-framed, then digested, so a
/// lookup compares 32 bytes, not whole catalogs (issue 26: comparing the
/// framed bytes was 17% of a `check` whose sessions share no catalog). Two
/// contents share a key only by a BLAKE3 collision. The framed bytes are
/// gathered first and hashed in one call, which BLAKE3 runs over many
/// chunks at once; an update per field cost twice as much.
fn key(candidates: &[Candidate<'_>]) -> Key {
    // Room for the names and texts and their frames, and some params:
    // the framed bytes are mostly allocated once.
    let room = (candidates.iter())
        .map(|c| c.name.len() + c.text.len() + 128)
        .sum();
    let mut framed = Vec::with_capacity(room);
    let field = |framed: &mut Vec<u8>, bytes: &[u8]| {
        framed.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        framed.extend_from_slice(bytes);
    };
    for candidate in candidates {
        field(&mut framed, candidate.name.as_bytes());
        field(&mut framed, candidate.text.as_bytes());
        // A skill (no schema) apart from a tool without params.
        field(&mut framed, &[u8::from(candidate.schema.is_some())]);
        for part in params_of(properties(candidate.schema)) {
            field(&mut framed, part.as_bytes());
        }
        // The params' end: no field is `u64::MAX` bytes long.
        framed.extend_from_slice(&u64::MAX.to_le_bytes());
    }
    *blake3::hash(&framed).as_bytes()
}

/// The [`Built`] search of `candidates`, remembered per process by the
/// digest of their content ([`key`]), so a hit is the same candidates in
/// the same order. Bounded ([`BOUND`]): past it, the memo starts over.
pub(crate) fn built(candidates: &[Candidate<'_>]) -> Arc<Built> {
    static MEMO: Mutex<Memo> = Mutex::new(Memo::new());
    let key = key(candidates);
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
    /// kept beside what came before, what would pass either limit starts
    /// the memo over with itself alone, even a build past the bound.
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
        let k = |i: u8| [i; 32];
        let bound = Bound {
            candidates: 3,
            builds: 2,
        };
        let mut memo = Memo::new();
        memo.insert(k(1), &one, &bound);
        memo.insert(k(2), &two, &bound);
        // Three candidates in two builds: both within the bound.
        assert!(Arc::ptr_eq(&memo.get(&k(1)).unwrap(), &one));
        assert!(Arc::ptr_eq(&memo.get(&k(2)).unwrap(), &two));
        assert_eq!(memo.candidates, 3);
        // A fourth candidate passes the candidates' bound.
        memo.insert(k(3), &three, &bound);
        assert!(memo.get(&k(1)).is_none() && memo.get(&k(2)).is_none());
        assert!(Arc::ptr_eq(&memo.get(&k(3)).unwrap(), &three));
        assert_eq!(memo.candidates, 1);
        // A second build is kept; a third passes the builds' bound.
        memo.insert(k(4), &four, &bound);
        assert!(memo.get(&k(3)).is_some() && memo.get(&k(4)).is_some());
        memo.insert(k(5), &one, &bound);
        assert!(memo.get(&k(3)).is_none() && memo.get(&k(4)).is_none());
        assert!(Arc::ptr_eq(&memo.get(&k(5)).unwrap(), &one));
        // A build of more candidates than the bound is held alone.
        let big = made(&["bound_f", "bound_g", "bound_h", "bound_i"]);
        memo.insert(k(6), &big, &bound);
        assert!(memo.get(&k(5)).is_none() && memo.get(&k(6)).is_some());
        assert_eq!(memo.candidates, 4);
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
