//! Property tests (SPEC §13): each Lean theorem of seed 001 §8-60/§8-61,
//! checked on generated inputs, under the theorem's name; then the
//! properties SPEC §13 and issue 2 add (the index is the Lean `indexBytes`,
//! `fit` ⊇ a full validator, render independent of admission order, nothing
//! panics, every generated session replays or is reported at its fault).
//!
//! Every property runs 1,000 cases unless `PROPTEST_CASES` says otherwise.
//! The expected values are computed here, from the spec's rules written out
//! again (the Lean `pack`, the hint rule, the index lines), never by asking
//! the code under test for them. Inputs come from `disclose::generate`, the
//! generators `disclose fuzz` uses.

use std::collections::BTreeSet;

use disclose::dormant::{Entry, INDEX_HEADER, Shown, pack};
use disclose::generate::{
    self, Decl, Declared, SessionPlan, boundary_text, catalog_decls, raw_name, schema_and_args,
    session_plan, text, tool_decl,
};
use disclose::replay::replay;
use disclose::{Catalog, Mode, Profile, Refusal, Run, ToolCall, ToolDecl, fit, session};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Value, json};

/// 1,000 cases, or `PROPTEST_CASES`.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// The Lean model, written out again.

/// The Lean `pack`, recursively, as seed 001 §8-60 writes it.
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

fn marker_len(n: usize) -> usize {
    format!("+{n} more\n").len()
}

/// The Lean `indexBytes`: header + used + marker(left) when left > 0, with
/// room = 1024 − header − marker(total).
fn lean_index_bytes(es: &[Entry]) -> usize {
    let room = 1024 - INDEX_HEADER.len() - marker_len(es.len());
    let (_, used, left) = lean_pack(room, es);
    INDEX_HEADER.len() + used + if left == 0 { 0 } else { marker_len(left) }
}

/// A control character in SPEC §4's sense: U+0000–U+001F or U+007F.
fn is_control(c: char) -> bool {
    c <= '\u{1f}' || c == '\u{7f}'
}

/// SPEC §4's hint rule, written out again.
fn model_hint(text: &str) -> String {
    let first = text.trim().split('\n').next().unwrap_or("").trim_end();
    let sentence = match first.find(". ") {
        Some(at) => &first[..=at],
        None => first,
    };
    let clean: String = sentence
        .chars()
        .map(|c| {
            if c <= '\u{1f}' || c == '\u{7f}' {
                ' '
            } else {
                c
            }
        })
        .collect();
    if clean.len() <= 80 {
        return clean;
    }
    let mut cut = 77;
    while !clean.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…", clean[..cut].trim_end())
}

const RESIDENT: [&str; 7] = [
    "read", "search", "status", "describe", "call", "edit", "exec",
];

/// What a profile offers (SPEC §8), written out again.
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
        let mut catalog = Catalog::new();
        let results = decls
            .iter()
            .flat_map(Decl::expand)
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

