//! The call door (SPEC §6): routed through `call`, direct resident calls,
//! every refusal of `resolve_call` and of direct calls, `fit`'s violations in
//! the spec's order with the `schema:` line, `call.unknown`'s nearest names,
//! and the mode gate (§3).

use disclose::Mode;
use serde_json::json;

use super::{Decl, Op, call, call_through, check, host, shelf, tool};

/// A schema whose every violation kind can be shown at once.
fn strict_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "alpha": {"type": "string"},
            "zeta": {"type": "string"},
            "n": {"type": "integer"},
            "s": {"type": ["string", "null"]},
            "x": {"type": "number"},
            "B": {"type": "boolean"}
        },
        "required": ["zeta", "s", "alpha"],
        "additionalProperties": false
    })
}

fn door_catalog() -> Vec<Decl> {
    vec![
        host("read", "Read a file.").schema(json!({
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"]
        })),
        host("edit", "Edit a file.").effect(Some("reversible")),
        host("exec", "Run a command.").effect(Some("irreversible")),
        tool("github", "create_issue", "Open an issue.")
            .schema(json!({
                "type": "object",
                "properties": {"title": {"type": "string"}, "labels": {"type": "array"}},
                "required": ["title"]
            }))
            .effect(Some("reversible")),
        tool("x", "strict", "Strict args.").schema(strict_schema()),
        shelf("triage", "Triage issues.", "skills/triage.md"),
    ]
}

