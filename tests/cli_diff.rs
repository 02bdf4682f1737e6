//! `disclose diff` through the public CLI, on transcript trees framed here
//! by hand (SPEC §12), so every expected line is written out literally.

mod common;

use common::{disclose, stderr, stdout, write};
use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

/// SPEC §12 framing, written independently of the library.
fn transcript(blocks: &[(usize, &str, &str)]) -> String {
    let mut out = String::from("disclose transcript 1\n");
    for (line, op, output) in blocks {
        out.push_str(&format!("=== {line} {op} {}\n{output}", output.len()));
    }
    out
}

const HEADER: &str = "Dormant (describe a name for its guide; call runs a tool):\n";
const TOOL: &str = "admitted tool x__get (effect read, approval never, digest 0123456789abcdef)\n";
const START: &str = "run started in chat mode at generation 1\n";
const TOOL_DEFS: &str = "{\"description\":\"d\",\"input_schema\":{},\"name\":\"describe\"}\n";
const MISFIT: &str = "refused E_INVALID_ARGS call.misfit: args for \"x__get\" do not fit its input schema: missing required \"id\"\nschema: {\"required\":[\"id\"]}\n";
const GATE: &str = "refused E_GATE_DENIED gate.mode: \"x__get\" does not run in chat mode\n";

fn render(hint: &str) -> String {
    format!("## Capabilities\nmode: chat\n{HEADER}- x__get: {hint}\n")
}

fn session(hint: &str, call: &str) -> String {
    transcript(&[
        (2, "tool", TOOL),
        (3, "start", START),
        (4, "render", &render(hint)),
        (5, "tool_defs", TOOL_DEFS),
        (6, "call", call),
    ])
}

/// OLD and NEW trees in a temp dir.
fn trees(old: &[(&str, &str)], new: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in old {
        write(&dir.path().join("old"), rel, text);
    }
    for (rel, text) in new {
        write(&dir.path().join("new"), rel, text);
    }
    dir
}

fn diff(dir: &Path, extra: &[&str]) -> Output {
    let (old, new) = (dir.join("old"), dir.join("new"));
    let mut args = vec!["diff", old.to_str().unwrap(), new.to_str().unwrap()];
    args.extend(extra);
    disclose(&args)
}

#[test]
fn identical_trees_exit_0_and_other_files_are_ignored() {
    let same = session("Get a thing.", MISFIT);
    let dir = trees(
        &[
            ("a/one.txt", &same),
            ("b/c/two.txt", &same),
            ("notes.md", "x"),
        ],
        &[
            ("a/one.txt", &same),
            ("b/c/two.txt", &same),
            ("notes.md", "y"),
        ],
    );
    let output = diff(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "0 changed, 0 added, 0 removed, 2 unchanged\n"
    );
}

