//! The runner of `disclose check --impl CMD`: the corpus run through other
//! implementations over the protocol of `docs/protocol.md`, each judged
//! against the goldens byte for byte. This module resolves the command
//! line ([`MatrixConfig`]), starts the threads, gathers one [`ImplRun`] per
//! implementation into the [`MatrixReport`], and sets the exit status.
//!
//! Each implementation is started once and kept for the whole corpus, in a
//! thread of its own ([`drive`]), so several implementations run side by
//! side. One more thread reads and parses every session and its golden
//! ahead, once for all of them ([`prepare`]); they stay within
//! [`LOOKAHEAD`] cases of one another (a slow one holds the preparer back,
//! and the others wait for it; the total time is the slowest one's either
//! way). Each implementation's thread sends case k+1 as soon as answer k
//! has been read and found to be an answer, and judges answer k against
//! its golden only then ([`judge`]). One run is in flight per process, as
//! `docs/protocol.md` says; outcomes land in corpus order whatever the
//! overlap (docs/decisions.md, "`check --impl` overlaps the harness's work
//! with the implementation's, one run in flight"). A crash, a hang, a line
//! that is not JSON or not one of the three answers, or an answer for
//! another case errs that case: the process ([`process`]) is killed and
//! restarted, and the run goes on. Malformed sessions and missing goldens
//! are corpus errors and are never sent.
//!
//! Nothing here judges the library in this crate: orphans, the vocabulary
//! and I1–I8 are the in-process `check`'s.

mod drive;
mod judge;
mod prepare;
pub mod process;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use super::expect::{self, Expectation, Expectations};
use super::protocol::HelloReply;
use super::report::MatrixReport;
use crate::cli::check::Partition;
use crate::cli::corpus::{self, SessionFile};
use crate::cli::format::markdown::Whole;
use crate::cli::format::{json, write_file};
use crate::cli::term::{Annotations, Paint, Progress};
use crate::cli::{Exit, emit_report};
use process::{Settings, Trouble};

/// The default `--timeout`.
pub const DEFAULT_TIMEOUT: f64 = 10.0;

/// How many prepared cases may wait for each implementation: enough that
/// the next case is always ready when an answer arrives, few enough that a
/// corpus of any size is never all in memory.
const LOOKAHEAD: usize = 8;

/// What `check --impl` was asked to do.
pub struct MatrixConfig<'a> {
    /// The corpus directory.
    pub dir: &'a Path,
    /// The golden directory.
    pub golden: &'a Path,
    /// Each `--impl`, as given.
    pub commands: &'a [String],
    /// Each `--expect`, in `--impl` order.
    pub expect: &'a [PathBuf],
    /// `--timeout`, in seconds.
    pub timeout: Option<f64>,
    /// `--validate-protocol`.
    pub validate: bool,
    /// `--partition`.
    pub partition: Option<Partition>,
    /// `--json FILE`.
    pub json: Option<&'a Path>,
    /// `--junit FILE`.
    pub junit: Option<&'a Path>,
    /// `--summary FILE` (`--markdown FILE`).
    pub markdown: Option<&'a Path>,
    /// How the in-process check blesses this corpus (a missing golden says
    /// so).
    pub bless_command: &'a str,
    /// Whether cells that are not ok are also annotations on stdout.
    pub annotations: Annotations,
}

/// One case on one implementation: what happened, before expectations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseOutcome {
    /// The transcript is the golden's, byte for byte.
    Pass,
    /// The transcript differs from the golden.
    Fail {
        /// The first differing block's op line.
        line: Option<usize>,
        /// Its op.
        op: Option<String>,
        /// What differs.
        message: String,
        /// The first differing block's diff, invisible bytes visible.
        diff: String,
    },
    /// The implementation answered `skipped`.
    Skipped(String),
    /// The implementation answered `errored`, or broke the protocol.
    Errored(Trouble),
    /// The implementation never ran it (its `hello` failed, or it could not
    /// be restarted); the implementation's problem says why.
    NotRun,
    /// The session cannot be run anywhere: malformed, or without a golden.
    Corpus(String),
    /// The session or its golden could not be read (exit 2).
    Io(String),
}

