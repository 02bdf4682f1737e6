//! The sealed vocabulary (SPEC §9): every one of the 20 codes reached at
//! least once — through the public API for 19 of them; `admit.generation`
//! needs 2^64 admissions, so its lines are snapshotted from a constructed
//! `Refusal::Generation` (the crate's `set_generation_for_test` hook is
//! `#[cfg(test)]` and `pub(crate)`, out of an integration test's reach) —
//! and `vocabulary_text()`.

use std::collections::BTreeSet;

use disclose::{Catalog, Mode, Profile, Refusal, ToolCall, vocabulary, vocabulary_text};
use serde_json::{Value, json};

use super::{Decl, admit, carried, catalog, host, shelf, tool};

fn refusal_of(decl: &Decl) -> String {
    // A catalog holding `held` (tool) and `notes` (skill).
    let mut catalog = Catalog::new();
    for setup in [host("held", "H."), shelf("notes", "N.", "a")] {
        admit(&mut catalog, &setup);
    }
    admit(&mut catalog, decl)
}

fn called(run: &disclose::Run, name: &str, args: Value) -> String {
    let call = ToolCall {
        id: "c1".into(),
        name: name.into(),
        args,
    };
    match run.call(&call) {
        Ok(routed) => format!("routed {}\n", routed.name),
        Err(refusal) => refusal.to_lines(),
    }
}

