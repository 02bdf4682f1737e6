//! The fuzz driver (SPEC §13's invariants on generated runs): generate whole sessions from a seed, check
//! each, and shrink the first failure to a minimal session.
//!
//! Case `i` of seed `s` is drawn straight from its own RNG, derived from
//! `(s, i)` ([`crate::generate::draw`]; no value trees), and only a failing
//! case is shrunk, by a greedy descent over [`SessionPlan::shrunk`]. Cases
//! are independent: a run is reproduced by `--seed s --cases i+1`,
//! cases may be checked in parallel, and what is reported never depends on
//! the thread count (chunks are checked in order, and within a chunk the
//! lowest failing case wins). Each case checks, in this order:
//!
//! - **malformed**: the generator and the parser agree — a plan without a
//!   fault parses, and a plan with one is refused on the fault's line;
//! - **position**: a malformed session's error has a line and column ≥ 1;
//! - **I1–I8**: [`disclose_replay::invariants::check`] (I3 is determinism);
//! - **hint** and **index**: every admitted capability's hint, and every
//!   render (the segment, the dormant index, `+N more`), equal what
//!   [`crate::model`] — SPEC §4 and the Lean `pack`/`indexBytes` written
//!   out again over byte strings, apart from the library — computes from
//!   the session's declarations;
//! - **describe**: every keyword answer of `describe` equals SPEC §5's
//!   ranking (words, stopwords, `df` over the run's candidates, the integer
//!   weight, score, order, the first 8) as [`crate::model`] computes it;
//! - **order**: admitting the same declarations in another order (those
//!   refused `admit.duplicate`/`admit.collision` left out: their refusal
//!   depends on order) gives the same admissions, render, tool list, pins,
//!   digests and answers;
//! - **fit**: every call's object args that a full draft 2020-12 validator
//!   accepts for the target's schema pass the library's `fit`, and the call
//!   is not refused `call.misfit`;
//! - **panic**: none of the above panics.
//!
//! The references are the model, a full JSON Schema validator, and the
//! library compared with itself (determinism, order). With the `mutants`
//! feature, a run may plant one of [`crate::mutants`]' broken rules in the
//! library for its own cases only ([`Fuzz::planting`]), to show the checks
//! catch a broken library. No I/O, no clock: a time budget is the caller's
//! `keep_going` closure.

mod checks;

use std::panic::{AssertUnwindSafe, catch_unwind};

use rayon::prelude::*;

pub use checks::{CHECKS, Expect, Finding, ORACLE, Tally, check_plan, check_text, statement};

use crate::generate::SessionPlan;
use crate::generate::draw::{self, Rng};
use crate::mutants::Mutant;

/// The first failing case, shrunk.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The 0-based case index.
    pub case: u64,
    /// What failed on the case as generated.
    pub first: Finding,
    /// The session as generated.
    pub original: String,
    /// The minimal session still failing the same check, its `about`
    /// naming the check and the seed when that keeps it failing.
    pub minimal: String,
    /// What failed on the minimal session.
    pub finding: Finding,
    /// Shrink steps tried.
    pub steps: u32,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// What the passing cases covered (the failing one excluded).
    pub tally: Tally,
    /// The first failure, if any.
    pub failure: Option<Failure>,
}

/// A fuzz run: `cases` sessions from `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Fuzz {
    /// The seed.
    pub seed: u64,
    /// How many cases at most.
    pub cases: u64,
    /// At most this many shrink steps.
    pub shrink_steps: u32,
    /// A broken rule planted in the library while this run's cases are
    /// checked (and shrunk), and nowhere else: set only by
    /// [`Fuzz::planting`], which needs the `mutants` feature.
    mutant: Option<Mutant>,
}

/// Cases `disclose fuzz` runs when neither `--cases` nor `--time` is given.
pub const DEFAULT_CASES: u64 = 10_000;

/// Cases checked between two calls of `keep_going`.
pub const CHUNK: u64 = 256;

impl Fuzz {
    /// A run of the library as built, with the default shrink budget.
    pub fn new(seed: u64, cases: u64) -> Fuzz {
        Fuzz {
            seed,
            cases,
            shrink_steps: 4096,
            mutant: None,
        }
    }

    /// This run, checking every case (and shrink step) with `mutant`
    /// planted in the library: it must fail.
    #[cfg(feature = "mutants")]
    pub fn planting(self, mutant: Mutant) -> Fuzz {
        Fuzz {
            mutant: Some(mutant),
            ..self
        }
    }

    /// The mutant this run plants, if any.
    pub fn mutant(&self) -> Option<Mutant> {
        self.mutant
    }

    /// Checks one plan, with this run's mutant planted (on this thread, for
    /// this plan only) when it has one.
    fn check(&self, plan: &SessionPlan) -> Result<Tally, Finding> {
        match self.mutant {
            #[cfg(feature = "mutants")]
            Some(mutant) => mutant.plant(|| check_plan(plan)),
            _ => check_plan(plan),
        }
    }

