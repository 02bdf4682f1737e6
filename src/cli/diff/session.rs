//! One session's difference: two transcripts' bytes in, what changed and
//! what it costs out (SPEC §12, §15).
//!
//! Called only when the raw bytes differ, so a tree of equal transcripts is
//! never decoded. It reads transcripts as the harness writes them: refusal
//! lines, `admitted tool` lines and `digests` blocks. It does no I/O and
//! does not print.

use std::collections::BTreeMap;

use disclose::DORMANT_INDEX_CEILING;
use disclose_replay::golden::unified;
use disclose_replay::invariants::index_of;
use disclose_replay::transcript::{self, Block, MAGIC};

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
pub struct FirstDivergence {
    /// The old block's line and op, if the old transcript has one there.
    pub old: Option<(usize, String)>,
    /// The new block's line and op.
    pub new: Option<(usize, String)>,
    /// A unified diff of the two blocks' outputs, invisible bytes made
    /// visible ([`disclose_replay::golden::visible`]).
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
    pub divergence: Option<FirstDivergence>,
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
            diff: unified(old, new, "old", "new"),
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

fn divergence<'a>(old: &[Block<'a>], new: &[Block<'a>]) -> Option<FirstDivergence> {
    let at = (0..old.len().max(new.len())).find(|i| old.get(*i) != new.get(*i))?;
    let (a, b) = (old.get(at), new.get(at));
    let label = |side: &str, block: Option<&Block<'_>>| match block {
        Some(block) => format!("{side} line {} {}", block.line, block.op),
        None => format!("{side} (no block)"),
    };
    let text = |block: Option<&Block<'a>>| block.map_or(&[][..], |b| b.output);
    Some(FirstDivergence {
        old: a.map(|b| (b.line, b.op.to_string())),
        new: b.map(|b| (b.line, b.op.to_string())),
        diff: unified(text(a), text(b), &label("old", a), &label("new", b)),
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
