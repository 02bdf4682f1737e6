//! SPEC §5's words in the model: `words(s)` read char by char through the
//! spec's steps (the runs, the camelCase cut, lowercasing, then the CJK
//! segments and pairs of contract 5), the 75 stopwords typed again from the
//! spec, the nine CJK ranges typed again, and the WordPiece split trying
//! every end over a map of the vocabulary read from the contract's data,
//! with no bound on an entry's length (and none for a CJK word).
//!
//! It owns what a text is to the model's ranking; it does not own what the
//! words are worth (`ranking`).

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};
use std::thread::LocalKey;

/// SPEC §5's 75 stopwords, typed again from the spec (not the library's
/// list), in the spec's byte order.
pub const STOPWORDS: [&str; 75] = [
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "could",
    "did", "do", "does", "for", "from", "he", "her", "his", "how", "i", "if", "in", "into", "is",
    "it", "its", "like", "me", "my", "need", "no", "not", "of", "on", "or", "our", "please", "she",
    "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "to", "too", "us", "very", "want", "was", "we", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// SPEC §5's CJK ranges (contract 5), inclusive, typed again from the spec.
pub const CJK: [(u32, u32); 9] = [
    (0x3040, 0x30FF),
    (0x3130, 0x318F),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x323AF),
];

/// Whether `c` is a CJK character: its code point in one of [`CJK`].
pub fn is_cjk(c: char) -> bool {
    CJK.iter()
        .any(|&(first, last)| (first..=last).contains(&u32::from(c)))
}

/// SPEC §5 `words(s)`, as a set:
///
/// 1. the maximal runs of `char::is_alphanumeric` characters;
/// 2. each run cut between an ASCII lowercase letter or ASCII digit and the
///    ASCII uppercase letter right after it;
/// 3. each piece lowercased char by char with `char::to_lowercase`;
/// 4. each word cut into segments where a CJK character meets one that is
///    not, and each segment of two or more CJK characters replaced by its
///    characters and overlapping pairs, in order.
pub fn words(s: &str) -> BTreeSet<String> {
    word_list(s).into_iter().collect()
}

/// SPEC §5 `words(s)` as a list: every occurrence, in order.
pub fn word_list(s: &str) -> Vec<String> {
    rule_words(s).iter().flat_map(|w| cut(w)).collect()
}

/// Step 4 of [`words`]: the segments of `word`, by script, each a word
/// or, of `n ≥ 2` CJK characters, `c₁, c₁c₂, c₂, …, cₙ₋₁cₙ, cₙ`.
fn cut(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut segments: Vec<&[char]> = Vec::new();
    let mut from = 0;
    for at in 1..=chars.len() {
        if at == chars.len() || is_cjk(chars[at]) != is_cjk(chars[at - 1]) {
            segments.push(&chars[from..at]);
            from = at;
        }
    }
    let mut out = Vec::new();
    for segment in segments {
        if segment.len() < 2 || !is_cjk(segment[0]) {
            out.push(segment.iter().collect());
            continue;
        }
        for (k, c) in segment.iter().enumerate() {
            out.push(c.to_string());
            if let Some(next) = segment.get(k + 1) {
                out.push([*c, *next].iter().collect());
            }
        }
    }
    out
}

/// A CJK word: one that holds a CJK character.
pub fn is_cjk_word(w: &str) -> bool {
    w.chars().any(is_cjk)
}

/// Steps 1 to 3 of [`words`], as a list.
fn rule_words(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut words = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        if !chars[at].is_alphanumeric() {
            at += 1;
            continue;
        }
        // 1.
        let end = chars[at..]
            .iter()
            .position(|c| !c.is_alphanumeric())
            .map_or(chars.len(), |n| at + n);
        let run = &chars[at..end];
        // 2.
        let mut piece = 0;
        for k in 1..run.len() {
            let before = run[k - 1];
            if (before.is_ascii_lowercase() || before.is_ascii_digit())
                && run[k].is_ascii_uppercase()
            {
                words.push(lowercased(&run[piece..k]));
                piece = k;
            }
        }
        words.push(lowercased(&run[piece..]));
        at = end;
    }
    words
}

