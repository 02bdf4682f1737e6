//! The fuzz driver (issue 4): generate whole sessions from a seed, check
//! each, and shrink the first failure to a minimal session.
//!
//! Case `i` of seed `s` is generated from its own RNG, derived from `(s, i)`,
//! so cases are independent: a run is reproduced by `--seed s --cases i+1`,
//! cases may be checked in parallel, and what is reported never depends on
//! the thread count (chunks are checked in order, and within a chunk the
//! lowest failing case wins). Each case checks, in this order:
//!
//! - **malformed**: the generator and the parser agree — a plan without a
//!   fault parses, and a plan with one is refused on the fault's line;
//! - **position**: a malformed session's error has a line and column ≥ 1;
//! - **I1–I8**: [`crate::invariants::check`] (I3 is determinism);
//! - **I1** and **index** again, through the [`Rules`]' packer: the index
//!   it packs from the run's dormant entries is ≤ 1024 bytes (the Lean
//!   `index_within_ceiling`), and the rendered index is exactly that long
//!   (the Lean `indexBytes`);
//! - **order**: admitting the same declarations in another order (those
//!   refused `admit.duplicate`/`admit.collision` left out: their refusal
//!   depends on order) gives the same admissions, render, tool list, pins,
//!   digests and answers;
//! - **fit**: every call's object args that a full draft 2020-12 validator
//!   accepts for the target's schema also pass the [`Rules`]' `fit`;
//! - **panic**: none of the above panics.
//!
//! The rules under test are parameters so a test can hand the driver a
//! deliberately broken rule ([`MUTANTS`]) and see it caught. No I/O, no
//! clock: a time budget is the caller's `keep_going` closure.

mod checks;
mod rules;

use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{
    Config, RngAlgorithm, RngSeed, TestRng, TestRunner, noop_result_cache,
};
use rayon::prelude::*;

pub use checks::{CHECKS, Expect, Finding, Tally, check_plan, check_text, statement};
pub use rules::{FitRule, IndexPacker, MUTANTS, Mutant, Rules, index_bytes, mutant, spec_packer};

use crate::generate::{SessionPlan, session_plan};

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

/// A fuzz run: `cases` sessions from `seed`, checked against `rules`.
#[derive(Clone, Copy, Debug)]
pub struct Fuzz {
    /// The seed.
    pub seed: u64,
    /// How many cases at most.
    pub cases: u64,
    /// The rules under test.
    pub rules: Rules,
    /// At most this many shrink steps.
    pub shrink_steps: u32,
}

thread_local! {
    /// The session strategy, built once per thread rather than once per
    /// case (building it allocates hundreds of nodes).
    static PLANS: BoxedStrategy<SessionPlan> = session_plan();
}

/// Cases `disclose fuzz` runs when neither `--cases` nor `--time` is given.
pub const DEFAULT_CASES: u64 = 10_000;

/// Cases checked between two calls of `keep_going`.
pub const CHUNK: u64 = 256;

