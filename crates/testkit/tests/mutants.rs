//! The library's planted mutants (the `mutants` feature) change what the
//! shipped sessions show: each test here replays a shipped session with a
//! mutant planted and without, and pins both answers.
#![cfg(feature = "mutants")]

use disclose::record::OpKind;
use disclose_replay::invariants::check;
use disclose_replay::replay::{self, replay};
use disclose_replay::session::{self, parse};

/// What a shipped session's last describe lists (names only), and the
/// scores of `names`, replayed with `mutant` planted or without one.
fn replayed_describe(
    session: &[u8],
    query: &str,
    names: &[&str],
    mutant: Option<disclose::mutant::Mutant>,
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
        Some(mutant) => disclose::mutant::with(mutant, answer),
        None => answer(),
    }
}

fn owned<const N: usize>(pairs: [(&str, i128); N]) -> Vec<(String, i128)> {
    pairs.map(|(name, score)| (name.to_string(), score)).into()
}

/// The shipped session of "a negative cosine, where the floor matters"
/// (docs/decisions.md, "Two sessions pin the floored cosine"), the first
/// hit: describe's cosine, −12.56 on the 1024 scale, floors to −13
/// (score 998, a tie that crm__find_contact wins by name); truncated to
/// −12 it would score 1000 and lead. The scores were worked out apart
/// from the library, in exact integers from the spec (the session's
/// `about` has them).
#[test]
fn the_floor_decides_the_first_hit_of_the_shipped_session() {
    use disclose::mutant::Mutant::TruncatingDivision;
    let session = include_bytes!(
        "../../../corpora/describe_v3/negative_cosine_floor_decides_the_first_hit.jsonl"
    );
    let query = "family name for a birthday";
    let names = ["call", "crm__find_contact", "describe"];
    let listed = |first: &str, second: &str| {
        let rest = [
            "call",
            "mail__send_email",
            "chat__post_message",
            "stocks__quote",
        ];
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
            owned([("call", 972), ("crm__find_contact", 998), ("describe", 998)])
        )
    );
    assert_eq!(
        replayed_describe(session, query, &names, Some(TruncatingDivision)),
        (
            listed("describe", "crm__find_contact"),
            owned([
                ("call", 974),
                ("crm__find_contact", 998),
                ("describe", 1000)
            ])
        )
    );
}

/// The same, the `score > 0` cut: describe's keyword term is 256 and its
/// cosine −127.61, floored to −128, so it scores 0 and is not listed;
/// truncated to −127 it would score 2 and be listed third.
#[test]
fn the_floor_drops_a_candidate_of_the_shipped_session() {
    use disclose::mutant::Mutant::TruncatingDivision;
    let session = include_bytes!(
        "../../../corpora/describe_v3/negative_cosine_floor_drops_a_candidate.jsonl"
    );
    let query = "French hospital list";
    let names = ["describe", "github__list_pull_requests"];
    let listed = ["fs__list_directory", "github__list_pull_requests"].map(String::from);
    assert_eq!(
        replayed_describe(session, query, &names, None),
        (
            listed.to_vec(),
            owned([("describe", 0), ("github__list_pull_requests", 856)])
        )
    );
    assert_eq!(
        replayed_describe(session, query, &names, Some(TruncatingDivision)),
        (
            [listed.as_slice(), &["describe".to_string()]].concat(),
            owned([("describe", 2), ("github__list_pull_requests", 858)])
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
    use disclose::mutant::{self, Mutant};
    let session = parse(include_bytes!(
        "../../../corpora/realistic/coding_agent_work_session.jsonl"
    ))
    .expect("a shipped session parses");
    assert_eq!(check(&session, &replay(&session)), []);
    let breaches = mutant::with(Mutant::Nondeterministic, || {
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