/// 3. of [`words`].
fn lowercased(chars: &[char]) -> String {
    chars.iter().flat_map(|c| c.to_lowercase()).collect()
}

/// The vocabulary, entry → its first line, read from the contract's data;
/// and the rows, as i64.
pub(super) fn vocabulary() -> &'static (BTreeMap<String, usize>, Vec<Vec<i64>>) {
    type Data = (BTreeMap<String, usize>, Vec<Vec<i64>>);
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let text = String::from_utf8_lossy(disclose::internals::contract4::WORDPIECE);
        let mut entries = BTreeMap::new();
        for (line, entry) in text.lines().enumerate() {
            entries.entry(entry.to_string()).or_insert(line);
        }
        let rows = (disclose::internals::contract4::VECTORS.chunks(128))
            .map(|row| row.iter().map(|b| i64::from(*b as i8)).collect())
            .collect();
        (entries, rows)
    })
}

/// The sum of the rows of `pieces(w)` (SPEC §5's `v` of the one word at
/// weight 1), remembered per thread as [`pieces`] is.
pub fn word_rows(word: &str) -> Arc<[i64]> {
    thread_local!(static MEMO: Memo<Arc<[i64]>> = Memo::default());
    remembered(&MEMO, word, |word| {
        let (_, rows) = vocabulary();
        let mut sum = vec![0i64; 128];
        for p in pieces(word) {
            for (x, r) in sum.iter_mut().zip(&rows[p]) {
                *x += r;
            }
        }
        sum.into()
    })
}

/// `stem(w)`, the library's (pinned by `contract4/stems.tsv`), remembered
/// per thread as [`pieces`] is.
pub fn stemmed(word: &str) -> Arc<str> {
    thread_local!(static MEMO: Memo<Arc<str>> = Memo::default());
    remembered(&MEMO, word, |word| {
        disclose::internals::stem::stem(word).into()
    })
}

/// SPEC §5 `pieces(w)`: none for a CJK word (contract 5), else the
/// WordPiece split ([`wordpiece`]).
pub fn pieces(word: &str) -> Vec<usize> {
    if is_cjk_word(word) {
        return Vec::new();
    }
    wordpiece(word)
}

/// The WordPiece split of `word` ([`split`]), CJK or not, remembered per
/// thread: a word's pieces depend on the word alone, and the fuzzer's
/// runs ask the same words again and again.
pub fn wordpiece(word: &str) -> Vec<usize> {
    thread_local!(static MEMO: Memo<Vec<usize>> = Memo::default());
    remembered(&MEMO, word, split)
}

/// What one thread remembers of each word (or text) it was asked, and
/// the bytes of those words.
pub(super) struct Memo<T> {
    made: RefCell<BTreeMap<String, T>>,
    bytes: Cell<usize>,
}

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            made: RefCell::default(),
            bytes: Cell::default(),
        }
    }
}

/// `make(word)`, kept in `memo` for the next ask. The memo starts over
/// past 65,536 words or 16 MiB of them, and never keeps a word over
/// 64 KiB (made each time: its making costs what reading it does).
pub(super) fn remembered<T: Clone>(
    memo: &'static LocalKey<Memo<T>>,
    word: &str,
    make: impl FnOnce(&str) -> T,
) -> T {
    if let Some(found) = memo.with(|m| m.made.borrow().get(word).cloned()) {
        return found;
    }
    // Made with the memo let go: `make` may ask another memo.
    let made = make(word);
    if word.len() <= 64 << 10 {
        memo.with(|memo| {
            let mut map = memo.made.borrow_mut();
            if map.len() >= 1 << 16 || memo.bytes.get() + word.len() > 16 << 20 {
                map.clear();
                memo.bytes.set(0);
            }
            map.insert(word.to_string(), made.clone());
            memo.bytes.set(memo.bytes.get() + word.len());
        });
    }
    made
}

