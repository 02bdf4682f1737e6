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

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::strategy::{BoxedStrategy, Strategy, ValueTree};
use proptest::test_runner::{
    Config, RngAlgorithm, RngSeed, TestRng, TestRunner, noop_result_cache,
};
use rayon::prelude::*;
use serde_json::Value;

use crate::catalog::Catalog;
use crate::dormant::{Entry, INDEX_HEADER, Packed, marker, pack, room_for};
use crate::fit::Violation;
use crate::generate::{SessionPlan, session_plan};
use crate::invariants::INVARIANTS;
use crate::refusal::Refusal;
use crate::replay::{Outcome, Replay, replay};
use crate::run::Run;
use crate::session::{OpKind, Session, parse};
use crate::{CALL, DORMANT_INDEX_CEILING};

/// Packs a whole index's entries: chooses the room and packs (SPEC §4).
pub type IndexPacker = fn(&[Entry]) -> Packed;

/// The top-level args check (SPEC §6).
pub type FitRule = fn(&Value, &Value) -> Result<(), Vec<Violation>>;

/// The rules the driver checks the catalog's behaviour against.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// How the dormant index is packed.
    pub packer: IndexPacker,
    /// How args are fitted.
    pub fit: FitRule,
}

impl Rules {
    /// The rules of the spec, as the library implements them.
    pub const SPEC: Rules = Rules {
        packer: spec_packer,
        fit: crate::fit::fit,
    };
}

/// SPEC §4: the room is the ceiling less the header and the marker for the
/// total count; then the Lean `pack`.
pub fn spec_packer(entries: &[Entry]) -> Packed {
    pack(room_for(entries.len()), entries.iter().copied())
}

/// A deliberately broken rule, to prove the fuzzer catches it.
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    /// Its name on the command line.
    pub name: &'static str,
    /// What it breaks.
    pub breaks: &'static str,
    /// The rules with the break in.
    pub rules: Rules,
}

/// Every mutant `disclose fuzz --mutant` knows.
pub const MUTANTS: [Mutant; 2] = [
    Mutant {
        name: "marker-budget",
        breaks: "the packer forgets to budget the \"+N more\" marker",
        rules: Rules {
            packer: forgets_marker_budget,
            fit: crate::fit::fit,
        },
    },
    Mutant {
        name: "integral-float",
        breaks: "fit calls 1.0 a number, not an integer",
        rules: Rules {
            packer: spec_packer,
            fit: integral_float_is_a_number,
        },
    },
];

/// The mutant named `name`.
pub fn mutant(name: &str) -> Option<&'static Mutant> {
    MUTANTS.iter().find(|m| m.name == name)
}

/// Mutant: packs into the ceiling less the header only, so a `+N more`
/// marker can push the index past 1024 bytes.
fn forgets_marker_budget(entries: &[Entry]) -> Packed {
    pack(
        DORMANT_INDEX_CEILING - INDEX_HEADER.len(),
        entries.iter().copied(),
    )
}