impl Fuzz {
    /// A run of the spec's rules with the default shrink budget.
    pub fn new(seed: u64, cases: u64) -> Fuzz {
        Fuzz {
            seed,
            cases,
            rules: Rules::SPEC,
            shrink_steps: 4096,
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

    /// The plan of case `case`, as a shrinkable tree.
    fn tree(&self, case: u64) -> Option<Box<dyn ValueTree<Value = SessionPlan>>> {
        let mut key = blake3::Hasher::new();
        key.update(b"disclose.fuzz/1");
        key.update(&self.seed.to_le_bytes());
        key.update(&case.to_le_bytes());
        let bytes = key.finalize();
        let seed = bytes.as_bytes().get(..16)?;
        let rng = TestRng::from_seed(RngAlgorithm::XorShift, seed);
        let mut runner = TestRunner::new_with_rng(runner_config(), rng);
        // A panicking generator is a finding too, not a crash of the run.
        catch_unwind(AssertUnwindSafe(|| {
            PLANS.with(|plans| plans.new_tree(&mut runner).ok())
        }))
        .ok()
        .flatten()
    }

    /// The plan case `case` generates.
    pub fn plan(&self, case: u64) -> Option<SessionPlan> {
        self.tree(case).map(|tree| tree.current())
    }

    /// Generates and checks case `case`.
    pub fn check_case(&self, case: u64) -> Result<Tally, Finding> {
        match self.tree(case) {
            Some(tree) => check_plan(&tree.current(), &self.rules),
            None => Err(Finding {
                check: "panic",
                message: "the generator panicked or produced no session".to_string(),
            }),
        }
    }

    /// Shrinks case `case`, which failed with `first`: simplify while the
    /// same check fails, complicate when it passes (proptest's loop).
    fn shrink(&self, case: u64, first: Finding) -> Failure {
        let Some(mut tree) = self.tree(case) else {
            return Failure {
                case,
                original: String::new(),
                minimal: String::new(),
                finding: first.clone(),
                first,
                steps: 0,
            };
        };
        let original = tree.current();
        let mut best = (original.clone(), first.clone());
        let mut steps = 0;
        if tree.simplify() {
            while steps < self.shrink_steps {
                steps += 1;
                let plan = tree.current();
                match check_plan(&plan, &self.rules) {
                    Err(finding) if finding.check == first.check => {
                        best = (plan, finding);
                        if !tree.simplify() {
                            break;
                        }
                    }
                    _ => {
                        if !tree.complicate() {
                            break;
                        }
                    }
                }
            }
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
        let (plan, finding) = match check_plan(&named, &self.rules) {
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

/// The runner's configuration. `Config::default()` (under every public
/// constructor) reads `PROPTEST_*` from the environment, and the library's
/// output reads none: every field it could set is assigned here, so what a
/// case generates depends only on the RNG. Only the RNG matters to
/// generation; the rest is inert here.
fn runner_config() -> Config {
    let mut config = Config::with_cases(1);
    config.max_local_rejects = 0;
    config.max_global_rejects = 0;
    config.max_flat_map_regens = 1_000_000;
    config.failure_persistence = None;
    config.source_file = None;
    config.test_name = None;
    config.fork = false;
    config.timeout = 0;
    config.max_shrink_time = 0;
    config.max_shrink_iters = u32::MAX;
    config.max_default_size_range = 100;
    config.result_cache = noop_result_cache;
    config.verbose = 0;
    config.rng_algorithm = RngAlgorithm::XorShift;
    config.rng_seed = RngSeed::Fixed(0);
    config
}

#[cfg(test)]
mod tests {
    use super::checks::permutation;
    use super::rules::{forgets_marker_budget, integral_float_is_a_number};
    use super::*;
    use crate::DORMANT_INDEX_CEILING;
    use crate::dormant::{Entry, INDEX_HEADER};

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
    fn index_bytes_follows_the_lean_formula() {
        let e = |hinted, bare| Entry { hinted, bare };
        assert_eq!(index_bytes(spec_packer, &[]).0, 0);
        assert_eq!(
            index_bytes(spec_packer, &[e(20, 8), e(30, 10)]).0,
            INDEX_HEADER.len() + 50
        );
        // 100 entries of 100 bytes: room is 1024 - 59 - len("+100 more\n") = 955,
        // so 9 are listed (900 bytes) and 91 are left.
        let many = vec![e(100, 100); 100];
        let (bytes, packed) = index_bytes(spec_packer, &many);
        assert_eq!((packed.used, packed.left), (900, 91));
        assert_eq!(bytes, INDEX_HEADER.len() + 900 + "+91 more\n".len());
    }

    /// Issue 4, "Done when": a packer that forgets the marker budget is
    /// caught within the default run, for several seeds, and shrunk to a
    /// smaller session that the real rules accept.
    #[test]
    fn the_default_run_catches_a_packer_that_forgets_the_marker_budget() {
        let broken = mutant("marker-budget").expect("known mutant");
        for seed in [0, 1, 7] {
            let fuzz = Fuzz {
                rules: broken.rules,
                ..Fuzz::new(seed, DEFAULT_CASES)
            };
            let failure = fuzz.run(&|_| true).failure.expect("caught");
            assert_eq!(failure.first.check, "I1", "seed {seed}");
            assert_eq!(failure.finding.check, "I1", "seed {seed}");
            assert!(failure.case < DEFAULT_CASES);
            assert!(
                failure.minimal.lines().count() <= failure.original.lines().count(),
                "seed {seed}"
            );
            assert!(failure.minimal.contains("broke on seed"));
            // The minimal session is an ordinary session: it parses, and the
            // library (whose packer budgets the marker) passes every check.
            let expect = Expect::WellFormed;
            assert!(check_text(&failure.minimal, expect, 0, &Rules::SPEC).is_ok());
            let again = check_text(&failure.minimal, expect, 0, &broken.rules);
            assert_eq!(again.map_err(|f| f.check), Err("I1"));
        }
    }

    #[test]
    fn the_default_run_catches_fit_calling_one_point_zero_a_number() {
        let broken = mutant("integral-float").expect("known mutant");
        let fuzz = Fuzz {
            rules: broken.rules,
            ..Fuzz::new(7, DEFAULT_CASES)
        };
        let failure = fuzz.run(&|_| true).failure.expect("caught");
        assert_eq!(failure.first.check, "fit");
        assert!(failure.minimal.contains("1.0"), "{}", failure.minimal);
        assert!(failure.minimal.lines().count() <= failure.original.lines().count());
    }

    #[test]
    fn the_spec_rules_pass_and_the_run_is_deterministic() {
        let fuzz = Fuzz::new(11, 300);
        let first = fuzz.run(&|_| true);
        assert!(first.failure.is_none(), "{:?}", first.failure);
        assert_eq!(first.tally.cases, 300);
        assert_eq!(fuzz.run(&|_| true).tally, first.tally);
    }

    #[test]
    fn keep_going_stops_the_run_between_chunks() {
        let fuzz = Fuzz::new(3, 10 * CHUNK);
        let report = fuzz.run(&|done| done < CHUNK);
        assert_eq!(report.tally.cases, CHUNK);
    }

    #[test]
    fn the_mutants_break_what_they_say() {
        let e = Entry {
            hinted: 24,
            bare: 24,
        };
        let entries = vec![e; 100];
        let (bytes, _) = index_bytes(forgets_marker_budget, &entries);
        assert!(bytes > DORMANT_INDEX_CEILING, "{bytes}");
        let schema = serde_json::json!({"properties": {"n": {"type": "integer"}}});
        assert!(crate::fit::fit(&schema, &serde_json::json!({"n": 1.0})).is_ok());
        assert!(integral_float_is_a_number(&schema, &serde_json::json!({"n": 1.0})).is_err());
        assert!(integral_float_is_a_number(&schema, &serde_json::json!({"n": 1})).is_ok());
    }
}
