//! Skills and pins (SPEC §7): `expand` of a shelf skill, a carried skill
//! (with and without a trailing newline, and empty), a resident and a dormant
//! tool, and `expand.unknown`; `skill_pins` and `digests` lines, with every
//! hash recomputed here from the bytes the spec says are hashed.

use disclose::Mode;
use serde_json::json;

use super::{Decl, Op, carried, check, expand, host, shelf, tool};

const TRIAGE_HASH: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

fn skills_catalog() -> Vec<Decl> {
    vec![
        host("read", "Read a file."),
        tool("x", "lookup", "Look something up.\nMore.").schema(json!({
            "type": "object",
            "properties": {"q": {"type": "string"}}
        })),
        shelf("triage", "Triage issues.", "skills/triage/SKILL.md").hash(TRIAGE_HASH),
        shelf(
            "unhashed",
            "No hash.",
            "https://example.com/skills/unhashed.md",
        ),
        carried("style", "Style guide.", "# Style\nUse short lines.\n"),
        carried("notes", "Notes.", "# Notes\nNo newline at end"),
        carried("empty_card", "An empty card.", ""),
    ]
}

#[test]
fn expand_every_kind() {
    // Shelf: `skill <name> lives at <address>\n`. Carried: the body
    // verbatim, `\n` appended only when missing (an empty body becomes one
    // `\n`). A tool: its full guide. Names are exact: `Triage` is unknown.
    let ops = [
        expand("triage"),
        expand("unhashed"),
        expand("style"),
        expand("notes"),
        expand("empty_card"),
        expand("read"),
        expand("x__lookup"),
        expand("nope"),
        expand("Triage"),
    ];
    insta::assert_snapshot!(check(&skills_catalog(), Mode::Chat, &ops), @r#"
    >>> expand "triage" (45 bytes)
    skill triage lives at skills/triage/SKILL.md
    >>> expand "unhashed" (63 bytes)
    skill unhashed lives at https://example.com/skills/unhashed.md
    >>> expand "style" (25 bytes)
    # Style
    Use short lines.
    >>> expand "notes" (26 bytes)
    # Notes
    No newline at end
    >>> expand "empty_card" (1 bytes)

    >>> expand "read" (129 bytes)
    tool read
    standing: resident; effect: read; approval: never
    Read a file.
    input schema: {"type":"object"}
    use: call read directly
    >>> expand "x__lookup" (202 bytes)
    tool x__lookup
    standing: dormant; effect: read; approval: never
    Look something up.
    More.
    input schema: {"properties":{"q":{"type":"string"}},"type":"object"}
    use: call {"name":"x__lookup","args":{...}}
    >>> expand "nope" (72 bytes)
    refused E_INVALID_ARGS expand.unknown: nothing admitted is named "nope"
    >>> expand "Triage" (74 bytes)
    refused E_INVALID_ARGS expand.unknown: nothing admitted is named "Triage"
    "#);
}

fn hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

#[test]
fn skill_pins_by_name() {
    // One line per skill with a hash, by name: a shelf skill's declared
    // hash, a carried skill's BLAKE3 of its body (an empty body too). The
    // unhashed shelf skill has no line.
    let expected = format!(
        "empty_card {}\nnotes {}\nstyle {}\ntriage {TRIAGE_HASH}\n",
        hex(b""),
        hex(b"# Notes\nNo newline at end"),
        hex(b"# Style\nUse short lines.\n"),
    );
    // BLAKE3 of the empty input, the published test vector.
    assert!(expected.starts_with(
        "empty_card af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262\n"
    ));
    let out = check(&skills_catalog(), Mode::Chat, &[Op::Pins]);
    assert_eq!(
        out,
        format!(">>> pins ({} bytes)\n{expected}", expected.len())
    );
    insta::assert_snapshot!(out, @r"
    >>> pins (290 bytes)
    empty_card af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262
    notes bc1d9264a0b44b362ec4342bce549acdcdbfbf5c2da2b7641f922921d6245751
    style 950325fd9a2dd9f7b889abbc3ddb21b56af17d4e244a6d8073756422de79c9e4
    triage 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    ");
}

/// SPEC §2: BLAKE3 of canonical `["disclose.tool/1", origin, raw name,
/// input_schema, effect]`, the canonical text written out by hand.
fn digest_of(canonical_descriptor: &str) -> String {
    hex(canonical_descriptor.as_bytes())
}

#[test]
fn digests_of_every_offered_tool_by_name() {
    // `describe` and `call` included; minted names in byte order; each
    // digest over the origin and the raw name (`x`, `lookup`), not the
    // minted name.
    let expected = [
        (
            "call",
            r#"["disclose.tool/1","host","call",{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"},"read"]"#,
        ),
        (
            "describe",
            r#"["disclose.tool/1","host","describe",{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"read"]"#,
        ),
        (
            "read",
            r#"["disclose.tool/1","host","read",{"type":"object"},"read"]"#,
        ),
        (
            "x__lookup",
            r#"["disclose.tool/1","x","lookup",{"properties":{"q":{"type":"string"}},"type":"object"},"read"]"#,
        ),
    ]
    .iter()
    .map(|(name, descriptor)| format!("{name} {}\n", digest_of(descriptor)))
    .collect::<String>();
    let out = check(&skills_catalog(), Mode::Chat, &[Op::Digests]);
    assert_eq!(
        out,
        format!(">>> digests ({} bytes)\n{expected}", expected.len())
    );
    insta::assert_snapshot!(out, @r"
    >>> digests (289 bytes)
    call cc2bdd9a9511c2ec383b2a156403a263e4476e4ca7b767fc0fbfe334a95394d5
    describe f2a72af41ec6a0a17bb47d9b495cf3dd756f964cf05f0069af393405d08f6c18
    read 439eefc9866e64ac8e0cc14647f1b38ba32fbb89b23e7d00fbef1db7d4e12d4d
    x__lookup 57cf737256556e44e38bcd2dc1ae8b8f881dc7c61f6f3aff2af1278405d24206
    ");
}

#[test]
fn digest_hashes_the_effective_effect_and_the_canonical_schema() {
    // An absent or unknown effect fails closed to `irreversible` before it
    // is hashed, so all three declarations below have one digest. The
    // schema is hashed canonically: keys sorted, `\t` `\"` escaped, U+0001
    // as `\u0001`, `é` raw.
    let schema = json!({"type": "object", "description": "tab\there \"q\" é \u{1}"});
    let descriptor = r#"["disclose.tool/1","o","t",{"description":"tab\there \"q\" é \u0001","type":"object"},"irreversible"]"#;
    let expected = format!("o__t {}\n", digest_of(descriptor));
    for effect in [None, Some("irreversible"), Some("Read")] {
        let decls = [tool("o", "t", "T.").schema(schema.clone()).effect(effect)];
        let out = check(&decls, Mode::Chat, &[Op::Digests]);
        let line = out
            .lines()
            .find(|l| l.starts_with("o__t "))
            .map(|l| format!("{l}\n"));
        assert_eq!(
            line.as_deref(),
            Some(expected.as_str()),
            "effect {effect:?}"
        );
    }
}
