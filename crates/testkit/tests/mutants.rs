//! Every test that plants a mutant (the `mutants` feature; `.ci/run`'s
//! "planted mutants" step, never plain `cargo test`): the seam holds a
//! planted rule inside its closure and on its thread only; each mutant
//! breaks what it says; the default fuzz run catches each one with the
//! check listed for it in [`catching`]; and the shipped sessions that pin a
//! rule fail with the mutant planted and pass without it.
#![cfg(feature = "mutants")]

use disclose::internals::dormant::room_for;
use disclose::internals::record::OpKind;
use disclose::internals::seam::{Planted, plant};
use disclose::internals::search::{Candidate, SearchIndex};
use disclose_replay::invariants::check;
use disclose_replay::replay::{self, replay};
use disclose_replay::session::{self, parse};
use disclose_testkit::fuzzing::{CHUNK, DEFAULT_CASES, Expect, Fuzz, check_text};
use disclose_testkit::mutants::Mutant;
use serde_json::json;

/// The checks allowed to be the first to catch each mutant. A new mutant
/// does not compile until it is listed here.
fn catching(mutant: Mutant) -> &'static [&'static str] {
    match mutant {
        // Past the ceiling it is I1; under it, the model's index.
        Mutant::MarkerBudget => &["I1", "index"],
        Mutant::IntegralFloat => &["fit"],
        Mutant::HintCut => &["hint"],
        Mutant::NoIdf => &["describe"],
        Mutant::NoStem => &["describe"],
        Mutant::NoParams => &["describe"],
        Mutant::NoVectors => &["describe"],
        Mutant::TruncatingDivision => &["describe"],
        Mutant::Nondeterministic => &["I3"],
        Mutant::NoCjkSplit => &["describe"],
        Mutant::CjkVectors => &["describe"],
        Mutant::UnscaledCosine => &["describe"],
        Mutant::CjkByPresence => &["describe"],
    }
}

fn broken_room(_: usize) -> usize {
    7
}

/// The seam calls a planted rule inside its closure only, on its thread
/// only, and restores the rule on unwind; planting nothing is the rules.
#[test]
fn a_planted_rule_holds_inside_the_closure_only_and_on_this_thread_only() {
    let real = room_for(100);
    let planted = Planted {
        room_for: Some(broken_room),
        ..Planted::default()
    };
    let run = || {
        let mut catalog = disclose::Catalog::new();
        for i in 0..200 {
            let decl = disclose::ToolDecl::new("o", format!("t{i}"), "d", json!({}));
            assert!(catalog.admit_tool(&decl).is_ok());
        }
        catalog.start(disclose::Mode::Work).dormant_index()
    };
    let clean = run();
    plant(planted, || {
        // 7 bytes of room list nothing: the header, then the marker.
        assert!(run().ends_with(":\n+200 more\n"), "{}", run());
        let elsewhere = std::thread::spawn(run);
        assert_eq!(elsewhere.join().ok().as_deref(), Some(clean.as_str()));
        plant(Planted::default(), || assert_eq!(run(), clean));
        assert_ne!(run(), clean);
    });
    assert_eq!(run(), clean);
    let caught = std::panic::catch_unwind(|| plant(planted, || panic!("inside")));
    assert!(caught.is_err());
    assert_eq!(run(), clean);
    assert_eq!(room_for(100), real);
}