    /// Runs the cases in chunks of [`CHUNK`], in parallel within a chunk;
    /// before each chunk `keep_going(cases done)` may stop the run (a time
    /// budget, a progress bar). Stops at the first failure and shrinks it.
    pub fn run(&self, keep_going: &(dyn Fn(u64) -> bool + Sync)) -> Report {
        let mut tally = Tally::default();
        let mut done = 0;
        while done < self.cases && keep_going(done) {
            let end = done.saturating_add(CHUNK).min(self.cases);
            let results: Vec<(u64, Result<Tally, Finding>)> = (done..end)
                .into_par_iter()
                .map(|case| (case, self.check_case(case)))
                .collect();
            for (case, result) in results {
                match result {
                    Ok(case_tally) => tally.add(&case_tally),
                    Err(finding) => {
                        return Report {
                            tally,
                            failure: Some(self.shrink(case, finding)),
                        };
                    }
                }
            }
            done = end;
        }
        Report {
            tally,
            failure: None,
        }
    }

    /// The plan case `case` generates: drawn straight from its own RNG,
    /// seeded by BLAKE3(`disclose.fuzz/1`, seed, case), so any case can be
    /// drawn alone and `--seed S --cases i+1` reproduces case `i`.
    pub fn plan(&self, case: u64) -> Option<SessionPlan> {
        let mut key = blake3::Hasher::new();
        key.update(b"disclose.fuzz/1");
        key.update(&self.seed.to_le_bytes());
        key.update(&case.to_le_bytes());
        let bytes = key.finalize();
        let mut seed = [0; 8];
        seed.copy_from_slice(bytes.as_bytes().get(..8)?);
        // A panicking generator is a finding too, not a crash of the run.
        catch_unwind(AssertUnwindSafe(|| {
            draw::session_plan(&mut Rng::new(u64::from_le_bytes(seed)))
        }))
        .ok()
    }

    /// Generates and checks case `case`.
    pub fn check_case(&self, case: u64) -> Result<Tally, Finding> {
        match self.plan(case) {
            Some(plan) => self.check(&plan),
            None => Err(Finding {
                check: "panic",
                message: "the generator panicked or produced no session".to_string(),
            }),
        }
    }

    /// Shrinks case `case`, which failed with `first`: take the first of
    /// the plan's [`SessionPlan::shrunk`] candidates that still fails the
    /// same check, and ask again, until none does or the budget is spent.
    fn shrink(&self, case: u64, first: Finding) -> Failure {
        let Some(original) = self.plan(case) else {
            return Failure {
                case,
                original: String::new(),
                minimal: String::new(),
                finding: first.clone(),
                first,
                steps: 0,
            };
        };
        let mut best = (original.clone(), first.clone());
        let mut steps = 0;
        'descent: while steps < self.shrink_steps {
            for candidate in best.0.shrunk() {
                if steps >= self.shrink_steps {
                    break 'descent;
                }
                steps += 1;
                if let Err(finding) = self.check(&candidate)
                    && finding.check == first.check
                {
                    best = (candidate, finding);
                    continue 'descent;
                }
            }
            break;
        }
        let (plan, finding) = best;
        let mut named = plan.clone();
        named.about = format!(
            "fuzz: {} ({}) broke on seed {} case {}: {}",
            first.check,
            statement(first.check),
            self.seed,
            case,
            finding.message
        );
        let (plan, finding) = match self.check(&named) {
            Err(again) if again.check == first.check => (named, again),
            _ => (plan, finding),
        };
        Failure {
            case,
            first,
            original: original.to_text(),
            minimal: plan.to_text(),
            finding,
            steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::checks::permutation;
    use super::*;

    #[test]
    fn permutations_are_permutations() {
        for n in 0..12 {
            let mut p = permutation(n, 99);
            p.sort_unstable();
            assert_eq!(p, (0..n).collect::<Vec<_>>());
        }
        assert_ne!(permutation(8, 1), permutation(8, 2));
    }

    #[test]
    fn the_clean_library_passes_and_the_run_is_deterministic() {
        let fuzz = Fuzz::new(11, 300);
        let first = fuzz.run(&|_| true);
        assert!(first.failure.is_none(), "{:?}", first.failure);
        assert_eq!(first.tally.cases, 300);
        // The describe check is not vacuous: about one case in two asks a
        // keyword question (192 of 300 here), and one in four lists hits.
        assert!(first.tally.ranked >= 30, "{:?}", first.tally);
        assert!(first.tally.ranked_hits >= 15, "{:?}", first.tally);
        assert_eq!(fuzz.run(&|_| true).tally, first.tally);
    }

    #[test]
    fn keep_going_stops_the_run_between_chunks() {
        let fuzz = Fuzz::new(3, 10 * CHUNK);
        let report = fuzz.run(&|done| done < CHUNK);
        assert_eq!(report.tally.cases, CHUNK);
    }
}
