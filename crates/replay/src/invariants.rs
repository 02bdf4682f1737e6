//! The invariants checked on every replay (SPEC §13, I1–I8).
//!
//! Each reads the replay's bytes or typed facts and re-derives what must
//! hold, with the library's own functions where a rule is needed (`fit`, the
//! vocabulary). I2 reads the typed [`Outcome`]s, never text: a carried
//! skill's body or a guide may hold a line starting `refused ` that is no
//! refusal. I3, I4 and I7 are real re-replays of the session, not assertions
//! about the same bytes, and compare the number of blocks before their
//! bytes, so a missing or extra step is a breach.

use std::collections::BTreeSet;

use crate::replay::{Divergence, Outcome, Replay, diverges, prefix_where};
use crate::session::{OpKind, Session};
use disclose::internals::dormant::INDEX_HEADER;
use disclose::internals::fit::fit;
use disclose::{CALL, DORMANT_INDEX_CEILING};
use disclose::{Class, vocabulary};

/// An invariant that did not hold, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breach {
    /// `I1` … `I8`.
    pub invariant: &'static str,
    /// The op's line in the session (0 when it concerns the whole session).
    pub line: usize,
    /// What was seen.
    pub message: String,
}

/// Every invariant, with its one-line statement (for reports).
pub const INVARIANTS: [(&str, &str); 8] = [
    ("I1", "every dormant index is at most 1024 bytes"),
    ("I2", "every refusal code is in the vocabulary"),
    ("I3", "replaying twice gives identical bytes"),
    (
        "I4",
        "removing every admitted:false declaration changes no byte of render or tool_defs",
    ),
    ("I5", "no name is both in tool_defs and in the index"),
    (
        "I6",
        "every routed call keeps its id, names an admitted tool other than call, and its args fit",
    ),
    (
        "I7",
        "render and tool_defs after switch_mode equal those before",
    ),
    (
        "I8",
        "a call of an unadmitted name other than call is refused call.unknown",
    ),
];