/// One implementation's run.
pub struct ImplRun {
    /// `--impl` as given.
    pub command: String,
    /// Its stable id in reports: the hello name, made unique.
    pub id: String,
    /// Its hello reply, when it gave a usable one.
    pub hello: Option<HelloReply>,
    /// Why some or all of its cases were not run.
    pub problem: Option<String>,
    /// Its `--expect`.
    pub expectations: Expectations,
    /// One per case, in corpus order.
    pub outcomes: Vec<CaseOutcome>,
    /// Entries of its expectations naming no session of the corpus.
    pub stale: Vec<(String, Expectation)>,
    /// What it did wrong outside any case (at `bye`).
    pub warnings: Vec<String>,
    /// How many times it was restarted.
    pub restarts: usize,
    /// Whether it could not even be started (an I/O error, exit 2).
    pub unstartable: bool,
}

/// Runs `check --impl` (on Unix: elsewhere a usage error that says why,
/// [`process::NEEDS_UNIX`]).
pub fn run(config: &MatrixConfig<'_>) -> Result<Exit> {
    if cfg!(not(unix)) {
        bail!(process::NEEDS_UNIX);
    }
    let timeout = config.timeout.unwrap_or(DEFAULT_TIMEOUT);
    let timeout = Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .with_context(|| format!("--timeout takes a positive number of seconds, not {timeout}"))?;
    let settings = Settings {
        timeout,
        validate: config.validate,
    };
    if !config.expect.is_empty() && config.expect.len() != config.commands.len() {
        bail!(
            "--expect is given {} times for {} --impl; give one per --impl, in the same order (an empty file for none)",
            config.expect.len(),
            config.commands.len()
        );
    }
    let mut argvs = Vec::new();
    for command in config.commands {
        let argv = shlex::split(command)
            .filter(|argv| !argv.is_empty())
            .with_context(|| {
                format!("--impl \"{command}\" is not a command (empty, or an unclosed quote)")
            })?;
        argvs.push(argv);
    }
    // An expectations file that cannot be read or does not read as one is
    // a usage error, told after the report (docs/protocol.md: the report
    // is still printed first); that implementation runs without it.
    let mut expect_errors = Vec::new();
    let mut expectations = Vec::new();
    for i in 0..config.commands.len() {
        expectations.push(match config.expect.get(i).map(|path| expect::load(path)) {
            Some(Ok(loaded)) => loaded,
            Some(Err(error)) => {
                expect_errors.push(error);
                Expectations::default()
            }
            None => Expectations::default(),
        });
    }
    let corpus::Corpus { files, unreadable } = corpus::discover(config.dir)?;
    if files.is_empty() {
        bail!(
            "no sessions (*.jsonl) under \"{}\"; an empty corpus checks nothing",
            config.dir.display()
        );
    }
    let mine: Vec<&SessionFile> = files
        .iter()
        .filter(|f| config.partition.is_none_or(|p| p.holds(f.name())))
        .collect();

    let total = mine.len() * argvs.len();
    let progress = Progress::bar(total as u64, "cases", total > 1);
    let mut runs: Vec<ImplRun> = std::thread::scope(|scope| {
        let (senders, receivers): (Vec<_>, Vec<_>) =
            argvs.iter().map(|_| mpsc::sync_channel(LOOKAHEAD)).unzip();
        let (mine, settings, progress) = (&mine, &settings, &progress);
        let preparer = scope.spawn(move || {
            prepare::prepare_all(
                mine,
                config.golden,
                config.bless_command,
                settings,
                &senders,
            )
        });
        let handles: Vec<_> = argvs
            .iter()
            .zip(config.commands)
            .zip(expectations)
            .zip(receivers)
            .map(|(((argv, command), expectations), prepared)| {
                scope.spawn(move || {
                    drive::drive(
                        command,
                        argv,
                        expectations,
                        mine,
                        &prepared,
                        settings,
                        progress,
                    )
                })
            })
            .collect();
        let runs = handles
            .into_iter()
            .zip(config.commands)
            .map(|(handle, command)| handle.join().unwrap_or_else(|_| ImplRun::broken(command)))
            .collect();
        // Joined here so that a panic in it does not end the harness: each
        // run already reported the cases it never got, as I/O errors.
        let _ = preparer.join();
        runs
    });
    progress.finish();

    let names: std::collections::BTreeSet<&str> = files.iter().map(SessionFile::name).collect();
    for run in &mut runs {
        run.stale = run
            .expectations
            .entries
            .iter()
            .filter(|(case, _)| !names.contains(case.as_str()))
            .map(|(case, entry)| (case.clone(), entry.clone()))
            .collect();
    }
    name_runs(&mut runs);
    let report = MatrixReport {
        cases: mine
            .iter()
            .map(|f| (f.name().to_string(), f.path.display().to_string()))
            .collect(),
        runs,
        corpus: config.dir.display().to_string(),
        golden: config.golden.display().to_string(),
        partition: config.partition.map(|p| p.to_string()),
    };
    let human = report.human(Paint::detect());
    emit_report(&human, config.annotations, || report.annotations())?;
    for run in &report.runs {
        for warning in &run.warnings {
            eprintln!("disclose: {}: {warning}", run.id);
        }
    }
    let io: Vec<&str> = report.io_errors().collect();
    for error in &io {
        eprintln!("disclose: {error}");
    }
    for error in &expect_errors {
        eprintln!("disclose: {error:#}; its implementation was judged without it");
    }
    // Corpus entries that could not be used ran nowhere: one error each,
    // after the report, as the in-process check says them.
    for entry in &unreadable {
        eprintln!("disclose: {entry}");
    }
    if let Some(path) = config.json {
        write_file(path, json::pretty(&report.json()).as_bytes())?;
    }
    if let Some(path) = config.junit {
        let xml = report
            .junit()
            .context("failed to serialize the JUnit report")?;
        write_file(path, xml.as_bytes())?;
    }
    if let Some(path) = config.markdown {
        let whole = Whole {
            json: config.json,
            junit: config.junit,
        };
        write_file(path, report.markdown(&whole).as_bytes())?;
    }
    Ok(
        if !io.is_empty()
            || !expect_errors.is_empty()
            || !unreadable.is_empty()
            || report.runs.iter().any(|r| r.unstartable)
        {
            Exit::Usage
        } else if report.all_good() {
            Exit::Pass
        } else {
            Exit::Fail
        },
    )
}