/// Each broken rule breaks the rule it names, and only while planted.
#[test]
fn the_mutants_break_what_they_say() {
    // 100 dormant tools whose lines (26 bytes hinted, 14 bare) leave the
    // packer 8 bytes short of a room without the marker's budget: the
    // `+63 more` marker then ends the index at 1030 bytes.
    let index = || {
        let mut catalog = disclose::Catalog::new();
        for i in 0..100 {
            let decl =
                disclose::ToolDecl::new("o", format!("tool_{i:03}"), "x".repeat(10), json!({}));
            assert!(catalog.admit_tool(&decl).is_ok());
        }
        catalog.start(disclose::Mode::Work).dormant_index().len()
    };
    assert!(index() <= 1024, "{}", index());
    Mutant::MarkerBudget.plant(|| assert_eq!(index(), 1030));

    let schema = json!({"properties": {"n": {"type": "integer"}}});
    let fits = |args: serde_json::Value| disclose::internals::fit::fit(&schema, &args).is_ok();
    assert!(fits(json!({"n": 1.0})));
    Mutant::IntegralFloat.plant(|| {
        assert!(!fits(json!({"n": 1.0})));
        assert!(fits(json!({"n": 1})));
    });

    let hint_of = |text: &str| {
        let mut catalog = disclose::Catalog::new();
        let decl = disclose::ToolDecl::new("o", "t", text, json!({}));
        catalog
            .admit_tool(&decl)
            .map(|t| t.hint().len())
            .unwrap_or_default()
    };
    let long = "x".repeat(100);
    assert_eq!(hint_of(&long), 80);
    Mutant::HintCut.plant(|| assert_eq!(hint_of(&long), 83));

    // N = 4: `common` (df 3) weighs ⌊25/9⌋ → 2, `rare` (df 1) ⌊25/1⌋ → 5;
    // without IDF both weigh 1. A name hit counts 3.
    let caps = ["common_b", "common_c", "common_thing", "rare_one"];
    let lex = |query: &str| {
        let index = SearchIndex::new(caps.iter().map(|name| Candidate {
            name,
            text: "x",
            schema: None,
        }));
        let parts = index.parts(query);
        parts
            .signals
            .into_iter()
            .map(|(lex, _)| lex)
            .collect::<Vec<_>>()
    };
    // Each part scaled by 1024 (contract 5).
    assert_eq!(lex("common rare"), [6144, 6144, 6144, 15360]);
    Mutant::NoIdf.plant(|| assert_eq!(lex("common rare"), [3072; 4]));

    // `organizing` and `organize` share the stem `organiz` only.
    let organize = |query: &str| {
        let index = SearchIndex::new(["organize_files", "other"].map(|name| Candidate {
            name,
            text: "x",
            schema: None,
        }));
        index.parts(query).signals[0].0
    };
    assert!(organize("organizing") > 0);
    Mutant::NoStem.plant(|| assert_eq!(organize("organizing"), 0));

    // `timezone` is only a param of `now`.
    let schema = json!({"properties": {"timezone": {"type": "string"}}});
    let timezone = || {
        let index = SearchIndex::new([
            Candidate {
                name: "now",
                text: "Current time.",
                schema: Some(&schema),
            },
            Candidate {
                name: "other",
                text: "x",
                schema: None,
            },
        ]);
        index.parts("timezone").signals[0].0
    };
    assert!(timezone() > 0);
    Mutant::NoParams.plant(|| assert_eq!(timezone(), 0));

    // The cosine of a word no candidate holds: not 0, but 0 without
    // vectors.
    let cosines = || {
        let index = SearchIndex::new([
            Candidate {
                name: "get_elevation",
                text: "Elevation of a point.",
                schema: None,
            },
            Candidate {
                name: "send_mail",
                text: "Sends mail.",
                schema: None,
            },
        ]);
        index
            .parts("altitude")
            .signals
            .into_iter()
            .map(|(_, cos)| cos)
            .collect::<Vec<_>>()
    };
    assert!(cosines().iter().any(|c| *c != 0), "{:?}", cosines());
    Mutant::NoVectors.plant(|| assert_eq!(cosines(), [0, 0]));

    // Contract 5. N = 3; the bags hold 17, 23 and 2 words, total 42.
    let chinese = || {
        SearchIndex::new([
            Candidate {
                name: "read_file",
                text: "读取文件的全部内容",
                schema: None,
            },
            Candidate {
                name: "create_event",
                text: "在日历中创建一个新的会议 (calendar)",
                schema: None,
            },
            Candidate {
                name: "other",
                text: "Lists things.",
                schema: None,
            },
        ])
    };
    // `读取`'s three words (读, 读取, 取) are each once in read_file's bag
    // of 17, df 1, weight 5: sat ⌊22528·43 / (430 + 129 + 9·17·3)⌋ =
    // ⌊968704 / 1018⌋ = 951 (the bags: 17, 24 with `calendar`, 2; total
    // 43). The clause unsplit is one word, which `读取` does not match;
    // by presence, each part is 1024.
    let read = || chinese().parts("读取").signals[0].0;
    assert_eq!(read(), 3 * 5 * 951);
    Mutant::NoCjkSplit.plant(|| assert_eq!(read(), 0));
    Mutant::CjkByPresence.plant(|| assert_eq!(read(), 3 * 5 * 1024));
    // A CJK word has no vector: `中` alone, no cosine; planted, `中` has
    // its vocabulary row.
    let vectorless = || {
        let parts = chinese().parts("中");
        (
            parts.with_vector,
            parts.words,
            parts.signals.iter().all(|(_, cos)| *cos == 0),
        )
    };
    assert_eq!(vectorless(), (0, 1, true));
    Mutant::CjkVectors.plant(|| assert_eq!(vectorless(), (1, 1, false)));
    // `calendar 会议`: four words, one with a vector: the cosine counts a
    // quarter, ⌊3·cos/4⌋; unscaled, 3·cos.
    let fused = || {
        let index = chinese();
        let parts = index.parts("calendar 会议");
        assert_eq!((parts.with_vector, parts.words), (1, 4));
        let most = parts.signals.iter().map(|(lex, _)| *lex).max().unwrap_or(0);
        let keyword = |lex: u64| i128::from(lex) * 1024 / i128::from(most);
        let cosines: Vec<i128> = parts.signals.iter().map(|(_, cos)| *cos).collect();
        assert!(
            cosines.iter().any(|cos| (3 * cos).rem_euclid(4) != 0),
            "{cosines:?}"
        );
        let terms: Vec<(i128, i128)> = (parts.signals.iter())
            .map(|&(lex, cos)| (keyword(lex), cos))
            .collect();
        (index.scores("calendar 会议"), terms)
    };
    let (scores, terms) = fused();
    let quarter: Vec<i128> = terms
        .iter()
        .map(|(k, cos)| k + (3 * cos).div_euclid(4))
        .collect();
    assert_eq!(scores, quarter);
    let (scores, terms) = Mutant::UnscaledCosine.plant(fused);
    let whole: Vec<i128> = terms.iter().map(|(k, cos)| k + 3 * cos).collect();
    assert_eq!(scores, whole);
    assert_ne!(quarter, whole);
}

