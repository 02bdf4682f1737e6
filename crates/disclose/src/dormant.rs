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
    DORMANT_INDEX_CEILING.saturating_sub(INDEX_HEADER.len() + marker(total).len())
}

/// A dormant capability's two possible index lines, built once at start as
/// one string: the hinted line `- [skill ]<name>: <hint>\n`, whose first
/// `bare_end` bytes followed by `\n` are the bare line `- [skill ]<name>\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DormantLine {
    hinted: String,
    name_at: usize,
    bare_end: usize,
}

impl DormantLine {
    /// A dormant tool: `- <name>: <hint>\n` or `- <name>\n`.
    pub fn tool(name: &str, hint: &str) -> DormantLine {
        DormantLine::of("- ", name, hint)
    }

    /// A skill: `- skill <name>: <hint>\n` or `- skill <name>\n`.
    pub fn skill(name: &str, hint: &str) -> DormantLine {
        DormantLine::of("- skill ", name, hint)
    }

    fn of(prefix: &str, name: &str, hint: &str) -> DormantLine {
        let mut hinted = String::with_capacity(prefix.len() + name.len() + hint.len() + 3);
        hinted.push_str(prefix);
        hinted.push_str(name);
        let bare_end = hinted.len();
        hinted.push_str(": ");
        hinted.push_str(hint);
        hinted.push('\n');
        DormantLine {
            hinted,
            name_at: prefix.len(),
            bare_end,
        }
    }

    /// The capability's name.
    pub fn name(&self) -> &str {
        self.hinted
            .get(self.name_at..self.bare_end)
            .unwrap_or_default()
    }

    /// The bare line without its newline.
    fn bare(&self) -> &str {
        self.hinted.get(..self.bare_end).unwrap_or_default()
    }

    /// The lengths the packer sees.
    pub fn entry(&self) -> Entry {
        Entry {
            hinted: self.hinted.len(),
            bare: self.bare_end + 1,
        }
    }
}

/// Appends the dormant index of `lines` (already in stable order) to `out`;
/// nothing when `lines` is empty.
pub fn write_index(out: &mut String, lines: &[DormantLine]) {
    if lines.is_empty() {
        return;
    }
    let room = crate::seam::room_for(lines.len());
    let packed = pack(room, lines.iter().map(DormantLine::entry));
    out.push_str(INDEX_HEADER);
    for (line, shown) in lines.iter().zip(&packed.shown) {
        match shown {
            Shown::Hinted => out.push_str(&line.hinted),
            Shown::Bare => {
                out.push_str(line.bare());
                out.push('\n');
            }
        }
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
    fn a_line_is_hinted_or_bare_and_names_its_capability() {
        let tool = DormantLine::tool("github__get_issue", "Get an issue");
        let skill = DormantLine::skill("triage", "Sort new issues");
        assert_eq!((tool.name(), skill.name()), ("github__get_issue", "triage"));
        // SPEC §4: `- <name>: <hint>` / `- <name>`, skills with `skill `.
        let (hinted, bare) = (
            "- github__get_issue: Get an issue\n",
            "- github__get_issue\n",
        );
        assert_eq!(tool.entry(), e(hinted.len(), bare.len()));
        let (skill_hinted, skill_bare) = ("- skill triage: Sort new issues\n", "- skill triage\n");
        assert_eq!(skill.entry(), e(skill_hinted.len(), skill_bare.len()));
        // Both fit hinted; a hint wider than the ceiling leaves its line bare.
        let mut out = String::new();
        write_index(&mut out, &[tool, skill.clone()]);
        assert_eq!(out, format!("{INDEX_HEADER}{hinted}{skill_hinted}"));
        let wide = DormantLine::tool("t", &"h".repeat(2000));
        let mut out = String::new();
        write_index(&mut out, &[wide, skill]);
        assert_eq!(out, format!("{INDEX_HEADER}- t\n{skill_hinted}"));
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
