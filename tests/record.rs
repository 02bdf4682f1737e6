//! The recorder through the public API: a live run recorded, parsed and
//! replayed gives every byte the model saw (tool lists, the segment, every
//! answer's text or refusal) and every call the host was asked to run; and a
//! writer that fails mid-record gives an error, never a panic, and never a
//! cut line that parses as an op.

use std::io::{self, Write};

use disclose::{Answer, Mode, Provider, RecordError, Recorder, Refusal, ToolCall, ToolDecl};
use disclose_replay::invariants;
use disclose_replay::replay::{Outcome, Step, replay};
use disclose_replay::session::{self, OpKind, Session};
use disclose_testkit::generate::session_plan;
use proptest::prelude::*;
use serde_json::json;

/// What the live run gave for one op: what the model saw, or the call the
/// host was asked to run.
#[derive(Debug, PartialEq)]
enum Live {
    /// An admission: the admitted name, or the refusal.
    Admitted(Result<String, Refusal>),
    /// Nothing to compare (`unadmitted`, `dev`, `start`).
    Nothing,
    /// Bytes the model saw.
    Text(String),
    /// An answer of `Run::answer`.
    Answer(Answer),
}

/// Drives a live recorded run through the ops of `session` as a runtime
/// would: declarations through the recorder, requests in a provider's shape,
/// and `describe` and `call` ops as model tool calls through `answer` (a
/// `describe` is sent directly or wrapped in `call`, by `wrap`).
fn drive<W: Write>(session: &Session, out: W, wrap: u64) -> (Vec<Live>, Result<W, RecordError>) {
    let mut lives = Vec::new();
    let mut recorder = Recorder::new(out, session.about());
    let ops = session.ops();
    let start = ops
        .iter()
        .position(|op| matches!(op.kind, OpKind::Start { .. }));
    for op in &ops[..start.unwrap_or(ops.len())] {
        let live = match &op.kind {
            OpKind::Tool {
                decl,
                admitted: false,
            } => {
                recorder.unadmitted_tool(decl);
                Live::Nothing
            }
            OpKind::Tool { decl, .. } => {
                Live::Admitted(recorder.admit_tool(decl).map(|t| t.name().to_string()))
            }
            OpKind::Skill(skill) => {
                Live::Admitted(recorder.admit_skill(skill).map(|s| s.name().to_string()))
            }
            OpKind::CarriedSkill(skill) => Live::Admitted(
                recorder
                    .admit_carried_skill(skill)
                    .map(|s| s.name().to_string()),
            ),
            OpKind::Dev { text } => {
                recorder.set_dev_line(text);
                Live::Nothing
            }
            other => panic!("the parser put {other:?} before start"),
        };
        lives.push(live);
    }
    let Some(start) = start else {
        return (lives, recorder.finish());
    };
    let mut run = match &ops[start].kind {
        OpKind::Start {
            mode,
            profile: Some(profile),
        } => recorder.start_child(*mode, *profile),
        OpKind::Start { mode, .. } => recorder.start(*mode),
        other => panic!("not a start: {other:?}"),
    };
    lives.push(Live::Nothing);
    for (i, op) in ops[start + 1..].iter().enumerate() {
        let live = match &op.kind {
            OpKind::Tool {
                decl,
                admitted: false,
            } => {
                run.unadmitted_tool(decl);
                Live::Nothing
            }
            OpKind::Tool { decl, .. } => Live::Admitted(Err(run.admit_tool(decl))),
            OpKind::Skill(skill) => Live::Admitted(Err(run.admit_skill(skill))),
            OpKind::CarriedSkill(skill) => Live::Admitted(Err(run.admit_carried_skill(skill))),
            OpKind::Render => Live::Text(run.render()),
            OpKind::ToolDefs { .. } => {
                // Every shape, in turn: the generators only write the default.
                Live::Text(run.tools_for(Provider::ALL[i % 3]).lines())
            }
            OpKind::Describe { name } => {
                let args = json!({ "name": name });
                let call = if (wrap >> (i % 64)) & 1 == 1 {
                    tool_call("call", json!({"name": "describe", "args": args}))
                } else {
                    tool_call("describe", args)
                };
                Live::Answer(run.answer(&call))
            }
            OpKind::Call(call) => Live::Answer(run.answer(call)),
            OpKind::SwitchMode { mode } => Live::Text(run.switch_mode(*mode)),
            OpKind::Expand { name } => {
                Live::Text(run.expand(name).unwrap_or_else(|r| r.to_lines()))
            }
            OpKind::Pins => Live::Text(
                run.skill_pins()
                    .iter()
                    .map(|p| format!("{} {}\n", p.name, p.hash))
                    .collect(),
            ),
            OpKind::Digests => Live::Text(
                run.digests()
                    .iter()
                    .map(|(name, digest)| format!("{name} {digest}\n"))
                    .collect(),
            ),
            other => panic!("the parser put {other:?} after start"),
        };
        lives.push(live);
    }
    (lives, run.finish())
}