#[test]
fn routed_through_call_and_direct_resident_calls() {
    // Through `call`: unwrapped, the id kept, the inner args fitted. A direct
    // call of a resident tool passes unchanged and is not fitted (SPEC §6:
    // it "passes when the name is in this run's tool_defs"), so `{"path":1}`
    // is routed directly but `{}` through `call` is a misfit. A resident tool
    // may be reached through `call` too.
    let ops = [
        Op::Call(
            "toolu_01".into(),
            "call".into(),
            json!({"name": "github__create_issue", "args": {"title": "Bug", "labels": ["x"]}}),
        ),
        call("read", json!({"path": "a.txt"})),
        Op::Call("toolu_02".into(), "read".into(), json!({"path": 1})),
        call_through("read", json!({"path": "b.txt"})),
        call_through("read", json!({})),
        call("describe", json!({"name": "read"})),
    ];
    insta::assert_snapshot!(check(&door_catalog(), Mode::Work, &ops), @r#"
    >>> call call {"args":{"labels":["x"],"title":"Bug"},"name":"github__create_issue"} (68 bytes)
    routed toolu_01 github__create_issue {"labels":["x"],"title":"Bug"}
    >>> call read {"path":"a.txt"} (32 bytes)
    routed c1 read {"path":"a.txt"}
    >>> call read {"path":1} (32 bytes)
    routed toolu_02 read {"path":1}
    >>> call call {"args":{"path":"b.txt"},"name":"read"} (32 bytes)
    routed c1 read {"path":"b.txt"}
    >>> call call {"args":{},"name":"read"} (191 bytes)
    refused E_INVALID_ARGS call.misfit: args for "read" do not fit its input schema: missing required "path"
    schema: {"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}
    >>> call describe {"name":"read"} (35 bytes)
    routed c1 describe {"name":"read"}
    "#);
}

#[test]
fn not_offered_itself_and_every_shape_reason() {
    // `call.shape` reasons in the implementation's order (docs/decisions.md):
    // not an object, then `name` missing, then `args` missing, then `name`
    // not a string. Inner args that are not an object are a misfit, not a
    // shape error.
    let ops = [
        call("github__create_issue", json!({"title": "x"})),
        call_through("call", json!({})),
        call("call", json!([])),
        call("call", json!("read")),
        call("call", json!({})),
        call("call", json!({"args": {}})),
        call("call", json!({"name": "read"})),
        call("call", json!({"name": 7})),
        call("call", json!({"name": 7, "args": {}})),
        call("call", json!({"name": null, "args": {}})),
    ];
    insta::assert_snapshot!(check(&door_catalog(), Mode::Work, &ops), @r#"
    >>> call github__create_issue {"title":"x"} (96 bytes)
    refused E_INVALID_ARGS call.not_offered: "github__create_issue" is dormant; run it through call
    >>> call call {"args":{},"name":"call"} (60 bytes)
    refused E_INVALID_ARGS call.itself: call cannot call itself
    >>> call call [] (107 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: its args are not an object
    >>> call call "read" (107 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: its args are not an object
    >>> call call {} (98 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "name" is missing
    >>> call call {"args":{}} (98 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "name" is missing
    >>> call call {"name":"read"} (98 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "args" is missing
    >>> call call {"name":7} (98 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "args" is missing
    >>> call call {"args":{},"name":7} (103 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "name" is not a string
    >>> call call {"args":{},"name":null} (103 bytes)
    refused E_INVALID_ARGS call.shape: call takes {"name": string, "args": object}: "name" is not a string
    "#);
}

#[test]
fn misfit_lists_every_violation_in_the_spec_order() {
    // Args {"z":1,"n":1.5,"s":3,"x":2,"B":"yes","a":null}:
    // 1. missing required, in schema order ["zeta","s","alpha"]: zeta, alpha.
    // 2. declared types, keys in byte order (B, a, n, s, x, z): B is a
    //    string (boolean expected); n is 1.5, a number (integer expected);
    //    s is 3, an integer (string|null expected, as written); x is 2, an
    //    integer, which `number` matches. a and z declare no type.
    // 3. additionalProperties false, keys in byte order: a, z.
    // The second line is the canonical schema (keys sorted by bytes: `B`
    // before `alpha`).
    let ops = [call_through(
        "x__strict",
        json!({"z": 1, "n": 1.5, "s": 3, "x": 2, "B": "yes", "a": null}),
    )];
    insta::assert_snapshot!(check(&door_catalog(), Mode::Work, &ops), @r#"
    >>> call call {"args":{"B":"yes","a":null,"n":1.5,"s":3,"x":2,"z":1},"name":"x__strict"} (524 bytes)
    refused E_INVALID_ARGS call.misfit: args for "x__strict" do not fit its input schema: missing required "zeta"; missing required "alpha"; "B" is string, expected boolean; "n" is number, expected integer; "s" is integer, expected string|null; unexpected "a"; unexpected "z"
    schema: {"additionalProperties":false,"properties":{"B":{"type":"boolean"},"alpha":{"type":"string"},"n":{"type":"integer"},"s":{"type":["string","null"]},"x":{"type":"number"},"zeta":{"type":"string"}},"required":["zeta","s","alpha"],"type":"object"}
    "#);
}

#[test]
fn misfit_of_args_that_are_not_an_object_stops_there() {
    // `args is <type>, not an object`, and nothing else (no `missing`).
    // An integral float is an `integer`; a fractional one a `number`.
    let ops = [
        call_through("x__strict", json!([1])),
        call_through("x__strict", json!("text")),
        call_through("x__strict", json!(null)),
        call_through("x__strict", json!(true)),
        call_through("x__strict", json!(2.0)),
        call_through("x__strict", json!(2.5)),
    ];
    let out = check(&door_catalog(), Mode::Work, &ops);
    let first_lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("refused"))
        .map(|l| l.trim_start_matches("refused E_INVALID_ARGS call.misfit: args for \"x__strict\" do not fit its input schema: "))
        .collect();
    insta::assert_snapshot!(first_lines.join("\n"), @r"
    args is array, not an object
    args is string, not an object
    args is null, not an object
    args is boolean, not an object
    args is integer, not an object
    args is number, not an object
    ");
}

#[test]
fn fitting_args_are_routed_with_canonical_numbers() {
    // n = 2.0 is integral, so it is an `integer`; x = 1e3 (a float) is a
    // `number`. The routed args print canonically: sorted keys, and floats
    // as serde_json displays them (`2.0`, `1000.0`).
    let ops = [call_through(
        "x__strict",
        json!({"zeta": "z", "s": null, "alpha": "a", "n": 2.0, "x": 1e3}),
    )];
    insta::assert_snapshot!(check(&door_catalog(), Mode::Work, &ops), @r#"
    >>> call call {"args":{"alpha":"a","n":2.0,"s":null,"x":1000.0,"zeta":"z"},"name":"x__strict"} (73 bytes)
    routed c1 x__strict {"alpha":"a","n":2.0,"s":null,"x":1000.0,"zeta":"z"}
    "#);
}

fn near_catalog() -> Vec<Decl> {
    vec![
        host("cat", "A."),
        host("can", "A."),
        host("Cal", "A."),
        host("calm", "A."),
        host("coal", "A."),
        shelf("cab", "A skill.", "skills/cab.md"),
    ]
}

#[test]
fn unknown_names_the_three_nearest_tools() {
    // `cal`: distance 1 to Cal, calm, can, cat, coal, and to `call` and the
    // skill `cab`. `call` and skills are never named; ties go by name in
    // byte order (`C` 0x43 first), and only 3 are named. Were `call` or
    // `cab` counted, they would be in the three.
    // `cab` (a skill: not an admitted tool) through `call`: can 1, cat 1,
    // then Cal 2 (calm 2, coal 2 follow): distance first, then name.
    let ops = [
        call("cal", json!({})),
        call_through("cab", json!({})),
        call("", json!({})),
    ];
    insta::assert_snapshot!(check(&near_catalog(), Mode::Work, &ops), @r#"
    >>> call cal {} (94 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "cal"; nearest: Cal, calm, can
    >>> call call {"args":{},"name":"cab"} (93 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "cab"; nearest: can, cat, Cal
    >>> call  {} (90 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named ""; nearest: Cal, can, cat
    "#);
}

fn gated_catalog() -> Vec<Decl> {
    vec![
        host("read", "Read a file."),
        host("edit", "Edit a file.").effect(Some("reversible")),
        host("exec", "Run a command.").effect(Some("irreversible")),
    ]
}

#[test]
fn gate_refuses_edit_and_exec_in_chat() {
    // Direct or through `call`, `edit` and `exec` are refused in chat; `read`
    // passes. `fit` comes before the gate, so misfitting args through `call`
    // are a misfit even in chat.
    let ops = [
        call("edit", json!({})),
        call_through("exec", json!({})),
        call("read", json!({})),
        call_through("edit", json!([])),
    ];
    insta::assert_snapshot!(check(&gated_catalog(), Mode::Chat, &ops), @r#"
    >>> call edit {} (66 bytes)
    refused E_GATE_DENIED gate.mode: "edit" does not run in chat mode
    >>> call call {"args":{},"name":"exec"} (66 bytes)
    refused E_GATE_DENIED gate.mode: "exec" does not run in chat mode
    >>> call read {} (18 bytes)
    routed c1 read {}
    >>> call call {"args":[],"name":"edit"} (136 bytes)
    refused E_INVALID_ARGS call.misfit: args for "edit" do not fit its input schema: args is array, not an object
    schema: {"type":"object"}
    "#);
}

#[test]
fn gate_passes_edit_and_exec_in_work() {
    let ops = [call("edit", json!({})), call_through("exec", json!({}))];
    insta::assert_snapshot!(check(&gated_catalog(), Mode::Work, &ops), @r#"
    >>> call edit {} (18 bytes)
    routed c1 edit {}
    >>> call call {"args":{},"name":"exec"} (18 bytes)
    routed c1 exec {}
    "#);
}

#[test]
fn an_unadmitted_core_name_is_unknown_not_gated() {
    // `edit` is in the union of the cores but not admitted: no gate, it is
    // unknown (nearest: describe, read; `call` is never named).
    let ops = [call("edit", json!({}))];
    insta::assert_snapshot!(check(&[host("read", "Read a file.")], Mode::Chat, &ops), @r#"
    >>> call edit {} (95 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "edit"; nearest: read, describe
    "#);
}

#[test]
fn a_skill_name_is_not_a_tool_directly_or_through_call() {
    // `triage` is an admitted skill: neither door runs it (SPEC §6: "the
    // target is not an admitted tool"). Distances from `triage`: read 4,
    // edit 5, describe 6 and exec 6 (tie: `d` < `e`).
    let ops = [call("triage", json!({})), call_through("triage", json!({}))];
    insta::assert_snapshot!(check(&door_catalog(), Mode::Work, &ops), @r#"
    >>> call triage {} (103 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "triage"; nearest: read, edit, describe
    >>> call call {"args":{},"name":"triage"} (103 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "triage"; nearest: read, edit, describe
    "#);
}

#[test]
fn fit_never_refuses_what_a_full_validator_accepts() {
    // SPEC §6: `fit` "must accept every `args` that a full JSON Schema
    // validator accepts (it checks less, never more)". Under
    // `additionalProperties: false`, a key matched by `patternProperties` is
    // not additional (JSON Schema 2020-12 core §10.3.2.3), so the jsonschema
    // crate accepts {"x_1": 1} and the call must be routed (docs/decisions.md:
    // `fit` skips rule 4 when `patternProperties` declares patterns).
    let schema = json!({
        "type": "object",
        "patternProperties": {"^x_": {}},
        "additionalProperties": false
    });
    let args = json!({"x_1": 1});
    assert!(jsonschema::draft202012::is_valid(&schema, &args));
    let decls = [tool("x", "pattern", "P.").schema(schema)];
    let ops = [call_through("x__pattern", args)];
    assert_eq!(
        check(&decls, Mode::Work, &ops),
        concat!(
            ">>> call call {\"args\":{\"x_1\":1},\"name\":\"x__pattern\"} (31 bytes)\n",
            "routed c1 x__pattern {\"x_1\":1}\n",
        )
    );
}
