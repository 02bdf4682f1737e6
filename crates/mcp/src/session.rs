//! One served session: its own run of the catalog, started from the
//! gateway's one upstream snapshot, with its own recording, its own session
//! allowances and its own pending approval rounds.
//!
//! Over stdio there is one session, the client that launched the gateway.
//! Over HTTP each MCP session (`Mcp-Session-Id`, the handshake revisions)
//! is one, opened by its `initialize` and ended by a `DELETE`, its idle
//! timeout or the gateway's stop; requests of the 2026-07-28 revision carry
//! no session at all and share the gateway's one *sessionless* run, which
//! keeps no allowance (docs/decisions.md). What a session holds is never
//! reachable from another: the gateway's shared part (`shared::Shared`)
//! holds only what every session sees alike.
//!
//! Ending a session (dropping its last handle) closes its recording: every
//! op was already written and flushed as it happened, so this only syncs
//! the file, and says on stderr that the session ended.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use disclose::{Answer, RecordedRun, ToolCall};
use serde_json::Value;

use crate::recording::Out;

/// Whether an approval may be remembered for the rest of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// A session: "allow for this session" is offered and remembered.
    Remembered,
    /// The sessionless run of 2026-07-28 requests: nothing ties two
    /// requests to one client, so only "allow once" and "decline" are
    /// offered.
    OnceOnly,
}

/// One session's run and state.
pub struct SessionRun {
    /// The gateway's number for it (never the `Mcp-Session-Id`, which is a
    /// capability and is never logged).
    serial: u64,
    /// What the stderr lines call it (`session 3`, `the sessionless run`).
    label: String,
    run: Mutex<Option<RecordedRun<Out>>>,
    recorded_at: Option<PathBuf>,
    allowance: Allowance,
    /// Session allowances: minted name → the digest allowed.
    allowed: Mutex<BTreeMap<String, String>>,
    /// Approvals asked of a 2026-07-28 client (SEP-2322): request state →
    /// the call it is for.
    pending: Mutex<BTreeMap<String, (String, Value)>>,
    /// Calls of a 2026-07-28 client whose server asked a question: request
    /// state → the call, running on.
    parked: Mutex<BTreeMap<String, crate::questions::Parked>>,
    calls: AtomicU64,
    /// Set when this session's recording could not be written; shared with
    /// the gateway, which then exits 1.
    record_failed: Arc<AtomicBool>,
    /// Whether to say on stderr when it ends (not for stdio's one session,
    /// whose end is the gateway's).
    announce_end: bool,
    /// Run once when it ends (it leaves the hub).
    on_end: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

/// Locks a mutex whose holder may have panicked: the data is plain and
/// never left half-written.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a new session is made of.
pub struct Opened {
    /// The gateway's number for it.
    pub serial: u64,
    /// How it is named on stderr.
    pub label: String,
    /// Its started, recorded run.
    pub run: RecordedRun<Out>,
    /// Its recording's path, when recording.
    pub recorded_at: Option<PathBuf>,
    /// Whether allowances are remembered.
    pub allowance: Allowance,
    /// The gateway's flag for a failed recording.
    pub record_failed: Arc<AtomicBool>,
    /// Whether its end is said on stderr.
    pub announce_end: bool,
}

impl SessionRun {
    /// A session over a started run.
    pub fn new(opened: Opened) -> SessionRun {
        SessionRun {
            serial: opened.serial,
            label: opened.label,
            run: Mutex::new(Some(opened.run)),
            recorded_at: opened.recorded_at,
            allowance: opened.allowance,
            allowed: Mutex::new(BTreeMap::new()),
            pending: Mutex::new(BTreeMap::new()),
            parked: Mutex::new(BTreeMap::new()),
            calls: AtomicU64::new(0),
            record_failed: opened.record_failed,
            announce_end: opened.announce_end,
            on_end: Mutex::new(None),
        }
    }

    /// Has `end` run when the session ends.
    pub fn on_end(&self, end: impl FnOnce() + Send + 'static) {
        *lock(&self.on_end) = Some(Box::new(end));
    }

