//! Hostile inputs through the built binary: trees with links, FIFOs and
//! files that are not goldens; blessing under a kill; sessions whose work
//! or output would be out of proportion to their size. Every run is bounded
//! by `prlimit` (address space, CPU seconds, file size) and `timeout`, so a
//! regression fails here instead of eating the machine; the limits are
//! guards, not speed targets (those are benchmarks: `benches/scaling.rs`).
//!
//! Unix only: links and FIFOs, `prlimit` and `timeout`.
#![cfg(unix)]

mod common;

use common::Run;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use tempfile::TempDir;

const GIB: u64 = 1 << 30;

const ALPHA: &str = r#"{"op":"session","format":1,"about":"one dormant skill"}
{"op":"skill","name":"triage","disclosure":"How to triage. Then more.","address":"skills/triage.md"}
{"op":"start","mode":"chat"}
{"op":"render"}
"#;

/// ALPHA's transcript, written from SPEC §4 and §12 by hand.
const ALPHA_GOLDEN: &str = "disclose transcript 1\n=== 2 skill 39\nadmitted skill triage (shelf, no hash)\n=== 3 start 41\nrun started in chat mode at generation 1\n=== 4 render 117\n## Capabilities\nmode: chat\nDormant (describe a name for its guide; call runs a tool):\n- skill triage: How to triage.\n";

/// Bounds on one run of the binary.
#[derive(Clone, Copy)]
struct Limits {
    /// Address space, bytes.
    memory: u64,
    /// CPU seconds.
    cpu: u64,
    /// Largest file the run may write, bytes.
    file: Option<u64>,
}

const ORDINARY: Limits = Limits {
    memory: 2 * GIB,
    cpu: 60,
    file: None,
};

/// For the families whose old cost was minutes (items 7 and 8): the new
/// cost is seconds even in a debug build.
const TIGHT: Limits = Limits {
    cpu: 30,
    ..ORDINARY
};

/// A project directory: `corpora/`, `golden/`, and whatever a test puts
/// beside them.
struct Project {
    dir: TempDir,
}

impl Project {
    fn new() -> Project {
        Project {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&self, rel: &str, bytes: &[u8]) {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    fn read(&self, rel: &str) -> Option<Vec<u8>> {
        fs::read(self.path(rel)).ok()
    }

    /// `disclose ARGS` in the project, outside CI, within `limits`.
    fn run(&self, args: &[&str], env: &[(&str, &str)], limits: Limits) -> Run {
        let mut command = Command::new("timeout");
        command
            .args(["-s", "KILL", "120", "prlimit"])
            .arg(format!("--as={}", limits.memory))
            .arg(format!("--cpu={}", limits.cpu));
        if let Some(file) = limits.file {
            command.arg(format!("--fsize={file}"));
        }
        command
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_disclose"))
            .args(args)
            .current_dir(self.dir.path())
            .env_remove("CI")
            .env_remove("GITHUB_ACTIONS")
            .env_remove("DISCLOSE_BLESS")
            .env_remove("NO_COLOR");
        for (key, value) in env {
            command.env(key, value);
        }
        Run(command.output().expect("timeout and prlimit run"))
    }

    fn check(&self, args: &[&str]) -> Run {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        self.run(&all, &[], ORDINARY)
    }
}

/// Every file under `dir` with its bytes, by relative path (links listed
/// as their target's text, never followed).
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_symlink() {
                let target = fs::read_link(&path).unwrap();
                all.push((rel, format!("-> {}", target.display()).into_bytes()));
            } else if meta.is_dir() {
                all.push((rel, b"<dir>".to_vec()));
                stack.push(path);
            } else {
                all.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    all.sort();
    all
}

fn json_report(project: &Project, rel: &str) -> Value {
    serde_json::from_slice(&project.read(rel).expect("the report is written")).unwrap()
}

/// Item 1: a linked directory in the golden tree is never followed: its
/// transcripts are not orphans, nothing behind it is written, and the rest
/// is blessed.
#[test]
fn bless_never_follows_a_linked_directory_out_of_the_tree() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("corpora/shared/beta.jsonl", ALPHA.as_bytes());
    project.write("elsewhere/old.txt", ALPHA_GOLDEN.as_bytes());
    project.write("elsewhere/notes.txt", b"a note\n");
    fs::create_dir_all(project.path("golden")).unwrap();
    symlink("../elsewhere", project.path("golden/shared")).unwrap();
    let before = snapshot(&project.path("elsewhere"));

    let run = project.check(&["--bless", "--json", "report.json"]);
    assert_eq!(snapshot(&project.path("elsewhere")), before);
    assert_eq!(
        project.read("golden/suite/alpha.txt").as_deref(),
        Some(ALPHA_GOLDEN.as_bytes()),
        "the rest is blessed"
    );
    let out = run.both();
    assert!(
        out.contains("\"golden/shared\" is a symbolic link"),
        "the link is named: {out}"
    );
    assert!(run.has_line("ERROR shared/beta"), "{out}");
    assert_eq!(run.code(), Some(2), "a link is an I/O error: {out}");
    let report = json_report(&project, "report.json");
    assert_eq!(report["deleted_orphans"], json!([]));
}

/// Item 2: `--golden .` over a project deletes no `*.txt` that is not a
/// transcript, and says it kept each.
#[test]
fn bless_keeps_every_txt_that_is_not_a_transcript() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("requirements.txt", b"serde==1\n");
    project.write("LICENSE.txt", b"MIT\n");
    project.write("docs/notes.txt", b"notes\n");
    project.write("old/gone.txt", ALPHA_GOLDEN.as_bytes());
    let run = project.check(&["--golden", ".", "--bless"]);
    let out = run.both();
    assert_eq!(project.read("requirements.txt").unwrap(), b"serde==1\n");
    assert_eq!(project.read("LICENSE.txt").unwrap(), b"MIT\n");
    assert_eq!(project.read("docs/notes.txt").unwrap(), b"notes\n");
    for kept in ["./requirements.txt", "./LICENSE.txt", "./docs/notes.txt"] {
        assert!(
            run.has_line(&format!("not a golden, kept: {kept}")),
            "{out}"
        );
    }
    // A transcript with no session is an orphan, and goes.
    assert!(run.has_line("deleted orphan ./old/gone.txt"), "{out}");
    assert_eq!(project.read("old/gone.txt"), None);
    assert_eq!(
        project.read("suite/alpha.txt").as_deref(),
        Some(ALPHA_GOLDEN.as_bytes())
    );
}

