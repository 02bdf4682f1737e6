//! SPEC §11's op table, written once: each op's name, its fields (the
//! required ones in the order a missing one is reported, then the optional
//! ones), and where in a session it may stand.
//!
//! Everything else about ops reads this table: the reader
//! (`super::reader`) checks a line's fields against its row and the
//! session's order against its [`When`]; the fast path (`super::typed`)
//! reads the same rows as bit sets, computed when the crate is built;
//! [`OP_NAMES`] and the reader's messages list the names from it; and the
//! tests make every line shape from it and hold the shipped
//! `corpora/session.schema.json` to it. It owns no parsing and no message.

/// Which op a row is: what the two readers match on, so a new row does
/// not compile until both read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    Session,
    Tool,
    Skill,
    CarriedSkill,
    Dev,
    Start,
    Render,
    ToolDefs,
    Describe,
    Call,
    SwitchMode,
    Expand,
    Pins,
    Digests,
}

/// Where an op may stand in a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum When {
    /// The first line, and only there.
    Header,
    /// Anywhere after the header: a declaration (after `start` the run
    /// answers it `admit.frozen`).
    Anywhere,
    /// Before `start` only.
    BeforeStart,
    /// The start itself: once.
    Start,
    /// After `start` only: a query of the started run.
    Started,
}

/// One op of SPEC §11.
#[derive(Debug)]
pub(super) struct Row {
    pub(super) tag: Tag,
    /// The `op` word.
    pub(super) name: &'static str,
    /// Its required fields besides `op`, in the order a missing one is
    /// reported.
    pub(super) required: &'static [&'static str],
    /// Its optional fields.
    pub(super) optional: &'static [&'static str],
    pub(super) when: When,
}

/// Every op, the header first.
pub(super) const OPS: [Row; 14] = [
    row(
        Tag::Session,
        "session",
        &["format", "about"],
        &[],
        When::Header,
    ),
    row(
        Tag::Tool,
        "tool",
        &["origin", "name", "description", "input_schema"],
        &["effect", "approval", "admitted"],
        When::Anywhere,
    ),
    row(
        Tag::Skill,
        "skill",
        &["name", "disclosure", "address"],
        &["hash", "package"],
        When::Anywhere,
    ),
    row(
        Tag::CarriedSkill,
        "carried_skill",
        &["name", "disclosure", "body"],
        &["hash", "package"],
        When::Anywhere,
    ),
    row(Tag::Dev, "dev", &["text"], &[], When::BeforeStart),
    row(Tag::Start, "start", &["mode"], &["profile"], When::Start),
    row(Tag::Render, "render", &[], &[], When::Started),
    row(
        Tag::ToolDefs,
        "tool_defs",
        &[],
        &["provider"],
        When::Started,
    ),
    row(Tag::Describe, "describe", &["name"], &[], When::Started),
    row(
        Tag::Call,
        "call",
        &["id", "name", "args"],
        &[],
        When::Started,
    ),
    row(
        Tag::SwitchMode,
        "switch_mode",
        &["mode"],
        &[],
        When::Started,
    ),
    row(Tag::Expand, "expand", &["name"], &[], When::Started),
    row(Tag::Pins, "pins", &[], &[], When::Started),
    row(Tag::Digests, "digests", &[], &[], When::Started),
];

const fn row(
    tag: Tag,
    name: &'static str,
    required: &'static [&'static str],
    optional: &'static [&'static str],
    when: When,
) -> Row {
    Row {
        tag,
        name,
        required,
        optional,
        when,
    }
}

/// Every op name, header first.
pub const OP_NAMES: [&str; OPS.len()] = {
    let mut names = [""; OPS.len()];
    let mut i = 0;
    while i < OPS.len() {
        names[i] = OPS[i].name;
        i += 1;
    }
    names
};

/// The row of the op named `name`.
pub(super) fn named(name: &str) -> Option<&'static Row> {
    OPS.iter().find(|row| row.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tag_has_one_row_and_the_header_comes_first() {
        for (i, row) in OPS.iter().enumerate() {
            assert_eq!(OPS.iter().filter(|r| r.tag == row.tag).count(), 1);
            assert_eq!(OPS.iter().filter(|r| r.name == row.name).count(), 1);
            assert_eq!(row.when == When::Header, i == 0, "{}", row.name);
            assert!(named(row.name).is_some_and(|r| r.tag == row.tag));
        }
        assert_eq!(named("nope").map(|r| r.tag), None);
    }
}
