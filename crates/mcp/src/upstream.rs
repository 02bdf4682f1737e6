//! One upstream MCP server, reached with the official Rust SDK (`rmcp`) as
//! its client: a child process over stdio, or streamable HTTP.
//!
//! It owns starting (`initialize`, then `tools/list` to the last page, and
//! the prompts, resources and templates it lists: `listing`), the child's
//! life (its own process group, killed with the gateway; a parent
//! death signal on Linux, so not even a killed gateway leaves it behind),
//! its stderr (each line to the gateway's stderr, prefixed `[origin] `),
//! noticing that it exited (and with what status), restarting it, and one
//! `tools/call` (or any other request the gateway forwards: `prompts/get`,
//! `resources/read`, …) with cancellation. Its handler forwards the
//! server's own questions to the session whose request it is serving
//! (`questions`), and its list changes and resource updates to the hub.
//! It knows nothing of the catalog: what to admit, refuse or call is the
//! gateway's.

use std::fmt;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, CustomResult,
    ElicitRequestParams, ElicitResult, ElicitationCapability, FormElicitationCapability,
    Implementation, ProgressNotificationParam, ProgressToken, ResourceUpdatedNotificationParam,
    SamplingCapability, ServerResult, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use crate::config::{Server, Transport, redact_url};
use crate::hub::Hub;
use crate::lane::upstream::{Calls, Finish, Told};
use crate::listing::Listing;
use crate::log;
use crate::questions::{Asker, Askers};
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
    /// Its requests in flight, by session (shared with its handler).
    askers: Askers,
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
            askers: self.askers.clone(),
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
    askers: Askers,
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
    /// Where its listing, list changes and resource updates go.
    hub: Arc<Hub>,
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

/// What any other request forwarded to an upstream gave.
pub enum Replied {
    /// Its result, as it answered.
    Result(Box<ServerResult>),
    /// Its error, as it answered (a JSON-RPC error the client gets as is).
    Error(rmcp::ErrorData),
    /// The request did not complete; the text says why, naming the server.
    Failed(String),
    /// The client cancelled it; upstream was told.
    Cancelled,
}

/// What a request is, in the gateway's messages: `tools/call "echo"`.
#[derive(Clone, Copy)]
pub struct What<'a> {
    /// Its method.
    pub method: &'static str,
    /// What it names: a tool, a prompt, a URI.
    pub subject: &'a str,
}

impl What<'_> {
    /// What restarts the server next, as its messages say.
    fn next(&self) -> &'static str {
        if self.method == "tools/call" {
            "call to one of its tools"
        } else {
            "request to it"
        }
    }
}

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} \"{}\"", self.method, self.subject)
    }
}

/// What a forwarded request needs besides itself.
pub struct Forward<'a> {
    /// Cancelled when the client cancels it.
    pub cancel: &'a CancellationToken,
    /// How long the server may take.
    pub timeout: Duration,
    /// Told the tools a restarted server lists (the gateway compares them).
    pub restarted: &'a (dyn Fn(&[Value]) -> Option<String> + Sync),
    /// Where the server's progress notifications for it go.
    pub progress: Option<ProgressSink>,
    /// Who asked, for the server's questions.
    pub asker: Option<Asker>,
}

impl Upstream {
    /// An upstream that is not started yet.
    pub fn new(server: Server, start_timeout: Duration, hub: Arc<Hub>) -> Upstream {
        Upstream {
            server,
            start_timeout,
            state: tokio::sync::Mutex::new(State::Stopped),
            connections: AtomicU64::new(0),
            hub,
        }
    }

    /// Its origin.
    pub fn origin(&self) -> &str {
        &self.server.origin
    }

    /// What it declared at `initialize`, while it is up.
    pub async fn declared(&self) -> Option<rmcp::model::ServerCapabilities> {
        match &*self.state.lock().await {
            State::Up(connection) => connection
                .service
                .peer()
                .peer_info()
                .map(|info| info.capabilities.clone()),
            _ => None,
        }
    }

