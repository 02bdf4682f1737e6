//! One upstream MCP server, reached with the official Rust SDK (`rmcp`) as
//! its client: a child process over stdio, or streamable HTTP.
//!
//! It owns starting (`initialize`, then `tools/list` to the last page), the
//! child's life (its own process group, killed with the gateway; a parent
//! death signal on Linux, so not even a killed gateway leaves it behind),
//! its stderr (each line to the gateway's stderr, prefixed `[origin] `),
//! noticing that it exited (and with what status), restarting it, and one
//! `tools/call` with cancellation. It knows nothing of the catalog: what to
//! admit, refuse or call is the gateway's.

use std::fmt;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, CustomResult, Implementation,
    ProgressNotificationParam, ProgressToken, ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::config::{Server, Transport, redact_url};
use crate::lane::upstream::{Calls, Finish, Told};
use crate::log;
use crate::session::lock;

/// The most pages of `tools/list` read from one server: a server whose
/// cursor never ends cannot hold the start forever.
const MAX_PAGES: usize = 1000;

/// How long a stopped child is given after SIGTERM before SIGKILL.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// A started connection to an upstream.
struct Connection {
    service: RunningService<RoleClient, Handler>,
    child: Option<Child>,
    /// Which of the upstream's connections this is (0 for the first).
    generation: u64,
    /// Its calls in flight that forward progress (shared with its handler).
    progress: InFlight,
    /// The lane its calls are sent on (a child's stdio).
    lane: Option<Arc<crate::lane::upstream::Calls>>,
}

impl Connection {
    /// What a call needs of it, held without its lock.
    fn up(&self) -> Up {
        Up {
            generation: self.generation,
            peer: self.service.peer().clone(),
            http: self.child.is_none(),
            exited: self.child.as_ref().map(|c| c.exited.clone()),
            progress: Arc::clone(&self.progress),
            lane: self.lane.clone(),
        }
    }
}

/// A connection that is up, as one call holds it.
struct Up {
    generation: u64,
    peer: rmcp::Peer<RoleClient>,
    /// Whether it is streamable HTTP (a child process's stdio otherwise).
    http: bool,
    exited: Option<watch::Receiver<Option<ExitStatus>>>,
    progress: InFlight,
    lane: Option<Arc<crate::lane::upstream::Calls>>,
}

impl Up {
    /// Whether its connection has closed.
    fn closed(&self) -> bool {
        self.peer.is_transport_closed() || self.lane.as_ref().is_some_and(|lane| lane.is_closed())
    }
}

/// Where a call's progress goes: each `notifications/progress` its server
/// sends for it, with the server's token (the gateway puts its client's).
pub type ProgressSink = mpsc::UnboundedSender<ProgressNotificationParam>;

/// The progress tokens of a connection's calls in flight that forward
/// progress, each with its sink: rmcp gives every request a token of its
/// own, unique on the connection, so a notification reaches the one call
/// it is about and no other, and marks that the call has had progress.
type InFlight = Arc<std::sync::Mutex<Vec<(ProgressToken, ProgressSink, Arc<AtomicBool>)>>>;

/// The child process of a stdio upstream.
struct Child {
    /// Its process id, which is also its process group's.
    pid: i32,
    /// Its exit status, once it has exited.
    exited: watch::Receiver<Option<ExitStatus>>,
}

/// Where an upstream stands.
enum State {
    /// Serving.
    Up(Connection),
    /// Exited or closed: the next call restarts it.
    Down,
    /// Stopped with the gateway.
    Stopped,
}

/// One upstream server.
pub struct Upstream {
    server: Server,
    start_timeout: Duration,
    state: tokio::sync::Mutex<State>,
    /// How many connections it has opened.
    connections: AtomicU64,
}

/// Why an upstream could not be started.
#[derive(Debug)]
pub struct StartError(pub String);

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a call to an upstream gave.
pub enum Called {
    /// Its `tools/call` result, as it answered.
    Result(CallToolResult),
    /// The call did not complete; the text says why, naming the server.
    Failed(String),
    /// The client cancelled the call; upstream was told.
    Cancelled,
}

impl Upstream {
    /// An upstream that is not started yet.
    pub fn new(server: Server, start_timeout: Duration) -> Upstream {
        Upstream {
            server,
            start_timeout,
            state: tokio::sync::Mutex::new(State::Stopped),
            connections: AtomicU64::new(0),
        }
    }

    /// Its origin.
    pub fn origin(&self) -> &str {
        &self.server.origin
    }

