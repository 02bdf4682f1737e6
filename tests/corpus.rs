//! The shipped corpus as tests: one trial per `corpora/**/*.jsonl`, named by
//! its path without extension (`cargo test --test corpus -- hint_cut` runs
//! the sessions whose names hold `hint_cut`; nextest lists and shards them).
//!
//! Each trial parses its session, replays it, compares the transcript byte
//! for byte with `golden/<name>.txt` and checks invariants I1–I8 — what
//! `disclose check` does for one session. Three more trials hold the
//! corpus-wide rules: the corpus is not empty, the vocabulary golden matches
//! `disclose vocab`, and no golden is an orphan.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use disclose_replay::replay::replay;
use disclose_replay::{golden, invariants, session, transcript};
use libtest_mimic::{Arguments, Failed, Trial};
use walkdir::WalkDir;

const BLESS: &str = "cargo run --release -- check --bless";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `root`'s files ending in `.ext`, as (name without extension, path), by
/// name. A missing directory has none.
fn files(root: &Path, ext: &str) -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = WalkDir::new(root)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == ext))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let name = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            Some((name, e.path().to_path_buf()))
        })
        .collect();
    found.sort();
    found
}

fn main() {
    let args = Arguments::from_args();
    let corpora = root().join("corpora");
    let goldens = root().join("golden");
    let sessions = files(&corpora, "jsonl");

    let mut trials = Vec::with_capacity(sessions.len() + 3);
    let count = sessions.len();
    trials.push(Trial::test("corpus_is_not_empty", move || {
        if count == 0 {
            return Err(format!(
                "no sessions under {}; an empty corpus checks nothing",
                root().join("corpora").display()
            )
            .into());
        }
        Ok(())
    }));
    let vocabulary = goldens.join("vocabulary.txt");
    trials.push(Trial::test("vocabulary", move || {
        let expected = read_golden(&vocabulary)?;
        match golden::compare_bytes(&expected, disclose::vocabulary_text().as_bytes()) {
            None => Ok(()),
            Some(mismatch) => Err(format!(
                "`disclose vocab` differs from {}\n{}to bless: {BLESS}",
                vocabulary.display(),
                mismatch.diff
            )
            .into()),
        }
    }));
    let names: BTreeSet<String> = sessions.iter().map(|(name, _)| name.clone()).collect();
    let golden_root = goldens.clone();
    trials.push(Trial::test("orphan_goldens", move || {
        let orphans: Vec<String> = files(&golden_root, "txt")
            .into_iter()
            .filter(|(name, _)| name != "vocabulary" && !names.contains(name))
            .map(|(_, path)| path.display().to_string())
            .collect();
        if orphans.is_empty() {
            return Ok(());
        }
        Err(format!(
            "goldens with no session (blessing deletes them; to bless: {BLESS}):\n{}",
            orphans.join("\n")
        )
        .into())
    }));
    for (name, path) in sessions {
        let golden_path = goldens.join(format!("{name}.txt"));
        trials.push(Trial::test(name, move || check(&path, &golden_path)));
    }
    libtest_mimic::run(&args, trials).exit();
}

fn read_golden(path: &Path) -> Result<Vec<u8>, Failed> {
    std::fs::read(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("no golden {}; bless it with `{BLESS}`", path.display()).into()
        } else {
            format!("failed to read {}: {e}", path.display()).into()
        }
    })
}

/// One session, as `disclose check` checks it.
fn check(path: &Path, golden_path: &Path) -> Result<(), Failed> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("failed to read {}: {e}", path.display()))?;
    let session = session::parse(&bytes).map_err(|e| format!("{}:{e}", path.display()))?;
    let replayed = replay(&session);
    let actual = transcript::encode(&replayed.steps);
    let mut problems = String::new();
    match read_golden(golden_path) {
        Ok(expected) => {
            if let Some(mismatch) = golden::compare(&expected, actual.as_bytes()) {
                let at = mismatch
                    .block
                    .map_or(String::new(), |b| format!("line {} ({}): ", b.line, b.op));
                let _ = writeln!(
                    problems,
                    "{}: {at}the transcript differs from {}",
                    path.display(),
                    golden_path.display()
                );
                if let Some(why) = mismatch.undecodable {
                    let _ = writeln!(
                        problems,
                        "(the golden is not a well-formed transcript: {why})"
                    );
                }
                problems.push_str(&mismatch.diff);
                let _ = writeln!(problems, "to bless: {BLESS}");
            }
        }
        Err(failed) => {
            let _ = writeln!(problems, "{}", failed.message().unwrap_or("no golden"));
        }
    }
    for breach in invariants::check(&session, &replayed) {
        let _ = writeln!(
            problems,
            "{}:{}: {} broken: {}",
            path.display(),
            breach.line,
            breach.invariant,
            breach.message
        );
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.into())
    }
}
