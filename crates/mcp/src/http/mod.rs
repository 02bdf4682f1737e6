//! `--listen ADDR`: the gateway over streamable HTTP at `/mcp`, one run per
//! MCP session, safe by default.
//!
//! The transport is rmcp's `StreamableHttpService` (POST answered with JSON
//! or an SSE stream, GET for the server's own messages, DELETE to end a
//! session, the protocol-version header; both the handshake revisions,
//! with `Mcp-Session-Id`, and 2026-07-28, which has none), served by hyper
//! over HTTP/1.1. Its handler is [`crate::gateway::Gateway`]: a new one for
//! each session, which opens its own run at `initialize`. In front of it,
//! [`front`] checks who is asking ([`guard`]: `Host`, `Origin`, token) and
//! what a request may cost (body size, sessions, calls in flight), and
//! [`sessions`] keeps the table those limits need.
//!
//! Safe by default: a loopback address unless told otherwise, and a
//! non-loopback one only with a token (`--token-env VAR`, read from that
//! variable, never from the command line), refused with exit 2 otherwise.
//! The bound address is said on stderr (`listening on http://…/mcp`), so
//! `--listen 127.0.0.1:0` needs no fixed port.

pub mod front;
pub mod guard;
pub mod sessions;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::gateway::Gateway;
use crate::log;
use crate::shared::Shared;

use self::front::{Front, Limits};
use self::guard::{Guard, Origin};
use self::sessions::Sessions;

/// The default of `--max-sessions`.
pub const MAX_SESSIONS: usize = 32;
/// The default of `--max-calls`.
pub const MAX_CALLS: usize = 16;
/// The default of `--max-body`: 1 MiB.
pub const MAX_BODY: usize = 1 << 20;
/// The default of `--idle-timeout`, in seconds.
pub const IDLE_TIMEOUT: u64 = 600;
/// The shortest token `--token-env` accepts, in bytes.
pub const SHORTEST_TOKEN: usize = 16;
/// How long a client has to send a request's headers (an idle kept-alive
/// connection included), and then its body.
const READ_TIMEOUT: Duration = Duration::from_secs(30);
/// The most connections served at once; past it, the next is accepted when
/// one closes.
const MAX_CONNECTIONS: usize = 1024;
/// How long sessions have to end when the gateway stops.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// The HTTP server's settings (`--listen`).
#[derive(Clone, Debug, clap::Args)]
pub struct HttpArgs {
    /// The environment variable that holds the bearer token every request
    /// must carry (Authorization: Bearer TOKEN). Required for a
    /// non-loopback --listen address.
    #[arg(long, value_name = "VAR", requires = "listen")]
    pub token_env: Option<String>,
    /// A Host name to allow on a loopback address besides the loopback
    /// ones (a reverse proxy that passes its own name on); repeatable.
    #[arg(long, value_name = "NAME", requires = "listen")]
    pub allow_host: Vec<String>,
    /// An Origin to allow besides the loopback ones (`scheme://host[:port]`);
    /// repeatable.
    #[arg(long, value_name = "ORIGIN", requires = "listen", value_parser = origin)]
    pub allow_origin: Vec<String>,
    /// The most MCP sessions at once; one more is refused 503.
    #[arg(long, value_name = "N", default_value_t = MAX_SESSIONS, requires = "listen", value_parser = at_least_one)]
    pub max_sessions: usize,
    /// The most requests to its servers (tools/call, prompts/get,
    /// resources/read, …) in flight in one session; one more is refused
    /// 429.
    #[arg(long, value_name = "N", default_value_t = MAX_CALLS, requires = "listen", value_parser = at_least_one)]
    pub max_calls: usize,
    /// The largest request body in bytes; a larger one is refused 413.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_BODY, requires = "listen", value_parser = at_least_one)]
    pub max_body: usize,
    /// Seconds without a message after which a session is ended and its
    /// recording closed; longer than --call-timeout.
    #[arg(long, value_name = "SECONDS", default_value_t = IDLE_TIMEOUT, requires = "listen")]
    pub idle_timeout: u64,
}

/// `--listen`: `IP:PORT`, `[IPv6]:PORT` or `localhost:PORT`.
pub fn listen_address(text: &str) -> Result<SocketAddr, String> {
    if let Some(port) = text.strip_prefix("localhost:") {
        let port: u16 = port
            .parse()
            .map_err(|_| format!("\"{port}\" is not a port"))?;
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    text.parse().map_err(|_| {
        format!("\"{text}\" is not an address to listen on: give IP:PORT, such as 127.0.0.1:8080 (port 0 picks a free one)")
    })
}

fn origin(text: &str) -> Result<String, String> {
    match Origin::parse(text) {
        Some(_) => Ok(text.to_string()),
        None => Err(format!(
            "\"{text}\" is not an origin: give scheme://host[:port], such as https://ide.example.com"
        )),
    }
}

fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("\"{text}\" is not a whole number of 1 or more")),
    }
}

/// A bound listener and the settings it serves with.
pub struct Listener {
    tcp: tokio::net::TcpListener,
    addr: SocketAddr,
    guard: Guard,
    limits: Limits,
    idle: Duration,
    token: Option<String>,
}

