//! `disclose fuzz` through its command line: the seed and the throughput
//! line, determinism, a mutant caught and saved as a corpus session, and
//! usage errors.
//!
//! A mutant is planted in the library only in a build with the `mutants`
//! feature, so the tests that need one run under
//! `cargo test --features mutants --test cli_fuzz` (as `.ci/run` does);
//! without the feature, `--mutant` must be a usage error saying so.

mod common;

use common::{disclose, stdout};
#[cfg(feature = "mutants")]
use std::path::Path;

/// Whether `line` is `N cases in X.XXs (Y cases/s)` for this `n`.
fn is_throughput(line: &str, n: u64) -> bool {
    let Some(rest) = line.strip_prefix(&format!("{n} cases in ")) else {
        return false;
    };
    let Some((secs, rate)) = rest.split_once("s (") else {
        return false;
    };
    let decimals = secs.split_once('.').map(|(_, d)| d.len());
    secs.parse::<f64>().is_ok()
        && decimals == Some(2)
        && rate
            .strip_suffix(" cases/s)")
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
}

/// Everything but the last line (the only one that depends on the clock).
fn without_timing(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines[..lines.len() - 1].to_vec()
}

#[test]
fn a_passing_run_prints_the_seed_first_and_the_throughput_last() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("never");
    let output = disclose(&[
        "fuzz",
        "--cases",
        "200",
        "--seed",
        "7",
        "--save",
        save.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&"disclose fuzz: seed 7, 200 cases"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("checked 200 sessions: ")),
        "{text}"
    );
    assert!(
        lines.last().is_some_and(|l| is_throughput(l, 200)),
        "{text}"
    );
    // Nothing failed, so nothing was written.
    assert!(!save.exists());
}

#[test]
fn the_same_seed_gives_the_same_output() {
    let run = || stdout(&disclose(&["fuzz", "--cases", "200", "--seed", "7"]));
    let (first, second) = (run(), run());
    assert_eq!(without_timing(&first), without_timing(&second));
    assert_eq!(without_timing(&first).len(), 3, "{first}");
}

#[cfg(feature = "mutants")]
#[test]
fn a_mutant_is_caught_shrunk_and_saved_as_a_corpus_session() {
    let dir = tempfile::tempdir().expect("tempdir");
    let save = dir.path().join("fuzz");
    let save_arg = save.to_str().expect("UTF-8 path");
    let args = [
        "fuzz",
        "--seed",
        "1",
        "--mutant",
        "marker-budget",
        "--save",
        save_arg,
    ];
    let output = disclose(&args);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let file = save.join("I1_1.jsonl");
    assert!(file.is_file(), "{text}");
    assert!(text.contains("FAILED I1 (every dormant index is at most 1024 bytes) on case "));
    assert!(text.contains(&format!("replay:    disclose replay {}", file.display())));

    // The header names the broken invariant and the seed.
    let session = std::fs::read_to_string(&file).expect("saved");
    let header: serde_json::Value =
        serde_json::from_str(session.lines().next().expect("a header")).expect("JSON");
    let about = header["about"].as_str().expect("about");
    assert!(about.starts_with("fuzz: I1 ("), "{about}");
    assert!(about.contains("broke on seed 1 case "), "{about}");
    assert_eq!(text.matches(session.as_str()).count(), 1, "printed once");

    // It is an ordinary session: `disclose replay` prints its transcript.
    let replayed = disclose(&["replay", file.to_str().expect("UTF-8 path")]);
    assert_eq!(replayed.status.code(), Some(0));
    assert!(stdout(&replayed).starts_with("disclose transcript 1\n"));

    // The printed command reproduces the same failure.
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("reproduce: disclose "))
        .expect("a reproduce line");
    let again_dir = dir.path().join("again");
    let mut again: Vec<&str> = line.split(' ').collect();
    again.extend(["--save", again_dir.to_str().expect("UTF-8 path")]);
    let output = disclose(&again);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(again_dir.join("I1_1.jsonl")).expect("saved again"),
        session
    );
}

#[test]
fn a_time_budget_without_cases_runs_and_reports() {
    let output = disclose(&["fuzz", "--time", "1", "--seed", "5"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.starts_with("disclose fuzz: seed 5, at most 1s\n"),
        "{text}"
    );
}

#[cfg(not(feature = "mutants"))]
#[test]
fn without_the_feature_a_mutant_is_a_usage_error_saying_how_to_get_one() {
    let output = disclose(&["fuzz", "--seed", "7", "--mutant", "marker-budget"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains(
            "built without mutants; run `cargo run --features mutants -- fuzz --mutant NAME`"
        ),
        "{err}"
    );
}

#[cfg(feature = "mutants")]
#[test]
fn every_mutant_is_caught_and_named_in_the_header() {
    for (name, check) in [
        ("marker-budget", None),
        ("integral-float", Some("fit")),
        ("hint-cut", Some("hint")),
        ("no-idf", Some("describe")),
        ("nondeterministic", Some("I3")),
        ("no-cjk-split", Some("describe")),
        ("cjk-vectors", Some("describe")),
        ("unscaled-cosine", Some("describe")),
        ("cjk-by-presence", Some("describe")),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let save = dir.path().to_str().expect("UTF-8 path");
        let output = disclose(&["fuzz", "--seed", "1", "--mutant", name, "--save", save]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let text = stdout(&output);
        assert!(
            text.lines().next().is_some_and(|l| l.starts_with(&format!(
                "disclose fuzz: seed 1, 10000 cases, mutant {name} ("
            ))),
            "{text}"
        );
        if let Some(check) = check {
            assert!(text.contains(&format!("FAILED {check} (")), "{text}");
        }
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["fuzz", "--cases", "many"][..],
        &["fuzz", "--cases", "0"],
        &["fuzz", "--seed", "-1"],
        &["fuzz", "--time", "0"],
        &["fuzz", "--mutant", "nope"],
        &["fuzz", "--frobnicate"],
    ] {
        let output = disclose(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!err.is_empty(), "{args:?}");
    }
}

#[cfg(feature = "mutants")]
#[test]
fn an_unwritable_save_dir_is_an_io_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "not a directory").expect("write");
    let save = blocker.join("fuzz");
    let output = disclose(&[
        "fuzz",
        "--seed",
        "7",
        "--mutant",
        "marker-budget",
        "--save",
        save.to_str().expect("UTF-8 path"),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.starts_with("disclose: failed to create "), "{err}");
    assert!(!Path::new(&save).exists());
}