    /// Starts it: `initialize` and the whole `tools/list`, within the start
    /// timeout. Gives the tools as the server listed them (JSON objects).
    pub async fn start(&self) -> Result<Vec<Value>, StartError> {
        let mut state = self.state.lock().await;
        let (connection, tools) = self.connect().await?;
        *state = State::Up(connection);
        Ok(tools)
    }

    async fn connect(&self) -> Result<(Connection, Vec<Value>), StartError> {
        let timeout = self.start_timeout;
        let started = tokio::time::timeout(timeout, async {
            let mut connection = connect(&self.server).await?;
            connection.generation = self.connections.fetch_add(1, Ordering::Relaxed);
            let tools = list_tools(&connection.service, &self.server).await;
            match tools {
                Ok(tools) => Ok((connection, tools)),
                Err(error) => {
                    stop(connection).await;
                    Err(error)
                }
            }
        })
        .await;
        match started {
            Ok(result) => result,
            Err(_) => Err(StartError(format!(
                "did not answer initialize and tools/list within {} s (--start-timeout)",
                timeout.as_secs_f64()
            ))),
        }
    }

    /// Calls `name` (its raw name) with `args`, forwarding each progress
    /// notification the server sends for it to `progress`. A server known
    /// to be down, or found down when the call is sent (it could not be
    /// reached, so it never saw the call), is restarted (or reconnected)
    /// by this call, which then goes to it: `restarted` is called with
    /// the tools it lists first, so the gateway can refuse a tool that
    /// changed. A server that goes down while it holds the call is not
    /// called again: the call may have done its work.
    pub async fn call(
        &self,
        name: &str,
        args: Option<Map<String, Value>>,
        cancel: &CancellationToken,
        timeout: Duration,
        restarted: &(dyn Fn(&[Value]) -> Option<String> + Sync),
        progress: Option<ProgressSink>,
    ) -> Called {
        let origin = &self.server.origin;
        let mut again = true;
        loop {
            let up = match self.ready(restarted).await {
                Ok(up) => up,
                Err(text) => return Called::Failed(text),
            };
            let outcome = send(
                &up,
                origin,
                name,
                args.clone(),
                progress.clone(),
                cancel,
                timeout,
            )
            .await;
            let why = match outcome {
                Sent::Answered(called) => return called,
                Sent::Unreached(error) => down_why(&error, None),
                Sent::Broken(error) => return self.broken(&up, name, error).await,
            };
            self.went_down(up.generation, &why).await;
            let done = self.again().1;
            if !again {
                return Called::Failed(format!(
                    "disclose: server \"{origin}\" {why} when tools/call \"{name}\" was sent, again once {done}; it is {done} on the next call to one of its tools\n"
                ));
            }
            again = false;
        }
    }

    /// What a call sent on `up` gives when it came back with `error`: the
    /// server's error, or, when the connection broke (the child exited or
    /// closed it), the server marked down, to be restarted by the next call
    /// (this one may have done its work, so it is not sent again).
    async fn broken(&self, up: &Up, name: &str, error: rmcp::ServiceError) -> Called {
        let origin = &self.server.origin;
        if let Some(need) = crate::oauth::runtime::needs_sign_in(&self.server, &error) {
            log(&format!("{origin}: {need}"));
            return Called::Failed(format!("disclose: server \"{origin}\" {need}\n"));
        }
        // A closed transport: say how the child exited, when it did.
        let status = match up.exited.clone() {
            Some(mut exited) => wait_exit(&mut exited).await,
            None => None,
        };
        // A request that could not be sent (an HTTP server that broke off)
        // broke the connection as much as a closed one.
        let unsent = matches!(error, rmcp::ServiceError::TransportSend(_));
        if !unsent && !up.closed() && status.is_none() {
            return Called::Failed(format!(
                "disclose: server \"{origin}\" answered tools/call \"{name}\" with an error: {}\n",
                error_text(&error)
            ));
        }
        let why = down_why(&error, status);
        self.went_down(up.generation, &why).await;
        let done = self.again().1;
        Called::Failed(format!(
            "disclose: server \"{origin}\" {why} during tools/call \"{name}\"; it is {done} on the next call to one of its tools\n"
        ))
    }

