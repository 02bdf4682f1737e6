//! What `disclose diff` found, told three ways, one module per format:
//! [`human`] (stdout by default), [`json`] (`--json`) and [`markdown`]
//! (`--markdown`, for a pull-request comment). The model is the list of
//! [`DiffEntry`]s; this module holds what the formats share — the counts
//! and their summary line, and each change's sizes, divergence, prefix,
//! refusals and digests as text. Unchanged sessions are counted in the
//! human and Markdown reports and listed only in JSON. It compares
//! nothing: [`super::session`] does.

#[cfg(test)]
mod fixtures;
mod human;
mod json;
mod markdown;

use std::fmt::Write as _;

pub use human::human;
pub use json::json;
pub use markdown::markdown;

use super::session::{Change, FirstDivergence, Sizes, TranscriptChange};
use super::{DiffEntry, DiffStatus};

const CACHE_MISS: &str = "a prompt-cache miss for every run like it";
const APPROVAL_VOID: &str = "an approval bound to the old digest no longer applies";

struct Counts {
    changed: usize,
    added: usize,
    removed: usize,
    unchanged: usize,
    unpaired: usize,
    prefix_changed: usize,
}

fn counts(entries: &[DiffEntry]) -> Counts {
    let mut c = Counts {
        changed: 0,
        added: 0,
        removed: 0,
        unchanged: 0,
        unpaired: 0,
        prefix_changed: 0,
    };
    for entry in entries {
        match &entry.status {
            DiffStatus::Unchanged => c.unchanged += 1,
            DiffStatus::Added => c.added += 1,
            DiffStatus::Removed => c.removed += 1,
            DiffStatus::Unpaired { .. } => c.unpaired += 1,
            DiffStatus::Changed(change) => {
                c.changed += 1;
                if matches!(&**change, Change::Transcript(t) if t.prefix_changed) {
                    c.prefix_changed += 1;
                }
            }
        }
    }
    c
}

fn summary(c: &Counts) -> String {
    let mut line = format!(
        "{} changed, {} added, {} removed, {} unchanged",
        c.changed, c.added, c.removed, c.unchanged
    );
    if c.unpaired > 0 {
        let _ = write!(
            line,
            " ({} non-transcript file{} in one tree only, ignored)",
            c.unpaired,
            if c.unpaired == 1 { "" } else { "s" }
        );
    }
    if c.prefix_changed > 0 {
        let _ = write!(
            line,
            "; the cached prefix changed in {} session{}: {CACHE_MISS}",
            c.prefix_changed,
            if c.prefix_changed == 1 { "" } else { "s" }
        );
    }
    line
}

fn bytes(n: Option<usize>) -> String {
    n.map_or("none".to_string(), |n| format!("{n} B"))
}

/// `601 B → 629 B (+28)`, or `601 B` when equal.
fn sizes(s: &Sizes) -> String {
    if s.old == s.new {
        return bytes(s.old);
    }
    match s.delta() {
        Some(d) => format!("{} → {} ({d:+})", bytes(s.old), bytes(s.new)),
        None => format!("{} → {}", bytes(s.old), bytes(s.new)),
    }
}

fn where_(divergence: &FirstDivergence) -> String {
    let side = |s: &Option<(usize, String)>| match s {
        Some((line, op)) => format!("line {line} {op}"),
        None => "no block".to_string(),
    };
    if divergence.old == divergence.new {
        format!("{}: output differs", side(&divergence.old))
    } else {
        format!(
            "old {}, new {}",
            side(&divergence.old),
            side(&divergence.new)
        )
    }
}

fn prefix_line(t: &TranscriptChange) -> String {
    if t.prefix_changed {
        format!(
            "changed (render {}, tool_defs {}): {CACHE_MISS}",
            sizes(&t.render),
            sizes(&t.tool_defs)
        )
    } else {
        "unchanged: the cached prefix still hits".to_string()
    }
}

fn refusals_line(t: &TranscriptChange) -> String {
    t.refusals
        .iter()
        .map(|r| {
            let verb = match (r.old, r.new) {
                (0, _) => "appeared",
                (_, 0) => "disappeared",
                _ => "count changed",
            };
            format!("{} {verb} ({} → {})", r.code, r.old, r.new)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn short(digest: &str) -> &str {
    digest.get(..16).unwrap_or(digest)
}

fn digests_line(t: &TranscriptChange) -> String {
    t.digests
        .iter()
        .map(|d| format!("{} {} → {}", d.name, short(&d.old), short(&d.new)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn indent(out: &mut String, text: &str, by: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "{by}{line}");
    }
}
