//! `disclose check` end to end: the built binary on small corpora in
//! tempdirs, with hand-written sessions and hand-written goldens (read from
//! SPEC §4, §5, §6, §11 and §12, never produced by the code under test).

mod common;

use common::Run;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tempfile::TempDir;

/// The reviewed `disclose vocab` output.
const VOCABULARY: &str = include_str!("../golden/vocabulary.txt");
/// The bless command of an installed `disclose` (the tests run the binary
/// outside cargo's environment).
const BLESS: &str = "disclose check --bless";

const ALPHA: &str = r#"{"op":"session","format":1,"about":"one dormant skill"}
{"op":"skill","name":"triage","disclosure":"How to triage. Then more.","address":"skills/triage.md"}
{"op":"start","mode":"chat"}
{"op":"render"}
"#;

const BETA: &str = r#"{"op":"session","format":1,"about":"a keyword miss and the doors' tool list"}
{"op":"start","mode":"work"}
{"op":"describe","name":"of the"}
{"op":"tool_defs"}
"#;

const GAMMA: &str = r#"{"op":"session","format":1,"about":"a call of a name nobody admitted"}
{"op":"start","mode":"chat"}
{"op":"call","id":"c1","name":"edit","args":{}}
"#;

/// `=== <line> <op> <n>\n<text>` (SPEC §12).
fn block(line: usize, op: &str, text: &str) -> String {
    format!("=== {line} {op} {}\n{text}", text.len())
}

fn transcript(blocks: &[String]) -> String {
    format!("disclose transcript 1\n{}", blocks.concat())
}

const ALPHA_RENDER: &str = "## Capabilities\nmode: chat\nDormant (describe a name for its guide; call runs a tool):\n- skill triage: How to triage.\n";

fn alpha_golden() -> String {
    transcript(&[
        block(2, "skill", "admitted skill triage (shelf, no hash)\n"),
        block(3, "start", "run started in chat mode at generation 1\n"),
        block(4, "render", ALPHA_RENDER),
    ])
}

fn beta_golden() -> String {
    let defs = concat!(
        r#"{"description":"Find a capability by exact name for its full guide, or by keywords for a ranked list.","input_schema":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"},"name":"describe"}"#,
        "\n",
        r#"{"description":"Run a dormant tool by name; its args are checked against that tool's input schema first.","input_schema":{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"},"name":"call"}"#,
        "\n",
    );
    transcript(&[
        block(2, "start", "run started in work mode at generation 0\n"),
        block(
            3,
            "describe",
            "no capability is named \"of the\", and nothing matched\n",
        ),
        block(4, "tool_defs", defs),
    ])
}

fn gamma_golden() -> String {
    transcript(&[
        block(2, "start", "run started in chat mode at generation 0\n"),
        block(
            3,
            "call",
            "refused E_INVALID_ARGS call.unknown: no admitted tool is named \"edit\"; nearest: describe\n",
        ),
    ])
}

/// A project directory with `corpora/` and `golden/`.
struct Project {
    dir: TempDir,
}