    /// The lane to send a call on at once: the server is up on a child's
    /// stdio (its exit noticed first, as [`Upstream::call`] notices it) and
    /// no other call holds its state. `None` leaves the call to
    /// [`Upstream::call`], which restarts a server that is down.
    pub(crate) fn lane_now(self: &Arc<Self>) -> Option<LaneNow> {
        let mut state = self.state.try_lock().ok()?;
        self.notice_exit(&mut state);
        let State::Up(connection) = &*state else {
            return None;
        };
        let up = connection.up();
        let lane = up.lane.clone()?;
        if up.closed() {
            return None;
        }
        Some(LaneNow {
            upstream: Arc::clone(self),
            up,
            lane,
        })
    }

    /// What a call sent by [`LaneNow::send`] gives for `reply`, as
    /// [`Upstream::call`] reads the same outcome.
    async fn settle(&self, up: &Up, name: &str, reply: Told, timeout: Duration) -> Settled {
        let origin = &self.server.origin;
        let answer = match reply {
            Told::Answered(answer) => answer,
            Told::Unsent => return Settled::Unsent,
            Told::Closed => Err(rmcp::ServiceError::TransportClosed),
            Told::TimedOut => {
                return Settled::Called(Called::Failed(timed_out(origin, name, timeout)));
            }
        };
        Settled::Called(match answered(answer, origin, name, up.http) {
            Sent::Answered(called) => called,
            Sent::Unreached(_) => return Settled::Unsent,
            Sent::Broken(error) => self.broken(up, name, error).await,
        })
    }

    /// The connection to call on: the one that is up, or a new one when
    /// the server is down (its tools compared with the run's, through
    /// `restarted`). Otherwise the answer to give.
    async fn ready(
        &self,
        restarted: &(dyn Fn(&[Value]) -> Option<String> + Sync),
    ) -> Result<Up, String> {
        let origin = &self.server.origin;
        let mut state = self.state.lock().await;
        self.notice_exit(&mut state);
        match &*state {
            State::Up(connection) => return Ok(connection.up()),
            State::Stopped => {
                return Err(format!(
                    "disclose: server \"{origin}\" is stopped: the gateway is shutting down\n"
                ));
            }
            State::Down => {}
        }
        let (doing, done) = self.again();
        log(&format!("{origin}: {doing}"));
        match self.connect().await {
            Ok((connection, tools)) => {
                let up = connection.up();
                *state = State::Up(connection);
                log(&format!("{origin}: {done}"));
                match restarted(&tools) {
                    Some(refusal) => Err(refusal),
                    None => Ok(up),
                }
            }
            Err(error) => {
                let why = format!("could not be {done}: {error}");
                log(&format!("{origin}: {why}"));
                *state = State::Down;
                Err(format!(
                    "disclose: server \"{origin}\" {why}; it is tried again on the next call to one of its tools\n"
                ))
            }
        }
    }

    /// Moves the server to `Down` when `connection` (a generation) is
    /// still the one it is up on, logging why and closing it: a call that
    /// failed on an old connection leaves alone the one another call has
    /// opened since.
    async fn went_down(&self, connection: u64, why: &str) {
        let mut state = self.state.lock().await;
        self.notice_exit(&mut state);
        if !matches!(&*state, State::Up(up) if up.generation == connection) {
            return;
        }
        log(&format!("{}: {why}", self.server.origin));
        if let State::Up(old) = std::mem::replace(&mut *state, State::Down) {
            tokio::spawn(stop(old));
        }
    }

    /// What the next call does to it once it is down, as doing and as
    /// done: a child process is restarted, an HTTP server reconnected.
    fn again(&self) -> (&'static str, &'static str) {
        match self.server.transport {
            Transport::Stdio { .. } => ("restarting", "restarted"),
            Transport::Http { .. } => ("reconnecting", "reconnected"),
        }
    }

    /// Moves an `Up` upstream whose child has exited, or whose connection
    /// closed, to `Down`, logging it once.
    fn notice_exit(&self, state: &mut State) {
        let State::Up(connection) = &*state else {
            return;
        };
        let status = connection
            .child
            .as_ref()
            .and_then(|child| *child.exited.borrow());
        let why = match status {
            Some(status) => format!("exited ({status})"),
            None if connection.service.is_closed()
                || connection.service.peer().is_transport_closed() =>
            {
                "closed the connection".to_string()
            }
            None => return,
        };
        log(&format!("{}: {why}", self.server.origin));
        let old = std::mem::replace(state, State::Down);
        if let State::Up(connection) = old {
            tokio::spawn(stop(connection));
        }
    }

