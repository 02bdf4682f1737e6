//! SPEC §4 in the model: the hint, the dormant index's lines, the Lean
//! `pack` and `indexBytes` over byte strings, and `render`.
//!
//! It owns §4's reading for the tests and the fuzzer; it does not own the
//! ranking (`ranking`) or anything of the library's.

/// SPEC §4: the index's header line.
pub const HEADER: &[u8] = b"Dormant (describe a name for its guide; call runs a tool):\n";

/// SPEC §16 `DORMANT_INDEX_CEILING`, the Lean `dormantCeiling`.
pub const CEILING: usize = 1024;

/// SPEC §4's hint of a description or disclosure, step by step:
///
/// 1. trim it (`str::trim`: Unicode `White_Space` at both ends);
/// 2. keep the first line, up to the first `\n`, without trailing whitespace;
/// 3. if it contains `. `, keep up to and including the `.` of the first;
/// 4. replace each control character (U+0000–U+001F, U+007F) by a space;
/// 5. past 80 bytes: keep the chars that fit in 77 bytes, drop trailing
///    whitespace, append `…`.
pub fn hint(text: &str) -> String {
    hint_keeping(text, 77)
}

/// [`hint`] with step 5 keeping the chars that fit in `keep` bytes before
/// the ellipsis (SPEC §4: 77); the test kit's `hint-cut` mutant keeps 80.
pub fn hint_keeping(text: &str, keep: usize) -> String {
    // 1.
    let trimmed = text.trim();
    // 2.
    let first = trimmed.split('\n').next().unwrap_or("");
    let mut line: Vec<char> = first.trim_end().chars().collect();
    // 3.
    if let Some(dot) = line.windows(2).position(|pair| pair == ['.', ' ']) {
        line.truncate(dot + 1);
    }
    // 4.
    let line: Vec<char> = line
        .into_iter()
        .map(|c| {
            if u32::from(c) < 0x20 || u32::from(c) == 0x7f {
                ' '
            } else {
                c
            }
        })
        .collect();
    // 5.
    let bytes: usize = line.iter().map(|c| c.len_utf8()).sum();
    if bytes <= 80 {
        return line.into_iter().collect();
    }
    let mut kept = Vec::new();
    let mut used = 0;
    for c in line {
        if used + c.len_utf8() > keep {
            break;
        }
        used += c.len_utf8();
        kept.push(c);
    }
    while kept.last().is_some_and(|c| c.is_whitespace()) {
        kept.pop();
    }
    kept.push('…');
    kept.into_iter().collect()
}

/// A dormant capability as SPEC §4 lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dormant {
    /// A dormant tool: its minted name and its description.
    Tool {
        /// The minted name.
        name: String,
        /// The description.
        description: String,
    },
    /// A skill: its name and its disclosure.
    Skill {
        /// The name.
        name: String,
        /// The disclosure.
        disclosure: String,
    },
}

/// The Lean `Entry`, over bytes: the line with its hint and the bare line,
/// each with its trailing `\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `- <name>: <hint>\n` or `- skill <name>: <hint>\n`.
    pub hinted: Vec<u8>,
    /// `- <name>\n` or `- skill <name>\n`.
    pub bare: Vec<u8>,
}

impl Dormant {
    /// Its two index lines.
    pub fn line(&self) -> Line {
        let (prefix, name, text) = match self {
            Dormant::Tool { name, description } => ("- ", name, description),
            Dormant::Skill { name, disclosure } => ("- skill ", name, disclosure),
        };
        Line {
            hinted: format!("{prefix}{name}: {}\n", hint(text)).into_bytes(),
            bare: format!("{prefix}{name}\n").into_bytes(),
        }
    }
}

/// The Lean `Packed`, over bytes: the listed lines, in order; `used`, the
/// bytes they take; `left`, how many were not listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The listed lines.
    pub shown: Vec<Vec<u8>>,
    /// The Lean `used`.
    pub used: usize,
    /// The Lean `left`.
    pub left: usize,
}

/// The Lean `pack`, clause for clause:
///
/// ```lean
/// | _, [] => ⟨[], 0, 0⟩
/// | room, e :: rest =>
///   if e.hinted ≤ room then let p := pack (room - e.hinted) rest; ⟨hinted :: p.shown, e.hinted + p.used, p.left⟩
///   else if e.bare ≤ room then let p := pack (room - e.bare) rest; ⟨bare :: p.shown, e.bare + p.used, p.left⟩
///   else ⟨[], 0, rest.length + 1⟩
/// ```
pub fn pack(room: usize, es: &[Line]) -> Packed {
    match es {
        [] => Packed {
            shown: Vec::new(),
            used: 0,
            left: 0,
        },
        [e, rest @ ..] => {
            for chosen in [&e.hinted, &e.bare] {
                if chosen.len() <= room {
                    let p = pack(room - chosen.len(), rest);
                    let mut shown = vec![chosen.clone()];
                    shown.extend(p.shown);
                    return Packed {
                        shown,
                        used: chosen.len() + p.used,
                        left: p.left,
                    };
                }
            }
            Packed {
                shown: Vec::new(),
                used: 0,
                left: rest.len() + 1,
            }
        }
    }
}

/// SPEC §4's marker line for `n` unlisted entries.
pub fn marker(n: usize) -> Vec<u8> {
    format!("+{n} more\n").into_bytes()
}

/// The room `indexBytes` gives `pack` for `total` entries: the ceiling less
/// the header and the marker at N = `total` (its widest).
pub fn room(total: usize) -> usize {
    CEILING - HEADER.len() - marker(total).len()
}

