//! The conformance protocol (`docs/protocol.md`): the messages `disclose
//! check --impl` and an implementation exchange, one JSON object per line,
//! and the JSON Schema each must match (`docs/protocol/*.schema.json`,
//! embedded here so the binary validates from any directory).
//!
//! Both sides of the conversation live in this crate — the harness in
//! `check/conformance/`, the reference implementation in `serve` — and both
//! read and write messages only through this module, so the two cannot
//! drift apart. It does no I/O.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;

use disclose_replay::json::{self, JsonError, Strict};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
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
    push_string(&mut out, case);
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

    /// The answer for `case` as one message line (the tests read it).
    #[cfg(test)]
    pub fn to_line(&self, case: &str) -> String {
        let mut out = String::new();
        self.write_line(case, &mut out);
        out
    }

    /// The answer for `case` as one message line, appended to `out` (a
    /// server reuses one buffer for every answer).
    ///
    /// Written straight out, not built as a `Value` first (a copy of every
    /// output): the bytes are those of `json!({"case": …, <key>: …})`,
    /// keys in that order, each string escaped by serde_json.
    pub fn write_line(&self, case: &str, out: &mut String) {
        out.reserve(
            24 + case.len()
                + match self {
                    Answer::Outputs(outputs) => outputs.iter().map(|o| o.len() + 3).sum(),
                    Answer::Skipped(why) | Answer::Errored(why) => why.len(),
                },
        );
        out.push_str(r#"{"case":"#);
        push_string(out, case);
        match self {
            Answer::Outputs(outputs) => {
                out.push_str(r#","outputs":["#);
                for (i, output) in outputs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_string(out, output);
                }
                out.push(']');
            }
            Answer::Skipped(why) => {
                out.push_str(r#","skipped":"#);
                push_string(out, why);
            }
            Answer::Errored(why) => {
                out.push_str(r#","errored":"#);
                push_string(out, why);
            }
        }
        out.push('}');
    }
}

/// Appends `text` as a JSON string, escaped exactly as serde_json escapes
/// it everywhere else in the protocol (SPEC §10's string form), without an
/// intermediate string.
fn push_string(out: &mut String, text: &str) {
    disclose::internals::canonical::write_string(out, text);
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
#[derive(Clone, Debug)]
pub enum Request<'a> {
    /// `hello`, with the protocol version.
    Hello(u64),
    /// `run`: a case and its ops.
    Run {
        /// The case id.
        case: String,
        /// The op objects, each as the text it was sent as (parsed by the
        /// session parser, and only there).
        ops: Vec<&'a RawValue>,
    },
    /// `bye`.
    Bye,
}

/// Why a harness line is not a request.
#[derive(Debug)]
pub enum BadRequest {
    /// The line is not strict JSON (a key twice counts): why, and where.
    NotJson(JsonError),
    /// It is JSON, but not a message of the protocol; why.
    Wrong(String),
}

/// Reads a harness message from its line.
///
/// One strict pass (`disclose_replay::json`): a key twice anywhere outside the
/// ops makes the line not JSON; each op is kept as the text it was sent
/// as, so a run's ops reach the session parser as the bytes the harness
/// wrote, parsed once there (strictly too: an op with a key twice is a
/// malformed op, answered `errored`), instead of being built into `Value`s,
/// written out again and parsed a second time.
pub fn request(line: &[u8]) -> Result<Request<'_>, BadRequest> {
    let fields = match json::from_slice::<Fields<'_>>(line) {
        Ok(Fields::Object(fields)) => fields,
        Ok(Fields::NotObject) => {
            return Err(BadRequest::Wrong("a message must be a JSON object".into()));
        }
        Err(error) => return Err(BadRequest::NotJson(error)),
    };
    let wrong = |why: &str| BadRequest::Wrong(why.to_string());
    let Some(Value::String(cmd)) = fields.cmd else {
        return Err(wrong("a message needs \"cmd\", a string"));
    };
    match cmd.as_str() {
        "hello" => fields
            .protocol
            .as_ref()
            .and_then(Value::as_u64)
            .map(Request::Hello)
            .ok_or_else(|| wrong("hello needs \"protocol\", a number")),
        "run" => {
            let Some(Value::String(case)) = fields.case else {
                return Err(wrong("run needs \"case\", a string"));
            };
            let Some(Ops::List(ops)) = fields.ops else {
                return Err(wrong("run needs \"ops\", a list"));
            };
            Ok(Request::Run { case, ops })
        }
        "bye" => Ok(Request::Bye),
        other => Err(BadRequest::Wrong(format!("unknown cmd \"{other}\""))),
    }
}

/// A harness line as [`request`] reads it: an object's fields, or some
/// other JSON value (read, strictly, and dropped).
enum Fields<'a> {
    Object(MessageFields<'a>),
    NotObject,
}