    /// Stops it for good: the connection closed, the child's process group
    /// terminated and then killed.
    pub async fn stop(&self) {
        let mut state = self.state.lock().await;
        if let State::Up(connection) = std::mem::replace(&mut *state, State::Stopped) {
            stop(connection).await;
        }
    }
}

/// The text of a call its server did not answer within `timeout`.
fn timed_out(origin: &str, name: &str, timeout: Duration) -> String {
    format!(
        "disclose: server \"{origin}\" did not answer tools/call \"{name}\" within {} s (--call-timeout); the call was cancelled upstream\n",
        timeout.as_secs_f64()
    )
}

/// What a call sent at once ([`LaneNow::send`]) gives.
pub enum Settled {
    /// What [`Upstream::call`] would have given.
    Called(Called),
    /// It never reached the server (the child is gone): the call is to be
    /// made through [`Upstream::call`], which restarts it.
    Unsent,
}

/// A server up on a lane, to send one call on at once
/// ([`Upstream::lane_now`]).
pub(crate) struct LaneNow {
    upstream: Arc<Upstream>,
    up: Up,
    lane: Arc<Calls>,
}

impl LaneNow {
    /// Sends `tools/call` `name` with `args` and returns at once; `done`
    /// is given what [`Upstream::call`] would give for the same outcome:
    /// at once for a result, after the same waits otherwise (a server
    /// whose connection broke is marked down first). Past `timeout` the
    /// call is cancelled upstream, as [`Upstream::call`] cancels it.
    pub(crate) fn send(
        self,
        name: &str,
        args: Option<&Map<String, Value>>,
        timeout: Duration,
        done: Box<dyn FnOnce(Settled) + Send>,
    ) -> Cancel {
        let LaneNow { upstream, up, lane } = self;
        let id = lane.next_id();
        let peer = up.peer.clone();
        let named = name.to_string();
        let finish: Finish = Box::new(move |reply| match reply {
            Told::Answered(Ok(ServerResult::CallToolResult(result))) => {
                done(Settled::Called(Called::Result(result)));
            }
            reply => {
                if matches!(reply, Told::TimedOut) {
                    drop(Abandoned::of(&up.peer, id));
                }
                tokio::spawn(async move {
                    done(upstream.settle(&up, &named, reply, timeout).await);
                });
            }
        });
        let deadline = tokio::time::Instant::now()
            .checked_add(timeout)
            .unwrap_or_else(far_future);
        lane.send_now(id, name, args, deadline, finish);
        Cancel { lane, id, peer }
    }
}

/// A deadline no call reaches (a timeout too long to add to now).
fn far_future() -> tokio::time::Instant {
    tokio::time::Instant::now() + Duration::from_secs(86_400 * 365 * 30)
}

/// The cancelling of a call sent at once.
pub(crate) struct Cancel {
    lane: Arc<Calls>,
    id: u64,
    peer: rmcp::Peer<RoleClient>,
}

impl Cancel {
    /// Cancels the call, telling its server, when it still waits for its
    /// answer: then it is never done. `false` when its answer came first.
    pub(crate) fn cancel(self) -> bool {
        if !self.lane.forget(self.id) {
            return false;
        }
        drop(Abandoned::of(&self.peer, self.id));
        true
    }
}

/// Why a call found the server down: how its child exited, or what its
/// transport said.
fn down_why(error: &rmcp::ServiceError, status: Option<ExitStatus>) -> String {
    match status {
        Some(status) => format!("exited ({status})"),
        None if session_expired(error) => {
            "no longer knows the gateway's session (it restarted)".to_string()
        }
        None if matches!(error, rmcp::ServiceError::TransportSend(_)) => {
            format!("could not be reached ({})", cause(error))
        }
        None => "closed the connection".to_string(),
    }
}

/// How one sending of a call went.
enum Sent {
    /// The server answered, or the call ended without needing it again.
    Answered(Called),
    /// The call never reached the server (its connection was gone, or could
    /// not be opened, or the server no longer knew the session): calling it
    /// again on a new connection is safe.
    Unreached(rmcp::ServiceError),
    /// The call was sent and came back with this error: it may have run.
    Broken(rmcp::ServiceError),
}

