//! Every harness message as an implementation reads it (`serve`): one
//! strict pass over the line (`disclose_replay::json`'s rules: a key twice
//! is not JSON), each op of a `run` kept as the raw text it was sent as, so
//! the session parser reads it once. It does not answer: `serve` does.

use std::collections::BTreeSet;
use std::fmt;

use disclose_replay::json::{self, JsonError, Strict};
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

/// A message from the harness, as an implementation reads it.
#[derive(Clone, Debug)]
pub enum HarnessMessage<'a> {
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

/// Why a harness line is not a message of the protocol.
#[derive(Debug)]
pub enum BadMessage {
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
pub fn read_harness_message(line: &[u8]) -> Result<HarnessMessage<'_>, BadMessage> {
    let fields = match json::from_slice::<Fields<'_>>(line) {
        Ok(Fields::Object(fields)) => fields,
        Ok(Fields::NotObject) => {
            return Err(BadMessage::Wrong("a message must be a JSON object".into()));
        }
        Err(error) => return Err(BadMessage::NotJson(error)),
    };
    let wrong = |why: &str| BadMessage::Wrong(why.to_string());
    let Some(Value::String(cmd)) = fields.cmd else {
        return Err(wrong("a message needs \"cmd\", a string"));
    };
    match cmd.as_str() {
        "hello" => fields
            .protocol
            .as_ref()
            .and_then(Value::as_u64)
            .map(HarnessMessage::Hello)
            .ok_or_else(|| wrong("hello needs \"protocol\", a number")),
        "run" => {
            let Some(Value::String(case)) = fields.case else {
                return Err(wrong("run needs \"case\", a string"));
            };
            let Some(Ops::List(ops)) = fields.ops else {
                return Err(wrong("run needs \"ops\", a list"));
            };
            Ok(HarnessMessage::Run { case, ops })
        }
        "bye" => Ok(HarnessMessage::Bye),
        other => Err(BadMessage::Wrong(format!("unknown cmd \"{other}\""))),
    }
}

/// A harness line as [`read_harness_message`] reads it: an object's fields, or some
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_is_not_json_is_told_from_one_that_is_wrong() {
        assert!(matches!(
            read_harness_message(b"{\"cmd\":"),
            Err(BadMessage::NotJson(_))
        ));
        assert!(matches!(
            read_harness_message(b"{} x"),
            Err(BadMessage::NotJson(_))
        ));
        let wrong = |line: &str| match read_harness_message(line.as_bytes()) {
            Err(BadMessage::Wrong(why)) => why,
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
            read_harness_message(b" {\"cmd\":\"bye\"} \r"),
            Ok(HarnessMessage::Bye)
        ));
    }

    /// A key twice anywhere in a message, outside its ops, makes the line
    /// not JSON, reported at the second key; inside an op it is the op's
    /// (the session parser's, `serve` answers `errored`).
    #[test]
    fn a_repeated_key_makes_a_message_malformed() {
        let not_json = |line: &str| match read_harness_message(line.as_bytes()) {
            Err(BadMessage::NotJson(error)) => error.to_string(),
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
        let Ok(HarnessMessage::Run { ops, .. }) = read_harness_message(
            br#"{"cmd":"run","case":"c","ops":[{"op":"render","op":"pins"}]}"#,
        ) else {
            panic!("a run");
        };
        assert_eq!(ops[0].get(), r#"{"op":"render","op":"pins"}"#);
    }

    /// A `case` that is not Unicode says so, not that it is missing.
    #[test]
    fn a_lone_surrogate_is_not_unicode() {
        let Err(BadMessage::NotJson(error)) =
            read_harness_message(br#"{"cmd":"run","case":"\ud800","ops":[]}"#)
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
    fn messages_of_every_shape_are_read_as_they_say() {
        let read = |line: &str| format!("{:?}", read_harness_message(line.as_bytes()));
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
}