impl Project {
    fn new() -> Project {
        Project {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// Three passing sessions with their goldens, and the vocabulary.
    fn passing() -> Project {
        let project = Project::new();
        project.session("suite/alpha", ALPHA);
        project.session("suite/beta", BETA);
        project.session("other/gamma", GAMMA);
        project.golden("suite/alpha", &alpha_golden());
        project.golden("suite/beta", &beta_golden());
        project.golden("other/gamma", &gamma_golden());
        project.golden("vocabulary", VOCABULARY);
        project
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        common::write(self.dir.path(), rel, text);
    }

    fn session(&self, name: &str, text: &str) {
        self.write(&format!("corpora/{name}.jsonl"), text);
    }

    fn golden(&self, name: &str, text: &str) {
        self.write(&format!("golden/{name}.txt"), text);
    }

    fn read_golden(&self, name: &str) -> Option<String> {
        fs::read_to_string(self.path(&format!("golden/{name}.txt"))).ok()
    }

    /// `disclose check ARGS` run in the project directory, with no CI,
    /// GitHub Actions, blessing, colour or cargo settings inherited from
    /// the test's environment.
    fn check(&self, args: &[&str]) -> Run {
        self.check_env(args, &[])
    }

    fn check_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        self.check_as(Path::new(env!("CARGO_BIN_EXE_disclose")), args, env)
    }

    /// [`Project::check_env`] with the binary at `program`.
    fn check_as(&self, program: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut command = Command::new(program);
        command.arg("check").args(args).current_dir(self.dir.path());
        for key in [
            "CI",
            "DISCLOSE_BLESS",
            "NO_COLOR",
            "GITHUB_ACTIONS",
            "GITHUB_WORKSPACE",
            "CARGO",
            "CARGO_PKG_NAME",
        ] {
            command.env_remove(key);
        }
        for (key, value) in env {
            command.env(key, value);
        }
        Run(command.output().unwrap())
    }
}

#[test]
fn a_passing_corpus_exits_0_and_closes_with_the_counts() {
    let project = Project::passing();
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(0), "{}{}", run.stdout(), run.stderr());
    assert!(run.has_line("pass  other/gamma"), "{}", run.stdout());
    assert!(run.has_line("pass  suite/alpha"));
    assert!(run.has_line("pass  suite/beta"));
    assert!(run.has_line("pass  vocabulary"));
    assert_eq!(run.last_line(), "4 passed, 0 failed");
    assert_eq!(run.stderr(), "");
    // Sessions are listed by path.
    let order: Vec<String> = run.stdout().lines().take(3).map(String::from).collect();
    assert_eq!(
        order,
        ["pass  other/gamma", "pass  suite/alpha", "pass  suite/beta"]
    );
}

#[test]
fn a_corrupted_golden_names_session_line_and_op_and_shows_the_diff() {
    let project = Project::passing();
    project.golden(
        "suite/alpha",
        &alpha_golden().replace("How to triage.", "How to triage!"),
    );
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(1), "{}", run.stdout());
    let out = run.stdout();
    assert!(run.has_line("FAIL  suite/alpha"), "{out}");
    assert!(
        out.contains("FAIL suite/alpha (corpora/suite/alpha.jsonl)\n"),
        "{out}"
    );
    assert!(
        out.contains("  line 4 (render): the transcript differs from \"golden/suite/alpha.txt\"\n"),
        "{out}"
    );
    assert!(out.contains("    --- golden\n    +++ replay\n"), "{out}");
    assert!(
        out.contains("    -- skill triage: How to triage!\n    +- skill triage: How to triage.\n"),
        "{out}"
    );
    assert!(out.contains(&format!("  to bless: {BLESS}\n")), "{out}");
    assert_eq!(run.last_line(), "3 passed, 1 failed");
}

#[test]
fn invisible_bytes_in_a_corrupted_golden_are_made_visible() {
    let project = Project::passing();
    // A tab, a trailing space and a CR, shown as `disclose diff` shows them
    // (README, "How invisible bytes are shown"): the golden no longer
    // frames correctly, and the diff still points at the render block.
    project.golden(
        "suite/alpha",
        &alpha_golden().replace("mode: chat\n", "mode:\tchat \r\n"),
    );
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(1));
    let out = run.stdout();
    assert!(out.contains("  line 4 (render): "), "{out}");
    assert!(
        out.contains("    -mode:␉chat·␍\n    +mode: chat\n"),
        "{out}"
    );
}

#[test]
fn a_deleted_golden_fails_and_says_how_to_bless() {
    let project = Project::passing();
    fs::remove_file(project.path("golden/suite/beta.txt")).unwrap();
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(1));
    assert!(run.has_line("FAIL  suite/beta"));
    assert!(
        run.stdout().contains(&format!(
            "no golden \"golden/suite/beta.txt\"; bless it with `{BLESS}`"
        )),
        "{}",
        run.stdout()
    );
    assert_eq!(run.last_line(), "3 passed, 1 failed");
}

