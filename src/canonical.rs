//! Canonical JSON (SPEC §10): the one byte form used for digests, guides,
//! `tool_defs` and routed calls.
//!
//! Written by hand so the bytes never depend on which `serde_json` features
//! another crate in the build switches on (`preserve_order` would change key
//! order, `arbitrary_precision` would change how numbers print). It owns the
//! encoding only; it does not parse.

use serde_json::{Number, Value};

/// The canonical encoding of `value`: no whitespace, object keys sorted by
/// their UTF-8 bytes, strings escaped as `serde_json` escapes them, numbers as
/// `serde_json::Number` displays them without `arbitrary_precision`.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// Appends the canonical encoding of `value` to `out`.
pub fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Sorted explicitly: `serde_json::Map` is insertion-ordered when
            // some crate enables `preserve_order`. Without it the map is
            // already in byte order, and no copy is made.
            out.push('{');
            if map.keys().is_sorted_by(|a, b| a.as_bytes() <= b.as_bytes()) {
                write_members(out, map.iter());
            } else {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                write_members(out, entries.into_iter());
            }
            out.push('}');
        }
    }
}

fn write_members<'a>(out: &mut String, members: impl Iterator<Item = (&'a String, &'a Value)>) {
    for (i, (key, item)) in members.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, key);
        out.push(':');
        write_value(out, item);
    }
}

/// Integers print as integers; every other number prints the way
/// `serde_json::Number` displays an `f64` (the shortest round-trip form, by
/// the same `zmij` formatter `serde_json` uses).
fn write_number(out: &mut String, n: &Number) {
    use std::fmt::Write as _;
    if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(f) = n.as_f64().filter(|f| f.is_finite()) {
        out.push_str(zmij::Buffer::new().format_finite(f));
    } else {
        // JSON has no non-finite numbers; serde_json never builds one.
        out.push_str("null");
    }
}

/// A JSON string literal, escaped exactly as `serde_json` escapes it:
/// `\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase `\u00xx`,
/// everything else raw UTF-8.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut start = 0;
    for (i, byte) in s.bytes().enumerate() {
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[(byte >> 4) as usize] as char);
            out.push(HEX[(byte & 0xf) as usize] as char);
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_sorted_by_bytes_and_no_whitespace() {
        let v = json!({"b": 1, "a": [true, null, "x"], "B": {"z": 0, "é": 1, "e": 2}});
        assert_eq!(
            canonical(&v),
            r#"{"B":{"e":2,"z":0,"é":1},"a":[true,null,"x"],"b":1}"#
        );
    }

    #[test]
    fn strings_escape_like_serde_json() {
        let s = "q\"b\\\u{8}\u{c}\n\r\t\u{1}\u{1f}\u{7f}é…";
        let expected = serde_json::to_string(s).expect("a str always serializes");
        assert_eq!(canonical(&json!(s)), expected);
        assert_eq!(
            canonical(&json!(s)),
            "\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\u{7f}é…\""
        );
    }

    #[test]
    fn numbers_print_as_serde_json_displays_them() {
        for text in [
            "0",
            "-1",
            "18446744073709551615",
            "-9223372036854775808",
            "1.0",
            "0.1",
            "1e300",
            "-2.5e-7",
            "1.5",
        ] {
            let n: Value = serde_json::from_str(text).expect("valid number");
            let Value::Number(number) = &n else {
                unreachable!("parsed a number")
            };
            assert_eq!(canonical(&n), number.to_string(), "{text}");
        }
        assert_eq!(canonical(&json!(1.0)), "1.0");
        assert_eq!(canonical(&json!(1e20)), "1e+20");
    }
}
