//! SPEC §5's texts as words: `words(s)` (maximal alphanumeric runs, split
//! at an ASCII camelCase boundary, lowercased, and a run of CJK characters
//! cut into its characters and overlapping pairs, contract 5), the 75
//! stopwords, a word's `pieces` (none for a CJK word), and a candidate's
//! `params`.
//!
//! It owns what a text *is* to the ranking; it does not own what the
//! words are worth (`score`) or how a query uses them. `words(s)` is
//! written once, in [`tokenize`]: ASCII (nearly every byte of a real
//! catalog) is classified byte by byte without decoding, any other
//! character decoded and lowercased as the spec says, and only a word
//! that holds a CJK character is cut ([`split_cjk`], through the seam);
//! the test kit's model reads the spec char by char, and
//! `tests/ranking.rs` holds the two equal.

use serde_json::{Map, Value};

use crate::seam;

/// SPEC §5: the words a query drops, in byte order (75 of them).
pub const STOPWORDS: [&str; 75] = [
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "could",
    "did", "do", "does", "for", "from", "he", "her", "his", "how", "i", "if", "in", "into", "is",
    "it", "its", "like", "me", "my", "need", "no", "not", "of", "on", "or", "our", "please", "she",
    "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "to", "too", "us", "very", "want", "was", "we", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// Whether `word` (already lowercased) is one of [`STOPWORDS`].
pub(super) fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// The words of a text (SPEC §5 `words`): maximal runs of alphanumeric
/// characters, also split where an ASCII lowercase letter or ASCII digit
/// is followed by an ASCII uppercase letter, each lowercased character by
/// character. `_` and `-` separate words, so `github__create_issue` is
/// `github`, `create`, `issue`; `getWeatherForecast` is `get`, `weather`,
/// `forecast`; `HTTPServer` stays one word. A word that holds a CJK
/// character is then cut into its segments and pairs ([`split_cjk`],
/// contract 5): `mcp服务器` is `mcp`, `服`, `服务`, `务`, `务器`, `器`.
///
/// Appended to `out` as the lowercased words, each followed by one space
/// (a word never holds a space), so tokenizing a description is one pass
/// and one allocation.
///
/// ASCII, nearly every byte of a real catalog, is classified byte by byte
/// without decoding; any other character is decoded and lowercased as
/// SPEC §5 says (`char::is_alphanumeric`, `char::to_lowercase`). Only a
/// word that holds a CJK character is read twice: written as it is, then
/// taken back and cut.
pub(super) fn tokenize(text: &str, out: &mut String) {
    /// Where the previous character left the tokenizer.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum After {
        /// Outside a word (or at the start).
        Gap,
        /// Inside a word, after an ASCII lowercase letter or ASCII digit:
        /// an ASCII uppercase letter here starts a new word (`tW`, `2W`).
        LowerOrDigit,
        /// Inside a word, after any other alphanumeric (`PS` in
        /// `HTTPServer` stays together).
        Other,
    }
    let mut after = After::Gap;
    let mut word = Reading {
        start: out.len(),
        cjk: false,
    };
    let mut at = 0;
    while let Some(&byte) = text.as_bytes().get(at) {
        if byte.is_ascii() {
            at += 1;
            if byte.is_ascii_lowercase() || byte.is_ascii_digit() {
                out.push(char::from(byte));
                after = After::LowerOrDigit;
            } else if byte.is_ascii_uppercase() {
                if after == After::LowerOrDigit {
                    word.end(out);
                }
                out.push(char::from(byte.to_ascii_lowercase()));
                after = After::Other;
            } else {
                if after != After::Gap {
                    word.end(out);
                }
                after = After::Gap;
            }
            continue;
        }
        // `at` is always on a character boundary: it moves by whole
        // ASCII bytes or whole characters.
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        at += c.len_utf8();
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            word.cjk |= is_cjk(c);
            after = After::Other;
        } else {
            if after != After::Gap {
                word.end(out);
            }
            after = After::Gap;
        }
    }
    if after != After::Gap {
        word.end(out);
    }
}

/// The word [`tokenize`] is writing: where it starts in the output, and
/// whether it holds a CJK character yet.
struct Reading {
    start: usize,
    cjk: bool,
}

impl Reading {
    /// Ends the word: a space after it, or, when it holds a CJK character,
    /// the word taken back and written again cut (`seam::split_cjk`).
    #[inline]
    fn end(&mut self, out: &mut String) {
        if self.cjk {
            let word = out.split_off(self.start);
            seam::split_cjk(&word, out);
            self.cjk = false;
        } else {
            out.push(' ');
        }
        self.start = out.len();
    }
}