#[test]
fn an_orphan_golden_fails() {
    let project = Project::passing();
    project.golden("suite/ghost", &gamma_golden());
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(1));
    assert!(run.has_line("FAIL  suite/ghost"), "{}", run.stdout());
    assert!(
        run.stdout()
            .contains("no session \"corpora/suite/ghost.jsonl\" has this golden"),
        "{}",
        run.stdout()
    );
    assert_eq!(run.last_line(), "4 passed, 1 failed");
}

#[test]
fn a_malformed_session_is_an_error_and_the_others_still_run() {
    let project = Project::passing();
    project.session(
        "suite/broken",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n{\"op\":\"nope\"}\n",
    );
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(1));
    let out = run.stdout();
    assert!(run.has_line("ERROR suite/broken"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("corpora/suite/broken.jsonl:2:")
                && l.contains("unknown op \"nope\"")),
        "{out}"
    );
    assert!(run.has_line("pass  suite/alpha"));
    assert!(run.has_line("pass  other/gamma"));
    assert_eq!(run.last_line(), "4 passed, 0 failed, 1 errors");
}

#[test]
fn a_missing_directory_is_exit_2() {
    let project = Project::new();
    let run = project.check(&["no-such-dir"]);
    assert_eq!(run.code(), Some(2));
    assert!(run.stderr().starts_with("disclose: "), "{}", run.stderr());
    assert!(run.stderr().contains("no-such-dir"));
    assert_eq!(run.stdout(), "");
}

#[test]
fn an_empty_corpus_is_exit_2() {
    let project = Project::new();
    fs::create_dir_all(project.path("corpora/suite")).unwrap();
    project.write("corpora/suite/notes.md", "not a session\n");
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(2));
    assert!(
        run.stderr()
            .starts_with("disclose: no sessions (*.jsonl) under \"corpora\""),
        "{}",
        run.stderr()
    );
    assert_eq!(run.stdout(), "");
}

#[test]
fn an_unreadable_golden_is_an_io_error_after_the_report() {
    let project = Project::passing();
    fs::remove_file(project.path("golden/suite/beta.txt")).unwrap();
    fs::create_dir_all(project.path("golden/suite/beta.txt")).unwrap();
    let run = project.check(&[]);
    assert_eq!(run.code(), Some(2));
    assert!(run.has_line("ERROR suite/beta"), "{}", run.stdout());
    assert!(run.has_line("pass  suite/alpha"));
    assert_eq!(run.last_line(), "3 passed, 0 failed, 1 errors");
    assert!(
        run.stderr()
            .starts_with("disclose: failed to read \"golden/suite/beta.txt\""),
        "{}",
        run.stderr()
    );
}

#[test]
fn bless_writes_goldens_and_deletes_orphans_but_never_a_malformed_session() {
    let project = Project::new();
    project.session("suite/alpha", ALPHA);
    project.session("suite/beta", BETA);
    project.session("other/gamma", GAMMA);
    project.session("suite/broken", "{\"op\":\"session\"}\n");
    project.golden("suite/beta", "stale\n");
    project.golden("gone/deep/ghost", &gamma_golden());
    project.golden("gone/notes", "not a transcript\n");
    let run = project.check(&["--bless"]);
    // The malformed session is still an error.
    assert_eq!(run.code(), Some(1), "{}{}", run.stdout(), run.stderr());
    assert_eq!(run.last_line(), "4 passed, 0 failed, 1 errors");
    assert!(run.has_line("deleted orphan golden/gone/deep/ghost.txt"));
    assert_eq!(project.read_golden("suite/alpha"), Some(alpha_golden()));
    assert_eq!(project.read_golden("suite/beta"), Some(beta_golden()));
    assert_eq!(project.read_golden("other/gamma"), Some(gamma_golden()));
    assert_eq!(
        project.read_golden("vocabulary"),
        Some(VOCABULARY.to_string())
    );
    assert_eq!(project.read_golden("suite/broken"), None);
    // An orphan is a transcript: the other `*.txt` is listed and kept.
    assert!(run.has_line("not a golden, kept: golden/gone/notes.txt"));
    assert_eq!(
        project.read_golden("gone/notes"),
        Some("not a transcript\n".into())
    );
    assert!(
        !project.path("golden/gone/deep").exists(),
        "empty dirs removed"
    );
    fs::remove_file(project.path("golden/gone/notes.txt")).unwrap();

    fs::remove_file(project.path("corpora/suite/broken.jsonl")).unwrap();
    let again = project.check(&[]);
    assert_eq!(again.code(), Some(0), "{}", again.stdout());
    assert_eq!(again.last_line(), "4 passed, 0 failed");
}

