//! The conformance protocol (`docs/protocol.md`): the messages `disclose
//! check --impl` and an implementation exchange, one JSON object per line,
//! and the JSON Schema each must match (`docs/protocol/*.schema.json`,
//! embedded here so the binary validates from any directory).
//!
//! Both sides of the conversation live in this crate — the harness in
//! `check/conformance/`, the reference implementation in `serve` — and both
//! read and write messages only through this module, so the two cannot
//! drift apart. It does no I/O.

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

/// The protocol version the harness speaks (`hello`'s `protocol`).
pub const PROTOCOL: u64 = 1;

/// A message kind, each with its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
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

impl Kind {
    /// Every kind, in the order of a conversation.
    pub const ALL: [Kind; 7] = [
        Kind::Hello,
        Kind::HelloReply,
        Kind::Run,
        Kind::Outputs,
        Kind::Skipped,
        Kind::Errored,
        Kind::Bye,
    ];

    /// The schema's file name under `docs/protocol/`.
    pub fn file(self) -> &'static str {
        match self {
            Kind::Hello => "hello.schema.json",
            Kind::HelloReply => "hello_reply.schema.json",
            Kind::Run => "run.schema.json",
            Kind::Outputs => "outputs.schema.json",
            Kind::Skipped => "skipped.schema.json",
            Kind::Errored => "errored.schema.json",
            Kind::Bye => "bye.schema.json",
        }
    }

    /// The schema's text, as shipped.
    pub fn schema(self) -> &'static str {
        match self {
            Kind::Hello => include_str!("../../docs/protocol/hello.schema.json"),
            Kind::HelloReply => include_str!("../../docs/protocol/hello_reply.schema.json"),
            Kind::Run => include_str!("../../docs/protocol/run.schema.json"),
            Kind::Outputs => include_str!("../../docs/protocol/outputs.schema.json"),
            Kind::Skipped => include_str!("../../docs/protocol/skipped.schema.json"),
            Kind::Errored => include_str!("../../docs/protocol/errored.schema.json"),
            Kind::Bye => include_str!("../../docs/protocol/bye.schema.json"),
        }
    }

    /// Checks `message` against this kind's schema: `Err` names the first
    /// place it breaks.
    pub fn validate(self, message: &Value) -> Result<(), String> {
        static COMPILED: OnceLock<Vec<Result<jsonschema::Validator, String>>> = OnceLock::new();
        let compiled = COMPILED.get_or_init(|| {
            Kind::ALL
                .iter()
                .map(|kind| {
                    let schema: Value = serde_json::from_str(kind.schema())
                        .map_err(|e| format!("{} is not JSON: {e}", kind.file()))?;
                    jsonschema::draft202012::new(&schema)
                        .map_err(|e| format!("{} does not compile: {e}", kind.file()))
                })
                .collect()
        });
        let index = Kind::ALL.iter().position(|k| *k == self).unwrap_or(0);
        let validator = match compiled.get(index) {
            Some(Ok(validator)) => validator,
            Some(Err(why)) => return Err(why.clone()),
            None => return Err(format!("{} is not compiled", self.file())),
        };
        match validator.iter_errors(message).next() {
            None => Ok(()),
            Some(error) => {
                let at = error.instance_path().to_string();
                let at = if at.is_empty() { "/".to_string() } else { at };
                Err(format!("breaks {} at \"{at}\": {error}", self.file()))
            }
        }
    }
}

/// `{"cmd":"hello","protocol":1}`.
pub fn hello() -> String {
    json!({"cmd": "hello", "protocol": PROTOCOL}).to_string()
}

/// `{"cmd":"bye"}`.
pub fn bye() -> String {
    json!({"cmd": "bye"}).to_string()
}

/// `{"cmd":"run","case":…,"ops":[…]}`, each op given as the JSON text of
/// one object (a session line, which already is one).
pub fn run(case: &str, ops: &[&str]) -> String {
    let mut out =
        String::with_capacity(32 + case.len() + ops.iter().map(|o| o.len() + 1).sum::<usize>());
    out.push_str(r#"{"cmd":"run","case":"#);
    out.push_str(&Value::from(case).to_string());
    out.push_str(r#","ops":["#);
    for (i, op) in ops.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(op);
    }
    out.push_str("]}");
    out
}

/// Who an implementation says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Implementation {
    /// Its name (`disclose`, `disclose-ts`).
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// Where to read about it.
    pub homepage: Option<String>,
}

/// The answer to `hello`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelloReply {
    /// Who it is.
    pub implementation: Implementation,
    /// Every contract version it follows.
    pub contract: Vec<u64>,
}

