//! Adversarial text, raw names and origins.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

/// Pieces adversarial text is glued from: among them CJK characters
/// (SPEC §5, contract 5), kana and Hangul, which glue into runs of pairs,
/// and the characters just past the CJK ranges (U+303F separates, U+A000
/// and U+3005 are letters that are not CJK).
pub(super) const PIECES: &[&str] = &[
    "a", "read", "file", "issue", "search", " ", ". ", ".", "Search", "é", "中", "🦀", "e\u{301}",
    "\u{0}", "\t", "\n", "\r", "\u{7f}", "\u{a0}", "\u{2028}", "-", "_", "\"", "\\", "…", "0",
    "文件", "读", "ル", "한", "。", "\u{303F}", "\u{A000}", "\u{9FFF}", "\u{3005}",
];

/// Words for sentences and keyword queries: some match names, some do not.
pub(super) const WORDS: &[&str] = &[
    "read",
    "file",
    "search",
    "issue",
    "create",
    "github",
    "list",
    "the",
    "a",
    "of",
    "Résumé",
    "中文",
    "delete",
    "plan",
    "send",
    "mail",
    "ping",
    "status",
    "Search",
    "x",
    "searching",
    "files",
    "created",
    "sends",
    // Chinese, Japanese and Korean (contract 5): runs that share
    // characters and pairs, one glued to Latin letters.
    "读取文件",
    "文件",
    "创建会议",
    "会议",
    "mcp服务器",
    "ファイルを読む",
    "ファイル",
    "파일 읽기",
];

/// Text that trims to nothing (Unicode `White_Space`, as `str::trim` sees it).
pub(super) const BLANK: &[&str] = &["", " ", "\t\n", "\u{a0}\u{2028}", "\r\n", "\u{3000}"];

/// Raw-name stems; the variants differ only in case or `-`/`_`.
pub(super) const STEMS: &[&str] = &[
    "search",
    "search_a",
    "read",
    "plan",
    "create_issue",
    "ping",
    "x",
];

/// Names the catalog treats specially: the resident core and the doors;
/// `edit` and `exec` twice, as the only ones the mode gate refuses.
pub(super) const SPECIAL_NAMES: &[&str] = &[
    "read", "search", "status", "edit", "exec", "edit", "exec", "describe", "call",
];

/// Names that never match `^[A-Za-z0-9_-]{1,64}$`.
pub(super) const INVALID_NAMES: &[&str] = &["", "a.b", "é", "a b", "a\u{0}", "tool/x", "名前"];

/// Adversarial text: glued pieces, sentences, blank text, text at the hint
/// boundaries, and text hundreds of bytes long.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => vec(select(PIECES), 0..10).prop_map(|pieces| pieces.concat()),
        3 => sentence(),
        1 => select(BLANK).prop_map(str::to_string),
        2 => boundary_text(),
        1 => long_text(),
    ]
    .boxed()
}

/// How a generated sentence ends.
pub(super) const SENTENCE_ENDS: &[&str] = &["", ".", ". More to say.", ".\nSecond line."];

/// What may straddle byte 77 of a boundary text, and what may follow it.
pub(super) const BOUNDARY_MIDS: &[&str] = &["", "é", "中", "🦀", "e\u{301}", " ", "\u{0}"];
pub(super) const BOUNDARY_TAILS: &[&str] =
    &["", "x", " tail words", ". Next sentence.", "\nline two"];

/// Origins: valid server ids, and ones the pattern refuses.
pub(super) const ORIGINS: &[&str] = &["github", "alpha", "beta", "a-b", "x9", "a"];
pub(super) const INVALID_ORIGINS: &[&str] = &["a_b", "UP", "", "-a", "a-", "é", "a b"];

/// Raw-name lengths around the 64-byte minted limit, and their fill.
pub(super) const LONG_NAME_LENGTHS: &[usize] = &[1, 55, 56, 57, 63, 64, 65];
pub(super) const LONG_NAME_FILL: &[&str] = &["n", "N", "_", "-"];

/// Words joined by spaces, sometimes followed by a second sentence.
pub(super) fn sentence() -> impl Strategy<Value = String> {
    (vec(select(WORDS), 1..8), select(SENTENCE_ENDS))
        .prop_map(|(words, end)| format!("{}{end}", words.join(" ")))
}

/// Text whose first sentence is 74–82 ASCII bytes and then perhaps a
/// multibyte or combining character that straddles byte 77, so the hint is
/// kept whole (≤ 80) or cut on a char boundary (SPEC §4).
pub fn boundary_text() -> BoxedStrategy<String> {
    (74usize..=82, select(BOUNDARY_MIDS), select(BOUNDARY_TAILS))
        .prop_map(|(n, mid, tail)| format!("{}{mid}{tail}", "a".repeat(n)))
        .boxed()
}

/// Hundreds of bytes of words.
pub fn long_text() -> BoxedStrategy<String> {
    vec(select(WORDS), 40..120)
        .prop_map(|words| words.join(" "))
        .boxed()
}

/// Applies a case/separator variant to a stem: `search_a`, `Search_a`,
/// `SEARCH_A`, `search-a`, ...
pub(super) fn variant(stem: &str, case: u8, dash: bool) -> String {
    let cased = match case {
        1 => {
            let mut chars = stem.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_uppercase().chain(chars).collect()
            })
        }
        2 => stem.to_ascii_uppercase(),
        _ => stem.to_string(),
    };
    if dash { cased.replace('_', "-") } else { cased }
}

/// A raw name: stems and their case/separator variants (to provoke
/// `admit.collision`), the resident names and the doors, names whose minted
/// form is 64 or 65 bytes, invalid names, and arbitrary text.
pub fn raw_name() -> BoxedStrategy<String> {
    prop_oneof![
        10 => (select(STEMS), 0u8..3, any::<bool>())
            .prop_map(|(stem, case, dash)| variant(stem, case, dash)),
        3 => select(SPECIAL_NAMES).prop_map(str::to_string),
        // `github__` is 8 bytes: 56/57 mint to 64/65 bytes.
        1 => (select(LONG_NAME_LENGTHS), select(LONG_NAME_FILL))
            .prop_map(|(n, c)| c.repeat(n)),
        1 => select(INVALID_NAMES).prop_map(str::to_string),
        1 => text(),
    ]
    .boxed()
}

/// An origin: mostly `host` and valid server ids, sometimes invalid ones
/// (`a_b`, `UP`, 33 characters, ...) or exactly 32 characters.
pub fn origin() -> BoxedStrategy<String> {
    prop_oneof![
        6 => Just("host".to_string()),
        4 => select(ORIGINS).prop_map(str::to_string),
        1 => select(INVALID_ORIGINS).prop_map(str::to_string),
        1 => select(&[32usize, 33][..]).prop_map(|n| "o".repeat(n)),
    ]
    .boxed()
}

/// A description or disclosure: mostly sentences, often at the hint
/// boundaries or long, sometimes any adversarial text.
pub fn description() -> BoxedStrategy<String> {
    prop_oneof![
        6 => sentence(),
        2 => boundary_text(),
        1 => long_text(),
        2 => text(),
    ]
    .boxed()
}
