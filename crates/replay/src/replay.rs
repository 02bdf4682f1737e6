//! Replay (SPEC §11–§12): a parsed session driven through the catalog, one
//! [`Step`] per op, each with the exact bytes the transcript records.
//!
//! The steps also keep what happened (a refusal, a routed call), so the
//! invariants of §13 read typed facts rather than re-parsing text. Pure: the
//! same session always gives the same steps.

use std::fmt::{self, Write as _};

use crate::session::{OpKind, Session};
use crate::transcript::MAGIC;
use disclose::Catalog;
use disclose::Refusal;
use disclose::Run;
use disclose::ToolCall;
use disclose::internals::canonical::canonical;
use disclose::internals::naming::mint;

/// What an op's step amounted to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The op answered; nothing was refused or routed.
    Done,
    /// The op was refused.
    Refused(Refusal),
    /// A call was routed (directly or through `call`) to this call.
    Routed(ToolCall),
}

/// One op's block of the transcript.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The op's 1-based line in the session file.
    pub line: usize,
    /// The op's name.
    pub op: &'static str,
    /// The op's output bytes.
    pub output: String,
    /// What happened.
    pub outcome: Outcome,
}

/// A replayed session: its steps, and the run as it ended (when it started).
#[derive(Clone, Debug)]
pub struct Replay {
    /// One per op, in order.
    pub steps: Vec<Step>,
    /// The run, when the session started one.
    pub run: Option<Run>,
}

/// The most bytes the harness lets one session's transcript (SPEC §12)
/// hold: 64 MiB. A session's own size bounds the work of each op, but not
/// how often an op repeats a large output (a thousand `describe`s of a
/// 5 MB guide would be 5 GB), so [`replay_within`] stops there and the
/// session is that session's error (`docs/decisions.md`, "Transcript and
/// golden limit").
pub const TRANSCRIPT_MAX_BYTES: usize = 64 << 20;

/// A replay whose transcript would pass its limit, stopped at the op that
/// passed it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooLarge {
    /// The op's 1-based line in the session file.
    pub line: usize,
    /// The op's name.
    pub op: &'static str,
    /// The limit, in bytes.
    pub limit: usize,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the transcript passes {} bytes at line {} ({}), the limit of a session's transcript; \
             the replay stopped there",
            self.limit, self.line, self.op
        )
    }
}

impl std::error::Error for TooLarge {}

/// Replays `session` from an empty catalog.
pub fn replay(session: &Session) -> Replay {
    drive(session, usize::MAX).0
}

/// Replays `session` from an empty catalog while its transcript stays
/// within `limit` bytes, counting the header and every block's frame as
/// [`crate::transcript::encode`] writes them; past it, stops and says where.
pub fn replay_within(session: &Session, limit: usize) -> Result<Replay, TooLarge> {
    match drive(session, limit) {
        (replay, None) => Ok(replay),
        (_, Some(too_large)) => Err(too_large),
    }
}

/// The replay, stopped at the first op that takes the transcript past
/// `limit` bytes (and that op's place).
fn drive(session: &Session, limit: usize) -> (Replay, Option<TooLarge>) {
    let mut state = State::Building(Catalog::new());
    let mut steps = Vec::with_capacity(session.ops().len());
    let mut bytes = MAGIC.len();
    let mut too_large = None;
    for op in session.ops() {
        let (output, outcome) = step(&mut state, &op.kind, None);
        let name = op.kind.name();
        bytes = bytes
            .saturating_add(frame_len(op.line, name, output.len()))
            .saturating_add(output.len());
        if bytes > limit {
            too_large = Some(TooLarge {
                line: op.line,
                op: name,
                limit,
            });
            break;
        }
        steps.push(Step {
            line: op.line,
            op: name,
            output,
            outcome,
        });
    }
    let replay = Replay {
        steps,
        run: state.into_run(),
    };
    (replay, too_large)
}

/// The length of a block's frame line, `=== <line> <op> <len>\n`.
fn frame_len(line: usize, op: &str, len: usize) -> usize {
    let digits = |n: usize| n.checked_ilog10().map_or(1, |d| d as usize + 1);
    "=== ".len() + digits(line) + 1 + op.len() + 1 + digits(len) + 1
}

