//! The planted mutants: deliberately broken rules of the library, to show
//! that the fuzzer and the tests catch a broken *library*, not merely a
//! broken reference (docs/decisions.md, "Mutants are the test kit's,
//! planted through one seam").
//!
//! Each broken rule is written here, from the model where it has one
//! ([`crate::model`]): it takes exactly the inputs the library's rule takes
//! and calls nothing of the library's. [`Mutant::plant`] hands it to the
//! library's one seam (`disclose::internals::seam`, which exists only with
//! the `mutants` cargo feature) for one closure on one thread: the library
//! code that closure runs (a whole fuzz case, its re-replays and
//! reorderings included) calls the broken rule in place of the real one;
//! other threads, and this one afterwards, call the real one. A build
//! without the feature has no seam, and the library calls its rules
//! directly; [`Mutant`] and its names are here in every build, but only a
//! build with the feature can plant one.
//!
//! Adding a mutant: a variant of [`Mutant`], its name and what it breaks
//! (the exhaustive matches below fail to compile until both are written),
//! the variant in [`Mutant::ALL`]; its broken rule in `broken` and its
//! field of the seam in [`Mutant::plant`]; and the checks expected to catch
//! it in `crates/testkit/tests/mutants.rs` (`catching`, which fails to
//! compile until it is listed). If the rule has no seam yet, add one to
//! the library's `seam` module at the rule's call sites.

/// A deliberately broken rule of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mutant {
    /// SPEC §4: the packer's room forgets the `+N more` marker's budget.
    MarkerBudget,
    /// SPEC §6: `fit` calls an integral float (`1.0`) a number, not an
    /// integer.
    IntegralFloat,
    /// SPEC §4: a long hint is cut at 80 bytes before its ellipsis, not 77.
    HintCut,
    /// SPEC §5: every word weighs 1, however common it is (no IDF).
    NoIdf,
    /// SPEC §5: a word is its own stem (`organizing` no longer finds
    /// `organize`).
    NoStem,
    /// SPEC §5: a tool's params are not read (no field, no vector word).
    NoParams,
    /// SPEC §5: every cosine is 0 (keywords alone rank).
    NoVectors,
    /// SPEC §5: the cosine is Rust's truncating `/`, not the floor (a
    /// negative cosine rounds towards 0).
    TruncatingDivision,
    /// SPEC §2 and §13 I3: admission depends on a counter (an admitted
    /// tool's digest mixes in how many tools this thread has admitted), so
    /// replaying a session twice gives different bytes.
    Nondeterministic,
    /// SPEC §5 (contract 5): a run of CJK characters stays one word, as in
    /// contract 4 (no characters, no pairs, no cut at the script).
    NoCjkSplit,
    /// SPEC §5 (contract 5): a CJK word gets its WordPiece pieces, so a
    /// vector.
    CjkVectors,
    /// SPEC §5 (contract 5): the fusion adds `3·cos`, however few query
    /// words have a vector.
    UnscaledCosine,
    /// SPEC §5 (contract 5): a CJK stem counts by its presence in each
    /// field, as a whole word does, not by its saturated occurrences.
    CjkByPresence,
}