/// Each mutant, planted in the library (not in a reference), is caught
/// within the default run for several seeds, and shrunk to a smaller
/// session that the library as built passes and the mutant still fails.
#[test]
fn the_default_run_catches_every_mutant_of_the_library() {
    for mutant in Mutant::ALL {
        for seed in [0, 1, 7] {
            let fuzz = Fuzz::new(seed, DEFAULT_CASES).planting(mutant);
            assert_eq!(fuzz.mutant(), Some(mutant));
            let what = format!("{} seed {seed}", mutant.name());
            let failure = fuzz.run(&|_| true).failure.expect(&what);
            assert!(
                catching(mutant).contains(&failure.first.check),
                "{what}: {:?}",
                failure.first
            );
            assert_eq!(failure.finding.check, failure.first.check, "{what}");
            assert!(failure.case < DEFAULT_CASES);
            assert!(
                failure.minimal.lines().count() <= failure.original.lines().count(),
                "{what}"
            );
            assert!(failure.minimal.contains("broke on seed"), "{what}");
            // The minimal session is an ordinary session: the library as
            // built passes every check on it; with the mutant it fails the
            // same check again.
            let expect = Expect::WellFormed;
            let clean = check_text(&failure.minimal, expect, 0);
            assert!(clean.is_ok(), "{what}: {clean:?}\n{}", failure.minimal);
            let again = mutant.plant(|| check_text(&failure.minimal, expect, 0));
            assert_eq!(
                again.map_err(|f| f.check),
                Err(failure.first.check),
                "{what}"
            );
            if mutant == Mutant::IntegralFloat {
                assert!(failure.minimal.contains(".0"), "{}", failure.minimal);
            }
        }
    }
}