/// The index SPEC §4 says a run shows, built from the admitted
/// declarations alone: dormant tools by name, then skills by name, packed by
/// the Lean `pack`.
fn model_index(admitted: &Admitted, profile: Option<Profile>) -> (String, Vec<Entry>) {
    let mut tools: Vec<(&str, String)> = admitted
        .tools()
        .into_iter()
        .filter(|(name, decl)| !RESIDENT.contains(name) && offered(profile, decl))
        .map(|(name, decl)| (name, model_hint(&decl.description)))
        .collect();
    tools.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut skills: Vec<(&str, String)> = admitted
        .skills()
        .into_iter()
        .map(|(name, disclosure)| (name, model_hint(disclosure)))
        .collect();
    skills.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let lines: Vec<(String, String)> = tools
        .iter()
        .map(|(n, h)| (format!("- {n}: {h}\n"), format!("- {n}\n")))
        .chain(
            skills
                .iter()
                .map(|(n, h)| (format!("- skill {n}: {h}\n"), format!("- skill {n}\n"))),
        )
        .collect();
    let entries: Vec<Entry> = lines
        .iter()
        .map(|(hinted, bare)| Entry {
            hinted: hinted.len(),
            bare: bare.len(),
        })
        .collect();
    if lines.is_empty() {
        return (String::new(), entries);
    }
    let room = 1024 - INDEX_HEADER.len() - marker_len(lines.len());
    let (shown, _, left) = lean_pack(room, &entries);
    let mut index = INDEX_HEADER.to_string();
    for ((hinted, bare), how) in lines.iter().zip(&shown) {
        index.push_str(if *how == Shown::Hinted { hinted } else { bare });
    }
    if left > 0 {
        index.push_str(&format!("+{left} more\n"));
    }
    (index, entries)
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

proptest! {
    #![proptest_config(config())]

    // -- seed 001 §8-60: the packer --------------------------------------

    /// `pack_used_le`: the packed bytes never exceed the room.
    #[test]
    fn pack_used_le(room in 0usize..3000, es in entries()) {
        let packed = pack(room, es.iter().copied());
        prop_assert!(packed.used <= room);
    }

    /// `pack_left_le`: no more are left out than there are; and what is
    /// listed plus what is left out is every entry.
    #[test]
    fn pack_left_le(room in 0usize..3000, es in entries()) {
        let packed = pack(room, es.iter().copied());
        prop_assert!(packed.left <= es.len());
        prop_assert_eq!(packed.shown.len() + packed.left, es.len());
    }

    /// `pack_whole_when_it_fits`: when the hinted lines together fit, every
    /// entry is listed hinted and none is left out.
    #[test]
    fn pack_whole_when_it_fits(es in entries(), spare in 0usize..100) {
        let room = es.iter().map(|e| e.hinted).sum::<usize>() + spare;
        let packed = pack(room, es.iter().copied());
        prop_assert_eq!(packed.shown, vec![Shown::Hinted; es.len()]);
        prop_assert_eq!(packed.left, 0);
    }

    /// The Rust `pack` is the Lean `pack`, entry for entry.
    #[test]
    fn pack_is_the_lean_pack(room in 0usize..3000, es in entries()) {
        let packed = pack(room, es.iter().copied());
        let (shown, used, left) = lean_pack(room, &es);
        prop_assert_eq!((packed.shown, packed.used, packed.left), (shown, used, left));
    }

    /// `index_within_ceiling`: on whole catalogs (adults and children), the
    /// rendered index is at most 1024 bytes.
    #[test]
    fn index_within_ceiling(decls in catalog_decls(), (mode, profile) in start()) {
        let run = Admitted::of(&decls).start(mode, profile);
        let index = disclose::invariants::index_of(&run.render()).to_string();
        prop_assert!(index.len() <= 1024, "{} bytes:\n{}", index.len(), index);
        prop_assert_eq!(index, run.dormant_index());
    }

    /// The rendered index is as long as the Lean `indexBytes` of the
    /// dormant entries' lengths (computed from the admitted declarations,
    /// not from the run), and is exactly the index SPEC §4 describes.
    #[test]
    fn index_bytes_is_the_lean_formula(decls in catalog_decls(), (mode, profile) in start()) {
        let admitted = Admitted::of(&decls);
        let (expected, entries) = model_index(&admitted, profile);
        let run = admitted.start(mode, profile);
        let index = run.dormant_index();
        let formula = if entries.is_empty() { 0 } else { lean_index_bytes(&entries) };
        prop_assert_eq!(index.len(), formula);
        prop_assert_eq!(index, expected);
    }

    // -- seed 001 §8-60: standing ------------------------------------------

    /// `unadmitted_costs_nothing`: adding an `admitted: false` declaration
    /// anywhere changes no byte of any `render` or `tool_defs`.
    #[test]
    fn unadmitted_costs_nothing(
        plan in session_plan(),
        extra in tool_decl(),
        at in any::<usize>(),
    ) {
        let mut with = SessionPlan { fault: None, ..plan };
        let at = at % (with.decls.len() + 1);
        with.decls.insert(at, Decl::Tool { decl: extra, admitted: Some(false) });
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
        prop_assert_eq!(prefix(&with), prefix(&without));
    }

    /// `one_standing_one_place`: no name is both in the tool list and in
    /// the index; every offered tool is in exactly one of them, and every
    /// skill is dormant.
    #[test]
    fn one_standing_one_place(decls in catalog_decls(), (mode, profile) in start()) {
        let admitted = Admitted::of(&decls);
        let tools: Vec<(String, bool)> = admitted
            .tools()
            .iter()
            .map(|(name, decl)| (name.to_string(), offered(profile, decl)))
            .collect();
        let skills: Vec<String> = admitted.skills().iter().map(|(n, _)| n.to_string()).collect();
        let run = admitted.start(mode, profile);
        let resident: BTreeSet<&str> = run.tool_defs().iter().map(|d| d.name.as_str()).collect();
        let dormant: BTreeSet<&str> = run.dormant_lines().iter().map(|l| l.name()).collect();
        prop_assert!(resident.is_disjoint(&dormant), "{:?} / {:?}", resident, dormant);
        for (name, is_offered) in &tools {
            let places = usize::from(resident.contains(name.as_str()))
                + usize::from(dormant.contains(name.as_str()));
            prop_assert_eq!(places, usize::from(*is_offered), "{}", name);
        }
        for name in &skills {
            prop_assert!(dormant.contains(name.as_str()) && !resident.contains(name.as_str()));
        }
    }

    // -- seed 001 §8-61: the call door -------------------------------------

    /// `routed_is_the_target`: a call routed through `call` keeps its id,
    /// names the target (an admitted tool other than `call`), and carries
    /// args that fit its schema.
    #[test]
    fn routed_is_the_target(
        decls in catalog_decls(),
        (mode, profile) in start(),
        pick in any::<usize>(),
        other in raw_name(),
        given in prop_oneof![2 => Just(None), 1 => generate::args().prop_map(Some)],
        salt in any::<u64>(),
        id in select(&["c1", "", "é id"][..]),
    ) {
        let admitted = Admitted::of(&decls);
        let tools: Vec<(String, Value)> = admitted
            .tools()
            .iter()
            .map(|(n, d)| (n.to_string(), (*d.input_schema).clone()))
            .collect();
        let run = admitted.start(mode, profile);
        let (target, schema) = match tools.get(pick % (tools.len() + 1)) {
            Some((name, schema)) => (name.clone(), schema.clone()),
            None => (other, json!({})),
        };
        let args = given.unwrap_or_else(|| generate::fitting_args(&schema, salt));
        let call = via_call(id, &target, args.clone());
        for routed in [run.resolve_call(&call), run.call(&call)].into_iter().flatten() {
            prop_assert_eq!(&routed.id, id);
            prop_assert_eq!(&routed.name, &target);
            prop_assert_ne!(routed.name.as_str(), "call");
            prop_assert!(tools.iter().any(|(n, _)| *n == target));
            prop_assert_eq!(&routed.args, &args);
            prop_assert!(fit(&schema, &routed.args).is_ok());
        }
    }

    /// `unadmitted_is_unreachable`: a name that is not an admitted tool
    /// (refused, `admitted: false`, a skill, or never declared) and is not
    /// `call` is refused `call.unknown`, through `call` and directly.
    #[test]
    fn unadmitted_is_unreachable(
        decls in catalog_decls(),
        (mode, profile) in start(),
        others in vec(raw_name(), 1..4),
        args in generate::args(),
    ) {
        let admitted = Admitted::of(&decls);
        let tools: BTreeSet<String> = admitted.tools().iter().map(|(n, _)| n.to_string()).collect();
        let candidates: BTreeSet<String> = admitted
            .results
            .iter()
            .map(|(d, _)| d.name())
            .chain(others)
            .filter(|n| !tools.contains(n) && n != "describe" && n != "call")
            .collect();
        let run = admitted.start(mode, profile);
        for name in candidates {
            let code = |r: Result<ToolCall, Refusal>| r.err().map(|r| r.code());
            prop_assert_eq!(code(run.resolve_call(&via_call("c", &name, args.clone()))), Some("call.unknown"), "{}", name);
            let direct = ToolCall { id: "c".into(), name: name.clone(), args: args.clone() };
            prop_assert_eq!(code(run.call(&direct)), Some("call.unknown"), "{}", name);
        }
    }

    // -- what SPEC §13 and issue 2 add -----------------------------------

    /// `fit` accepts every object args a full draft 2020-12 validator
    /// accepts for a generated top-level object schema. Non-object args are
    /// out: SPEC §6 step 1 refuses them whatever the schema says.
    #[test]
    fn fit_accepts_what_a_validator_accepts((schema, args) in schema_and_args()) {
        prop_assume!(args.is_object());
        if let Ok(validator) = jsonschema::draft202012::new(&schema)
            && validator.is_valid(&args)
        {
            prop_assert!(fit(&schema, &args).is_ok(), "{} / {} / {:?}", schema, args, fit(&schema, &args));
        }
    }

    /// Admitting the same declarations in another order (shuffled by the
    /// proptest RNG) gives the same answers, render, tool list, digests and
    /// pins. Declarations refused `admit.duplicate` or `admit.collision`
    /// are left out of the shuffled set: which of two such declarations
    /// wins depends on order by design (SPEC §2).
    #[test]
    fn render_independent_of_admission_order(
        (decls, order) in catalog_decls().prop_flat_map(|decls| {
            let n = decls.iter().map(|d| d.expand().len()).sum::<usize>();
            (Just(decls), Just((0..n).collect::<Vec<usize>>()).prop_shuffle())
        }),
        (mode, profile) in start(),
    ) {
        let first = Admitted::of(&decls);
        let depends_on_order = |r: &Option<Result<String, Refusal>>| {
            matches!(r, Some(Err(e)) if matches!(e.code(), "admit.duplicate" | "admit.collision"))
        };
        let mut catalog = Catalog::new();
        for &i in &order {
            let (declared, before) = &first.results[i];
            if depends_on_order(before) {
                continue;
            }
            prop_assert_eq!(&declared.admit(&mut catalog), before);
        }
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
    }

    /// The hint is SPEC §4's rule: at most 80 bytes, one line, no control
    /// characters, and exactly the rule written out again.
    #[test]
    fn hint_follows_the_rule(text in prop_oneof![text(), boundary_text()]) {
        let hint = disclose::hint::hint(&text);
        prop_assert!(hint.len() <= 80);
        prop_assert!(!hint.chars().any(is_control));
        prop_assert_eq!(hint, model_hint(&text));
    }

    /// No generated name, description, schema, query or args panics the
    /// catalog; `describe` refuses exactly the queries SPEC §5 says.
    #[test]
    fn nothing_panics_on_adversarial_inputs(
        decls in vec(tool_decl(), 0..4),
        query in prop_oneof![text(), raw_name()],
        name in raw_name(),
        args in generate::args(),
        (mode, profile) in start(),
    ) {
        let mut catalog = Catalog::new();
        for decl in &decls {
            let _ = catalog.admit_tool(decl);
        }
        let run = match profile {
            None => catalog.start(mode),
            Some(p) => catalog.start_child(mode, p),
        };
        let _ = run.render();
        let refused = query.trim().is_empty()
            || query.len() > 256
            || query.chars().any(is_control);
        match run.describe(&query) {
            Ok(_) => prop_assert!(!refused, "{:?}", query),
            Err(e) => {
                prop_assert!(refused, "{:?}", query);
                prop_assert_eq!(e.code(), "describe.query");
            }
        }
        let _ = run.expand(&name);
        let _ = run.call(&ToolCall { id: "c".into(), name: name.clone(), args: args.clone() });
        let _ = run.call(&ToolCall { id: "c".into(), name: "call".into(), args: args.clone() });
        let _ = run.call(&via_call("c", &name, args));
    }

    /// Every generated session either parses, replays and keeps I1–I8, or
    /// is malformed and reported on its fault's line with a column ≥ 1.
    #[test]
    fn sessions_replay_or_report_a_position(plan in session_plan()) {
        let (text, fault) = plan.render();
        match (session::parse(text.as_bytes()), fault) {
            (Ok(session), None) => {
                let replayed = replay(&session);
                prop_assert_eq!(replayed.steps.len(), session.ops().len());
                let breaches = disclose::invariants::check(&session, &replayed);
                prop_assert!(breaches.is_empty(), "{:?}\n{}", breaches, text);
                let transcript = disclose::transcript::encode(&replayed.steps);
                let blocks = disclose::transcript::decode(transcript.as_bytes());
                prop_assert_eq!(blocks.map(|b| b.len()).ok(), Some(session.ops().len()));
            }
            (Err(error), Some(line)) => {
                prop_assert_eq!(error.line, line, "{}\n{}", error, text);
                prop_assert!(error.column >= 1);
            }
            (Ok(_), Some(line)) => prop_assert!(false, "a fault on line {} parsed:\n{}", line, text),
            (Err(error), None) => prop_assert!(false, "refused without a fault: {}\n{}", error, text),
        }
    }
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
    let names: Vec<&str> = run.tool_defs().iter().map(|d| d.name.as_str()).collect();
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
    let report = disclose::fuzzing::Fuzz::new(1, 400).run(&|_| true);
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
