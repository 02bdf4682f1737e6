//! The conformance protocol (`docs/protocol.md`): the messages `disclose
//! check --impl` and an implementation exchange, one JSON object per line,
//! and the JSON Schema each must match (`docs/protocol/*.schema.json`,
//! embedded here so the binary validates from any directory).
//!
//! Both sides of the conversation live in this crate — the harness in
//! [`super::runner`], the reference implementation in [`super::serve`] —
//! and both read and write messages only through this module, so the two
//! cannot drift apart: [`hello`] (`hello`, its reply and `bye`), [`run`]
//! (`run` and its three answers) and [`harness_message`] (every harness
//! message as `serve` reads it, in one strict pass). This module holds the
//! message kinds and their schemas. It does no I/O, and it judges nothing:
//! what an answer means for a case is the runner's.

mod harness_message;
mod hello;
mod run;
mod schema;

use std::sync::OnceLock;

use serde_json::{Map, Value};

pub use harness_message::{BadMessage, HarnessMessage, read_harness_message};
pub use hello::{HelloReply, Implementation, bye_message, hello_message, read_hello_reply};
pub use run::{CaseAnswer, answer_kind, read_answer, run_message};

/// The protocol version the harness speaks (`hello`'s `protocol`).
pub const PROTOCOL: u64 = 1;

/// A message kind, each with its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MessageKind {
    /// harness → implementation: `{"cmd":"hello","protocol":1}`.
    Hello,
    /// implementation → harness: who it is, which contracts it follows.
    HelloReply,
    /// harness → implementation: one case.
    Run,
    /// implementation → harness: the case's outputs.
    Outputs,
    /// implementation → harness: the case was skipped.
    Skipped,
    /// implementation → harness: the case could not be run.
    Errored,
    /// harness → implementation: the end.
    Bye,
}

impl MessageKind {
    /// Every kind, in the order of a conversation.
    pub const ALL: [MessageKind; 7] = [
        MessageKind::Hello,
        MessageKind::HelloReply,
        MessageKind::Run,
        MessageKind::Outputs,
        MessageKind::Skipped,
        MessageKind::Errored,
        MessageKind::Bye,
    ];

