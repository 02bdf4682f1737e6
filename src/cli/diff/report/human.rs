//! The `diff` report for a person: each session that is not unchanged,
//! with its first divergence, prefix, index headroom, refusals and digests,
//! then the summary line, always last.

use std::fmt::Write as _;

use super::{
    APPROVAL_VOID, Change, DiffEntry, DiffStatus, counts, digests_line, indent, prefix_line,
    refusals_line, sizes, summary, where_,
};

/// The human report.
pub fn human(entries: &[DiffEntry]) -> String {
    let mut out = String::new();
    for entry in entries {
        let name = &entry.name;
        match &entry.status {
            DiffStatus::Unchanged => {}
            DiffStatus::Added => {
                let _ = writeln!(out, "added      {name}");
            }
            DiffStatus::Removed => {
                let _ = writeln!(out, "removed    {name}");
            }
            DiffStatus::Unpaired { side } => {
                let _ = writeln!(out, "ignored    {name} (not a transcript; only in {side})");
            }
            DiffStatus::Changed(change) => match &**change {
                Change::Text { diff } => {
                    let _ = writeln!(out, "changed    {name} (not a transcript)");
                    indent(&mut out, diff, "    ");
                }
                Change::Undecodable { side, error } => {
                    let _ = writeln!(
                        out,
                        "changed    {name}: the {side} transcript does not decode: {error}"
                    );
                }
                Change::Transcript(t) => {
                    let _ = writeln!(out, "changed    {name}");
                    match &t.divergence {
                        Some(d) => {
                            let _ = writeln!(out, "  first divergence: {}", where_(d));
                            indent(&mut out, &d.diff, "    ");
                        }
                        None => {
                            let _ = writeln!(
                                out,
                                "  every block is the same; only the framing bytes differ"
                            );
                        }
                    }
                    let _ = writeln!(out, "  prefix: {}", prefix_line(t));
                    if t.headroom.old.is_some() || t.headroom.new.is_some() {
                        let _ = writeln!(out, "  index headroom: {}", sizes(&t.headroom));
                    }
                    if !t.refusals.is_empty() {
                        let _ = writeln!(out, "  refusals: {}", refusals_line(t));
                    }
                    if !t.digests.is_empty() {
                        let _ = writeln!(
                            out,
                            "  digests changed: {}: {APPROVAL_VOID}",
                            digests_line(t)
                        );
                    }
                }
            },
        }
    }
    let _ = writeln!(out, "{}", summary(&counts(entries)));
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{entry, every_status};
    use super::*;

    #[test]
    fn every_status_for_a_person() {
        insta::assert_snapshot!(human(&every_status()), @r#"
        added      a/new.txt
        removed    a/old.txt
        ignored    a/notes.txt (not a transcript; only in OLD)
        changed    b/prefix|cut.txt
          first divergence: line 4 render: output differs
            --- old line 4 render
            +++ new line 4 render
            @@ -1 +1 @@
            -- x: a␉b
            +- x: a b ``·
          prefix: changed (render 120 B → 124 B (+4), tool_defs 300 B): a prompt-cache miss for every run like it
          index headroom: 900 B → 896 B (-4)
          refusals: call.misfit disappeared (1 → 0), gate.mode appeared (0 → 1), call.unknown count changed (2 → 3)
          digests changed: x__get 0123456789abcdef → fedcba9876543210: an approval bound to the old digest no longer applies
        changed    b/framing.txt
          every block is the same; only the framing bytes differ
          prefix: unchanged: the cached prefix still hits
        changed    b/moved.txt
          first divergence: old line 5 call, new no block
            -refused
          prefix: unchanged: the cached prefix still hits
        changed    vocabulary.txt (not a transcript)
            --- old
            +++ new
            @@ -1 +1 @@
            -E_A
            +E_B
        changed    c/<broken>.txt: the new transcript does not decode: byte 22: a block header does not start with "=== "
        5 changed, 1 added, 1 removed, 1 unchanged (1 non-transcript file in one tree only, ignored); the cached prefix changed in 1 session: a prompt-cache miss for every run like it
        "#);
    }

    #[test]
    fn nothing_changed_for_a_person() {
        let same = vec![entry("a.txt", DiffStatus::Unchanged)];
        insta::assert_snapshot!(human(&same), @"0 changed, 0 added, 0 removed, 1 unchanged");
    }
}
