//! Golden comparison (SPEC §12–§14): are a replay's transcript bytes the
//! golden's bytes, and if not, where do they first part and how?
//!
//! The verdict is byte-exact: no trimming, no newline normalisation. Only
//! the *explanation* of a mismatch is friendlier: it names the first block
//! that differs (both sides decoded with [`transcript::decode`]) and renders
//! a unified diff of that block with invisible bytes made visible, so a
//! trailing space or a `\r` cannot hide. When the golden's framing is
//! broken (a hand edit that changed a block's length), the block is the
//! replay's block where the bytes first part; when they part before any
//! block, the diff covers the whole file.
//!
//! Pure: bytes in, text out. Reading goldens, blessing them and printing
//! belong to the CLI.

use std::fmt::Write as _;

use similar::TextDiff;

use crate::transcript::{self, Block, DecodeError};

/// Lines of context around each change in a diff.
pub const CONTEXT_LINES: usize = 3;

/// The longest one unified diff may search for the fewest edits before it
/// settles for a correct but longer diff: Myers' search is quadratic in the
/// lines that differ, so two blocks of 100,000 lines that share none would
/// otherwise hold `check` for minutes (docs/decisions.md, "A diff searches
/// for at most two seconds").
pub const DIFF_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Stands for a tab in a visible line: its Unicode control picture, like
/// every other C0 control (not `→`, which the reports use for "became").
pub const TAB: char = '␉';
/// Stands for a carriage return in a visible line.
pub const CARRIAGE_RETURN: char = '␍';
/// Stands for each trailing space of a visible line.
pub const TRAILING_SPACE: char = '·';
/// The line a visible text ends with when its bytes have no final `\n`.
pub const NO_FINAL_NEWLINE: &str = "\\ no newline at end";

/// Which block of a transcript, as its header names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockId {
    /// The op's 1-based line in the session.
    pub line: usize,
    /// The op's name.
    pub op: String,
}

/// How a transcript departs from its golden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The first differing block: the replay's (the golden's when the
    /// replay has no block there). `None` when the bytes part before any
    /// block.
    pub block: Option<BlockId>,
    /// Why the golden is not a transcript, when it is not.
    pub undecodable: Option<DecodeError>,
    /// A unified diff, golden (`-`) to replay (`+`), with invisible bytes
    /// made visible: of the first differing block (header line included, so
    /// a changed length or line shows), or of the whole file when there is
    /// no such block.
    pub diff: String,
}

/// Compares a replay's transcript with its golden, byte for byte. `None`
/// when they are identical.
pub fn compare(golden: &[u8], replay: &[u8]) -> Option<Mismatch> {
    if golden == replay {
        return None;
    }
    let undecodable = match transcript::decode(golden) {
        Ok(expected) => match by_blocks(&expected, replay) {
            Some(mismatch) => return Some(mismatch),
            None => None,
        },
        Err(error) => Some(error),
    };
    // The golden's framing is broken or spelled differently (`=== 07 …`):
    // name the replay's block where the bytes first part.
    Some(by_first_byte(golden, replay, undecodable))
}

