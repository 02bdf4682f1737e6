//! Every HTTP request, before rmcp sees it: who is asking, and what it may
//! cost. The checks, in order, each refusal with its status:
//!
//! 1. the path is `/mcp` (404);
//! 2. `Host`, `Origin` and the token ([`super::guard`]: 403, 403, 401);
//! 3. an `Mcp-Session-Id` names a live session (404 otherwise, for any
//!    method, as the transport specification says, so the client starts a
//!    new one);
//! 4. a POST's body: at most `--max-body` bytes (413, by `Content-Length`
//!    before reading, or while reading), sent within the read timeout
//!    (408), and one JSON-RPC message (400 with a JSON-RPC error: -32700
//!    when it is not JSON, -32600 when it is JSON but not a message);
//! 5. an `initialize` beyond `--max-sessions` (503, with `Retry-After`:
//!    the gateway is full, whoever asks);
//! 6. a request the gateway forwards upstream (`tools/call`,
//!    `prompts/get`, `resources/read`, `completion/complete`,
//!    `resources/subscribe` and `unsubscribe`) beyond `--max-calls` in
//!    flight in its session (429, with `Retry-After`: this client is
//!    asking too much at once; the sessionless run of 2026-07-28 requests
//!    has its own such limit). A request holds its slot
//!    (`gateway::CallSlot`) until it is answered, even when its client
//!    stopped listening, so hanging up frees nothing early.
//!
//! A refused request never reaches a run, so it is in no recording and
//! changes no session; every other request and session goes on. GET and
//! DELETE go to rmcp after step 3 (it answers a missing `Accept` 406,
//! another method 405); a session ended by DELETE is 204.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::StreamableHttpService;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::gateway::{CallSlot, Gateway};
use crate::log;

use super::guard::Guard;
use super::sessions::Sessions;

/// The endpoint.
pub const PATH: &str = "/mcp";
/// The session header.
const SESSION_ID: &str = "mcp-session-id";

/// A response as rmcp builds them.
pub type Reply = Response<BoxBody<Bytes, Infallible>>;

/// What one request may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sessions at once (`--max-sessions`).
    pub sessions: usize,
    /// `tools/call` in flight in one session (`--max-calls`).
    pub calls: usize,
    /// Bytes of one request body (`--max-body`).
    pub body: usize,
    /// How long a body may take to arrive.
    pub read: Duration,
}

/// The checks in front of rmcp's service.
pub struct Front {
    service: StreamableHttpService<Gateway, Sessions>,
    sessions: Arc<Sessions>,
    guard: Guard,
    limits: Limits,
    /// One permit a session, taken by its `initialize`.
    slots: Arc<Semaphore>,
    /// The sessionless run's calls in flight.
    sessionless_calls: Arc<Semaphore>,
}

impl Front {
    /// The front of `service`.
    pub fn new(
        service: StreamableHttpService<Gateway, Sessions>,
        sessions: Arc<Sessions>,
        guard: Guard,
        limits: Limits,
    ) -> Front {
        Front {
            service,
            sessions,
            guard,
            slots: Arc::new(Semaphore::new(limits.sessions)),
            sessionless_calls: Arc::new(Semaphore::new(limits.calls)),
            limits,
        }
    }