    /// The gateway's number for this session.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// How stderr names it.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Where its recording goes.
    pub fn recorded_at(&self) -> Option<&PathBuf> {
        self.recorded_at.as_ref()
    }

    /// Whether an approval may be remembered here.
    pub fn allowance(&self) -> Allowance {
        self.allowance
    }

    /// The library's answer to a model's tool call, recorded when the
    /// session records (a session that does not writes no op line).
    pub fn answer(&self, call: &ToolCall) -> Answer {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let mut run = lock(&self.run);
        let Some(run) = run.as_mut() else {
            return ended();
        };
        if self.recorded_at.is_none() {
            return run.run().answer(call);
        }
        let answer = run.answer(call);
        if run.error().is_some() {
            self.record_failed.store(true, Ordering::Relaxed);
        }
        answer
    }

    /// The answer to the retry of a 2026-07-28 approval round: the same
    /// call, answered but not recorded again.
    pub fn answer_again(&self, call: &ToolCall) -> Answer {
        match lock(&self.run).as_ref() {
            Some(run) => run.run().answer(call),
            None => ended(),
        }
    }

    /// The first recording write that failed, if any.
    pub fn record_error(&self) -> Option<String> {
        lock(&self.run)
            .as_ref()
            .and_then(|run| run.error().map(ToString::to_string))
    }

    /// Whether `minted` is allowed for the session at `digest`.
    pub fn is_allowed(&self, minted: &str, digest: &str) -> bool {
        lock(&self.allowed).get(minted).map(String::as_str) == Some(digest)
    }

    /// Remembers "allow for this session" (never in the sessionless run).
    pub fn allow(&self, minted: &str, digest: &str) {
        if self.allowance == Allowance::Remembered {
            lock(&self.allowed).insert(minted.to_string(), digest.to_string());
        }
    }

    /// Keeps an approval round asked of a 2026-07-28 client.
    pub fn ask_later(&self, state: String, minted: &str, args: &Value) {
        lock(&self.pending).insert(state, (minted.to_string(), args.clone()));
    }

    /// The round a retried call answers, taken (each is answered once).
    pub fn take_pending(&self, state: &str) -> Option<(String, Value)> {
        lock(&self.pending).remove(state)
    }

    /// Keeps a call whose server's question was given to its 2026-07-28
    /// client, under the request state the retry names.
    pub fn park(&self, state: String, parked: crate::questions::Parked) {
        lock(&self.parked).insert(state, parked);
    }

    /// The call a retry names by `state`, taken.
    pub fn take_parked(&self, state: &str) -> Option<crate::questions::Parked> {
        lock(&self.parked).remove(state)
    }
}

/// Only `Drop` takes the run, and nothing answers after it; this is never
/// seen, but it is an answer rather than a panic.
fn ended() -> Answer {
    Answer::Text("disclose: this session has ended\n".into())
}

impl Drop for SessionRun {
    fn drop(&mut self) {
        if let Some(end) = lock(&self.on_end).take() {
            end();
        }
        let run = lock(&self.run).take();
        let mut incomplete = None;
        if let Some(run) = run {
            match run.finish() {
                Ok(mut out) => {
                    if let Err(error) = out.sync() {
                        incomplete = Some(error.to_string());
                    }
                }
                Err(error) => incomplete = Some(error.to_string()),
            }
        }
        if let Some(error) = &incomplete {
            self.record_failed.store(true, Ordering::Relaxed);
            crate::log(&format!(
                "{}: the recording is incomplete: {error}",
                self.label
            ));
        }
        if self.announce_end {
            let calls = self.calls.load(Ordering::Relaxed);
            let closed = match &self.recorded_at {
                Some(path) => format!("; recording {} closed", path.display()),
                None => String::new(),
            };
            let plural = if calls == 1 { "" } else { "s" };
            crate::log(&format!(
                "{} ended after {calls} tool call{plural}{closed}",
                self.label
            ));
        }
    }
}
