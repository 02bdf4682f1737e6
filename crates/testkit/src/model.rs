//! The readable model of SPEC §4 and §5 (contract 5), the one reference both the
//! fuzzer (`fuzzing`'s hint, index and describe checks) and the tests
//! (`tests/properties.rs`, `tests/ranking.rs`) compare the library with; and
//! the source of the test kit's broken rules (`mutants`).
//!
//! It is written a second time from the spec's words and the Lean model
//! (seed 001 §8-60), on purpose in another shape than the library's:
//! [`index`] is SPEC §4 (the hint walks chars through the spec's steps;
//! `pack` is the Lean definition transcribed clause for clause, recursive,
//! over the byte strings of the lines rather than their lengths), and
//! [`words`] and [`ranking`] are SPEC §5 (every candidate scored against
//! every query stem and by its vector, recomputed from the words for each
//! query, where the library builds postings and vectors once). Nothing here calls the
//! library's rules: the header, the marker, the ceiling, the doors and the
//! stopwords are spelled out again. Only `stem` is the library's
//! (`disclose::internals::stem`, pinned line by line by
//! `contract4/stems.tsv`; docs/decisions.md), and the vocabulary and rows
//! are read from the contract's data. Where the library and this model
//! disagree, one of them misreads the spec.
//!
//! This module holds what both halves share: SPEC §2's minted name, §3's
//! resident names and §8's offers.

use disclose::{Approval, Effect, Profile};

pub mod index;
pub mod ranking;
pub mod words;

pub use index::{
    CEILING, Dormant, HEADER, Line, Packed, hint, index, index_bytes, marker, pack, render, room,
    stable_order,
};
pub use ranking::{Candidate, DOORS, HITS, QUERY_MAX, Search, floor, isqrt, sat, weight};
pub use words::{CJK, STOPWORDS, is_cjk, is_cjk_word, pieces, word_list, wordpiece, words};

/// SPEC §3: the names that are resident when admitted as tools, in order.
pub const RESIDENT: [&str; 7] = [
    "read", "search", "status", "describe", "call", "edit", "exec",
];

/// SPEC §2's minted name: a `host` tool keeps its raw name, any other
/// origin's is `<origin>__<raw name>`.
pub fn minted(origin: &str, raw: &str) -> String {
    if origin == "host" {
        raw.to_string()
    } else {
        format!("{origin}__{raw}")
    }
}

/// SPEC §8: whether a child of `profile` is offered a tool (an adult run is
/// offered everything). Never one needing approval; `scout` takes `read`
/// and `idempotent-write`, `writer` also `reversible`.
pub fn offered(profile: Option<Profile>, effect: Effect, approval: Approval) -> bool {
    let Some(profile) = profile else {
        return true;
    };
    let effect_ok = match effect {
        Effect::Read | Effect::IdempotentWrite => true,
        Effect::Reversible => profile == Profile::Writer,
        Effect::Irreversible => false,
    };
    approval == Approval::Never && effect_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_follow_section_8() {
        use Approval::{Never, Required};
        use Effect::*;
        assert!(offered(None, Irreversible, Required));
        assert!(offered(Some(Profile::Scout), IdempotentWrite, Never));
        assert!(!offered(Some(Profile::Scout), Reversible, Never));
        assert!(offered(Some(Profile::Writer), Reversible, Never));
        assert!(!offered(Some(Profile::Writer), Read, Required));
        assert!(!offered(Some(Profile::Writer), Irreversible, Never));
    }
}
