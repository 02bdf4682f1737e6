//! Property tests (SPEC §13): each Lean theorem of seed 001 §8-60/§8-61,
//! checked on generated inputs, under the theorem's name; then the
//! properties SPEC §13 adds (the index is the Lean `indexBytes`,
//! `fit` ⊇ a full validator, render independent of admission order, nothing
//! panics, every generated session replays or is reported at its fault).
//!
//! Every property runs 1,000 cases unless `PROPTEST_CASES` says otherwise.
//! The expected values are computed here or by the fuzzer's model of SPEC §4
//! (`disclose_testkit::model`, written apart from the library), never by
//! asking the code under test for them. Inputs come from
//! `disclose_testkit::generate`, the generators `disclose fuzz` uses.
//!
//! No property may pass vacuously (docs/decisions.md, "Property tests
//! must reach their branches"): each one names the branches
//! its cases must reach — a call routed, an index ending in `+N more`, args
//! a validator accepted — and [`property`] fails the test when fewer than a
//! fixed share of the cases reached one. The shares sit well under what the
//! generators produce (measured at 1,000 cases), so they hold for any seed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::sync::Mutex;

use disclose::internals::dormant::{Entry, INDEX_HEADER, Shown, pack};
use disclose::internals::fit::{FitPlan, fit};
use disclose::{Catalog, Mode, Profile, Refusal, Run, ToolCall, ToolDecl};
use disclose_replay::replay::replay;
use disclose_replay::session;
use disclose_testkit::generate::{
    self, Decl, Declared, SessionPlan, args, boundary_text, carried_skill, catalog_decls, raw_name,
    schema, schema_and_args, session_plan, shelf_skill, text, tool_decl,
};
use disclose_testkit::model;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{TestCaseResult, TestRunner};
use serde_json::{Value, json};

/// 1,000 cases, or `PROPTEST_CASES`.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    ProptestConfig {
        cases,
        source_file: Some(file!()),
        ..ProptestConfig::default()
    }
}

/// Fewer passing cases than this (a low `PROPTEST_CASES`) are too few to
/// measure a share without flaking; then each branch need only be reached.
const SHARES_FROM: u32 = 500;