/// Mutant: `fit`, except that a float with no fractional part (`1.0`) is not
/// an integer.
fn integral_float_is_a_number(schema: &Value, args: &Value) -> Result<(), Vec<Violation>> {
    crate::fit::fit(schema, args)?;
    let Some(args) = args.as_object() else {
        return Ok(());
    };
    let mut violations = Vec::new();
    for (key, value) in args {
        let declared = schema
            .get("properties")
            .and_then(|p| p.get(key))
            .and_then(|p| p.get("type"));
        let types: Vec<&str> = match declared {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        let float = value.as_number().is_some_and(|n| n.is_f64());
        if float && types.contains(&"integer") && !types.contains(&"number") {
            violations.push(Violation::Type {
                key: key.clone(),
                found: "number",
                expected: types.iter().map(|t| t.to_string()).collect(),
            });
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// Every check's id and statement, in the order they run; the I-checks are
/// those of [`INVARIANTS`].
pub const CHECKS: [(&str, &str); 6] = [
    (
        "malformed",
        "a session without a fault parses; one with a fault is refused on its line",
    ),
    (
        "position",
        "a malformed session's error has a line and a column of at least 1",
    ),
    (
        "index",
        "the rendered index is as long as the Lean indexBytes of its entries",
    ),
    (
        "order",
        "admitting non-conflicting declarations in another order changes no answer",
    ),
    (
        "fit",
        "fit accepts every object args a full JSON Schema validator accepts",
    ),
    ("panic", "nothing panics"),
];

/// What a check id asserts.
pub fn statement(check: &str) -> &'static str {
    CHECKS
        .iter()
        .chain(INVARIANTS.iter())
        .find(|(id, _)| *id == check)
        .map_or("", |(_, what)| what)
}

/// A check that did not hold on one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The check's id: one of [`CHECKS`] or `I1`…`I8`.
    pub check: &'static str,
    /// What was seen.
    pub message: String,
}

/// What a session may be, as its generator meant it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// It must parse.
    WellFormed,
    /// It must be refused on this line.
    MalformedAt(usize),
}

/// What the checked sessions covered (a sum over cases; deterministic).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Sessions checked.
    pub cases: u64,
    /// Of those, malformed (and reported at their fault's line).
    pub malformed: u64,
    /// Ops replayed.
    pub ops: u64,
    /// Successful admissions.
    pub admitted: u64,
    /// Calls routed (directly or through `call`).
    pub routed: u64,
    /// Runs whose index ended in `+N more`.
    pub overflowing: u64,
    /// Args a full validator accepted, so `fit` had to accept them too.
    pub fit_compared: u64,
    /// Sessions re-admitted in another order and compared.
    pub reordered: u64,
    /// Refusals seen, by code.
    pub refusals: BTreeMap<&'static str, u64>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.malformed += other.malformed;
        self.ops += other.ops;
        self.admitted += other.admitted;
        self.routed += other.routed;
        self.overflowing += other.overflowing;
        self.fit_compared += other.fit_compared;
        self.reordered += other.reordered;
        for (code, n) in &other.refusals {
            *self.refusals.entry(code).or_default() += n;
        }
    }
}

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

/// The runner's configuration, written out: `Config::default()` would read
/// `PROPTEST_*` from the environment, and the library reads none. Only the
/// RNG matters to generation; the rest is inert here.
fn runner_config() -> Config {
    Config {
        cases: 1,
        max_local_rejects: 0,
        max_global_rejects: 0,
        max_flat_map_regens: 1_000_000,
        failure_persistence: None,
        source_file: None,
        test_name: None,
        fork: false,
        timeout: 0,
        max_shrink_time: 0,
        max_shrink_iters: u32::MAX,
        max_default_size_range: 100,
        result_cache: noop_result_cache,
        verbose: 0,
        rng_algorithm: RngAlgorithm::XorShift,
        rng_seed: RngSeed::Fixed(0),
        _non_exhaustive: (),
    }
}

/// Checks one generated plan: its text, with the fault it was given.
pub fn check_plan(plan: &SessionPlan, rules: &Rules) -> Result<Tally, Finding> {
    let (text, fault_line) = plan.render();
    let expect = fault_line.map_or(Expect::WellFormed, Expect::MalformedAt);
    check_text(&text, expect, plan.shuffle, rules)
}

/// Checks one session's text; a panic anywhere is a `panic` finding.
/// `shuffle` picks the other admission order.
pub fn check_text(
    text: &str,
    expect: Expect,
    shuffle: u64,
    rules: &Rules,
) -> Result<Tally, Finding> {
    catch_unwind(AssertUnwindSafe(|| checks(text, expect, shuffle, rules))).unwrap_or_else(
        |payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            Err(Finding {
                check: "panic",
                message,
            })
        },
    )
}

fn finding(check: &'static str, message: String) -> Finding {
    Finding { check, message }
}

