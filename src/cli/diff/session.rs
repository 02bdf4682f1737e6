//! One session's difference: two transcripts' bytes in, what changed and
//! what it costs out (SPEC §12, §15).
//!
//! Called only when the raw bytes differ, so a tree of equal transcripts is
//! never decoded. It reads transcripts as the harness writes them: refusal
//! lines, `admitted tool` lines and `digests` blocks. It does no I/O and
//! does not print.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use disclose::DORMANT_INDEX_CEILING;
use disclose::invariants::index_of;
use disclose::transcript::{self, Block, MAGIC};
use similar::{ChangeTag, TextDiff};

/// How two differing files differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Both are transcripts.
    Transcript(TranscriptChange),
    /// Neither is a transcript (`vocabulary.txt`): a whole-file diff.
    Text {
        /// The unified diff, invisible bytes made visible.
        diff: String,
    },
    /// One side claims to be a transcript but does not decode.
    Undecodable {
        /// `old` or `new`.
        side: &'static str,
        /// Where and why.
        error: String,
    },
}

/// Where the two transcripts first differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The old block's line and op, if the old transcript has one there.
    pub old: Option<(usize, String)>,
    /// The new block's line and op.
    pub new: Option<(usize, String)>,
    /// A unified diff of the two blocks' outputs.
    pub diff: String,
}

/// A before/after pair of optional byte counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Before.
    pub old: Option<usize>,
    /// After.
    pub new: Option<usize>,
}

impl Sizes {
    /// `new - old`, when both exist.
    pub fn delta(&self) -> Option<i64> {
        let old = i64::try_from(self.old?).ok()?;
        let new = i64::try_from(self.new?).ok()?;
        Some(new - old)
    }
}

/// A refusal code whose count changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusalCount {
    /// The code, e.g. `call.misfit`.
    pub code: String,
    /// How many blocks were refused with it before.
    pub old: usize,
    /// And after.
    pub new: usize,
}

/// A tool whose descriptor digest changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestChange {
    /// The minted name.
    pub name: String,
    /// The old digest, as the transcript shows it (16 or 64 hex).
    pub old: String,
    /// The new digest.
    pub new: String,
}

/// What changed between two transcripts of one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptChange {
    /// The first differing block; `None` when only the framing differs.
    pub divergence: Option<Divergence>,
    /// The first `render` block's bytes.
    pub render: Sizes,
    /// The first `tool_defs` block's bytes.
    pub tool_defs: Sizes,
    /// Whether any `render` or `tool_defs` byte changed.
    pub prefix_changed: bool,
    /// `DORMANT_INDEX_CEILING` less the index in the first `render`.
    pub headroom: Sizes,
    /// Codes whose count changed, by code.
    pub refusals: Vec<RefusalCount>,
    /// Tools in both transcripts whose digest changed, by name.
    pub digests: Vec<DigestChange>,
}

/// Compares two files whose bytes differ.
pub fn compare(old: &[u8], new: &[u8]) -> Change {
    let is_transcript = |b: &[u8]| b.starts_with(MAGIC.as_bytes());
    if !is_transcript(old) && !is_transcript(new) {
        return Change::Text {
            diff: unified(
                &String::from_utf8_lossy(old),
                &String::from_utf8_lossy(new),
                "old",
                "new",
            ),
        };
    }
    let old_blocks = match transcript::decode(old) {
        Ok(blocks) => blocks,
        Err(error) => {
            return Change::Undecodable {
                side: "old",
                error: error.to_string(),
            };
        }
    };
    let new_blocks = match transcript::decode(new) {
        Ok(blocks) => blocks,
        Err(error) => {
            return Change::Undecodable {
                side: "new",
                error: error.to_string(),
            };
        }
    };
    Change::Transcript(compare_blocks(&old_blocks, &new_blocks))
}

fn compare_blocks(old: &[Block<'_>], new: &[Block<'_>]) -> TranscriptChange {
    let outputs = |blocks: &[Block<'_>], op: &str| -> Vec<Vec<u8>> {
        blocks
            .iter()
            .filter(|b| b.op == op)
            .map(|b| b.output.to_vec())
            .collect()
    };
    let first_len =
        |blocks: &[Block<'_>], op: &str| blocks.iter().find(|b| b.op == op).map(|b| b.output.len());
    let headroom = |blocks: &[Block<'_>]| {
        blocks.iter().find(|b| b.op == "render").map(|b| {
            let render = String::from_utf8_lossy(b.output);
            DORMANT_INDEX_CEILING.saturating_sub(index_of(&render).len())
        })
    };
    TranscriptChange {
        divergence: divergence(old, new),
        render: Sizes {
            old: first_len(old, "render"),
            new: first_len(new, "render"),
        },
        tool_defs: Sizes {
            old: first_len(old, "tool_defs"),
            new: first_len(new, "tool_defs"),
        },
        prefix_changed: outputs(old, "render") != outputs(new, "render")
            || outputs(old, "tool_defs") != outputs(new, "tool_defs"),
        headroom: Sizes {
            old: headroom(old),
            new: headroom(new),
        },
        refusals: refusal_changes(old, new),
        digests: digest_changes(old, new),
    }
}

fn divergence(old: &[Block<'_>], new: &[Block<'_>]) -> Option<Divergence> {
    let at = (0..old.len().max(new.len())).find(|i| old.get(*i) != new.get(*i))?;
    let (a, b) = (old.get(at), new.get(at));
    let label = |side: &str, block: Option<&Block<'_>>| match block {
        Some(block) => format!("{side} line {} {}", block.line, block.op),
        None => format!("{side} (no block)"),
    };
    let text = |block: Option<&Block<'_>>| {
        block.map_or(String::new(), |b| {
            String::from_utf8_lossy(b.output).into_owned()
        })
    };
    Some(Divergence {
        old: a.map(|b| (b.line, b.op.to_string())),
        new: b.map(|b| (b.line, b.op.to_string())),
        diff: unified(&text(a), &text(b), &label("old", a), &label("new", b)),
    })
}

