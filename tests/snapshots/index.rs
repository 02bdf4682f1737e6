//! `render()` and the dormant index (SPEC §4): whole, bare, `+N more`, the
//! hint rule, a cut inside a multibyte character, an exact fit to the byte,
//! and the marker's digit count.
//!
//! Arithmetic used throughout (every length counts the trailing `\n`):
//! - `## Capabilities\n` is 16 bytes; `mode: chat\n` and `mode: work\n` 11.
//! - the header `Dormant (describe a name for its guide; call runs a tool):\n`
//!   is 59 bytes (asserted below).
//! - the reserved marker `+<total> more\n` is 7 + digits(total) bytes, so
//!   room = 1024 − 59 − 8 = 957 for 1..=9 dormant, and 956 for 10..=99.

use disclose::Mode;

use super::{Decl, Op, carried, catalog, check, host, ruler, shelf, tool};

const HEADER: &str = "Dormant (describe a name for its guide; call runs a tool):\n";

/// The dormant index alone, for the length assertions of the boundaries.
fn index_bytes(decls: &[Decl]) -> usize {
    catalog(decls).start(Mode::Chat).dormant_index().len()
}

/// `padding-origin__fill_<c>`: a 22-byte minted name (14 + 2 + 6), so its
/// hinted line is 2 + 22 + 2 + len(hint) + 1 = 27 + len(hint) bytes and its
/// bare line 2 + 22 + 1 = 25 bytes.
fn fill(c: char, description: &str) -> Decl {
    tool("padding-origin", &format!("fill_{c}"), description)
}

/// Eight fillers `fill_a`..`fill_h` with 80-byte hints: 8 × 107 = 856 bytes.
fn eight_fillers() -> Vec<Decl> {
    ('a'..='h').map(|c| fill(c, &ruler(80))).collect()
}

#[test]
fn header_is_59_bytes() {
    assert_eq!(HEADER.len(), 59);
}