/// The fields of a message object; the others are read strictly and
/// dropped.
#[derive(Default)]
struct MessageFields<'a> {
    cmd: Option<Value>,
    protocol: Option<Value>,
    case: Option<Value>,
    ops: Option<Ops<'a>>,
}

/// A run's `ops`: a list of raw op texts, or some other value.
enum Ops<'a> {
    List(Vec<&'a RawValue>),
    NotList,
}

/// A top-level key: one the protocol reads, or another one.
enum Key {
    Cmd,
    Protocol,
    Case,
    Ops,
    Other(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "cmd" => Key::Cmd,
                    "protocol" => Key::Protocol,
                    "case" => Key::Case,
                    "ops" => Key::Ops,
                    other => Key::Other(other.to_string()),
                })
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// A field not seen yet in this object; a second time is a repeated key,
/// raised before its value is read, so that it is placed at the key.
fn fresh<T, E: de::Error>(slot: &Option<T>, key: &str) -> Result<(), E> {
    match slot {
        Some(_) => Err(json::duplicate_key(key)),
        None => Ok(()),
    }
}

/// A visitor for "some JSON value, read strictly, then set aside": each
/// kind is read as [`Strict`] reads it and mapped to `$value`.
macro_rules! read_and_drop {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

impl<'de> Deserialize<'de> for Fields<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fields<'de>, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a message")
            }

            read_and_drop!(Fields::NotObject);

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fields<'de>, A::Error> {
                while seq.next_element::<Strict>()?.is_some() {}
                Ok(Fields::NotObject)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut fields = MessageFields::default();
                let mut others = BTreeSet::new();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Cmd => {
                            fresh(&fields.cmd, "cmd")?;
                            fields.cmd = Some(map.next_value::<Strict>()?.0);
                        }
                        Key::Protocol => {
                            fresh(&fields.protocol, "protocol")?;
                            fields.protocol = Some(map.next_value::<Strict>()?.0);
                        }
                        Key::Case => {
                            fresh(&fields.case, "case")?;
                            fields.case = Some(map.next_value::<Strict>()?.0);
                        }
                        Key::Ops => {
                            fresh(&fields.ops, "ops")?;
                            fields.ops = Some(map.next_value::<Ops<'de>>()?);
                        }
                        Key::Other(key) => {
                            if others.contains(&key) {
                                return Err(json::duplicate_key(&key));
                            }
                            map.next_value::<Strict>()?;
                            others.insert(key);
                        }
                    }
                }
                Ok(Fields::Object(fields))
            }
        }
        deserializer.deserialize_any(FieldsVisitor)
    }
}