/// Item 3: a golden that is a link is not written through.
#[test]
fn bless_never_writes_through_a_linked_golden() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("precious.txt", b"keep me\n");
    fs::create_dir_all(project.path("golden/suite")).unwrap();
    symlink("../../precious.txt", project.path("golden/suite/alpha.txt")).unwrap();
    let run = project.check(&["--bless"]);
    assert_eq!(project.read("precious.txt").unwrap(), b"keep me\n");
    assert!(
        run.both()
            .contains("\"golden/suite/alpha.txt\" is a symbolic link"),
        "{}",
        run.both()
    );
    assert_eq!(run.code(), Some(2));
}

/// Item 4: a bless killed part-way through a write (here by the file-size
/// limit's SIGXFSZ) leaves the old golden whole.
#[test]
fn a_bless_killed_mid_write_leaves_the_old_golden_whole() {
    let project = Project::new();
    let description = format!("Big. {}", "x".repeat(64 * 1024));
    let session = [
        json!({"op":"session","format":1,"about":"a large golden"}),
        json!({"op":"tool","origin":"host","name":"big","description":description,"input_schema":{}}),
        json!({"op":"start","mode":"work"}),
        json!({"op":"describe","name":"big"}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect::<String>();
    project.write("corpora/suite/big.jsonl", session.as_bytes());
    let old = "disclose transcript 1\n=== 2 tool 3\nold".repeat(200);
    project.write("golden/suite/big.txt", old.as_bytes());
    let limits = Limits {
        file: Some(16 * 1024),
        ..ORDINARY
    };
    let run = project.run(&["check", "--bless"], &[], limits);
    assert_ne!(
        run.code(),
        Some(0),
        "the write cannot succeed: {}",
        run.both()
    );
    assert_eq!(
        project.read("golden/suite/big.txt").unwrap(),
        old.as_bytes(),
        "the old golden is whole"
    );
}

/// Item 5: the words that leave blessing off, and `CI` set to nothing.
#[test]
fn disclose_bless_off_words_and_an_empty_ci_do_not_bless() {
    for word in ["", "0", "false", "no", "off", "FALSE", "Off"] {
        let project = Project::new();
        project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
        let run = project.run(&["check"], &[("DISCLOSE_BLESS", word)], ORDINARY);
        assert_eq!(run.code(), Some(1), "{word:?}: {}", run.both());
        assert_eq!(project.read("golden/suite/alpha.txt"), None, "{word:?}");
    }
    for word in ["1", "true", "yes", "on"] {
        let project = Project::new();
        project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
        let run = project.run(&["check"], &[("DISCLOSE_BLESS", word)], ORDINARY);
        assert_eq!(
            project.read("golden/suite/alpha.txt").as_deref(),
            Some(ALPHA_GOLDEN.as_bytes()),
            "{word:?}: {}",
            run.both()
        );
    }
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    let run = project.run(&["check"], &[("DISCLOSE_BLESS", "maybe")], ORDINARY);
    assert_eq!(run.code(), Some(2));
    assert!(
        run.stderr().contains("DISCLOSE_BLESS is \"maybe\""),
        "{}",
        run.stderr()
    );
    assert_eq!(project.read("golden/suite/alpha.txt"), None);

    let run = project.run(&["check", "--bless"], &[("CI", "")], ORDINARY);
    assert!(run.stderr().contains("CI is set"), "{}", run.stderr());
    assert_eq!(project.read("golden/suite/alpha.txt"), None);
}

/// A session: a header, then `ops`.
fn session(ops: &[Value]) -> Vec<u8> {
    let mut text = format!("{}\n", json!({"op":"session","format":1,"about":"hostile"}));
    for op in ops {
        text.push_str(&op.to_string());
        text.push('\n');
    }
    text.into_bytes()
}

/// Item 6: a 5 MB session that asks for a 5 GB transcript is that
/// session's error under a 2 GiB address space; the other session passes
/// and the report is written.
#[test]
fn a_session_past_the_transcript_limit_is_its_own_error() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("golden/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    let mut ops = vec![
        json!({"op":"tool","origin":"host","name":"big","description":format!("Big. {}", "x".repeat(5_000_000)),"input_schema":{}}),
        json!({"op":"start","mode":"work"}),
    ];
    ops.extend(std::iter::repeat_n(
        json!({"op":"describe","name":"big"}),
        1000,
    ));
    project.write("corpora/suite/huge.jsonl", &session(&ops));
    let run = project.check(&["--json", "report.json"]);
    let out = run.both();
    assert_eq!(run.code(), Some(1), "{out}");
    assert!(run.has_line("pass  suite/alpha"), "{out}");
    assert!(run.has_line("ERROR suite/huge"), "{out}");
    assert!(
        out.contains("the transcript passes 67108864 bytes at line 17 (describe)"),
        "{out}"
    );
    let report = json_report(&project, "report.json");
    let huge = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "suite/huge")
        .unwrap();
    assert_eq!(huge["failures"][0]["kind"], "limit");
}

