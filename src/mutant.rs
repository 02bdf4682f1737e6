//! Deliberately broken rules, planted in the library itself (issue 12), so
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
//! A hook must sit on a path evaluated per call (render, `fit`, ranking),
//! never on a value computed once per process (the doors, the meta-schema
//! memo), or the mutant would outlive its scope.
//!
//! Adding a mutant: a variant of [`Mutant`] with its name and what it
//! breaks (the exhaustive matches below fail to compile until both are
//! written, and [`Mutant::ALL`] lists it), one `#[cfg(any(test, feature =
//! "mutants"))]` hook in the rule it breaks that asks [`active`], and the
//! checks expected to catch it in the fuzzer's tests
//! (`fuzzing::tests::catching`).

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
}

impl Mutant {
    /// Every mutant, in the order `disclose fuzz --mutant` lists them.
    pub const ALL: [Mutant; 3] = [Mutant::MarkerBudget, Mutant::IntegralFloat, Mutant::HintCut];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mutant::MarkerBudget => "marker-budget",
            Mutant::IntegralFloat => "integral-float",
            Mutant::HintCut => "hint-cut",
        }
    }

    /// What it breaks, in a few words.
    pub fn breaks(self) -> &'static str {
        match self {
            Mutant::MarkerBudget => "the packer forgets to budget the \"+N more\" marker",
            Mutant::IntegralFloat => "fit calls 1.0 a number, not an integer",
            Mutant::HintCut => "a long hint keeps 80 bytes before its ellipsis, not 77",
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
pub fn active(mutant: Mutant) -> bool {
    ACTIVE.with(|active| active.get() == Some(mutant))
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