    /// Starts it: `initialize` and the whole `tools/list`, within the start
    /// timeout. Gives the tools as the server listed them (JSON objects).
    pub async fn start(&self) -> Result<Vec<Value>, StartError> {
        let mut state = self.state.lock().await;
        let (connection, tools, listing) = self.connect().await?;
        *state = State::Up(connection);
        let origin = &self.server.origin;
        self.hub.update(
            origin,
            Some(listing.prompts),
            Some((listing.resources, listing.templates)),
        );
        Ok(tools)
    }

    async fn connect(&self) -> Result<(Connection, Vec<Value>, Listing), StartError> {
        let timeout = self.start_timeout;
        let deadline = tokio::time::Instant::now() + timeout;
        let too_slow = || {
            StartError(format!(
                "did not answer initialize and tools/list within {} s (--start-timeout)",
                timeout.as_secs_f64()
            ))
        };
        let handler = Handler {
            origin: self.server.origin.clone(),
            progress: InFlight::default(),
            askers: Askers::default(),
            hub: Arc::clone(&self.hub),
        };
        let connected = tokio::time::timeout_at(deadline, connect(&self.server, handler)).await;
        let mut connection = connected.map_err(|_| too_slow())??;
        connection.generation = self.connections.fetch_add(1, Ordering::Relaxed);
        // Its tools (each as the JSON object the server sent, read raw, so
        // one malformed tool does not hide the others: admission refuses it
        // by name) and, at the same time, its prompts and resources, all
        // within the start timeout; a server that does not list the latter
        // is served without them.
        let origin = &self.server.origin;
        let peer = connection.service.peer().clone();
        let (tools, listing) = tokio::join!(
            tokio::time::timeout_at(deadline, list_tools(&peer, &self.server)),
            tokio::time::timeout_at(deadline, listing(&peer, origin)),
        );
        let tools = match tools {
            Ok(Ok(tools)) => tools,
            Ok(Err(error)) => {
                stop(connection).await;
                return Err(error);
            }
            Err(_) => {
                stop(connection).await;
                return Err(too_slow());
            }
        };
        let listing = listing.unwrap_or_else(|_| {
            log(&format!(
                "{origin}: did not list its prompts and resources within --start-timeout; they are served once it announces a change or restarts"
            ));
            Listing::default()
        });
        Ok((connection, tools, listing))
    }

    /// Calls `name` (its raw name) with `args`, forwarding each progress
    /// notification the server sends for it and each question it asks
    /// (`forward`). A server known to be down, or found down when the call
    /// is sent (it could not be reached, so it never saw the call), is
    /// restarted (or reconnected) by this call, which then goes to it:
    /// `forward.restarted` is called with the tools it lists first, so the
    /// gateway can refuse a tool that changed. A server that goes down
    /// while it holds the call is not called again: the call may have done
    /// its work.
    pub async fn call(
        &self,
        name: &str,
        args: Option<Map<String, Value>>,
        forward: Forward<'_>,
    ) -> Called {
        let what = What {
            method: "tools/call",
            subject: name,
        };
        let replied = self
            .forward(Outgoing::Call { name, args }, what, forward)
            .await;
        called(replied, &self.server.origin, what)
    }

    /// Sends any other request (`prompts/get`, `resources/read`,
    /// `completion/complete`, `resources/subscribe`, …) as [`Upstream::call`]
    /// sends a call: restarted first when down, never sent twice once it
    /// may have arrived. The server's JSON-RPC error is its answer.
    pub async fn request(
        &self,
        request: ClientRequest,
        what: What<'_>,
        forward: Forward<'_>,
    ) -> Replied {
        self.forward(Outgoing::Request(Box::new(request)), what, forward)
            .await
    }

    async fn forward(
        &self,
        outgoing: Outgoing<'_>,
        what: What<'_>,
        forward: Forward<'_>,
    ) -> Replied {
        let origin = &self.server.origin;
        let mut again = true;
        loop {
            let up = match self.ready(forward.restarted).await {
                Ok(up) => up,
                Err(text) => return Replied::Failed(text),
            };
            let outcome = send(&up, origin, &outgoing, what, &forward).await;
            let why = match outcome {
                Sent::Answered(replied) => return replied,
                Sent::Unreached(error) => down_why(&error, None),
                Sent::Broken(error) => return self.broken(&up, what, error).await,
            };
            self.went_down(up.generation, &why).await;
            let done = self.again().1;
            if !again {
                return Replied::Failed(format!(
                    "disclose: server \"{origin}\" {why} when {what} was sent, again once {done}; it is {done} on the next {}\n",
                    what.next()
                ));
            }
            again = false;
        }
    }

