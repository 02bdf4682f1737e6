//! The checks run on one session: the generator and the parser agree,
//! I1–I8, the hints, the rendered index and the keyword answers of
//! `describe` against the fuzzer's own model of SPEC §4 and §5
//! ([`crate::model`]), admission-order independence, and the library's
//! `fit` ⊇ a full validator.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use crate::generate::SessionPlan;
use crate::model::{self, Candidate, Dormant};
use disclose::CALL;
use disclose::Catalog;
use disclose::Refusal;
use disclose::Run;
use disclose_replay::invariants::INVARIANTS;
use disclose_replay::replay::{Outcome, Replay, replay};
use disclose_replay::session::{OpKind, Session, parse};

/// Every check's id and statement, in the order they run; the I-checks are
/// those of [`INVARIANTS`].
pub const CHECKS: [(&str, &str); 8] = [
    (
        "malformed",
        "a session without a fault parses; one with a fault is refused on its line",
    ),
    (
        "position",
        "a malformed session's error has a line and a column of at least 1",
    ),
    (
        "hint",
        "every admitted capability's hint is SPEC §4's, as the fuzzer's model computes it",
    ),
    (
        "index",
        "render is SPEC §4's, its index the Lean pack and indexBytes over the lines' bytes (the fuzzer's model)",
    ),
    (
        "describe",
        "every keyword answer of describe is SPEC §5's ranking, as the fuzzer's model computes it",
    ),
    (
        "order",
        "admitting non-conflicting declarations in another order changes no answer",
    ),
    (
        "fit",
        "fit, and the call door, accept every object args a full JSON Schema validator accepts",
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
    /// Keyword answers of `describe` compared with the model's.
    pub ranked: u64,
    /// Of those, answers that listed hits.
    pub ranked_hits: u64,
    /// Refusals seen, by code.
    pub refusals: BTreeMap<&'static str, u64>,
}

impl Tally {
    pub(super) fn add(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.malformed += other.malformed;
        self.ops += other.ops;
        self.admitted += other.admitted;
        self.routed += other.routed;
        self.overflowing += other.overflowing;
        self.fit_compared += other.fit_compared;
        self.reordered += other.reordered;
        self.ranked += other.ranked;
        self.ranked_hits += other.ranked_hits;
        for (code, n) in &other.refusals {
            *self.refusals.entry(code).or_default() += n;
        }
    }
}

/// Checks one generated plan: its text, with the fault it was given.
pub fn check_plan(plan: &SessionPlan) -> Result<Tally, Finding> {
    let (text, fault_line) = plan.render();
    let expect = fault_line.map_or(Expect::WellFormed, Expect::MalformedAt);
    check_text(&text, expect, plan.shuffle)
}

/// Checks one session's text; a panic anywhere is a `panic` finding.
/// `shuffle` picks the other admission order.
pub fn check_text(text: &str, expect: Expect, shuffle: u64) -> Result<Tally, Finding> {
    catch_unwind(AssertUnwindSafe(|| checks(text, expect, shuffle))).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        Err(Finding {
            check: "panic",
            message,
        })
    })
}

fn finding(check: &'static str, message: String) -> Finding {
    Finding { check, message }
}

fn checks(text: &str, expect: Expect, shuffle: u64) -> Result<Tally, Finding> {
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
    if let Some(breach) = disclose_replay::invariants::check(&session, &replayed)
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
    check_model(&session, &replayed, run, &mut tally)?;
    check_order(&session, &replayed, run, shuffle)?;
    tally.reordered = 1;
    check_fit(&session, &replayed, run, &mut tally)?;
    Ok(tally)
}