#[test]
fn nothing_dormant_renders_no_index() {
    insta::assert_snapshot!(check(&[host("read", "Read a file.")], Mode::Chat, &[Op::Render]), @r"
    >>> render (27 bytes)
    ## Capabilities
    mode: chat
    ");
}

#[test]
fn index_that_fits_whole() {
    // Tools by minted name, then skills by name: `a_carried` sorts after
    // every tool. `read` is resident, so not in the index.
    // 16 + 11 + 59 + 51 + 37 + 31 + 44 = 249 bytes.
    let decls = [
        host("read", "Read a file."),
        tool("github", "create_issue", "Open an issue\twith a title"),
        host(
            "zeta_lookup",
            "  Look up a zeta value. Then more text.\nSecond line.",
        ),
        shelf(
            "release-notes",
            "Write release notes.\n",
            "skills/release-notes/SKILL.md",
        ),
        carried("a_carried", "v1.2 is out", "body"),
    ];
    insta::assert_snapshot!(check(&decls, Mode::Work, &[Op::Render]), @r"
    >>> render (249 bytes)
    ## Capabilities
    mode: work
    Dormant (describe a name for its guide; call runs a tool):
    - github__create_issue: Open an issue with a title
    - zeta_lookup: Look up a zeta value.
    - skill a_carried: v1.2 is out
    - skill release-notes: Write release notes.
    ");
}

#[test]
fn hint_rule_in_the_spec_order() {
    // Trim; first line with trailing whitespace removed; up to the `.` of the
    // first `. `; controls become spaces (after the cut, so `Stop.\tNext`
    // has no `. ` and keeps going, and a trailing control stays as a
    // trailing space). U+00A0 is White_Space, so trim removes it.
    // Lines: 19 + 31 + 23 + 17 + 27 + 35 + 31 + 45 + 19 + 24 = 271;
    // render = 27 + 59 + 271 = 357 bytes.
    let decls = [
        host("h_first_line", "First line  \nsecond line"),
        host("h_sentence", "One. Two. Three."),
        host("h_eg", "Use e.g. grep."),
        host("h_no_space_after_dot", "v1.2.3 released.Next"),
        host("h_control", "a\u{1}b\u{7f}c"),
        host("h_tab_dot", "Stop.\tNext"),
        host("h_crlf", "Windows line\r\nnext"),
        host("h_control_end", "ends in bell\u{7}"),
        host("h_nbsp", "\u{a0}Non-breaking padded.\u{a0}"),
        host("h_leading_newlines", "\n\n  Starts late."),
    ];
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (357 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - h_control: a b c
    - h_control_end: ends in bell 
    - h_crlf: Windows line
    - h_eg: Use e.g.
    - h_first_line: First line
    - h_leading_newlines: Starts late.
    - h_nbsp: Non-breaking padded.
    - h_no_space_after_dot: v1.2.3 released.Next
    - h_sentence: One.
    - h_tab_dot: Stop. Next
    ");
}

#[test]
fn hint_cut_inside_a_multibyte_character() {
    // Over 80 bytes: cut at the largest char boundary <= 77, trim the end,
    // append `…` (3 bytes). The ruler puts `h` at byte 70.
    // - cut_2byte: 76 + `é`(76..78) + 4 = 82 bytes; 77 is inside `é`, so the
    //   cut is at 76: hint 76 + 3 = 79 bytes, line 13 + 79 + 1 = 93.
    // - cut_3byte: 75 + `€`(75..78) + 4 = 82; cut at 75: hint 78, line 92.
    // - cut_4byte: 74 + `😀`(74..78) + 4 = 82; cut at 74: hint 77, line 91.
    // - cut_combining: 76 + `e` + U+0301(77..79) + 4 = 83; 77 is a boundary,
    //   so the base `e` stays and its combining accent goes: hint 80, line 98.
    // - cut_space: 74 + ` ` + `€€`(75..81) = 81; cut at 75, then the space
    //   is trimmed: hint 77, line 91.
    // - keep_77_boundary: 75 + `é`(75..77) + 4 = 81; 77 is a boundary: hint
    //   77 + 3 = 80 bytes, line 20 + 80 + 1 = 101.
    // - keep_80: 77 + `é` + `x` = 80 bytes, not over: kept whole, line 92.
    // Lines 93 + 92 + 91 + 98 + 91 + 101 + 92 = 658; render 27 + 59 + 658.
    let decls = [
        host("cut_2byte", &format!("{}étail", ruler(76))),
        host("cut_3byte", &format!("{}€tail", ruler(75))),
        host("cut_4byte", &format!("{}😀tail", ruler(74))),
        host("cut_combining", &format!("{}e\u{301}tail", ruler(76))),
        host("cut_space", &format!("{} €€", ruler(74))),
        host("keep_77_boundary", &format!("{}étail", ruler(75))),
        host("keep_80", &format!("{}éx", ruler(77))),
    ];
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (744 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - cut_2byte: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h12345…
    - cut_3byte: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h1234…
    - cut_4byte: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123…
    - cut_combining: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h12345e…
    - cut_space: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123…
    - keep_77_boundary: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h1234é…
    - keep_80: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456éx
    ");
    let run = catalog(&decls).start(Mode::Chat);
    let hint_len = |name: &str| run.tool(name).map(|t| t.hint().len());
    assert_eq!(hint_len("cut_2byte"), Some(79));
    assert_eq!(hint_len("cut_3byte"), Some(78));
    assert_eq!(hint_len("cut_4byte"), Some(77));
    assert_eq!(hint_len("cut_combining"), Some(80));
    assert_eq!(hint_len("cut_space"), Some(77));
    assert_eq!(hint_len("keep_77_boundary"), Some(80));
    assert_eq!(hint_len("keep_80"), Some(80));
}

/// Nine dormant: eight 107-byte fillers, then `fill_i` with a hint of
/// `ninth` bytes (hinted line 27 + ninth).
fn nine(ninth: usize) -> Vec<Decl> {
    let mut decls = eight_fillers();
    decls.push(fill('i', &ruler(ninth)));
    decls
}

#[test]
fn hinted_line_fits_the_remaining_room_exactly() {
    // 9 dormant: room = 1024 − 59 − len("+9 more\n") = 1024 − 59 − 8 = 957.
    // fill_a..fill_h: 8 × 107 = 856, room left 957 − 856 = 101.
    // fill_i, hint 74 bytes: hinted line 27 + 74 = 101 <= 101: hinted, room 0.
    // Index = 59 + 957 = 1016 bytes (no marker); render = 27 + 1016 = 1043.
    let decls = nine(74);
    assert_eq!(index_bytes(&decls), 1016);
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (1043 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - padding-origin__fill_a: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_b: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_c: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_d: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_e: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_f: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_g: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_h: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_i: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123
    ");
}

#[test]
fn one_byte_over_the_room_turns_bare() {
    // As above, but fill_i's hint is 75 bytes: hinted line 102 > 101, bare
    // line `- padding-origin__fill_i\n` 25 <= 101: bare.
    // Index = 59 + 856 + 25 = 940 bytes; render = 27 + 940 = 967.
    let decls = nine(75);
    assert_eq!(index_bytes(&decls), 940);
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (967 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - padding-origin__fill_a: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_b: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_c: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_d: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_e: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_f: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_g: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_h: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_i
    ");
}

#[test]
fn tenth_dormant_widens_the_reserved_marker() {
    // The exact fit above, plus fill_j (hint `Ten.`). 10 dormant: the
    // reserved marker grows from `+9 more\n` (8 bytes) to `+10 more\n`
    // (9 bytes), so room = 1024 − 59 − 9 = 956: one byte less.
    // fill_a..fill_h: 856, room 100. fill_i hinted 101 > 100 → bare 25,
    // room 75. fill_j hinted `- padding-origin__fill_j: Ten.\n` = 31 <= 75:
    // hinted (greedy: the earlier entry stays bare), room 44.
    // Nothing is left out, so no marker: index = 59 + 856 + 25 + 31 = 971,
    // render = 27 + 971 = 998.
    let mut decls = nine(74);
    decls.push(fill('j', "Ten."));
    assert_eq!(index_bytes(&decls), 971);
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (998 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - padding-origin__fill_a: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_b: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_c: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_d: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_e: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_f: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_g: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_h: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_i
    - padding-origin__fill_j: Ten.
    ");
}

#[test]
fn index_that_ends_in_more() {
    // 12 fillers fill_a..fill_l (80-byte hints) and 2 skills: 14 dormant,
    // reserved marker `+14 more\n` = 9 bytes, room = 1024 − 59 − 9 = 956.
    // fill_a..fill_h hinted: 856, room 100. fill_i..fill_l: hinted 107 does
    // not fit, bare 25 does: 100 → 75 → 50 → 25 → 0 (the last bare line fits
    // exactly). skill overflow_1: bare `- skill overflow_1\n` = 19 > 0: stop;
    // it and overflow_2 are left: `+2 more\n` (8 bytes, budgeted as 9).
    // Index = 59 + 856 + 100 + 8 = 1023; render = 27 + 1023 = 1050.
    let mut decls = eight_fillers();
    decls.extend(('i'..='l').map(|c| fill(c, &ruler(80))));
    decls.push(shelf("overflow_1", "First to be left out.", "skills/o1.md"));
    decls.push(carried("overflow_2", "Second to be left out.", "body"));
    assert_eq!(index_bytes(&decls), 1023);
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[Op::Render]), @r"
    >>> render (1050 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - padding-origin__fill_a: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_b: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_c: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_d: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_e: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_f: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_g: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_h: a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789
    - padding-origin__fill_i
    - padding-origin__fill_j
    - padding-origin__fill_k
    - padding-origin__fill_l
    +2 more
    ");
}
