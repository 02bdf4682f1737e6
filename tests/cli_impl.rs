//! `disclose check --impl`, `disclose serve` and `disclose diff-report` end
//! to end: the built binary on a small corpus in a tempdir whose goldens are
//! written by hand from SPEC §3, §5, §6, §11 and §12, run against `disclose
//! serve` and against misbehaving adapters (`cli_impl/adapter.rs`: this very
//! test binary, started with `DISCLOSE_TEST_ADAPTER` set).
//!
//! Every run passes `--validate-protocol`, so the harness checks every
//! message both ways against `docs/protocol/*.schema.json`; the adapter
//! checks every message it reads and writes against the same files.
//!
//! A `harness = false` target (libtest-mimic), because its `main` must be
//! able to become the adapter before any test machinery starts.
//!
//! Off Unix, `check --impl` does not run (docs/decisions.md, "The gate
//! builds for Windows; `check --impl` says it needs Unix"): there the tests
//! of `serve` and `--version` run, and one that `check --impl` says so.
#![cfg_attr(not(unix), allow(dead_code))]

#[path = "cli_impl/adapter.rs"]
mod adapter;
mod common;

use std::fs;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};
use tempfile::TempDir;

/// One trial per test function, named after it.
macro_rules! trials {
    ($($test:ident),* $(,)?) => {
        vec![$(trial(stringify!($test), $test)),*]
    };
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if std::env::var_os(adapter::ENV).is_some() {
        adapter::main(&args);
    }
    #[cfg(not(unix))]
    let trials = trials![
        serve_speaks_the_protocol_by_hand,
        serve_refuses_a_broken_conversation,
        version_names_the_contract,
        check_impl_says_it_needs_unix,
    ];
    #[cfg(unix)]
    let trials = trials![
        serve_passes_the_corpus,
        serve_speaks_the_protocol_by_hand,
        serve_refuses_a_broken_conversation,
        version_names_the_contract,
        a_wrong_answer_fails_with_the_diff,
        a_crash_mid_corpus_is_errored_and_restarted,
        a_failed_restart_ends_that_run_without_losing_a_case,
        a_hang_past_the_timeout_is_errored,
        a_non_json_line_is_errored_with_its_bytes,
        an_answer_for_another_case_is_errored,
        too_few_outputs_are_errored,
        an_errored_answer_keeps_the_process,
        contract_1_ends_that_implementation_only,
        earlier_contracts_alone_are_refused_against_a_contract_5_corpus,
        validate_protocol_catches_an_extra_field,
        an_expected_failure_keeps_the_run_green,
        stale_entries_and_unexpected_passes_fail,
        skips_need_an_expectation,
        a_malformed_session_is_a_corpus_error_never_sent,
        a_matrix_of_two_and_its_reports,
        diff_report_names_changed_cells,
        usage_and_io_errors_exit_2,
        one_run_in_flight_each_answer_judged_against_its_own_case,
        a_hang_mid_corpus_errs_that_case_and_the_report_keeps_corpus_order,
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

fn trial(name: &'static str, test: fn()) -> Trial {
    Trial::test(name, move || {
        std::panic::catch_unwind(test).map_err(|panic| {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Failed::from(text)
        })
    })
}

const DISCLOSE: &str = env!("CARGO_BIN_EXE_disclose");

/// `=== <line> <op> <n>\n<text>` (SPEC §12).
fn block(line: usize, op: &str, text: &str) -> String {
    format!("=== {line} {op} {}\n{text}", text.len())
}

fn transcript(blocks: &[String]) -> String {
    format!("disclose transcript 1\n{}", blocks.concat())
}

/// The corpus: (name, session, golden). `suite/epsilon` has a blank line,
/// CRLF line ends and a gap, so framing must use the file's line numbers.
fn corpus() -> Vec<(&'static str, String, String)> {
    vec![
        (
            "suite/alpha",
            "{\"op\":\"session\",\"format\":1,\"about\":\"a render with nothing dormant\"}\n{\"op\":\"start\",\"mode\":\"chat\"}\n{\"op\":\"render\"}\n".into(),
            transcript(&[
                block(2, "start", "run started in chat mode at generation 0\n"),
                block(3, "render", "## Capabilities\nmode: chat\n"),
            ]),
        ),
        (
            "suite/beta",
            "{\"op\":\"session\",\"format\":1,\"about\":\"a keyword miss\"}\n{\"op\":\"start\",\"mode\":\"work\"}\n{\"op\":\"describe\",\"name\":\"of the\"}\n".into(),
            transcript(&[
                block(2, "start", "run started in work mode at generation 0\n"),
                block(3, "describe", "no capability is named \"of the\", and nothing matched\n"),
            ]),
        ),
        (
            "suite/delta",
            "{\"op\":\"session\",\"format\":1,\"about\":\"a mode switch\"}\n{\"op\":\"start\",\"mode\":\"chat\"}\n{\"op\":\"switch_mode\",\"mode\":\"work\"}\n".into(),
            transcript(&[
                block(2, "start", "run started in chat mode at generation 0\n"),
                block(3, "switch_mode", "policy: mode is now work\n"),
            ]),
        ),
        (
            "suite/epsilon",
            "{\"op\":\"session\",\"format\":1,\"about\":\"line numbers\"}\r\n\r\n{\"op\":\"start\",\r\"mode\":\"chat\"}\r\n\n{\"op\":\"call\",\"id\":\"c1\",\"name\":\"edit\",\"args\":{}}\n".into(),
            transcript(&[
                block(3, "start", "run started in chat mode at generation 0\n"),
                block(5, "call", "refused E_INVALID_ARGS call.unknown: no admitted tool is named \"edit\"; nearest: describe\n"),
            ]),
        ),
    ]
}

/// A project directory with the corpus and its goldens.
struct Project {
    dir: TempDir,
}

impl Project {
    fn new() -> Project {
        let project = Project {
            dir: tempfile::tempdir().unwrap(),
        };
        for (name, session, golden) in corpus() {
            project.write(&format!("corpora/{name}.jsonl"), &session);
            project.write(&format!("golden/{name}.txt"), &golden);
        }
        project
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        common::write(self.dir.path(), rel, text);
    }

    /// `disclose check ARGS --validate-protocol` in the project, outside
    /// CI, with the adapter's case log at `log`.
    fn check(&self, args: &[&str]) -> Run {
        let started = Instant::now();
        let output = Command::new(DISCLOSE)
            .arg("check")
            .args(args)
            .arg("--validate-protocol")
            .current_dir(self.dir.path())
            .env_remove("CI")
            .env_remove("GITHUB_ACTIONS")
            .env_remove("NO_COLOR")
            .env(adapter::ENV, "1")
            .env(adapter::LOG, self.path("sent.log"))
            .output()
            .unwrap();
        Run {
            output,
            took: started.elapsed(),
        }
    }

    /// The case ids adapters were sent, in order.
    fn sent(&self) -> Vec<String> {
        fs::read_to_string(self.path("sent.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// `--impl` for the adapter with this behaviour.
fn adapter(behaviour: &str, case: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let exe = shlex::try_quote(exe.to_str().unwrap())
        .unwrap()
        .into_owned();
    format!("{exe} {behaviour} {case}")
}

fn serve() -> String {
    format!("{} serve", shlex::try_quote(DISCLOSE).unwrap())
}

struct Run {
    output: Output,
    took: Duration,
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    fn stdout(&self) -> String {
        String::from_utf8(self.output.stdout.clone()).unwrap()
    }

    fn stderr(&self) -> String {
        String::from_utf8(self.output.stderr.clone()).unwrap()
    }

    fn last_line(&self) -> String {
        self.stdout().lines().last().unwrap_or_default().to_string()
    }

    /// The matrix row of `case`: its cells, split on whitespace.
    fn row(&self, case: &str) -> Vec<String> {
        let out = self.stdout();
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(case))
            .unwrap_or_else(|| panic!("no row {case} in\n{out}"));
        line.split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect()
    }
}

const ALL: [&str; 4] = ["suite/alpha", "suite/beta", "suite/delta", "suite/epsilon"];

/// Off Unix, `check --impl` is a usage error that says why, and runs
/// nothing.
#[cfg(not(unix))]
fn check_impl_says_it_needs_unix() {
    let project = Project::new();
    let run = project.check(&["--impl", &serve()]);
    assert_eq!(run.code(), Some(2), "{}", run.stderr());
    assert!(
        run.stderr()
            .starts_with("disclose: check --impl needs Unix: it runs each implementation in a process group of its own"),
        "{}",
        run.stderr()
    );
    assert_eq!(run.stdout(), "");
}

fn serve_passes_the_corpus() {
    let project = Project::new();
    let run = project.check(&["--impl", &serve()]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(0), "{out}{}", run.stderr());
    assert!(
        out.starts_with("implementations:\n  disclose: disclose "),
        "{out}"
    );
    for case in ALL {
        assert_eq!(run.row(case), ["pass"], "{out}");
    }
    assert!(
        out.ends_with("\ndisclose: 4 passed, 0 failed\n4 passed, 0 failed\n"),
        "{out}"
    );
}

/// Spawns `disclose serve`, writes `lines`, and returns what it wrote.
fn converse(lines: &[String]) -> (Output, Vec<Value>) {
    let mut child = Command::new(DISCLOSE)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let replies = BufReader::new(output.stdout.as_slice())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).expect("every reply is JSON"))
        .collect();
    (output, replies)
}

fn valid(file: &str, message: &Value) {
    let errors: Vec<String> = adapter::schema(file)
        .iter_errors(message)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{message} breaks {file}: {errors:?}");
}

fn serve_speaks_the_protocol_by_hand() {
    let hello = json!({"cmd": "hello", "protocol": 1});
    let run = json!({"cmd": "run", "case": "suite/beta", "ops": [
        {"op": "start", "mode": "work"},
        {"op": "describe", "name": "of the"},
    ]});
    let bad = json!({"cmd": "run", "case": "x/y", "ops": [{"op": "render"}]});
    let bye = json!({"cmd": "bye"});
    for (message, file) in [
        (&hello, "hello.schema.json"),
        (&run, "run.schema.json"),
        (&bad, "run.schema.json"),
        (&bye, "bye.schema.json"),
    ] {
        valid(file, message);
    }
    let (output, replies) = converse(&[
        hello.to_string(),
        run.to_string(),
        bad.to_string(),
        bye.to_string(),
        // After bye, nothing is read.
        "not even JSON".into(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stderr.is_empty());
    assert_eq!(replies.len(), 3, "{replies:?}");
    valid("hello_reply.schema.json", &replies[0]);
    assert_eq!(replies[0]["implementation"]["name"], "disclose");
    assert_eq!(replies[0]["contract"], json!([5]));
    valid("outputs.schema.json", &replies[1]);
    assert_eq!(
        replies[1],
        json!({"case": "suite/beta", "outputs": [
            "run started in work mode at generation 0\n",
            "no capability is named \"of the\", and nothing matched\n",
        ]})
    );
    // A render before start is not a session: errored, naming the op.
    valid("errored.schema.json", &replies[2]);
    assert_eq!(replies[2]["case"], "x/y");
    assert!(
        replies[2]["errored"]
            .as_str()
            .unwrap()
            .starts_with("ops[0] is not a well-formed op: op \"render\" needs a started run"),
        "{}",
        replies[2]
    );
}

fn serve_refuses_a_broken_conversation() {
    for (line, message) in [
        (
            "{\"cmd\":\"dance\"}",
            "disclose: stdin line 1: unknown cmd \"dance\"\n",
        ),
        (
            "{\"cmd\":\"hello\",\"protocol\":9}",
            "disclose: stdin line 1: the harness speaks protocol 9; this serves protocol 1\n",
        ),
    ] {
        let (output, replies) = converse(&[line.to_string()]);
        assert_eq!(output.status.code(), Some(2), "{line}");
        assert!(replies.is_empty());
        assert_eq!(String::from_utf8(output.stderr).unwrap(), message);
    }
    let (output, _) = converse(&["{".into()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .starts_with("disclose: stdin line 1 is not a JSON message: ")
    );
}

fn version_names_the_contract() {
    let output = Command::new(DISCLOSE).arg("--version").output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("disclose {} (contract 5)\n", env!("CARGO_PKG_VERSION"))
    );
}

fn a_wrong_answer_fails_with_the_diff() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("wrong", "suite/beta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert_eq!(run.row("suite/beta"), ["FAIL"]);
    // Worst first: the failing case is the first row.
    let first_row = out
        .lines()
        .skip_while(|l| !l.starts_with("case "))
        .nth(1)
        .unwrap();
    assert!(first_row.starts_with("suite/beta "), "{out}");
    // The same first-block diff as `check`, the tab made visible.
    assert!(
        out.contains(concat!(
            "\nFAIL suite/beta on adapter (corpora/suite/beta.jsonl)\n",
            "  line 3 (describe): the transcript differs from \"golden/suite/beta.txt\"\n",
            "    --- golden\n",
            "    +++ replay\n",
            "    @@ -1,2 +1,2 @@\n",
            "    -=== 3 describe 53\n",
            "    -no capability is named \"of the\", and nothing matched\n",
            "    +=== 3 describe 59\n",
            "    +wrong␉no capability is named \"of the\", and nothing matched\n",
        )),
        "{out}"
    );
    for case in ["suite/alpha", "suite/delta", "suite/epsilon"] {
        assert_eq!(run.row(case), ["pass"]);
    }
    assert_eq!(run.last_line(), "3 passed, 1 failed");
    // As a GitHub annotation: on the session, at the first differing op.
    let annotated = project.check(&[
        "--impl",
        &adapter("wrong", "suite/beta"),
        "--annotations",
        "github",
    ]);
    let first = annotated.stdout().lines().next().unwrap_or("").to_string();
    assert!(
        first.starts_with(concat!(
            "::error file=corpora/suite/beta.jsonl,line=3,title=disclose check --impl%3A adapter the transcript differs from the golden",
            "::line 3 (describe): the transcript differs from \"golden/suite/beta.txt\"%0A  --- golden%0A",
        )),
        "{first}"
    );
    assert!(annotated.stdout().contains("\n::stop-commands::"));
    assert_eq!(annotated.last_line(), "3 passed, 1 failed");
}

fn a_crash_mid_corpus_is_errored_and_restarted() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("crash", "suite/beta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert_eq!(run.row("suite/beta"), ["ERRORED"]);
    assert!(
        out.contains(concat!(
            "\nERRORED suite/beta on adapter (corpora/suite/beta.jsonl)\n",
            "  it closed stdout without answering; it exited with status 101\n",
            "  stderr (last 1 lines):\n",
            "    | adapter: about to crash on suite/beta\n",
        )),
        "{out}"
    );
    // Restarted: the cases after the crash ran on a fresh process.
    assert_eq!(project.sent(), ALL);
    for case in ["suite/alpha", "suite/delta", "suite/epsilon"] {
        assert_eq!(run.row(case), ["pass"]);
    }
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
}

fn a_failed_restart_ends_that_run_without_losing_a_case() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("crash-for-good", "suite/beta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains("\nERRORED adapter: its hello failed: it closed stdout without answering; it exited with status 7; it was restarted after suite/beta errored; its remaining cases were not run\n  stderr (last lines):\n    | adapter: refusing to start again\n"),
        "{out}"
    );
    assert_eq!(run.row("suite/alpha"), ["pass"]);
    for case in ["suite/beta", "suite/delta", "suite/epsilon"] {
        assert_eq!(run.row(case), ["ERRORED"], "{out}");
    }
    assert_eq!(project.sent(), ["suite/alpha", "suite/beta"]);
    // Every cell is counted: nothing silently missing.
    assert_eq!(run.last_line(), "1 passed, 0 failed, 3 errored");
}

fn a_hang_past_the_timeout_is_errored() {
    let project = Project::new();
    let run = project.check(&[
        "--impl",
        &adapter("hang", "suite/alpha"),
        "--timeout",
        "2.5",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains("\nERRORED suite/alpha on adapter (corpora/suite/alpha.jsonl)\n  no answer within 2.5 s\n"),
        "{out}"
    );
    assert_eq!(project.sent(), ALL);
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
    // Killed at the timeout, not left to sleep its 60 s.
    assert!(run.took < Duration::from_secs(30), "{:?}", run.took);
}

fn a_non_json_line_is_errored_with_its_bytes() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("garbage", "suite/delta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains(concat!(
            "\nERRORED suite/delta on adapter (corpora/suite/delta.jsonl)\n",
            "  it wrote a line that is not JSON (expected ident at line 1 column 2)\n",
            "  it wrote: this is not JSON␉{\n",
        )),
        "{out}"
    );
    assert_eq!(project.sent(), ALL);
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
}

fn an_answer_for_another_case_is_errored() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("other-id", "suite/alpha")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains("\nERRORED suite/alpha on adapter (corpora/suite/alpha.jsonl)\n  it answered case \"other/case\" to a run of case \"suite/alpha\"\n  it wrote: {\"case\":\"other/case\",\"outputs\":["),
        "{out}"
    );
    assert_eq!(project.sent(), ALL);
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
}