    /// The limits it applies.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Answers one request.
    pub async fn handle(&self, request: Request<Incoming>, peer: SocketAddr) -> Reply {
        if request.uri().path() != PATH {
            return refuse(
                peer,
                StatusCode::NOT_FOUND,
                "disclose: the MCP endpoint is /mcp\n",
            );
        }
        if let Err(turned) = self.guard.check(request.headers()) {
            let mut reply = refuse(peer, turned.status(), turned.text());
            if turned.status() == StatusCode::UNAUTHORIZED {
                reply.headers_mut().insert(
                    http::header::WWW_AUTHENTICATE,
                    http::HeaderValue::from_static("Bearer realm=\"disclose\""),
                );
            }
            return reply;
        }
        // A session the gateway does not hold: 404, whatever the method, so
        // the client starts a new one (the transport specification).
        let session_id = request
            .headers()
            .get(SESSION_ID)
            .map(|v| v.to_str().unwrap_or_default().to_string());
        let live = match &session_id {
            Some(id) => match self.sessions.get(id) {
                Some(live) => Some(live),
                None => {
                    return refuse(
                        peer,
                        StatusCode::NOT_FOUND,
                        "disclose: no such session (it ended, or never was); start a new one with initialize\n",
                    );
                }
            },
            None => None,
        };
        if request.method() == http::Method::DELETE {
            let mut reply = self.service.handle(request).await;
            // rmcp answers an ended session 202; the Python SDK takes 200 or
            // 204 as done (and warns otherwise), the TypeScript SDK any 2xx.
            if reply.status() == StatusCode::ACCEPTED {
                *reply.status_mut() = StatusCode::NO_CONTENT;
            }
            return reply;
        }
        if request.method() != http::Method::POST {
            return self.service.handle(request).await;
        }
        let (parts, body) = request.into_parts();
        let bytes = match self.read_body(&parts.headers, body).await {
            Ok(bytes) => bytes,
            Err((status, text)) => return refuse(peer, status, text),
        };
        let message: ClientJsonRpcMessage = match serde_json::from_slice(&bytes) {
            Ok(message) => message,
            Err(_) => return not_json_rpc(peer, &bytes),
        };
        let (initialize, call) = match &message {
            ClientJsonRpcMessage::Request(request) => (
                matches!(request.request, ClientRequest::InitializeRequest(_)),
                forwarded(&request.request),
            ),
            _ => (false, false),
        };
        let slot = match (initialize, &live) {
            (true, None) => match Arc::clone(&self.slots).try_acquire_owned() {
                Ok(slot) => Some(slot),
                Err(_) => {
                    let text = format!(
                        "disclose: the gateway serves {} sessions, its most (--max-sessions); try again when one ends\n",
                        self.limits.sessions
                    );
                    return refuse_for(peer, StatusCode::SERVICE_UNAVAILABLE, &text, 30);
                }
            },
            _ => None,
        };
        let mut parts = parts;
        if call {
            let calls = match &live {
                Some(live) => Arc::clone(&live.calls),
                None => Arc::clone(&self.sessionless_calls),
            };
            match calls.try_acquire_owned() {
                // The call takes its slot and holds it until it is answered,
                // whether or not the client still listens; a request that
                // never reaches it drops the slot with its extensions.
                Ok(permit) => {
                    parts.extensions.insert(CallSlot::new(permit));
                }
                Err(_) => {
                    let text = format!(
                        "disclose: this session has {} requests in flight to its servers (tools/call and the like), its most (--max-calls); send the next when one is answered\n",
                        self.limits.calls
                    );
                    return refuse_for(peer, StatusCode::TOO_MANY_REQUESTS, &text, 1);
                }
            }
        }
        let reply = self
            .service
            .handle(Request::from_parts(parts, Full::new(bytes)))
            .await;
        if let Some(slot) = slot {
            match reply
                .headers()
                .get(SESSION_ID)
                .and_then(|v| v.to_str().ok())
            {
                Some(id) => self.sessions.attach(id, slot),
                None => drop(slot),
            }
        }
        reply
    }

    /// The body, within the size limit and the read timeout.
    async fn read_body(
        &self,
        headers: &http::HeaderMap,
        body: Incoming,
    ) -> Result<Bytes, (StatusCode, &'static str)> {
        const TOO_LARGE: &str =
            "disclose: the request body is larger than this gateway takes (--max-body)\n";
        let declared = headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.limits.body as u64) {
            return Err((StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE));
        }
        let collected = tokio::time::timeout(
            self.limits.read,
            Limited::new(body, self.limits.body).collect(),
        )
        .await;
        match collected {
            Ok(Ok(collected)) => Ok(collected.to_bytes()),
            Ok(Err(error)) if error.is::<http_body_util::LengthLimitError>() => {
                Err((StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE))
            }
            Ok(Err(_)) => Err((
                StatusCode::BAD_REQUEST,
                "disclose: the request body could not be read\n",
            )),
            Err(_) => Err((
                StatusCode::REQUEST_TIMEOUT,
                "disclose: the request body did not arrive in time\n",
            )),
        }
    }
}

/// Whether the gateway forwards `request` upstream (and so counts it among
/// a session's requests in flight).
fn forwarded(request: &ClientRequest) -> bool {
    matches!(
        request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::GetPromptRequest(_)
            | ClientRequest::ReadResourceRequest(_)
            | ClientRequest::CompleteRequest(_)
            | ClientRequest::SubscribeRequest(_)
            | ClientRequest::UnsubscribeRequest(_)
    )
}

/// A refusal: its status, a text body, and one line on stderr (the peer
/// and the status, never what was sent).
fn refuse(peer: SocketAddr, status: StatusCode, text: &str) -> Reply {
    log(&format!(
        "http: refused a request from {peer}: {} {}",
        status.as_u16(),
        text.trim_start_matches("disclose: ").trim_end()
    ));
    let mut reply = Response::new(Full::new(Bytes::from(text.to_string())).boxed());
    *reply.status_mut() = status;
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    reply
}

/// A body that is not one JSON-RPC message: 400 with a JSON-RPC error
/// (`id` null), -32700 when it is not JSON at all, -32600 otherwise.
fn not_json_rpc(peer: SocketAddr, bytes: &[u8]) -> Reply {
    let (code, message) = match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(_) => (-32600, "Invalid Request: not a JSON-RPC 2.0 message"),
        Err(_) => (-32700, "Parse error: the body is not JSON"),
    };
    log(&format!(
        "http: refused a request from {peer}: 400 {message}"
    ));
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}});
    let mut reply = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *reply.status_mut() = StatusCode::BAD_REQUEST;
    reply.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    reply
}

/// A refusal that a later try may not meet: with `Retry-After`.
fn refuse_for(peer: SocketAddr, status: StatusCode, text: &str, seconds: u32) -> Reply {
    let mut reply = refuse(peer, status, text);
    reply
        .headers_mut()
        .insert(http::header::RETRY_AFTER, http::HeaderValue::from(seconds));
    reply
}
