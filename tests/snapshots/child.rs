//! Child runs (SPEC §8): a `scout` or `writer` child sees only the tools it
//! is offered — in `tool_defs`, `render`, `describe`, `expand`, `digests` and
//! `call.unknown`'s nearest names — and calling a tool the parent has but the
//! child is not offered is `approval.child_unattended` (approval required)
//! or `profile.narrowed`.

use disclose::{Mode, Profile};
use serde_json::json;

use super::{
    Decl, Op, call, call_through, carried, check, check_child, describe, expand, host, shelf, tool,
};

/// Effects and approvals across the board. Offered to scout: read,
/// idempotent-write, approval never. Writer adds reversible.
fn family() -> Vec<Decl> {
    vec![
        host("read", "Read a file."),
        host("search", "Search files.").approval(None),
        host("status", "Show status.").effect(Some("idempotent-write")),
        host("edit", "Edit a file.").effect(Some("reversible")),
        host("exec", "Run a command.").effect(Some("irreversible")),
        tool("github", "get_issue", "Get an issue."),
        tool("github", "create_issue", "Open an issue.").effect(Some("reversible")),
        tool("github", "delete_repo", "Delete a repository.").effect(Some("irreversible")),
        tool("github", "merge", "Merge a pull request.")
            .effect(Some("idempotent-write"))
            .approval(None),
        tool("github", "label", "Label an issue.").effect(Some("bogus")),
        tool("github", "nuke", "Remove everything.")
            .effect(None)
            .approval(None),
        shelf("triage", "Triage issues.", "skills/triage.md"),
        carried("style", "Style guide.", "# Style\n"),
    ]
}

