//! `disclose check --impl CMD`: the corpus run through other
//! implementations over the protocol of `docs/protocol.md`, each judged
//! against the goldens byte for byte.
//!
//! Each implementation is started once and kept for the whole corpus, in a
//! thread of its own, so several implementations run side by side. For
//! each session that parses, the harness sends its op objects, frames the
//! `outputs` it gets back into a SPEC §12 transcript with the op lines from
//! the file, and compares that with the golden exactly as `check` does.
//!
//! The harness works while the implementation does: one more thread reads
//! and parses every session and its golden ahead, once for all the
//! implementations (so they stay within `LOOKAHEAD` cases of one another:
//! a slow one holds the preparer back, and the others wait for it; the
//! total time is the slowest one's either way), and each implementation's
//! thread sends case k+1 as
//! soon as answer k has been read and found to be an answer, and judges
//! answer k against its golden only then. One run is in flight per
//! process, as `docs/protocol.md` says; outcomes land in corpus order
//! whatever the overlap (docs/decisions.md, "check --impl overlaps"). A
//! crash, a hang, a line that is not JSON or not one of the three answers,
//! or an answer for another case errs that case: the process is killed and
//! restarted, and the run goes on. Malformed sessions and missing goldens
//! are corpus errors and are never sent. Nothing here judges the library
//! in this crate: orphans, the vocabulary and I1–I8 are the in-process
//! `check`'s.

mod expect;
mod process;
mod report;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use disclose_replay::replay::{Outcome as StepOutcome, Step};
use disclose_replay::session::{self, Session};
use disclose_replay::{golden, transcript};

use super::partition::Partition;
use crate::cli::corpus::{self, SessionFile};
use crate::cli::files::{FileError, GoldenTree, read_regular};
use crate::cli::protocol::{self, Answer, HelloReply, Kind};
use crate::cli::term::{Paint, Progress};
use crate::cli::{Exit, emit};
pub use expect::{Expect, Expectation, Expectations};
use process::{KEPT_MAX, Message, Process, Settings, Trouble, kept, own_trouble};
use report::Report;

/// The default `--timeout`.
pub const DEFAULT_TIMEOUT: f64 = 10.0;

/// How many prepared cases may wait for each implementation: enough that
/// the next case is always ready when an answer arrives, few enough that a
/// corpus of any size is never all in memory.
const LOOKAHEAD: usize = 8;

/// What `check --impl` was asked to do.
pub struct Request<'a> {
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
}

/// One case on one implementation: what happened, before expectations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
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
pub struct Run {
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
    pub outcomes: Vec<Outcome>,
    /// Entries of its expectations naming no session of the corpus.
    pub stale: Vec<(String, Expectation)>,
    /// What it did wrong outside any case (at `bye`).
    pub warnings: Vec<String>,
    /// How many times it was restarted.
    pub restarts: usize,
    /// Whether it could not even be started (an I/O error, exit 2).
    pub unstartable: bool,
}