/// The branches one case reached.
#[derive(Default)]
struct Reached(BTreeSet<&'static str>);

impl Reached {
    /// Marks `branch` reached when `reached` holds.
    fn hit(&mut self, branch: &'static str, reached: bool) {
        if reached {
            self.0.insert(branch);
        }
    }
}

/// Runs `test` on `config().cases` values of `strategy`, shrinking a failure
/// as `proptest!` does; then requires each `(branch, percent)` of `needs` to
/// have been reached by at least `percent`% of the passing cases (and at
/// least one; only at least one below [`SHARES_FROM`] cases), so the
/// property cannot hold by never reaching what it is about.
fn property<S>(
    strategy: S,
    needs: &[(&'static str, u32)],
    test: impl Fn(S::Value, &mut Reached) -> TestCaseResult,
) where
    S: Strategy,
    S::Value: Debug,
{
    let mut runner = TestRunner::new(config());
    let counts: Mutex<BTreeMap<&'static str, u32>> = Mutex::new(BTreeMap::new());
    let passed = Mutex::new(0u32);
    let result = runner.run(&strategy, |value| {
        let mut reached = Reached::default();
        test(value, &mut reached)?;
        *passed.lock().expect("count") += 1;
        let mut counts = counts.lock().expect("counts");
        for branch in reached.0 {
            *counts.entry(branch).or_default() += 1;
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    let passed = *passed.lock().expect("count");
    let counts = counts.lock().expect("counts");
    for &(branch, percent) in needs {
        let n = counts.get(branch).copied().unwrap_or(0);
        let share =
            passed < SHARES_FROM || u64::from(n) * 100 >= u64::from(percent) * u64::from(passed);
        assert!(
            n >= 1 && share,
            "only {n} of {passed} cases reached \"{branch}\" (at least {percent}% must)"
        );
    }
}

// ---------------------------------------------------------------------------
// The Lean model, written out again.

/// The Lean `pack`, recursively, as seed 001 §8-60 writes it, over lengths
/// (the shape of the library's `pack`, which it is compared with).
fn lean_pack(room: usize, es: &[Entry]) -> (Vec<Shown>, usize, usize) {
    let Some((e, rest)) = es.split_first() else {
        return (Vec::new(), 0, 0);
    };
    let (shown, cost) = if e.hinted <= room {
        (Shown::Hinted, e.hinted)
    } else if e.bare <= room {
        (Shown::Bare, e.bare)
    } else {
        return (Vec::new(), 0, rest.len() + 1);
    };
    let (mut tail, used, left) = lean_pack(room - cost, rest);
    tail.insert(0, shown);
    (tail, cost + used, left)
}

/// A control character in SPEC §4's sense: U+0000–U+001F or U+007F.
fn is_control(c: char) -> bool {
    c <= '\u{1f}' || c == '\u{7f}'
}

const RESIDENT: [&str; 7] = [
    "read", "search", "status", "describe", "call", "edit", "exec",
];

/// What a profile offers (SPEC §8), written out again from the declared
/// words (anything but the exact words fails closed).
fn offered(profile: Option<Profile>, decl: &ToolDecl) -> bool {
    let effects: &[&str] = match profile {
        None => return true,
        Some(Profile::Scout) => &["read", "idempotent-write"],
        Some(Profile::Writer) => &["read", "idempotent-write", "reversible"],
    };
    decl.approval.as_str() == "never" && effects.contains(&decl.effect.as_str())
}

/// A catalog admitted from generated declarations, and what was admitted.
struct Admitted {
    catalog: Catalog,
    /// Each declaration op and its answer (`None`: `admitted: false`).
    results: Vec<(Declared, Option<Result<String, Refusal>>)>,
}

impl Admitted {
    fn of(decls: &[Decl]) -> Admitted {
        Admitted::of_declared(decls.iter().flat_map(Decl::expand).collect())
    }

    fn of_declared(declared: Vec<Declared>) -> Admitted {
        let mut catalog = Catalog::new();
        let results = declared
            .into_iter()
            .map(|declared| {
                let result = declared.admit(&mut catalog);
                (declared, result)
            })
            .collect();
        Admitted { catalog, results }
    }

    /// Successfully admitted tools, by minted name.
    fn tools(&self) -> Vec<(&str, &ToolDecl)> {
        self.results
            .iter()
            .filter_map(|(d, r)| match (d, r) {
                (Declared::Tool { decl, .. }, Some(Ok(name))) => Some((name.as_str(), decl)),
                _ => None,
            })
            .collect()
    }

    /// Successfully admitted skills: name and disclosure.
    fn skills(&self) -> Vec<(&str, &str)> {
        self.results
            .iter()
            .filter_map(|(d, r)| match (d, r) {
                (Declared::Shelf(s), Some(Ok(name))) => {
                    Some((name.as_str(), s.disclosure.as_str()))
                }
                (Declared::Carried(s), Some(Ok(name))) => {
                    Some((name.as_str(), s.disclosure.as_str()))
                }
                _ => None,
            })
            .collect()
    }

    fn start(self, mode: Mode, profile: Option<Profile>) -> Run {
        match profile {
            None => self.catalog.start(mode),
            Some(p) => self.catalog.start_child(mode, p),
        }
    }
}

/// The index lines SPEC §4 says a run shows, built from the admitted
/// declarations alone (dormant tools by name, then skills by name), by the
/// fuzzer's model.
fn model_lines(admitted: &Admitted, profile: Option<Profile>) -> Vec<model::Line> {
    let tools = (admitted.tools().into_iter())
        .filter(|(name, decl)| !RESIDENT.contains(name) && offered(profile, decl))
        .map(|(name, decl)| model::Dormant::Tool {
            name: name.to_string(),
            description: decl.description.clone(),
        });
    let skills = admitted
        .skills()
        .into_iter()
        .map(|(name, disclosure)| model::Dormant::Skill {
            name: name.to_string(),
            disclosure: disclosure.to_string(),
        });
    model::stable_order(tools.chain(skills).collect())
        .iter()
        .map(model::Dormant::line)
        .collect()
}

fn entries() -> impl Strategy<Value = Vec<Entry>> {
    vec(
        (0usize..300, 0usize..300).prop_map(|(hinted, bare)| Entry { hinted, bare }),
        0..40,
    )
}

fn start() -> impl Strategy<Value = (Mode, Option<Profile>)> {
    (
        select(&Mode::ALL[..]),
        prop_oneof![3 => Just(None), 1 => select(&Profile::ALL[..]).prop_map(Some)],
    )
}

fn via_call(id: &str, target: &str, args: Value) -> ToolCall {
    ToolCall {
        id: id.to_string(),
        name: "call".to_string(),
        args: json!({ "name": target, "args": args }),
    }
}

/// Whether the Lean `pack` of these entries in this room cut the list or
/// showed one bare.
fn pack_branches(room: usize, es: &[Entry], reached: &mut Reached) {
    let (shown, _, left) = lean_pack(room, es);
    reached.hit("cut", left > 0);
    reached.hit("bare", shown.contains(&Shown::Bare));
}

// -- seed 001 §8-60: the packer ----------------------------------------------

/// `pack_used_le`: the packed bytes never exceed the room.
#[test]
fn pack_used_le() {
    property(
        (0usize..3000, entries()),
        &[("cut", 30), ("bare", 10)],
        |(room, es), reached| {
            let packed = pack(room, es.iter().copied());
            prop_assert!(packed.used <= room);
            pack_branches(room, &es, reached);
            Ok(())
        },
    );
}

/// `pack_left_le`: no more are left out than there are; and what is listed
/// plus what is left out is every entry.
#[test]
fn pack_left_le() {
    property(
        (0usize..3000, entries()),
        &[("cut", 30)],
        |(room, es), reached| {
            let packed = pack(room, es.iter().copied());
            prop_assert!(packed.left <= es.len());
            prop_assert_eq!(packed.shown.len() + packed.left, es.len());
            pack_branches(room, &es, reached);
            Ok(())
        },
    );
}

/// `pack_whole_when_it_fits`: when the hinted lines together fit, every entry
/// is listed hinted and none is left out.
#[test]
fn pack_whole_when_it_fits() {
    property(
        (entries(), 0usize..100),
        &[("several entries", 50)],
        |(es, spare), reached| {
            let room = es.iter().map(|e| e.hinted).sum::<usize>() + spare;
            let packed = pack(room, es.iter().copied());
            prop_assert_eq!(packed.shown, vec![Shown::Hinted; es.len()]);
            prop_assert_eq!(packed.left, 0);
            reached.hit("several entries", es.len() >= 2);
            Ok(())
        },
    );
}

/// The Rust `pack` is the Lean `pack`, entry for entry.
#[test]
fn pack_is_the_lean_pack() {
    property(
        (0usize..3000, entries()),
        &[("cut", 30), ("bare", 10)],
        |(room, es), reached| {
            let packed = pack(room, es.iter().copied());
            let (shown, used, left) = lean_pack(room, &es);
            prop_assert_eq!(
                (packed.shown, packed.used, packed.left),
                (shown, used, left)
            );
            pack_branches(room, &es, reached);
            Ok(())
        },
    );
}

/// Marks what an index reached: something dormant, and the marker.
fn index_branches(index: &str, reached: &mut Reached) {
    reached.hit("dormant", index.starts_with(INDEX_HEADER));
    reached.hit(
        "+N more",
        index.lines().last().is_some_and(|l| l.starts_with('+')),
    );
}

/// `index_within_ceiling`: on whole catalogs (adults and children), the
/// rendered index is at most 1024 bytes.
#[test]
fn index_within_ceiling() {
    property(
        (catalog_decls(), start()),
        &[("dormant", 40), ("+N more", 8)],
        |(decls, (mode, profile)), reached| {
            let run = Admitted::of(&decls).start(mode, profile);
            let index = disclose_replay::invariants::index_of(&run.render()).to_string();
            prop_assert!(index.len() <= 1024, "{} bytes:\n{}", index.len(), index);
            prop_assert_eq!(&index, &run.dormant_index());
            index_branches(&index, reached);
            Ok(())
        },
    );
}

/// The rendered index is as long as the Lean `indexBytes` of the dormant
/// lines (worked out from the admitted declarations, not from the run),
/// and is byte for byte the index of the model's Lean `pack` over them.
#[test]
fn index_bytes_is_the_lean_formula() {
    property(
        (catalog_decls(), start()),
        &[("dormant", 40), ("+N more", 8)],
        |(decls, (mode, profile)), reached| {
            let admitted = Admitted::of(&decls);
            let lines = model_lines(&admitted, profile);
            let run = admitted.start(mode, profile);
            let index = run.dormant_index();
            let formula = if lines.is_empty() {
                0
            } else {
                model::index_bytes(&lines)
            };
            prop_assert_eq!(index.len(), formula);
            let expected = model::index(&lines);
            prop_assert_eq!(index.as_bytes(), expected.as_slice());
            index_branches(&index, reached);
            Ok(())
        },
    );
}

// -- seed 001 §8-60: standing -------------------------------------------------

/// `unadmitted_costs_nothing`: adding an `admitted: false` declaration
/// anywhere changes no byte of any `render` or `tool_defs`.
#[test]
fn unadmitted_costs_nothing() {
    property(
        (session_plan(), tool_decl(), any::<usize>()),
        &[("prefix printed", 25)],
        |(plan, extra, at), reached| {
            let mut with = SessionPlan {
                fault: None,
                ..plan
            };
            let at = at % (with.decls.len() + 1);
            with.decls.insert(
                at,
                Decl::Tool {
                    decl: extra,
                    admitted: Some(false),
                },
            );
            let without = with.without_unadmitted();
            let prefix = |plan: &SessionPlan| -> Vec<String> {
                let session = session::parse(plan.to_text().as_bytes()).expect("no fault");
                replay(&session)
                    .steps
                    .into_iter()
                    .filter(|s| s.op == "render" || s.op == "tool_defs")
                    .map(|s| s.output)
                    .collect()
            };
            let printed = prefix(&with);
            prop_assert_eq!(&printed, &prefix(&without));
            reached.hit("prefix printed", !printed.is_empty());
            Ok(())
        },
    );
}

/// `one_standing_one_place`: no name is both in the tool list and in the
/// index; every offered tool is in exactly one of them, and every skill is
/// dormant.
#[test]
fn one_standing_one_place() {
    property(
        (catalog_decls(), start()),
        &[
            ("resident tool", 5),
            ("dormant tool", 30),
            ("tool not offered", 5),
            ("skill", 20),
        ],
        |(decls, (mode, profile)), reached| {
            let admitted = Admitted::of(&decls);
            let tools: Vec<(String, bool)> = admitted
                .tools()
                .iter()
                .map(|(name, decl)| (name.to_string(), offered(profile, decl)))
                .collect();
            let skills: Vec<String> = admitted
                .skills()
                .iter()
                .map(|(n, _)| n.to_string())
                .collect();
            let run = admitted.start(mode, profile);
            let resident: BTreeSet<&str> = run.tool_defs().iter().map(|d| d.name()).collect();
            let dormant: BTreeSet<&str> = run.dormant_lines().iter().map(|l| l.name()).collect();
            prop_assert!(
                resident.is_disjoint(&dormant),
                "{:?} / {:?}",
                resident,
                dormant
            );
            for (name, is_offered) in &tools {
                let places = usize::from(resident.contains(name.as_str()))
                    + usize::from(dormant.contains(name.as_str()));
                prop_assert_eq!(places, usize::from(*is_offered), "{}", name);
                reached.hit("resident tool", resident.contains(name.as_str()));
                reached.hit("dormant tool", dormant.contains(name.as_str()));
                reached.hit("tool not offered", !is_offered);
            }
            for name in &skills {
                prop_assert!(dormant.contains(name.as_str()) && !resident.contains(name.as_str()));
                reached.hit("skill", true);
            }
            Ok(())
        },
    );
}

// -- seed 001 §8-61: the call door ---------------------------------------------

/// A target for `routed_is_the_target`: mostly an admitted tool (chosen among
/// them by `pick`), sometimes another name.
#[derive(Clone, Debug)]
enum Aim {
    Admitted(usize),
    Other(String),
}

/// `routed_is_the_target`: a call routed through `call` keeps its id, names
/// the target (an admitted tool other than `call`), and carries args that fit
/// its schema; and a call of an offered tool with args that fit is routed.
/// Calls aim mostly at admitted tools with fitting args, so that many are
/// routed.
#[test]
fn routed_is_the_target() {
    let aim = prop_oneof![
        6 => any::<usize>().prop_map(Aim::Admitted),
        1 => raw_name().prop_map(Aim::Other),
    ];
    property(
        (
            catalog_decls(),
            start(),
            aim,
            prop_oneof![4 => Just(None), 1 => generate::args().prop_map(Some)],
            any::<u64>(),
            select(&["c1", "", "é id"][..]),
        ),
        &[("routed", 20), ("refused", 20)],
        |(decls, (mode, profile), aim, given, salt, id), reached| {
            let admitted = Admitted::of(&decls);
            let tools: Vec<(String, Value, bool)> = admitted
                .tools()
                .iter()
                .map(|(n, d)| {
                    (
                        n.to_string(),
                        (*d.input_schema).clone(),
                        offered(profile, d),
                    )
                })
                .collect();
            let run = admitted.start(mode, profile);
            let (target, schema, is_offered) = match aim {
                Aim::Admitted(pick) if !tools.is_empty() => tools[pick % tools.len()].clone(),
                Aim::Admitted(_) => ("nothing_admitted".to_string(), json!({}), false),
                Aim::Other(name) => (name, json!({}), false),
            };
            let args = given.unwrap_or_else(|| generate::fitting_args(&schema, salt));
            let call = via_call(id, &target, args.clone());
            let resolved = run.resolve_call(&call);
            let admitted_target = tools.iter().any(|(n, _, _)| *n == target);
            if admitted_target && is_offered && fit(&schema, &args).is_ok() {
                prop_assert!(resolved.is_ok(), "{:?}", resolved);
            }
            reached.hit("routed", resolved.is_ok());
            reached.hit("refused", resolved.is_err());
            for routed in [resolved, run.call(&call)].into_iter().flatten() {
                prop_assert_eq!(&routed.id, id);
                prop_assert_eq!(&routed.name, &target);
                prop_assert_ne!(routed.name.as_str(), "call");
                prop_assert!(admitted_target);
                prop_assert_eq!(&routed.args, &args);
                prop_assert!(fit(&schema, &routed.args).is_ok());
            }
            Ok(())
        },
    );
}

/// `unadmitted_is_unreachable`: a name that is not an admitted tool
/// (refused, `admitted: false`, a skill, or never declared) and is not
/// `call` is refused `call.unknown`, through `call` and directly.
#[test]
fn unadmitted_is_unreachable() {
    property(
        (
            catalog_decls(),
            start(),
            vec(raw_name(), 1..4),
            generate::args(),
        ),
        &[
            ("declared, not an admitted tool", 40),
            ("never declared", 50),
        ],
        |(decls, (mode, profile), others, args), reached| {
            let admitted = Admitted::of(&decls);
            let tools: BTreeSet<String> = admitted
                .tools()
                .iter()
                .map(|(n, _)| n.to_string())
                .collect();
            let usable = |n: &String| !tools.contains(n) && n != "describe" && n != "call";
            let declared: BTreeSet<String> = (admitted.results.iter())
                .map(|(d, _)| d.name())
                .filter(usable)
                .collect();
            let candidates: BTreeSet<String> = declared
                .iter()
                .cloned()
                .chain(others.into_iter().filter(usable))
                .collect();
            reached.hit("declared, not an admitted tool", !declared.is_empty());
            reached.hit("never declared", candidates.len() > declared.len());
            let run = admitted.start(mode, profile);
            for name in candidates {
                let code = |r: Result<ToolCall, Refusal>| r.err().map(|r| r.code());
                prop_assert_eq!(
                    code(run.resolve_call(&via_call("c", &name, args.clone()))),
                    Some("call.unknown"),
                    "{}",
                    name
                );
                let direct = ToolCall {
                    id: "c".into(),
                    name: name.clone(),
                    args: args.clone(),
                };
                prop_assert_eq!(code(run.call(&direct)), Some("call.unknown"), "{}", name);
            }
            Ok(())
        },
    );
}

// -- what SPEC §13 adds -------------------------------------------------------

/// `fit` accepts every object args a full draft 2020-12 validator accepts for
/// a generated top-level object schema. Non-object args are out: SPEC §6
/// step 1 refuses them whatever the schema says.
#[test]
fn fit_accepts_what_a_validator_accepts() {
    property(
        schema_and_args(),
        &[("validator accepted", 25), ("validator refused", 5)],
        |(schema, args), reached| {
            if !args.is_object() {
                return Ok(());
            }
            let Ok(validator) = jsonschema::draft202012::new(&schema) else {
                return Ok(());
            };
            let accepted = validator.is_valid(&args);
            if accepted {
                prop_assert!(
                    fit(&schema, &args).is_ok(),
                    "{} / {} / {:?}",
                    schema,
                    args,
                    fit(&schema, &args)
                );
            }
            reached.hit("validator accepted", accepted);
            reached.hit("validator refused", !accepted);
            Ok(())
        },
    );
}

/// `fit`'s fast path is `fit`: the plan compiled once per schema accepts
/// exactly the args `fit` accepts, and answers a misfit with `fit`'s own
/// violations, on generated schemas (odd ones too) and args (fitting or
/// drawn at random, integral floats included).
#[test]
fn fit_plan_is_fit() {
    let schemas = prop_oneof![3 => schema_and_args(), 1 => (schema(), args())];
    property(
        schemas,
        &[("plan accepted", 25), ("plan refused", 10)],
        |(schema, args), reached| {
            let plan = FitPlan::new(&schema);
            let by_rule = fit(&schema, &args);
            prop_assert_eq!(plan.fits(&args), by_rule.is_ok(), "{} / {}", schema, args);
            prop_assert_eq!(
                plan.check(&schema, &args),
                by_rule.clone(),
                "{} / {}",
                schema,
                args
            );
            reached.hit("plan accepted", by_rule.is_ok());
            reached.hit("plan refused", by_rule.is_err());
            Ok(())
        },
    );
}

/// Admitting the same declarations in another order (shuffled by the
/// proptest RNG) gives the same answers, render, tool list, digests and
/// pins. Declarations refused `admit.duplicate` or `admit.collision` are left
/// out of the shuffled set: which of two such declarations wins depends on
/// order by design (SPEC §2).
#[test]
fn render_independent_of_admission_order() {
    let shuffled = catalog_decls().prop_flat_map(|decls| {
        let n = decls.iter().map(|d| d.expand().len()).sum::<usize>();
        (
            Just(decls),
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
        )
    });
    property(
        (shuffled, start()),
        &[("reordered", 40)],
        |((decls, order), (mode, profile)), reached| {
            let first = Admitted::of(&decls);
            let depends_on_order = |r: &Option<Result<String, Refusal>>| matches!(r, Some(Err(e)) if matches!(e.code(), "admit.duplicate" | "admit.collision"));
            let mut catalog = Catalog::new();
            let mut kept = Vec::new();
            for &i in &order {
                let (declared, before) = &first.results[i];
                if depends_on_order(before) {
                    continue;
                }
                prop_assert_eq!(&declared.admit(&mut catalog), before);
                kept.push(i);
            }
            reached.hit("reordered", kept.windows(2).any(|w| w[0] > w[1]));
            let shuffled = match profile {
                None => catalog.start(mode),
                Some(p) => catalog.start_child(mode, p),
            };
            let original = first.start(mode, profile);
            prop_assert_eq!(shuffled.render(), original.render());
            prop_assert_eq!(shuffled.tool_defs(), original.tool_defs());
            prop_assert_eq!(shuffled.digests(), original.digests());
            prop_assert_eq!(shuffled.skill_pins(), original.skill_pins());
            prop_assert_eq!(shuffled.generation(), original.generation());
            Ok(())
        },
    );
}

/// The hint is SPEC §4's rule: at most 80 bytes, one line, no control
/// characters, and exactly what the fuzzer's model (written from the spec's
/// words, not from `src/hint.rs`) computes.
#[test]
fn hint_follows_the_rule() {
    property(
        prop_oneof![text(), boundary_text()],
        &[
            ("cut with an ellipsis", 15),
            ("first sentence", 5),
            ("first line", 5),
        ],
        |text, reached| {
            let hint = disclose::internals::hint::hint(&text);
            prop_assert!(hint.len() <= 80);
            prop_assert!(!hint.contains('\n'));
            prop_assert!(!hint.chars().any(is_control));
            prop_assert_eq!(&hint, &model::hint(&text));
            let first_line = text.trim().split('\n').next().unwrap_or("");
            reached.hit(
                "cut with an ellipsis",
                hint.ends_with('…') && !text.contains('…'),
            );
            reached.hit("first sentence", first_line.contains(". "));
            reached.hit("first line", text.trim().contains('\n'));
            Ok(())
        },
    );
}

/// A declaration for [`nothing_panics_on_adversarial_inputs`]: a tool or a
/// skill through either door.
fn any_declared() -> impl Strategy<Value = Declared> {
    prop_oneof![
        4 => tool_decl().prop_map(|decl| Declared::Tool { decl, admitted: None }),
        1 => shelf_skill().prop_map(Declared::Shelf),
        1 => carried_skill().prop_map(Declared::Carried),
    ]
}

/// Everything a run answers to one round of adversarial requests, as text.
fn answers(run: &Run, query: &str, name: &str, args: &Value) -> Vec<String> {
    let text = |r: Result<String, Refusal>| r.unwrap_or_else(|r| r.to_lines());
    let call = |c: &ToolCall| match run.call(c) {
        Ok(routed) => format!("routed {} {} {}", routed.id, routed.name, routed.args),
        Err(refusal) => refusal.to_lines(),
    };
    let tool_defs: Vec<&str> = run.tool_defs().iter().map(|d| d.canonical()).collect();
    vec![
        run.render(),
        tool_defs.join("\n"),
        format!("{:?}", run.digests()),
        format!("{:?}", run.skill_pins()),
        text(run.describe(query)),
        text(run.expand(name)),
        call(&ToolCall {
            id: "c".into(),
            name: name.to_string(),
            args: args.clone(),
        }),
        call(&ToolCall {
            id: "c".into(),
            name: "call".into(),
            args: args.clone(),
        }),
        call(&via_call("c", name, args.clone())),
    ]
}

/// No generated name, description, schema, skill, query or args panics the
/// catalog, with up to 60 declarations; two runs of the same inputs answer
/// the same; and the answers follow the spec: `describe` refuses exactly the
/// queries SPEC §5 says, `expand` answers exactly the visible names, a
/// direct call is routed only to a resident tool, a call through `call`
/// only to its target with args that fit, and the index stays under the
/// ceiling. Names aim mostly at what was declared, so every door is
/// reached.
#[test]
fn nothing_panics_on_adversarial_inputs() {
    let aim = prop_oneof![
        3 => any::<usize>().prop_map(Aim::Admitted),
        1 => raw_name().prop_map(Aim::Other),
    ];
    // `Err(salt)`: args generated to fit the named tool's schema.
    let args = prop_oneof![
        3 => any::<u64>().prop_map(Err),
        1 => generate::args().prop_map(Ok),
    ];
    property(
        (
            vec(any_declared(), 0..=60),
            prop_oneof![text(), raw_name()],
            aim,
            args,
            start(),
        ),
        &[
            ("over 30 declarations", 25),
            ("a skill admitted", 50),
            ("describe refused", 10),
            ("expanded", 20),
            ("routed through call", 6),
            ("refused through call", 20),
        ],
        |(declared, query, aim, args, (mode, profile)), reached| {
            let first = Admitted::of_declared(declared.clone());
            let skills = first.skills().len();
            let second = Admitted::of_declared(declared.clone());
            prop_assert_eq!(
                first.results.iter().map(|(_, r)| r).collect::<Vec<_>>(),
                second.results.iter().map(|(_, r)| r).collect::<Vec<_>>()
            );
            let name = match aim {
                Aim::Admitted(pick) if !declared.is_empty() => {
                    declared[pick % declared.len()].name()
                }
                Aim::Admitted(_) => "nothing_declared".to_string(),
                Aim::Other(name) => name,
            };
            let schema = declared.iter().find_map(|d| match d {
                Declared::Tool { decl, .. } if d.name() == name => {
                    Some((*decl.input_schema).clone())
                }
                _ => None,
            });
            let args = args.unwrap_or_else(|salt| {
                generate::fitting_args(&schema.unwrap_or_else(|| json!({})), salt)
            });
            let (run, again) = (first.start(mode, profile), second.start(mode, profile));
            let answered = answers(&run, &query, &name, &args);
            prop_assert_eq!(&answered, &answers(&again, &query, &name, &args));

            let index = disclose_replay::invariants::index_of(&answered[0]);
            prop_assert!(index.len() <= 1024);
            let refused =
                query.trim().is_empty() || query.len() > 256 || query.chars().any(is_control);
            match run.describe(&query) {
                Ok(_) => prop_assert!(!refused, "{:?}", query),
                Err(e) => {
                    prop_assert!(refused, "{:?}", query);
                    prop_assert_eq!(e.code(), "describe.query");
                }
            }
            let visible = run.tool(&name).is_some() || run.skill(&name).is_some();
            prop_assert_eq!(run.expand(&name).is_ok(), visible, "{}", name);
            let direct = ToolCall {
                id: "c".into(),
                name: name.clone(),
                args: args.clone(),
            };
            if let Ok(routed) = run.call(&direct) {
                prop_assert!(run.is_resident(&name), "{}", name);
                prop_assert_eq!(routed, direct);
            }
            let through = run.call(&via_call("c", &name, args.clone()));
            if let Ok(routed) = &through {
                prop_assert_eq!(&routed.name, &name);
                let tool = run.tool(&name);
                prop_assert!(tool.is_some_and(|t| fit(t.input_schema(), &args).is_ok()));
            }
            reached.hit("over 30 declarations", declared.len() > 30);
            reached.hit("a skill admitted", skills > 0);
            reached.hit("describe refused", refused);
            reached.hit("expanded", visible);
            reached.hit("routed through call", through.is_ok());
            reached.hit("refused through call", through.is_err());
            Ok(())
        },
    );
}

/// Every generated session either parses, replays and keeps I1–I8, or is
/// malformed and reported on its fault's line with a column ≥ 1.
#[test]
fn sessions_replay_or_report_a_position() {
    property(
        session_plan(),
        &[("replayed", 60), ("malformed", 4)],
        |plan, reached| {
            let (text, fault) = plan.render();
            match (session::parse(text.as_bytes()), fault) {
                (Ok(session), None) => {
                    let replayed = replay(&session);
                    prop_assert_eq!(replayed.steps.len(), session.ops().len());
                    let breaches = disclose_replay::invariants::check(&session, &replayed);
                    prop_assert!(breaches.is_empty(), "{:?}\n{}", breaches, text);
                    let transcript = disclose_replay::transcript::encode(&replayed.steps);
                    let blocks = disclose_replay::transcript::decode(transcript.as_bytes());
                    prop_assert_eq!(blocks.map(|b| b.len()).ok(), Some(session.ops().len()));
                    reached.hit("replayed", true);
                }
                (Err(error), Some(line)) => {
                    prop_assert_eq!(error.line, line, "{}\n{}", error, text);
                    prop_assert!(error.column >= 1);
                    reached.hit("malformed", true);
                }
                (Ok(_), Some(line)) => {
                    prop_assert!(false, "a fault on line {} parsed:\n{}", line, text)
                }
                (Err(error), None) => {
                    prop_assert!(false, "refused without a fault: {}\n{}", error, text)
                }
            }
            Ok(())
        },
    );
}

/// The Lean `example`: one resident (`read`), two dormant (`apps_ping`,
/// `plan`), one unadmitted (`mail_send`) → the tool list holds one of these
/// four and the index lists two. In this catalog `describe` and `call` are
/// always resident too (SPEC §1, §3), so the whole tool list is exactly
/// `read, describe, call`; the Lean list of declared capabilities has one.
#[test]
fn example() {
    let tool = |name: &str, admitted: Option<bool>| {
        let mut op = json!({
            "op": "tool", "origin": "host", "name": name,
            "description": format!("The {name} tool. More."), "input_schema": {"type": "object"},
        });
        if let Some(admitted) = admitted {
            op["admitted"] = json!(admitted);
        }
        op.to_string()
    };
    let text = [
        json!({"op": "session", "format": 1, "about": "the Lean example"}).to_string(),
        tool("read", None),
        tool("apps_ping", None),
        tool("mail_send", Some(false)),
        tool("plan", None),
        json!({"op": "start", "mode": "chat"}).to_string(),
    ]
    .join("\n");
    let session = session::parse(text.as_bytes()).expect("well formed");
    let run = replay(&session).run.expect("started");
    let names: Vec<&str> = run.tool_defs().iter().map(|d| d.name()).collect();
    assert_eq!(names, ["read", "describe", "call"]);
    let declared = ["read", "apps_ping", "mail_send", "plan"];
    assert_eq!(names.iter().filter(|n| declared.contains(n)).count(), 1);
    assert_eq!(
        run.dormant_index(),
        "Dormant (describe a name for its guide; call runs a tool):\n- apps_ping: The apps_ping tool.\n- plan: The plan tool.\n"
    );
    assert!(!run.render().contains("mail_send"));
    assert_eq!(
        run.call(&via_call("c", "mail_send", json!({})))
            .map_err(|r| r.code()),
        Err("call.unknown")
    );
}

/// The case the superset property found (`patternProperties` under
/// `additionalProperties: false`, docs/decisions.md), pinned by hand: a
/// full validator accepts a key a pattern admits, so `fit` must too.
#[test]
fn fit_accepts_keys_pattern_properties_admit() {
    let schema = json!({
        "type": "object",
        "additionalProperties": false,
        "patternProperties": {"^x": {"type": "string"}},
    });
    let args = json!({"x1": "s"});
    let validator = jsonschema::draft202012::new(&schema).expect("compiles");
    assert!(validator.is_valid(&args));
    assert_eq!(fit(&schema, &args), Ok(()));
}

/// The generators reach the rules the properties are about: over a few
/// hundred generated sessions some are malformed, some overflow the index,
/// some calls are routed and some args are compared with a full validator,
/// and every refusal code but `admit.generation` (2^64 admissions) occurs.
#[test]
fn the_generators_reach_every_rule() {
    let report = disclose_testkit::fuzzing::Fuzz::new(1, 400).run(&|_| true);
    assert!(report.failure.is_none(), "{:?}", report.failure);
    let tally = report.tally;
    assert_eq!(tally.cases, 400);
    for (what, n) in [
        ("malformed", tally.malformed),
        ("overflowing", tally.overflowing),
        ("routed", tally.routed),
        ("fit_compared", tally.fit_compared),
        ("reordered", tally.reordered),
    ] {
        assert!(n > 0, "no {what} session in 400");
    }
    let unseen: Vec<&str> = disclose::vocabulary()
        .iter()
        .map(|v| v.code)
        .filter(|code| !tally.refusals.contains_key(code))
        .collect();
    assert_eq!(unseen, ["admit.generation"]);
}