/// Sends one `tools/call` to `origin` on `up`, forwarding its progress to
/// `progress`.
async fn send(
    up: &Up,
    origin: &str,
    name: &str,
    args: Option<Map<String, Value>>,
    progress: Option<ProgressSink>,
    cancel: &CancellationToken,
    timeout: Duration,
) -> Sent {
    let awaiting = match &up.lane {
        Some(lane) => match lane.send(name, args.as_ref(), progress.is_some()).await {
            Ok(waiting) => Awaiting::Lane(waiting),
            // The child is gone: the request went nowhere.
            Err(error) => {
                return Sent::Unreached(rmcp::ServiceError::TransportSend(
                    rmcp::transport::DynamicTransportError::new::<
                        crate::lane::upstream::UpstreamLines,
                        RoleClient,
                    >(error),
                ));
            }
        },
        None => {
            let mut params = CallToolRequestParams::new(name.to_string());
            params.arguments = args;
            let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
            match up
                .peer
                .send_cancellable_request(request, PeerRequestOptions::no_options())
                .await
            {
                Ok(handle) => Awaiting::Rmcp(handle),
                // Its service has ended: the request went nowhere.
                Err(error @ rmcp::ServiceError::TransportClosed) => {
                    return Sent::Unreached(error);
                }
                Err(error) => {
                    return Sent::Answered(Called::Failed(format!(
                        "disclose: server \"{origin}\" could not be sent tools/call \"{name}\": {}\n",
                        error_text(&error)
                    )));
                }
            }
        }
    };
    let forwarding = progress.map(|sink| Forwarding::new(&up.progress, awaiting.token(), sink));
    let mut abandoned = Abandoned {
        peer: up.peer.clone(),
        id: Some(awaiting.id()),
    };
    let answer = tokio::select! {
        answer = tokio::time::timeout(timeout, awaiting.answer()) => answer,
        () = cancel.cancelled() => return Sent::Answered(Called::Cancelled),
    };
    let Ok(answer) = answer else {
        return Sent::Answered(Called::Failed(timed_out(origin, name, timeout)));
    };
    abandoned.id = None;
    if let Some(forwarding) = forwarding {
        forwarding.settle().await;
    }
    answered(answer, origin, name, up.http)
}

/// What a call's answer is: its result, or the error it came back with
/// (`Unreached` when it never reached the server).
fn answered(
    answer: Result<ServerResult, rmcp::ServiceError>,
    origin: &str,
    name: &str,
    http: bool,
) -> Sent {
    match answer {
        Ok(ServerResult::CallToolResult(result)) => Sent::Answered(Called::Result(result)),
        Ok(ServerResult::EmptyResult(_)) => {
            Sent::Answered(Called::Result(CallToolResult::success(Vec::new())))
        }
        Ok(_) => Sent::Answered(Called::Failed(format!(
            "disclose: server \"{origin}\" answered tools/call \"{name}\" with a result this gateway does not pass on (input required, or a task)\n"
        ))),
        Err(error) if never_reached(&error, http) => Sent::Unreached(error),
        Err(error) => Sent::Broken(error),
    }
}

/// Whether a call that failed with `error` never reached its server: a
/// request that could not be written to a child (it is gone), or an HTTP
/// server that refused the connection or answered that it no longer knows
/// the session (it ran nothing).
fn never_reached(error: &rmcp::ServiceError, http: bool) -> bool {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    if !matches!(error, rmcp::ServiceError::TransportSend(_)) {
        return false;
    }
    if !http {
        return true;
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = cause {
        match error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            Some(StreamableHttpError::SessionExpired) => return true,
            Some(StreamableHttpError::Client(error)) => return error.is_connect(),
            _ => cause = error.source(),
        }
    }
    false
}

/// How long a call that has had progress waits, once answered, for the
/// notifications its server sent before the answer.
const PROGRESS_SETTLE: Duration = Duration::from_millis(5);

/// A call's progress sink, registered under its request's token for as
/// long as the call is awaited.
struct Forwarding {
    in_flight: InFlight,
    token: ProgressToken,
    /// Whether a progress notification has reached this call yet.
    seen: Arc<AtomicBool>,
}

impl Forwarding {
    fn new(in_flight: &InFlight, token: ProgressToken, sink: ProgressSink) -> Forwarding {
        let seen = Arc::new(AtomicBool::new(false));
        lock(in_flight).push((token.clone(), sink, Arc::clone(&seen)));
        Forwarding {
            in_flight: Arc::clone(in_flight),
            token,
            seen,
        }
    }