    /// The schema's file name under `docs/protocol/`.
    pub fn file(self) -> &'static str {
        match self {
            MessageKind::Hello => "hello.schema.json",
            MessageKind::HelloReply => "hello_reply.schema.json",
            MessageKind::Run => "run.schema.json",
            MessageKind::Outputs => "outputs.schema.json",
            MessageKind::Skipped => "skipped.schema.json",
            MessageKind::Errored => "errored.schema.json",
            MessageKind::Bye => "bye.schema.json",
        }
    }

    /// The schema's text, as shipped.
    pub fn schema(self) -> &'static str {
        match self {
            MessageKind::Hello => include_str!("../../../../docs/protocol/hello.schema.json"),
            MessageKind::HelloReply => {
                include_str!("../../../../docs/protocol/hello_reply.schema.json")
            }
            MessageKind::Run => include_str!("../../../../docs/protocol/run.schema.json"),
            MessageKind::Outputs => include_str!("../../../../docs/protocol/outputs.schema.json"),
            MessageKind::Skipped => include_str!("../../../../docs/protocol/skipped.schema.json"),
            MessageKind::Errored => include_str!("../../../../docs/protocol/errored.schema.json"),
            MessageKind::Bye => include_str!("../../../../docs/protocol/bye.schema.json"),
        }
    }

    /// Checks `message` against this kind's schema: `Err` names the first
    /// place it breaks.
    pub fn validate(self, message: &Value) -> Result<(), String> {
        static PARSED: OnceLock<Vec<Result<Value, String>>> = OnceLock::new();
        let parsed = PARSED.get_or_init(|| {
            MessageKind::ALL
                .iter()
                .map(|kind| {
                    let schema: Value = serde_json::from_str(kind.schema())
                        .map_err(|e| format!("{} is not JSON: {e}", kind.file()))?;
                    schema::compile(&schema)
                        .map_err(|why| format!("{} is not checked: {why}", kind.file()))?;
                    Ok(schema)
                })
                .collect()
        });
        let index = MessageKind::ALL
            .iter()
            .position(|k| *k == self)
            .unwrap_or(0);
        let schema = match parsed.get(index) {
            Some(Ok(schema)) => schema,
            Some(Err(why)) => return Err(why.clone()),
            None => return Err(format!("{} is not read", self.file())),
        };
        schema::check(schema, message).map_err(|breach| {
            format!(
                "breaks {} at \"{}\": {}",
                self.file(),
                breach.at,
                breach.why
            )
        })
    }
}

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes
/// it everywhere else in the protocol (SPEC §10's string form), without an
/// intermediate string.
fn push_string(out: &mut String, text: &str) {
    disclose::internals::canonical::write_string(out, text);
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{what} must be a JSON object"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parsed(line: &str) -> Value {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn every_schema_compiles_and_the_harness_messages_match_theirs() {
        for kind in MessageKind::ALL {
            // A schema that does not compile answers every message with Err.
            let _ = kind.validate(&json!({}));
        }
        assert_eq!(
            MessageKind::Hello.validate(&parsed(&hello_message())),
            Ok(())
        );
        assert_eq!(MessageKind::Bye.validate(&parsed(&bye_message())), Ok(()));
        let run = run_message(
            "suite/a b",
            &[r#"{"op":"start","mode":"chat"}"#, r#"{"op":"render"}"#],
        );
        assert_eq!(
            run,
            r#"{"cmd":"run","case":"suite/a b","ops":[{"op":"start","mode":"chat"},{"op":"render"}]}"#
        );
        assert_eq!(MessageKind::Run.validate(&parsed(&run)), Ok(()));
        let Ok(HarnessMessage::Run { case, ops }) = read_harness_message(run.as_bytes()) else {
            panic!("a run is read as a run");
        };
        assert_eq!(case, "suite/a b");
        let ops: Vec<&str> = ops.iter().map(|op| op.get()).collect();
        assert_eq!(
            ops,
            [r#"{"op":"start","mode":"chat"}"#, r#"{"op":"render"}"#]
        );
    }

    #[test]
    fn schemas_refuse_what_the_protocol_does_not_say() {
        let header =
            json!({"cmd":"run","case":"x","ops":[{"op":"session","format":1,"about":"h"}]});
        assert!(
            MessageKind::Run
                .validate(&header)
                .unwrap_err()
                .contains("/ops/0/op")
        );
        let extra = json!({"case":"x","outputs":[],"elapsed":3});
        assert!(MessageKind::Outputs.validate(&extra).is_err());
        let not_strings = json!({"case":"x","outputs":[1]});
        assert!(
            MessageKind::Outputs
                .validate(&not_strings)
                .unwrap_err()
                .contains("/outputs/0")
        );
        let no_language = json!({"implementation":{"name":"x","version":"1"},"contract":[2]});
        assert!(MessageKind::HelloReply.validate(&no_language).is_err());
        let empty_contract =
            json!({"implementation":{"name":"x","version":"1","language":"c"},"contract":[]});
        assert!(MessageKind::HelloReply.validate(&empty_contract).is_err());
    }

    #[test]
    fn replies_and_answers_round_trip_through_their_schemas() {
        let reply = HelloReply {
            implementation: Implementation {
                name: "disclose".into(),
                version: "0.1.0".into(),
                language: "rust".into(),
                homepage: Some("https://example.org".into()),
            },
            contract: vec![2],
        };
        let line = parsed(&reply.to_line());
        assert_eq!(MessageKind::HelloReply.validate(&line), Ok(()));
        assert_eq!(read_hello_reply(&line), Ok(reply));
        for answer in [
            CaseAnswer::Outputs(vec!["a\n".into(), String::new()]),
            CaseAnswer::Skipped("not yet".into()),
            CaseAnswer::Errored("boom".into()),
        ] {
            let line = parsed(&answer.to_line("s/c"));
            assert_eq!(answer.kind().validate(&line), Ok(()));
            assert_eq!(answer_kind(&line), Some(answer.kind()));
            assert_eq!(read_answer(&line), Ok(("s/c".to_string(), answer)));
        }
    }
}