#[test]
fn disclose_bless_1_blesses_too() {
    let project = Project::new();
    project.session("suite/alpha", ALPHA);
    let run = project.check_env(&[], &[("DISCLOSE_BLESS", "1")]);
    assert_eq!(run.code(), Some(0), "{}", run.stdout());
    assert_eq!(project.read_golden("suite/alpha"), Some(alpha_golden()));
}

#[test]
fn bless_is_ignored_when_ci_is_set() {
    let project = Project::passing();
    fs::remove_file(project.path("golden/suite/beta.txt")).unwrap();
    project.golden("suite/alpha", "stale\n");
    project.golden("suite/ghost", &gamma_golden());
    for env in [
        &[("CI", "true")][..],
        &[("CI", "1"), ("DISCLOSE_BLESS", "1")][..],
    ] {
        let args: &[&str] = if env.len() == 1 { &["--bless"] } else { &[] };
        let run = project.check_env(args, env);
        assert_eq!(run.code(), Some(1), "{env:?}");
        assert!(run.stderr().contains("CI is set"), "{}", run.stderr());
        assert_eq!(run.last_line(), "2 passed, 3 failed");
        assert_eq!(project.read_golden("suite/beta"), None);
        assert_eq!(project.read_golden("suite/alpha"), Some("stale\n".into()));
        assert_eq!(project.read_golden("suite/ghost"), Some(gamma_golden()));
    }
}

#[test]
fn a_bad_partition_is_a_usage_error() {
    let project = Project::passing();
    for bad in ["hash:0/2", "hash:3/2", "hash:1/0", "count:1/2", "hash:x/2"] {
        let run = project.check(&["--partition", bad]);
        assert_eq!(run.code(), Some(2), "{bad}");
        assert!(run.stderr().starts_with("disclose: "), "{}", run.stderr());
        assert_eq!(run.stdout(), "", "{bad}");
    }
}