    /// Waits for the progress notifications the server sent before its
    /// answer, then stops forwarding. rmcp hands the answer straight to
    /// the call but runs each notification's handler as a task of its
    /// own, spawned before the answer is handed on: without this wait the
    /// last notification (`4 of 4`) could find the call gone, and a
    /// client's result would come before it. A call that has had no
    /// progress yet waits nothing (rmcp's clients send a progress token
    /// with every request, so most calls are such).
    async fn settle(self) {
        if !self.seen.load(Ordering::Acquire) {
            return;
        }
        for _ in 0..4 {
            tokio::task::yield_now().await;
        }
        tokio::time::sleep(PROGRESS_SETTLE).await;
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        lock(&self.in_flight).retain(|(token, _, _)| *token != self.token);
    }
}

/// A call sent, awaiting its answer: on the lane, or through rmcp.
enum Awaiting {
    Lane(crate::lane::upstream::Waiting),
    Rmcp(rmcp::service::RequestHandle<RoleClient>),
}

impl Awaiting {
    fn id(&self) -> rmcp::model::RequestId {
        match self {
            Awaiting::Lane(waiting) => waiting.id(),
            Awaiting::Rmcp(handle) => handle.id.clone(),
        }
    }

    fn token(&self) -> ProgressToken {
        match self {
            Awaiting::Lane(waiting) => waiting.token(),
            Awaiting::Rmcp(handle) => handle.progress_token.clone(),
        }
    }

    async fn answer(self) -> Result<ServerResult, rmcp::ServiceError> {
        match self {
            Awaiting::Lane(waiting) => waiting.answer().await,
            Awaiting::Rmcp(handle) => handle.await_response().await,
        }
    }
}

/// A call awaited: dropped before its answer (the client cancelled it, or
/// it timed out), it sends `notifications/cancelled` for it, as rmcp does
/// for its own calls.
struct Abandoned {
    peer: rmcp::Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
}

impl Abandoned {
    /// The lane's call `id`, abandoned.
    fn of(peer: &rmcp::Peer<RoleClient>, id: u64) -> Abandoned {
        Abandoned {
            peer: peer.clone(),
            id: Some(crate::lane::upstream::request_id(id)),
        }
    }
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        // Outside the runtime (it is shutting down) there is no one to tell.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        let cancelled = CancelledNotificationParam::new(
            Some(id),
            Some("request abandoned by the caller".to_string()),
        );
        runtime.spawn(async move {
            let _ = peer.notify_cancelled(cancelled).await;
        });
    }
}

/// The exit status, if the child exits within a moment of its connection
/// closing.
async fn wait_exit(exited: &mut watch::Receiver<Option<ExitStatus>>) -> Option<ExitStatus> {
    let waited = tokio::time::timeout(Duration::from_secs(2), exited.wait_for(Option::is_some));
    match waited.await {
        Ok(Ok(status)) => *status,
        _ => None,
    }
}

/// Whether a call failed because the server no longer knows the session
/// (a 404, or what `http_client` reads as one).
fn session_expired(error: &rmcp::ServiceError) -> bool {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(error) = cause {
        if let Some(StreamableHttpError::<reqwest::Error>::SessionExpired) = error.downcast_ref() {
            return true;
        }
        cause = error.source();
    }
    false
}

