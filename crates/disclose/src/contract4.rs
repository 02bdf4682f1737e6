//! The data of contract 4 (SPEC §5, §16): the WordPiece vocabulary and the
//! fitted int8 word vectors, embedded as bytes from the repository's
//! `contract4/` (where `NOTICE` and `LICENSE-Apache-2.0` say where they come
//! from and under what licence), and `pieces`, the WordPiece split over it.
//! The vocabulary is contract 3's; the rows are new, and no longer all of
//! one length (every component is still in −127..=127).
//!
//! The vocabulary is read into two tables the first time a word is split,
//! once per process: every entry, and the `##` entries without their `##`
//! (a split's later pieces), so no lookup allocates, and each costs one
//! hash of the piece (a split tries up to the longest entry's length at
//! every position).

use std::sync::OnceLock;

use crate::lookup::Lookup;

/// `contract4/wordpiece.txt`: 30,522 lines; line `i` (from 0) is entry `i`.
pub const WORDPIECE: &[u8] = include_bytes!("../contract4/wordpiece.txt");

/// `contract4/vectors.i8`: 30,522 × 128 signed bytes, row `i` the vector of
/// entry `i` (contract 4's fitted rows).
pub const VECTORS: &[u8] = include_bytes!("../contract4/vectors.i8");

/// SPEC §16: the BLAKE3 of [`WORDPIECE`] (a test checks it).
pub const WORDPIECE_DIGEST: &str =
    "29a772c92cf4b7bc8f4c52d801f03d36ad8528ef964f856dadc4c4e7cb14e451";

/// SPEC §16: the BLAKE3 of [`VECTORS`] (a test checks it).
pub const VECTORS_DIGEST: &str = "07697cdbc37e195d966f79e90da43768a0f5127a9adfc54b4396b26bde8ece19";

/// The number of components of a vector.
pub const DIMENSIONS: usize = 128;

/// SPEC §5: a word of more characters than this has no pieces.
pub const PIECES_MAX_CHARS: usize = 100;

/// A word's vector or a sum of them, in signed 64-bit integers (SPEC §5).
pub type Vector = [i64; DIMENSIONS];

/// An entry's line by its bytes.
type Lines = Lookup<&'static str, u32>;

/// The vocabulary, for lookup.
struct Vocabulary {
    /// Every entry and its line.
    whole: Lines,
    /// Every `##` entry without its `##`, and its line.
    continuing: Lines,
    /// The most characters of an entry of `whole`, and of `continuing`:
    /// no longer piece can match, so a split tries no longer one.
    whole_chars: usize,
    continuing_chars: usize,
}

fn vocabulary() -> &'static Vocabulary {
    static VOCABULARY: OnceLock<Vocabulary> = OnceLock::new();
    VOCABULARY.get_or_init(|| {
        let text = std::str::from_utf8(WORDPIECE).unwrap_or_default();
        let mut vocabulary = Vocabulary {
            whole: Lines::with_capacity(30_522),
            continuing: Lines::with_capacity(6_000),
            whole_chars: 0,
            continuing_chars: 0,
        };
        for (line, entry) in (0u32..).zip(text.split('\n')) {
            if line as usize * DIMENSIONS >= VECTORS.len() {
                break;
            }
            // A repeated entry keeps its first line.
            vocabulary.whole.insert_first(entry, line);
            vocabulary.whole_chars = vocabulary.whole_chars.max(entry.chars().count());
            if let Some(rest) = entry.strip_prefix("##") {
                vocabulary.continuing.insert_first(rest, line);
                vocabulary.continuing_chars = vocabulary.continuing_chars.max(rest.chars().count());
            }
        }
        vocabulary
    })
}

/// SPEC §5 `pieces(w)`: the greedy longest-match-first WordPiece split of
/// `word`, counted in characters, as vocabulary lines; empty when some
/// position has no match or `word` has more than 100 characters.
///
/// Linear in the word: a position tries at most as many ends as the
/// longest entry has characters.
pub fn pieces(word: &str) -> Vec<u32> {
    let vocabulary = vocabulary();
    // Where each character starts, and the end.
    let bounds: Vec<usize> = (word.char_indices().map(|(at, _)| at))
        .chain([word.len()])
        .take(PIECES_MAX_CHARS + 2)
        .collect();
    let chars = bounds.len() - 1;
    if chars == 0 || chars > PIECES_MAX_CHARS {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut from = 0;
    while from < chars {
        let (entries, most) = if from == 0 {
            (&vocabulary.whole, vocabulary.whole_chars)
        } else {
            (&vocabulary.continuing, vocabulary.continuing_chars)
        };
        let found = (from + 1..=chars.min(from + most)).rev().find_map(|end| {
            let piece = word.get(bounds[from]..bounds[end])?;
            Some((end, *entries.get(piece)?))
        });
        let Some((end, line)) = found else {
            return Vec::new();
        };
        pieces.push(line);
        from = end;
    }
    pieces
}

/// Adds `times` × the sum of the rows of `pieces` to `into` (wrapping, so
/// no catalog can make it panic; SPEC §5's sums of real text stay far
/// inside i64).
pub fn add_rows(into: &mut Vector, pieces: &[u32], times: i64) {
    for &line in pieces {
        let start = line as usize * DIMENSIONS;
        let Some(bytes) = VECTORS.get(start..start + DIMENSIONS) else {
            continue;
        };
        for (o, b) in into.iter_mut().zip(bytes) {
            *o = o.wrapping_add(times.wrapping_mul(i64::from(i8::from_ne_bytes([*b]))));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line of the vocabulary entry `entry`, if it is one.
    fn entry(entry: &str) -> Option<u32> {
        vocabulary().whole.get(entry).copied()
    }

    #[test]
    fn the_vocabulary_has_one_row_per_line() {
        assert_eq!(VECTORS.len(), 30_522 * DIMENSIONS);
        assert_eq!(WORDPIECE.iter().filter(|&&b| b == b'\n').count(), 30_522);
        assert_eq!(entry("[PAD]"), Some(0));
        assert_eq!(entry("the"), entry("the"));
        assert!(entry("##s").is_some());
        assert_eq!(entry(""), None);
    }

    #[test]
    fn pieces_split_longest_first_and_fail_whole() {
        let line = |e: &str| entry(e).unwrap_or(u32::MAX);
        assert_eq!(pieces("weather"), [line("weather")]);
        let lines: Vec<&str> = std::str::from_utf8(WORDPIECE)
            .unwrap()
            .split('\n')
            .collect();
        let split = pieces("unaffableness");
        assert!(split.len() > 1);
        let joined: String = (split.iter().enumerate())
            .map(|(i, &l)| {
                if i == 0 {
                    lines[l as usize]
                } else {
                    &lines[l as usize][2..]
                }
            })
            .collect();
        assert_eq!(joined, "unaffableness");
        // No entry holds `\u{1}`, so the word has no vector.
        assert!(pieces("ab\u{1}").is_empty());
        assert!(pieces(&"a".repeat(101)).is_empty());
        assert!(!pieces(&"a".repeat(100)).is_empty());
        assert!(pieces("").is_empty());
    }
}