impl Listener {
    /// Checks the settings and binds. `Err` is an exit-2 message: a
    /// non-loopback address without a token, a token variable unset or too
    /// short, an idle timeout no longer than a call, an address that cannot
    /// be bound.
    pub async fn bind(addr: SocketAddr, args: &crate::Args) -> Result<Listener, String> {
        let http = &args.http;
        let token = match &http.token_env {
            Some(var) => Some(token(var)?),
            None => None,
        };
        let loopback = addr.ip().is_loopback();
        if !loopback && token.is_none() {
            return Err(format!(
                "--listen {addr}: not a loopback address, and no token: anyone who can reach it could call every tool behind the gateway with its credentials. Give a token with --token-env VAR (the token in the variable VAR), or listen on 127.0.0.1"
            ));
        }
        let idle = Duration::from_secs(http.idle_timeout);
        if idle <= args.call_timeout {
            return Err(format!(
                "--idle-timeout {} s is not longer than --call-timeout {} s: a call in flight would outlive its session",
                http.idle_timeout,
                args.call_timeout.as_secs_f64()
            ));
        }
        let origins = http
            .allow_origin
            .iter()
            .filter_map(|o| Origin::parse(o))
            .collect();
        let tcp = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("--listen {addr}: cannot listen there: {e}"))?;
        let addr = tcp
            .local_addr()
            .map_err(|e| format!("--listen {addr}: {e}"))?;
        Ok(Listener {
            tcp,
            addr,
            guard: Guard::new(loopback, &http.allow_host, origins, token.as_deref()),
            limits: Limits {
                sessions: http.max_sessions,
                calls: http.max_calls,
                body: http.max_body,
                read: READ_TIMEOUT,
            },
            idle,
            token,
        })
    }

    /// The token, to scrub it from all output.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }
}

/// The token in `var`: set, and at least [`SHORTEST_TOKEN`] bytes.
fn token(var: &str) -> Result<String, String> {
    match std::env::var(var) {
        Ok(token) if token.trim().len() >= SHORTEST_TOKEN => Ok(token.trim().to_string()),
        Ok(token) if token.trim().is_empty() => Err(format!(
            "--token-env {var}: the variable is empty; put the token in it"
        )),
        Ok(_) => Err(format!(
            "--token-env {var}: the token is shorter than {SHORTEST_TOKEN} characters; use a long random one (openssl rand -hex 32)"
        )),
        Err(_) => Err(format!(
            "--token-env {var}: the variable is not set (or not UTF-8); put the token in it"
        )),
    }
}

/// Serves until `stop` resolves, then ends every session (closing its
/// recording) and returns.
pub async fn serve(
    shared: Arc<Shared>,
    listener: Listener,
    stop: impl Future<Output = ()>,
) -> Result<(), String> {
    let ended = CancellationToken::new();
    let sessions = Arc::new(Sessions::new(listener.idle, listener.limits.calls));
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(ended.child_token())
        .with_max_request_body_bytes(listener.limits.body)
        .with_json_response(true)
        // Host and Origin are checked in front (`guard`), before the body
        // is read; rmcp's own checks would refuse a non-loopback Host.
        .disable_allowed_hosts()
        .disable_allowed_origins();
    config.sse_keep_alive = Some(Duration::from_secs(15));
    let factory = {
        let shared = Arc::clone(&shared);
        move || Ok(Gateway::unbound(Arc::clone(&shared)))
    };
    let service = StreamableHttpService::new(factory, Arc::clone(&sessions), config);
    let front = Arc::new(Front::new(
        service,
        Arc::clone(&sessions),
        listener.guard,
        listener.limits,
    ));
    log(&format!(
        "listening on http://{}/mcp (sessions at most {}, calls in flight at most {} a session, bodies at most {} bytes, idle sessions end after {} s{})",
        listener.addr,
        front.limits().sessions,
        front.limits().calls,
        front.limits().body,
        listener.idle.as_secs(),
        if listener.token.is_some() {
            "; a bearer token is required"
        } else {
            ""
        }
    ));
    let reaper = tokio::spawn(reap_sessionless(Arc::clone(&shared), listener.idle));
    let accepting = accept(listener.tcp, Arc::clone(&front), ended.clone());
    tokio::select! {
        () = accepting => {}
        () = stop => {}
    }
    ended.cancel();
    reaper.abort();
    shared.end_sessionless();
    // Sessions end as rmcp sees the cancellation; each closes its recording.
    let deadline = tokio::time::Instant::now() + STOP_GRACE;
    while sessions.count() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Accepts connections until `ended`; each is served on its own task, at
/// most [`MAX_CONNECTIONS`] at once.
async fn accept(tcp: tokio::net::TcpListener, front: Arc<Front>, ended: CancellationToken) {
    let open = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&open).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => return,
            },
            () = ended.cancelled() => return,
        };
        let (stream, peer) = tokio::select! {
            accepted = tcp.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of descriptors, for one: wait a moment, go on.
                    log(&format!("http: cannot accept a connection: {error}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = ended.cancelled() => return,
        };
        let front = Arc::clone(&front);
        let ended = ended.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let service = hyper::service::service_fn(move |request| {
                let front = Arc::clone(&front);
                async move { Ok::<_, std::convert::Infallible>(front.handle(request, peer).await) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(READ_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                () = ended.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(STOP_GRACE, connection).await;
                }
            }
        });
    }
}

/// Ends the sessionless run after `idle` without a call.
async fn reap_sessionless(shared: Arc<Shared>, idle: Duration) {
    let every = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
    loop {
        tokio::time::sleep(every).await;
        shared.end_idle_sessionless(idle);
    }
}