impl HelloReply {
    /// The reply as one message line.
    pub fn to_line(&self) -> String {
        let mut implementation = json!({
            "name": self.implementation.name,
            "version": self.implementation.version,
            "language": self.implementation.language,
        });
        if let (Some(homepage), Some(map)) = (
            &self.implementation.homepage,
            implementation.as_object_mut(),
        ) {
            map.insert("homepage".into(), json!(homepage));
        }
        json!({"implementation": implementation, "contract": self.contract}).to_string()
    }
}

/// Reads a hello reply. Fields the schema does not know are ignored here
/// (`--validate-protocol` refuses them).
pub fn hello_reply(message: &Value) -> Result<HelloReply, String> {
    let map = object(message, "a hello reply")?;
    let implementation = object(
        map.get("implementation")
            .ok_or("a hello reply needs \"implementation\"")?,
        "\"implementation\"",
    )?;
    let text = |key: &str, required: bool| -> Result<Option<String>, String> {
        match implementation.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
            None if !required => Ok(None),
            _ => Err(format!(
                "\"implementation\".\"{key}\" must be a non-empty string"
            )),
        }
    };
    let implementation = Implementation {
        name: text("name", true)?.unwrap_or_default(),
        version: text("version", true)?.unwrap_or_default(),
        language: text("language", true)?.unwrap_or_default(),
        homepage: text("homepage", false)?,
    };
    let contract = map
        .get("contract")
        .and_then(Value::as_array)
        .ok_or("a hello reply needs \"contract\", a list of contract versions")?
        .iter()
        .map(|v| {
            v.as_u64()
                .ok_or_else(|| format!("\"contract\" holds {v}, not a version number"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    Ok(HelloReply {
        implementation,
        contract,
    })
}

/// What an implementation answered to `run`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// One output per op.
    Outputs(Vec<String>),
    /// Not run, and why.
    Skipped(String),
    /// Could not be run, and why.
    Errored(String),
}

impl Answer {
    /// The schema an answer of this kind must match.
    #[cfg(test)]
    pub fn kind(&self) -> Kind {
        match self {
            Answer::Outputs(_) => Kind::Outputs,
            Answer::Skipped(_) => Kind::Skipped,
            Answer::Errored(_) => Kind::Errored,
        }
    }

    /// The answer for `case` as one message line.
    pub fn to_line(&self, case: &str) -> String {
        match self {
            Answer::Outputs(outputs) => json!({"case": case, "outputs": outputs}),
            Answer::Skipped(why) => json!({"case": case, "skipped": why}),
            Answer::Errored(why) => json!({"case": case, "errored": why}),
        }
        .to_string()
    }
}

/// Which of the three answers a message claims to be, by its keys; `None`
/// when it is none of them.
pub fn answer_kind(message: &Value) -> Option<Kind> {
    let map = message.as_object()?;
    [
        ("outputs", Kind::Outputs),
        ("skipped", Kind::Skipped),
        ("errored", Kind::Errored),
    ]
    .into_iter()
    .find(|(key, _)| map.contains_key(*key))
    .map(|(_, kind)| kind)
}

/// Reads an answer to `run`: its `case` and what it says. Exactly one of
/// `outputs`, `skipped` and `errored` must be there.
pub fn answer(message: &Value) -> Result<(String, Answer), String> {
    let map = object(message, "an answer")?;
    let case = match map.get("case") {
        Some(Value::String(case)) => case.clone(),
        Some(_) => return Err("\"case\" must be a string".into()),
        None => return Err("an answer needs \"case\"".into()),
    };
    let present: Vec<&str> = ["outputs", "skipped", "errored"]
        .into_iter()
        .filter(|k| map.contains_key(*k))
        .collect();
    let answer = match present.as_slice() {
        ["outputs"] => {
            let list = map
                .get("outputs")
                .and_then(Value::as_array)
                .ok_or("\"outputs\" must be a list of strings")?;
            let outputs = list
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<String>>>()
                .ok_or("\"outputs\" must be a list of strings")?;
            Answer::Outputs(outputs)
        }
        [key @ ("skipped" | "errored")] => {
            let why = map
                .get(*key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| format!("\"{key}\" must be a non-empty string"))?
                .to_string();
            if *key == "skipped" {
                Answer::Skipped(why)
            } else {
                Answer::Errored(why)
            }
        }
        [] => {
            return Err(
                "it is not one of the three answers: it has none of \"outputs\", \"skipped\", \"errored\"".into(),
            );
        }
        _ => {
            return Err(format!(
                "it is not one of the three answers: it has {}",
                present
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        }
    };
    Ok((case, answer))
}

/// A message from the harness, as an implementation reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `hello`, with the protocol version.
    Hello(u64),
    /// `run`: a case and its ops.
    Run {
        /// The case id.
        case: String,
        /// The op objects.
        ops: Vec<Value>,
    },
    /// `bye`.
    Bye,
}

/// Reads a harness message.
pub fn request(message: Value) -> Result<Request, String> {
    let Value::Object(mut map) = message else {
        return Err("a message must be a JSON object".into());
    };
    let cmd = match map.get("cmd") {
        Some(Value::String(cmd)) => cmd.clone(),
        _ => return Err("a message needs \"cmd\", a string".into()),
    };
    match cmd.as_str() {
        "hello" => map
            .get("protocol")
            .and_then(Value::as_u64)
            .map(Request::Hello)
            .ok_or_else(|| "hello needs \"protocol\", a number".into()),
        "run" => {
            let case = match map.remove("case") {
                Some(Value::String(case)) => case,
                _ => return Err("run needs \"case\", a string".into()),
            };
            match map.remove("ops") {
                Some(Value::Array(ops)) => Ok(Request::Run { case, ops }),
                _ => Err("run needs \"ops\", a list".into()),
            }
        }
        "bye" => Ok(Request::Bye),
        other => Err(format!("unknown cmd \"{other}\"")),
    }
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{what} must be a JSON object"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(line: &str) -> Value {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn every_schema_compiles_and_the_harness_messages_match_theirs() {
        for kind in Kind::ALL {
            // A schema that does not compile answers every message with Err.
            let _ = kind.validate(&json!({}));
        }
        assert_eq!(Kind::Hello.validate(&parsed(&hello())), Ok(()));
        assert_eq!(Kind::Bye.validate(&parsed(&bye())), Ok(()));
        let run = run(
            "suite/a b",
            &[r#"{"op":"start","mode":"chat"}"#, r#"{"op":"render"}"#],
        );
        assert_eq!(
            run,
            r#"{"cmd":"run","case":"suite/a b","ops":[{"op":"start","mode":"chat"},{"op":"render"}]}"#
        );
        assert_eq!(Kind::Run.validate(&parsed(&run)), Ok(()));
        assert_eq!(
            request(parsed(&run)),
            Ok(Request::Run {
                case: "suite/a b".into(),
                ops: vec![json!({"op":"start","mode":"chat"}), json!({"op":"render"})]
            })
        );
    }

    #[test]
    fn schemas_refuse_what_the_protocol_does_not_say() {
        let header =
            json!({"cmd":"run","case":"x","ops":[{"op":"session","format":1,"about":"h"}]});
        assert!(
            Kind::Run
                .validate(&header)
                .unwrap_err()
                .contains("/ops/0/op")
        );
        let extra = json!({"case":"x","outputs":[],"elapsed":3});
        assert!(Kind::Outputs.validate(&extra).is_err());
        let not_strings = json!({"case":"x","outputs":[1]});
        assert!(
            Kind::Outputs
                .validate(&not_strings)
                .unwrap_err()
                .contains("/outputs/0")
        );
        let no_language = json!({"implementation":{"name":"x","version":"1"},"contract":[2]});
        assert!(Kind::HelloReply.validate(&no_language).is_err());
        let empty_contract =
            json!({"implementation":{"name":"x","version":"1","language":"c"},"contract":[]});
        assert!(Kind::HelloReply.validate(&empty_contract).is_err());
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
        assert_eq!(Kind::HelloReply.validate(&line), Ok(()));
        assert_eq!(hello_reply(&line), Ok(reply));
        for answer in [
            Answer::Outputs(vec!["a\n".into(), String::new()]),
            Answer::Skipped("not yet".into()),
            Answer::Errored("boom".into()),
        ] {
            let line = parsed(&answer.to_line("s/c"));
            assert_eq!(answer.kind().validate(&line), Ok(()));
            assert_eq!(answer_kind(&line), Some(answer.kind()));
            assert_eq!(super::answer(&line), Ok(("s/c".to_string(), answer)));
        }
    }

    #[test]
    fn an_answer_must_be_exactly_one_of_the_three() {
        let none = json!({"case":"x","result":"ok"});
        assert!(
            answer(&none)
                .unwrap_err()
                .contains("not one of the three answers")
        );
        let two = json!({"case":"x","outputs":[],"skipped":"y"});
        assert_eq!(
            answer(&two).unwrap_err(),
            "it is not one of the three answers: it has \"outputs\" and \"skipped\""
        );
        assert!(
            answer(&json!({"outputs":[]}))
                .unwrap_err()
                .contains("\"case\"")
        );
        assert!(answer(&json!([1])).is_err());
        assert!(answer(&json!({"case":"x","outputs":["a",2]})).is_err());
    }
}
