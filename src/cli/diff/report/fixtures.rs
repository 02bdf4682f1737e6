//! The entries the format modules' tests render: one of every status and
//! every kind of change ([`every_status`]).

use disclose_replay::golden::unified;

use super::super::session::{DigestChange, RefusalCount};
use super::{Change, DiffEntry, DiffStatus, FirstDivergence, Sizes, TranscriptChange};

pub fn entry(name: &str, status: DiffStatus) -> DiffEntry {
    DiffEntry {
        name: name.into(),
        status,
    }
}

/// One entry of every status and every kind of change: what the three
/// reports are pinned on, byte for byte.
pub fn every_status() -> Vec<DiffEntry> {
    let prefix = TranscriptChange {
        divergence: Some(FirstDivergence {
            old: Some((4, "render".into())),
            new: Some((4, "render".into())),
            diff: unified(
                b"- x: a\tb\n",
                b"- x: a b `` \n",
                "old line 4 render",
                "new line 4 render",
            ),
        }),
        render: Sizes {
            old: Some(120),
            new: Some(124),
        },
        tool_defs: Sizes {
            old: Some(300),
            new: Some(300),
        },
        prefix_changed: true,
        headroom: Sizes {
            old: Some(900),
            new: Some(896),
        },
        refusals: vec![
            RefusalCount {
                code: "call.misfit".into(),
                old: 1,
                new: 0,
            },
            RefusalCount {
                code: "gate.mode".into(),
                old: 0,
                new: 1,
            },
            RefusalCount {
                code: "call.unknown".into(),
                old: 2,
                new: 3,
            },
        ],
        digests: vec![DigestChange {
            name: "x__get".into(),
            old: "0123456789abcdef0123".into(),
            new: "fedcba9876543210fedc".into(),
        }],
    };
    let framing = TranscriptChange {
        divergence: None,
        render: Sizes {
            old: None,
            new: None,
        },
        tool_defs: Sizes {
            old: Some(10),
            new: Some(10),
        },
        prefix_changed: false,
        headroom: Sizes {
            old: None,
            new: None,
        },
        refusals: Vec::new(),
        digests: Vec::new(),
    };
    let moved = TranscriptChange {
        divergence: Some(FirstDivergence {
            old: Some((5, "call".into())),
            new: None,
            diff: "-refused\n".into(),
        }),
        ..framing.clone()
    };
    vec![
        entry("a/same.txt", DiffStatus::Unchanged),
        entry("a/new.txt", DiffStatus::Added),
        entry("a/old.txt", DiffStatus::Removed),
        entry("a/notes.txt", DiffStatus::Unpaired { side: "OLD" }),
        entry(
            "b/prefix|cut.txt",
            DiffStatus::Changed(Box::new(Change::Transcript(prefix))),
        ),
        entry(
            "b/framing.txt",
            DiffStatus::Changed(Box::new(Change::Transcript(framing))),
        ),
        entry(
            "b/moved.txt",
            DiffStatus::Changed(Box::new(Change::Transcript(moved))),
        ),
        entry(
            "vocabulary.txt",
            DiffStatus::Changed(Box::new(Change::Text {
                diff: unified(b"E_A\n", b"E_B\n", "old", "new"),
            })),
        ),
        entry(
            "c/<broken>.txt",
            DiffStatus::Changed(Box::new(Change::Undecodable {
                side: "new",
                error: "byte 22: a block header does not start with \"=== \"".into(),
            })),
        ),
    ]
}