impl Mutant {
    /// Every mutant, in the order `disclose fuzz --mutant` lists them.
    pub const ALL: [Mutant; 13] = [
        Mutant::MarkerBudget,
        Mutant::IntegralFloat,
        Mutant::HintCut,
        Mutant::NoIdf,
        Mutant::NoStem,
        Mutant::NoParams,
        Mutant::NoVectors,
        Mutant::TruncatingDivision,
        Mutant::Nondeterministic,
        Mutant::NoCjkSplit,
        Mutant::CjkVectors,
        Mutant::UnscaledCosine,
        Mutant::CjkByPresence,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::MarkerBudget => "marker-budget",
            Mutant::IntegralFloat => "integral-float",
            Mutant::HintCut => "hint-cut",
            Mutant::NoIdf => "no-idf",
            Mutant::NoStem => "no-stem",
            Mutant::NoParams => "no-params",
            Mutant::NoVectors => "no-vectors",
            Mutant::TruncatingDivision => "truncating-division",
            Mutant::Nondeterministic => "nondeterministic",
            Mutant::NoCjkSplit => "no-cjk-split",
            Mutant::CjkVectors => "cjk-vectors",
            Mutant::UnscaledCosine => "unscaled-cosine",
            Mutant::CjkByPresence => "cjk-by-presence",
        }
    }

    /// What it breaks, in a few words.
    pub fn breaks(self) -> &'static str {
        match self {
            Mutant::MarkerBudget => "the packer forgets to budget the \"+N more\" marker",
            Mutant::IntegralFloat => "fit calls 1.0 a number, not an integer",
            Mutant::HintCut => "a long hint keeps 80 bytes before its ellipsis, not 77",
            Mutant::NoIdf => "describe weighs every keyword 1, however common it is",
            Mutant::NoStem => "describe matches words, not their stems",
            Mutant::NoParams => "describe never reads a tool's params",
            Mutant::NoVectors => "describe's cosine is always 0",
            Mutant::TruncatingDivision => "describe's cosine truncates towards 0, not the floor",
            Mutant::Nondeterministic => {
                "an admitted tool's digest depends on how many tools were admitted before"
            }
            Mutant::NoCjkSplit => "describe keeps a run of CJK characters as one word",
            Mutant::CjkVectors => "describe gives CJK words their WordPiece vectors",
            Mutant::UnscaledCosine => {
                "describe adds 3 cosines however few query words have a vector"
            }
            Mutant::CjkByPresence => "describe counts a CJK stem by presence, not occurrences",
        }
    }

    /// The mutant named `name`.
    pub fn named(name: &str) -> Option<Mutant> {
        Mutant::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Runs `f` with this mutant planted in the library, on this thread
    /// only (the library's seam restores the rules when `f` returns or
    /// panics).
    #[cfg(feature = "mutants")]
    pub fn plant<R>(self, f: impl FnOnce() -> R) -> R {
        use disclose::internals::seam::{Planted, plant};
        let none = Planted::default();
        let planted = match self {
            Mutant::MarkerBudget => Planted {
                room_for: Some(broken::room_for),
                ..none
            },
            Mutant::IntegralFloat => Planted {
                is_integral: Some(broken::is_integral),
                ..none
            },
            Mutant::HintCut => Planted {
                hint: Some(broken::hint),
                ..none
            },
            Mutant::NoIdf => Planted {
                weight: Some(broken::weight),
                ..none
            },
            Mutant::NoStem => Planted {
                stem: Some(broken::stem),
                ..none
            },
            Mutant::NoParams => Planted {
                properties: Some(broken::properties),
                ..none
            },
            Mutant::NoVectors => Planted {
                cosine: Some(broken::no_cosine),
                ..none
            },
            Mutant::TruncatingDivision => Planted {
                cosine: Some(broken::truncated_cosine),
                ..none
            },
            Mutant::Nondeterministic => Planted {
                descriptor_digest: Some(broken::counted_digest),
                ..none
            },
            Mutant::NoCjkSplit => Planted {
                split_cjk: Some(broken::unsplit),
                ..none
            },
            Mutant::CjkVectors => Planted {
                pieces: Some(broken::wordpiece),
                ..none
            },
            Mutant::UnscaledCosine => Planted {
                fuse: Some(broken::unscaled_fuse),
                ..none
            },
            Mutant::CjkByPresence => Planted {
                saturates: Some(broken::never_saturates),
                ..none
            },
        };
        plant(planted, f)
    }
}

/// The broken rules, each with the signature of the rule it replaces.
#[cfg(feature = "mutants")]
mod broken {
    use std::borrow::Cow;
    use std::cell::Cell;

    use serde_json::{Map, Number, Value};

    use crate::model;