fn too_few_outputs_are_errored() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("short", "suite/epsilon")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains("\n  it answered 1 outputs to 2 ops\n"),
        "{out}"
    );
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
}

fn an_errored_answer_keeps_the_process() {
    let project = Project::new();
    let run = project.check(&[
        "--impl",
        &adapter("errored", "suite/alpha"),
        "--json",
        "r.json",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains("\n  it answered errored: the adapter lost its catalog\n"),
        "{out}"
    );
    let report: Value =
        serde_json::from_str(&fs::read_to_string(project.path("r.json")).unwrap()).unwrap();
    assert_eq!(report["implementations"][0]["restarts"], 0);
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errored");
}

/// An implementation of contract 2 (keywords only), of contract 3 (the
/// distilled vectors, a params hit 1) or of contract 4 (no CJK text) runs
/// none of a contract-5 corpus.
fn earlier_contracts_alone_are_refused_against_a_contract_5_corpus() {
    for contract in [2, 3, 4] {
        let project = Project::new();
        let behaviour = format!("contract{contract}");
        let run = project.check(&["--impl", &adapter(&behaviour, ""), "--impl", &serve()]);
        let out = run.stdout();
        assert_eq!(run.code(), Some(1), "{out}");
        assert!(
            out.contains(&format!("\nERRORED adapter: its hello says it follows contract [{contract}]; this corpus is blessed against contract 5, so none of its cases were run\n")),
            "{out}"
        );
        assert!(project.sent().is_empty());
        for case in ALL {
            assert_eq!(run.row(case), ["ERRORED", "pass"], "{out}");
        }
    }
}

fn contract_1_ends_that_implementation_only() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("contract1", ""), "--impl", &serve()]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    // One message, not one per case.
    assert_eq!(out.matches("contract [1]").count(), 2, "{out}");
    assert!(
        out.contains("\nERRORED adapter: its hello says it follows contract [1]; this corpus is blessed against contract 5, so none of its cases were run\n"),
        "{out}"
    );
    assert!(project.sent().is_empty());
    for case in ALL {
        assert_eq!(run.row(case), ["ERRORED", "pass"], "{out}");
    }
    assert!(
        out.contains("\nadapter: 0 passed, 0 failed, 4 errored\ndisclose: 4 passed, 0 failed\n"),
        "{out}"
    );
    assert_eq!(run.last_line(), "4 passed, 0 failed, 4 errored");
}