/// The Lean `indexBytes header marker es`: the header, what `pack` listed in
/// the room left after the header and the widest marker, and the marker
/// when some were left out.
pub fn index_bytes(es: &[Line]) -> usize {
    let p = pack(room(es.len()), es);
    HEADER.len() + p.used + if p.left == 0 { 0 } else { marker(p.left).len() }
}

/// The index whose length is [`index_bytes`]: those bytes themselves, or
/// nothing when nothing is dormant (SPEC §4: the block appears only when
/// something is dormant).
pub fn index(es: &[Line]) -> Vec<u8> {
    if es.is_empty() {
        return Vec::new();
    }
    let p = pack(room(es.len()), es);
    let mut out = HEADER.to_vec();
    for line in &p.shown {
        out.extend_from_slice(line);
    }
    if p.left > 0 {
        out.extend(marker(p.left));
    }
    out
}

/// SPEC §4's stable order: dormant tools by minted name, then skills by
/// name, each in byte order.
pub fn stable_order(mut dormant: Vec<Dormant>) -> Vec<Dormant> {
    dormant.sort_by(|a, b| match (a, b) {
        (Dormant::Tool { .. }, Dormant::Skill { .. }) => std::cmp::Ordering::Less,
        (Dormant::Skill { .. }, Dormant::Tool { .. }) => std::cmp::Ordering::Greater,
        (Dormant::Tool { name: x, .. }, Dormant::Tool { name: y, .. })
        | (Dormant::Skill { name: x, .. }, Dormant::Skill { name: y, .. }) => {
            x.as_bytes().cmp(y.as_bytes())
        }
    });
    dormant
}

/// SPEC §4's `render()`: the segment header, the run-start mode, the dev
/// line when set, and the index of `dormant` (in any order; sorted here).
/// The dev line is kept to one line as docs/decisions.md records: each
/// control character a space, then trimmed.
pub fn render(mode: &str, dev: Option<&str>, dormant: Vec<Dormant>) -> Vec<u8> {
    let mut out = format!("## Capabilities\nmode: {mode}\n").into_bytes();
    if let Some(dev) = dev {
        let one_line: String = dev
            .chars()
            .map(|c| if c < ' ' || c == '\u{7f}' { ' ' } else { c })
            .collect();
        out.extend(format!("dev: {}\n", one_line.trim()).into_bytes());
    }
    let lines: Vec<Line> = stable_order(dormant).iter().map(Dormant::line).collect();
    out.extend(index(&lines));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(hinted: usize, bare: usize) -> Line {
        Line {
            hinted: vec![b'h'; hinted],
            bare: vec![b'b'; bare],
        }
    }

    #[test]
    fn the_hint_examples_of_the_spec_words() {
        assert_eq!(hint("  Create an issue. Then more.  "), "Create an issue.");
        assert_eq!(hint("First line\nsecond. line"), "First line");
        assert_eq!(hint("v1.2 is out.Next"), "v1.2 is out.Next");
        assert_eq!(hint("tab\there. x"), "tab here.");
        assert_eq!(hint("a\u{7f}b \u{1}"), "a b  ");
        assert_eq!(hint("ends with spaces   \nx"), "ends with spaces");
        assert_eq!(hint(&"x".repeat(80)), "x".repeat(80));
        assert_eq!(hint(&"x".repeat(81)), format!("{}…", "x".repeat(77)));
        // 76 bytes, then a 2-byte char across byte 77: it does not fit.
        let text = format!("{}é{}", "a".repeat(76), "b".repeat(9));
        assert_eq!(hint(&text), format!("{}…", "a".repeat(76)));
        // Whitespace before the cut is dropped before the ellipsis.
        let text = format!("{}  {}", "a".repeat(75), "b".repeat(9));
        assert_eq!(hint(&text), format!("{}…", "a".repeat(75)));
        // Unicode whitespace (U+3000) is trimmed like ASCII.
        assert_eq!(hint("\u{3000}Hi.\u{3000}"), "Hi.");
    }

    #[test]
    fn pack_hinted_then_bare_then_stop() {
        let p = pack(30, &[line(20, 8), line(15, 8), line(9, 5), line(1, 1)]);
        assert_eq!(p.shown, vec![vec![b'h'; 20], vec![b'b'; 8]]);
        assert_eq!((p.used, p.left), (28, 2));
        let p = pack(0, &[]);
        assert_eq!((p.shown.len(), p.used, p.left), (0, 0, 0));
    }

    #[test]
    fn index_bytes_is_the_length_of_the_index() {
        assert_eq!(index(&[]), b"");
        // 100 entries of 100 bytes: room is 1024 - 59 - len("+100 more\n")
        // = 955, so 9 are listed (900 bytes) and 91 are left.
        let many = vec![line(100, 100); 100];
        let bytes = index(&many);
        assert_eq!(bytes.len(), 59 + 900 + "+91 more\n".len());
        assert!(bytes.ends_with(b"+91 more\n"));
        assert_eq!(index_bytes(&many), bytes.len());
        let few = [line(20, 8), line(30, 10)];
        assert_eq!(index_bytes(&few), 59 + 50);
        assert_eq!(index(&few).len(), 59 + 50);
    }

    #[test]
    fn render_sorts_tools_before_skills_by_bytes() {
        let tool = |name: &str| Dormant::Tool {
            name: name.into(),
            description: "Does. More".into(),
        };
        let skill = Dormant::Skill {
            name: "a".into(),
            disclosure: "Skill.".into(),
        };
        let out = render("chat", Some("dev"), vec![skill, tool("b"), tool("B")]);
        assert_eq!(
            String::from_utf8(out).ok().as_deref(),
            Some(
                "## Capabilities\nmode: chat\ndev: dev\nDormant (describe a name for its guide; call runs a tool):\n- B: Does.\n- b: Does.\n- skill a: Skill.\n"
            )
        );
    }
}
