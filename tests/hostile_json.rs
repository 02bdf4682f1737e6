//! Hostile JSON (docs/decisions.md, "A JSON key given twice is malformed,
//! everywhere the harness reads JSON" and the entries after it) through the built binary:
//! session files for `replay` and `check`, messages for `serve`, and
//! reports for `diff-report`. Each says what is wrong, where, in words of
//! ours; none panics, and none is read as something else (a key twice is
//! never "the last one wins"). Every run has a deadline and a memory
//! limit.
//!
//! Unix only: each run is bounded by `sh` and `ulimit`.
#![cfg(unix)]

mod common;

use std::io::Write as _;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const DISCLOSE: &str = env!("CARGO_BIN_EXE_disclose");

const HEAD: &str = "{\"op\":\"session\",\"format\":1,\"about\":\"hostile\"}\n";
const START: &str = "{\"op\":\"start\",\"mode\":\"chat\"}\n";

/// `disclose ARGS` with `stdin`, under 1 GiB of address space, `stack`
/// KiB of main-thread stack and a 60 s deadline.
fn bounded(args: &[&str], stdin: &[u8], stack_kib: u32) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 1048576 && ulimit -s {stack_kib} && exec \"$0\" \"$@\""
        ))
        .arg(DISCLOSE)
        .args(args)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("disclose starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin).expect("stdin is written");
    drop(input);
    let started = Instant::now();
    loop {
        if child.try_wait().expect("it can be waited for").is_some() {
            return child.wait_with_output().expect("its output is read");
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("disclose {args:?} ran past 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// `disclose replay` of a session with these bytes: (exit code, stdout,
/// stderr).
fn replay(session: &[u8]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().expect("a tempdir");
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, session).expect("the session is written");
    let path = path.display().to_string();
    let output = bounded(&["replay", &path], b"", 8192);
    (
        output.status.code(),
        common::stdout(&output),
        common::stderr(&output).replace(&path, "s.jsonl"),
    )
}

#[test]
fn a_byte_order_mark_is_named_at_1_1() {
    let session = format!("\u{feff}{HEAD}{START}");
    assert_eq!(
        replay(session.as_bytes()),
        (
            Some(1),
            String::new(),
            "s.jsonl:1:1: invalid JSON: a UTF-8 byte order mark (U+FEFF) is not JSON; save the text without it\n".into()
        )
    );
}

#[test]
fn a_line_of_unicode_whitespace_is_blank() {
    // SPEC §0.1's whitespace is Unicode's; §11.1 skips blank lines.
    let session = format!("{HEAD}\u{a0}\n{START}\u{3000} \u{2003}\n{{\"op\":\"render\"}}\n");
    let (code, out, err) = replay(session.as_bytes());
    assert_eq!((code, err.as_str()), (Some(0), ""), "{out}");
    assert_eq!(
        out,
        "disclose transcript 1\n=== 3 start 41\nrun started in chat mode at generation 0\n=== 5 render 27\n## Capabilities\nmode: chat\n"
    );
    // Before a token it is not JSON whitespace, and is named.
    let session = format!("{HEAD}{START}\u{a0}{{\"op\":\"render\"}}\n");
    assert_eq!(
        replay(session.as_bytes()).2,
        "s.jsonl:3:1: invalid JSON: U+00A0 is whitespace, but not JSON whitespace: between tokens JSON allows only space, tab, line feed and carriage return\n"
    );
}

#[test]
fn a_key_twice_in_a_session_line_is_malformed_at_the_second() {
    let cases = [
        (
            format!("{HEAD}{START}{{\"op\":\"describe\",\"name\":\"zzz\",\"name\":\"read\"}}\n"),
            "s.jsonl:3:31: invalid JSON: duplicate key \"name\": a key may appear only once in an object\n",
        ),
        (
            format!(
                "{HEAD}{{\"op\":\"tool\",\"origin\":\"o\",\"name\":\"t\",\"description\":\"d\",\"input_schema\":{{\"type\":\"object\",\"type\":\"string\"}}}}\n"
            ),
            "s.jsonl:2:88: invalid JSON: duplicate key \"type\": a key may appear only once in an object\n",
        ),
        (
            format!(
                "{HEAD}{START}{{\"op\":\"call\",\"id\":\"c\",\"name\":\"describe\",\"args\":{{\"name\":\"a\",\"name\":\"b\"}}}}\n"
            ),
            "s.jsonl:3:60: invalid JSON: duplicate key \"name\": a key may appear only once in an object\n",
        ),
    ];
    for (session, message) in cases {
        let (code, out, err) = replay(session.as_bytes());
        assert_eq!((code, out.as_str()), (Some(1), ""), "{session}");
        assert_eq!(err, message, "{session}");
    }
}

#[test]
fn nesting_past_127_says_it_is_our_limit() {
    let nested = |depth: usize| {
        format!(
            "{HEAD}{START}{{\"op\":\"call\",\"id\":\"c\",\"name\":\"x\",\"args\":{}{}}}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    // The line is one level, so args may nest 126 deep.
    let (code, out, err) = replay(nested(126).as_bytes());
    assert_eq!((code, err.as_str()), (Some(0), ""), "{out}");
    let (code, _, err) = replay(nested(127).as_bytes());
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "s.jsonl:3:167: invalid JSON: arrays and objects nested more than 127 deep; disclose reads JSON at most 127 levels deep\n"
    );
}

/// The deepest schema a session may hold goes through admission (the
/// meta-schema check, canonical JSON, the fit plan), `describe` and a
/// routed call on a small main-thread stack, and through `check`'s worker
/// threads.
#[test]
fn the_deepest_legal_schema_is_replayed_on_a_small_stack() {
    // The line (1) holds the schema (2); each step opens `properties`'s
    // object and the schema of `a` (2 more), and the innermost `{}` is the
    // 127th level.
    let steps = 62;
    let schema = format!(
        "{{\"type\":\"object\",\"properties\":{}{{}}{}}}",
        "{\"a\":{\"type\":\"array\",\"items\":".repeat(steps),
        "}}".repeat(steps)
    );
    assert!(serde_json::from_str::<serde_json::Value>(&schema).is_ok());
    let session = format!(
        "{HEAD}{{\"op\":\"tool\",\"origin\":\"o\",\"name\":\"deep\",\"description\":\"Deep.\",\"input_schema\":{schema}}}\n{START}{{\"op\":\"describe\",\"name\":\"o__deep\"}}\n{{\"op\":\"call\",\"id\":\"c\",\"name\":\"call\",\"args\":{{\"name\":\"o__deep\",\"args\":{{\"a\":[]}}}}}}\n"
    );
    let dir = tempfile::tempdir().expect("a tempdir");
    let path = dir.path().join("corpora/deep.jsonl");
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("corpora/");
    std::fs::write(&path, &session).expect("the session is written");
    let path = path.display().to_string();
    let replayed = bounded(&["replay", &path], b"", 1024);
    let out = common::stdout(&replayed);
    assert_eq!(
        replayed.status.code(),
        Some(0),
        "{}",
        common::stderr(&replayed)
    );
    assert!(out.contains("admitted tool o__deep"), "{out}");
    assert!(out.contains("routed c o__deep {\"a\":[]}"), "{out}");
    // `check` replays it again on its worker threads, and the invariants
    // replay it more.
    common::write(dir.path(), "golden/deep.txt", &out);
    let vocabulary = common::disclose(&["vocab"]);
    common::write(
        dir.path(),
        "golden/vocabulary.txt",
        &common::stdout(&vocabulary),
    );
    let corpora = dir.path().join("corpora").display().to_string();
    let golden = dir.path().join("golden").display().to_string();
    let checked = bounded(&["check", &corpora, "--golden", &golden], b"", 1024);
    assert_eq!(
        checked.status.code(),
        Some(0),
        "{}{}",
        common::stdout(&checked),
        common::stderr(&checked)
    );
}

#[test]
fn serve_names_what_is_wrong_with_a_message() {
    let serve = |lines: &str| {
        let output = bounded(&["serve"], lines.as_bytes(), 8192);
        (
            output.status.code(),
            common::stdout(&output),
            common::stderr(&output),
        )
    };
    let hello = "{\"cmd\":\"hello\",\"protocol\":1}\n";
    // A case that is not Unicode.
    let (code, _, err) = serve(&format!(
        "{hello}{{\"cmd\":\"run\",\"case\":\"\\ud800\",\"ops\":[]}}\n"
    ));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("stdin line 2 is not a JSON message")
            && err.contains("a string is not valid Unicode"),
        "{err}"
    );
    assert!(!err.contains("run needs"), "{err}");
    // A key twice.
    let (code, _, err) = serve(&format!(
        "{hello}{{\"cmd\":\"run\",\"case\":\"a\",\"case\":\"b\",\"ops\":[]}}\n"
    ));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "duplicate key \"case\": a key may appear only once in an object at line 1 column 25"
        ),
        "{err}"
    );
    // A key twice inside an op: that op is malformed, and the run errored.
    let (code, out, err) = serve(&format!(
        "{hello}{{\"cmd\":\"run\",\"case\":\"a\",\"ops\":[{{\"op\":\"start\",\"mode\":\"chat\",\"mode\":\"work\"}}]}}\n{{\"cmd\":\"bye\"}}\n"
    ));
    assert_eq!((code, err.as_str()), (Some(0), ""), "{out}");
    assert!(
        out.ends_with(
            "{\"case\":\"a\",\"errored\":\"ops[0] is not a well-formed op: invalid JSON: duplicate key \\\"mode\\\": a key may appear only once in an object\"}\n"
        ),
        "{out}"
    );
}

#[test]
fn diff_report_names_the_field_that_is_wrong() {
    let dir = tempfile::tempdir().expect("a tempdir");
    let good = common::write(
        dir.path(),
        "good.json",
        "{\"format\":1,\"cases\":[{\"case\":\"s/a\",\"results\":{\"x\":{\"state\":\"pass\"}}}]}",
    );
    let cases = [
        (
            "{\"cases\":[{\"case\":7,\"results\":{}}]}",
            "a case has no string \"case\"",
        ),
        (
            "{\"cases\":[{\"case\":\"s/a\"}]}",
            "case \"s/a\" has no \"results\" object",
        ),
        (
            "{\"cases\":[],\"cases\":[]}",
            "duplicate key \"cases\": a key may appear only once in an object at line 1 column 13",
        ),
    ];
    for (report, says) in cases {
        let bad = common::write(dir.path(), "bad.json", report);
        let output = bounded(&["diff-report", &good, &bad], b"", 8192);
        let err = common::stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{report}: {err}");
    }
}