fn validate_protocol_catches_an_extra_field() {
    let project = Project::new();
    let extra = adapter("extra-field", "suite/alpha");
    let run = project.check(&["--impl", &extra]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "\n  its answer breaks outputs.schema.json at \"/\": unexpected \"elapsed_ms\"\n"
        ),
        "{out}"
    );
    // Without the flag the typed reader takes the answer, extra field and all.
    let lenient = Command::new(DISCLOSE)
        .args(["check", "--impl", &extra])
        .current_dir(project.path(""))
        .env(adapter::ENV, "1")
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(lenient.status.code(), Some(0));
}

fn an_expected_failure_keeps_the_run_green() {
    let project = Project::new();
    project.write(
        "expect.jsonl",
        "{\"case\":\"suite/beta\",\"expect\":\"fail\",\"why\":\"describe prefixes a word\"}\n",
    );
    let run = project.check(&[
        "--impl",
        &adapter("wrong", "suite/beta"),
        "--expect",
        "expect.jsonl",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(0), "{out}");
    assert_eq!(run.row("suite/beta"), ["expected"]);
    assert!(!out.contains("failures:"), "{out}");
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 expected");
}

fn stale_entries_and_unexpected_passes_fail() {
    let project = Project::new();
    project.write(
        "expect.jsonl",
        concat!(
            "{\"case\":\"suite/alpha\",\"expect\":\"fail\",\"why\":\"renders differ\"}\n",
            "{\"case\":\"suite/renamed\",\"expect\":\"skip\",\"why\":\"no skills\"}\n",
        ),
    );
    let run = project.check(&["--impl", &serve(), "--expect", "expect.jsonl"]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert_eq!(run.row("suite/alpha"), ["XPASS"]);
    assert!(
        out.contains("\nXPASS suite/alpha on disclose (corpora/suite/alpha.jsonl)\n  passed, but expect.jsonl:1 expects it to fail: renders differ; remove the entry\n"),
        "{out}"
    );
    assert!(
        out.contains("\nFAIL stale expectation of disclose: expect.jsonl:2: case \"suite/renamed\" is not in the corpus; remove the entry\n"),
        "{out}"
    );
    // Every other case still ran.
    for case in ["suite/beta", "suite/delta", "suite/epsilon"] {
        assert_eq!(run.row(case), ["pass"]);
    }
    assert_eq!(run.last_line(), "3 passed, 2 failed");
}

fn skips_need_an_expectation() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("skip", "suite/delta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert_eq!(run.row("suite/delta"), ["SKIP"]);
    assert!(
        out.contains("\n  skipped: the adapter does not do this yet\n  not expected; to accept it, add this line to its --expect file: {\"case\":\"suite/delta\",\"expect\":\"skip\",\"why\":\"the adapter does not do this yet\"}\n"),
        "{out}"
    );
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 skipped");
    // The line it suggests is a valid expectation that makes the run green.
    project.write(
        "expect.jsonl",
        "{\"case\":\"suite/delta\",\"expect\":\"skip\",\"why\":\"the adapter does not do this yet\"}\n",
    );
    let run = project.check(&[
        "--impl",
        &adapter("skip", "suite/delta"),
        "--expect",
        "expect.jsonl",
    ]);
    assert_eq!(run.code(), Some(0), "{}", run.stdout());
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 expected");
    // Skipping everything first: a whole matrix of skips.
    let run = project.check(&["--impl", &adapter("skip-all", "")]);
    assert_eq!(run.code(), Some(1));
    assert_eq!(run.last_line(), "0 passed, 0 failed, 4 skipped");
}

fn a_malformed_session_is_a_corpus_error_never_sent() {
    let project = Project::new();
    project.write(
        "corpora/suite/broken.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"render\"}\n",
    );
    fs::remove_file(project.path("golden/suite/delta.txt")).unwrap();
    let run = project.check(&["--impl", &adapter("honest", ""), "--impl", &serve()]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert_eq!(run.row("suite/broken"), ["ERRORED", "ERRORED"]);
    assert!(
        out.contains("\nERRORED suite/broken (corpora/suite/broken.jsonl), on every implementation\n  corpora/suite/broken.jsonl:2:1: op \"render\" needs a started run; put {\"op\":\"start\",\"mode\":\"chat\"} before it (a malformed session is sent to no implementation)\n"),
        "{out}"
    );
    assert!(
        out.contains("\nERRORED suite/delta (corpora/suite/delta.jsonl), on every implementation\n  no golden \"golden/suite/delta.txt\"; bless it with the in-process check"),
        "{out}"
    );
    assert_eq!(
        project.sent(),
        ["suite/alpha", "suite/beta", "suite/epsilon"]
    );
    assert_eq!(run.last_line(), "6 passed, 0 failed, 4 errored");
}

fn a_matrix_of_two_and_its_reports() {
    let project = Project::new();
    let run = project.check(&[
        "--impl",
        &serve(),
        "--impl",
        &adapter("wrong", "suite/delta"),
        "--json",
        "out/report.json",
        "--junit",
        "out/report.xml",
        "--markdown",
        "out/summary.md",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    let matrix: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("case "))
        .take(5)
        .collect();
    assert_eq!(
        matrix,
        [
            "case           disclose  adapter",
            "suite/delta    pass      FAIL",
            "suite/alpha    pass      pass",
            "suite/beta     pass      pass",
            "suite/epsilon  pass      pass",
        ],
        "{out}"
    );
    assert!(
        out.ends_with(
            "\ndisclose: 4 passed, 0 failed\nadapter: 3 passed, 1 failed\n7 passed, 1 failed\n"
        ),
        "{out}"
    );

    let report: Value =
        serde_json::from_str(&fs::read_to_string(project.path("out/report.json")).unwrap())
            .unwrap();
    assert_eq!(report["format"], 1);
    assert_eq!(report["contract"], 5);
    assert_eq!(
        report["totals"],
        json!({"passed": 7, "failed": 1, "errored": 0, "skipped": 0, "expected": 0})
    );
    let ids: Vec<&str> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["case"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ALL, "cases in corpus order, by id");
    assert_eq!(report["implementations"][1]["id"], "adapter");
    assert_eq!(report["implementations"][1]["hello"]["language"], "rust");
    let delta = &report["cases"][2]["results"];
    assert_eq!(delta["disclose"]["state"], "pass");
    assert_eq!(delta["adapter"]["state"], "fail");
    assert_eq!(delta["adapter"]["line"], 3);
    assert_eq!(delta["adapter"]["op"], "switch_mode");
    assert!(
        delta["adapter"]["diff"]
            .as_str()
            .unwrap()
            .contains("+wrong␉policy: mode is now work\n")
    );

    let xml = fs::read_to_string(project.path("out/report.xml")).unwrap();
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    assert!(
        xml.contains("<testsuite name=\"disclose\" tests=\"4\""),
        "{xml}"
    );
    assert!(
        xml.contains("<testsuite name=\"adapter\" tests=\"4\""),
        "{xml}"
    );
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");

    let md = fs::read_to_string(project.path("out/summary.md")).unwrap();
    assert!(
        md.starts_with("## disclose check --impl\n\n**7 passed, 1 failed**\n"),
        "{md}"
    );
    assert!(
        md.contains("| adapter | 0.0.1 | rust | 3 | 1 | 0 | 0 | 0 |\n"),
        "{md}"
    );
    assert!(md.contains("| case | disclose | adapter |\n|---|---|---|\n| suite/delta | pass | FAIL |\n\n3 of 4 cases pass"), "{md}");

    // Every format, byte for byte, with the two programs' paths (which
    // depend on the build directory) named instead.
    let exe = std::env::current_exe().unwrap().display().to_string();
    let named = |text: String| text.replace(&exe, "ADAPTER").replace(DISCLOSE, "DISCLOSE");
    insta::assert_snapshot!(named(out), @r#"
    implementations:
      disclose: disclose 0.1.0 (rust), contract [5] (DISCLOSE serve)
      adapter: adapter 0.0.1 (rust), contract [5] (ADAPTER wrong suite/delta)
    cells: pass; expected (failed or skipped as --expect says); FAIL; XPASS (passed, but --expect says otherwise); SKIP (skipped, not in --expect); ERRORED. Uppercase fails the run.

    case           disclose  adapter
    suite/delta    pass      FAIL
    suite/alpha    pass      pass
    suite/beta     pass      pass
    suite/epsilon  pass      pass

    failures:

    FAIL suite/delta on adapter (corpora/suite/delta.jsonl)
      line 3 (switch_mode): the transcript differs from "golden/suite/delta.txt"
        --- golden
        +++ replay
        @@ -1,2 +1,2 @@
        -=== 3 switch_mode 25
        -policy: mode is now work
        +=== 3 switch_mode 31
        +wrong␉policy: mode is now work

    disclose: 4 passed, 0 failed
    adapter: 3 passed, 1 failed
    7 passed, 1 failed
    "#);
    insta::assert_snapshot!(named(fs::read_to_string(project.path("out/report.json")).unwrap()), @r#"
    {
      "cases": [
        {
          "case": "suite/alpha",
          "path": "corpora/suite/alpha.jsonl",
          "results": {
            "adapter": {
              "outcome": "pass",
              "state": "pass"
            },
            "disclose": {
              "outcome": "pass",
              "state": "pass"
            }
          }
        },
        {
          "case": "suite/beta",
          "path": "corpora/suite/beta.jsonl",
          "results": {
            "adapter": {
              "outcome": "pass",
              "state": "pass"
            },
            "disclose": {
              "outcome": "pass",
              "state": "pass"
            }
          }
        },
        {
          "case": "suite/delta",
          "path": "corpora/suite/delta.jsonl",
          "results": {
            "adapter": {
              "diff": "--- golden\n+++ replay\n@@ -1,2 +1,2 @@\n-=== 3 switch_mode 25\n-policy: mode is now work\n+=== 3 switch_mode 31\n+wrong␉policy: mode is now work\n",
              "line": 3,
              "message": "the transcript differs from \"golden/suite/delta.txt\"",
              "op": "switch_mode",
              "outcome": "fail",
              "state": "fail"
            },
            "disclose": {
              "outcome": "pass",
              "state": "pass"
            }
          }
        },
        {
          "case": "suite/epsilon",
          "path": "corpora/suite/epsilon.jsonl",
          "results": {
            "adapter": {
              "outcome": "pass",
              "state": "pass"
            },
            "disclose": {
              "outcome": "pass",
              "state": "pass"
            }
          }
        }
      ],
      "contract": 5,
      "corpus": "corpora",
      "format": 1,
      "golden": "golden",
      "implementations": [
        {
          "command": "DISCLOSE serve",
          "expect": null,
          "hello": {
            "contract": [
              5
            ],
            "homepage": null,
            "language": "rust",
            "name": "disclose",
            "version": "0.1.0"
          },
          "id": "disclose",
          "problem": null,
          "restarts": 0,
          "stale": [],
          "totals": {
            "errored": 0,
            "expected": 0,
            "failed": 0,
            "passed": 4,
            "skipped": 0
          }
        },
        {
          "command": "ADAPTER wrong suite/delta",
          "expect": null,
          "hello": {
            "contract": [
              5
            ],
            "homepage": null,
            "language": "rust",
            "name": "adapter",
            "version": "0.0.1"
          },
          "id": "adapter",
          "problem": null,
          "restarts": 0,
          "stale": [],
          "totals": {
            "errored": 0,
            "expected": 0,
            "failed": 1,
            "passed": 3,
            "skipped": 0
          }
        }
      ],
      "partition": null,
      "report": "check --impl",
      "totals": {
        "errored": 0,
        "expected": 0,
        "failed": 1,
        "passed": 7,
        "skipped": 0
      }
    }
    "#);
    insta::assert_snapshot!(named(xml), @r#"
    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites name="disclose check --impl" tests="8" skipped="0" failures="1" errors="0">
        <testsuite name="disclose" tests="4" skipped="0" errors="0" failures="0">
            <testcase name="suite/alpha" classname="disclose"/>
            <testcase name="suite/beta" classname="disclose"/>
            <testcase name="suite/delta" classname="disclose"/>
            <testcase name="suite/epsilon" classname="disclose"/>
        </testsuite>
        <testsuite name="adapter" tests="4" skipped="0" errors="0" failures="1">
            <testcase name="suite/alpha" classname="adapter"/>
            <testcase name="suite/beta" classname="adapter"/>
            <testcase name="suite/delta" classname="adapter">
                <failure message="line 3 (switch_mode): the transcript differs from &quot;golden/suite/delta.txt&quot;" type="fail">  line 3 (switch_mode): the transcript differs from &quot;golden/suite/delta.txt&quot;
        --- golden
        +++ replay
        @@ -1,2 +1,2 @@
        -=== 3 switch_mode 25
        -policy: mode is now work
        +=== 3 switch_mode 31
        +wrong␉policy: mode is now work
    </failure>
            </testcase>
            <testcase name="suite/epsilon" classname="adapter"/>
        </testsuite>
    </testsuites>
    "#);
    insta::assert_snapshot!(named(md), @r#"
    ## disclose check --impl

    **7 passed, 1 failed**

    | implementation | version | language | passed | failed | errored | skipped | expected |
    |---|---|---|---:|---:|---:|---:|---:|
    | disclose | 0.1.0 | rust | 4 | 0 | 0 | 0 | 0 |
    | adapter | 0.0.1 | rust | 3 | 1 | 0 | 0 | 0 |

    ### Cases not passing everywhere, worst first

    | case | disclose | adapter |
    |---|---|---|
    | suite/delta | pass | FAIL |

    3 of 4 cases pass (or are expected) on every implementation.
    "#);
}

fn diff_report_names_changed_cells() {
    let project = Project::new();
    let before = project.check(&[
        "--impl",
        &serve(),
        "--impl",
        &adapter("wrong", "suite/delta"),
        "--json",
        "old.json",
    ]);
    assert_eq!(before.code(), Some(1));
    let after = project.check(&[
        "--impl",
        &serve(),
        "--impl",
        &adapter("crash", "suite/beta"),
        "--json",
        "new.json",
    ]);
    assert_eq!(after.code(), Some(1));
    let diff = |a: &str, b: &str| {
        Command::new(DISCLOSE)
            .args(["diff-report", a, b])
            .current_dir(project.path(""))
            .output()
            .unwrap()
    };
    let output = diff("old.json", "new.json");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "regressed adapter  suite/beta  pass → errored\nimproved  adapter  suite/delta  fail → pass\n\n1 regressed, 1 improved, 0 changed, 0 added, 0 removed, 6 unchanged\n"
    );
    let same = diff("old.json", "old.json");
    assert_eq!(same.status.code(), Some(0));
    let missing = diff("old.json", "nope.json");
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8(missing.stderr)
            .unwrap()
            .starts_with("disclose: failed to read \"nope.json\"")
    );
}

fn usage_and_io_errors_exit_2() {
    let project = Project::new();
    let cases: [(&[&str], &str); 4] = [
        (
            &["--impl", "'unclosed"],
            "disclose: --impl \"'unclosed\" is not a command (empty, or an unclosed quote)\n",
        ),
        (
            &["--impl", ""],
            "disclose: --impl \"\" is not a command (empty, or an unclosed quote)\n",
        ),
        (
            &["--impl", "a", "--impl", "b", "--expect", "x.jsonl"],
            "disclose: --expect is given 1 times for 2 --impl; give one per --impl, in the same order (an empty file for none)\n",
        ),
        (
            &["--impl", "a", "--timeout", "0"],
            "disclose: --timeout takes a positive number of seconds, not 0\n",
        ),
    ];
    for (args, message) in cases {
        let run = project.check(args);
        assert_eq!(run.code(), Some(2), "{args:?}");
        assert_eq!(run.stderr(), message, "{args:?}");
        assert_eq!(run.stdout(), "", "{args:?}");
    }
    project.write(
        "bad.jsonl",
        "{\"case\":\"suite/alpha\",\"expect\":\"maybe\",\"why\":\"w\"}\n",
    );
    // An expectations file that is malformed or missing: the report
    // comes first (judged without it), then the error, and exit 2.
    let run = project.check(&["--impl", &serve(), "--expect", "bad.jsonl"]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.last_line(), "4 passed, 0 failed");
    assert_eq!(
        run.stderr(),
        "disclose: bad.jsonl:1:1: \"expect\" is \"fail\" or \"skip\", not \"maybe\"; its implementation was judged without it\n"
    );
    let run = project.check(&["--impl", &serve(), "--expect", "missing.jsonl"]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.last_line(), "4 passed, 0 failed");
    assert_eq!(
        run.stderr(),
        "disclose: failed to read \"missing.jsonl\": No such file or directory (os error 2); its implementation was judged without it\n"
    );
    // A program that does not exist: the report still comes, then exit 2.
    let run = project.check(&["--impl", "./no-such-runtime --serve", "--impl", &serve()]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(2), "{out}");
    assert!(out.contains("\nERRORED no-such-runtime: could not start \"./no-such-runtime\": No such file or directory (os error 2); none of its cases were run\n"), "{out}");
    assert_eq!(run.last_line(), "4 passed, 0 failed, 4 errored");
    // --bless cannot write goldens from another implementation.
    let run = project.check(&["--impl", &serve(), "--bless"]);
    assert_eq!(run.code(), Some(2));
    assert!(
        run.stderr().contains("cannot be used with"),
        "{}",
        run.stderr()
    );
}

/// The harness prepares and judges while the implementation works, yet
/// never sends a run before it has read the answer to the last one: the
/// `strict` adapter holds every answer and crashes if another message
/// comes meanwhile. A slow implementation's wrong answer fails its own case,
/// with its own golden's diff, and no other.
fn one_run_in_flight_each_answer_judged_against_its_own_case() {
    let project = Project::new();
    let run = project.check(&["--impl", &adapter("strict", "suite/delta")]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}{}", run.stderr());
    assert!(!out.contains("came before the answer"), "{out}");
    assert!(
        out.contains(concat!(
            "\nFAIL suite/delta on adapter (corpora/suite/delta.jsonl)\n",
            "  line 3 (switch_mode): the transcript differs from \"golden/suite/delta.txt\"\n",
        )),
        "{out}"
    );
    assert!(
        out.contains("    +wrong␉policy: mode is now work\n"),
        "{out}"
    );
    for case in ["suite/alpha", "suite/beta", "suite/epsilon"] {
        assert_eq!(run.row(case), ["pass"], "{out}");
    }
    assert_eq!(run.row("suite/delta"), ["FAIL"], "{out}");
    assert_eq!(project.sent(), ALL);
    assert_eq!(run.last_line(), "3 passed, 1 failed");
}

/// A hang on a case in the middle, with a corpus error before it: the
/// answer before the hang is judged, the hang errs its own case at the
/// timeout, the next case runs on a restarted process, and every report
/// lists the cases in corpus order.
fn a_hang_mid_corpus_errs_that_case_and_the_report_keeps_corpus_order() {
    let project = Project::new();
    project.write(
        "corpora/suite/broken.jsonl",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"render\"}\n",
    );
    let run = project.check(&[
        "--impl",
        &adapter("hang", "suite/delta"),
        // Room for a restart's hello and a case under load; the hang is
        // waited out once.
        "--timeout",
        "3",
        "--json",
        "r.json",
        "--junit",
        "r.xml",
    ]);
    let out = run.stdout();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "\nERRORED suite/delta on adapter (corpora/suite/delta.jsonl)\n  no answer within 3 s\n"
        ),
        "{out}"
    );
    assert_eq!(
        project.sent(),
        ["suite/alpha", "suite/beta", "suite/delta", "suite/epsilon"]
    );
    assert_eq!(run.last_line(), "3 passed, 0 failed, 2 errored");
    let report: Value =
        serde_json::from_str(&fs::read_to_string(project.path("r.json")).unwrap()).unwrap();
    assert_eq!(report["implementations"][0]["restarts"], 1);
    let cells: Vec<(&str, &str)> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["case"].as_str().unwrap(),
                c["results"]["adapter"]["outcome"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cells,
        [
            ("suite/alpha", "pass"),
            ("suite/beta", "pass"),
            ("suite/broken", "corpus_error"),
            ("suite/delta", "errored"),
            ("suite/epsilon", "pass"),
        ]
    );
    let xml = fs::read_to_string(project.path("r.xml")).unwrap();
    let order: Vec<usize> = [
        "suite/alpha",
        "suite/beta",
        "suite/broken",
        "suite/delta",
        "suite/epsilon",
    ]
    .iter()
    .map(|case| {
        xml.find(&format!("name=\"{case}\""))
            .unwrap_or_else(|| panic!("{case} in {xml}"))
    })
    .collect();
    assert!(order.is_sorted(), "{xml}");
}
