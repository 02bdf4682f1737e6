//! Strict JSON reading, the one reader behind every JSON text the harness
//! takes in: session lines (SPEC §11), protocol messages both ways
//! (`docs/protocol.md`) and `--expect` lines.
//!
//! It reads exactly what `serde_json` reads, into the same [`Value`], with
//! one rule more: a key given twice in one object, at any depth, makes the
//! text malformed (RFC 8259 §4 leaves it to the reader; a gate that let the
//! last one win would pass an ambiguous text, docs/decisions.md). The check
//! is made while the value is built, so it costs no second parse. Its
//! errors ([`JsonError`]) say what is wrong in words of ours where
//! `serde_json`'s would mislead: a repeated key at the repeated key, the
//! nesting limit as our limit ([`MAX_DEPTH`]), a lone surrogate as a string
//! that is not Unicode, and a byte order mark or Unicode whitespace that
//! JSON does not allow between tokens by name. It does no I/O.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// The deepest nesting of arrays and objects read: `serde_json`'s
/// recursion limit, kept (docs/decisions.md, *JSON is read at most 127
/// levels deep*). A text nested deeper is malformed, and says so.
pub const MAX_DEPTH: usize = 127;

/// How the repeated-key error is told from every other one when it is
/// explained (the message itself is written in [`explain`]).
const DUPLICATE: &str = "\u{0}disclose duplicate key ";

/// A JSON value read strictly: as `serde_json::Value` reads it, but a key
/// repeated in one object, at any depth, fails the read at that key.
#[derive(Clone, Debug, PartialEq)]
pub struct Strict(pub Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

/// Builds the value as `serde_json`'s own visitor does, key by key.
struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(StrictVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match object.entry(key) {
                Entry::Vacant(slot) => {
                    let Strict(value) = map.next_value()?;
                    slot.insert(value);
                }
                // Raised right after the key is read, so `serde_json`
                // places it there; `explain` moves it to the key's start.
                Entry::Occupied(slot) => return Err(duplicate_key(slot.key())),
            }
        }
        Ok(Value::Object(object))
    }
}

/// The error a strict reader of its own (a message's fields read one by
/// one) raises for `key` seen twice in one object, worded and placed by
/// [`explain`] as the repeated keys [`Strict`] finds.
pub fn duplicate_key<E: de::Error>(key: &str) -> E {
    E::custom(format!("{DUPLICATE}{key}"))
}

/// Why a text is not strict JSON, and where (1-based line, 1-based byte
/// column, as `serde_json` counts them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column (at least 1).
    pub column: usize,
    /// A plain message, without the place.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for JsonError {}

/// Reads `text` as one strict JSON value.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    from_str::<Strict>(text).map(|Strict(value)| value)
}

/// Reads `bytes` as one strict JSON value.
pub fn parse_slice(bytes: &[u8]) -> Result<Value, JsonError> {
    from_slice::<Strict>(bytes).map(|Strict(value)| value)
}

/// Reads `text` as a `T`, whose JSON values are [`Strict`] where it wants
/// them checked; errors explained.
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, JsonError> {
    serde_json::from_str(text).map_err(|error| explain(text.as_bytes(), &error))
}

/// [`from_str`] over bytes.
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, JsonError> {
    serde_json::from_slice(bytes).map_err(|error| explain(bytes, &error))
}

/// A `serde_json` error on `text`, in our words and at the right place.
pub fn explain(text: &[u8], error: &serde_json::Error) -> JsonError {
    let full = error.to_string();
    let said = full
        .rfind(" at line ")
        .map_or(full.as_str(), |at| &full[..at]);
    let (mut line, mut column) = (error.line().max(1), error.column().max(1));
    let at = offset(text, line, column);
    let message = if let Some(key) = said.strip_prefix(DUPLICATE) {
        // serde_json stands past the whitespace after the key, perhaps on
        // a later line: back to the key's opening quote.
        if let Some(start) = at.and_then(|at| key_start(text, at)) {
            line = 1 + memchr::memchr_iter(b'\n', &text[..start]).count();
            column = start - line_start(text, start) + 1;
        }
        let mut quoted = String::new();
        disclose::internals::canonical::write_string(&mut quoted, key);
        format!("duplicate key {quoted}: a key may appear only once in an object")
    } else if said == "recursion limit exceeded" {
        format!(
            "arrays and objects nested more than {MAX_DEPTH} deep; disclose reads JSON at most {MAX_DEPTH} levels deep"
        )
    } else if matches!(
        said,
        "lone leading surrogate in hex escape"
            | "unexpected end of hex escape"
            | "invalid unicode code point"
    ) {
        format!(
            "a string is not valid Unicode: a \\u escape is a lone surrogate (U+D800 to U+DFFF without its pair) ({said})"
        )
    } else if error.is_syntax()
        && let Some(found) = at.and_then(|at| char_at(text, at))
        && let Some(why) = not_json(found)
    {
        why
    } else {
        said.to_string()
    };
    JsonError {
        line,
        column,
        message,
    }
}