/// A mutant run and a clean run at the same time, on the same rayon pool:
/// the mutant stays in its own cases.
#[test]
fn a_mutant_run_leaks_into_no_other_run() {
    let (broken, clean) = std::thread::scope(|scope| {
        let broken = scope.spawn(|| {
            Fuzz::new(1, DEFAULT_CASES)
                .planting(Mutant::MarkerBudget)
                .run(&|_| true)
        });
        let clean = scope.spawn(|| Fuzz::new(1, 3 * CHUNK).run(&|_| true));
        (broken.join(), clean.join())
    });
    assert!(broken.is_ok_and(|r| r.failure.is_some()));
    let clean = clean.expect("no panic");
    assert!(clean.failure.is_none(), "{:?}", clean.failure);
    assert_eq!(clean.tally.cases, 3 * CHUNK);
}

/// What a shipped session's last describe lists (names only), and the
/// scores of `names`, replayed with `mutant` planted or without one.
fn replayed_describe(
    session: &[u8],
    query: &str,
    names: &[&str],
    mutant: Option<Mutant>,
) -> (Vec<String>, Vec<(String, i128)>) {
    let session = session::parse(session).expect("a shipped session parses");
    let answer = || {
        let replayed = replay::replay(&session);
        let step = (replayed.steps.iter().rev())
            .find(|step| step.op == "describe")
            .expect("the session describes");
        let listed = (step.output.lines().skip(1))
            .map(|line| line.trim_start_matches("- ").split(':').next())
            .map(|name| name.unwrap_or_default().to_string())
            .collect();
        let run = replayed.run.as_ref().expect("the session starts a run");
        let scores = (run.ranked_scores(query).into_iter())
            .filter(|(name, _)| names.contains(name))
            .map(|(name, score)| (name.to_string(), score))
            .collect();
        (listed, scores)
    };
    match mutant {
        Some(mutant) => mutant.plant(answer),
        None => answer(),
    }
}

fn owned<const N: usize>(pairs: [(&str, i128); N]) -> Vec<(String, i128)> {
    pairs.map(|(name, score)| (name.to_string(), score)).into()
}

/// The shipped session of "a negative cosine, where the floor matters"
/// (docs/decisions.md, "Two sessions pin the floored cosine"), the first
/// hit: describe's cosine, between −65 and −64 on the 1024 scale, floors
/// to −65 (score 1024 − 3·65 = 829, one below crm__find_contact's 830);
/// truncated to −64 it would score 832 and lead. call's cosine floors to
/// −68 (820), truncated −67 (823): third either way. The scores were worked
/// out apart from the library, in exact integers from the spec (the
/// session's `about` has them).
#[test]
fn the_floor_decides_the_first_hit_of_the_shipped_session() {
    let session = include_bytes!(
        "../../../corpora/describe_v3/negative_cosine_floor_decides_the_first_hit.jsonl"
    );
    let query = "birthday with the same name";
    let names = ["call", "crm__find_contact", "describe"];
    let listed = |first: &str, second: &str| {
        let rest = ["call", "mail__send_email", "chat__post_message"];
        [[first, second].as_slice(), &rest]
            .concat()
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        replayed_describe(session, query, &names, None),
        (
            listed("crm__find_contact", "describe"),
            owned([("call", 820), ("crm__find_contact", 830), ("describe", 829)])
        )
    );
    assert_eq!(
        replayed_describe(session, query, &names, Some(Mutant::TruncatingDivision)),
        (
            listed("describe", "crm__find_contact"),
            owned([("call", 823), ("crm__find_contact", 830), ("describe", 832)])
        )
    );
}