fn checks(text: &str, expect: Expect, shuffle: u64, rules: &Rules) -> Result<Tally, Finding> {
    let mut tally = Tally {
        cases: 1,
        ..Tally::default()
    };
    let session = match (parse(text.as_bytes()), expect) {
        (Err(error), _) if error.line < 1 || error.column < 1 => {
            return Err(finding(
                "position",
                format!("the error has no position: {error}"),
            ));
        }
        (Err(error), Expect::MalformedAt(line)) if error.line == line => {
            tally.malformed = 1;
            return Ok(tally);
        }
        (Err(error), Expect::MalformedAt(line)) => {
            return Err(finding(
                "malformed",
                format!("the fault is on line {line}, but the parser said {error}"),
            ));
        }
        (Err(error), Expect::WellFormed) => {
            return Err(finding(
                "malformed",
                format!("a session without a fault was refused: {error}"),
            ));
        }
        (Ok(_), Expect::MalformedAt(line)) => {
            return Err(finding(
                "malformed",
                format!("the session has a fault on line {line} and parsed"),
            ));
        }
        (Ok(session), Expect::WellFormed) => session,
    };

    let replayed = replay(&session);
    tally.ops = replayed.steps.len() as u64;
    for step in &replayed.steps {
        match &step.outcome {
            Outcome::Refused(refusal) => *tally.refusals.entry(refusal.code()).or_default() += 1,
            Outcome::Routed(_) => tally.routed += 1,
            Outcome::Done if step.output.starts_with("admitted ") => tally.admitted += 1,
            Outcome::Done => {}
        }
    }
    if let Some(breach) = crate::invariants::check(&session, &replayed)
        .into_iter()
        .next()
    {
        return Err(finding(
            breach.invariant,
            format!("line {}: {}", breach.line, breach.message),
        ));
    }
    let Some(run) = &replayed.run else {
        return Ok(tally);
    };
    check_index(run, rules, &mut tally)?;
    check_order(&session, &replayed, run, shuffle)?;
    tally.reordered = 1;
    check_fit(&session, run, rules, &mut tally)?;
    Ok(tally)
}

/// The Lean `indexBytes` of `entries` under `packer`: header, the packed
/// lines, and the marker when some were left out; 0 when nothing is dormant.
pub fn index_bytes(packer: IndexPacker, entries: &[Entry]) -> (usize, Packed) {
    let packed = packer(entries);
    if entries.is_empty() {
        return (0, packed);
    }
    let marker_len = if packed.left == 0 {
        0
    } else {
        marker(packed.left).len()
    };
    (INDEX_HEADER.len() + packed.used + marker_len, packed)
}

fn check_index(run: &Run, rules: &Rules, tally: &mut Tally) -> Result<(), Finding> {
    let entries: Vec<Entry> = run.dormant_lines().iter().map(|l| l.entry()).collect();
    let (bytes, packed) = index_bytes(rules.packer, &entries);
    if packed.left > 0 {
        tally.overflowing += 1;
    }
    if bytes > DORMANT_INDEX_CEILING {
        return Err(finding(
            "I1",
            format!(
                "the packer's index of {} dormant entries is {bytes} bytes",
                entries.len()
            ),
        ));
    }
    let rendered = run.dormant_index().len();
    if rendered != bytes {
        return Err(finding(
            "index",
            format!("the rendered index is {rendered} bytes; indexBytes is {bytes}"),
        ));
    }
    Ok(())
}

/// A permutation of `0..n` from `seed` (Fisher–Yates over splitmix64).
fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = usize::try_from(next() % (i as u64 + 1)).unwrap_or(0);
        order.swap(i, j);
    }
    order
}

fn admit(catalog: &mut Catalog, kind: &OpKind) -> Option<Result<String, Refusal>> {
    Some(match kind {
        OpKind::Tool {
            decl,
            admitted: true,
        } => catalog.admit_tool(decl).map(|t| t.name().to_string()),
        OpKind::Skill(skill) => catalog.admit_skill(skill).map(|s| s.name().to_string()),
        OpKind::CarriedSkill(skill) => catalog
            .admit_carried_skill(skill)
            .map(|s| s.name().to_string()),
        _ => return None,
    })
}