/// SPEC §5 `pieces(w)`: from each position, the longest piece that is an
/// entry (`##`-prefixed after the first), trying every end; empty on a
/// position with no match or past 100 characters.
fn split(word: &str) -> Vec<usize> {
    let (entries, _) = vocabulary();
    let chars: Vec<char> = word.chars().collect();
    if chars.len() > 100 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut from = 0;
    while from < chars.len() {
        let hit = (from + 1..=chars.len()).rev().find_map(|end| {
            let piece: String = chars[from..end].iter().collect();
            let key = if from == 0 {
                piece
            } else {
                format!("##{piece}")
            };
            entries.get(&key).map(|line| (end, *line))
        });
        let Some((end, line)) = hit else {
            return Vec::new();
        };
        out.push(line);
        from = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_the_spec_examples() {
        let set = |ws: &[&str]| ws.iter().map(|w| w.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(
            words("getWeatherForecast HTTPServer"),
            set(&["forecast", "get", "httpserver", "weather"])
        );
        assert_eq!(
            words("github__create_issue v2API x9y-Z"),
            set(&["api", "create", "github", "issue", "v2", "x9y", "z"])
        );
        // Non-ASCII letters never cut a word; 'İ' lowercases to two chars;
        // no final-sigma rule.
        assert_eq!(
            words("ÀB aÉ İx ΟΔΟΣ"),
            set(&["aé", "àb", "i\u{307}x", "οδοσ"])
        );
        assert_eq!(words("中文 x"), set(&["x", "中", "中文", "文"]));
        assert!(words(" _-. …").is_empty());
    }

    #[test]
    fn a_cjk_run_is_its_characters_and_pairs_cut_at_the_script() {
        let list = |s: &str| word_list(s);
        assert_eq!(list("mcp服务器"), ["mcp", "服", "服务", "务", "务器", "器"]);
        assert_eq!(list("getMCP服务"), ["get", "mcp", "服", "服务", "务"]);
        // Kana and Hangul are one script to the cut: one segment.
        assert_eq!(
            list("カナ한글"),
            ["カ", "カナ", "ナ", "ナ한", "한", "한글", "글"]
        );
        // U+A000 is no CJK character; U+9FFF is; U+303F separates.
        assert_eq!(
            list("\u{A000}\u{9FFF}\u{303F}\u{9FFF}\u{3041}"),
            [
                "\u{A000}",
                "\u{9FFF}",
                "\u{9FFF}",
                "\u{9FFF}\u{3041}",
                "\u{3041}"
            ]
        );
        assert!(pieces("中").is_empty() && !wordpiece("中").is_empty());
    }

    #[test]
    fn a_memo_keeps_what_it_made_within_its_bounds() {
        thread_local!(static MEMO: Memo<usize> = Memo::default());
        let made = Cell::new(0);
        let length = |w: &str| {
            made.set(made.get() + 1);
            w.len()
        };
        let kept = || MEMO.with(|m| m.made.borrow().len());
        assert_eq!(remembered(&MEMO, "ab", length), 2);
        assert_eq!(remembered(&MEMO, "ab", length), 2);
        assert_eq!((made.get(), kept()), (1, 1));
        // Over 64 KiB: made each time, never kept.
        let big = "x".repeat((64 << 10) + 1);
        assert_eq!(remembered(&MEMO, &big, length), big.len());
        assert_eq!(remembered(&MEMO, &big, length), big.len());
        assert_eq!((made.get(), kept()), (3, 1));
        // 16 MiB of words: the memo starts over rather than grow.
        for n in 0..300 {
            let word = format!("{n:0>60000}");
            remembered(&MEMO, &word, length);
            assert!(MEMO.with(|m| m.bytes.get()) <= 16 << 20);
        }
        assert!(kept() < 300, "{}", kept());
        assert_eq!(remembered(&MEMO, "ab", length), 2);
        assert_eq!(made.get(), 304, "\"ab\" was forgotten at the start-over");
    }

    #[test]
    fn the_stopwords_are_75_in_byte_order() {
        assert!(
            STOPWORDS
                .windows(2)
                .all(|w| w[0].as_bytes() < w[1].as_bytes())
        );
        // Typed twice from the spec, apart: a typo in either shows here.
        assert_eq!(STOPWORDS, disclose::internals::search::STOPWORDS);
    }
}
