//! `disclose recall CATALOG QUERIES [CATALOG QUERIES]...`: how often
//! `describe` puts an expected tool among its hits (SPEC §14.3),
//! as a figure CI can gate on.
//!
//! This module owns the files and the exit status: it builds each run from
//! a catalog session (its declarations and `start`; every other op is
//! ignored), reads each task file, and hands both to `disclose-replay`'s
//! [`disclose_replay::recall`], which does the measuring. Every bad input is
//! reported on stderr (`path:line:column: message` where it has a line)
//! and the rest is still measured and reported; then the exit is 2. The
//! reports live in [`report`].

mod report;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use disclose::Run;
use disclose_replay::recall::{self, Summary, Task, TaskRank};
use disclose_replay::session;

use super::{Exit, emit};

/// `disclose recall`.
#[derive(Debug, clap::Args)]
pub struct RecallArgs {
    /// CATALOG QUERIES, once or more: a session file whose declarations and
    /// `start` build the run (its other ops are ignored), then a JSON Lines
    /// file of tasks, `{"query": "…", "expect": ["name", …]}` per line.
    #[arg(required = true, value_name = "CATALOG QUERIES")]
    pub files: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,
    /// Print the report as Markdown (for a CI step summary).
    #[arg(long)]
    pub markdown: bool,
    /// Exit 1 when hit@8 over every task is below PERCENT (0 to 100).
    #[arg(long, value_name = "PERCENT", value_parser = percent)]
    pub min_hit8: Option<f64>,
}

fn percent(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("\"{text}\" is not a percentage from 0 to 100")),
    }
}

/// One catalog and its task file, measured.
pub struct TaskFile {
    /// The catalog session's path, as given.
    pub catalog: PathBuf,
    /// The task file's path, as given.
    pub queries: PathBuf,
    /// The tasks that were read.
    pub tasks: Vec<Task>,
}

/// Runs `disclose recall`.
pub fn run(args: &RecallArgs) -> Result<Exit> {
    if !args.files.len().is_multiple_of(2) {
        bail!(
            "recall takes CATALOG QUERIES pairs, but {} paths were given; the last, \"{}\", has no partner",
            args.files.len(),
            args.files[args.files.len() - 1].display()
        );
    }
    let mut errors = Vec::new();
    let mut measured = Vec::new();
    for pair in args.files.chunks(2) {
        let (catalog, queries) = (&pair[0], &pair[1]);
        match (started(catalog), tasks(queries)) {
            (Ok(run), Ok((tasks, bad))) => measured.push((
                run,
                bad,
                TaskFile {
                    catalog: catalog.clone(),
                    queries: queries.clone(),
                    tasks,
                },
            )),
            (run, tasks) => errors.extend(run.err().into_iter().chain(tasks.err())),
        }
    }
    let mut results: Vec<(&TaskFile, Vec<TaskRank>)> = Vec::with_capacity(measured.len());
    for (run, bad, pair) in &measured {
        let (outcomes, unmeasured) = recall::measure(run, &pair.tasks);
        // One file's errors in file order, whichever stage found them.
        let mut located: Vec<&recall::TaskError> = bad.iter().chain(&unmeasured).collect();
        located.sort_by_key(|e| (e.line, e.column));
        errors.extend(
            located
                .into_iter()
                .map(|e| format!("{}:{e}", pair.queries.display())),
        );
        results.push((pair, outcomes));
    }
    for error in &errors {
        eprintln!("{error}");
    }
    let overall = Summary::of(results.iter().flat_map(|(_, outcomes)| outcomes));
    let verdict = args.min_hit8.map(|min| Hit8Gate {
        min,
        pass: overall.hit8 as f64 * 100.0 >= min * overall.queries as f64,
    });
    let text = if args.json {
        report::json(&results, &overall, verdict, errors.len())
    } else if args.markdown {
        report::markdown(&results, &overall, verdict)
    } else {
        report::human(&results, &overall, verdict)
    };
    emit(&text)?;
    Ok(if !errors.is_empty() {
        Exit::Usage
    } else if verdict.is_some_and(|v| !v.pass) {
        Exit::Fail
    } else {
        Exit::Pass
    })
}

/// `--min-hit8`, and whether the overall hit@8 meets it.
#[derive(Clone, Copy, Debug)]
pub struct Hit8Gate {
    /// The threshold, in percent.
    pub min: f64,
    /// hit@8 ≥ min.
    pub pass: bool,
}

/// The run a catalog session starts, or what is wrong with the file.
fn started(path: &Path) -> Result<Run, String> {
    let bytes = read(path)?;
    let session = session::parse(&bytes).map_err(|e| format!("{}:{e}", path.display()))?;
    recall::started(&session).ok_or_else(|| {
        format!(
            "{}: the session never starts; recall needs its {{\"op\":\"start\",…}} line to know what the run is offered",
            path.display()
        )
    })
}

/// A task file's tasks and bad lines, or why it could not be used at all.
fn tasks(path: &Path) -> Result<(Vec<Task>, Vec<recall::TaskError>), String> {
    let bytes = read(path)?;
    let (tasks, errors) = recall::parse(&bytes);
    if tasks.is_empty() && errors.is_empty() {
        return Err(format!(
            "{}: no tasks; write one {{\"query\": \"…\", \"expect\": [\"name\", …]}} per line",
            path.display()
        ));
    }
    Ok((tasks, errors))
}

/// The file's bytes, or `disclose: failed to read "…": …`.
fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path)
        .with_context(|| format!("failed to read \"{}\"", path.display()))
        .map_err(|e| format!("disclose: {e:#}"))
}