/// Checks I1–I8 on `replayed`, the replay of `session`.
pub fn check(session: &Session, replayed: &Replay) -> Vec<Breach> {
    let mut breaches = Vec::new();
    let mut breach = |invariant, line, message: String| {
        breaches.push(Breach {
            invariant,
            line,
            message,
        })
    };

    // I1, I5: every render's index, read back from its bytes.
    let resident: BTreeSet<&str> = replayed
        .run
        .iter()
        .flat_map(|run| run.tool_defs().iter().map(|d| d.name()))
        .collect();
    for step in replayed.steps.iter().filter(|s| s.op == "render") {
        let index = index_of(&step.output);
        if index.len() > DORMANT_INDEX_CEILING {
            breach(
                "I1",
                step.line,
                format!("the dormant index is {} bytes", index.len()),
            );
        }
        for name in indexed_names(index) {
            if resident.contains(name) {
                breach(
                    "I5",
                    step.line,
                    format!("\"{name}\" is in tool_defs and in the index"),
                );
            }
        }
    }

    // I2: every refusal is a code of the vocabulary, with the vocabulary's
    // class, and its step prints exactly that refusal (SPEC §9).
    let known: BTreeSet<(&str, Class)> = vocabulary().iter().map(|v| (v.code, v.class)).collect();
    for step in &replayed.steps {
        let Outcome::Refused(refusal) = &step.outcome else {
            continue;
        };
        let (code, class) = (refusal.code(), refusal.class());
        if !known.contains(&(code, class)) {
            breach(
                "I2",
                step.line,
                format!("\"{class} {code}\" is not in the vocabulary"),
            );
        } else if step.output != refusal.to_lines() {
            breach(
                "I2",
                step.line,
                format!(
                    "the step prints {:?}, not the {code} refusal it answered",
                    step.output
                ),
            );
        }
    }

    // I3: determinism, block for block, and as many blocks: a second replay
    // that builds everything again, compared step by step as it goes.
    match diverges(session, replayed) {
        None => {}
        Some(Divergence::Count { steps }) => breach(
            "I3",
            0,
            format!(
                "a second replay gave {steps} steps instead of {}",
                replayed.steps.len()
            ),
        ),
        Some(Divergence::Step { at, op, output }) => {
            let first = &replayed.steps[at];
            breach(
                "I3",
                first.line,
                format!(
                    "a second replay gave {} bytes of {op} instead of {} bytes of {}",
                    output.len(),
                    first.output.len(),
                    first.op
                ),
            )
        }
    }

    // I4 and I7: a re-replay without the unadmitted declarations, or without
    // the mode switches, must print the same render and tool_defs bytes.
    let original: Vec<(usize, &str)> = replayed
        .steps
        .iter()
        .filter(|s| s.op == "render" || s.op == "tool_defs")
        .map(|s| (s.line, s.output.as_str()))
        .collect();
    let unadmitted = |k: &OpKind| {
        matches!(
            k,
            OpKind::Tool {
                admitted: false,
                ..
            }
        )
    };
    let switch = |k: &OpKind| matches!(k, OpKind::SwitchMode { .. });
    for (id, drop) in [
        ("I4", &unadmitted as &dyn Fn(&OpKind) -> bool),
        ("I7", &switch),
    ] {
        if !session.ops().iter().any(|op| drop(&op.kind)) {
            continue;
        }
        // Ops that print neither render nor tool_defs and change no state
        // (describe, call, expand, pins, digests) cannot move those bytes;
        // the re-replay leaves them out.
        let quiet = |k: &OpKind| {
            matches!(
                k,
                OpKind::Describe { .. }
                    | OpKind::Call(_)
                    | OpKind::Expand { .. }
                    | OpKind::Pins
                    | OpKind::Digests
            )
        };
        let other = prefix_where(session, |k| !drop(k) && !quiet(k), replayed.run.as_ref());
        if other.len() != original.len() {
            breach(
                id,
                0,
                format!(
                    "the re-replay printed {} render/tool_defs blocks instead of {}",
                    other.len(),
                    original.len()
                ),
            );
        } else if let Some(((line, _), _)) = original
            .iter()
            .zip(&other)
            .find(|((a_line, a), (b_line, b))| a_line != b_line || a.len() != b.len() || a != b)
        {
            breach(
                id,
                *line,
                "the prefix bytes differ on the re-replay".to_string(),
            );
        }
    }

    // I6 and I8: the call door, op by op.
    let Some(run) = &replayed.run else {
        return breaches;
    };
    for (op, step) in session.ops().iter().zip(&replayed.steps) {
        let OpKind::Call(call) = &op.kind else {
            continue;
        };
        let through_call = call.name == CALL;
        if let (true, Outcome::Routed(routed)) = (through_call, &step.outcome) {
            let tool = run.admitted_tool(&routed.name);
            if routed.id != call.id || routed.name == CALL || tool.is_none() {
                breach(
                    "I6",
                    op.line,
                    format!(
                        "the call was routed to \"{}\" with id \"{}\"",
                        routed.name, routed.id
                    ),
                );
            }
            if let Some(tool) = tool
                && fit(tool.input_schema(), &routed.args).is_err()
            {
                breach(
                    "I6",
                    op.line,
                    format!("the args routed to \"{}\" do not fit", routed.name),
                );
            }
        }
        let target = if through_call {
            call.args
                .as_object()
                .filter(|o| o.contains_key("args"))
                .and_then(|o| o.get("name")?.as_str())
        } else {
            Some(call.name.as_str())
        };
        if let Some(target) = target
            && target != CALL
            && run.admitted_tool(target).is_none()
            && !matches!(&step.outcome, Outcome::Refused(r) if r.code() == "call.unknown")
        {
            breach(
                "I8",
                op.line,
                format!("the unadmitted \"{target}\" was not refused call.unknown"),
            );
        }
    }
    breaches
}

/// The dormant index of a render's bytes: everything after the segment
/// header, the mode line and the optional dev line.
pub fn index_of(render: &str) -> &str {
    let mut rest = render;
    for (i, prefix) in ["## Capabilities\n", "mode: ", "dev: "]
        .into_iter()
        .enumerate()
    {
        if i < 2 || rest.starts_with(prefix) {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
        }
    }
    if rest.starts_with(INDEX_HEADER) {
        rest
    } else {
        ""
    }
}

