//! The reports the format modules' tests render: two implementations over
//! five cases with every verdict once ([`report`]), the same with a third
//! that never started and a partition ([`report_with_one_unstarted`]), and
//! one implementation passing everything ([`passing`]).

use std::path::PathBuf;

use super::super::expect::{ExpectKind, Expectation, Expectations};
use super::super::protocol::{HelloReply, Implementation};
use super::super::runner::process::Trouble;
use super::{CaseOutcome, ImplRun, MatrixReport};

fn hello(name: &str) -> Option<HelloReply> {
    Some(HelloReply {
        implementation: Implementation {
            name: name.into(),
            version: "1.2.0".into(),
            language: "typescript".into(),
            homepage: None,
        },
        contract: vec![2],
    })
}

fn run(
    id: &str,
    outcomes: Vec<CaseOutcome>,
    expectations: &[(&str, ExpectKind, &str, usize)],
) -> ImplRun {
    let mut expect = Expectations {
        file: Some(PathBuf::from("expect.jsonl")),
        entries: Default::default(),
    };
    for (case, kind, why, line) in expectations {
        expect.entries.insert(
            case.to_string(),
            Expectation {
                expect: *kind,
                why: why.to_string(),
                line: *line,
            },
        );
    }
    ImplRun {
        command: format!("./{id}"),
        id: id.into(),
        hello: hello(id),
        problem: None,
        expectations: expect,
        outcomes,
        stale: Vec::new(),
        warnings: Vec::new(),
        restarts: 0,
        unstartable: false,
    }
}

/// Two implementations over five cases: every verdict once.
pub fn report() -> MatrixReport {
    let cases = ["a/fine", "a/hint|cut", "b/broken", "b/crash", "b/skip"];
    let corpus =
        CaseOutcome::Corpus("corpora/b/broken.jsonl:2:1: op \"render\" needs a started run".into());
    let reference = run(
        "disclose",
        vec![
            CaseOutcome::Pass,
            CaseOutcome::Pass,
            corpus.clone(),
            CaseOutcome::Pass,
            CaseOutcome::Pass,
        ],
        &[],
    );
    let mut port = run(
        "port-ts",
        vec![
            CaseOutcome::Pass,
            CaseOutcome::Fail {
                line: Some(4),
                op: Some("render".into()),
                message: "the transcript differs from \"golden/a/hint|cut.txt\"".into(),
                diff: disclose_replay::golden::unified(
                    b"=== 4 render 10\n- x: a\tb\n",
                    b"=== 4 render 10\n- x: a b \n",
                    "golden",
                    "replay",
                ),
            },
            corpus,
            CaseOutcome::Errored(Trouble {
                what: "it closed stdout without answering; it exited with status 1".into(),
                offending: None,
                stderr: vec![
                    "TypeError: undefined is not a function".into(),
                    "    at pack (index.ts:40)".into(),
                ],
            }),
            CaseOutcome::Skipped("no carried skills yet".into()),
        ],
        &[
            ("a/fine", ExpectKind::Fail, "was broken", 3),
            ("b/skip", ExpectKind::Skip, "no carried skills yet", 1),
        ],
    );
    port.stale = vec![(
        "a/renamed".into(),
        Expectation {
            expect: ExpectKind::Fail,
            why: "old name".into(),
            line: 2,
        },
    )];
    MatrixReport {
        cases: cases
            .iter()
            .map(|c| (c.to_string(), format!("corpora/{c}.jsonl")))
            .collect(),
        runs: vec![reference, port],
        corpus: "corpora".into(),
        golden: "golden".into(),
        partition: None,
    }
}

/// [`report`] with a third implementation that never started, and a
/// partition: every line a report can hold about a run that did not run.
pub fn report_with_one_unstarted() -> MatrixReport {
    let mut report = report();
    let cases = report.cases.len();
    let mut gone = run("gone", vec![CaseOutcome::NotRun; cases], &[]);
    gone.hello = None;
    gone.expectations.file = None;
    gone.problem = Some("could not start \"./gone\": No such file or directory (os error 2); none of its cases were run".into());
    gone.unstartable = true;
    report.runs.push(gone);
    report.partition = Some("hash:2/3".into());
    report
}

pub fn passing() -> MatrixReport {
    let mut report = report();
    report.runs.truncate(1);
    report.runs[0].outcomes = vec![CaseOutcome::Pass; report.cases.len()];
    report
}
