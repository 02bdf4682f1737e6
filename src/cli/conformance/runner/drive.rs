//! One implementation through the whole corpus: started, said hello to,
//! sent each prepared case with one run in flight, restarted after a case
//! that killed it, and told `bye` at the end. CaseAnswer k is read and checked
//! before case k+1 is sent, and judged against its golden
//! ([`super::judge`]) while the implementation works on case k+1. Outcomes
//! land by corpus index. It reads no file: [`super::prepare`] does.

use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use super::judge::{Answered, answered, judge};
use super::prepare::{Prep, Prepared};
use super::process::{Process, Settings, Trouble};
use super::{CaseOutcome, ImplRun};
use crate::cli::conformance::expect::Expectations;
use crate::cli::conformance::protocol::HelloReply;
use crate::cli::conformance::report::shown;
use crate::cli::corpus::SessionFile;
use crate::cli::term::Progress;

/// One implementation through the whole corpus, its cases arriving
/// prepared, in corpus order, on `prepared`.
pub(super) fn drive(
    command: &str,
    argv: &[String],
    expectations: Expectations,
    cases: &[&SessionFile],
    prepared: &Receiver<Prep>,
    settings: &Settings,
    progress: &Progress,
) -> ImplRun {
    let mut run = ImplRun {
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
                CaseOutcome::Io(format!(
                    "\"{}\" was never prepared: the harness thread reading the corpus stopped (a harness bug)",
                    file.path.display()
                )),
            );
            continue;
        };
        let ready = match prep {
            Prep::Ready(_) if !driver.usable => {
                driver.record(index, CaseOutcome::NotRun);
                continue;
            }
            Prep::Ready(ready) => ready,
            Prep::Corpus(why) => {
                driver.record(index, CaseOutcome::Corpus(why));
                continue;
            }
            Prep::Io(why) => {
                driver.record(index, CaseOutcome::Io(why));
                continue;
            }
        };
        // CaseAnswer k is read and checked before case k+1 is sent (whether
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
        .map(|outcome| outcome.unwrap_or(CaseOutcome::NotRun))
        .collect();
    if let Some(process) = process
        && let Some(warning) = process.bye(settings)
    {
        run.warnings.push(warning);
    }
    run
}

/// A case sent and not yet answered.
pub(super) struct InFlight {
    /// Its place in the corpus.
    pub(super) index: usize,
    pub(super) prepared: Arc<Prepared>,
    /// When its run was sent: the timeout runs from here.
    pub(super) sent: Instant,
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
    outcomes: Vec<Option<CaseOutcome>>,
    run: ImplRun,
}

impl<'a> Driver<'a> {
    fn record(&mut self, index: usize, outcome: CaseOutcome) {
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
            self.record(index, CaseOutcome::NotRun);
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
                self.record(index, CaseOutcome::Errored(trouble));
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
                CaseOutcome::Io(format!(
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
        text.push_str(&format!("\n  it wrote: {}", shown(bytes)));
    }
    if !trouble.stderr.is_empty() {
        text.push_str("\n  stderr (last lines):");
        for line in &trouble.stderr {
            text.push_str(&format!("\n    | {line}"));
        }
    }
    text
}