    /// What a request sent on `up` gives when it came back with `error`:
    /// the server's error, or, when the connection broke (the child exited
    /// or closed it), the server marked down, to be restarted by the next
    /// request (this one may have done its work, so it is not sent again).
    async fn broken(&self, up: &Up, what: What<'_>, error: rmcp::ServiceError) -> Replied {
        let origin = &self.server.origin;
        if let Some(need) = crate::oauth::runtime::needs_sign_in(&self.server, &error) {
            log(&format!("{origin}: {need}"));
            return Replied::Failed(format!("disclose: server \"{origin}\" {need}\n"));
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
            return match error {
                rmcp::ServiceError::McpError(data) => Replied::Error(data),
                other => Replied::Failed(format!(
                    "disclose: server \"{origin}\" answered {what} with an error: {}\n",
                    error_text(&other)
                )),
            };
        }
        let why = down_why(&error, status);
        self.went_down(up.generation, &why).await;
        let done = self.again().1;
        Replied::Failed(format!(
            "disclose: server \"{origin}\" {why} during {what}; it is {done} on the next {}\n",
            what.next()
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

    /// What a request sent by [`LaneNow::send`] gives for `reply` when it
    /// is no result, as [`Upstream::forward`] reads the same outcome.
    async fn settle(&self, up: &Up, what: What<'_>, reply: Told, timeout: Duration) -> Settled {
        let origin = &self.server.origin;
        let answer = match reply {
            Told::Answered(answer) => answer,
            Told::Unsent => return Settled::Unsent,
            Told::Closed => Err(rmcp::ServiceError::TransportClosed),
            Told::TimedOut => {
                return Settled::Replied(Replied::Failed(timed_out(origin, what, timeout)));
            }
        };
        match answered(answer, up.http) {
            Sent::Answered(replied) => Settled::Replied(replied),
            Sent::Unreached(_) => Settled::Unsent,
            Sent::Broken(error) => Settled::Replied(self.broken(up, what, error).await),
        }
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
            Ok((connection, tools, listing)) => {
                let up = connection.up();
                *state = State::Up(connection);
                log(&format!("{origin}: {done}"));
                // What it lists besides tools may have changed too.
                let resources = (listing.resources, listing.templates);
                let changed = self
                    .hub
                    .update(origin, Some(listing.prompts), Some(resources));
                self.hub.announce(changed);
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

/// The text of a request its server did not answer within `timeout`.
fn timed_out(origin: &str, what: What<'_>, timeout: Duration) -> String {
    format!(
        "disclose: server \"{origin}\" did not answer {what} within {} s (--call-timeout); the {} was cancelled upstream\n",
        timeout.as_secs_f64(),
        if what.method == "tools/call" {
            "call"
        } else {
            "request"
        }
    )
}

/// What a call's reply is to the gateway: a tool result, or the text of
/// why there is none.
fn called(replied: Replied, origin: &str, what: What<'_>) -> Called {
    match replied {
        Replied::Result(result) => called_result(*result, origin, what),
        Replied::Error(data) => Called::Failed(format!(
            "disclose: server \"{origin}\" answered {what} with an error: {} ({})\n",
            data.message, data.code.0
        )),
        Replied::Failed(text) => Called::Failed(text),
        Replied::Cancelled => Called::Cancelled,
    }
}

/// What a call's result is to the gateway.
fn called_result(result: ServerResult, origin: &str, what: What<'_>) -> Called {
    match result {
        ServerResult::CallToolResult(result) => Called::Result(result),
        ServerResult::EmptyResult(_) => Called::Result(CallToolResult::success(Vec::new())),
        _ => Called::Failed(format!(
            "disclose: server \"{origin}\" answered {what} with a result this gateway does not pass on (input required, or a task)\n"
        )),
    }
}

/// What a request sent at once ([`LaneNow::send`]) gives.
#[expect(
    clippy::large_enum_variant,
    reason = "made once a request and moved once, into its done: a box would cost each answer an allocation"
)]
pub enum Settled {
    /// The server's result, as it answered.
    Result(ServerResult),
    /// Anything else, as [`Upstream::request`] would have given it.
    Replied(Replied),
    /// It never reached the server (the child is gone): the request is to
    /// be made the way that restarts it ([`Upstream::call`],
    /// [`Upstream::request`]).
    Unsent,
}

impl Settled {
    /// What [`Upstream::call`] would have given for a call of `name` on
    /// `origin`; `None` when it never reached the server.
    pub(crate) fn called(self, origin: &str, name: &str) -> Option<Called> {
        let what = What {
            method: "tools/call",
            subject: name,
        };
        match self {
            Settled::Result(result) => Some(called_result(result, origin, what)),
            Settled::Replied(replied) => Some(called(replied, origin, what)),
            Settled::Unsent => None,
        }
    }
}

/// A server up on a lane, to send one request on at once
/// ([`Upstream::lane_now`]).
pub(crate) struct LaneNow {
    upstream: Arc<Upstream>,
    up: Up,
    lane: Arc<Calls>,
}

impl LaneNow {
    /// Sends `method` with `params` and returns at once; `done` is given
    /// what [`Upstream::forward`] would give for the same outcome: at
    /// once for a result, after the same waits otherwise (a server whose
    /// connection broke is marked down first). Past `timeout` the request
    /// is cancelled upstream, as [`Upstream::forward`] cancels it.
    /// `subject` is what it names (its raw tool name, the prompt's minted
    /// name, the URI), for the messages.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn send<P: serde::Serialize>(
        self,
        method: &'static str,
        params: &P,
        subject: &str,
        timeout: Duration,
        asker: Asker,
        done: Box<dyn FnOnce(Settled) + Send>,
    ) -> Cancel {
        let LaneNow { upstream, up, lane } = self;
        let id = lane.next_id();
        let peer = up.peer.clone();
        let subject = subject.to_string();
        // RoutedAsk for from before the request is written until it is answered.
        let asking = up
            .askers
            .asking(crate::lane::upstream::request_id(id), asker);
        let finish: Finish = Box::new(move |reply| match reply {
            Told::Answered(Ok(result)) => {
                drop(asking);
                done(Settled::Result(result));
            }
            reply => {
                drop(asking);
                if matches!(reply, Told::TimedOut) {
                    drop(Abandoned::of(&up.peer, id));
                }
                tokio::spawn(async move {
                    let what = What {
                        method,
                        subject: &subject,
                    };
                    done(upstream.settle(&up, what, reply, timeout).await);
                });
            }
        });
        let deadline = tokio::time::Instant::now()
            .checked_add(timeout)
            .unwrap_or_else(far_future);
        lane.send_now(id, method, params, deadline, finish);
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

/// How one sending of a request went.
enum Sent {
    /// The server answered, or the request ended without needing it again.
    Answered(Replied),
    /// The call never reached the server (its connection was gone, or could
    /// not be opened, or the server no longer knew the session): calling it
    /// again on a new connection is safe.
    Unreached(rmcp::ServiceError),
    /// The call was sent and came back with this error: it may have run.
    Broken(rmcp::ServiceError),
}

/// A request to send: a call (on the lane, over a child's stdio) or any
/// other request (through rmcp).
enum Outgoing<'a> {
    Call {
        name: &'a str,
        args: Option<Map<String, Value>>,
    },
    Request(Box<ClientRequest>),
}

/// Sends one request to `origin` on `up`, forwarding its progress and its
/// questions as `forward` says.
async fn send(
    up: &Up,
    origin: &str,
    outgoing: &Outgoing<'_>,
    what: What<'_>,
    forward: &Forward<'_>,
) -> Sent {
    let lane = match (outgoing, &up.lane) {
        (Outgoing::Call { name, args }, Some(lane)) => Some((lane, name, args)),
        _ => None,
    };
    let mut asking = None;
    let awaiting = match lane {
        Some((lane, name, args)) => {
            // RoutedAsk for from before the call is written.
            let id = lane.next_id();
            asking = forward.asker.clone().map(|asker| {
                up.askers
                    .asking(crate::lane::upstream::request_id(id), asker)
            });
            match lane
                .send(id, name, args.as_ref(), forward.progress.is_some())
                .await
            {
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
            }
        }
        None => {
            let request = match outgoing {
                Outgoing::Call { name, args } => {
                    let mut params = CallToolRequestParams::new(name.to_string());
                    params.arguments = args.clone();
                    ClientRequest::CallToolRequest(CallToolRequest::new(params))
                }
                Outgoing::Request(request) => (**request).clone(),
            };
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
                    return Sent::Answered(Replied::Failed(format!(
                        "disclose: server \"{origin}\" could not be sent {what}: {}\n",
                        error_text(&error)
                    )));
                }
            }
        }
    };
    // rmcp writes its request from its own task: asked for before then.
    if asking.is_none() {
        asking = forward
            .asker
            .clone()
            .map(|asker| up.askers.asking(awaiting.id(), asker));
    }
    let forwarding = forward
        .progress
        .clone()
        .map(|sink| Forwarding::new(&up.progress, awaiting.token(), sink));
    let mut abandoned = Abandoned {
        peer: up.peer.clone(),
        id: Some(awaiting.id()),
    };
    let answer = tokio::select! {
        answer = tokio::time::timeout(forward.timeout, awaiting.answer()) => answer,
        () = forward.cancel.cancelled() => return Sent::Answered(Replied::Cancelled),
    };
    let Ok(answer) = answer else {
        return Sent::Answered(Replied::Failed(timed_out(origin, what, forward.timeout)));
    };
    abandoned.id = None;
    drop(asking);
    if let Some(forwarding) = forwarding {
        forwarding.settle().await;
    }
    answered(answer, up.http)
}

/// What a request's answer is: its result, or the error it came back with
/// (`Unreached` when it never reached the server).
fn answered(answer: Result<ServerResult, rmcp::ServiceError>, http: bool) -> Sent {
    match answer {
        Ok(result) => Sent::Answered(Replied::Result(Box::new(result))),
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

/// The client handler of an upstream: hands each progress notification
/// to the call it is about and each question to the session whose request
/// it serves, and tells the hub what the server announces.
#[derive(Clone)]
struct Handler {
    origin: String,
    progress: InFlight,
    askers: Askers,
    hub: Arc<Hub>,
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

    async fn on_prompt_list_changed(&self, context: NotificationContext<RoleClient>) {
        let (origin, hub, peer) = (self.origin.clone(), Arc::clone(&self.hub), context.peer);
        tokio::spawn(async move {
            let prompts = list_all(&peer, "prompts/list", "prompts").await;
            relisted(&hub, &origin, "prompts", prompts.map(|p| (Some(p), None)));
        });
    }

    async fn on_resource_list_changed(&self, context: NotificationContext<RoleClient>) {
        let (origin, hub, peer) = (self.origin.clone(), Arc::clone(&self.hub), context.peer);
        tokio::spawn(async move {
            let resources = list_all(&peer, "resources/list", "resources").await;
            let templates = list_all(&peer, "resources/templates/list", "resourceTemplates").await;
            let both = resources.and_then(|r| Ok((None, Some((r, templates?)))));
            relisted(&hub, &origin, "resources", both);
        });
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.hub.updated(&self.origin, params);
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        self.askers.elicit(&self.origin, request, context).await
    }

    #[expect(
        deprecated,
        reason = "sampling is deprecated by SEP-2577, and still forwarded"
    )]
    async fn create_message(
        &self,
        params: rmcp::model::CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::CreateMessageResult, rmcp::ErrorData> {
        self.askers.sample(&self.origin, params, context).await
    }

    fn get_info(&self) -> ClientConfig {
        // The gateway asks its clients what a server asks of it: elicitation
        // in both modes, and sampling. No roots: it has none of its own.
        let mut elicitation = ElicitationCapability::default();
        elicitation.form = Some(FormElicitationCapability::default());
        elicitation.url = Some(UrlElicitationCapability::default());
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation = Some(elicitation);
        capabilities.sampling = Some(SamplingCapability::default());
        ClientConfig::new(
            capabilities,
            Implementation::new("disclose", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// What a server lists again: its prompts, or its resources and templates.
type Relisted = (Option<Vec<Value>>, Option<(Vec<Value>, Vec<Value>)>);

/// A list read again after the server announced it changed: the hub
/// updated and every session told, or the failure logged.
fn relisted(hub: &Hub, origin: &str, kind: &str, listed: Result<Relisted, StartError>) {
    match listed {
        Ok((prompts, resources)) => hub.announce(hub.update(origin, prompts, resources)),
        Err(error) => log(&format!(
            "{origin}: announced its {kind} changed, and listing them again failed: {error}"
        )),
    }
}

async fn connect(server: &Server, handler: Handler) -> Result<Connection, StartError> {
    let progress = Arc::clone(&handler.progress);
    let askers = handler.askers.clone();
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
                askers,
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
                askers,
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

/// Every page of `tools/list`; a refusal that signing in would lift says
/// so, with the `login` command.
async fn list_tools(
    peer: &rmcp::Peer<RoleClient>,
    server: &Server,
) -> Result<Vec<Value>, StartError> {
    let signs_in = |e: &rmcp::ServiceError| crate::oauth::runtime::needs_sign_in(server, e);
    list_pages(peer, "tools/list", "tools", signs_in).await
}

/// Every page of a list (`method`, its items under `key`), each item as
/// the JSON object the server sent; at most [`MAX_PAGES`] pages.
async fn list_all(
    peer: &rmcp::Peer<RoleClient>,
    method: &str,
    key: &str,
) -> Result<Vec<Value>, StartError> {
    list_pages(peer, method, key, |_| None).await
}

/// [`list_all`], with `explain` saying what a failed request means where
/// it knows better than the error's own text.
async fn list_pages(
    peer: &rmcp::Peer<RoleClient>,
    method: &str,
    key: &str,
    explain: impl Fn(&rmcp::ServiceError) -> Option<String>,
) -> Result<Vec<Value>, StartError> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let params = cursor.as_ref().map(|c| json!({ "cursor": c }));
        let request = ClientRequest::CustomRequest(CustomRequest::new(method.to_string(), params));
        let answer = peer.send_request(request).await.map_err(|e| {
            StartError(
                explain(&e).unwrap_or_else(|| format!("failed {method}: {}", error_text(&e))),
            )
        })?;
        let page = match answer {
            ServerResult::CustomResult(CustomResult(value)) => value,
            other => serde_json::to_value(&other).map_err(|e| {
                StartError(format!("sent a {method} result that cannot be read: {e}"))
            })?,
        };
        let Some(Value::Array(listed)) = page.get(key) else {
            return Err(StartError(format!(
                "answered {method} without a \"{key}\" array"
            )));
        };
        items.extend(listed.iter().cloned());
        cursor = match page.get("nextCursor") {
            Some(Value::String(next)) if !next.is_empty() => Some(next.clone()),
            _ => return Ok(items),
        };
    }
    Err(StartError(format!(
        "sent more than {MAX_PAGES} pages of {method}"
    )))
}

/// The prompts, resources and templates a server lists, as far as it
/// declares them; a list that fails is logged and taken as empty (the
/// server's tools are served all the same).
async fn listing(peer: &rmcp::Peer<RoleClient>, origin: &str) -> Listing {
    let capabilities = peer.peer_info().map(|info| info.capabilities.clone());
    let declares = |kind: &str| {
        capabilities
            .as_ref()
            .and_then(|c| serde_json::to_value(c).ok())
            .is_some_and(|c| c.get(kind).is_some())
    };
    // The three lists at once: one round trip at start, not three.
    let list = |capability: &'static str, method: &'static str, key: &'static str| async move {
        if !declares(capability) {
            return Vec::new();
        }
        list_all(peer, method, key).await.unwrap_or_else(|error| {
            log(&format!("{origin}: {error}; none are served"));
            Vec::new()
        })
    };
    let (prompts, resources, templates) = tokio::join!(
        list("prompts", "prompts/list", "prompts"),
        list("resources", "resources/list", "resources"),
        list("resources", "resources/templates/list", "resourceTemplates"),
    );
    Listing {
        prompts,
        resources,
        templates,
    }
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