/// SPEC §5 (contract 5): whether `c` is a CJK character, its code point in
/// one of the nine ranges (hiragana and katakana, Hangul compatibility
/// jamo, katakana's phonetic extensions, the CJK unified ideographs and
/// their extension A, Hangul syllables, the compatibility ideographs,
/// halfwidth katakana, and the supplementary ideographic planes' blocks).
#[inline]
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(
        u32::from(c),
        0x3040..=0x30FF
            | 0x3130..=0x318F
            | 0x31F0..=0x31FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7AF
            | 0xF900..=0xFAFF
            | 0xFF66..=0xFF9F
            | 0x20000..=0x323AF
    )
}

/// SPEC §5 (contract 5): a CJK word, one that holds a CJK character. Every
/// CJK character is at U+3040 or above, three or four bytes of UTF-8
/// whose first byte is 0xE3 or more, so a word without such a byte is
/// never one.
#[inline]
pub(crate) fn is_cjk_word(word: &str) -> bool {
    word.bytes().any(|b| b >= 0xE3) && word.chars().any(is_cjk)
}

/// SPEC §5 (contract 5): one word found by the rule, lowercased, cut where
/// a CJK character meets one that is not into segments; a segment without
/// CJK characters, or of one, is a word; a segment of `n ≥ 2` CJK
/// characters becomes `c₁`, `c₁c₂`, `c₂`, …, `cₙ₋₁cₙ`, `cₙ` (every
/// character and every overlapping pair, as Lucene's CJK analyzer reads
/// it). Appended to `out` in order, each followed by one space.
pub(crate) fn split_cjk(word: &str, out: &mut String) {
    // The CJK character before this one in the segment being read, if the
    // segment is CJK.
    let mut before: Option<char> = None;
    let mut last_cjk = None;
    for c in word.chars() {
        let cjk = is_cjk(c);
        if last_cjk.is_some_and(|last| last != cjk) {
            // A segment ends here.
            out.push(' ');
            before = None;
        }
        if cjk {
            if let Some(b) = before {
                // `b` was written alone; then the pair, then `c` alone.
                out.push(' ');
                out.push(b);
                out.push(c);
                out.push(' ');
            }
            out.push(c);
            before = Some(c);
        } else {
            out.push(c);
        }
        last_cjk = Some(cjk);
    }
    if last_cjk.is_some() {
        out.push(' ');
    }
}

/// SPEC §5 `pieces(w)` (contract 5): the WordPiece split of `word`
/// ([`crate::contract4::pieces`]), and none for a CJK word (the
/// vocabulary holds too few CJK entries to say anything).
pub fn pieces(word: &str) -> Vec<u32> {
    if is_cjk_word(word) {
        return Vec::new();
    }
    crate::contract4::pieces(word)
}

/// SPEC §5 `params`' source: `schema.properties` when it is an object;
/// none for a skill (no schema) or a schema without one.
#[inline]
pub(crate) fn properties(schema: Option<&Value>) -> Option<&Map<String, Value>> {
    schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
}