impl ImplRun {
    /// A run whose thread died (a bug in the harness, reported, not lost).
    fn broken(command: &str) -> ImplRun {
        ImplRun {
            command: command.to_string(),
            id: String::new(),
            hello: None,
            problem: Some(
                "the harness thread running it panicked; its cases were not judged".into(),
            ),
            expectations: Expectations::default(),
            outcomes: Vec::new(),
            stale: Vec::new(),
            warnings: Vec::new(),
            restarts: 0,
            unstartable: false,
        }
    }
}

/// Ids: the hello name, else the program's file name; a name taken by an
/// earlier implementation gets `#2`, `#3`, ….
fn name_runs(runs: &mut [ImplRun]) {
    let mut taken: Vec<String> = Vec::new();
    for run in runs.iter_mut() {
        let base = match &run.hello {
            Some(hello) => hello.implementation.name.clone(),
            None => shlex::split(&run.command)
                .and_then(|argv| argv.into_iter().next())
                .and_then(|program| {
                    Path::new(&program)
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                })
                .unwrap_or_else(|| run.command.clone()),
        };
        let mut id = base.clone();
        let mut n = 1;
        while taken.contains(&id) {
            n += 1;
            id = format!("{base}#{n}");
        }
        taken.push(id.clone());
        run.id = id;
    }
}
