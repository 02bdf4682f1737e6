//! Deliberately broken rules, planted in the library itself (docs/decisions.md,
//! "Mutants are planted in the library, for one fuzz case on one thread"), so
//! a test can show that the fuzzer catches a broken *library*, not merely a
//! broken reference.
//!
//! This module, and every hook that reads it, exists only in test builds of
//! the crate and in builds with the `mutants` cargo feature; a release build
//! never has them. A mutant is switched on for one closure on one thread by
//! [`with`]: the library code that closure runs (a whole fuzz case, with its
//! re-replays and reorderings) sees the mutant; every other thread — other
//! tests of the same binary, other rayon workers, other cases — does not,
//! and the switch is restored even when the closure panics. The library
//! never hands work to another thread inside one case, so nothing escapes
//! the scope.
//!
//! Each broken rule is written here, as a function that takes the value the
//! library computed (and what it needs) and returns the broken value while
//! its mutant is active, the same value otherwise. The rule it breaks calls
//! it in one line, `#[cfg(feature = "mutants")] let x =
//! crate::mutant::f(x, …);`, so the library's own code is unchanged and
//! `cargo mutants` (which mutates the rule modules, not this one) finds no
//! operator to mutate in a hook. A hook must sit on a path evaluated per
//! call (render, `fit`, admission, ranking), never on a value computed once
//! per process (the doors, the meta-schema memo), or the mutant would
//! outlive its scope.
//!
//! Adding a mutant: a variant of [`Mutant`], its name and what it breaks (the
//! exhaustive matches below fail to compile until both are written), the
//! variant in [`Mutant::ALL`]; a broken-rule function here and its one-line
//! hook in the rule; and the checks expected to catch it in
//! `fuzzing::tests::catching` (which fails to compile until it is listed).
//! If no fuzz check can see the rule yet, add one to `fuzzing/checks.rs`
//! with a reference for it in `fuzzing/model.rs`.

use std::cell::Cell;

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
    /// SPEC §5: every query word weighs 1, however common it is (no IDF).
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
    /// SPEC §2 and §13 I3: admission depends on a counter (the digest of
    /// an admitted tool mixes in how many tools this thread has admitted),
    /// so replaying a session twice gives different bytes.
    Nondeterministic,
}

impl Mutant {
    /// Every mutant, in the order `disclose fuzz --mutant` lists them.
    pub const ALL: [Mutant; 9] = [
        Mutant::MarkerBudget,
        Mutant::IntegralFloat,
        Mutant::HintCut,
        Mutant::NoIdf,
        Mutant::NoStem,
        Mutant::NoParams,
        Mutant::NoVectors,
        Mutant::TruncatingDivision,
        Mutant::Nondeterministic,
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
        }
    }

    /// The mutant named `name`.
    pub fn named(name: &str) -> Option<Mutant> {
        Mutant::ALL.into_iter().find(|m| m.name() == name)
    }
}

thread_local! {
    /// The mutant in effect on this thread, inside [`with`] only.
    static ACTIVE: Cell<Option<Mutant>> = const { Cell::new(None) };
}

/// Restores the previous switch when dropped, also on unwind.
struct Restore(Option<Mutant>);

impl Drop for Restore {
    fn drop(&mut self) {
        ACTIVE.with(|active| active.set(self.0));
    }
}

/// Runs `f` with `mutant` planted in the library, on this thread only.
pub fn with<R>(mutant: Mutant, f: impl FnOnce() -> R) -> R {
    let _restore = Restore(ACTIVE.with(|active| active.replace(Some(mutant))));
    f()
}

/// Whether `mutant` is in effect here (the hooks ask this).
pub(crate) fn active(mutant: Mutant) -> bool {
    ACTIVE.with(|active| active.get() == Some(mutant))
}

/// Whether any mutant is in effect here (memos of pure facts are bypassed
/// then, so a mutant never outlives its scope in one).
pub(crate) fn any() -> bool {
    ACTIVE.with(|active| active.get().is_some())
}