/// SPEC §5 `params`: for each key of `properties`, in order, the key and,
/// when its value is an object with a string `description`, that
/// description.
pub(super) fn params_of(properties: Option<&Map<String, Value>>) -> impl Iterator<Item = &str> {
    properties.into_iter().flatten().flat_map(|(key, value)| {
        let description = value.get("description").and_then(Value::as_str);
        std::iter::once(key.as_str()).chain(description)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of `text`, in order, with repeats.
    fn list(text: &str) -> Vec<String> {
        let mut joined = String::new();
        tokenize(text, &mut joined);
        joined.split_terminator(' ').map(str::to_string).collect()
    }

    /// The words of `text`, sorted and distinct.
    fn words(text: &str) -> Vec<String> {
        let mut words = list(text);
        words.sort_unstable();
        words.dedup();
        words
    }

    #[test]
    fn words_split_on_separators_and_lowercase() {
        assert_eq!(
            words("github__create_issue Créer-ISSUE 42x issue"),
            ["42x", "create", "créer", "github", "issue"]
        );
        assert!(words("").is_empty());
        assert!(words("__--  ..").is_empty());
        assert!(list("a-b").contains(&"b".to_string()));
        assert!(!list("ab").contains(&"b".to_string()));
    }

    #[test]
    fn camel_case_splits_after_a_lowercase_letter_or_digit_only() {
        assert_eq!(
            list("getWeatherForecast HTTPServer v2API x9y ÀB aÉ"),
            [
                "get",
                "weather",
                "forecast",
                "httpserver",
                "v2",
                "api",
                "x9y",
                "àb",
                "aé"
            ]
        );
    }

    #[test]
    fn lowercasing_can_lengthen_a_word() {
        // 'İ' lowercases to "i̇" (two chars); the combining dot is part of the
        // word because the run it came from was alphanumeric.
        assert_eq!(words("İx"), ["i\u{307}x"]);
    }

    #[test]
    fn a_cjk_segment_is_its_characters_and_overlapping_pairs() {
        assert_eq!(list("mcp服务器"), ["mcp", "服", "服务", "务", "务器", "器"]);
        assert_eq!(
            list("读取文件"),
            ["读", "读取", "取", "取文", "文", "文件", "件"]
        );
        // One CJK character is one word; the cut is at each script
        // boundary, also inside a camelCase word and after digits.
        assert_eq!(list("中"), ["中"]);
        assert_eq!(
            list("getMCP服务v2"),
            ["get", "mcp", "服", "服务", "务", "v2"]
        );
        assert_eq!(list("a中B"), ["a", "中", "b"]);
        assert_eq!(list("中aB"), ["中", "a", "b"]);
        // Kana and Hangul, and a separator between runs.
        assert_eq!(
            list("ファイル"),
            ["フ", "ファ", "ァ", "ァイ", "イ", "イル", "ル"]
        );
        assert_eq!(list("파일 읽기"), ["파", "파일", "일", "읽", "읽기", "기"]);
        assert_eq!(list("东京。大阪"), ["东", "东京", "京", "大", "大阪", "阪"]);
    }

    #[test]
    fn the_cjk_ranges_end_where_the_spec_says() {
        for (c, cjk) in [
            ('\u{303F}', false),
            ('\u{3040}', true),
            ('\u{30FF}', true),
            ('\u{3100}', false),
            ('\u{312F}', false),
            ('\u{3130}', true),
            ('\u{318F}', true),
            ('\u{3190}', false),
            ('\u{31EF}', false),
            ('\u{31F0}', true),
            ('\u{31FF}', true),
            ('\u{3200}', false),
            ('\u{33FF}', false),
            ('\u{3400}', true),
            ('\u{4DBF}', true),
            ('\u{4DC0}', false),
            ('\u{4DFF}', false),
            ('\u{4E00}', true),
            ('\u{9FFF}', true),
            ('\u{A000}', false),
            ('\u{ABFF}', false),
            ('\u{AC00}', true),
            ('\u{D7AF}', true),
            ('\u{D7B0}', false),
            ('\u{F8FF}', false),
            ('\u{F900}', true),
            ('\u{FAFF}', true),
            ('\u{FB00}', false),
            ('\u{FF65}', false),
            ('\u{FF66}', true),
            ('\u{FF9F}', true),
            ('\u{FFA0}', false),
            ('\u{1FFFF}', false),
            ('\u{20000}', true),
            ('\u{323AF}', true),
            ('\u{323B0}', false),
        ] {
            assert_eq!(is_cjk(c), cjk, "U+{:04X}", u32::from(c));
            assert_eq!(
                is_cjk_word(&format!("ab{c}")),
                cjk,
                "U+{:04X}",
                u32::from(c)
            );
        }
        // U+A000 (a Yi syllable) is alphanumeric, not CJK: it stays in its
        // word and is cut from the CJK character beside it; U+9FFF is
        // the last unified ideograph.
        assert_eq!(
            list("\u{A000}\u{A000}\u{9FFF}\u{9FFF}"),
            [
                "\u{A000}\u{A000}",
                "\u{9FFF}",
                "\u{9FFF}\u{9FFF}",
                "\u{9FFF}"
            ]
        );
        assert!(!is_cjk_word("") && !is_cjk_word("café") && !is_cjk_word("\u{3000}"));
    }

    #[test]
    fn a_cjk_word_has_no_pieces() {
        // `中` is a vocabulary entry; as a CJK word it has no vector.
        assert!(!crate::contract4::pieces("中").is_empty());
        assert!(pieces("中").is_empty());
        assert!(pieces("x中").is_empty());
        assert_eq!(pieces("weather"), crate::contract4::pieces("weather"));
    }

    #[test]
    fn stopwords_are_sorted_distinct_and_found() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stopword("the") && is_stopword("your") && is_stopword("a"));
        assert!(!is_stopword("issue") && !is_stopword("The"));
    }

    #[test]
    fn params_are_keys_then_string_descriptions() {
        let schema = serde_json::json!({"properties": {"a_key": {"description": "Said here"}, "n": {"description": 3}, "m": true}});
        let params: Vec<&str> = params_of(properties(Some(&schema))).collect();
        assert_eq!(params, ["a_key", "Said here", "m", "n"]);
        assert_eq!(properties(None), None);
        assert_eq!(
            properties(Some(&serde_json::json!({"properties": []}))),
            None
        );
    }
}