/// Item 7: a 1 MB asked name over 5,000 tools: the nearest names of §6 in
/// a bounded time (the whole name against every tool took minutes).
#[test]
fn a_huge_unknown_name_costs_its_size() {
    let project = Project::new();
    let mut ops: Vec<Value> = (0..5000)
        .map(|i| json!({"op":"tool","origin":"host","name":format!("tool_{i:04}"),"description":"T.","input_schema":{}}))
        .collect();
    ops.push(json!({"op":"start","mode":"work"}));
    let asked = format!("tool_00{}", "ab".repeat(500_000));
    ops.push(json!({"op":"call","id":"c","name":"call","args":{"name":asked,"args":{}}}));
    project.write("corpora/suite/near.jsonl", &session(&ops));
    let run = project.run(&["replay", "corpora/suite/near.jsonl"], &[], TIGHT);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    // Every tool is 1,000,000 - 2 insertions (or so) away; by the letter of
    // §6 the nearest are the ones sharing the most of `tool_00` and `ab`,
    // ties by name: the distance is n - m + (m - matched) for each.
    assert!(
        run.stdout()
            .ends_with("\"; nearest: tool_0000, tool_0001, tool_0002\n"),
        "{}",
        &run.stdout()[run.stdout().len().saturating_sub(200)..]
    );
}

/// Item 8: `fit` with 80,000 properties, all required, is linear: the
/// call is routed within a bounded time.
#[test]
fn a_wide_schema_fits_in_its_size() {
    let project = Project::new();
    let keys: Vec<String> = (0..80_000).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, Value> = keys
        .iter()
        .map(|k| (k.clone(), json!({"type":"string"})))
        .collect();
    let args: serde_json::Map<String, Value> =
        keys.iter().map(|k| (k.clone(), json!("x"))).collect();
    let ops = [
        json!({"op":"tool","origin":"host","name":"wide","description":"Wide.","input_schema":{"type":"object","properties":properties,"required":keys},"effect":"read","approval":"never"}),
        json!({"op":"start","mode":"work"}),
        json!({"op":"call","id":"c","name":"call","args":{"name":"wide","args":args}}),
    ];
    project.write("corpora/suite/wide.jsonl", &session(&ops));
    let run = project.run(&["replay", "corpora/suite/wide.jsonl"], &[], TIGHT);
    assert_eq!(run.code(), Some(0), "{}", run.stderr());
    assert!(
        run.stdout().contains("=== 4 call "),
        "{}",
        &run.stdout()[..run.stdout().len().min(400)]
    );
    assert!(!run.stdout().contains("refused"), "the args fit");
}