/// What is wrong with `found` standing where a JSON token was wanted, when
/// it is a character that looks like nothing (or like whitespace).
fn not_json(found: char) -> Option<String> {
    if found == '\u{feff}' {
        return Some(
            "a UTF-8 byte order mark (U+FEFF) is not JSON; save the text without it".to_string(),
        );
    }
    (found.is_whitespace() && !matches!(found, ' ' | '\t' | '\n' | '\r')).then(|| {
        format!(
            "U+{:04X} is whitespace, but not JSON whitespace: between tokens JSON allows only space, tab, line feed and carriage return",
            u32::from(found)
        )
    })
}

/// The byte offset of 1-based `line` and `column` in `text`, if inside it.
fn offset(text: &[u8], line: usize, column: usize) -> Option<usize> {
    let start = if line == 1 {
        0
    } else {
        memchr::memchr_iter(b'\n', text).nth(line - 2)? + 1
    };
    let at = start + column - 1;
    (at < text.len()).then_some(at)
}

/// The offset of the line holding `at`.
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at]).map_or(0, |p| p + 1)
}

/// The char that starts at `at`, if one does.
fn char_at(text: &[u8], at: usize) -> Option<char> {
    let rest = &text[at..];
    let len = rest.len().min(4);
    (1..=len)
        .find_map(|n| std::str::from_utf8(&rest[..n]).ok())
        .and_then(|s| s.chars().next())
}