fn check_order(
    session: &Session,
    replayed: &Replay,
    run: &Run,
    shuffle: u64,
) -> Result<(), Finding> {
    let ops = session.ops();
    let Some(start) = ops
        .iter()
        .position(|op| matches!(op.kind, OpKind::Start { .. }))
    else {
        return Ok(());
    };
    let order_dependent = |outcome: &Outcome| {
        matches!(outcome, Outcome::Refused(r)
            if matches!(r.code(), "admit.duplicate" | "admit.collision"))
    };
    let kept: Vec<usize> = (0..start)
        .filter(|&i| {
            matches!(
                ops[i].kind,
                OpKind::Tool { admitted: true, .. } | OpKind::Skill(_) | OpKind::CarriedSkill(_)
            ) && !order_dependent(&replayed.steps[i].outcome)
        })
        .collect();
    let mut catalog = Catalog::new();
    for k in permutation(kept.len(), shuffle) {
        let i = kept[k];
        let Some(result) = admit(&mut catalog, &ops[i].kind) else {
            continue;
        };
        let same = match (&replayed.steps[i].outcome, &result) {
            (Outcome::Refused(before), Err(after)) => before == after,
            (Outcome::Done, Ok(_)) => true,
            _ => false,
        };
        if !same {
            let now = result.map_or_else(|r| r.to_lines(), |name| format!("admitted {name}\n"));
            return Err(finding(
                "order",
                format!(
                    "line {}: admitted in another order it gave {:?}, not {:?}",
                    ops[i].line, now, replayed.steps[i].output
                ),
            ));
        }
    }
    if let Some(text) = ops[..start].iter().rev().find_map(|op| match &op.kind {
        OpKind::Dev { text } => Some(text),
        _ => None,
    }) {
        catalog.set_dev_line(text);
    }
    let OpKind::Start { mode, profile } = ops[start].kind else {
        return Ok(());
    };
    let mut other = match profile {
        None => catalog.start(mode),
        Some(profile) => catalog.start_child(mode, profile),
    };
    let differ = |line: usize, what: &str| {
        Err(finding(
            "order",
            format!("line {line}: admitted in another order, {what} differs"),
        ))
    };
    if other.generation() != run.generation() {
        return differ(ops[start].line, "the generation");
    }
    if other.tool_defs() != run.tool_defs() {
        return differ(ops[start].line, "tool_defs");
    }
    if other.skill_pins() != run.skill_pins() {
        return differ(ops[start].line, "pins");
    }
    if other.digests() != run.digests() {
        return differ(ops[start].line, "digests");
    }
    if other.render() != run.render() {
        return differ(ops[start].line, "render");
    }
    let text = |r: Result<String, Refusal>| r.unwrap_or_else(|r| r.to_lines());
    for (op, step) in ops.iter().zip(&replayed.steps).skip(start + 1) {
        let same = match &op.kind {
            OpKind::Describe { name } => text(other.describe(name)) == step.output,
            OpKind::Expand { name } => text(other.expand(name)) == step.output,
            OpKind::Call(call) => match (other.call(call), &step.outcome) {
                (Ok(routed), Outcome::Routed(before)) => routed == *before,
                (Err(refusal), Outcome::Refused(before)) => refusal == *before,
                _ => false,
            },
            OpKind::SwitchMode { mode } => {
                other.switch_mode(*mode);
                true
            }
            _ => true,
        };
        if !same {
            return differ(op.line, op.kind.name());
        }
    }
    Ok(())
}

thread_local! {
    /// Compiled validators by canonical schema: compiled at most once per
    /// thread, not once per call. Pure, so sharing across cases changes no
    /// result.
    static VALIDATORS: RefCell<BTreeMap<String, Option<jsonschema::Validator>>> =
        const { RefCell::new(BTreeMap::new()) };
}

/// Whether a full draft 2020-12 validator accepts `args` for `schema`
/// (`None` when the schema does not compile offline).
fn validator_accepts(schema_text: &str, schema: &Value, args: &Value) -> Option<bool> {
    VALIDATORS.with(|cell| {
        let mut cache = cell.borrow_mut();
        if cache.len() > 4096 {
            cache.clear();
        }
        cache
            .entry(schema_text.to_string())
            .or_insert_with(|| jsonschema::draft202012::new(schema).ok())
            .as_ref()
            .map(|validator| validator.is_valid(args))
    })
}

fn check_fit(
    session: &Session,
    run: &Run,
    rules: &Rules,
    tally: &mut Tally,
) -> Result<(), Finding> {
    for op in session.ops() {
        let OpKind::Call(call) = &op.kind else {
            continue;
        };
        let (target, args) = if call.name == CALL {
            let Some(outer) = call.args.as_object() else {
                continue;
            };
            match (outer.get("name").and_then(Value::as_str), outer.get("args")) {
                (Some(name), Some(args)) => (name, args),
                _ => continue,
            }
        } else {
            (call.name.as_str(), &call.args)
        };
        let Some(tool) = run.admitted_tool(target) else {
            continue;
        };
        // SPEC §6 step 1 refuses non-object args whatever the schema says;
        // the superset property is over object args.
        if !args.is_object() {
            continue;
        }
        if validator_accepts(tool.schema_text(), tool.input_schema(), args) != Some(true) {
            continue;
        }
        tally.fit_compared += 1;
        if let Err(violations) = (rules.fit)(tool.input_schema(), args) {
            let said: Vec<String> = violations.iter().map(ToString::to_string).collect();
            return Err(finding(
                "fit",
                format!(
                    "line {}: the validator accepts {} for {}, but fit says: {}",
                    op.line,
                    crate::canonical::canonical(args),
                    tool.schema_text(),
                    said.join("; ")
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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