/// Where a second, independent replay of a session first differs from
/// `replayed` (SPEC §13 I3): the index of the first step whose line, op or
/// bytes differ, and that step's bytes and op on the second replay; or the
/// second replay's step count when only the counts differ.
#[derive(Debug)]
pub(crate) enum Divergence {
    /// Step `at` differs; the second replay printed `output` for `op`.
    Step {
        at: usize,
        op: &'static str,
        output: String,
    },
    /// Every step both have agrees, but the second replay has `steps`.
    Count { steps: usize },
}

/// Replays `session` again from an empty catalog, comparing each step with
/// `replayed`'s as it is produced, and keeping none of them. It builds its
/// own catalog, run, index and answers; what it shares with the first
/// replay is the parsed session (immutable) and the process's memos of
/// pure per-schema facts (see `docs/decisions.md`, "I3 …").
pub(crate) fn diverges(session: &Session, replayed: &Replay) -> Option<Divergence> {
    let mut state = State::Building(Catalog::new());
    let ops = session.ops();
    for (at, op) in ops.iter().enumerate() {
        let (output, _) = step(&mut state, &op.kind, None);
        let same = replayed.steps.get(at).is_some_and(|first| {
            first.line == op.line && first.op == op.kind.name() && first.output == output
        });
        if !same {
            if at >= replayed.steps.len() {
                return Some(Divergence::Count { steps: ops.len() });
            }
            return Some(Divergence::Step {
                at,
                op: op.kind.name(),
                output,
            });
        }
    }
    (ops.len() != replayed.steps.len()).then_some(Divergence::Count { steps: ops.len() })
}

/// The `render` and `tool_defs` blocks, `(line, bytes)` in order, of a
/// replay of only the ops of `session` that `keep` selects (the re-replays
/// of SPEC §13 I4 and I7), without copying the session.
///
/// A tool declaration identical to one `prior` (the first replay's run)
/// admitted under the same minted name is admitted with that tool's
/// derived facts (canonical schema, digest, hint, fit plan: pure functions
/// of the declaration) instead of deriving them again; every admission check
/// and every catalog and run structure is still built anew, so what these
/// invariants test — which declarations reach the catalog, and what the run
/// prints from them — is replayed for real.
pub(crate) fn prefix_where(
    session: &Session,
    keep: impl Fn(&OpKind) -> bool,
    prior: Option<&Run>,
) -> Vec<(usize, String)> {
    let mut state = State::Building(Catalog::new());
    let mut printed = Vec::new();
    for op in session.ops().iter().filter(|op| keep(&op.kind)) {
        let (output, _) = step(&mut state, &op.kind, prior);
        if matches!(op.kind, OpKind::Render | OpKind::ToolDefs { .. }) {
            printed.push((op.line, output));
        }
    }
    printed
}

enum State {
    Building(Catalog),
    Started(Run),
}

impl State {
    fn into_run(self) -> Option<Run> {
        match self {
            State::Started(run) => Some(run),
            State::Building(_) => None,
        }
    }
}

fn refused(refusal: Refusal) -> (String, Outcome) {
    (refusal.to_lines(), Outcome::Refused(refusal))
}

fn done(output: String) -> (String, Outcome) {
    (output, Outcome::Done)
}

fn answer(result: Result<String, Refusal>) -> (String, Outcome) {
    result.map_or_else(refused, done)
}

fn short(hash: &str) -> &str {
    hash.get(..16).unwrap_or(hash)
}