/// SPEC §5 broken by [`Mutant::NoStem`]: a word is its own stem.
pub(crate) fn no_stem() -> bool {
    active(Mutant::NoStem)
}

/// SPEC §5 broken by [`Mutant::NoParams`]: no params are read.
pub(crate) fn no_params() -> bool {
    active(Mutant::NoParams)
}

/// SPEC §5 broken by [`Mutant::NoVectors`]: the cosine is 0.
pub(crate) fn no_vectors() -> bool {
    active(Mutant::NoVectors)
}

/// SPEC §5 broken by [`Mutant::TruncatingDivision`]: `/` for the floor.
pub(crate) fn truncating_division() -> bool {
    active(Mutant::TruncatingDivision)
}

/// SPEC §4 broken by [`Mutant::MarkerBudget`]: the packer's room is the
/// ceiling less the header only, so a `+N more` marker can push the index
/// past 1024 bytes.
pub(crate) fn room_for(room: usize) -> usize {
    if active(Mutant::MarkerBudget) {
        crate::DORMANT_INDEX_CEILING - crate::dormant::INDEX_HEADER.len()
    } else {
        room
    }
}

/// SPEC §6 broken by [`Mutant::IntegralFloat`]: a float with no fractional
/// part (`1.0`) is not integral.
pub(crate) fn integral(integral: bool, n: &serde_json::Number) -> bool {
    integral && !(active(Mutant::IntegralFloat) && n.is_f64())
}

/// SPEC §4 broken by [`Mutant::HintCut`]: a long hint (`clean`, past 80
/// bytes) keeps up to 80 bytes before its ellipsis rather than 77.
pub(crate) fn cut_hint(hint: String, clean: &str) -> String {
    if active(Mutant::HintCut) {
        let cut = crate::hint::floor_boundary(clean, crate::HINT_MAX_BYTES);
        format!("{}…", clean[..cut].trim_end())
    } else {
        hint
    }
}

/// SPEC §5 broken by [`Mutant::NoIdf`]: a query word's weight is 1
/// whatever its `df`, so D22's plain hit counts (3 in a name, 1 in a text)
/// rank alone.
pub(crate) fn weight(weight: u64) -> u64 {
    if active(Mutant::NoIdf) { 1 } else { weight }
}

thread_local! {
    /// Admissions on this thread while [`Mutant::Nondeterministic`] is in
    /// effect: the hidden state that mutant leaks into its answers.
    static ADMITTED: Cell<u64> = const { Cell::new(0) };
}

/// SPEC §13 I3 broken by [`Mutant::Nondeterministic`]: an admitted tool's
/// digest is re-hashed with a count of the admissions before it, so the
/// same declaration gets another digest each time it is admitted.
pub(crate) fn counted_digest(digest: String) -> String {
    if !active(Mutant::Nondeterministic) {
        return digest;
    }
    let count = ADMITTED.with(|admitted| {
        admitted.set(admitted.get() + 1);
        admitted.get()
    });
    let mut input = digest.into_bytes();
    input.extend_from_slice(&count.to_le_bytes());
    blake3::hash(&input).to_hex().to_string()
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

    #[test]
    fn the_switch_holds_inside_the_closure_only_and_on_this_thread_only() {
        assert!(!active(Mutant::MarkerBudget));
        with(Mutant::MarkerBudget, || {
            assert!(active(Mutant::MarkerBudget));
            assert!(!active(Mutant::IntegralFloat));
            let elsewhere = std::thread::spawn(|| active(Mutant::MarkerBudget));
            assert_eq!(elsewhere.join().ok(), Some(false));
            with(Mutant::IntegralFloat, || {
                assert!(active(Mutant::IntegralFloat));
            });
            assert!(active(Mutant::MarkerBudget));
        });
        assert!(!active(Mutant::MarkerBudget));
    }

    #[test]
    fn a_panic_inside_restores_the_switch() {
        let caught = std::panic::catch_unwind(|| with(Mutant::IntegralFloat, || panic!("inside")));
        assert!(caught.is_err());
        assert!(!active(Mutant::IntegralFloat));
    }
}