fn tool_call(name: &str, args: serde_json::Value) -> ToolCall {
    ToolCall {
        id: "m1".to_string(),
        name: name.to_string(),
        args,
    }
}

/// The replayed step reproduces what the live run gave.
fn assert_reproduces(live: &Live, step: &Step) -> Result<(), TestCaseError> {
    match live {
        Live::Nothing => {}
        Live::Admitted(Ok(name)) => {
            prop_assert_eq!(&step.outcome, &Outcome::Done, "line {}", step.line);
            prop_assert!(step.output.contains(name.as_str()), "line {}", step.line);
        }
        Live::Admitted(Err(refusal)) => {
            prop_assert_eq!(&step.outcome, &Outcome::Refused(refusal.clone()));
            prop_assert_eq!(&step.output, &refusal.to_lines());
        }
        Live::Text(text) => prop_assert_eq!(&step.output, text, "line {}", step.line),
        Live::Answer(Answer::Text(text)) => {
            prop_assert_eq!(&step.output, text, "line {}", step.line);
            prop_assert_eq!(step.op, "describe");
        }
        Live::Answer(Answer::Refused(refusal)) => {
            prop_assert_eq!(&step.outcome, &Outcome::Refused(refusal.clone()));
            prop_assert_eq!(&step.output, &refusal.to_lines());
        }
        Live::Answer(Answer::Run(call)) => {
            prop_assert_eq!(
                &step.outcome,
                &Outcome::Routed(call.clone()),
                "line {}",
                step.line
            );
        }
        Live::Answer(other) => prop_assert!(false, "an answer this test does not know: {other:?}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// record → parse → replay reproduces every byte the model saw and every
    /// call the host was asked to run, and the recording passes SPEC §13.
    #[test]
    fn recording_replays_what_the_run_gave(mut plan in session_plan(), wrap in any::<u64>()) {
        plan.fault = None;
        let source = session::parse(plan.to_text().as_bytes()).expect("a plan without a fault parses");
        let (lives, recorded) = drive(&source, Vec::new(), wrap);
        let bytes = recorded.expect("a Vec never fails");

        let session = session::parse(&bytes).map_err(|e| TestCaseError::fail(format!("{e}\n{}", String::from_utf8_lossy(&bytes))))?;
        prop_assert_eq!(session.about(), source.about());
        let replayed = replay(&session);
        prop_assert_eq!(replayed.steps.len(), lives.len());
        for (live, step) in lives.iter().zip(&replayed.steps) {
            assert_reproduces(live, step)?;
        }
        prop_assert_eq!(invariants::check(&session, &replayed), vec![]);
    }
}

/// A writer that takes `budget` bytes, then fails every write (or, with
/// `flush_fails`, takes everything and fails every flush past the budget).
#[derive(Debug)]
struct Failing {
    taken: Vec<u8>,
    budget: usize,
    flush_fails: bool,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.flush_fails {
            self.taken.extend_from_slice(buf);
            return Ok(buf.len());
        }
        let room = self.budget - self.taken.len();
        if room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
        }
        let n = room.min(buf.len());
        self.taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.flush_fails && self.taken.len() > self.budget {
            return Err(io::Error::other("flush failed"));
        }
        Ok(())
    }
}