/// The innermost cause of a transport error (`Connection refused (os
/// error 111)`), not the chain of wrappers around it. rmcp's
/// `StreamableHttpError::Client` shows the client's error without naming
/// it as its source, so the walk steps into it by hand.
fn cause(error: &(dyn std::error::Error + 'static)) -> String {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let mut cause = error;
    loop {
        let next = match cause.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            Some(StreamableHttpError::Client(client)) => {
                Some(client as &(dyn std::error::Error + 'static))
            }
            _ => cause.source(),
        };
        match next {
            Some(next) => cause = next,
            None => return cause.to_string(),
        }
    }
}

fn error_text(error: &rmcp::ServiceError) -> String {
    match error {
        rmcp::ServiceError::McpError(data) => format!("{} ({})", data.message, data.code.0),
        other => other.to_string(),
    }
}

/// Closes a connection and ends its child's process group.
async fn stop(mut connection: Connection) {
    let _ = connection
        .service
        .close_with_timeout(Duration::from_millis(500))
        .await;
    if let Some(mut child) = connection.child.take() {
        kill_group(child.pid, libc::SIGTERM);
        let exited = tokio::time::timeout(STOP_GRACE, child.exited.wait_for(Option::is_some));
        if exited.await.is_err() {
            kill_group(child.pid, libc::SIGKILL);
        }
        // Whatever it left in its group goes too.
        kill_group(child.pid, libc::SIGKILL);
    }
}

fn kill_group(pid: i32, signal: i32) {
    if pid > 0 {
        // SAFETY: killpg only sends a signal; the group is the child's own
        // (process_group(0) at spawn), never the gateway's.
        unsafe {
            libc::killpg(pid, signal);
        }
    }
}

/// The client handler of an upstream: logs what the server announces, and
/// hands each progress notification to the call it is about.
#[derive(Clone)]
struct Handler {
    origin: String,
    progress: InFlight,
}

impl ClientHandler for Handler {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let sink = lock(&self.progress)
            .iter()
            .find(|(token, _, _)| *token == params.progress_token)
            .map(|(_, sink, seen)| {
                seen.store(true, Ordering::Release);
                sink.clone()
            });
        // A notification for no call in flight (late, or never asked for)
        // goes nowhere.
        if let Some(sink) = sink {
            let _ = sink.send(params);
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        // SPEC §3: the run's tool list never changes; a restart compares
        // digests (docs/decisions.md).
        log(&format!(
            "{}: announced notifications/tools/list_changed; the run's catalog stays as it started",
            self.origin
        ));
    }

    fn get_info(&self) -> ClientConfig {
        // No roots, sampling or elicitation: the gateway answers for nothing
        // an upstream could ask of a user.
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("disclose", env!("CARGO_PKG_VERSION")),
        )
    }
}

async fn connect(server: &Server) -> Result<Connection, StartError> {
    let progress = InFlight::default();
    let handler = Handler {
        origin: server.origin.clone(),
        progress: Arc::clone(&progress),
    };
    match &server.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
            ..
        } => {
            let mut cmd = tokio::process::Command::new(command);
            cmd.args(args)
                .envs(env.iter().map(|(k, v)| (k, v)))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .kill_on_drop(true)
                // Its own group: stopping it stops what it started.
                .process_group(0);
            if let Some(cwd) = cwd {
                cmd.current_dir(cwd);
            }
            die_with_parent(&mut cmd);
            let mut child = cmd
                .spawn()
                .map_err(|e| StartError(format!("could not be started: {command}: {e}")))?;
            let pid = child
                .id()
                .and_then(|id| i32::try_from(id).ok())
                .unwrap_or(0);
            let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
                (Some(stdin), Some(stdout)) => (stdin, stdout),
                _ => return Err(StartError("has no stdin or stdout".into())),
            };
            if let Some(stderr) = child.stderr.take() {
                let origin = server.origin.clone();
                tokio::spawn(async move {
                    let mut lines = BufReader::new(stderr).lines();
                    while let Ok(Some(line)) = lines.next_line().await {
                        crate::stderr_line(&format!("[{origin}] {line}"));
                    }
                });
            }
            let (tx, exited) = watch::channel(None);
            tokio::spawn(async move {
                if let Ok(status) = child.wait().await {
                    let _ = tx.send(Some(status));
                }
            });
            log(&format!("{}: started {command} (pid {pid})", server.origin));
            let mut child = Some(Child { pid, exited });
            let (lane, transport) =
                crate::lane::upstream::Calls::over(Box::new(stdout), Box::new(stdin));
            let service = match handler.serve(transport).await {
                Ok(service) => service,
                Err(error) => {
                    let status = match child.as_mut() {
                        Some(c) => wait_exit(&mut c.exited).await,
                        None => None,
                    };
                    if let Some(c) = child {
                        kill_group(c.pid, libc::SIGKILL);
                    }
                    return Err(StartError(match status {
                        Some(status) => format!("exited ({status}) before initialize"),
                        None => format!("failed initialize: {error}"),
                    }));
                }
            };
            Ok(Connection {
                service,
                child,
                generation: 0,
                progress,
                lane: Some(lane),
            })
        }
        Transport::Http { url, headers, .. } => {
            // rmcp takes a HashMap; its order reaches no output.
            #[allow(clippy::disallowed_types)]
            let mut custom = std::collections::HashMap::new();
            for (name, value) in headers {
                let name = http::HeaderName::try_from(name.as_str()).map_err(|_| {
                    StartError(format!("header \"{name}\" is not a valid header name"))
                })?;
                let value = http::HeaderValue::try_from(value.as_str())
                    // The value may be a credential: never shown.
                    .map_err(|_| {
                        StartError(format!(
                            "header \"{name}\" has a value that is not a valid header value"
                        ))
                    })?;
                custom.insert(name, value);
            }
            let config = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                .custom_headers(custom)
                .reinit_on_expired_session(false);
            let client = crate::http_client::Client::new()
                .map_err(|error| StartError(format!("cannot build an HTTP client: {error}")))?;
            // A server that signs in gets rmcp's client that sends and
            // refreshes its token (`oauth::runtime`).
            let served = match crate::oauth::runtime::manager(server)
                .await
                .map_err(StartError)?
            {
                Some(manager) => {
                    let client = rmcp::transport::auth::AuthClient::new(client, manager);
                    let transport = StreamableHttpClientTransport::with_client(client, config);
                    handler.serve(transport).await
                }
                None => {
                    let transport = StreamableHttpClientTransport::with_client(client, config);
                    handler.serve(transport).await
                }
            };
            let service = served.map_err(|error| {
                // The transport's own error, not rmcp's wrapping of it
                // (which names the transport's Rust type).
                let why = match &error {
                    rmcp::service::ClientInitializeError::TransportError { error, .. } => {
                        let error = error.error.as_ref();
                        if let Some(need) = crate::oauth::runtime::needs_sign_in(server, error) {
                            return StartError(need);
                        }
                        cause(error)
                    }
                    other => other.to_string(),
                };
                StartError(format!("failed initialize at {}: {why}", redact_url(url)))
            })?;
            log(&format!(
                "{}: connected to {}",
                server.origin,
                redact_url(url)
            ));
            Ok(Connection {
                service,
                child: None,
                generation: 0,
                progress,
                lane: None,
            })
        }
    }
}

