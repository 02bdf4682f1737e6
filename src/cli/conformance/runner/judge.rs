//! Judging one answer: first whether it is an answer to the case in flight
//! at all (the right case, one of the three answers, as many outputs as
//! ops, its schema with `--validate-protocol`), then its outputs framed
//! into a SPEC §12 transcript with the file's op lines and compared with
//! the golden exactly as the in-process `check` compares. It does not
//! decide whether the process is restarted: [`super::drive`] does, from
//! what this returns.

use disclose_replay::replay::{Outcome as StepOutcome, Step};
use disclose_replay::{golden, transcript};

use super::CaseOutcome;
use super::drive::InFlight;
use super::prepare::Prepared;
use super::process::{KEPT_MAX, Message, Process, Settings, Trouble, kept};
use crate::cli::conformance::protocol::{self, CaseAnswer};

/// What an answer came to before the golden is looked at.
pub(super) enum Answered {
    /// Outputs, one per op: to be framed and judged.
    Judge(Vec<String>),
    /// Already an outcome; `false`: the process broke the protocol and was
    /// killed.
    Settled(CaseOutcome, bool),
}

/// Reads the answer to the case in flight and checks it is an answer to
/// that case: everything but the golden comparison.
pub(super) fn answered(
    process: &mut Process,
    case: &str,
    flight: &InFlight,
    settings: &Settings,
) -> Answered {
    let message = match process.receive(flight.sent, settings) {
        Ok(message) => message,
        Err(trouble) => return Answered::Settled(CaseOutcome::Errored(trouble), false),
    };
    let broke = |process: &mut Process, what: String, message: &Message| {
        Answered::Settled(CaseOutcome::Errored(process.broke(what, message)), false)
    };
    if settings.validate
        && let Some(kind) = protocol::answer_kind(&message.value)
        && let Err(why) = kind.validate(&message.value)
    {
        return broke(process, format!("its answer {why}"), &message);
    }
    let (answered, answer) = match protocol::read_answer(&message.value) {
        Ok(answer) => answer,
        Err(why) => return broke(process, format!("its answer is wrong: {why}"), &message),
    };
    if answered != case {
        return broke(
            process,
            format!("it answered case \"{answered}\" to a run of case \"{case}\""),
            &message,
        );
    }
    let ops = flight.prepared.frame.len();
    match answer {
        CaseAnswer::Outputs(outputs) if outputs.len() != ops => broke(
            process,
            format!("it answered {} outputs to {ops} ops", outputs.len()),
            &message,
        ),
        CaseAnswer::Outputs(outputs) => Answered::Judge(outputs),
        CaseAnswer::Skipped(why) => Answered::Settled(CaseOutcome::Skipped(kept(&why)), true),
        // Its stderr now, before the next case is sent.
        CaseAnswer::Errored(why) => Answered::Settled(
            CaseOutcome::Errored(Trouble {
                what: format!("it answered errored: {}", kept(&why)),
                offending: None,
                stderr: process.stderr_now(),
            }),
            true,
        ),
    }
}

/// Frames the outputs into a transcript (SPEC §12) and compares it with
/// the golden exactly as the in-process `check` does.
pub(super) fn judge(prepared: &Prepared, outputs: Vec<String>) -> CaseOutcome {
    let steps: Vec<Step> = prepared
        .frame
        .iter()
        .zip(outputs)
        .map(|(&(line, op), output)| Step {
            line,
            op,
            output,
            outcome: StepOutcome::Done,
        })
        .collect();
    let text = transcript::encode(&steps);
    let Some(mismatch) = golden::compare(&prepared.golden, text.as_bytes()) else {
        return CaseOutcome::Pass;
    };
    let message = match &mismatch.undecodable {
        Some(why) => format!(
            "\"{}\" is not a well-formed transcript ({why}); the replay differs from it",
            prepared.golden_path.display()
        ),
        None => format!(
            "the transcript differs from \"{}\"",
            prepared.golden_path.display()
        ),
    };
    CaseOutcome::Fail {
        line: mismatch.block.as_ref().map(|b| b.line),
        op: mismatch.block.map(|b| b.op),
        message,
        diff: kept_diff(mismatch.diff),
    }
}

/// A diff cut after its last whole line within [`KEPT_MAX`] bytes, saying
/// how much was left out: an answer's output can be as long as a line may
/// be, and every report keeps its diff.
fn kept_diff(diff: String) -> String {
    if diff.len() <= KEPT_MAX {
        return diff;
    }
    let mut end = KEPT_MAX;
    while !diff.is_char_boundary(end) {
        end -= 1;
    }
    let end = diff[..end].rfind('\n').map_or(end, |at| at + 1);
    let mut cut = diff[..end].to_string();
    if !cut.ends_with('\n') {
        cut.push('\n');
    }
    cut.push_str(&format!(
        "… the diff is cut here: {} more bytes\n",
        diff.len() - end
    ));
    cut
}