impl<'de> Deserialize<'de> for Ops<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ops<'de>, D::Error> {
        struct OpsVisitor;
        impl<'de> Visitor<'de> for OpsVisitor {
            type Value = Ops<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of ops")
            }

            read_and_drop!(Ops::NotList);

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Ops<'de>, A::Error> {
                let mut ops = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(op) = seq.next_element::<&'de RawValue>()? {
                    ops.push(op);
                }
                Ok(Ops::List(ops))
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Ops<'de>, A::Error> {
                Strict::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Ops::NotList)
            }
        }
        deserializer.deserialize_any(OpsVisitor)
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
        let Ok(Request::Run { case, ops }) = request(run.as_bytes()) else {
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
    fn an_answer_line_is_exactly_the_compact_json_of_its_object() {
        // Quotes, backslashes, control bytes, U+2028 and non-ASCII: the
        // hand-written line must be the bytes serde_json writes for the
        // same object, keys sorted ("case" first).
        let tricky = "q\"b\\n\n\r\t\u{0}\u{1f}\u{7f} \u{2028} é 🦀";
        let case = "s/\"c\"\u{2028}";
        assert_eq!(
            Answer::Outputs(vec![tricky.into(), String::new(), "x\n".into()]).to_line(case),
            json!({"case": case, "outputs": [tricky, "", "x\n"]}).to_string()
        );
        assert_eq!(
            Answer::Outputs(Vec::new()).to_line(case),
            json!({"case": case, "outputs": []}).to_string()
        );
        assert_eq!(
            Answer::Skipped(tricky.into()).to_line(case),
            json!({"case": case, "skipped": tricky}).to_string()
        );
        assert_eq!(
            Answer::Errored(tricky.into()).to_line(case),
            json!({"case": case, "errored": tricky}).to_string()
        );
    }

    #[test]
    fn a_request_that_is_not_json_is_told_from_one_that_is_wrong() {
        assert!(matches!(request(b"{\"cmd\":"), Err(BadRequest::NotJson(_))));
        assert!(matches!(request(b"{} x"), Err(BadRequest::NotJson(_))));
        let wrong = |line: &str| match request(line.as_bytes()) {
            Err(BadRequest::Wrong(why)) => why,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(wrong("[1]"), "a message must be a JSON object");
        assert_eq!(wrong("{\"cmd\":1}"), "a message needs \"cmd\", a string");
        assert_eq!(wrong("{\"cmd\":\"nap\"}"), "unknown cmd \"nap\"");
        assert_eq!(
            wrong("{\"cmd\":\"hello\",\"protocol\":-1}"),
            "hello needs \"protocol\", a number"
        );
        assert_eq!(
            wrong("{\"cmd\":\"run\",\"case\":\"c\",\"ops\":{}}"),
            "run needs \"ops\", a list"
        );
        assert_eq!(
            wrong("{\"cmd\":\"run\",\"ops\":[]}"),
            "run needs \"case\", a string"
        );
        assert!(matches!(
            request(b" {\"cmd\":\"bye\"} \r"),
            Ok(Request::Bye)
        ));
    }

    /// A key twice anywhere in a message, outside its ops, makes the line
    /// not JSON, reported at the second key; inside an op it is the op's
    /// (the session parser's, `serve` answers `errored`).
    #[test]
    fn a_repeated_key_makes_a_request_malformed() {
        let not_json = |line: &str| match request(line.as_bytes()) {
            Err(BadRequest::NotJson(error)) => error.to_string(),
            other => panic!("{line}: {other:?}"),
        };
        let twice = |key: &str, column: usize| {
            format!(
                "duplicate key \"{key}\": a key may appear only once in an object at line 1 column {column}"
            )
        };
        assert_eq!(
            not_json(r#"{"cmd":"nap","cmd":"hello","protocol":1}"#),
            twice("cmd", 14)
        );
        assert_eq!(
            not_json(r#"{"cmd":"run","case":"a","case":"b","ops":[]}"#),
            twice("case", 25)
        );
        assert_eq!(
            not_json(r#"{"cmd":"run","case":"c","ops":[],"ops":[]}"#),
            twice("ops", 34)
        );
        assert_eq!(not_json(r#"{"cmd":"bye","x":1,"x":2}"#), twice("x", 20));
        assert_eq!(
            not_json(r#"{"cmd":"bye","x":{"y":1,"y":2}}"#),
            twice("y", 25)
        );
        assert_eq!(not_json(r#"[{"a":1,"a":1}]"#), twice("a", 9));
        // An op's own keys are the session parser's.
        let Ok(Request::Run { ops, .. }) =
            request(br#"{"cmd":"run","case":"c","ops":[{"op":"render","op":"pins"}]}"#)
        else {
            panic!("a run");
        };
        assert_eq!(ops[0].get(), r#"{"op":"render","op":"pins"}"#);
    }

    /// A `case` that is not Unicode says so, not that it is missing.
    #[test]
    fn a_lone_surrogate_is_not_unicode() {
        let Err(BadRequest::NotJson(error)) = request(br#"{"cmd":"run","case":"\ud800","ops":[]}"#)
        else {
            panic!("a lone surrogate is not JSON text");
        };
        assert!(
            error.message.starts_with("a string is not valid Unicode"),
            "{error}"
        );
        assert_eq!(error.line, 1);
    }

    /// Every message shape the protocol reads, and what it is read as.
    #[test]
    fn requests_of_every_shape_are_read_as_they_say() {
        let read = |line: &str| format!("{:?}", request(line.as_bytes()));
        for (line, read_as) in [
            (r#"{"cmd":"hello","protocol":1}"#, "Ok(Hello(1))"),
            (
                r#"{"cmd":"hello","protocol":1.0}"#,
                r#"Err(Wrong("hello needs \"protocol\", a number"))"#,
            ),
            (
                r#"{"cmd":"hello","protocol":null}"#,
                r#"Err(Wrong("hello needs \"protocol\", a number"))"#,
            ),
            (r#"{"cmd":"bye","extra":[1,{"a":2}]}"#, "Ok(Bye)"),
            (
                r#"{"ops":[ {"op":"render"} ],"case":"s\/c","cmd":"run","x":null}"#,
                r#"Ok(Run { case: "s/c", ops: [RawValue({"op":"render"})] })"#,
            ),
            (
                r#"{"cmd":"run","case":"c","ops":[]}"#,
                r#"Ok(Run { case: "c", ops: [] })"#,
            ),
            (
                r#"{"cmd":"run","case":null,"ops":[]}"#,
                r#"Err(Wrong("run needs \"case\", a string"))"#,
            ),
            (
                r#"{"cmd":"run","case":"c","ops":null}"#,
                r#"Err(Wrong("run needs \"ops\", a list"))"#,
            ),
            (
                r#"{"cmd":"run","case":"c","ops":{"a":[1]}}"#,
                r#"Err(Wrong("run needs \"ops\", a list"))"#,
            ),
            (
                r#"{"cmd":"run","case":"c"}"#,
                r#"Err(Wrong("run needs \"ops\", a list"))"#,
            ),
            (
                r#""hello""#,
                r#"Err(Wrong("a message must be a JSON object"))"#,
            ),
        ] {
            assert_eq!(read(line), read_as, "{line}");
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