fn json_names(path: &Path) -> Vec<String> {
    let report: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn partitions_cover_every_session_and_orphan_exactly_once() {
    let project = Project::new();
    let mut all = BTreeSet::new();
    for i in 0..12 {
        let name = format!("suite/s{i:02}");
        project.session(&name, ALPHA);
        project.golden(&name, &alpha_golden());
        all.insert(name);
    }
    project.golden("vocabulary", VOCABULARY);
    for orphan in ["old/o1", "old/o2", "old/o3"] {
        project.golden(orphan, &alpha_golden());
        all.insert(orphan.to_string());
    }
    let mut seen = Vec::new();
    for k in 1..=3 {
        let report = project.path(&format!("r{k}.json"));
        let partition = format!("hash:{k}/3");
        let run = project.check(&[
            "--partition",
            &partition,
            "--json",
            report.to_str().unwrap(),
        ]);
        assert!(matches!(run.code(), Some(0 | 1)), "{}", run.stderr());
        let names = json_names(&report);
        assert_eq!(
            names.contains(&"vocabulary".to_string()),
            k == 1,
            "the vocabulary is checked on partition 1 only"
        );
        assert!(
            names.len() < all.len(),
            "partition {k} holds everything: {names:?}"
        );
        seen.extend(names.into_iter().filter(|n| n != "vocabulary"));
    }
    seen.sort();
    let expected: Vec<String> = all.into_iter().collect();
    assert_eq!(seen, expected, "each case on exactly one partition");
}

#[test]
fn json_junit_and_summary_reports_are_written_and_parse() {
    let project = Project::passing();
    project.golden(
        "suite/alpha",
        &alpha_golden().replace("How to triage.", "How to triage!"),
    );
    let run = project.check(&[
        "--json",
        "out/report.json",
        "--junit",
        "out/junit.xml",
        "--summary",
        "out/summary.md",
    ]);
    assert_eq!(run.code(), Some(1));

    let json: Value =
        serde_json::from_str(&fs::read_to_string(project.path("out/report.json")).unwrap())
            .unwrap();
    assert_eq!(json["totals"]["passed"], 3);
    assert_eq!(json["totals"]["failed"], 1);
    assert_eq!(json["totals"]["errors"], 0);
    let cases = json["cases"].as_array().unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["other/gamma", "suite/alpha", "suite/beta", "vocabulary"]
    );
    let alpha = &cases[1];
    assert_eq!(alpha["status"], "fail");
    assert_eq!(alpha["path"], "corpora/suite/alpha.jsonl");
    let failure = &alpha["failures"][0];
    assert_eq!(failure["kind"], "mismatch");
    assert_eq!(failure["line"], 4);
    assert_eq!(failure["op"], "render");
    assert!(
        failure["diff"]
            .as_str()
            .unwrap()
            .contains("-- skill triage: How to triage!\n")
    );
    // The index: 59-byte header + one 31-byte line.
    assert_eq!(alpha["renders"][0]["line"], 4);
    assert_eq!(alpha["renders"][0]["index_bytes"], 90);
    assert_eq!(alpha["renders"][0]["headroom"], 1024 - 90);
    assert_eq!(cases[0]["status"], "pass");
    assert_eq!(cases[0]["renders"].as_array().unwrap().len(), 0);

    let xml = fs::read_to_string(project.path("out/junit.xml")).unwrap();
    let junit = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(junit.test_suites.len(), 1);
    let suite = &junit.test_suites[0];
    let testcases: Vec<&str> = suite.test_cases.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        testcases,
        ["other/gamma", "suite/alpha", "suite/beta", "vocabulary"]
    );
    assert_eq!(suite.failures, 1);
    match &suite.test_cases[1].status {
        quick_junit::TestCaseStatus::NonSuccess {
            kind, description, ..
        } => {
            assert_eq!(*kind, quick_junit::NonSuccessKind::Failure);
            let text = description.as_ref().unwrap().as_str();
            assert!(text.contains("+- skill triage: How to triage.\n"), "{text}");
            assert!(text.contains(BLESS), "{text}");
        }
        other => panic!("alpha should fail: {other:?}"),
    }

    let summary = fs::read_to_string(project.path("out/summary.md")).unwrap();
    assert!(summary.starts_with("## disclose check\n"), "{summary}");
    assert!(summary.contains("**3 passed, 1 failed**"), "{summary}");
    assert!(
        summary.contains("| suite/alpha | fail | mismatch | 4 | render |"),
        "{summary}"
    );
    assert!(
        summary.contains("| suite/alpha | 4 | 90 | 934 |"),
        "{summary}"
    );
}

#[test]
fn an_unwritable_report_path_is_exit_2_after_the_report() {
    let project = Project::passing();
    // A directory cannot be written as a file.
    fs::create_dir_all(project.path("taken")).unwrap();
    let run = project.check(&["--json", "taken"]);
    assert_eq!(run.code(), Some(2));
    assert_eq!(run.last_line(), "4 passed, 0 failed");
    assert!(
        run.stderr()
            .starts_with("disclose: failed to write \"taken\""),
        "{}",
        run.stderr()
    );
}

