//! The dormant index and its greedy packer (SPEC §4, seed 001 §8-60).
//!
//! [`pack`] is the Lean model's `pack`, as a pure function of lengths; the
//! index is rendered through it, so the theorems tested on `pack` hold for
//! the bytes. The packer walks only as far as the ceiling lets it: rendering
//! a catalog of 100,000 dormant tools costs what rendering 100 does.

use crate::DORMANT_INDEX_CEILING;

/// The index's first line.
pub const INDEX_HEADER: &str = "Dormant (describe a name for its guide; call runs a tool):\n";

/// One capability in the index, by the lengths of its two forms (each
/// counting its trailing `\n`), as in the Lean `Entry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Length of `- <name>: <hint>\n`.
    pub hinted: usize,
    /// Length of `- <name>\n`.
    pub bare: usize,
}

/// How a listed entry appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// With its hint.
    Hinted,
    /// Name only.
    Bare,
}

/// The packer's result: how each listed entry appears, the bytes used, and
/// how many entries were not listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// One per listed entry, in order.
    pub shown: Vec<Shown>,
    /// Bytes of the listed lines.
    pub used: usize,
    /// Entries not listed: the first that did not fit and all after it.
    pub left: usize,
}

/// The Lean `pack`: in order, list an entry hinted if its hinted line fits the
/// room left, else bare if its bare line fits, else stop. Greedy and one pass:
/// an earlier entry never turns bare because of a later one.
pub fn pack<I>(room: usize, entries: I) -> Packed
where
    I: IntoIterator<Item = Entry>,
    I::IntoIter: ExactSizeIterator,
{
    let mut entries = entries.into_iter();
    let mut packed = Packed {
        shown: Vec::new(),
        used: 0,
        left: 0,
    };
    let mut room = room;
    while let Some(entry) = entries.next() {
        let (shown, cost) = if entry.hinted <= room {
            (Shown::Hinted, entry.hinted)
        } else if entry.bare <= room {
            (Shown::Bare, entry.bare)
        } else {
            packed.left = entries.len() + 1;
            break;
        };
        packed.shown.push(shown);
        packed.used += cost;
        room -= cost;
    }
    packed
}

/// The marker line for `n` unlisted entries: `+<n> more\n`.
pub fn marker(n: usize) -> String {
    format!("+{n} more\n")
}

/// The room the packer gets: the ceiling less the header and the marker for
/// the *total* count. SPEC §4: the marker is budgeted at its widest, so it
/// always fits whatever the packer leaves out.
pub fn room_for(total: usize) -> usize {
    let room = DORMANT_INDEX_CEILING.saturating_sub(INDEX_HEADER.len() + marker(total).len());
    #[cfg(any(test, feature = "mutants"))]
    let room = crate::mutant::room_for(room);
    room
}

/// A dormant capability's two possible index lines, built once at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DormantLine {
    name: String,
    hinted: String,
    bare: String,
}

impl DormantLine {
    /// A dormant tool: `- <name>: <hint>\n` or `- <name>\n`.
    pub fn tool(name: &str, hint: &str) -> DormantLine {
        DormantLine {
            name: name.to_string(),
            hinted: format!("- {name}: {hint}\n"),
            bare: format!("- {name}\n"),
        }
    }

    /// A skill: `- skill <name>: <hint>\n` or `- skill <name>\n`.
    pub fn skill(name: &str, hint: &str) -> DormantLine {
        DormantLine {
            name: name.to_string(),
            hinted: format!("- skill {name}: {hint}\n"),
            bare: format!("- skill {name}\n"),
        }
    }

    /// The capability's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lengths the packer sees.
    pub fn entry(&self) -> Entry {
        Entry {
            hinted: self.hinted.len(),
            bare: self.bare.len(),
        }
    }
}

/// Appends the dormant index of `lines` (already in stable order) to `out`;
/// nothing when `lines` is empty.
pub fn write_index(out: &mut String, lines: &[DormantLine]) {
    if lines.is_empty() {
        return;
    }
    let packed = pack(room_for(lines.len()), lines.iter().map(DormantLine::entry));
    out.push_str(INDEX_HEADER);
    for (line, shown) in lines.iter().zip(&packed.shown) {
        out.push_str(match shown {
            Shown::Hinted => &line.hinted,
            Shown::Bare => &line.bare,
        });
    }
    if packed.left > 0 {
        out.push_str(&marker(packed.left));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(hinted: usize, bare: usize) -> Entry {
        Entry { hinted, bare }
    }

    #[test]
    fn hinted_then_bare_then_stop() {
        let packed = pack(30, [e(20, 8), e(15, 8), e(9, 5), e(1, 1)]);
        assert_eq!(packed.shown, vec![Shown::Hinted, Shown::Bare]);
        assert_eq!(packed.used, 28);
        assert_eq!(packed.left, 2);
    }

    #[test]
    fn exact_fit_is_hinted() {
        let packed = pack(20, [e(20, 8)]);
        assert_eq!(
            (packed.shown, packed.used, packed.left),
            (vec![Shown::Hinted], 20, 0)
        );
    }

    #[test]
    fn empty_lines_render_nothing() {
        let mut out = String::new();
        write_index(&mut out, &[]);
        assert_eq!(out, "");
    }
}