/// The hints, the render and the keyword answers of the run, against the
/// model: the model is given only what the session declared and which
/// declarations the library admitted (and, for a child, each tool's effect
/// and approval class), and works out the rest itself.
fn check_model(
    session: &Session,
    replayed: &Replay,
    run: &Run,
    tally: &mut Tally,
) -> Result<(), Finding> {
    let ops = session.ops();
    let Some(start) = ops
        .iter()
        .position(|op| matches!(op.kind, OpKind::Start { .. }))
    else {
        return Ok(());
    };
    let OpKind::Start { mode, profile } = ops[start].kind else {
        return Ok(());
    };
    let mut dormant = Vec::new();
    // SPEC §5's candidates besides the doors: every tool the run is
    // offered, resident or dormant, and every skill.
    let mut offered = Vec::new();
    let mut skills = Vec::new();
    let mut dev = None;
    for (op, step) in ops[..start].iter().zip(&replayed.steps) {
        // An admission the library answered `ok`.
        let ok = step.outcome == Outcome::Done;
        let hint_differs = |library: &str, text: &str| {
            let expected = model::hint(text);
            (library != expected).then(|| {
                finding(
                    "hint",
                    format!(
                        "line {}: the hint of {text:?} is {library:?}; SPEC §4 gives {expected:?}",
                        op.line
                    ),
                )
            })
        };
        match &op.kind {
            OpKind::Dev { text } => dev = Some(text.as_str()),
            OpKind::Tool {
                decl,
                admitted: true,
            } if ok => {
                let name = model::minted(&decl.origin, &decl.name);
                let Some(tool) = run.admitted_tool(&name) else {
                    return Err(finding(
                        "index",
                        format!(
                            "line {}: \"{name}\" was admitted but the run has no such tool",
                            op.line
                        ),
                    ));
                };
                if let Some(differs) = hint_differs(tool.hint(), &decl.description) {
                    return Err(differs);
                }
                if !model::offered(profile, tool.effect(), tool.approval()) {
                    continue;
                }
                offered.push(Candidate::Tool {
                    name: name.clone(),
                    description: decl.description.clone(),
                    schema: (*decl.input_schema).clone(),
                });
                if !model::RESIDENT.contains(&name.as_str()) {
                    dormant.push(Dormant::Tool {
                        name,
                        description: decl.description.clone(),
                    });
                }
            }
            OpKind::Skill(decl) if ok => {
                skill(run, op.line, &decl.name, &decl.disclosure, &hint_differs)?;
                dormant.push(Dormant::Skill {
                    name: decl.name.clone(),
                    disclosure: decl.disclosure.clone(),
                });
                skills.push(Candidate::Skill {
                    name: decl.name.clone(),
                    disclosure: decl.disclosure.clone(),
                });
            }
            OpKind::CarriedSkill(decl) if ok => {
                skill(run, op.line, &decl.name, &decl.disclosure, &hint_differs)?;
                dormant.push(Dormant::Skill {
                    name: decl.name.clone(),
                    disclosure: decl.disclosure.clone(),
                });
                skills.push(Candidate::Skill {
                    name: decl.name.clone(),
                    disclosure: decl.disclosure.clone(),
                });
            }
            _ => {}
        }
    }
    let lines: Vec<model::Line> = model::stable_order(dormant.clone())
        .iter()
        .map(Dormant::line)
        .collect();
    if model::pack(model::room(lines.len()), &lines).left > 0 {
        tally.overflowing += 1;
    }
    let expected = model::render(mode.as_str(), dev, dormant);
    let renders = (ops.iter().zip(&replayed.steps))
        .filter(|(op, _)| matches!(op.kind, OpKind::Render))
        .map(|(op, step)| (op.line, step.output.clone()));
    for (line, rendered) in std::iter::once((ops[start].line, run.render())).chain(renders) {
        if rendered.as_bytes() != expected {
            return Err(finding(
                "index",
                format!("line {line}: {}", first_difference(&rendered, &expected)),
            ));
        }
    }
    let describes: Vec<(usize, &str, &str)> = (ops.iter().zip(&replayed.steps))
        .filter_map(|(op, step)| match &op.kind {
            OpKind::Describe { name } => Some((op.line, name.as_str(), step.output.as_str())),
            _ => None,
        })
        .collect();
    // Tokenizing the candidates is most of the check's cost: only a run
    // that is asked something pays it.
    if describes.is_empty() {
        return Ok(());
    }
    check_describe(describes, run, &model::Search::new(offered, skills), tally)
}