/// A fixed live run: header, declarations (one refused), start, a request,
/// and answers of every kind.
fn fixed_run<W: Write>(out: W) -> (Vec<String>, Result<W, RecordError>) {
    let mut seen = Vec::new();
    let mut recorder = Recorder::new(out, "a run whose writer fails");
    let read = ToolDecl::new("host", "read", "Read a file.", json!({"type": "object"}));
    let issue = ToolDecl::new(
        "github",
        "create_issue",
        "Open an issue.",
        json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}),
    );
    seen.push(format!(
        "{:?}",
        recorder.admit_tool(&read).map(|t| t.name().to_string())
    ));
    seen.push(format!(
        "{:?}",
        recorder.admit_tool(&issue).map(|t| t.name().to_string())
    ));
    seen.push(format!(
        "{:?}",
        recorder.admit_tool(&issue).map(|t| t.name().to_string())
    ));
    let mut run = recorder.start(Mode::Work);
    seen.push(run.tools_for(Provider::OpenAiChat).as_str().to_string());
    seen.push(run.render());
    for call in [
        tool_call("describe", json!({"name": "issue"})),
        tool_call("github__create_issue", json!({"title": "t"})),
        tool_call("call", json!({"name": "github__create_issue", "args": {}})),
        tool_call(
            "call",
            json!({"name": "github__create_issue", "args": {"title": "t"}}),
        ),
    ] {
        seen.push(format!("{:?}", run.answer(&call)));
    }
    (seen, run.finish())
}

/// Cut at every byte: an error naming the line that failed, nothing written
/// after it, the live answers unchanged, and the bytes either a parseable
/// prefix of the whole recording or refused at the cut line.
#[test]
fn a_writer_failing_at_any_byte_gives_an_error_and_no_valid_cut_line() {
    let (seen, whole) = fixed_run(Vec::new());
    let whole = whole.expect("a Vec never fails");
    let full = session::parse(&whole).expect("the whole recording parses");
    let line_of = |offset: usize| whole[..offset].iter().filter(|b| **b == b'\n').count() + 1;
    for budget in 0..whole.len() {
        let mut writer = Failing {
            taken: Vec::new(),
            budget,
            flush_fails: false,
        };
        let (seen_here, result) = fixed_run(&mut writer);
        assert_eq!(seen_here, seen, "the run goes on whatever the writer does");
        let Err(RecordError::Write { line, source, .. }) = result else {
            panic!("budget {budget}: no error");
        };
        assert_eq!(line, line_of(budget), "budget {budget}");
        assert_eq!(source.kind(), io::ErrorKind::StorageFull);
        // Nothing is written after the failure: the writer holds exactly the
        // first `budget` bytes.
        assert_eq!(writer.taken, whole[..budget], "budget {budget}");
        match session::parse(&writer.taken) {
            // Only a cut at the end of a line (its `\n` or not) parses, and
            // then as the ops before the cut, never as something else.
            Ok(cut) => {
                assert!(
                    budget == whole.len() || whole[budget - 1] == b'\n' || whole[budget] == b'\n'
                );
                assert_eq!(cut.ops(), &full.ops()[..cut.ops().len()], "budget {budget}");
            }
            Err(error) => assert_eq!(error.line, line, "budget {budget}: {error}"),
        }
    }
}

