//! `disclose serve`: this crate's library behind the conformance protocol
//! (`docs/protocol.md`) on stdin and stdout, the reference implementation
//! that `disclose check --impl "disclose serve"` runs the corpus through.
//!
//! Each `run` is turned back into session text — a header line, then each
//! op object on its own line — and handed to the same parser and replay as
//! `disclose replay`, so serve can only differ from the in-process check in
//! how it is framed, never in what it answers. It writes nothing to stderr
//! unless the harness breaks the protocol, which ends it with exit 2.

use std::io::{BufRead as _, Write as _};

use anyhow::{Context, Result, bail};
use disclose::replay::replay;
use disclose::session;
use serde_json::Value;

use super::Exit;
use super::protocol::{self, Answer, HelloReply, Implementation, Request};

/// Runs `disclose serve` until `bye` or the end of stdin.
pub fn run() -> Result<Exit> {
    let mut stdin = std::io::stdin().lock();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
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
        let message: Value = serde_json::from_slice(&line)
            .with_context(|| format!("stdin line {number} is not a JSON message"))?;
        let reply = match protocol::request(message) {
            Ok(Request::Hello(version)) if version == protocol::PROTOCOL => hello_reply(),
            Ok(Request::Hello(version)) => bail!(
                "stdin line {number}: the harness speaks protocol {version}; this serves protocol {}",
                protocol::PROTOCOL
            ),
            Ok(Request::Run { case, ops }) => answer(&ops).to_line(&case),
            Ok(Request::Bye) => return Ok(Exit::Pass),
            Err(why) => bail!("stdin line {number}: {why}"),
        };
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
/// do not make a well-formed session are `errored`, naming the op.
fn answer(ops: &[Value]) -> Answer {
    let mut text = String::from(r#"{"op":"session","format":1,"about":"a conformance run"}"#);
    text.push('\n');
    for op in ops {
        // Compact JSON never holds a raw newline, so each op is one line.
        text.push_str(&op.to_string());
        text.push('\n');
    }
    match session::parse(text.as_bytes()) {
        Ok(session) => Answer::Outputs(
            replay(&session)
                .steps
                .into_iter()
                .map(|step| step.output)
                .collect(),
        ),
        // Line 1 is the header written above; op i is on line i + 2.
        Err(error) => Answer::Errored(format!(
            "ops[{}] is not a well-formed op: {}",
            error.line.saturating_sub(2),
            error.message
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ops_are_replayed_as_a_session() {
        let ops = [
            json!({"op":"start","mode":"chat"}),
            json!({"op":"describe","name":"  "}),
        ];
        assert_eq!(
            answer(&ops),
            Answer::Outputs(vec![
                "run started in chat mode at generation 0\n".into(),
                "refused E_INVALID_ARGS describe.query: the query is empty\n".into(),
            ])
        );
    }

    #[test]
    fn a_malformed_op_is_errored_and_named() {
        let ops = [json!({"op":"render"})];
        let Answer::Errored(why) = answer(&ops) else {
            panic!("a query before start is malformed");
        };
        assert!(why.starts_with("ops[0] is not a well-formed op: "), "{why}");
    }
}
