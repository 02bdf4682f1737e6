//! The reports the format modules' tests render: [`report`] of any cases,
//! one invariant breach ([`breached`]), and one case of every kind with
//! every failure kind once, a blessed golden, a deleted orphan, a kept
//! non-golden and a partition ([`every_kind`]).

use super::{Case, CaseFailure, CaseKind, CheckReport, FailureKind, RenderCost};

pub fn report(cases: Vec<Case>) -> CheckReport {
    CheckReport {
        cases,
        deleted: Vec::new(),
        kept: Vec::new(),
        bless_command: "BLESS".into(),
        corpus: "corpora".into(),
        golden: "golden".into(),
        partition: None,
    }
}

pub fn breached() -> Case {
    let mut case = Case::new(
        CaseKind::Session,
        "modes/switch",
        "corpora/modes/switch.jsonl",
    );
    case.failures.push(CaseFailure {
        kind: FailureKind::Invariant("I7"),
        line: Some(9),
        column: None,
        op: Some("render".into()),
        message: "the prefix bytes differ | on the re-replay".into(),
        diff: None,
    });
    case.renders = vec![
        RenderCost {
            line: 4,
            index_bytes: 1000,
        },
        RenderCost {
            line: 9,
            index_bytes: 1024,
        },
    ];
    case
}

/// One case of every kind, every failure kind once, a blessed golden,
/// a deleted orphan, a kept non-golden and a partition: what every
/// format of the report is pinned on, byte for byte.
pub fn every_kind() -> CheckReport {
    let mut blessed = Case::new(CaseKind::Session, "a/blessed", "corpora/a/blessed.jsonl");
    blessed.blessed = Some("wrote golden/a/blessed.txt".into());
    blessed.renders = vec![RenderCost {
        line: 3,
        index_bytes: 0,
    }];
    let mut mismatch = Case::new(CaseKind::Session, "a/hint|cut", "corpora/a/hint|cut.jsonl");
    mismatch.failures.push(CaseFailure {
        kind: FailureKind::Mismatch,
        line: Some(4),
        column: None,
        op: Some("render".into()),
        message: "the transcript differs from \"golden/a/hint|cut.txt\"".into(),
        diff: Some(disclose_replay::golden::unified(
            b"=== 4 render 10\n- x: a\tb\n",
            b"=== 4 render 10\n- x: a b \n",
            "golden",
            "replay",
        )),
    });
    mismatch.renders = vec![RenderCost {
        line: 4,
        index_bytes: 90,
    }];
    let mut malformed = Case::new(
        CaseKind::Session,
        "b/malformed",
        "corpora/b/malformed.jsonl",
    );
    malformed.failures.push(CaseFailure {
        kind: FailureKind::Malformed,
        line: Some(2),
        column: Some(1),
        op: None,
        message: "corpora/b/malformed.jsonl:2:1: op \"render\" needs a started run".into(),
        diff: None,
    });
    let mut limit = Case::new(CaseKind::Session, "b/huge", "corpora/b/huge.jsonl");
    limit.failures.push(CaseFailure {
        kind: FailureKind::Limit,
        line: Some(7),
        column: None,
        op: Some("tool_defs".into()),
        message: "the transcript would pass 64 MiB".into(),
        diff: None,
    });
    let mut reserved = Case::new(CaseKind::Session, "vocabulary", "corpora/vocabulary.jsonl");
    reserved.failures.push(CaseFailure::about_the_case(
        FailureKind::ReservedName,
        "its golden would be \"golden/vocabulary.txt\"".into(),
    ));
    let mut unblessed = Case::new(CaseKind::Session, "c/new", "corpora/c/new.jsonl");
    unblessed.failures.push(CaseFailure::about_the_case(
        FailureKind::NoGolden,
        "no golden \"golden/c/new.txt\"; bless it with `BLESS`".into(),
    ));
    let mut orphan = Case::new(CaseKind::Orphan, "c/gone", "golden/c/gone.txt");
    orphan.failures.push(CaseFailure::about_the_case(
        FailureKind::Orphan,
        "no session \"corpora/c/gone.jsonl\" has this golden; blessing deletes it".into(),
    ));
    let mut entry = Case::new(CaseKind::Entry, "c/loop", "corpora/c/loop");
    entry.failures.push(CaseFailure::about_the_case(
        FailureKind::Io,
        "\"corpora/c/loop\": a link loop".into(),
    ));
    let mut vocabulary = Case::new(CaseKind::Vocabulary, "vocabulary", "golden/vocabulary.txt");
    vocabulary.failures.push(CaseFailure {
        kind: FailureKind::Mismatch,
        line: None,
        column: None,
        op: None,
        message: "`disclose vocab` differs from \"golden/vocabulary.txt\"".into(),
        diff: Some(disclose_replay::golden::unified(
            b"E_A\n", b"E_B\n", "golden", "vocab",
        )),
    });
    CheckReport {
        cases: vec![
            blessed,
            mismatch,
            malformed,
            limit,
            reserved,
            breached(),
            unblessed,
            orphan,
            entry,
            vocabulary,
        ],
        deleted: vec!["golden/old.txt".into()],
        kept: vec!["golden/notes.txt".into()],
        bless_command: "BLESS".into(),
        corpus: "corpora".into(),
        golden: "golden".into(),
        partition: Some("hash:1/2".into()),
    }
}