#[test]
fn a_failing_flush_is_an_error_too_and_stops_the_recording() {
    let (_, whole) = fixed_run(Vec::new());
    let whole = whole.expect("a Vec never fails");
    let budget = 200;
    let mut writer = Failing {
        taken: Vec::new(),
        budget,
        flush_fails: true,
    };
    let (_, result) = fixed_run(&mut writer);
    let error = result.expect_err("a flush failed");
    // The first line whose end passes the budget is handed over whole, its
    // flush fails, and nothing after it is written.
    let ends: Vec<usize> = (0..whole.len())
        .filter(|i| whole[*i] == b'\n')
        .map(|i| i + 1)
        .collect();
    let failing = ends
        .iter()
        .position(|end| *end > budget)
        .expect("the recording is longer");
    let op = session::parse(&whole).expect("parses").ops()[failing - 1]
        .kind
        .name();
    assert_eq!(
        error.to_string(),
        format!(
            "failed to record line {} (op \"{op}\"): flush failed; the recording stops before it",
            failing + 1
        )
    );
    assert_eq!(writer.taken.len(), ends[failing]);
}

/// Each kind of answer, recorded and replayed: the op written is the one
/// whose replay gives the model the same bytes.
#[test]
fn every_kind_of_answer_replays_as_given() {
    let mut recorder = Recorder::new(Vec::new(), "every kind of answer");
    let issue = ToolDecl::new(
        "github",
        "create_issue",
        "Open an issue.",
        json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}),
    );
    let edit = ToolDecl::new("host", "edit", "Edit a file.", json!({"type": "object"}));
    assert!(recorder.admit_tool(&issue).is_ok());
    assert!(recorder.admit_tool(&edit).is_ok());
    let mut run = recorder.start(Mode::Chat);
    let calls = [
        (
            tool_call("describe", json!({"name": "github__create_issue"})),
            "describe",
        ),
        (
            tool_call(
                "call",
                json!({"name": "describe", "args": {"name": " issue "}}),
            ),
            "describe",
        ),
        (tool_call("describe", json!({"name": " "})), "describe"),
        (tool_call("describe", json!({"query": "issue"})), "call"),
        (tool_call("describe", json!("issue")), "call"),
        (
            tool_call("github__create_issue", json!({"title": "t"})),
            "call",
        ),
        (
            tool_call("call", json!({"name": "github__create_issue", "args": {}})),
            "call",
        ),
        (
            tool_call(
                "call",
                json!({"name": "github__create_issue", "args": {"title": "t"}}),
            ),
            "call",
        ),
        (tool_call("edit", json!({})), "call"),
        (tool_call("nope", json!({})), "call"),
    ];
    let answers: Vec<Answer> = calls.iter().map(|(call, _)| run.answer(call)).collect();
    let bytes = run.finish().expect("a Vec never fails");
    let session = session::parse(&bytes).expect("parses");
    let replayed = replay(&session);
    let steps = &replayed.steps[3..];
    assert_eq!(steps.len(), calls.len());
    let codes: Vec<String> = answers
        .iter()
        .map(|a| match a {
            Answer::Text(_) => "text".to_string(),
            Answer::Run(call) => format!("run {}", call.name),
            Answer::Refused(r) => r.code().to_string(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        codes,
        [
            "text",
            "text",
            "describe.query",
            "call.misfit",
            "call.misfit",
            "call.not_offered",
            "call.misfit",
            "run github__create_issue",
            "gate.mode",
            "call.unknown",
        ]
    );
    for ((answer, step), (_, op)) in answers.iter().zip(steps).zip(&calls) {
        assert_eq!(step.op, *op);
        match answer {
            Answer::Text(text) => assert_eq!(&step.output, text),
            Answer::Refused(refusal) => {
                assert_eq!(step.outcome, Outcome::Refused(refusal.clone()));
                assert_eq!(step.output, refusal.to_lines());
            }
            Answer::Run(call) => assert_eq!(step.outcome, Outcome::Routed(call.clone())),
            other => panic!("{other:?}"),
        }
    }
}
