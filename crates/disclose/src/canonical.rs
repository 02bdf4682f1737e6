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
        let mut digits = Digits::default();
        let _ = write!(digits, "{u}");
        out.push_str(digits.as_str());
    } else if let Some(i) = n.as_i64() {
        let mut digits = Digits::default();
        let _ = write!(digits, "{i}");
        out.push_str(digits.as_str());
    } else if let Some(f) = n.as_f64().filter(|f| f.is_finite()) {
        out.push_str(zmij::Buffer::new().format_finite(f));
    } else {
        // JSON has no non-finite numbers; serde_json never builds one.
        out.push_str("null");
    }
}

/// Room for a 64-bit integer's digits and sign, on the stack.
#[derive(Default)]
struct Digits {
    bytes: [u8; 20],
    len: usize,
}

impl Digits {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl std::fmt::Write for Digits {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Appends `s` as a JSON string literal, escaped exactly as `serde_json`
/// escapes it: `\"`, `\\`, `\b \f \n \r \t`, other controls as lowercase
/// `\u00xx`, everything else raw UTF-8.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = next_escape(bytes, 0);
    while let Some(&byte) = bytes.get(i) {
        let escape: &str = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            _ => "",
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let code = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(byte >> 4) as usize],
                HEX[(byte & 0xf) as usize],
            ];
            out.push_str(std::str::from_utf8(&code).unwrap_or_default());
        } else {
            out.push_str(escape);
        }
        start = i + 1;
        i = next_escape(bytes, start);
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether a JSON string must escape `b` (`"`, `\\`, or a control below
/// 0x20).
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any of the eight bytes of `w` [`needs_escape`], decided for the
/// word at once. Exact for the word as a whole (the has-a-byte-below-n and
/// has-a-zero-byte tricks: `(x - n·0x01…) & !x & 0x80…` is non-zero exactly
/// when some byte of `x` is below n ≤ 0x80), so a word without one is
/// passed over whole and a word with one is never passed over. Which bit
/// is set says nothing: a borrow can flag a byte above the true one, so
/// the caller finds the byte itself.
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let below = w.wrapping_sub(ONES * 0x20) & !w & HIGHS;
    let quote = zero_byte(w ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(w ^ (ONES * u64::from(b'\\')));
    below | quote | backslash != 0
}

/// The index of the first byte at or after `from` that a JSON string must
/// escape, else `bytes.len()`. Eight bytes at a time: a word with none of
/// them is passed over whole.
fn next_escape(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        if word_needs_escape(u64::from_le_bytes(word)) {
            break;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if needs_escape(b) {
            return i;
        }
        i += 1;
    }
    bytes.len()
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

    /// The word test is exact: it flags a word exactly when a byte of it
    /// needs escaping, on words mixing every byte that borders a rule
    /// (0x1f/0x20, '"' and its neighbours, '\\' and its neighbours, bytes
    /// whose high bit a borrow could set) and on words of any bytes. A
    /// word flagged without cause would be scanned byte by byte: the
    /// output would not change, only the speed, so only this sees it.
    #[test]
    fn the_word_test_flags_exactly_the_words_that_need_escaping() {
        const BORDER: [u8; 24] = [
            0x00, 0x01, 0x02, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x3c, 0x41, 0x42, 0x5b, 0x5c, 0x5d,
            0x61, 0x7f, 0x80, 0xa0, 0xa2, 0xbc, 0xc3, 0xdc, 0xe2, 0xff,
        ];
        let mut next = crate::test_words::splitmix64(0x2545_f491_4f6c_dd1d);
        let (mut flagged, mut clean) = (0, 0);
        for round in 0..200_000 {
            let bits = next();
            let bytes: [u8; 8] = if round % 2 == 0 {
                bits.to_le_bytes()
            } else {
                std::array::from_fn(|k| BORDER[((bits >> (5 * k)) % 24) as usize])
            };
            // SPEC §10's rule, written here rather than taken from the code.
            let expected = bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
            assert_eq!(
                word_needs_escape(u64::from_le_bytes(bytes)),
                expected,
                "{bytes:02x?}"
            );
            if expected { flagged += 1 } else { clean += 1 }
        }
        // Both answers were asked for, many times.
        assert!(
            flagged > 10_000 && clean > 10_000,
            "{flagged} flagged, {clean} clean"
        );
    }

    /// The word-at-a-time scan finds exactly the bytes a byte-by-byte scan
    /// finds, wherever they sit in a word.
    #[test]
    fn next_escape_agrees_with_a_byte_scan() {
        let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        for special in [0u8, 0x1f, b'"', b'\\', b'\n'] {
            for len in 0..20 {
                for at in 0..=len {
                    let mut bytes: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if at < len {
                        bytes[at] = special;
                    }
                    // Bytes next to the special ones that must not match.
                    bytes.extend_from_slice(&[0x20, b'!', b'#', b'[', b']', 0x7f, 0xc3, 0xa9]);
                    for from in 0..bytes.len() {
                        let expected = (from..bytes.len())
                            .find(|&i| needs(bytes[i]))
                            .unwrap_or(bytes.len());
                        assert_eq!(next_escape(&bytes, from), expected, "{bytes:?} from {from}");
                    }
                }
            }
        }
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