/// The first block that differs when both sides decode; `None` when the
/// replay does not decode or every block decodes equal.
fn by_blocks(expected: &[Block<'_>], replay: &[u8]) -> Option<Mismatch> {
    let actual = transcript::decode(replay).ok()?;
    let i = (0..expected.len().max(actual.len())).find(|i| expected.get(*i) != actual.get(*i))?;
    let (old, new) = (expected.get(i), actual.get(i));
    let named = new.or(old).map(|b| BlockId {
        line: b.line,
        op: b.op.to_string(),
    });
    Some(Mismatch {
        block: named,
        undecodable: None,
        diff: diff(&framed(old), &framed(new)),
    })
}

/// Where the bytes first part, the replay's block holding that byte (the
/// last block when the golden only has more), against the golden's bytes
/// from the same offset to where that block plausibly ends. The whole file
/// when they part before the first block.
fn by_first_byte(golden: &[u8], replay: &[u8], undecodable: Option<DecodeError>) -> Mismatch {
    let whole = |undecodable| Mismatch {
        block: None,
        undecodable,
        diff: diff(golden, replay),
    };
    let Ok(blocks) = transcript::decode(replay) else {
        return whole(undecodable);
    };
    let parted = golden
        .iter()
        .zip(replay)
        .take_while(|(a, b)| a == b)
        .count();
    let spans = spans(replay, &blocks);
    let held = spans
        .iter()
        .zip(&blocks)
        .find(|((start, end), _)| *start <= parted && parted < *end)
        .or_else(|| {
            spans
                .last()
                .zip(blocks.last())
                .filter(|_| parted >= replay.len())
        });
    let Some((&(start, end), block)) = held else {
        return whole(undecodable);
    };
    let golden_end = plausible_end(golden, start);
    Mismatch {
        block: Some(BlockId {
            line: block.line,
            op: block.op.to_string(),
        }),
        undecodable,
        diff: diff(
            golden.get(start..golden_end).unwrap_or_default(),
            replay.get(start..end).unwrap_or_default(),
        ),
    }
}

/// Each block's byte span, header line included, in `bytes`.
fn spans(bytes: &[u8], blocks: &[Block<'_>]) -> Vec<(usize, usize)> {
    let base = bytes.as_ptr() as usize;
    let mut start = transcript::MAGIC.len();
    blocks
        .iter()
        .map(|block| {
            let end = (block.output.as_ptr() as usize).saturating_sub(base) + block.output.len();
            let span = (start, end);
            start = end;
            span
        })
        .collect()
}

/// Where the block starting at `start` of a golden that may be damaged
/// plausibly ends: where its header says, when a header or the end of the
/// file is there; else at the next line that starts with `=== `; else at
/// the end.
fn plausible_end(golden: &[u8], start: usize) -> usize {
    let rest = golden.get(start..).unwrap_or_default();
    let header_len = rest
        .iter()
        .position(|b| *b == b'\n')
        .map_or(rest.len(), |p| p + 1);
    let claimed = std::str::from_utf8(rest.get(..header_len).unwrap_or_default())
        .ok()
        .and_then(|h| h.trim_end().rsplit(' ').next()?.parse::<usize>().ok())
        .and_then(|n| header_len.checked_add(n))
        .filter(|end| {
            *end == rest.len() || rest.get(*end..).is_some_and(|r| r.starts_with(b"=== "))
        });
    let next_header = || {
        rest.get(header_len..)?
            .windows(5)
            .position(|w| w == b"\n=== ")
            .map(|p| header_len + p + 1)
    };
    start + claimed.or_else(next_header).unwrap_or(rest.len())
}

/// Compares two whole files (the vocabulary, or anything not framed as a
/// transcript). `None` when they are identical.
pub fn compare_bytes(golden: &[u8], actual: &[u8]) -> Option<Mismatch> {
    (golden != actual).then(|| Mismatch {
        block: None,
        undecodable: None,
        diff: diff(golden, actual),
    })
}

/// A block as it stands in the transcript: header line, then its bytes.
fn framed(block: Option<&Block<'_>>) -> Vec<u8> {
    let Some(block) = block else {
        return Vec::new();
    };
    let mut out = format!("=== {} {} {}\n", block.line, block.op, block.output.len()).into_bytes();
    out.extend_from_slice(block.output);
    out
}

/// A unified diff of two byte strings, golden (`-`) to actual (`+`), each
/// line made visible first.
pub fn diff(golden: &[u8], actual: &[u8]) -> String {
    unified(golden, actual, "golden", "replay")
}

/// A unified diff of two byte strings under the given labels, with
/// [`CONTEXT_LINES`] of context, each line made [`visible`] first: the one
/// way every report of the harness (`check`, `check --impl`, `diff`) shows
/// a difference.
pub fn unified(old: &[u8], new: &[u8], old_label: &str, new_label: &str) -> String {
    let old = visible(old);
    let new = visible(new);
    TextDiff::configure()
        .timeout(DIFF_TIMEOUT)
        .diff_lines(old.as_str(), new.as_str())
        .unified_diff()
        .context_radius(CONTEXT_LINES)
        .header(old_label, new_label)
        .to_string()
}

/// `bytes` with every invisible byte made visible, one visible line per
/// line of `bytes`, each ending in `\n`:
///
/// - every control character is its Unicode control picture (a tab `␉`, a
///   carriage return `␍`, `␀`, `␛`, `␡`); each trailing space is `·` (also
///   before a final `\r`);
/// - other whitespace (a no-break space), other control characters, and
///   characters that draw nothing (zero-width spaces and joiners, bidi
///   controls, the soft hyphen, variation selectors: Unicode's
///   Default_Ignorable_Code_Point) are `⟨U+XXXX⟩`;
/// - a byte that is not part of valid UTF-8 is `\xNN`;
/// - bytes without a final `\n` end with the line `\ no newline at end`.
pub fn visible(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut lines = bytes.split(|b| *b == b'\n').peekable();
    while let Some(line) = lines.next() {
        let last = lines.peek().is_none();
        if last && line.is_empty() {
            break;
        }
        visible_line(&mut out, line);
        out.push('\n');
        if last {
            out.push_str(NO_FINAL_NEWLINE);
            out.push('\n');
        }
    }
    out
}

fn visible_line(out: &mut String, line: &[u8]) {
    // The tail of spaces and carriage returns: its spaces are `·`, so a
    // space before a final `\r` shows too.
    let kept = line.len()
        - line
            .iter()
            .rev()
            .take_while(|b| matches!(b, b' ' | b'\r'))
            .count();
    let (body, tail) = line.split_at(kept);
    for chunk in body.utf8_chunks() {
        for c in chunk.valid().chars() {
            visible_char(out, c);
        }
        for byte in chunk.invalid() {
            let _ = write!(out, "\\x{byte:02X}");
        }
    }
    out.extend(tail.iter().map(|b| match b {
        b' ' => TRAILING_SPACE,
        _ => CARRIAGE_RETURN,
    }));
}

fn visible_char(out: &mut String, c: char) {
    match c {
        '\t' => out.push(TAB),
        '\r' => out.push(CARRIAGE_RETURN),
        '\u{0}'..='\u{1f}' => out.extend(char::from_u32(0x2400 + u32::from(c))),
        '\u{7f}' => out.push('␡'),
        ' ' => out.push(' '),
        c if c.is_whitespace() || c.is_control() || draws_nothing(c) => {
            let _ = write!(out, "⟨U+{:04X}⟩", u32::from(c));
        }
        c => out.push(c),
    }
}

/// Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt,
/// Unicode 15): characters a terminal draws as nothing, so two lines that
/// differ only by one look the same.
fn draws_nothing(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
        | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "disclose transcript 1\n";

    #[test]
    fn identical_bytes_are_no_mismatch() {
        let text = format!("{HEAD}=== 2 render 3\nab\n");
        assert_eq!(compare(text.as_bytes(), text.as_bytes()), None);
    }

    #[test]
    fn names_the_first_differing_block_and_diffs_only_it() {
        let golden = format!("{HEAD}=== 2 tool 4\nabc\n=== 3 render 4\nold\n=== 4 pins 2\nz\n");
        let replay = format!("{HEAD}=== 2 tool 4\nabc\n=== 3 render 4\nnew\n=== 4 pins 2\ny\n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 3,
                op: "render".into()
            })
        );
        assert_eq!(mismatch.undecodable, None);
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 3 render 4\n-old\n+new\n"
        );
    }

    #[test]
    fn a_missing_block_is_named_by_the_golden() {
        let golden = format!("{HEAD}=== 2 tool 2\na\n=== 5 pins 2\nz\n");
        let replay = format!("{HEAD}=== 2 tool 2\na\n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 5,
                op: "pins".into()
            })
        );
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +0,0 @@\n-=== 5 pins 2\n-z\n"
        );
    }

    #[test]
    fn trailing_space_tab_and_cr_are_visible() {
        let golden = format!("{HEAD}=== 2 describe 6\na\tb \r\n");
        let replay = format!("{HEAD}=== 2 describe 6\na\tb\r \n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 2 describe 6\n-a␉b·␍\n+a␉b␍·\n"
        );
    }

    #[test]
    fn a_missing_final_newline_is_noted() {
        let golden = format!("{HEAD}=== 2 render 3\nab\n");
        let replay = format!("{HEAD}=== 2 render 2\nab");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,3 @@\n-=== 2 render 3\n+=== 2 render 2\n ab\n+\\ no newline at end\n"
        );
    }

    #[test]
    fn an_undecodable_golden_still_names_the_block_where_bytes_part() {
        let golden = b"disclose transcript 1\n=== 2 render 99\nab\xff\n";
        let replay = format!("{HEAD}=== 2 render 3\nab\n");
        let mismatch = compare(golden, replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 2,
                op: "render".into()
            })
        );
        assert_eq!(
            mismatch.undecodable.map(|e| e.offset),
            Some(HEAD.len()),
            "the framing error is at the first block header"
        );
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n-=== 2 render 99\n-ab\\xFF\n+=== 2 render 3\n+ab\n"
        );
    }

    #[test]
    fn a_byte_added_inside_a_block_is_shown_in_that_block_only() {
        // A hand edit that breaks the framing: a space before a newline.
        let golden = format!("{HEAD}=== 2 tool 2\na\n=== 3 render 3\nab \n=== 4 pins 2\nz\n");
        let replay = format!("{HEAD}=== 2 tool 2\na\n=== 3 render 3\nab\n=== 4 pins 2\nz\n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert!(mismatch.undecodable.is_some());
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 3,
                op: "render".into()
            })
        );
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n === 3 render 3\n-ab·\n+ab\n"
        );
    }

    #[test]
    fn bytes_appended_to_a_golden_are_pinned_on_the_last_block() {
        let replay = format!("{HEAD}=== 2 tool 2\na\n=== 4 pins 2\nz\n");
        let golden = format!("{replay}x");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 4,
                op: "pins".into()
            })
        );
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,4 +1,2 @@\n === 4 pins 2\n z\n-x\n-\\ no newline at end\n"
        );
    }

    #[test]
    fn framing_spelled_differently_names_the_block() {
        let golden = format!("{HEAD}=== 02 render 2\na\n");
        let replay = format!("{HEAD}=== 2 render 2\na\n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(mismatch.undecodable, None);
        assert_eq!(
            mismatch.block,
            Some(BlockId {
                line: 2,
                op: "render".into()
            })
        );
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n-=== 02 render 2\n+=== 2 render 2\n a\n"
        );
    }

    #[test]
    fn a_wrong_first_line_gets_a_whole_file_diff() {
        let golden = "disclose transcript 0\n=== 2 render 2\na\n";
        let replay = format!("{HEAD}=== 2 render 2\na\n");
        let mismatch = compare(golden.as_bytes(), replay.as_bytes()).unwrap();
        assert_eq!(mismatch.block, None);
        assert_eq!(mismatch.undecodable.map(|e| e.offset), Some(0));
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,3 +1,3 @@\n-disclose transcript 0\n+disclose transcript 1\n === 2 render 2\n a\n"
        );
    }

    #[test]
    fn visible_marks_controls_and_odd_whitespace() {
        assert_eq!(visible(b""), "");
        assert_eq!(visible(b"\n"), "\n");
        assert_eq!(visible(b"a  \n"), "a··\n");
        assert_eq!(visible(b"\x00\x1b\x7f"), "␀␛␡\n\\ no newline at end\n");
        assert_eq!(
            visible("a\u{a0}b\u{200b}".as_bytes()),
            "a⟨U+00A0⟩b⟨U+200B⟩\n\\ no newline at end\n"
        );
        assert_eq!(visible(b"\xe2\x80x\n"), "\\xE2\\x80x\n");
        // A soft hyphen, a right-to-left override and a variation selector
        // draw nothing on a terminal.
        assert_eq!(
            visible("a\u{ad}b\u{202e}c\u{fe0f}\n".as_bytes()),
            "a⟨U+00AD⟩b⟨U+202E⟩c⟨U+FE0F⟩\n"
        );
        assert_eq!(visible("é 漢字 ✓\n".as_bytes()), "é 漢字 ✓\n");
    }

    #[test]
    fn compare_bytes_diffs_whole_files() {
        assert_eq!(compare_bytes(b"a\n", b"a\n"), None);
        let mismatch = compare_bytes(b"a\nb\n", b"a\nc\n").unwrap();
        assert_eq!(mismatch.block, None);
        assert_eq!(
            mismatch.diff,
            "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
        );
    }
}