#[test]
fn scout_sees_only_what_it_is_offered() {
    // tool_defs: read, status (idempotent-write), describe, call — not
    // search (approval required), edit, exec. The index: github__get_issue
    // and both skills (skills stay visible). `github__create_issue` is not an
    // exact name for the scout, so it is a keyword query over what the scout
    // sees; `search` is in nothing the scout sees (since contract 3: no stem is
    // shared, but the vectors of what the scout sees still rank, and never
    // list a tool it is not offered).
    let ops = [
        Op::Render,
        Op::ToolDefs,
        describe("github__create_issue"),
        describe("github__get_issue"),
        describe("search"),
        expand("github__merge"),
        expand("exec"),
        expand("triage"),
        expand("style"),
    ];
    insta::assert_snapshot!(check_child(&family(), Mode::Work, Profile::Scout, &ops), @r#"
    >>> render (180 bytes)
    ## Capabilities
    mode: work
    Dormant (describe a name for its guide; call runs a tool):
    - github__get_issue: Get an issue.
    - skill style: Style guide.
    - skill triage: Triage issues.
    >>> tool_defs (677 bytes)
    {"description":"Read a file.","input_schema":{"type":"object"},"name":"read"}
    {"description":"Show status.","input_schema":{"type":"object"},"name":"status"}
    {"description":"Find a capability by exact name for its full guide, or by keywords for a ranked list.","input_schema":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"name":"describe"}
    {"description":"Run a dormant tool by name; its args are checked against that tool's input schema first.","input_schema":{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"},"name":"call"}
    >>> describe "github__create_issue" (181 bytes)
    no capability is named "github__create_issue"; closest matches:
    - github__get_issue: Get an issue.
    - status: Show status.
    - skill style: Style guide.
    - skill triage: Triage issues.
    >>> describe "github__get_issue" (170 bytes)
    tool github__get_issue
    standing: dormant; effect: read; approval: never
    Get an issue.
    input schema: {"type":"object"}
    use: call {"name":"github__get_issue","args":{...}}
    >>> describe "search" (253 bytes)
    no capability is named "search"; closest matches:
    - describe: Find a capability by exact name for its full guide, or by keywords for a rank…
    - read: Read a file.
    - call: Run a dormant tool by name; its args are checked against that tool's input sc…
    >>> expand "github__merge" (81 bytes)
    refused E_INVALID_ARGS expand.unknown: nothing admitted is named "github__merge"
    >>> expand "exec" (72 bytes)
    refused E_INVALID_ARGS expand.unknown: nothing admitted is named "exec"
    >>> expand "triage" (39 bytes)
    skill triage lives at skills/triage.md
    >>> expand "style" (8 bytes)
    # Style
    "#);
}

#[test]
fn scout_calls_refused_by_profile_or_approval() {
    // approval required → approval.child_unattended (search, merge, nuke —
    // whatever the effect); otherwise a narrowed effect → profile.narrowed
    // (edit, exec, delete_repo, create_issue, label: `bogus` fails closed to
    // irreversible). Direct or through `call`. A dormant tool the scout is
    // offered, called directly, is call.not_offered. Nearest names are only
    // offered tools: describe and read tie at 16, byte order.
    let ops = [
        call("edit", json!({})),
        call("exec", json!({})),
        call("search", json!({})),
        call("status", json!({})),
        call_through("github__merge", json!({})),
        call_through("github__nuke", json!({})),
        call_through("github__delete_repo", json!({})),
        call_through("github__create_issue", json!({})),
        call_through("github__label", json!({})),
        call_through("github__get_issue", json!({})),
        call("github__get_issue", json!({})),
        call("github__create_issue", json!({})),
        call_through("github__create_issu", json!({})),
    ];
    insta::assert_snapshot!(check_child(&family(), Mode::Work, Profile::Scout, &ops), @r#"
    >>> call edit {} (79 bytes)
    refused E_GATE_DENIED profile.narrowed: "edit" is not offered to a scout child
    >>> call exec {} (79 bytes)
    refused E_GATE_DENIED profile.narrowed: "exec" is not offered to a scout child
    >>> call search {} (123 bytes)
    refused E_GATE_DENIED approval.child_unattended: "search" needs a human's approval, and no human is attached to this child
    >>> call status {} (20 bytes)
    routed c1 status {}
    >>> call call {"args":{},"name":"github__merge"} (130 bytes)
    refused E_GATE_DENIED approval.child_unattended: "github__merge" needs a human's approval, and no human is attached to this child
    >>> call call {"args":{},"name":"github__nuke"} (129 bytes)
    refused E_GATE_DENIED approval.child_unattended: "github__nuke" needs a human's approval, and no human is attached to this child
    >>> call call {"args":{},"name":"github__delete_repo"} (94 bytes)
    refused E_GATE_DENIED profile.narrowed: "github__delete_repo" is not offered to a scout child
    >>> call call {"args":{},"name":"github__create_issue"} (95 bytes)
    refused E_GATE_DENIED profile.narrowed: "github__create_issue" is not offered to a scout child
    >>> call call {"args":{},"name":"github__label"} (88 bytes)
    refused E_GATE_DENIED profile.narrowed: "github__label" is not offered to a scout child
    >>> call call {"args":{},"name":"github__get_issue"} (31 bytes)
    routed c1 github__get_issue {}
    >>> call github__get_issue {} (93 bytes)
    refused E_INVALID_ARGS call.not_offered: "github__get_issue" is dormant; run it through call
    >>> call github__create_issue {} (95 bytes)
    refused E_GATE_DENIED profile.narrowed: "github__create_issue" is not offered to a scout child
    >>> call call {"args":{},"name":"github__create_issu"} (131 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "github__create_issu"; nearest: github__get_issue, status, describe
    "#);
}

#[test]
fn writer_adds_reversible_tools() {
    // Writer: edit is resident for it, so in chat it meets the gate; the
    // reversible github__create_issue is dormant and routed. Nearest names
    // now include github__create_issue (distance 1).
    let ops = [
        Op::Render,
        Op::ToolDefs,
        call("edit", json!({})),
        call("exec", json!({})),
        call("search", json!({})),
        call_through("github__create_issue", json!({})),
        call_through("github__merge", json!({})),
        call_through("github__create_issu", json!({})),
    ];
    insta::assert_snapshot!(check_child(&family(), Mode::Chat, Profile::Writer, &ops), @r#"
    >>> render (219 bytes)
    ## Capabilities
    mode: chat
    Dormant (describe a name for its guide; call runs a tool):
    - github__create_issue: Open an issue.
    - github__get_issue: Get an issue.
    - skill style: Style guide.
    - skill triage: Triage issues.
    >>> tool_defs (755 bytes)
    {"description":"Read a file.","input_schema":{"type":"object"},"name":"read"}
    {"description":"Show status.","input_schema":{"type":"object"},"name":"status"}
    {"description":"Find a capability by exact name for its full guide, or by keywords for a ranked list.","input_schema":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"name":"describe"}
    {"description":"Run a dormant tool by name; its args are checked against that tool's input schema first.","input_schema":{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"},"name":"call"}
    {"description":"Edit a file.","input_schema":{"type":"object"},"name":"edit"}
    >>> call edit {} (66 bytes)
    refused E_GATE_DENIED gate.mode: "edit" does not run in chat mode
    >>> call exec {} (80 bytes)
    refused E_GATE_DENIED profile.narrowed: "exec" is not offered to a writer child
    >>> call search {} (123 bytes)
    refused E_GATE_DENIED approval.child_unattended: "search" needs a human's approval, and no human is attached to this child
    >>> call call {"args":{},"name":"github__create_issue"} (34 bytes)
    routed c1 github__create_issue {}
    >>> call call {"args":{},"name":"github__merge"} (130 bytes)
    refused E_GATE_DENIED approval.child_unattended: "github__merge" needs a human's approval, and no human is attached to this child
    >>> call call {"args":{},"name":"github__create_issu"} (143 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "github__create_issu"; nearest: github__create_issue, github__get_issue, status
    "#);
}

/// The names of a digests block, each digest checked to be 64 lowercase hex.
fn digest_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with(">>>"))
        .map(str::to_string)
        .collect()
}

#[test]
fn child_digests_are_the_offered_subset_of_the_parent() {
    let parent = digest_lines(&check(&family(), Mode::Work, &[Op::Digests]));
    let scout = digest_lines(&check_child(
        &family(),
        Mode::Work,
        Profile::Scout,
        &[Op::Digests],
    ));
    let writer = digest_lines(&check_child(
        &family(),
        Mode::Work,
        Profile::Writer,
        &[Op::Digests],
    ));
    for line in scout.iter().chain(&writer) {
        assert!(parent.contains(line), "{line} is not the parent's digest");
    }
    let names = |lines: &[String]| -> String {
        lines
            .iter()
            .map(|l| {
                let (name, hex) = l.split_once(' ').unwrap_or((l, ""));
                assert!(
                    hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
                    "{l}"
                );
                name
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let table = format!(
        "parent: {}\nscout: {}\nwriter: {}",
        names(&parent),
        names(&scout),
        names(&writer)
    );
    insta::assert_snapshot!(table, @r"
    parent: call describe edit exec github__create_issue github__delete_repo github__get_issue github__label github__merge github__nuke read search status
    scout: call describe github__get_issue read status
    writer: call describe edit github__create_issue github__get_issue read status
    ");
}

#[test]
fn the_parent_of_the_same_catalog_sees_everything() {
    // For contrast: the parent's nearest names for the same typo.
    let ops = [call_through("github__create_issu", json!({}))];
    insta::assert_snapshot!(check(&family(), Mode::Work, &ops), @r#"
    >>> call call {"args":{},"name":"github__create_issu"} (156 bytes)
    refused E_INVALID_ARGS call.unknown: no admitted tool is named "github__create_issu"; nearest: github__create_issue, github__get_issue, github__delete_repo
    "#);
}