fn step(state: &mut State, kind: &OpKind, prior: Option<&Run>) -> (String, Outcome) {
    match (state, kind) {
        (
            _,
            OpKind::Tool {
                decl,
                admitted: false,
            },
        ) => {
            // SPEC §0: an unadmitted capability never reaches the catalog.
            done(format!("unadmitted tool {}/{}\n", decl.origin, decl.name))
        }
        (State::Building(catalog), OpKind::Tool { decl, .. }) => {
            let admitted =
                match prior.and_then(|run| run.admitted_tool(&mint(&decl.origin, &decl.name))) {
                    Some(tool) => catalog.admit_tool_as(decl, tool),
                    None => catalog.admit_tool(decl),
                };
            // The line of every admitted tool, so written piece by piece
            // rather than through `format!`'s machinery.
            answer(admitted.map(|tool| {
                [
                    "admitted tool ",
                    tool.name(),
                    " (effect ",
                    tool.effect().as_str(),
                    ", approval ",
                    tool.approval().as_str(),
                    ", digest ",
                    short(tool.digest()),
                    ")\n",
                ]
                .concat()
            }))
        }
        (State::Building(catalog), OpKind::Skill(decl)) => {
            answer(catalog.admit_skill(decl).map(|skill| {
                let hash = skill
                    .hash()
                    .map_or("no hash".to_string(), |h| format!("hash {}", short(h)));
                format!("admitted skill {} (shelf, {hash})\n", skill.name())
            }))
        }
        (State::Building(catalog), OpKind::CarriedSkill(decl)) => {
            answer(catalog.admit_carried_skill(decl).map(|skill| {
                let hash = skill.hash().unwrap_or_default();
                format!(
                    "admitted skill {} (carried, hash {})\n",
                    skill.name(),
                    short(hash)
                )
            }))
        }
        (State::Started(run), OpKind::Tool { decl, .. }) => refused(run.admit_tool(decl)),
        (State::Started(run), OpKind::Skill(decl)) => refused(run.admit_skill(decl)),
        (State::Started(run), OpKind::CarriedSkill(decl)) => refused(run.admit_carried_skill(decl)),
        (State::Building(catalog), OpKind::Dev { text }) => {
            catalog.set_dev_line(text);
            done("dev line set\n".to_string())
        }
        (state @ State::Building(_), OpKind::Start { mode, profile }) => {
            let State::Building(catalog) =
                std::mem::replace(state, State::Building(Catalog::new()))
            else {
                return done(String::new());
            };
            let run = match profile {
                None => catalog.start(*mode),
                Some(profile) => catalog.start_child(*mode, *profile),
            };
            let child = profile.map_or(String::new(), |p| format!(" as a {p} child"));
            let line = format!(
                "run started in {mode} mode{child} at generation {}\n",
                run.generation()
            );
            *state = State::Started(run);
            done(line)
        }
        (State::Started(run), OpKind::Render) => done(run.render()),
        (State::Started(run), OpKind::ToolDefs { provider }) => {
            done(run.tool_defs_lines(*provider))
        }
        (State::Started(run), OpKind::Describe { name }) => answer(run.describe(name)),
        (State::Started(run), OpKind::Call(call)) => match run.call(call) {
            Ok(routed) => (
                format!(
                    "routed {} {} {}\n",
                    routed.id,
                    routed.name,
                    canonical(&routed.args)
                ),
                Outcome::Routed(routed),
            ),
            Err(refusal) => refused(refusal),
        },
        (State::Started(run), OpKind::SwitchMode { mode }) => done(run.switch_mode(*mode)),
        (State::Started(run), OpKind::Expand { name }) => answer(run.expand(name)),
        (State::Started(run), OpKind::Pins) => {
            done(run.skill_pins().iter().fold(String::new(), |mut out, pin| {
                let _ = writeln!(out, "{} {}", pin.name, pin.hash);
                out
            }))
        }
        (State::Started(run), OpKind::Digests) => done(run.digests().iter().fold(
            String::new(),
            |mut out, (name, digest)| {
                let _ = writeln!(out, "{name} {digest}");
                out
            },
        )),
        // `session::parse` rejects every other order (a query before
        // `start`, a second `start`, `dev` after `start`), and only it
        // builds a `Session`.
        (_, _) => done(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::encode;

    fn session(text: &str) -> Session {
        crate::session::parse(text.as_bytes()).expect("a well-formed session")
    }

    /// The limit counts exactly the bytes `encode` writes: a transcript of
    /// N bytes replays within N and not within N - 1, at the op that passes.
    #[test]
    fn the_limit_is_the_encoded_length() {
        let text = concat!(
            "{\"op\":\"session\",\"format\":1,\"about\":\"limit\"}\n",
            "{\"op\":\"tool\",\"origin\":\"host\",\"name\":\"t\",\"description\":\"Does a thing.\",\"input_schema\":{}}\n",
            "{\"op\":\"start\",\"mode\":\"work\"}\n",
            "{\"op\":\"render\"}\n",
            "{\"op\":\"describe\",\"name\":\"host__t\"}\n",
        );
        let session = session(text);
        let whole = encode(&replay(&session).steps).len();
        let within = replay_within(&session, whole).expect("within its own length");
        assert_eq!(encode(&within.steps).len(), whole);
        let err = replay_within(&session, whole - 1).expect_err("one byte short");
        assert_eq!((err.line, err.op, err.limit), (5, "describe", whole - 1));
        assert!(replay_within(&session, MAGIC.len()).is_err());
    }

    #[test]
    fn frame_len_counts_digits() {
        assert_eq!(frame_len(1, "render", 0), "=== 1 render 0\n".len());
        assert_eq!(frame_len(10, "call", 12345), "=== 10 call 12345\n".len());
    }
}