/// `refused <class> <code>: …` opens every refusal block (SPEC §9).
fn refusal_codes<'a>(blocks: &[Block<'a>]) -> BTreeMap<&'a str, usize> {
    let mut counts = BTreeMap::new();
    for block in blocks {
        let Some(rest) = block.output.strip_prefix(b"refused ") else {
            continue;
        };
        let line = rest.split(|b| *b == b'\n').next().unwrap_or(rest);
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        if let Some(code) = line.split(' ').nth(1).and_then(|c| c.strip_suffix(':')) {
            *counts.entry(code).or_insert(0) += 1;
        }
    }
    counts
}

fn refusal_changes(old: &[Block<'_>], new: &[Block<'_>]) -> Vec<RefusalCount> {
    let (old, new) = (refusal_codes(old), refusal_codes(new));
    let mut codes: Vec<&str> = old.keys().chain(new.keys()).copied().collect();
    codes.sort_unstable();
    codes.dedup();
    codes
        .into_iter()
        .filter_map(|code| {
            let (o, n) = (
                old.get(code).copied().unwrap_or(0),
                new.get(code).copied().unwrap_or(0),
            );
            (o != n).then(|| RefusalCount {
                code: code.to_string(),
                old: o,
                new: n,
            })
        })
        .collect()
}

/// Each tool's digest as the transcript shows it: 16 hex from its
/// `admitted tool` line, replaced by the full 64 from a `digests` block.
fn digests(blocks: &[Block<'_>]) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for block in blocks {
        let Ok(text) = std::str::from_utf8(block.output) else {
            continue;
        };
        match block.op {
            "tool" => {
                // admitted tool <name> (effect <e>, approval <a>, digest <16 hex>)
                let parsed = text.strip_prefix("admitted tool ").and_then(|rest| {
                    let (name, rest) = rest.split_once(" (")?;
                    let digest = rest.rsplit_once("digest ")?.1.strip_suffix(")\n")?;
                    Some((name, digest))
                });
                if let Some((name, digest)) = parsed {
                    map.insert(name.to_string(), digest.to_string());
                }
            }
            "digests" => {
                for line in text.lines() {
                    if let Some((name, digest)) = line.rsplit_once(' ') {
                        map.insert(name.to_string(), digest.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    map
}

fn digest_changes(old: &[Block<'_>], new: &[Block<'_>]) -> Vec<DigestChange> {
    let (old, new) = (digests(old), digests(new));
    old.iter()
        .filter_map(|(name, a)| {
            let b = new.get(name)?;
            // A 16-hex prefix and a full digest compare on the prefix.
            let n = a.len().min(b.len());
            (a.get(..n) != b.get(..n)).then(|| DigestChange {
                name: name.clone(),
                old: a.clone(),
                new: b.clone(),
            })
        })
        .collect()
}

/// A unified diff of `old` and `new` by line, three lines of context, with
/// invisible bytes made visible (see [`visible`]).
pub fn unified(old: &str, new: &str, old_label: &str, new_label: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        let _ = writeln!(out, "{}", hunk.header());
        for change in hunk.iter_changes() {
            let sign = match change.tag() {
                ChangeTag::Delete => '-',
                ChangeTag::Insert => '+',
                ChangeTag::Equal => ' ',
            };
            let value = change.value();
            let (body, ended) = value
                .strip_suffix('\n')
                .map_or((value, false), |body| (body, true));
            out.push(sign);
            out.push_str(&visible(body));
            out.push('\n');
            if !ended {
                out.push_str("\\ No newline at end of block\n");
            }
        }
    }
    out
}

/// One line with what a reader cannot see shown: control characters as
/// their Unicode control pictures (`\r` as `␍`, tab as `␉`), trailing spaces
/// as `·`, and other invisible or non-ASCII whitespace as `<U+XXXX>`.
pub fn visible(line: &str) -> String {
    let kept = line.trim_end_matches(' ');
    let mut out = String::with_capacity(line.len());
    for c in kept.chars() {
        match c {
            '\u{0}'..='\u{1f}' => {
                out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('?'));
            }
            '\u{7f}' => out.push('\u{2421}'),
            ' ' => out.push(' '),
            '\u{ad}' | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' => {
                let _ = write!(out, "<U+{:04X}>", u32::from(c));
            }
            c if c.is_whitespace() => {
                let _ = write!(out, "<U+{:04X}>", u32::from(c));
            }
            c => out.push(c),
        }
    }
    for _ in kept.len()..line.len() {
        out.push('·');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_shows_what_a_terminal_hides() {
        assert_eq!(visible("a\tb\r"), "a\u{2409}b\u{240d}");
        assert_eq!(visible("end  "), "end··");
        assert_eq!(visible("no\u{a0}break\u{200b}"), "no<U+00A0>break<U+200B>");
        assert_eq!(visible("plain text"), "plain text");
    }

    #[test]
    fn a_missing_final_newline_is_named() {
        let diff = unified("a\n", "a", "old", "new");
        assert_eq!(
            diff,
            "--- old\n+++ new\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of block\n"
        );
    }
}
