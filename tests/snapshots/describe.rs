//! `describe` (SPEC §5): the three guides, keyword rankings (ties by name in
//! byte order, distinct query words, the top 8), no match, and the query's
//! validation in its order. Weights are contract version 2's:
//! `weight(w)` = bit length of ⌊(N+1)²/df(w)²⌋ over the run's N candidates
//! (the two doors included), times 3 for a name hit and 1 for a text hit.

use disclose::Mode;
use serde_json::json;

use super::{Decl, carried, check, describe, host, ruler, shelf, tool};

fn guides_catalog() -> Vec<Decl> {
    vec![
        host("read", "Read a file by path.\nReturns its text.").schema(json!({
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"]
        })),
        tool(
            "github",
            "create_issue",
            "  Open an issue on GitHub. Needs a title.\n",
        )
        .schema(json!({
            "type": "object",
            "properties": {"title": {"type": "string"}},
            "required": ["title"]
        }))
        .effect(Some("reversible"))
        .approval(None),
        shelf(
            "triage",
            "  Triage new issues.\nSort them by label.  ",
            "skills/triage/SKILL.md",
        ),
    ]
}

#[test]
fn guides_of_a_resident_tool_a_dormant_tool_and_a_skill() {
    // Resident: `use: call <name> directly`. Dormant: the `call` form with a
    // literal `{...}`. The description / disclosure is trimmed, inner
    // newlines kept. The trimmed query is matched (`  read  `).
    let ops = [
        describe("read"),
        describe("github__create_issue"),
        describe("triage"),
        describe("  read  "),
    ];
    insta::assert_snapshot!(check(&guides_catalog(), Mode::Work, &ops), @r#"
    >>> describe "read" (215 bytes)
    tool read
    standing: resident; effect: read; approval: never
    Read a file by path.
    Returns its text.
    input schema: {"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}
    use: call read directly
    >>> describe "github__create_issue" (273 bytes)
    tool github__create_issue
    standing: dormant; effect: reversible; approval: required
    Open an issue on GitHub. Needs a title.
    input schema: {"properties":{"title":{"type":"string"}},"required":["title"],"type":"object"}
    use: call {"name":"github__create_issue","args":{...}}
    >>> describe "triage" (90 bytes)
    skill triage
    Triage new issues.
    Sort them by label.
    use: read "triage" for the whole card
    >>> describe "  read  " (215 bytes)
    tool read
    standing: resident; effect: read; approval: never
    Read a file by path.
    Returns its text.
    input schema: {"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}
    use: call read directly
    "#);
}

#[test]
fn guides_of_the_two_doors() {
    insta::assert_snapshot!(check(&[], Mode::Chat, &[describe("describe"), describe("call")]), @r#"
    >>> describe "describe" (299 bytes)
    tool describe
    standing: resident; effect: read; approval: never
    Find a capability by exact name for its full guide, or by keywords for a ranked list.
    input schema: {"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}
    use: call describe directly
    >>> describe "call" (326 bytes)
    tool call
    standing: resident; effect: read; approval: never
    Run a dormant tool by name; its args are checked against that tool's input schema first.
    input schema: {"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"}
    use: call call directly
    "#);
}

fn ranking_catalog() -> Vec<Decl> {
    vec![
        tool("github", "create_issue", "Open an issue on GitHub."),
        tool("gitlab", "create_issue", "Open an issue on GitLab."),
        tool("jira", "create_ticket", "Open a ticket."),
        shelf("issue-triage", "Sort new issues by label.", "skills/t.md"),
        host("Issue_log", "Keep a log."),
    ]
}

#[test]
fn keyword_ranking_with_ties_broken_by_name_in_byte_order() {
    // N = 7 (5 declared + the doors), (N+1)² = 64. `create`: df 3
    // (github, gitlab, jira), ⌊64/9⌋ = 7, weight 3; `issue`: df 4 (github
    // and gitlab in name and text, Issue_log and issue-triage in name;
    // `issues` is not `issue`), ⌊64/16⌋ = 4, weight 3.
    // github__create_issue 3·3 + 3·(3+1) = 21, gitlab__create_issue 21
    // (tie: `h` < `l`); Issue_log 9, issue-triage 9, jira 9 (create):
    // byte order puts `I` (0x49) before `i` (0x69) before `j`. A
    // case-insensitive order would put `issue-triage` (`-` 0x2d) before
    // `issue_log` (`_` 0x5f). Tools and skills sort together, by name.
    // `Read` is not an exact name (`read` is not admitted here either).
    // Since contract 3, SPEC §5 fuses this keyword half (lex, the
    // arithmetic above, over stems; contract 4 counts a params hit 2) with
    // the cosine of the word vectors (3 × under contract 4), so the order
    // below is the fused one and the doors can be listed by their vectors;
    // tests/ranking.rs holds the ranking to an independent model.
    let ops = [describe("create issue"), describe("Issue")];
    insta::assert_snapshot!(check(&ranking_catalog(), Mode::Chat, &ops), @r#"
    >>> describe "create issue" (354 bytes)
    no capability is named "create issue"; closest matches:
    - github__create_issue: Open an issue on GitHub.
    - gitlab__create_issue: Open an issue on GitLab.
    - skill issue-triage: Sort new issues by label.
    - Issue_log: Keep a log.
    - jira__create_ticket: Open a ticket.
    - call: Run a dormant tool by name; its args are checked against that tool's input sc…
    >>> describe "Issue" (347 bytes)
    no capability is named "Issue"; closest matches:
    - github__create_issue: Open an issue on GitHub.
    - skill issue-triage: Sort new issues by label.
    - gitlab__create_issue: Open an issue on GitLab.
    - Issue_log: Keep a log.
    - jira__create_ticket: Open a ticket.
    - call: Run a dormant tool by name; its args are checked against that tool's input sc…
    "#);
}

#[test]
fn query_words_count_once() {
    // Distinct words {issue, ticket}: `ticket` is rare (df 1, ⌊64/1⌋ = 64,
    // weight 7), `issue` common (df 4, weight 3). jira__create_ticket
    // 7·(3+1) = 28 leads github 12 and gitlab 12, then Issue_log 9 and
    // issue-triage 9. Were `issue` counted three times, github and gitlab
    // would score 36 and lead.
    // Since contract 3, SPEC §5 fuses this keyword half (lex, the
    // arithmetic above, over stems; contract 4 counts a params hit 2) with
    // the cosine of the word vectors (3 × under contract 4), so the order
    // below is the fused one and the doors can be listed by their vectors;
    // tests/ranking.rs holds the ranking to an independent model.
    insta::assert_snapshot!(check(&ranking_catalog(), Mode::Chat, &[describe("issue ISSUE Issue ticket")]), @r#"
    >>> describe "issue ISSUE Issue ticket" (370 bytes)
    no capability is named "issue ISSUE Issue ticket"; closest matches:
    - jira__create_ticket: Open a ticket.
    - skill issue-triage: Sort new issues by label.
    - Issue_log: Keep a log.
    - github__create_issue: Open an issue on GitHub.
    - gitlab__create_issue: Open an issue on GitLab.
    - describe: Find a capability by exact name for its full guide, or by keywords for a rank…
    "#);
}

#[test]
fn more_than_eight_hits_keep_the_first_eight() {
    // Query `log`. N = 14; `log` is in 11 of them, ⌊225/121⌋ = 1, weight 1,
    // so the scores are D22's: LOG-format 3+1 = 4, log_read 4, log_write 4;
    // grep-log 3 (`logs` is not `log`), log_rotate 3; audit, backup, compact,
    // digest, export, fsck 1 each. 11 hits: digest, export and fsck (the last
    // three by name) are not listed. syslog__send has lex 0: `syslog` is one
    // word.
    // Since contract 3, SPEC §5 fuses this keyword half (lex, the
    // arithmetic above, over stems; contract 4 counts a params hit 2) with
    // the cosine of the word vectors (3 × under contract 4), so the order
    // below is the fused one and the doors can be listed by their vectors;
    // tests/ranking.rs holds the ranking to an independent model.
    let decls = [
        host("log_write", "Write a log line."),
        host("log_read", "Read the log."),
        host("log_rotate", "Rotate files."),
        tool("syslog", "send", "Send to syslog."),
        host("audit", "Audit the log."),
        host("backup", "Back up the log."),
        host("compact", "Compact the log."),
        host("digest", "Digest the log."),
        host("export", "Export the log."),
        host("fsck", "Check the log."),
        shelf("grep-log", "Search logs.", "skills/grep-log.md"),
        carried("LOG-format", "How a log line looks.", "body"),
    ];
    insta::assert_snapshot!(check(&decls, Mode::Chat, &[describe("log")]), @r#"
    >>> describe "log" (285 bytes)
    no capability is named "log"; closest matches:
    - skill grep-log: Search logs.
    - skill LOG-format: How a log line looks.
    - log_write: Write a log line.
    - log_read: Read the log.
    - audit: Audit the log.
    - digest: Digest the log.
    - export: Export the log.
    - syslog__send: Send to syslog.
    "#);
}

#[test]
fn keyword_hits_show_hints_and_include_the_doors() {
    // `by name`: `by` is a stopword; `name` is in describe's and call's
    // descriptions (N = 3, df 2, ⌊16/4⌋ = 4, weight 3): 3 each, tie by
    // name. Their hints are cut: describe's description is 85 bytes,
    // cut at 77 inside `ranked`; call's is 88 bytes, cut at 77 inside
    // `schema`. Non-ASCII words lowercase by `char::to_lowercase`.
    // Since contract 3, SPEC §5 fuses this keyword half (lex, the
    // arithmetic above, over stems; contract 4 counts a params hit 2) with
    // the cosine of the word vectors (3 × under contract 4), so the order
    // below is the fused one and the doors can be listed by their vectors;
    // tests/ranking.rs holds the ranking to an independent model.
    let decls = [host("resume", "Résumé de l'été.")];
    // `ꙮ` has no WordPiece piece and is in no candidate, so nothing
    // scores (under contract 4's vectors `zebra` leans towards `call`).
    let ops = [describe("by name"), describe("ÉTÉ"), describe("ꙮ")];
    insta::assert_snapshot!(check(&decls, Mode::Chat, &ops), @r#"
    >>> describe "by name" (264 bytes)
    no capability is named "by name"; closest matches:
    - describe: Find a capability by exact name for its full guide, or by keywords for a rank…
    - call: Run a dormant tool by name; its args are checked against that tool's input sc…
    - resume: Résumé de l'été.
    >>> describe "ÉTÉ" (80 bytes)
    no capability is named "ÉTÉ"; closest matches:
    - resume: Résumé de l'été.
    >>> describe "ꙮ" (50 bytes)
    no capability is named "ꙮ", and nothing matched
    "#);
}

#[test]
fn query_refused_for_each_reason_in_order() {
    // Validation is on the query as given, before trimming: empty after
    // trimming, then > 256 bytes, then a control character.
    let long = "x".repeat(257);
    let blank_and_long = " ".repeat(300);
    let long_with_control = format!("{}\t", "x".repeat(256));
    let ops = [
        describe(""),
        describe(" \u{a0}\n "),
        describe(&blank_and_long),
        describe(&long),
        describe(&long_with_control),
        describe("read\n"),
        describe("a\u{7f}b"),
    ];
    insta::assert_snapshot!(check(&guides_catalog(), Mode::Chat, &ops), @r#"
    >>> describe "" (58 bytes)
    refused E_INVALID_ARGS describe.query: the query is empty
    >>> describe " \u{a0}\n " (58 bytes)
    refused E_INVALID_ARGS describe.query: the query is empty
    >>> describe "                    "… [300 bytes] (58 bytes)
    refused E_INVALID_ARGS describe.query: the query is empty
    >>> describe "xxxxxxxxxxxxxxxxxxxx"… [257 bytes] (74 bytes)
    refused E_INVALID_ARGS describe.query: the query is longer than 256 bytes
    >>> describe "xxxxxxxxxxxxxxxxxxxx"… [257 bytes] (74 bytes)
    refused E_INVALID_ARGS describe.query: the query is longer than 256 bytes
    >>> describe "read\n" (75 bytes)
    refused E_INVALID_ARGS describe.query: the query holds a control character
    >>> describe "a\u{7f}b" (75 bytes)
    refused E_INVALID_ARGS describe.query: the query holds a control character
    "#);
}

#[test]
fn query_of_256_bytes_is_accepted() {
    // 256 bytes exactly, as given: ` ` + 254 ruler bytes + ` `. The message
    // shows the trimmed query (254 bytes). And 128 × `é` = 256 bytes.
    let padded = format!(" {} ", ruler(254));
    assert_eq!(padded.len(), 256);
    let accented = "é".repeat(128);
    assert_eq!(accented.len(), 256);
    let ops = [describe(&padded), describe(&accented)];
    insta::assert_snapshot!(check(&[], Mode::Chat, &ops), @r#"
    >>> describe " a123456789b12345678"… [256 bytes] (301 bytes)
    no capability is named "a123456789b123456789c123456789d123456789e123456789f123456789g123456789h123456789i123456789j123456789k123456789l123456789m123456789n123456789o123456789p123456789q123456789r123456789s123456789t123456789u123456789v123456789w123456789x123456789y123456789z123", and nothing matched
    >>> describe "éééééééééééééééééééé"… [256 bytes] (303 bytes)
    no capability is named "éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé", and nothing matched
    "#);
}
