//! The hint: the one-line summary a dormant capability shows in the index
//! (SPEC §4).
//!
//! Computed once at admission; the rule is applied in exactly the spec's
//! order, so a golden can be checked against the text by hand.

use crate::HINT_MAX_BYTES;
use crate::naming::is_control;

/// The bytes a cut hint keeps before its ellipsis.
const CUT_AT: usize = HINT_MAX_BYTES - ELLIPSIS.len();
const ELLIPSIS: &str = "…";

/// The hint of a description or disclosure: trimmed; its first line with
/// trailing whitespace removed; up to and including the `.` of the first
/// `". "`; controls as spaces; and past 80 bytes, cut at the largest char
/// boundary ≤ 77, trailing whitespace removed, and `…` appended.
pub fn hint(text: &str) -> String {
    let text = text.trim();
    let first_line = match text.find('\n') {
        Some(at) => &text[..at],
        None => text,
    }
    .trim_end();
    let sentence = match sentence_end(first_line) {
        Some(at) => &first_line[..=at],
        None => first_line,
    };
    // The control characters of SPEC §4 are single ASCII bytes, which never
    // occur inside a multibyte UTF-8 sequence: the common sentence, with
    // none and within 80 bytes, is copied once as it is.
    let has_control = sentence.bytes().any(|b| b < 0x20 || b == 0x7f);
    if !has_control && sentence.len() <= HINT_MAX_BYTES {
        return sentence.to_string();
    }
    let clean: String = if has_control {
        sentence
            .chars()
            .map(|c| if is_control(c) { ' ' } else { c })
            .collect()
    } else {
        sentence.to_string()
    };
    if clean.len() <= HINT_MAX_BYTES {
        return clean;
    }
    let cut = floor_boundary(&clean, CUT_AT);
    let mut hint = clean[..cut].trim_end().to_string();
    hint.push_str(ELLIPSIS);
    hint
}

/// Where the first `". "` of `line` starts: `line.find(". ")`, found by
/// looking for each `.` (a pattern search set up for a two-byte needle
/// cost more than the rest of the hint; issue 26, P5).
fn sentence_end(line: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(dot) = line[from..].find('.') {
        let at = from + dot;
        if line.as_bytes().get(at + 1) == Some(&b' ') {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The largest char boundary of `text` at or below `at` (SPEC §4's cut).
/// `str::floor_char_boundary` does this from Rust 1.91; the crate builds on
/// 1.89.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut cut = at.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentence_of_first_line() {
        assert_eq!(hint("  Create an issue. Then more.  "), "Create an issue.");
        assert_eq!(hint("Line one\nLine two. x"), "Line one");
        assert_eq!(hint("v1.2 is out"), "v1.2 is out");
        assert_eq!(hint("Ends with a dot."), "Ends with a dot.");
    }

    #[test]
    fn a_sentence_ends_where_find_says() {
        for line in [
            "",
            ".",
            ". ",
            "a. b",
            "a.b. c",
            "v1.2. x",
            "a..  b",
            "é. ü. x",
            "no dot",
            "end.",
        ] {
            assert_eq!(sentence_end(line), line.find(". "), "{line:?}");
        }
    }

    #[test]
    fn controls_become_spaces_after_the_sentence_cut() {
        assert_eq!(hint("a\u{1}b.\tc"), "a b. c");
        assert_eq!(hint("tab\tinside"), "tab inside");
    }

    #[test]
    fn eighty_bytes_kept_eighty_one_cut() {
        let exact = "x".repeat(80);
        assert_eq!(hint(&exact), exact);
        let over = "x".repeat(81);
        assert_eq!(hint(&over), format!("{}…", "x".repeat(77)));
        assert_eq!(hint(&over).len(), 80);
    }

    #[test]
    fn cut_lands_on_a_char_boundary() {
        // 76 ASCII bytes, then 'é' (2 bytes) straddles byte 77.
        let text = format!("{}é{}", "a".repeat(76), "b".repeat(10));
        assert_eq!(hint(&text), format!("{}…", "a".repeat(76)));
    }

    #[test]
    fn trailing_whitespace_before_the_ellipsis_is_removed() {
        let text = format!("{} {}", "a".repeat(76), "b".repeat(10));
        assert_eq!(hint(&text), format!("{}…", "a".repeat(76)));
    }
}