/// Item 10: a dangling link (an editor's lock file), a link loop and a
/// FIFO named like a session are each one error against their path; the
/// rest run and the reports are written.
#[test]
fn unusable_corpus_entries_are_one_error_each() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("golden/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    project.write("golden/vocabulary.txt", &vocabulary());
    symlink(
        "nobody@host.1234",
        project.path("corpora/suite/.#alpha.jsonl"),
    )
    .unwrap();
    symlink("..", project.path("corpora/suite/loop")).unwrap();
    mkfifo(&project.path("corpora/suite/pipe.jsonl"));
    let run = project.check(&["--json", "report.json", "--junit", "report.xml"]);
    let out = run.both();
    assert_eq!(run.code(), Some(2), "{out}");
    assert!(run.has_line("pass  suite/alpha"), "{out}");
    assert!(
        out.contains("\"corpora/suite/.#alpha.jsonl\": is a link to nothing"),
        "{out}"
    );
    assert!(
        out.contains("\"corpora/suite/loop\": is a link back to"),
        "{out}"
    );
    assert!(
        out.contains("\"corpora/suite/pipe.jsonl\": is a FIFO, not a regular file"),
        "{out}"
    );
    for line in out.lines() {
        assert!(line.matches("(os error").count() <= 1, "said twice: {line}");
    }
    assert_eq!(run.last_line(), "2 passed, 0 failed, 3 errors");
    let report = json_report(&project, "report.json");
    assert_eq!(report["totals"]["errors"], 3);
    assert!(project.read("report.xml").is_some());
}

/// Item 11: a golden that is a FIFO is not opened (which would wait for a
/// writer forever), and one linked to `/dev/zero` is not read at all.
#[test]
fn goldens_that_are_not_regular_files_are_refused_unread() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("corpora/suite/beta.jsonl", ALPHA.as_bytes());
    project.write("corpora/suite/gamma.jsonl", ALPHA.as_bytes());
    project.write("golden/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    mkfifo(&project.path("golden/suite/beta.txt"));
    symlink("/dev/zero", project.path("golden/suite/gamma.txt")).unwrap();
    let limits = Limits {
        memory: GIB,
        cpu: 20,
        file: None,
    };
    let run = project.run(&["check"], &[], limits);
    let out = run.both();
    assert_eq!(run.code(), Some(2), "{out}");
    assert!(run.has_line("pass  suite/alpha"), "{out}");
    assert!(
        out.contains("failed to read \"golden/suite/beta.txt\": is a FIFO, not a regular file"),
        "{out}"
    );
    assert!(
        out.contains("\"golden/suite/gamma.txt\" is a symbolic link"),
        "{out}"
    );
}

/// `diff` over trees with the same hostile entries: each is one error, the
/// rest is compared and reported.
#[test]
fn diff_reports_unusable_entries_and_compares_the_rest() {
    let project = Project::new();
    project.write("old/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    project.write("new/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    symlink("nowhere", project.path("new/suite/.#x.txt")).unwrap();
    mkfifo(&project.path("new/suite/pipe.txt"));
    let run = project.run(&["diff", "old", "new"], &[], ORDINARY);
    let out = run.both();
    assert_eq!(run.code(), Some(2), "{out}");
    assert!(
        out.contains("\"new/suite/.#x.txt\": is a link to nothing"),
        "{out}"
    );
    assert!(
        out.contains("\"new/suite/pipe.txt\": is a FIFO, not a regular file"),
        "{out}"
    );
    assert!(
        run.has_line("0 changed, 0 added, 0 removed, 1 unchanged"),
        "{out}"
    );
}

fn vocabulary() -> Vec<u8> {
    common::disclose(&["vocab"]).stdout
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// `check --impl` reads the corpus and goldens as `check` does: a FIFO
/// golden and a dangling session link are errors against their paths, and
/// the other case still runs through the implementation.
#[test]
fn check_impl_refuses_unusable_entries_and_runs_the_rest() {
    let project = Project::new();
    project.write("corpora/suite/alpha.jsonl", ALPHA.as_bytes());
    project.write("corpora/suite/beta.jsonl", ALPHA.as_bytes());
    project.write("golden/suite/alpha.txt", ALPHA_GOLDEN.as_bytes());
    mkfifo(&project.path("golden/suite/beta.txt"));
    symlink("nobody@host.1", project.path("corpora/suite/.#alpha.jsonl")).unwrap();
    let serve = format!("{} serve", env!("CARGO_BIN_EXE_disclose"));
    let run = project.run(&["check", "--impl", &serve], &[], ORDINARY);
    let out = run.both();
    assert_eq!(run.code(), Some(2), "{out}");
    assert!(
        out.contains("failed to read \"golden/suite/beta.txt\": is a FIFO, not a regular file"),
        "{out}"
    );
    assert!(
        out.contains("\"corpora/suite/.#alpha.jsonl\": is a link to nothing"),
        "{out}"
    );
    assert!(out.contains("1 passed"), "alpha still runs: {out}");
}