/// The binary under another path: a hard link (a copy where links cannot
/// be made) at `rel` under a directory beside the target directory, so
/// that the executable's own path is `rel`'s.
fn binary_at(dir: &Path, rel: &str) -> PathBuf {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let built = Path::new(env!("CARGO_BIN_EXE_disclose"));
    if fs::hard_link(built, &path).is_err() {
        fs::copy(built, &path).unwrap();
    }
    path
}

#[test]
fn the_bless_command_names_the_command_as_it_was_invoked() {
    let project = Project::passing();
    project.golden("suite/ghost", &gamma_golden());
    let installs = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let to_bless = |run: Run| {
        assert_eq!(run.code(), Some(1), "{}", run.both());
        run.stdout()
            .lines()
            .find_map(|line| line.strip_prefix("  to bless: "))
            .map(String::from)
            .unwrap_or_else(|| panic!("no bless command:\n{}", run.stdout()))
    };
    // An installed binary, by its own name; and the same binary installed
    // under the package's name (as the wheel and the npm package install it).
    assert_eq!(to_bless(project.check(&[])), "disclose check --bless");
    let renamed = binary_at(installs.path(), "bin/disclose-catalog");
    assert_eq!(
        to_bless(project.check_as(&renamed, &[], &[])),
        "disclose-catalog check --bless"
    );
    // Under `cargo run --release`: cargo's variables, and the executable in
    // the profile's directory.
    let cargo = [
        ("CARGO", "/usr/bin/cargo"),
        ("CARGO_PKG_NAME", "disclose-cli"),
    ];
    let release = binary_at(installs.path(), "target/release/disclose");
    assert_eq!(
        to_bless(project.check_as(&release, &[], &cargo)),
        "cargo run --release -- check --bless"
    );
    let debug = binary_at(installs.path(), "target/debug/disclose");
    assert_eq!(
        to_bless(project.check_as(&debug, &[], &cargo)),
        "cargo run -- check --bless"
    );
    // Cargo running another package (an xtask) that starts the binary.
    assert_eq!(
        to_bless(project.check_as(
            &release,
            &[],
            &[("CARGO", "cargo"), ("CARGO_PKG_NAME", "xtask")]
        )),
        "disclose check --bless"
    );
    // Directories that are not the defaults come along, quoted for a shell.
    fs::rename(project.path("golden"), project.path("my goldens")).unwrap();
    assert_eq!(
        to_bless(project.check(&["corpora", "--golden", "my goldens"])),
        "disclose check --bless --golden 'my goldens'"
    );
}

/// The `::` lines of a run's stdout: GitHub's workflow commands.
fn workflow_commands(run: &Run) -> Vec<String> {
    run.stdout()
        .lines()
        .filter(|line| line.starts_with("::"))
        .map(String::from)
        .collect()
}

/// [`Project::passing`] with `suite/beta`'s golden differing from its op on
/// line 3 on (the first differing op), `other/gamma`'s with a `%` in it,
/// and a malformed session with `,`, `:` and `%` in its name.
fn failing_for_annotations() -> Project {
    let project = Project::passing();
    project.golden(
        "suite/beta",
        &beta_golden()
            .replace("nothing matched", "nothing matches")
            .replace("Find a capability", "Seek a capability"),
    );
    project.golden(
        "other/gamma",
        &transcript(&[
            block(2, "start", "run started in chat mode at generation 0\n"),
            block(
                3,
                "call",
                "refused E_INVALID_ARGS call.unknown: no admitted tool is named \"edit\"; nearest: 100% describe\n",
            ),
        ]),
    );
    project.session(
        "odd/a,b:c%d",
        "{\"op\":\"session\",\"format\":1,\"about\":\"x\"}\n  {\"op\":\"render\"}\n",
    );
    project
}