/// The names an index lists (tools and skills alike).
fn indexed_names(index: &str) -> impl Iterator<Item = &str> {
    index.lines().skip(1).filter_map(|line| {
        let entry = line.strip_prefix("- ")?;
        let entry = entry.strip_prefix("skill ").unwrap_or(entry);
        Some(entry.split(':').next().unwrap_or(entry))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Step, replay};
    use crate::session::parse;

    fn session(lines: &[serde_json::Value]) -> Session {
        let mut text = String::from("{\"op\":\"session\",\"format\":1,\"about\":\"t\"}\n");
        for line in lines {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        parse(text.as_bytes()).expect("well formed")
    }

    fn ids(breaches: &[Breach]) -> Vec<&str> {
        breaches.iter().map(|b| b.invariant).collect()
    }

    /// A session whose outputs hold lines starting `refused ` that are not
    /// refusals: a carried skill's body and a tool's guide.
    fn refused_lines_in_text() -> Session {
        use serde_json::json;
        session(&[
            json!({"op": "carried_skill", "name": "triage", "disclosure": "Read refusals.",
                   "body": "# Triage\nrefused E_INVALID_ARGS call.unknown: no admitted tool is named \"x\"; nothing is admitted\nrefused by the reviewer: a line of prose\n"}),
            json!({"op": "tool", "origin": "host", "name": "deploy",
                   "description": "Deploys.\nrefused E_NOPE deploy.locked: the guide's own words",
                   "input_schema": {"type": "object"}}),
            json!({"op": "start", "mode": "chat"}),
            json!({"op": "expand", "name": "triage"}),
            json!({"op": "describe", "name": "deploy"}),
            json!({"op": "call", "id": "c", "name": "nope", "args": {}}),
        ])
    }

    #[test]
    fn refused_lines_in_a_body_or_a_guide_are_no_refusals() {
        let session = refused_lines_in_text();
        let replayed = replay(&session);
        assert!(
            replayed.steps[3]
                .output
                .contains("\nrefused by the reviewer: ")
        );
        assert!(
            replayed.steps[4]
                .output
                .contains("\nrefused E_NOPE deploy.locked: ")
        );
        assert_eq!(check(&session, &replayed), []);
    }

    #[test]
    fn a_refusal_printed_as_something_else_breaks_i2() {
        use serde_json::json;
        let session = session(&[
            json!({"op": "start", "mode": "chat"}),
            json!({"op": "call", "id": "c", "name": "nope", "args": {}}),
        ]);
        let mut replayed = replay(&session);
        assert_eq!(check(&session, &replayed), []);
        let call = replayed.steps.last_mut().expect("steps");
        assert!(matches!(call.outcome, Outcome::Refused(_)));
        call.output = "routed c nope {}\n".to_string();
        let breaches = check(&session, &replayed);
        assert_eq!(
            breaches
                .iter()
                .map(|b| (b.invariant, b.line))
                .collect::<Vec<_>>(),
            [("I2", 3), ("I3", 3)],
            "{breaches:?}"
        );
    }

    #[test]
    fn a_missing_or_extra_step_breaks_i3() {
        let session = refused_lines_in_text();
        let mut extra = replay(&session);
        extra.steps.push(Step {
            line: 99,
            op: "render",
            output: String::new(),
            outcome: Outcome::Done,
        });
        assert!(ids(&check(&session, &extra)).contains(&"I3"));
        let mut missing = replay(&session);
        missing.steps.pop();
        assert!(ids(&check(&session, &missing)).contains(&"I3"));
    }

    #[test]
    fn a_missing_or_extra_prefix_block_breaks_i4_and_i7() {
        use serde_json::json;
        let session = session(&[
            json!({"op": "tool", "origin": "host", "name": "gone", "description": "Gone.",
                   "input_schema": {"type": "object"}, "admitted": false}),
            json!({"op": "start", "mode": "chat"}),
            json!({"op": "render"}),
            json!({"op": "switch_mode", "mode": "work"}),
            json!({"op": "tool_defs"}),
        ]);
        let whole = replay(&session);
        assert_eq!(check(&session, &whole), []);
        let mut missing = whole.clone();
        missing.steps.retain(|s| s.op != "tool_defs");
        let mut extra = whole.clone();
        extra.steps.push(whole.steps[2].clone());
        for doctored in [missing, extra] {
            let breaches = check(&session, &doctored);
            let breaches = ids(&breaches);
            assert!(breaches.contains(&"I4"), "{breaches:?}");
            assert!(breaches.contains(&"I7"), "{breaches:?}");
        }
    }
}