/// Runs `check --impl`.
pub fn run(request: &Request<'_>) -> Result<Exit> {
    let timeout = request.timeout.unwrap_or(DEFAULT_TIMEOUT);
    let timeout = Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .with_context(|| format!("--timeout takes a positive number of seconds, not {timeout}"))?;
    let settings = Settings {
        timeout,
        validate: request.validate,
    };
    if !request.expect.is_empty() && request.expect.len() != request.commands.len() {
        bail!(
            "--expect is given {} times for {} --impl; give one per --impl, in the same order (an empty file for none)",
            request.expect.len(),
            request.commands.len()
        );
    }
    let mut argvs = Vec::new();
    for command in request.commands {
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
    for i in 0..request.commands.len() {
        expectations.push(match request.expect.get(i).map(|path| expect::load(path)) {
            Some(Ok(loaded)) => loaded,
            Some(Err(error)) => {
                expect_errors.push(error);
                Expectations::default()
            }
            None => Expectations::default(),
        });
    }
    let corpus::Corpus { files, unreadable } = corpus::discover(request.dir)?;
    if files.is_empty() {
        bail!(
            "no sessions (*.jsonl) under \"{}\"; an empty corpus checks nothing",
            request.dir.display()
        );
    }
    let mine: Vec<&SessionFile> = files
        .iter()
        .filter(|f| request.partition.is_none_or(|p| p.holds(f.name())))
        .collect();

    let total = mine.len() * argvs.len();
    let progress = Progress::bar(total as u64, "cases", total > 1);
    let mut runs: Vec<Run> = std::thread::scope(|scope| {
        let (senders, receivers): (Vec<_>, Vec<_>) =
            argvs.iter().map(|_| mpsc::sync_channel(LOOKAHEAD)).unzip();
        let (mine, settings, progress) = (&mine, &settings, &progress);
        let preparer = scope.spawn(move || prepare_all(mine, request.golden, settings, &senders));
        let handles: Vec<_> = argvs
            .iter()
            .zip(request.commands)
            .zip(expectations)
            .zip(receivers)
            .map(|(((argv, command), expectations), prepared)| {
                scope.spawn(move || {
                    drive(
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
            .zip(request.commands)
            .map(|(handle, command)| handle.join().unwrap_or_else(|_| Run::broken(command)))
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
    let report = Report {
        cases: mine
            .iter()
            .map(|f| (f.name().to_string(), f.path.display().to_string()))
            .collect(),
        runs,
        corpus: request.dir.display().to_string(),
        golden: request.golden.display().to_string(),
        partition: request.partition.map(|p| p.to_string()),
    };
    emit(&report.human(Paint::detect()))?;
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
    if let Some(path) = request.json {
        let text = serde_json::to_string_pretty(&report.json())?;
        super::write_file(path, format!("{text}\n").as_bytes())?;
    }
    if let Some(path) = request.junit {
        let xml = report
            .junit()
            .context("failed to serialize the JUnit report")?;
        super::write_file(path, xml.as_bytes())?;
    }
    if let Some(path) = request.markdown {
        super::write_file(path, report.markdown().as_bytes())?;
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

impl Run {
    /// A run whose thread died (a bug in the harness, reported, not lost).
    fn broken(command: &str) -> Run {
        Run {
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
fn name_runs(runs: &mut [Run]) {
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

/// A session ready to send: the run message, the op lines and names that
/// frame the answer, and the golden it must equal.
struct Prepared {
    message: String,
    /// With `--validate-protocol`, why the message breaks its own schema.
    invalid: Option<String>,
    frame: Vec<(usize, &'static str)>,
    golden_path: PathBuf,
    golden: Vec<u8>,
}

/// A case as prepared, handed to every implementation's run.
#[derive(Clone)]
enum Prep {
    Ready(Arc<Prepared>),
    Corpus(String),
    Io(String),
}

/// Prepares every case, in corpus order, and hands each to every
/// implementation's run. A full channel holds this thread back until that
/// run catches up; a run that is gone (its thread panicked) is skipped.
fn prepare_all(
    cases: &[&SessionFile],
    golden_dir: &Path,
    settings: &Settings,
    runs: &[SyncSender<Prep>],
) {
    let tree = GoldenTree::new(golden_dir);
    for file in cases {
        let prep = prepare(file, &tree, settings);
        let mut anyone = false;
        for run in runs {
            anyone |= run.send(prep.clone()).is_ok();
        }
        if !anyone {
            return;
        }
    }
}

/// Reads a session and its golden. Only a session that parses is sent; its
/// ops go out as the file's own text, one object per op.
fn prepare(file: &SessionFile, tree: &GoldenTree, settings: &Settings) -> Prep {
    let bytes = match read_regular(&file.path, u64::MAX, "a session") {
        Ok(bytes) => bytes,
        Err(e) => return Prep::Io(format!("failed to read \"{}\": {e}", file.path.display())),
    };
    let session = match session::parse(&bytes) {
        Ok(session) => session,
        Err(error) => {
            return Prep::Corpus(format!(
                "{}:{error} (a malformed session is sent to no implementation)",
                file.path.display()
            ));
        }
    };
    let golden_rel = file.golden_rel();
    let golden_path = tree.shown(&golden_rel);
    if file.name() == "vocabulary" {
        return Prep::Corpus(format!(
            "its golden would be \"{}\", which holds the vocabulary; rename the session",
            golden_path.display()
        ));
    }
    // A regular file of at most the golden limit, never through a link in
    // the golden tree, as the in-process check reads it.
    let golden = match tree.read(&golden_rel) {
        Ok(golden) => golden,
        Err(FileError::Missing) => {
            return Prep::Corpus(format!(
                "no golden \"{}\"; bless it with the in-process check (`{}`)",
                golden_path.display(),
                super::BLESS_COMMAND
            ));
        }
        Err(e) => {
            return Prep::Io(format!("failed to read \"{}\": {e}", golden_path.display()));
        }
    };
    // The parser accepted the file, so it is UTF-8, and its non-blank
    // lines after the header are exactly the session's ops, in order.
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<(usize, &str)> = text
        .split('\n')
        .enumerate()
        // Blank as the parser counts it (SPEC §0.1's whitespace); an op is
        // sent without the JSON whitespace around it.
        .filter(|(_, raw)| !raw.trim().is_empty())
        .map(|(i, raw)| (i + 1, raw.trim_matches([' ', '\t', '\r'])))
        .skip(1)
        .collect();
    if !same_ops(&session, &lines) {
        return Prep::Corpus(format!(
            "{}: its lines and its parsed ops do not line up (a harness bug)",
            file.path.display()
        ));
    }
    // A `\r` between tokens is JSON whitespace, but a reader with universal
    // newlines would split the message there: send such an op re-encoded.
    let reencoded: Vec<String> = lines
        .iter()
        .filter(|(_, raw)| raw.contains('\r'))
        .map(|(_, raw)| {
            serde_json::from_str::<serde_json::Value>(raw)
                .map_or_else(|_| raw.to_string(), |v| v.to_string())
        })
        .collect();
    let mut reencoded = reencoded.iter();
    let ops: Vec<&str> = lines
        .iter()
        .map(|(_, raw)| {
            if raw.contains('\r') {
                reencoded.next().map_or(*raw, String::as_str)
            } else {
                raw
            }
        })
        .collect();
    let message = protocol::run(file.name(), &ops);
    Prep::Ready(Arc::new(Prepared {
        invalid: own_trouble(&message, Kind::Run, settings),
        message,
        frame: session
            .ops()
            .iter()
            .map(|op| (op.line, op.kind.name()))
            .collect(),
        golden_path,
        golden,
    }))
}

fn same_ops(session: &Session, lines: &[(usize, &str)]) -> bool {
    session.ops().len() == lines.len()
        && session
            .ops()
            .iter()
            .zip(lines)
            .all(|(op, (line, _))| op.line == *line)
}

/// One implementation through the whole corpus, its cases arriving
/// prepared, in corpus order, on `prepared`.
fn drive(
    command: &str,
    argv: &[String],
    expectations: Expectations,
    cases: &[&SessionFile],
    prepared: &Receiver<Prep>,
    settings: &Settings,
    progress: &Progress,
) -> Run {
    let mut run = Run {
        command: command.to_string(),
        id: String::new(),
        hello: None,
        problem: None,
        expectations,
        outcomes: Vec::with_capacity(cases.len()),
        stale: Vec::new(),
        warnings: Vec::new(),
        restarts: 0,
        unstartable: false,
    };
    let process = match start(argv, settings) {
        Ok((process, hello)) => {
            let follows = hello
                .contract
                .contains(&u64::from(disclose::CONTRACT_VERSION));
            if follows {
                run.hello = Some(hello);
                Some(process)
            } else {
                run.problem = Some(format!(
                    "its hello says it follows contract {:?}; this corpus is blessed against contract {}, so none of its cases were run",
                    hello.contract,
                    disclose::CONTRACT_VERSION
                ));
                run.hello = Some(hello);
                let _ = process.bye(settings);
                None
            }
        }
        Err(Start::Unstartable(why)) => {
            run.unstartable = true;
            run.problem = Some(format!("{why}; none of its cases were run"));
            None
        }
        Err(Start::NoHello(trouble)) => {
            run.problem = Some(hello_trouble(&trouble, "none of its cases were run"));
            None
        }
    };
    let mut driver = Driver {
        argv,
        settings,
        progress,
        usable: process.is_some(),
        process,
        last_errored: None,
        outcomes: vec![None; cases.len()],
        run,
    };
    // The case sent and not yet answered: never more than one.
    let mut in_flight: Option<InFlight> = None;
    for (index, file) in cases.iter().enumerate() {
        let Ok(prep) = prepared.recv() else {
            driver.record(
                index,
                Outcome::Io(format!(
                    "\"{}\" was never prepared: the harness thread reading the corpus stopped (a harness bug)",
                    file.path.display()
                )),
            );
            continue;
        };
        let ready = match prep {
            Prep::Ready(_) if !driver.usable => {
                driver.record(index, Outcome::NotRun);
                continue;
            }
            Prep::Ready(ready) => ready,
            Prep::Corpus(why) => {
                driver.record(index, Outcome::Corpus(why));
                continue;
            }
            Prep::Io(why) => {
                driver.record(index, Outcome::Io(why));
                continue;
            }
        };
        // Answer k is read and checked before case k+1 is sent (whether
        // the process is kept, and its stderr at that answer, must not
        // depend on a later case); it is judged against its golden only
        // after, while the implementation works on case k+1.
        let to_judge = in_flight
            .take()
            .and_then(|flight| driver.collect(flight, cases));
        in_flight = driver.send(index, ready, cases);
        driver.judge(to_judge);
    }
    let last = in_flight.and_then(|flight| driver.collect(flight, cases));
    driver.judge(last);
    let Driver {
        process,
        outcomes,
        mut run,
        ..
    } = driver;
    // Every index was recorded; `NotRun` would show a gap, never hide it.
    run.outcomes = outcomes
        .into_iter()
        .map(|outcome| outcome.unwrap_or(Outcome::NotRun))
        .collect();
    if let Some(process) = process
        && let Some(warning) = process.bye(settings)
    {
        run.warnings.push(warning);
    }
    run
}

/// A case sent and not yet answered.
struct InFlight {
    /// Its place in the corpus.
    index: usize,
    prepared: Arc<Prepared>,
    /// When its run was sent: the timeout runs from here.
    sent: Instant,
}

/// One implementation's run while it goes through the corpus.
struct Driver<'a> {
    argv: &'a [String],
    settings: &'a Settings,
    progress: &'a Progress,
    /// `None` once a case killed it, until the next case restarts it.
    process: Option<Process>,
    /// False once it could not be (re)started: the rest is not run.
    usable: bool,
    /// The last case that killed it, for the restart's message.
    last_errored: Option<&'a str>,
    /// By corpus index; a case in flight has none yet.
    outcomes: Vec<Option<Outcome>>,
    run: Run,
}

impl<'a> Driver<'a> {
    fn record(&mut self, index: usize, outcome: Outcome) {
        self.outcomes[index] = Some(outcome);
        self.progress.step();
    }

    /// Sends case `index`, restarting the process first if the last case
    /// killed it. `None` when it was not sent (its outcome is recorded).
    fn send(
        &mut self,
        index: usize,
        prepared: Arc<Prepared>,
        cases: &[&'a SessionFile],
    ) -> Option<InFlight> {
        if self.process.is_none() {
            self.restart();
        }
        let Some(process) = self.process.as_mut() else {
            self.record(index, Outcome::NotRun);
            return None;
        };
        let sent = match &prepared.invalid {
            Some(why) => Err(process.refuse(why.clone())),
            None => process.send(&prepared.message),
        };
        match sent {
            Ok(sent) => Some(InFlight {
                index,
                prepared,
                sent,
            }),
            Err(trouble) => {
                self.killed(index, cases);
                self.record(index, Outcome::Errored(trouble));
                None
            }
        }
    }

    /// A fresh process in place of the one the last case killed.
    fn restart(&mut self) {
        self.run.restarts += 1;
        let after = self.last_errored.unwrap_or("a case");
        match start(self.argv, self.settings) {
            Ok((fresh, _)) => self.process = Some(fresh),
            Err(Start::Unstartable(why)) => {
                self.usable = false;
                self.run.problem = Some(format!(
                    "after {after} errored, it could not be restarted ({why}); its remaining cases were not run"
                ));
            }
            Err(Start::NoHello(trouble)) => {
                self.usable = false;
                self.run.problem = Some(hello_trouble(
                    &trouble,
                    &format!(
                        "it was restarted after {after} errored; its remaining cases were not run"
                    ),
                ));
            }
        }
    }

    /// Reads and checks the answer to the case in flight. Its outputs, when
    /// they are to be judged against the golden; otherwise its outcome is
    /// recorded here.
    fn collect(
        &mut self,
        flight: InFlight,
        cases: &[&'a SessionFile],
    ) -> Option<(InFlight, Vec<String>)> {
        let case = cases[flight.index].name();
        let Some(process) = self.process.as_mut() else {
            // A case is in flight only while its process lives; were that
            // ever broken, the case is reported, not lost.
            self.record(
                flight.index,
                Outcome::Io(format!(
                    "\"{case}\" was in flight to a process that is gone (a harness bug)"
                )),
            );
            return None;
        };
        match answered(process, case, &flight, self.settings) {
            Answered::Judge(outputs) => Some((flight, outputs)),
            Answered::Settled(outcome, keep) => {
                if !keep {
                    self.killed(flight.index, cases);
                }
                self.record(flight.index, outcome);
                None
            }
        }
    }

    /// Judges a collected answer against its golden, and records it.
    fn judge(&mut self, collected: Option<(InFlight, Vec<String>)>) {
        if let Some((flight, outputs)) = collected {
            self.record(flight.index, judge(&flight.prepared, outputs));
        }
    }

    /// Case `index` killed the process.
    fn killed(&mut self, index: usize, cases: &[&'a SessionFile]) {
        self.process = None;
        self.last_errored = Some(cases[index].name());
    }
}

enum Start {
    /// The program could not be started at all.
    Unstartable(String),
    /// It started, but its hello failed.
    NoHello(Trouble),
}

fn start(argv: &[String], settings: &Settings) -> Result<(Process, HelloReply), Start> {
    let mut process = Process::start(argv).map_err(Start::Unstartable)?;
    let hello = process.hello(settings).map_err(Start::NoHello)?;
    Ok((process, hello))
}

fn hello_trouble(trouble: &Trouble, then: &str) -> String {
    let mut text = format!("its hello failed: {}; {then}", trouble.what);
    if let Some(bytes) = &trouble.offending {
        text.push_str(&format!("\n  it wrote: {}", report::shown(bytes)));
    }
    if !trouble.stderr.is_empty() {
        text.push_str("\n  stderr (last lines):");
        for line in &trouble.stderr {
            text.push_str(&format!("\n    | {line}"));
        }
    }
    text
}

/// What an answer came to before the golden is looked at.
enum Answered {
    /// Outputs, one per op: to be framed and judged.
    Judge(Vec<String>),
    /// Already an outcome; `false`: the process broke the protocol and was
    /// killed.
    Settled(Outcome, bool),
}

/// Reads the answer to the case in flight and checks it is an answer to
/// that case: everything but the golden comparison.
fn answered(process: &mut Process, case: &str, flight: &InFlight, settings: &Settings) -> Answered {
    let message = match process.receive(flight.sent, settings) {
        Ok(message) => message,
        Err(trouble) => return Answered::Settled(Outcome::Errored(trouble), false),
    };
    let broke = |process: &mut Process, what: String, message: &Message| {
        Answered::Settled(Outcome::Errored(process.broke(what, message)), false)
    };
    if settings.validate
        && let Some(kind) = protocol::answer_kind(&message.value)
        && let Err(why) = kind.validate(&message.value)
    {
        return broke(process, format!("its answer {why}"), &message);
    }
    let (answered, answer) = match protocol::answer(&message.value) {
        Ok(answer) => answer,
        Err(why) => return broke(process, format!("its answer is wrong: {why}"), &message),
    };
    if answered != case {
        return broke(
            process,
            format!("it answered case \"{answered}\" to a run of case \"{case}\""),
            &message,
        );
    }
    let ops = flight.prepared.frame.len();
    match answer {
        Answer::Outputs(outputs) if outputs.len() != ops => broke(
            process,
            format!("it answered {} outputs to {ops} ops", outputs.len()),
            &message,
        ),
        Answer::Outputs(outputs) => Answered::Judge(outputs),
        Answer::Skipped(why) => Answered::Settled(Outcome::Skipped(kept(&why)), true),
        // Its stderr now, before the next case is sent.
        Answer::Errored(why) => Answered::Settled(
            Outcome::Errored(Trouble {
                what: format!("it answered errored: {}", kept(&why)),
                offending: None,
                stderr: process.stderr_now(),
            }),
            true,
        ),
    }
}

/// Frames the outputs into a transcript (SPEC §12) and compares it with
/// the golden exactly as the in-process `check` does.
fn judge(prepared: &Prepared, outputs: Vec<String>) -> Outcome {
    let steps: Vec<Step> = prepared
        .frame
        .iter()
        .zip(outputs)
        .map(|(&(line, op), output)| Step {
            line,
            op,
            output,
            outcome: StepOutcome::Done,
        })
        .collect();
    let text = transcript::encode(&steps);
    let Some(mismatch) = golden::compare(&prepared.golden, text.as_bytes()) else {
        return Outcome::Pass;
    };
    let message = match &mismatch.undecodable {
        Some(why) => format!(
            "\"{}\" is not a well-formed transcript ({why}); the replay differs from it",
            prepared.golden_path.display()
        ),
        None => format!(
            "the transcript differs from \"{}\"",
            prepared.golden_path.display()
        ),
    };
    Outcome::Fail {
        line: mismatch.block.as_ref().map(|b| b.line),
        op: mismatch.block.map(|b| b.op),
        message,
        diff: kept_diff(mismatch.diff),
    }
}

/// A diff cut after its last whole line within [`KEPT_MAX`] bytes, saying
/// how much was left out: an answer's output can be as long as a line may
/// be, and every report keeps its diff.
fn kept_diff(diff: String) -> String {
    if diff.len() <= KEPT_MAX {
        return diff;
    }
    let mut end = KEPT_MAX;
    while !diff.is_char_boundary(end) {
        end -= 1;
    }
    let end = diff[..end].rfind('\n').map_or(end, |at| at + 1);
    let mut cut = diff[..end].to_string();
    if !cut.ends_with('\n') {
        cut.push('\n');
    }
    cut.push_str(&format!(
        "… the diff is cut here: {} more bytes\n",
        diff.len() - end
    ));
    cut
}
