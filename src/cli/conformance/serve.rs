//! `disclose serve`: the `disclose` library behind the conformance protocol
//! (`docs/protocol.md`) on stdin and stdout, the reference implementation
//! that `disclose check --impl "disclose serve"` runs the corpus through.
//!
//! Each `run` is turned back into session text — a header line, then each
//! op object on its own line, as the very text the harness sent — and
//! handed to the same parser and replay as `disclose replay`, so serve can
//! only differ from the in-process check in how it is framed, never in what
//! it answers. The ops are parsed once, by the session parser: the message
//! is read with each op kept as raw text
//! ([`protocol::read_harness_message`]). It writes nothing to stderr unless
//! the harness breaks the protocol, which ends it with exit 2. It judges
//! nothing: whether its answers match the goldens is the runner's to say.

use std::io::{BufRead as _, Write as _};

use anyhow::{Context, Result, bail};
use disclose_replay::replay::replay;
use disclose_replay::session;
use serde_json::value::RawValue;

use super::protocol::{self, BadMessage, CaseAnswer, HarnessMessage, HelloReply, Implementation};
use crate::cli::Exit;

/// Runs `disclose serve` until `bye` or the end of stdin.
pub fn run() -> Result<Exit> {
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    // Reused for every run: a session's text and its answer are tens of
    // kilobytes, and asking the allocator for them anew, right after the
    // last run freed its session, costs more than the runs' small nodes.
    let (mut text, mut reply) = (String::new(), String::new());
    for number in 1.. {
        line.clear();
        let read = stdin
            .read_until(b'\n', &mut line)
            .context("failed to read stdin")?;
        if read == 0 {
            // The harness went away without `bye`: nothing left to answer.
            return Ok(Exit::Pass);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        reply.clear();
        match protocol::read_harness_message(&line) {
            Ok(HarnessMessage::Hello(version)) if version == protocol::PROTOCOL => {
                reply.push_str(&hello_reply());
            }
            Ok(HarnessMessage::Hello(version)) => bail!(
                "stdin line {number}: the harness speaks protocol {version}; this serves protocol {}",
                protocol::PROTOCOL
            ),
            Ok(HarnessMessage::Run { case, ops }) => {
                answer(&ops, &mut text).write_line(&case, &mut reply)
            }
            Ok(HarnessMessage::Bye) => return Ok(Exit::Pass),
            Err(BadMessage::NotJson(error)) => {
                return Err(anyhow::Error::new(error)
                    .context(format!("stdin line {number} is not a JSON message")));
            }
            Err(BadMessage::Wrong(why)) => bail!("stdin line {number}: {why}"),
        }
        // One message per line, flushed: the harness waits for each.
        stdout
            .write_all(reply.as_bytes())
            .and_then(|()| stdout.write_all(b"\n"))
            .and_then(|()| stdout.flush())
            .context("failed to write stdout")?;
    }
    Ok(Exit::Pass)
}

fn hello_reply() -> String {
    HelloReply {
        implementation: Implementation {
            name: "disclose".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            language: "rust".into(),
            homepage: None,
        },
        contract: vec![u64::from(disclose::CONTRACT_VERSION)],
    }
    .to_line()
}

/// The outputs of one case's ops, replayed from an empty catalog; ops that
/// do not make a well-formed session are `errored`, naming the op. The
/// session's text is written in `text`.
fn answer(ops: &[&RawValue], text: &mut String) -> CaseAnswer {
    const HEADER: &str = r#"{"op":"session","format":1,"about":"a conformance run"}"#;
    text.clear();
    text.reserve(HEADER.len() + 1 + ops.iter().map(|op| op.get().len() + 1).sum::<usize>());
    text.push_str(HEADER);
    text.push('\n');
    for op in ops {
        // The message was one line, so no op holds a raw newline: each op
        // is one session line.
        text.push_str(op.get());
        text.push('\n');
    }
    match session::parse(text.as_bytes()) {
        Ok(session) => CaseAnswer::Outputs(
            replay(&session)
                .steps
                .into_iter()
                .map(|step| step.output)
                .collect(),
        ),
        // Line 1 is the header written above; op i is on line i + 2.
        Err(error) => CaseAnswer::Errored(format!(
            "ops[{}] is not a well-formed op: {}",
            error.line.saturating_sub(2),
            error.message
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer to a run of `ops` (the text of the message's list).
    fn answer_to(ops: &str) -> CaseAnswer {
        let line = format!(r#"{{"cmd":"run","case":"s/c","ops":{ops}}}"#);
        let Ok(HarnessMessage::Run { ops, .. }) = protocol::read_harness_message(line.as_bytes())
        else {
            panic!("{line} is a run");
        };
        answer(&ops, &mut String::new())
    }

    #[test]
    fn ops_are_replayed_as_a_session() {
        assert_eq!(
            answer_to(r#"[{"op":"start","mode":"chat"}, {"op":"describe","name":"  "}]"#),
            CaseAnswer::Outputs(vec![
                "run started in chat mode at generation 0\n".into(),
                "refused E_INVALID_ARGS describe.query: the query is empty\n".into(),
            ])
        );
    }

    #[test]
    fn ops_keep_their_text_whitespace_and_all() {
        // `\r` and tabs between tokens are JSON whitespace; the op stays one
        // session line and parses as sent.
        assert_eq!(
            answer_to("[ {\"op\":\r\"start\",\t\"mode\" : \"work\"} ]"),
            CaseAnswer::Outputs(vec!["run started in work mode at generation 0\n".into()])
        );
    }

    #[test]
    fn a_malformed_op_is_errored_and_named() {
        let CaseAnswer::Errored(why) = answer_to(r#"[{"op":"start","mode":"chat"},{"op":"nap"}]"#)
        else {
            panic!("an unknown op is malformed");
        };
        assert!(why.starts_with("ops[1] is not a well-formed op: "), "{why}");
        let CaseAnswer::Errored(why) = answer_to("[7]") else {
            panic!("a number is not an op");
        };
        assert!(why.starts_with("ops[0] is not a well-formed op: "), "{why}");
    }
}