    /// SPEC §4 without the marker: the room is the ceiling less the header
    /// only, so a `+N more` marker can push the index past 1024 bytes.
    pub(super) fn room_for(_total: usize) -> usize {
        model::CEILING - model::HEADER.len()
    }

    /// SPEC §6 misread: only a number written without a fraction or
    /// exponent is integral, so `1.0` is not.
    pub(super) fn is_integral(n: &Number) -> bool {
        n.is_i64() || n.is_u64()
    }

    /// SPEC §4 with the cut at 80 bytes before the ellipsis, not 77.
    pub(super) fn hint(text: &str) -> String {
        model::index::hint_keeping(text, 80)
    }

    /// SPEC §5 without IDF: every word weighs 1.
    pub(super) fn weight(_candidates: usize, _df: usize) -> u32 {
        1
    }

    /// SPEC §5 without stems: a word is its own stem.
    pub(super) fn stem(word: &str) -> Cow<'_, str> {
        Cow::Borrowed(word)
    }

    /// SPEC §5 without params: no candidate has any.
    pub(super) fn properties(_schema: Option<&Value>) -> Option<&Map<String, Value>> {
        None
    }

    /// SPEC §5 without vectors: every cosine is 0.
    pub(super) fn no_cosine(_product: i128, _query_norm: i128, _norm: i128) -> i128 {
        0
    }

    /// SPEC §5 with Rust's truncating `/` where the spec floors: a negative
    /// cosine rounds towards 0 (0 when either norm is, as the rule says).
    pub(super) fn truncated_cosine(product: i128, query_norm: i128, norm: i128) -> i128 {
        if query_norm <= 0 || norm <= 0 {
            return 0;
        }
        product.wrapping_mul(1024) / query_norm.wrapping_mul(norm).max(1)
    }

    /// SPEC §5 as contract 4 read it: a word holding CJK characters is
    /// written as it is, one word.
    pub(super) fn unsplit(word: &str, out: &mut String) {
        out.push_str(word);
        out.push(' ');
    }

    /// SPEC §5 without contract 5's clause: every word, CJK or not, gets
    /// its WordPiece split (the model's), so `中` has a vector.
    pub(super) fn wordpiece(word: &str) -> Vec<u32> {
        (model::wordpiece(word).into_iter())
            .map(|line| u32::try_from(line).unwrap_or(u32::MAX))
            .collect()
    }

    /// SPEC §5's fusion as contract 4 wrote it: `⌊1024·lex/L⌋ + 3·cos`,
    /// the cosine's share of the query words with a vector ignored.
    pub(super) fn unscaled_fuse(
        lex: u64,
        most: u64,
        cos: i128,
        _with_vector: usize,
        _words: usize,
    ) -> i128 {
        let keyword = match most {
            0 => 0,
            most => i128::from(lex) * 1024 / i128::from(most),
        };
        keyword + 3 * cos
    }

    /// SPEC §5 with every stem counted by presence, a CJK one too.
    pub(super) fn never_saturates(_stem: &str) -> bool {
        false
    }

    thread_local! {
        /// Admissions on this thread under `nondeterministic`: the hidden
        /// state that mutant leaks into its answers.
        static ADMITTED: Cell<u64> = const { Cell::new(0) };
    }

    /// SPEC §2 made to depend on a counter: the digest of the canonical
    /// descriptor and how many tools this thread admitted before, so the
    /// same declaration gets another digest each time it is admitted.
    pub(super) fn counted_digest(pinned: &str) -> String {
        let count = ADMITTED.with(|admitted| {
            admitted.set(admitted.get() + 1);
            admitted.get()
        });
        let mut input = pinned.as_bytes().to_vec();
        input.extend_from_slice(&count.to_le_bytes());
        blake3::hash(&input).to_hex().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for mutant in Mutant::ALL {
            assert_eq!(Mutant::named(mutant.name()), Some(mutant));
        }
        assert_eq!(Mutant::named("nope"), None);
    }
}