/// The same, the `score > 0` cut: describe's keyword term is 161 and its
/// cosine between −54 and −53, floored to −54, so it scores 161 − 162 = −1
/// and is not listed; truncated to −53 it would score 2 and be listed
/// fifth.
#[test]
fn the_floor_drops_a_candidate_of_the_shipped_session() {
    let session = include_bytes!(
        "../../../corpora/describe_v3/negative_cosine_floor_drops_a_candidate.jsonl"
    );
    let query = "list directions file";
    let names = ["describe"];
    let listed = [
        "fs__list_directory",
        "maps__route",
        "music__play_song",
        "github__list_pull_requests",
    ]
    .map(String::from);
    assert_eq!(
        replayed_describe(session, query, &names, None),
        (listed.to_vec(), owned([("describe", -1)]))
    );
    assert_eq!(
        replayed_describe(session, query, &names, Some(Mutant::TruncatingDivision)),
        (
            [listed.as_slice(), &["describe".to_string()]].concat(),
            owned([("describe", 2)])
        )
    );
}

/// I3's second replay shares nothing mutable with the first
/// that could hide nondeterminism. With admission made to depend on a
/// counter (the `nondeterministic` mutant, for this thread and this
/// closure only), what `check` does to a session — replay it, then check
/// the invariants — reports I3 on the first admitted tool's line; the
/// same session passes without the mutant.
#[test]
fn nondeterministic_admission_breaks_i3() {
    let session = parse(include_bytes!(
        "../../../corpora/realistic/coding_agent_work_session.jsonl"
    ))
    .expect("a shipped session parses");
    assert_eq!(check(&session, &replay(&session)), []);
    let breaches = Mutant::Nondeterministic.plant(|| {
        let replayed = replay(&session);
        check(&session, &replayed)
    });
    let first_tool = session
        .ops()
        .iter()
        .find(|op| matches!(op.kind, OpKind::Tool { admitted: true, .. }))
        .map(|op| op.line);
    assert_eq!(
        breaches
            .iter()
            .map(|b| (b.invariant, Some(b.line)))
            .collect::<Vec<_>>(),
        [("I3", first_tool)],
        "{breaches:?}"
    );
}

/// The sessions of `corpora/describe_v5/` that pin contract 5's rules
/// (their abouts hold the scores, worked out apart from the library):
/// each replays to its golden, and with the mutant that breaks its rule
/// planted it does not.
#[test]
fn the_contract_5_sessions_fail_with_the_mutant_of_their_rule() {
    let cases: [(Mutant, &[u8], &[u8]); 4] = [
        (
            Mutant::NoCjkSplit,
            include_bytes!(
                "../../../corpora/describe_v5/a_chinese_query_finds_a_chinese_description.jsonl"
            ),
            include_bytes!(
                "../../../golden/describe_v5/a_chinese_query_finds_a_chinese_description.txt"
            ),
        ),
        (
            Mutant::CjkVectors,
            include_bytes!(
                "../../../corpora/describe_v5/a_query_of_cjk_words_alone_has_no_cosine.jsonl"
            ),
            include_bytes!(
                "../../../golden/describe_v5/a_query_of_cjk_words_alone_has_no_cosine.txt"
            ),
        ),
        (
            Mutant::UnscaledCosine,
            include_bytes!(
                "../../../corpora/describe_v5/a_mixed_query_counts_the_cosine_in_part.jsonl"
            ),
            include_bytes!(
                "../../../golden/describe_v5/a_mixed_query_counts_the_cosine_in_part.txt"
            ),
        ),
        (
            Mutant::CjkByPresence,
            include_bytes!(
                "../../../corpora/describe_v5/a_short_text_holding_a_pair_twice_outranks_a_long_one_holding_it_once.jsonl"
            ),
            include_bytes!(
                "../../../golden/describe_v5/a_short_text_holding_a_pair_twice_outranks_a_long_one_holding_it_once.txt"
            ),
        ),
    ];
    for (mutant, session, golden) in cases {
        let session = parse(session).expect("a shipped session parses");
        let transcript = || disclose_replay::transcript::encode(&replay(&session).steps);
        assert_eq!(transcript().as_bytes(), golden, "{}", mutant.name());
        let broken = mutant.plant(transcript);
        assert_ne!(broken.as_bytes(), golden, "{}", mutant.name());
    }
}
