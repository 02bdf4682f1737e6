//! Hostile implementations under `disclose check --impl` (docs/decisions.md,
//! "`check --impl` keeps 8 KiB of what an implementation writes, and owns
//! its process group"): adapters, written as small `sh` scripts, that flood a line past the
//! 256 MiB limit, answer with an output of tens of megabytes, crash while a
//! process they started still holds their stdout, leave a process behind
//! at the end, or answer with a key twice. Every check runs under a memory
//! limit (`ulimit -v`) and a wall-clock deadline, and each test asserts
//! what the report says, how long it took, how much it kept, and that no
//! process the adapter started is still running.
//!
//! Unix only: `sh` adapters, `ulimit` and process groups.
#![cfg(unix)]

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

const DISCLOSE: &str = env!("CARGO_BIN_EXE_disclose");

/// No check here may take longer than this, whatever the adapter does.
const DEADLINE: Duration = Duration::from_secs(120);

/// The cases: each starts a chat run and renders it.
const CASES: [&str; 3] = ["suite/a", "suite/b", "suite/c"];

/// A corpus of [`CASES`], with goldens written by `disclose replay`, and
/// an adapter script.
struct Project {
    dir: TempDir,
}

/// What a bounded run of `check` left.
struct Checked {
    code: Option<i32>,
    stdout: String,
    took: Duration,
}