#[test]
fn under_github_actions_each_failing_session_is_an_error_at_its_first_differing_op() {
    let project = failing_for_annotations();
    let run = project.check_env(&[], &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(run.code(), Some(1), "{}", run.both());
    let commands = workflow_commands(&run);
    let errors: Vec<&String> = commands
        .iter()
        .filter(|c| c.starts_with("::error "))
        .collect();
    assert_eq!(errors.len(), 3, "{}", run.stdout());
    // Report order: sessions by path. gamma's golden differs at its call
    // (line 3), with a `%` in the diff, escaped as `%25`.
    assert!(
        errors[0].starts_with(
            "::error file=corpora/odd/a%2Cb%3Ac%25d.jsonl,line=2,col=3,title=disclose check%3A malformed session::op \"render\" needs a started run"
        ),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with(
            "::error file=corpora/other/gamma.jsonl,line=3,title=disclose check%3A the transcript differs from its golden::line 3 (call): the transcript differs from \"golden/other/gamma.txt\"%0A--- golden%0A+++ replay%0A"
        ),
        "{}",
        errors[1]
    );
    assert!(
        errors[1].contains("nearest: 100%25 describe"),
        "{}",
        errors[1]
    );
    assert!(
        errors[1].ends_with("%0Ato bless: disclose check --bless"),
        "{}",
        errors[1]
    );
    assert!(!errors[1].contains('\n'));
    assert!(
        errors[2].starts_with("::error file=corpora/suite/beta.jsonl,line=3,"),
        "{}",
        errors[2]
    );
    // The annotations come first; the human report follows with commands
    // stopped, and the closing line is still the last line.
    let stdout = run.stdout();
    let first_human = stdout.find("ERROR odd/a,b:c%d\n").unwrap();
    assert!(stdout.find(errors[2].as_str()).unwrap() < first_human);
    assert!(commands[3].starts_with("::stop-commands::"), "{stdout}");
    let token = &commands[3]["::stop-commands::".len()..];
    assert_eq!(commands[4], format!("::{token}::"));
    assert_eq!(commands.len(), 5, "{stdout}");
    assert_eq!(run.last_line(), "2 passed, 2 failed, 1 errors");
}

#[test]
fn annotations_follow_the_flag_over_the_environment() {
    let project = failing_for_annotations();
    let asked = project.check(&["--annotations", "github"]);
    assert_eq!(workflow_commands(&asked).len(), 5, "{}", asked.stdout());
    let off = project.check_env(&["--annotations", "none"], &[("GITHUB_ACTIONS", "true")]);
    assert_eq!(
        workflow_commands(&off),
        Vec::<String>::new(),
        "{}",
        off.stdout()
    );
    // Outside GitHub Actions (another CI, a terminal): none.
    for env in [
        &[][..],
        &[("GITHUB_ACTIONS", "false")][..],
        &[("CI", "true")][..],
    ] {
        let run = project.check_env(&[], env);
        assert_eq!(workflow_commands(&run), Vec::<String>::new(), "{env:?}");
        // And the human report is the same bytes either way.
        assert_eq!(run.stdout(), off.stdout());
    }
    let bad = project.check(&["--annotations", "gitlab"]);
    assert_eq!(bad.code(), Some(2));
    assert!(
        bad.stderr().contains("[possible values: github, none]"),
        "{}",
        bad.stderr()
    );
}

#[test]
fn annotations_leave_the_report_files_as_they_are() {
    let project = failing_for_annotations();
    let files = ["--json", "r.json", "--junit", "r.xml", "--summary", "r.md"];
    project.check(&files);
    let plain: Vec<Vec<u8>> = ["r.json", "r.xml", "r.md"]
        .iter()
        .map(|f| fs::read(project.path(f)).unwrap())
        .collect();
    project.check_env(&files, &[("GITHUB_ACTIONS", "true")]);
    for (file, before) in ["r.json", "r.xml", "r.md"].iter().zip(plain) {
        assert_eq!(fs::read(project.path(file)).unwrap(), before, "{file}");
    }
}

#[test]
fn an_annotation_names_its_file_from_the_workspace_root() {
    let project = failing_for_annotations();
    // `check` run in a subdirectory of the workspace (`working-directory:`).
    let root = project.dir.path().parent().unwrap();
    let below = project.dir.path().file_name().unwrap().to_str().unwrap();
    let run = project.check_env(
        &[],
        &[
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_WORKSPACE", root.to_str().unwrap()),
        ],
    );
    let commands = workflow_commands(&run);
    assert!(
        commands[1].starts_with(&format!(
            "::error file={below}/corpora/other/gamma.jsonl,line=3,"
        )),
        "{}",
        commands[1]
    );
}

/// GitHub refuses a step summary over 1 MiB; `--summary` keeps 8 KiB of it
/// for what else the step writes there.
const SUMMARY_MAX: usize = 1024 * 1024 - 8 * 1024;

#[test]
fn a_summary_past_githubs_limit_leaves_out_whole_rows_and_says_where_the_rest_is() {
    // 2,200 malformed sessions with 200-character names: some 520 bytes a
    // row in the failures table, 1.1 MB in all.
    let project = Project::new();
    project.golden("vocabulary", VOCABULARY);
    let names: Vec<String> = (0..2200)
        .map(|i| format!("s/{i:04}{}", "n".repeat(196)))
        .collect();
    for name in &names {
        project.session(name, "x\n");
    }
    let run = project.check(&["--summary", "out/s.md", "--json", "out/r.json"]);
    assert_eq!(run.code(), Some(1));
    assert_eq!(run.last_line(), "1 passed, 0 failed, 2200 errors");
    let summary = fs::read_to_string(project.path("out/s.md")).unwrap();
    assert!(summary.len() <= SUMMARY_MAX, "{} bytes", summary.len());
    assert!(
        summary.len() > SUMMARY_MAX - 1024,
        "{} bytes: cut too much",
        summary.len()
    );
    // The rows kept are whole, and are the first in report order.
    let rows: Vec<&str> = summary.lines().filter(|l| l.starts_with("| s/")).collect();
    for (row, name) in rows.iter().zip(&names) {
        assert!(
            row.starts_with(&format!("| {name} | error | malformed | 1 |  | ")),
            "{row}"
        );
        assert!(row.ends_with(": invalid JSON: expected value |"), "{row}");
    }
    let left_out = names.len() - rows.len();
    assert!(
        rows.len() > 1000 && left_out > 0,
        "{} rows kept",
        rows.len()
    );
    assert!(
        summary.contains(&format!(
            "\n\n**{left_out} of 2200 rows left out** to keep this summary under GitHub's 1 MiB limit; the whole report is in out/r.json (JSON).\n\n"
        )),
        "{}",
        &summary[summary.len().saturating_sub(600)..]
    );
    // The parts after the table are still there.
    assert!(summary.contains("### Tightest dormant indexes"));
    // And the JSON report has every case.
    let json: Value =
        serde_json::from_str(&fs::read_to_string(project.path("out/r.json")).unwrap()).unwrap();
    assert_eq!(json["cases"].as_array().unwrap().len(), 2201);
    // Without another report, the note says the log is where the rest is.
    let alone = project.check(&["--summary", "out/alone.md"]);
    assert_eq!(alone.code(), Some(1));
    let alone = fs::read_to_string(project.path("out/alone.md")).unwrap();
    assert!(
        alone.contains("rows left out** to keep this summary under GitHub's 1 MiB limit; no --json or --junit report was asked for, so the whole report is only in the log.\n"),
        "{}",
        &alone[alone.len().saturating_sub(600)..]
    );
}
