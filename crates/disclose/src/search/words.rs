//! SPEC §5's texts as words: `words(s)` (maximal alphanumeric runs, split
//! at an ASCII camelCase boundary, lowercased), the 75 stopwords, and a
//! candidate's `params`.
//!
//! It owns what a text *is* to the ranking; it does not own what the
//! words are worth (`score`) or how a query uses them. `words(s)` is
//! written once, in [`tokenize`]: ASCII (nearly every byte of a real
//! catalog) is classified byte by byte without decoding, any other
//! character decoded and lowercased as the spec says; the test kit's model
//! reads the spec char by char, and `tests/ranking.rs` holds the two equal.

use serde_json::{Map, Value};

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
/// `forecast`; `HTTPServer` stays one word.
///
/// Appended to `out` as the lowercased words, each followed by one space
/// (a word never holds a space), so tokenizing a description is one pass
/// and one allocation.
///
/// ASCII, nearly every byte of a real catalog, is classified byte by byte
/// without decoding; any other character is decoded and lowercased as
/// SPEC §5 says (`char::is_alphanumeric`, `char::to_lowercase`).
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
    let mut at = 0;
    while let Some(&byte) = text.as_bytes().get(at) {
        if byte.is_ascii() {
            at += 1;
            if byte.is_ascii_lowercase() || byte.is_ascii_digit() {
                out.push(char::from(byte));
                after = After::LowerOrDigit;
            } else if byte.is_ascii_uppercase() {
                if after == After::LowerOrDigit {
                    out.push(' ');
                }
                out.push(char::from(byte.to_ascii_lowercase()));
                after = After::Other;
            } else {
                if after != After::Gap {
                    out.push(' ');
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
            after = After::Other;
        } else {
            if after != After::Gap {
                out.push(' ');
            }
            after = After::Gap;
        }
    }
    if after != After::Gap {
        out.push(' ');
    }
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