impl Project {
    fn new(adapter: &str) -> Project {
        let project = Project {
            dir: tempfile::tempdir().expect("a tempdir"),
        };
        for case in CASES {
            let session = format!(
                "{{\"op\":\"session\",\"format\":1,\"about\":\"{case}\"}}\n{{\"op\":\"start\",\"mode\":\"chat\"}}\n{{\"op\":\"render\"}}\n"
            );
            let path = common::write(
                project.dir.path(),
                &format!("corpora/{case}.jsonl"),
                &session,
            );
            let golden = common::disclose(&["replay", &path]);
            assert!(golden.status.success(), "{}", common::stderr(&golden));
            common::write(
                project.dir.path(),
                &format!("golden/{case}.txt"),
                &common::stdout(&golden),
            );
        }
        let script = format!(
            "#!/bin/sh\n\
             # An adapter; $1 is where it notes the pids of what it starts.\n\
             read -r hello || exit 0\n\
             printf '{{\"implementation\":{{\"name\":\"sh\",\"version\":\"1\",\"language\":\"sh\"}},\"contract\":[{}]}}\\n'\n\
             {adapter}\n",
            disclose::CONTRACT_VERSION
        );
        fs::write(project.path("adapter.sh"), script).expect("the adapter is written");
        project
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `disclose check --impl "sh adapter.sh DIR" ARGS`, with at most
    /// `memory` bytes of address space and [`DEADLINE`].
    fn check(&self, memory: u64, args: &[&str]) -> Checked {
        let adapter = format!(
            "sh {} {}",
            self.path("adapter.sh").display(),
            self.dir.path().display()
        );
        let out = fs::File::create(self.path("stdout")).expect("stdout file");
        let started = Instant::now();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", memory / 1024))
            .arg(DISCLOSE)
            .args(["check", "--impl", &adapter])
            .args(args)
            .current_dir(self.dir.path())
            .env_remove("CI")
            .env_remove("GITHUB_ACTIONS")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(Stdio::null())
            .spawn()
            .expect("check starts");
        let status = loop {
            if let Some(status) = child.try_wait().expect("check can be waited for") {
                break status;
            }
            if started.elapsed() > DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                panic!("check ran past {DEADLINE:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Checked {
            code: status.code(),
            stdout: fs::read_to_string(self.path("stdout")).unwrap_or_default(),
            took: started.elapsed(),
        }
    }

    /// The pids the adapter noted, each of a process it started.
    fn children(&self) -> Vec<u32> {
        fs::read_to_string(self.path("children"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

/// Whether `pid` still runs (a zombie waiting for its reaper does not).
fn running(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // `pid (comm) S …`: the state follows the last `)`.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// Which of `pids` still run once a SIGKILL sent to them has had time to
/// land: a killed process dies when it is next scheduled, which on a
/// loaded machine can be after `check` has exited. Waits up to 10 s, far
/// less than the 60 s the sleepers would live unkilled.
fn still_running(pids: &[u32]) -> Vec<u32> {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let alive: Vec<u32> = pids.iter().copied().filter(|p| running(*p)).collect();
        if alive.is_empty() || Instant::now() >= until {
            return alive;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills what a failed test left running, so a failure costs no more.
fn reap(pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
}

/// Reads each run's case into `$case`.
const CASE: &str =
    r#"case=$(printf '%s\n' "$line" | sed 's/^{"cmd":"run","case":"\([^"]*\)".*/\1/')"#;

fn each_run(body: &str) -> String {
    format!(
        "while read -r line; do\n  case \"$line\" in *'\"cmd\":\"bye\"'*) exit 0;; esac\n  {CASE}\n  {body}\ndone\n"
    )
}

const GIB: u64 = 1024 * 1024 * 1024;

#[test]
fn a_line_past_256_mib_is_dropped_as_it_is_read() {
    // Every case floods: 256 MiB + 4 bytes of `x`, then a newline. Each
    // line is read up to the limit once (it could be an answer), and
    // dropped there: three of them fit in 1.5 GiB one after the other.
    let project = Project::new(&each_run(
        "head -c 268435460 /dev/zero | tr '\\0' x; printf '\\n'",
    ));
    let run = project.check(3 * GIB / 2, &["--json", "report.json"]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("it wrote a line longer than 268435456 bytes"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("0 passed, 0 failed, 3 errored\n"),
        "{}",
        run.stdout
    );
    // What is kept of the line is a few KiB, in every report.
    let report = fs::read_to_string(project.path("report.json")).expect("the report is written");
    assert!(report.len() < 64 * 1024, "{} bytes", report.len());
    // How many bytes it read before it dropped the line: just past 256 MiB.
    assert!(report.contains("\"offending_bytes\": 26843"), "{report}");
    assert!(run.stdout.len() < 64 * 1024, "{} bytes", run.stdout.len());
}

#[test]
fn a_huge_output_is_cut_in_the_report() {
    // The second output is 20 MB of `x`: judged whole, kept as 8 KiB.
    let project = Project::new(&each_run(
        r#"printf '{"case":"%s","outputs":["run started in chat mode at generation 0\\n","' "$case"; head -c 20000000 /dev/zero | tr '\0' x; printf '"]}\n'"#,
    ));
    let run = project.check(
        2 * GIB,
        &[
            "--json",
            "report.json",
            "--junit",
            "junit.xml",
            "--markdown",
            "summary.md",
        ],
    );
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("0 passed, 3 failed\n"),
        "{}",
        &run.stdout[run.stdout.len().saturating_sub(2000)..]
    );
    assert!(
        run.stdout.contains("… the diff is cut here: "),
        "{}",
        &run.stdout[..run.stdout.len().min(20_000)]
    );
    assert!(
        run.stdout.len() < 3 * 16 * 1024,
        "{} bytes",
        run.stdout.len()
    );
    for file in ["report.json", "junit.xml", "summary.md"] {
        let len = fs::metadata(project.path(file)).expect("written").len();
        assert!(len < 3 * 16 * 1024, "{file}: {len} bytes");
    }
}

#[test]
fn a_crash_while_a_child_holds_stdout_is_a_crash_and_the_child_dies() {
    // Each run: start a sleeper that holds stdout, note it, exit 3.
    let project = Project::new(&each_run(r#"sleep 60 & echo $! >> "$1/children"; exit 3"#));
    let run = project.check(2 * GIB, &["--timeout", "20"]);
    let children = project.children();
    let alive = still_running(&children);
    reap(&alive);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "it exited without answering, while a process it started still held its stdout; it exited with status 3"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("no answer within"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("0 passed, 0 failed, 3 errored\n"),
        "{}",
        run.stdout
    );
    // Told at the crash, not at the timeout: three cases well within one.
    assert!(run.took < Duration::from_secs(15), "{:?}", run.took);
    assert_eq!(children.len(), 3, "{children:?}");
    assert!(alive.is_empty(), "still running: {alive:?}");
}

#[test]
fn nothing_an_implementation_started_outlives_check() {
    // At hello it starts a sleeper away from its pipes; it answers every
    // run `skipped` and exits 0 at bye, leaving the sleeper behind.
    let project = Project::new(&format!(
        "sleep 60 </dev/null >/dev/null 2>&1 & echo $! >> \"$1/children\"\n{}",
        each_run(r#"printf '{"case":"%s","skipped":"not yet"}\n' "$case""#)
    ));
    let run = project.check(2 * GIB, &[]);
    let children = project.children();
    let alive = still_running(&children);
    reap(&alive);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("0 passed, 0 failed, 3 skipped\n"),
        "{}",
        run.stdout
    );
    assert_eq!(children.len(), 1, "{children:?}");
    assert!(alive.is_empty(), "still running: {alive:?}");
}

#[test]
fn an_answer_with_a_key_twice_is_not_an_answer() {
    // `case` twice, the last one right: a reader where the last key wins
    // would pass it.
    let project = Project::new(&each_run(
        r###"printf '{"case":"zzz","case":"%s","outputs":["run started in chat mode at generation 0\\n","## Capabilities\\nmode: chat\\n"]}\n' "$case""###,
    ));
    let run = project.check(2 * GIB, &[]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "it wrote a line that is not JSON (duplicate key \"case\": a key may appear only once in an object at line 1 column 15)"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("0 passed, 0 failed, 3 errored\n"),
        "{}",
        run.stdout
    );
}

/// The honest answer is a pass, so the tests above fail for what they
/// plant, not for the adapter's framing.
#[test]
fn the_sh_adapter_passes_when_honest() {
    let project = Project::new(&each_run(
        r###"printf '{"case":"%s","outputs":["run started in chat mode at generation 0\\n","## Capabilities\\nmode: chat\\n"]}\n' "$case""###,
    ));
    let run = project.check(2 * GIB, &[]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("3 passed, 0 failed\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_signal_to_check_kills_the_implementations_too() {
    // It notes its own pid, then hangs on its first run without reading
    // stdin, so only a kill ends it.
    let project = Project::new(&format!(
        "echo $$ >> \"$1/children\"\n{}",
        each_run("sleep 60")
    ));
    let adapter = format!(
        "sh {} {}",
        project.path("adapter.sh").display(),
        project.dir.path().display()
    );
    let mut check = Command::new(DISCLOSE)
        .args(["check", "--impl", &adapter, "--timeout", "60"])
        .current_dir(project.dir.path())
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("check starts");
    let started = Instant::now();
    while project.children().is_empty() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    // Past its hello, into the first run.
    std::thread::sleep(Duration::from_millis(300));
    let children = project.children();
    let _ = Command::new("kill")
        .args(["-INT", &check.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = check.try_wait().expect("check can be waited for") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = check.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(200));
    let alive = still_running(&children);
    reap(&alive);
    assert!(status.is_some(), "check did not end on SIGINT");
    assert_eq!(children.len(), 1, "{children:?}");
    assert!(alive.is_empty(), "still running: {alive:?}");
}