#[test]
fn every_code_at_least_once() {
    let mut lines = String::new();
    // Admission.
    let frozen_run = catalog(&[]).start(Mode::Chat);
    if let Decl::Tool(d) = tool("alpha", "late", "L.") {
        lines.push_str(&frozen_run.admit_tool(&d).to_lines());
    }
    for decl in [
        tool("Alpha", "x", "X."),
        host("a.b", "X."),
        host("call", "C."),
        host("blank", " "),
        host("arr", "A.").schema(json!([])),
        carried("card", "C.", "body").hash(&"0".repeat(64)),
        host("held", "H."),
        carried("NOTES", "N.", "b"),
    ] {
        lines.push_str(&refusal_of(&decl));
    }
    lines.push_str(&Refusal::Generation.to_lines());
    // A parent run in chat.
    let decls = [
        host("read", "Read a file."),
        host("edit", "Edit a file.").effect(Some("reversible")),
        tool("x", "need", "Needs q.").schema(json!({
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"]
        })),
        host("exec", "Run.").approval(None),
    ];
    let run = catalog(&decls).start(Mode::Chat);
    if let Err(refusal) = run.describe("") {
        lines.push_str(&refusal.to_lines());
    }
    lines.push_str(&called(&run, "call", json!([])));
    lines.push_str(&called(&run, "call", json!({"name": "call", "args": {}})));
    // `nope` is 4 edits from edit, exec and read (x__need 6, describe 7):
    // a three-way tie, named in byte order.
    lines.push_str(&called(&run, "nope", json!({})));
    lines.push_str(&called(&run, "x__need", json!({})));
    lines.push_str(&called(
        &run,
        "call",
        json!({"name": "x__need", "args": {"q": 1}}),
    ));
    lines.push_str(&called(&run, "edit", json!({})));
    if let Err(refusal) = run.expand("nope") {
        lines.push_str(&refusal.to_lines());
    }
    // A scout child of the same catalog.
    let child = catalog(&decls).start_child(Mode::Work, Profile::Scout);
    lines.push_str(&called(&child, "exec", json!({})));
    lines.push_str(&called(&child, "edit", json!({})));

    let codes: BTreeSet<&str> = lines
        .lines()
        .filter_map(|l| l.strip_prefix("refused "))
        .filter_map(|l| l.split(' ').nth(1))
        .map(|c| c.trim_end_matches(':'))
        .collect();
    let sealed: BTreeSet<&str> = vocabulary().iter().map(|v| v.code).collect();
    assert_eq!(sealed.len(), 20);
    assert_eq!(codes, sealed);
    insta::assert_snapshot!(lines, @r#"
    refused E_INVALID_ARGS admit.frozen: the run has started; "alpha__late" was not admitted
    refused E_INVALID_ARGS admit.origin: origin "Alpha" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.name: "a.b" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.reserved: "call" is reserved for the catalog's own door
    refused E_INVALID_ARGS admit.disclosure: "blank" has an empty disclosure
    refused E_INVALID_ARGS admit.schema: "arr" has an input schema that is not a valid JSON Schema object: it is not a JSON object
    refused E_INVALID_ARGS admit.hash: "card" declares hash 0000000000000000000000000000000000000000000000000000000000000000 but the body hashes to a different BLAKE3
    refused E_INVALID_ARGS admit.duplicate: "held" is already admitted as a tool
    refused E_INVALID_ARGS admit.collision: "NOTES" collides with "notes" after provider normalization
    refused E_INVALID_ARGS admit.generation: the catalog generation would overflow
    refused E_INVALID_ARGS describe.query: the query is empty
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: its args are not an object
    refused E_INVALID_ARGS call.itself: call cannot call itself
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "nope"; nearest: edit, exec, read
    refused E_INVALID_ARGS call.not_offered: "x__need" is dormant; run it through call
    refused E_INVALID_ARGS call.misfit: args for "x__need" do not fit its input schema: "q" is integer, expected string
    schema: {"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"}
    refused E_GATE_DENIED gate.mode: "edit" does not run in chat mode
    refused E_INVALID_ARGS expand.unknown: nothing admitted is named "nope"
    refused E_GATE_DENIED approval.child_unattended: "exec" needs a human's approval, and no human is attached to this child
    refused E_GATE_DENIED profile.narrowed: "edit" is not offered to a scout child
    "#);
}

#[test]
fn generation_and_an_empty_nearest_list_as_constructed() {
    // Neither is reachable through the public API: 2^64 admissions, and
    // `describe` is always offered, so `call.unknown` always has a nearest.
    let unknown = Refusal::Unknown {
        name: "x".into(),
        nearest: vec![],
    };
    let generation = Refusal::Generation;
    let out = format!(
        "{} {} {}\n{}{} {} {}\n{}",
        generation.code(),
        generation.class(),
        generation,
        generation.to_lines(),
        unknown.code(),
        unknown.class(),
        unknown,
        unknown.to_lines()
    );
    insta::assert_snapshot!(out, @r#"
    admit.generation E_INVALID_ARGS the catalog generation would overflow
    refused E_INVALID_ARGS admit.generation: the catalog generation would overflow
    call.unknown E_INVALID_ARGS no admitted tool is named "x"; nothing is admitted
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "x"; nothing is admitted
    "#);
}

#[test]
fn vocabulary_text_lists_every_code_class_and_template() {
    insta::assert_snapshot!(vocabulary_text(), @r#"
    disclose vocabulary 1
    admit.frozen E_INVALID_ARGS the run has started; "<name>" was not admitted
    admit.origin E_INVALID_ARGS origin "<origin>" is not lowercase letters, digits and inner hyphens
    admit.name E_INVALID_ARGS "<name>" is not 1 to 64 of A-Z a-z 0-9 _ -
    admit.reserved E_INVALID_ARGS "<name>" is reserved for the catalog's own door
    admit.disclosure E_INVALID_ARGS "<name>" has an empty disclosure
    admit.schema E_INVALID_ARGS "<name>" has an input schema that is not a valid JSON Schema object: <reason>
      reason: it is not a JSON object
      reason: it breaks the draft 2020-12 meta-schema
    admit.hash E_INVALID_ARGS "<name>" declares hash <given> but <reason>
      reason: the body hashes to a different BLAKE3
      reason: it is not 64 lowercase hex digits
    admit.duplicate E_INVALID_ARGS "<name>" is already admitted as a <tool|skill>
    admit.collision E_INVALID_ARGS "<name>" collides with "<holder>" after provider normalization
    admit.generation E_INVALID_ARGS the catalog generation would overflow
    describe.query E_INVALID_ARGS the query <reason>
      reason: is empty
      reason: is longer than 256 bytes
      reason: holds a control character
    call.shape E_INVALID_ARGS call takes {"name": string, "args": object}: <reason>
      reason: its args are not an object
      reason: "name" is missing
      reason: "args" is missing
      reason: "name" is not a string
    call.itself E_INVALID_ARGS call cannot call itself
    call.unknown E_INVALID_ARGS no admitted tool is named "<name>"; nearest: <a>, <b>, <c> (; nothing is admitted)
    call.not_offered E_INVALID_ARGS "<name>" is dormant; run it through call
    call.misfit E_INVALID_ARGS args for "<name>" do not fit its input schema: <violations joined by "; ">
      reason: args is <type>, not an object
      reason: missing required "<key>"
      reason: "<key>" is <type>, expected <t1|t2|…>
      reason: unexpected "<key>"
    gate.mode E_GATE_DENIED "<name>" does not run in <mode> mode
    approval.child_unattended E_GATE_DENIED "<name>" needs a human's approval, and no human is attached to this child
    profile.narrowed E_GATE_DENIED "<name>" is not offered to a <profile> child
    expand.unknown E_INVALID_ARGS nothing admitted is named "<name>"
    "#);
}