#[test]
fn a_changed_render_is_a_prefix_change_with_headroom_and_refusals() {
    let dir = trees(
        &[
            ("s/a.txt", &session("Get a thing.", MISFIT)),
            ("s/b.txt", &session("Same.", GATE)),
        ],
        &[
            ("s/a.txt", &session("Get a thing now.", GATE)),
            ("s/b.txt", &session("Same.", GATE)),
        ],
    );
    let output = diff(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let old_render = render("Get a thing.").len();
    let tool_defs = TOOL_DEFS.len();
    let headroom = 1024 - (HEADER.len() + "- x__get: Get a thing.\n".len());
    let expected = format!(
        "changed    s/a.txt
  first divergence: line 4 render: output differs
    --- old line 4 render
    +++ new line 4 render
    @@ -1,4 +1,4 @@
     ## Capabilities
     mode: chat
     Dormant (describe a name for its guide; call runs a tool):
    -- x__get: Get a thing.
    +- x__get: Get a thing now.
  prefix: changed (render {old_render} B → {} B (+4), tool_defs {tool_defs} B): a prompt-cache miss for every run like it
  index headroom: {headroom} B → {} B (-4)
  refusals: call.misfit disappeared (1 → 0), gate.mode appeared (0 → 1)
1 changed, 0 added, 0 removed, 1 unchanged; the cached prefix changed in 1 session: a prompt-cache miss for every run like it
",
        old_render + 4,
        headroom - 4
    );
    assert_eq!(stdout(&output), expected);
}

#[test]
fn a_change_outside_the_prefix_says_the_cache_still_hits() {
    let dir = trees(
        &[("a.txt", &session("Get a thing.", MISFIT))],
        &[("a.txt", &session("Get a thing.", GATE))],
    );
    let text = stdout(&diff(dir.path(), &[]));
    assert!(
        text.contains("  first divergence: line 6 call: output differs\n"),
        "{text}"
    );
    assert!(
        text.contains("  prefix: unchanged: the cached prefix still hits\n"),
        "{text}"
    );
    assert!(
        text.ends_with("1 changed, 0 added, 0 removed, 0 unchanged\n"),
        "{text}"
    );
}

#[test]
fn changed_digests_are_named_from_admitted_lines_and_digests_blocks() {
    let a = "a".repeat(64);
    let b = format!("{}{}", "a".repeat(16), "b".repeat(48));
    let digests = |x: &str, y: &str| format!("x__get {x}\nx__put {y}\n");
    let old = transcript(&[
        (2, "tool", TOOL),
        (
            3,
            "tool",
            "admitted tool x__put (effect read, approval never, digest 1111111111111111)\n",
        ),
        (
            4,
            "tool",
            "admitted tool x__old (effect read, approval never, digest 2222222222222222)\n",
        ),
        (5, "start", START),
        (
            6,
            "digests",
            &digests(
                &a,
                "1111111111111111ffffffffffffffffffffffffffffffffffffffffffffffff",
            ),
        ),
    ]);
    let new = transcript(&[
        (
            2,
            "tool",
            "admitted tool x__get (effect read, approval never, digest aaaaaaaaaaaaaaaa)\n",
        ),
        (
            3,
            "tool",
            "admitted tool x__put (effect read, approval never, digest 3333333333333333)\n",
        ),
        (
            4,
            "tool",
            "admitted tool x__new (effect read, approval never, digest 4444444444444444)\n",
        ),
        (5, "start", START),
        (
            6,
            "digests",
            &digests(
                &b,
                "3333333333333333ffffffffffffffffffffffffffffffffffffffffffffffff",
            ),
        ),
    ]);
    let dir = trees(&[("d.txt", &old)], &[("d.txt", &new)]);
    let output = diff(dir.path(), &["--json"]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let session = &report["sessions"][0];
    assert_eq!(session["status"], "changed");
    assert_eq!(session["kind"], "transcript");
    // x__get differs only past the 16 hex the admitted line shows; x__put
    // differs everywhere; x__old and x__new are in one tree only.
    assert_eq!(
        session["digests"],
        json!([
            {"name": "x__get", "old": a, "new": b},
            {"name": "x__put",
             "old": "1111111111111111ffffffffffffffffffffffffffffffffffffffffffffffff",
             "new": "3333333333333333ffffffffffffffffffffffffffffffffffffffffffffffff"},
        ])
    );
    assert_eq!(session["prefix_changed"], false);
    assert_eq!(
        session["first_divergence"]["old"],
        json!({"line": 2, "op": "tool"})
    );

    let text = stdout(&diff(dir.path(), &[]));
    assert!(text.contains(
        "  digests changed: x__get aaaaaaaaaaaaaaaa → aaaaaaaaaaaaaaaa, x__put 1111111111111111 → 3333333333333333: an approval bound to the old digest no longer applies\n"
    ), "{text}");
}

#[test]
fn added_and_removed_sessions() {
    let s = session("Get a thing.", MISFIT);
    let dir = trees(
        &[("keep.txt", &s), ("gone/old.txt", &s)],
        &[("keep.txt", &s), ("new/fresh.txt", &s)],
    );
    let output = diff(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "removed    gone/old.txt\nadded      new/fresh.txt\n0 changed, 1 added, 1 removed, 1 unchanged\n"
    );
    let report: Value = serde_json::from_str(&stdout(&diff(dir.path(), &["--json"]))).unwrap();
    assert_eq!(
        report["sessions"],
        json!([
            {"session": "gone/old.txt", "status": "removed"},
            {"session": "keep.txt", "status": "unchanged"},
            {"session": "new/fresh.txt", "status": "added"},
        ])
    );
    assert_eq!(
        report["summary"],
        json!({"changed": 0, "added": 1, "removed": 1, "unchanged": 1, "ignored": 0, "prefix_changed": 0})
    );
}

#[test]
fn invisible_bytes_are_made_visible() {
    let old = transcript(&[(2, "describe", "tool x\nsame\n")]);
    let new = transcript(&[(2, "describe", "tool x\r\nsame \n\tend\u{a0}")]);
    let dir = trees(&[("i.txt", &old)], &[("i.txt", &new)]);
    let text = stdout(&diff(dir.path(), &[]));
    assert!(
        text.contains(concat!(
            "    @@ -1,2 +1,4 @@\n",
            "    -tool x\n",
            "    -same\n",
            "    +tool x␍\n",
            "    +same·\n",
            "    +␉end⟨U+00A0⟩\n",
            "    +\\ no newline at end\n",
        )),
        "{text}"
    );
}

#[test]
fn non_transcripts_and_undecodable_transcripts_are_reported_per_file() {
    let s = session("Get a thing.", MISFIT);
    let broken = "disclose transcript 1\n=== 2 render 99\nshort";
    let dir = trees(
        &[
            ("vocabulary.txt", "codes\n"),
            ("x/broken.txt", &s),
            ("x/fine.txt", &s),
        ],
        &[
            ("vocabulary.txt", "codes\nmore\n"),
            ("x/broken.txt", broken),
            ("x/fine.txt", &session("Other.", MISFIT)),
        ],
    );
    let output = diff(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with(
        "changed    vocabulary.txt (not a transcript)\n    --- old\n    +++ new\n    @@ -1 +1,2 @@\n     codes\n    +more\n"
    ), "{text}");
    assert!(text.contains(
        "changed    x/broken.txt: the new transcript does not decode: byte 22: a block is shorter than its length says\n"
    ), "{text}");
    assert!(text.contains("changed    x/fine.txt\n"), "{text}");
    assert!(text.ends_with("3 changed, 0 added, 0 removed, 0 unchanged; the cached prefix changed in 1 session: a prompt-cache miss for every run like it\n"));
}

#[test]
fn markdown_for_a_pull_request_comment() {
    let dir = trees(
        &[
            ("a.txt", &session("Get a thing.", MISFIT)),
            ("b.txt", &session("B.", MISFIT)),
        ],
        &[
            ("a.txt", &session("Get one thing.", MISFIT)),
            ("c.txt", &session("C.", MISFIT)),
        ],
    );
    let output = diff(dir.path(), &["--markdown"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let render = render("Get a thing.").len();
    let headroom = 1024 - (HEADER.len() + "- x__get: Get a thing.\n".len());
    assert!(text.starts_with("### disclose diff\n\n**1 changed, 1 added, 1 removed, 0 unchanged; the cached prefix changed in 1 session: a prompt-cache miss for every run like it**\n\n| session | status | prefix | render | tool_defs | index headroom | refusals | digests changed |\n|---|---|---|---|---|---|---|---|\n"), "{text}");
    assert!(text.contains(&format!(
        "| a.txt | changed | **changed: cache miss** | {render} B → {} B (+2) | {} B | {headroom} B → {} B (-2) |  |  |\n",
        render + 2,
        TOOL_DEFS.len(),
        headroom - 2
    )), "{text}");
    assert!(text.contains("| b.txt | removed | | | | | | |\n"));
    assert!(text.contains("| c.txt | added | | | | | | |\n"));
    assert!(text.contains("<details><summary>a.txt: first divergence: line 4 render: output differs</summary>\n\n```diff\n--- old line 4 render\n"), "{text}");
    assert!(
        text.ends_with("+- x__get: Get one thing.\n```\n\n</details>\n"),
        "{text}"
    );
}

#[test]
fn two_files_compare_like_one_session() {
    let dir = trees(
        &[("a.txt", &session("Get a thing.", MISFIT))],
        &[
            ("a.txt", &session("Get a thing.", MISFIT)),
            ("b.txt", &session("Other.", MISFIT)),
        ],
    );
    let old = dir.path().join("old/a.txt");
    let (same, other) = (dir.path().join("new/a.txt"), dir.path().join("new/b.txt"));
    let output = disclose(&["diff", old.to_str().unwrap(), same.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "0 changed, 0 added, 0 removed, 1 unchanged\n"
    );
    let output = disclose(&["diff", old.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).starts_with(&format!("changed    {}\n", other.display())));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = trees(&[("a.txt", "x")], &[("a.txt", "x")]);
    let (old, file) = (dir.path().join("old"), dir.path().join("new/a.txt"));
    let missing = dir.path().join("missing");
    let cases: [(Vec<&str>, String); 3] = [
        (
            vec!["diff", old.to_str().unwrap(), missing.to_str().unwrap()],
            format!("disclose: NEW \"{}\" does not exist", missing.display()),
        ),
        (
            vec!["diff", old.to_str().unwrap(), file.to_str().unwrap()],
            "are not both directories or both files".to_string(),
        ),
        (
            vec![
                "diff",
                old.to_str().unwrap(),
                old.to_str().unwrap(),
                "--json",
                "--markdown",
            ],
            "cannot be used with".to_string(),
        ),
    ];
    for (args, message) in cases {
        let output = disclose(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&output), "");
        assert!(
            stderr(&output).contains(&message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn replayed_trees_before_and_after_a_schema_change() {
    let dir = tempfile::tempdir().unwrap();
    let session = |schema: &str| {
        format!(
            "{{\"op\":\"session\",\"format\":1,\"about\":\"diff end to end\"}}\n\
             {{\"op\":\"tool\",\"origin\":\"x\",\"name\":\"get\",\"description\":\"Get a thing.\",\"input_schema\":{schema},\"effect\":\"read\"}}\n\
             {{\"op\":\"start\",\"mode\":\"chat\"}}\n\
             {{\"op\":\"render\"}}\n\
             {{\"op\":\"digests\"}}\n"
        )
    };
    write(
        &dir.path().join("before"),
        "suite/case.jsonl",
        &session(r#"{"type":"object"}"#),
    );
    write(
        &dir.path().join("after"),
        "suite/case.jsonl",
        &session(r#"{"type":"object","required":["id"]}"#),
    );
    for side in ["before", "after"] {
        let corpus = dir.path().join(side);
        let out = dir.path().join(format!("{side}.out"));
        let output = disclose(&[
            "replay",
            corpus.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    }
    let (old, new) = (dir.path().join("before.out"), dir.path().join("after.out"));
    let output = disclose(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let digest = |schema: &str| {
        blake3::hash(format!(r#"["disclose.tool/1","x","get",{schema},"read"]"#).as_bytes())
            .to_hex()
            .to_string()
    };
    let session = &report["sessions"][0];
    assert_eq!(session["session"], "suite/case.txt");
    assert_eq!(
        session["digests"],
        json!([{"name": "x__get",
                "old": digest(r#"{"type":"object"}"#),
                "new": digest(r#"{"required":["id"],"type":"object"}"#)}])
    );
    // Render shows only the hint, which did not change.
    assert_eq!(session["prefix_changed"], false);
}

#[test]
fn an_inserted_or_missing_op_is_named_on_both_sides() {
    let old = transcript(&[(2, "tool", TOOL), (3, "start", START)]);
    let inserted = transcript(&[(2, "tool", TOOL), (3, "tool", TOOL), (4, "start", START)]);
    let shorter = transcript(&[(2, "tool", TOOL)]);
    let dir = trees(
        &[("inserted.txt", &old), ("shorter.txt", &old)],
        &[("inserted.txt", &inserted), ("shorter.txt", &shorter)],
    );
    let text = stdout(&diff(dir.path(), &[]));
    assert!(
        text.contains(
            "changed    inserted.txt\n  first divergence: old line 3 start, new line 3 tool\n    --- old line 3 start\n    +++ new line 3 tool\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "changed    shorter.txt\n  first divergence: old line 3 start, new no block\n    --- old line 3 start\n    +++ new (no block)\n    @@ -1 +0,0 @@\n    -run started in chat mode at generation 1\n"
        ),
        "{text}"
    );
}

#[test]
fn a_non_transcript_in_one_tree_only_is_ignored_not_a_difference() {
    // `golden/` holds vocabulary.txt; `replay --out` does not write it.
    let s = session("Get a thing.", MISFIT);
    let dir = trees(
        &[
            ("vocabulary.txt", "admit.frozen E_INVALID_ARGS\n"),
            ("a/s.txt", &s),
        ],
        &[("a/s.txt", &s), ("notes.txt", "")],
    );
    let output = diff(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "ignored    notes.txt (not a transcript; only in NEW)\n\
         ignored    vocabulary.txt (not a transcript; only in OLD)\n\
         0 changed, 0 added, 0 removed, 1 unchanged (2 non-transcript files in one tree only, ignored)\n"
    );
    let report: Value = serde_json::from_str(&stdout(&diff(dir.path(), &["--json"]))).unwrap();
    assert_eq!(
        report["sessions"][2],
        json!({"session": "vocabulary.txt", "status": "ignored", "only_in": "OLD"})
    );
}