/// On Linux, the child is killed when the gateway dies, even by SIGKILL.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut tokio::process::Command) {
    // SAFETY: prctl and getppid are async-signal-safe; nothing else runs
    // between fork and exec.
    let parent = std::process::id();
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The gateway died before prctl: do not run orphaned.
            if u32::try_from(libc::getppid()).ok() != Some(parent) {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut tokio::process::Command) {}

/// Every page of `tools/list`, each tool as the JSON object the server sent
/// (read as a raw request, so one malformed tool does not hide the others:
/// admission refuses it by name).
async fn list_tools(
    service: &RunningService<RoleClient, Handler>,
    server: &Server,
) -> Result<Vec<Value>, StartError> {
    let origin = &server.origin;
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let request = ClientRequest::CustomRequest(CustomRequest::new("tools/list", params));
        let answer = service.peer().send_request(request).await.map_err(|e| {
            StartError(
                crate::oauth::runtime::needs_sign_in(server, &e)
                    .unwrap_or_else(|| format!("failed tools/list: {}", error_text(&e))),
            )
        })?;
        let page = match answer {
            ServerResult::ListToolsResult(result) => {
                serde_json::to_value(&result).map_err(|e| {
                    StartError(format!("sent a tools/list result that cannot be read: {e}"))
                })?
            }
            ServerResult::CustomResult(CustomResult(value)) => value,
            _ => {
                return Err(StartError(
                    "answered tools/list with something that is not a tools/list result".into(),
                ));
            }
        };
        let Some(Value::Array(items)) = page.get("tools") else {
            return Err(StartError(format!(
                "answered tools/list without a \"tools\" array ({origin})"
            )));
        };
        tools.extend(items.iter().cloned());
        cursor = match page.get("nextCursor") {
            Some(Value::String(next)) if !next.is_empty() => Some(next.clone()),
            _ => return Ok(tools),
        };
    }
    Err(StartError(format!(
        "sent more than {MAX_PAGES} pages of tools/list"
    )))
}

/// Starts every upstream at once; those that fail are named on stderr and
/// left out. Gives each started upstream with its tools, by origin.
pub async fn start_all(upstreams: Vec<Arc<Upstream>>) -> Vec<(Arc<Upstream>, Vec<Value>)> {
    let mut tasks = Vec::with_capacity(upstreams.len());
    for upstream in upstreams {
        tasks.push(tokio::spawn(async move {
            let started = upstream.start().await;
            (upstream, started)
        }));
    }
    let mut started = Vec::with_capacity(tasks.len());
    for task in tasks {
        let Ok((upstream, result)) = task.await else {
            continue;
        };
        match result {
            Ok(tools) => {
                log(&format!(
                    "{}: {} tools listed",
                    upstream.origin(),
                    tools.len()
                ));
                started.push((upstream, tools));
            }
            Err(error) => log(&format!("{}: left out: {error}", upstream.origin())),
        }
    }
    started.sort_by(|a, b| a.0.origin().cmp(b.0.origin()));
    started
}