/// Each keyword answer of `describe` (not an exact name, not a refusal:
/// the model writes neither) against SPEC §5's, as the model ranks it over
/// the run's candidates.
fn check_describe(
    describes: Vec<(usize, &str, &str)>,
    run: &Run,
    search: &model::Search,
    tally: &mut Tally,
) -> Result<(), Finding> {
    for (line, query, answered) in describes {
        let Some((expected, want)) = search.describe_scored(query) else {
            continue;
        };
        // Every candidate's score, not only the listed ones: a rule that
        // moves a score without moving the first 8 shows here.
        let scores = run.ranked_scores(query);
        let differs = (scores.iter().zip(&want)).find(|((n, s), (m, t))| n != m || s != t);
        if scores.len() != want.len() || differs.is_some() {
            return Err(finding(
                "describe",
                format!(
                    "line {line}: describe {query:?} scores {:?}; SPEC §5 gives {:?}",
                    differs.map(|(a, _)| a),
                    differs.map(|(_, b)| b)
                ),
            ));
        }
        if answered != expected {
            return Err(finding(
                "describe",
                format!(
                    "line {line}: describe {query:?} answered {answered:?}; SPEC §5 gives {expected:?}"
                ),
            ));
        }
        tally.ranked += 1;
        if expected.lines().count() > 1 {
            tally.ranked_hits += 1;
        }
    }
    Ok(())
}

/// A skill's hint, checked like a tool's.
fn skill(
    run: &Run,
    line: usize,
    name: &str,
    disclosure: &str,
    hint_differs: &dyn Fn(&str, &str) -> Option<Finding>,
) -> Result<(), Finding> {
    let Some(skill) = run.skill(name) else {
        return Err(finding(
            "index",
            format!("line {line}: skill \"{name}\" was admitted but the run has no such skill"),
        ));
    };
    hint_differs(skill.hint(), disclosure).map_or(Ok(()), Err)
}

/// Where a render first differs from the model's: the line, both ways.
fn first_difference(rendered: &str, expected: &[u8]) -> String {
    let expected = String::from_utf8_lossy(expected);
    let mut ours = rendered.split_inclusive('\n');
    let mut model = expected.split_inclusive('\n');
    for n in 1.. {
        match (ours.next(), model.next()) {
            (Some(a), Some(b)) if a == b => continue,
            (a, b) => {
                return format!(
                    "render line {n} is {:?}; SPEC §4 gives {:?} ({} bytes rendered, {} expected)",
                    a.unwrap_or("nothing"),
                    b.unwrap_or("nothing"),
                    rendered.len(),
                    expected.len()
                );
            }
        }
    }
    String::new()
}

/// A permutation of `0..n` from `seed` (Fisher–Yates over the generators'
/// SplitMix64).
pub(super) fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut rng = crate::generate::draw::Rng::new(seed);
    let mut next = move || rng.next_u64();
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

/// Whether `fit` is held against a full draft 2020-12 validator: the test
/// kit's feature `oracle` (on by default; the gate's build leaves it out).
/// Without it no args are known to be valid, so none are compared.
pub const ORACLE: bool = cfg!(feature = "oracle");

#[cfg(feature = "oracle")]
thread_local! {
    /// Compiled validators by canonical schema: compiled at most once per
    /// thread, not once per call. Pure, so sharing across cases changes no
    /// result.
    static VALIDATORS: std::cell::RefCell<BTreeMap<String, Option<jsonschema::Validator>>> =
        const { std::cell::RefCell::new(BTreeMap::new()) };
}

/// Whether a full draft 2020-12 validator accepts `args` for `schema`
/// (`None` when the schema does not compile offline).
#[cfg(feature = "oracle")]
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

/// Without the oracle, no validator's verdict ([`ORACLE`]).
#[cfg(not(feature = "oracle"))]
fn validator_accepts(_schema_text: &str, _schema: &Value, _args: &Value) -> Option<bool> {
    None
}

fn check_fit(
    session: &Session,
    replayed: &Replay,
    run: &Run,
    tally: &mut Tally,
) -> Result<(), Finding> {
    for (op, step) in session.ops().iter().zip(&replayed.steps) {
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
        let accepted = || {
            format!(
                "line {}: the validator accepts {} for {}",
                op.line,
                disclose::internals::canonical::canonical(args),
                tool.schema_text(),
            )
        };
        if let Err(violations) = disclose::internals::fit::fit(tool.input_schema(), args) {
            let said: Vec<String> = violations.iter().map(ToString::to_string).collect();
            return Err(finding(
                "fit",
                format!("{}, but fit says: {}", accepted(), said.join("; ")),
            ));
        }
        if let Outcome::Refused(refusal @ Refusal::Misfit { .. }) = &step.outcome {
            return Err(finding(
                "fit",
                format!("{}, but the call was refused: {refusal}", accepted()),
            ));
        }
    }
    Ok(())
}