/// The offset of the opening quote of the key whose closing quote is at,
/// or just before (past JSON whitespace), `at`.
fn key_start(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    while matches!(text.get(end), Some(b' ' | b'\t' | b'\r' | b'\n' | b':')) && end > 0 {
        end -= 1;
    }
    if text.get(end) != Some(&b'"') {
        return None;
    }
    // Inside a string a quote is escaped by an odd run of backslashes; the
    // first quote back with an even run (none counts) opens the key.
    let mut i = end;
    while i > 0 {
        i -= 1;
        if text[i] == b'"' {
            let backslashes = text[..i].iter().rev().take_while(|b| **b == b'\\').count();
            if backslashes % 2 == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        match parse(text) {
            Ok(value) => format!("ok {value}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn it_reads_what_serde_json_reads() {
        for text in [
            "null",
            "true",
            " [1, -2, 3.5, 1e3, 18446744073709551615, -9223372036854775808]",
            r#"{"a":{"b":[{"c":"\u00e9\ud83e\udd80"}]},"d":"x\ny","e":{}}"#,
            "\"\"",
            "[[[[]]]]",
        ] {
            let strict = parse(text).expect(text);
            let loose: Value = serde_json::from_str(text).expect(text);
            assert_eq!(strict, loose, "{text}");
        }
        // serde_json's `Value`, with `raw_value` on (the binary's build),
        // takes this key for its own token and fails; read as text, it is
        // a key like any other.
        let token = r#"{"$serde_json::private::RawValue":1}"#;
        assert_eq!(parse(token).map(|v| v.to_string()).as_deref(), Ok(token));
    }

    #[test]
    fn a_repeated_key_is_reported_at_itself() {
        assert_eq!(
            error(r#"{"a":1,"a":2}"#),
            "duplicate key \"a\": a key may appear only once in an object at line 1 column 8"
        );
        // Deep, spaced, escaped, on a later line.
        assert_eq!(
            error("{\"x\":[{\"k\\\"\":1,\n  \"k\\\"\" : 2}]}"),
            "duplicate key \"k\\\"\": a key may appear only once in an object at line 2 column 3"
        );
        // A line break between the key and its colon: still at the key.
        assert_eq!(
            error("{\"a\":1,\"a\"\n\t:2}"),
            "duplicate key \"a\": a key may appear only once in an object at line 1 column 8"
        );
        // The same key in two objects is no repeat.
        assert_eq!(error(r#"[{"a":1},{"a":2}]"#), "ok [{\"a\":1},{\"a\":2}]");
        // Keys equal once unescaped are the same key.
        assert_eq!(
            error(r#"{"ab":1,"a\u0062":2}"#),
            "duplicate key \"ab\": a key may appear only once in an object at line 1 column 9"
        );
    }

    #[test]
    fn the_nesting_limit_is_ours_and_says_so() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&deep(MAX_DEPTH)).is_ok());
        let error = parse(&deep(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(
            error.message,
            "arrays and objects nested more than 127 deep; disclose reads JSON at most 127 levels deep"
        );
        assert_eq!((error.line, error.column), (1, MAX_DEPTH + 1));
    }

    #[test]
    fn a_lone_surrogate_is_not_unicode() {
        for text in [r#""\ud800""#, r#""\udc00""#, r#""\ud800\u0041""#] {
            let message = parse(text).unwrap_err().message;
            assert!(
                message.starts_with("a string is not valid Unicode"),
                "{text}: {message}"
            );
        }
    }

    mod properties {
        use proptest::prelude::*;
        use serde_json::{Map, Value};

        use super::super::parse;

        /// Any JSON value, a few levels deep, keys from a small alphabet
        /// (so that the same key recurs across objects) with escapes.
        fn value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                any::<i64>().prop_map(Value::from),
                any::<u64>().prop_map(Value::from),
                (-1e9f64..1e9).prop_map(Value::from),
                r#"[a-c"\\\n\u{e9}\u{2028}]{0,6}"#.prop_map(Value::String),
            ];
            leaf.prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    proptest::collection::btree_map(r#"[a-c"\\]{0,3}"#, inner, 0..6)
                        .prop_map(|map| Value::Object(map.into_iter().collect::<Map<_, _>>())),
                ]
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            /// Without a repeated key, the strict reader reads what
            /// serde_json wrote, as serde_json reads it.
            #[test]
            fn strict_reads_what_serde_json_reads(value in value()) {
                let text = value.to_string();
                prop_assert_eq!(parse(&text).ok(), Some(value.clone()));
                let pretty = serde_json::to_string_pretty(&value).unwrap_or_default();
                prop_assert_eq!(parse(&pretty).ok(), Some(value));
            }

            /// A key written twice into any object is found, at the second
            /// key's opening quote, however the text around it looks.
            #[test]
            fn a_repeated_key_is_found_where_it_is(
                before in value(),
                key in r#"[a-c"\\\u{e9}]{0,3}"#,
                first in value(),
                second in value(),
                spaced in any::<bool>(),
            ) {
                let sep = if spaced { " \n\t" } else { "" };
                let key_text = Value::String(key.clone()).to_string();
                let head = format!(
                    "[{before},{sep}{{{key_text}{sep}:{sep}{first},{sep}"
                );
                let text = format!("{head}{key_text}{sep}:{sep}{second}{sep}}}]");
                let error = parse(&text).expect_err("a key twice");
                let line_start = head.rfind('\n').map_or(0, |at| at + 1);
                prop_assert_eq!(error.line, 1 + head.matches('\n').count());
                prop_assert_eq!(error.column, head.len() - line_start + 1);
                prop_assert!(error.message.starts_with("duplicate key "));
            }
        }
    }

    #[test]
    fn invisible_characters_are_named() {
        assert_eq!(
            error("\u{feff}{}"),
            "a UTF-8 byte order mark (U+FEFF) is not JSON; save the text without it at line 1 column 1"
        );
        assert_eq!(
            error("{\"a\":\u{a0}1}"),
            "U+00A0 is whitespace, but not JSON whitespace: between tokens JSON allows only space, tab, line feed and carriage return at line 1 column 6"
        );
        assert_eq!(
            error("[1,\u{2028}2]"),
            "U+2028 is whitespace, but not JSON whitespace: between tokens JSON allows only space, tab, line feed and carriage return at line 1 column 4"
        );
        // Other errors keep serde_json's words.
        assert_eq!(error("[1,"), "EOF while parsing a value at line 1 column 3");
        assert_eq!(error("[1,x]"), "expected value at line 1 column 4");
    }
}
