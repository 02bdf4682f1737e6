//! A stdio upstream's side of the lane: the gateway's `tools/call` to it,
//! and its plain `prompts/get` and `resources/read`.
//!
//! [`Calls::send`] writes the request itself, under an id above every
//! id rmcp's client gives (a `u32`), so the two never meet on one
//! connection; the tap takes the answer to such an id and hands it to the
//! call that waits for it, read as rmcp reads a result (`ServerResult`).
//! [`Calls::send_now`] sends one (a call, or any request whose answer is
//! read as rmcp reads a result) without waiting: the tap hands its answer
//! to the call's [`Finish`] as it reads it, and the lane's sweeper, one
//! task a connection, tells it when its deadline passes (so a call costs
//! no timer of its own). Everything else the server sends (its progress
//! notifications among it) goes to rmcp. When the server's stdout ends,
//! every call still waiting is told the connection closed.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolResult, ContentBlock, MetaObject, NumberOrString, ProgressToken, RequestId, ResultType,
    ServerResult,
};
use rmcp::{ErrorData, RoleClient, ServiceError};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio::sync::{Notify, oneshot};
use tokio::time::Instant;

use super::{Lines, Reader, SharedWriter, Tap, Writer};
use crate::session::lock;

/// The first id the lane gives.
const FIRST: u64 = 1 << 32;

/// What a call sent on the lane gets back.
pub type CallReply = Result<ServerResult, ServiceError>;

/// What a call sent at once is told, once.
#[expect(
    clippy::large_enum_variant,
    reason = "made once a call and moved once, into its finish: a box would cost each answer an allocation"
)]
pub enum Told {
    /// The server's answer.
    Answered(CallReply),
    /// It could not be written: the server never saw it.
    Unsent,
    /// The server's stdout ended first.
    Closed,
    /// Its deadline passed first; it waits no longer.
    TimedOut,
}

/// Where a call sent at once is told what became of it.
pub type Finish = Box<dyn FnOnce(Told) + Send>;

/// A call waiting for its answer.
enum Waiter {
    /// Sent by [`Calls::send`]: its task awaits the answer.
    Awaited(oneshot::Sender<CallReply>),
    /// Sent by [`Calls::send_now`].
    Now { finish: Finish, deadline: Instant },
}

impl Waiter {
    fn deadline(&self) -> Option<Instant> {
        match self {
            Waiter::Awaited(_) => None,
            Waiter::Now { deadline, .. } => Some(*deadline),
        }
    }
}

/// The lane of one connection to a stdio upstream.
pub struct Calls {
    writer: SharedWriter,
    /// The calls waiting for their answer, by id.
    waiting: Mutex<BTreeMap<u64, Waiter>>,
    next: AtomicU64,
    closed: AtomicBool,
    /// Whether the sweeper has started, and the deadline it sleeps until
    /// (`None` while it waits for a call).
    sweeper: Mutex<(bool, Option<Instant>)>,
    /// Wakes the sweeper: a call due before what it sleeps until, or the
    /// end of the connection.
    wake: Arc<Notify>,
}

/// The transport rmcp's client is served over.
pub type UpstreamLines = Lines<RoleClient, Arc<Calls>>;

/// A call sent on the lane, waiting for its answer; dropped, it waits no
/// longer.
pub struct Waiting {
    id: u64,
    answer: oneshot::Receiver<CallReply>,
    lane: Arc<Calls>,
}

#[derive(Serialize)]
struct Request<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'static str,
    params: &'a P,
}

/// A `tools/call`'s params, as the lane sends them.
#[derive(Serialize)]
pub struct Params<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<&'a Map<String, Value>>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<Meta>,
}

impl<'a> Params<'a> {
    /// A call of `name` with `arguments`, asking no progress.
    pub fn call(name: &'a str, arguments: Option<&'a Map<String, Value>>) -> Params<'a> {
        Params {
            name,
            arguments,
            meta: None,
        }
    }
}

#[derive(Serialize)]
struct Meta {
    #[serde(rename = "progressToken")]
    progress_token: u64,
}

/// A line, as far as the tap reads it to know whether it answers a call
/// of the lane.
#[derive(Deserialize)]
struct Peek<'a> {
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    method: Option<serde::de::IgnoredAny>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

impl Calls {
    /// The lane of a connection reading `reader` and writing `writer`, and
    /// the transport rmcp's client is served over.
    pub fn over(reader: Reader, writer: Writer) -> (Arc<Calls>, UpstreamLines) {
        let writer = super::shared(writer);
        let lane = Arc::new(Calls {
            writer: Arc::clone(&writer),
            waiting: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(FIRST),
            closed: AtomicBool::new(false),
            sweeper: Mutex::new((false, None)),
            wake: Arc::new(Notify::new()),
        });
        (Arc::clone(&lane), Lines::new(lane, reader, writer))
    }

    /// Whether the server's stdout has ended.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Sends `tools/call` `name` with `arguments` under `id` (from
    /// [`Calls::next_id`]), asking for progress under the call's id when
    /// `progress`. `Err` when it could not be
    /// written: the server never saw it.
    pub async fn send(
        self: &Arc<Self>,
        id: u64,
        name: &str,
        arguments: Option<&Map<String, Value>>,
        progress: bool,
    ) -> std::io::Result<Waiting> {
        let (sender, answer) = oneshot::channel();
        let waiting = Waiting {
            id,
            answer,
            lane: Arc::clone(self),
        };
        // Waiting first, then the check: `end` marks the lane closed before
        // it lets every waiting call go, so none is left waiting.
        lock(&self.waiting).insert(id, Waiter::Awaited(sender));
        if self.is_closed() {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        }
        let params = Params {
            name,
            arguments,
            meta: progress.then_some(Meta { progress_token: id }),
        };
        super::write_line(&self.writer, request_line(id, "tools/call", &params)?).await?;
        Ok(waiting)
    }

    /// A new id for a call.
    pub fn next_id(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends `method` with `params` under `id` (from [`Calls::next_id`])
    /// without waiting: the request is written at once when the writer is
    /// free (or on a task of its own after the lines before it), and
    /// `finish` is told, once, what became of it.
    pub fn send_now<P: Serialize>(
        self: &Arc<Self>,
        id: u64,
        method: &'static str,
        params: &P,
        deadline: Instant,
        finish: Finish,
    ) {
        {
            // Waiting and armed under one lock, which the sweeper also
            // holds while it reads the next deadline: neither misses the
            // other, on any runtime.
            let mut waiting = lock(&self.waiting);
            waiting.insert(id, Waiter::Now { finish, deadline });
            self.arm(deadline);
        }
        let line = match request_line(id, method, params) {
            Ok(line) if !self.is_closed() => line,
            _ => return self.finish(id, Told::Unsent),
        };
        let lane = Arc::clone(self);
        super::write_now(&self.writer, line, move |written| {
            if written.is_err() {
                lane.finish(id, Told::Unsent);
            }
        });
    }

    /// Stops waiting for call `id` (sent at once), which is then never
    /// finished; `false` when it was no longer waiting.
    pub fn forget(&self, id: u64) -> bool {
        lock(&self.waiting).remove(&id).is_some()
    }

    /// Tells call `id`, when it still waits, what became of it.
    fn finish(&self, id: u64, reply: Told) {
        let waiter = lock(&self.waiting).remove(&id);
        if let Some(Waiter::Now { finish, .. }) = waiter {
            finish(reply);
        }
    }

    /// Has the sweeper see a call due at `deadline`: started with the
    /// first call, woken only when it sleeps past it. Called with the
    /// waiting calls locked.
    fn arm(self: &Arc<Self>, deadline: Instant) {
        let mut sweeper = lock(&self.sweeper);
        if !sweeper.0 {
            sweeper.0 = true;
            tokio::spawn(sweep(Arc::downgrade(self), Arc::clone(&self.wake)));
        }
        if sweeper.1.is_none_or(|armed| deadline < armed) {
            self.wake.notify_one();
        }
    }

    /// Tells each call sent at once whose deadline is past `now` that it
    /// timed out; gives the next deadline, which the sweeper sleeps until.
    fn expire(&self, now: Instant) -> Option<Instant> {
        let mut expired = Vec::new();
        let next = {
            let mut waiting = lock(&self.waiting);
            let due: Vec<u64> = waiting
                .iter()
                .filter(|(_, waiter)| waiter.deadline().is_some_and(|at| at <= now))
                .map(|(id, _)| *id)
                .collect();
            for id in due {
                if let Some(Waiter::Now { finish, .. }) = waiting.remove(&id) {
                    expired.push(finish);
                }
            }
            let next = waiting.values().filter_map(Waiter::deadline).min();
            lock(&self.sweeper).1 = next;
            next
        };
        for finish in expired {
            finish(Told::TimedOut);
        }
        next
    }
}

/// The sweeper of a lane's calls sent at once: asleep until the earliest
/// deadline, or until a call is sent when none waits. Its sleep is not
/// moved by the calls that come and go (each is due after it), so calls
/// cost it nothing; it ends with the connection.
async fn sweep(lane: std::sync::Weak<Calls>, wake: Arc<Notify>) {
    loop {
        let next = match lane.upgrade() {
            Some(lane) if !lane.is_closed() => lane.expire(Instant::now()),
            _ => return,
        };
        match next {
            Some(at) => tokio::select! {
                () = tokio::time::sleep_until(at) => {}
                () = wake.notified() => {}
            },
            None => wake.notified().await,
        }
    }
}

/// A request of the lane, as one line.
fn request_line<P: Serialize>(
    id: u64,
    method: &'static str,
    params: &P,
) -> std::io::Result<Vec<u8>> {
    super::line(&Request {
        jsonrpc: "2.0",
        id,
        method,
        params,
    })
}

/// A lane id as JSON-RPC's request id.
pub fn request_id(id: u64) -> RequestId {
    NumberOrString::Number(id as i64)
}

impl Waiting {
    /// The request's id, as `notifications/cancelled` names it.
    pub fn id(&self) -> RequestId {
        request_id(self.id)
    }

    /// The progress token it asked for progress under.
    pub fn token(&self) -> ProgressToken {
        ProgressToken(self.id())
    }

    /// The server's answer; `TransportClosed` when the connection closed
    /// first.
    pub async fn answer(mut self) -> CallReply {
        (&mut self.answer)
            .await
            .unwrap_or(Err(ServiceError::TransportClosed))
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        lock(&self.lane.waiting).remove(&self.id);
    }
}

/// A `tools/call` result with `content` and no key but `CallToolResult`'s,
/// each read as `CallToolResult` reads it, in one pass.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CallParts {
    /// Present, and a list or `null`.
    #[serde(deserialize_with = "Option::deserialize")]
    content: Option<Vec<ContentBlock>>,
    /// A `null` given is kept, apart from one not given.
    #[serde(default, deserialize_with = "present")]
    structured_content: Option<Value>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(rename = "_meta", default)]
    meta: Option<MetaObject>,
    #[serde(default)]
    result_type: Option<ResultType>,
}

fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(value).map(Some)
}

impl CallParts {
    /// The `CallToolResult` rmcp reads, when it reads one: a complete
    /// result with at least one of its own keys.
    fn result(self) -> Option<CallToolResult> {
        let complete = self
            .result_type
            .as_ref()
            .is_none_or(ResultType::is_complete);
        let known =
            self.content.is_some() || self.structured_content.is_some() || self.is_error.is_some();
        if !complete || !known {
            return None;
        }
        let mut result = CallToolResult::default();
        result.result_type = self.result_type;
        result.content = self.content.unwrap_or_default();
        result.structured_content = self.structured_content;
        result.is_error = self.is_error;
        result.meta = self.meta;
        Some(result)
    }
}

/// The keys of a `prompts/get` result: `messages`, and no key but
/// `GetPromptResult`'s. Every variant of `ServerResult` before it needs a
/// key that is not among them (`supportedVersions`, `protocolVersion`,
/// `completion`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[expect(dead_code, reason = "only which keys a result has is read")]
struct PromptKeys {
    #[serde(default)]
    result_type: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    description: Option<serde::de::IgnoredAny>,
    messages: serde::de::IgnoredAny,
    #[serde(rename = "_meta", default)]
    meta: Option<serde::de::IgnoredAny>,
}

/// The keys of a `resources/read` result: `contents`, and no key but
/// `ReadResourceResult`'s. Every variant of `ServerResult` before it needs
/// a key that is not among them (those of [`PromptKeys`], `messages`,
/// `prompts`, `resources`, `resourceTemplates`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[expect(dead_code, reason = "only which keys a result has is read")]
struct ReadKeys {
    #[serde(default)]
    result_type: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    ttl_ms: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    cache_scope: Option<serde::de::IgnoredAny>,
    contents: serde::de::IgnoredAny,
    #[serde(rename = "_meta", default)]
    meta: Option<serde::de::IgnoredAny>,
}

/// A result as rmcp reads one (`ServerResult`, an untagged union tried
/// variant by variant). A result with `content` and no key but those of
/// `CallToolResult` is one no variant before it reads (each needs a key of
/// its own: `lane_reads_a_call_result_as_rmcp_does`), so it is read as
/// that variant at once; so is a result with the keys of a prompt
/// ([`PromptKeys`]) or a read ([`ReadKeys`]) that reads as one
/// (`lane_reads_a_prompt_or_read_result_as_rmcp_does`).
fn read_result(text: &str) -> serde_json::Result<ServerResult> {
    if let Some(result) = serde_json::from_str::<CallParts>(text)
        .ok()
        .and_then(CallParts::result)
    {
        return Ok(ServerResult::CallToolResult(result));
    }
    if serde_json::from_str::<PromptKeys>(text).is_ok()
        && let Ok(result) = serde_json::from_str(text)
    {
        return Ok(ServerResult::GetPromptResult(result));
    }
    if serde_json::from_str::<ReadKeys>(text).is_ok()
        && let Ok(result) = serde_json::from_str(text)
    {
        return Ok(ServerResult::ReadResourceResult(result));
    }
    serde_json::from_str(text)
}

impl Tap for Arc<Calls> {
    fn take(&self, line: &[u8]) -> bool {
        let Ok(peek) = serde_json::from_slice::<Peek>(line) else {
            return false;
        };
        let (Some(id), None) = (peek.id, &peek.method) else {
            return false;
        };
        if id < FIRST {
            return false;
        }
        let Some(waiter) = lock(&self.waiting).remove(&id) else {
            // A late answer (the call timed out or was cancelled).
            return true;
        };
        let answered = match (peek.result, peek.error) {
            (Some(result), None) => read_result(result.get()).map_err(|error| {
                ServiceError::McpError(ErrorData::internal_error(
                    format!("its result could not be read: {error}"),
                    None,
                ))
            }),
            (None, Some(error)) => Err(ServiceError::McpError(
                serde_json::from_str::<ErrorData>(error.get()).unwrap_or_else(|error| {
                    ErrorData::internal_error(format!("its error could not be read: {error}"), None)
                }),
            )),
            _ => Err(ServiceError::McpError(ErrorData::internal_error(
                "its answer has neither a result nor an error",
                None,
            ))),
        };
        match waiter {
            Waiter::Awaited(sender) => {
                let _ = sender.send(answered);
            }
            Waiter::Now { finish, .. } => finish(Told::Answered(answered)),
        }
        true
    }

    async fn end(&self) {
        self.closed.store(true, Ordering::Release);
        let waiting = std::mem::take(&mut *lock(&self.waiting));
        for waiter in waiting.into_values() {
            if let Waiter::Now { finish, .. } = waiter {
                finish(Told::Closed);
            }
        }
        self.wake.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use rmcp::transport::Transport as _;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;

    /// `read_result` reads each of `results` as rmcp's `ServerResult` does:
    /// the same variant, the same value, or an error where rmcp errs.
    fn reads_as_rmcp_does(results: &[&str]) {
        for text in results {
            let rmcp = serde_json::from_str::<ServerResult>(text)
                .map(|r| serde_json::to_value(r).unwrap());
            let lane = read_result(text).map(|r| serde_json::to_value(r).unwrap());
            assert_eq!(lane.as_ref().ok(), rmcp.as_ref().ok(), "{text}");
            let variant = |r: &ServerResult| std::mem::discriminant(r);
            if let (Ok(a), Ok(b)) = (
                read_result(text),
                serde_json::from_str::<ServerResult>(text),
            ) {
                assert_eq!(variant(&a), variant(&b), "{text}");
            }
        }
    }

    /// The shortcuts of `read_result` for a prompt and a read read what
    /// rmcp's `ServerResult` reads.
    #[test]
    fn lane_reads_a_prompt_or_read_result_as_rmcp_does() {
        reads_as_rmcp_does(&[
            r#"{"messages":[]}"#,
            r#"{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}"#,
            r#"{"description":"d","messages":[{"role":"assistant","content":{"type":"resource","resource":{"uri":"a://b","text":"t","mimeType":"text/plain"}}}]}"#,
            r#"{"messages":[{"role":"user","content":{"type":"image","data":"aGk=","mimeType":"image/png"}}],"_meta":{"a":1}}"#,
            r#"{"messages":[{"role":"user","content":{"type":"resource_link","uri":"a://b","name":"b"}}]}"#,
            r#"{"messages":[],"resultType":"complete"}"#,
            r#"{"messages":[],"resultType":"input_required"}"#,
            r#"{"messages":[],"description":null}"#,
            r#"{"messages":[],"_meta":null}"#,
            r#"{"messages":[],"_meta":{"n":18446744073709551615,"f":1.5}}"#,
            r#"{"messages":"x"}"#,
            r#"{"messages":null}"#,
            r#"{"messages":[{"role":"user","content":{"type":"text"}}]}"#,
            r#"{"messages":[{"role":"nobody","content":{"type":"text","text":"x"}}]}"#,
            r#"{"messages":[],"completion":{"values":[]}}"#,
            r#"{"messages":[],"protocolVersion":"2025-11-25"}"#,
            r#"{"messages":[],"messages":[]}"#,
            r#"{"messages":[],"contents":[]}"#,
            r#"{"contents":[]}"#,
            r#"{"contents":[{"uri":"a://b","text":"t","mimeType":"text/plain"}]}"#,
            r#"{"contents":[{"uri":"a://b","blob":"aGk="}]}"#,
            r#"{"contents":[{"uri":"a://b","text":"t","_meta":{"a":1}}],"_meta":{"b":2}}"#,
            r#"{"contents":[],"ttlMs":0,"cacheScope":"private"}"#,
            r#"{"contents":[],"ttlMs":-1}"#,
            r#"{"contents":[],"ttlMs":1.5}"#,
            r#"{"contents":[],"ttlMs":null,"cacheScope":null}"#,
            r#"{"contents":[],"cacheScope":"nonsense"}"#,
            r#"{"contents":[],"resultType":"complete"}"#,
            r#"{"contents":[],"resultType":"task"}"#,
            r#"{"contents":"x"}"#,
            r#"{"contents":null}"#,
            r#"{"contents":[{"text":"no uri"}]}"#,
            r#"{"contents":[],"prompts":[]}"#,
            r#"{"contents":[],"resources":[]}"#,
            r#"{"contents":[],"contents":[]}"#,
        ]);
    }

    /// The shortcut of `read_result` reads what rmcp's `ServerResult` reads.
    #[test]
    fn lane_reads_a_call_result_as_rmcp_does() {
        let results = [
            r#"{"content":[]}"#,
            r#"{"content":[{"type":"text","text":"Echo: hi"}]}"#,
            r#"{"content":[{"type":"text","text":"x"}],"isError":true}"#,
            r#"{"content":[{"type":"text","text":"x"}],"isError":false,"_meta":{"a":1}}"#,
            r#"{"content":[],"structuredContent":{"n":18446744073709551615}}"#,
            r#"{"content":[],"structuredContent":[1,2]}"#,
            r#"{"content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}"#,
            r#"{"content":[{"type":"resource","resource":{"uri":"file:///a","text":"t"}}]}"#,
            r#"{"content":[],"resultType":"complete"}"#,
            r#"{"content":[],"resultType":"input_required"}"#,
            r#"{"content":[],"resultType":"task"}"#,
            r#"{"content":"not a list"}"#,
            r#"{"content":[{"type":"text"}]}"#,
            r#"{"content":[],"action":"accept"}"#,
            r#"{"content":[],"tools":[]}"#,
            r#"{"content":null}"#,
            r#"{"content":null,"isError":true}"#,
            r#"{"content":[],"structuredContent":null}"#,
            r#"{"content":[],"isError":null}"#,
            r#"{"content":[],"content":[]}"#,
            r#"{"isError":false}"#,
            r#"{}"#,
        ];
        reads_as_rmcp_does(&results);
    }

    /// The lines the server reads.
    type ServerReads = tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>;

    /// A lane, its transport, and the server's end: the lines it reads
    /// and where it writes.
    fn connected() -> (
        Arc<Calls>,
        UpstreamLines,
        ServerReads,
        tokio::io::WriteHalf<tokio::io::DuplexStream>,
    ) {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (reader, writer) = tokio::io::split(ours);
        let (lane, transport) = Calls::over(Box::new(reader), Box::new(writer));
        let (server_reader, server) = tokio::io::split(theirs);
        (
            lane,
            transport,
            BufReader::new(server_reader).lines(),
            server,
        )
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_call_on_the_lane_gets_its_own_answer_and_rmcp_every_other_line() {
        let (lane, mut transport, mut server_reader, mut server) = connected();

        let mut arguments = Map::new();
        arguments.insert("message".into(), Value::from("hi"));
        let waiting = lane
            .send(lane.next_id(), "echo", Some(&arguments), true)
            .await
            .unwrap();
        let request: Value =
            serde_json::from_str(&server_reader.next_line().await.unwrap().unwrap()).unwrap();
        let id = request["id"].as_u64().unwrap();
        assert!(id >= 1 << 32, "above every id of rmcp's client: {request}");
        assert_eq!(request["method"], "tools/call");
        assert_eq!(request["params"]["name"], "echo");
        assert_eq!(request["params"]["arguments"]["message"], "hi");
        assert_eq!(request["params"]["_meta"]["progressToken"], id);
        assert_eq!(serde_json::to_value(waiting.token()).unwrap(), id);

        // rmcp's own answer and the server's notification go to rmcp; the
        // lane's answer goes to the call.
        let lines = format!(
            concat!(
                "{{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{{}}}}\n",
                "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":{id},\"progress\":1}}}}\n",
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"Echo: hi\"}}]}}}}\n",
            ),
            id = id
        );
        server.write_all(lines.as_bytes()).await.unwrap();
        let first = transport.receive().await.expect("rmcp's answer");
        assert_eq!(serde_json::to_value(&first).unwrap()["id"], 0);
        let second = transport.receive().await.expect("the notification");
        assert_eq!(
            serde_json::to_value(&second).unwrap()["method"],
            "notifications/progress"
        );
        let receiving = tokio::spawn(async move {
            let rest = transport.receive().await;
            (transport, rest)
        });
        let Ok(ServerResult::CallToolResult(result)) = waiting.answer().await else {
            panic!("a call result");
        };
        assert_eq!(
            serde_json::to_value(&result).unwrap()["content"][0]["text"],
            "Echo: hi"
        );

        // An error answers its call with the server's error; a call still
        // waiting when the server's stdout ends is told it closed.
        let failing = lane
            .send(lane.next_id(), "echo", None, false)
            .await
            .unwrap();
        let request: Value =
            serde_json::from_str(&server_reader.next_line().await.unwrap().unwrap()).unwrap();
        assert!(request["params"].get("_meta").is_none());
        assert!(request["params"].get("arguments").is_none());
        let error = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{},\"error\":{{\"code\":-32602,\"message\":\"no\"}}}}\n",
            request["id"]
        );
        server.write_all(error.as_bytes()).await.unwrap();
        match failing.answer().await {
            Err(ServiceError::McpError(error)) => assert_eq!(error.message, "no"),
            _ => panic!("the server's error"),
        }
        let orphan = lane
            .send(lane.next_id(), "echo", None, false)
            .await
            .unwrap();
        drop(server);
        drop(server_reader);
        let (_transport, rest) = receiving.await.unwrap();
        assert!(rest.is_none());
        assert!(lane.is_closed());
        assert!(matches!(
            orphan.answer().await,
            Err(ServiceError::TransportClosed)
        ));
        assert!(
            lane.send(lane.next_id(), "echo", None, false)
                .await
                .is_err()
        );
    }

    /// What `send_now`'s `finish` was told, by call id.
    fn told(reply: &Told) -> String {
        match reply {
            Told::Answered(Ok(ServerResult::CallToolResult(result))) => {
                format!(
                    "result {}",
                    serde_json::to_value(result).unwrap()["content"][0]["text"]
                )
            }
            Told::Answered(Ok(_)) => "another result".into(),
            Told::Answered(Err(error)) => format!("error {error}"),
            Told::Unsent => "unsent".into(),
            Told::Closed => "closed".into(),
            Told::TimedOut => "timed out".into(),
        }
    }

    /// The next thing a call was told, within 10 s (a broken lane would
    /// otherwise hang the test).
    async fn next<T>(told: &mut tokio::sync::mpsc::UnboundedReceiver<T>) -> Option<T> {
        tokio::time::timeout(std::time::Duration::from_secs(10), told.recv())
            .await
            .expect("told within 10 s")
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_call_sent_at_once_is_told_once_what_became_of_it() {
        let (lane, mut transport, mut server_reader, mut server) = connected();
        let receiving = tokio::spawn(async move { while transport.receive().await.is_some() {} });
        let (tell, mut told_) = tokio::sync::mpsc::unbounded_channel();
        let send = |name: &str, deadline: Instant| {
            let id = lane.next_id();
            let tell = tell.clone();
            let finish: Finish = Box::new(move |reply| tell.send((id, told(&reply))).unwrap());
            let mut arguments = Map::new();
            arguments.insert("message".into(), Value::from("hi"));
            lane.send_now(
                id,
                "tools/call",
                &Params::call(name, Some(&arguments)),
                deadline,
                finish,
            );
            id
        };
        let later = Instant::now() + std::time::Duration::from_secs(3600);

        // Answered: the request is the lane's, without a progress token.
        let answered = send("echo", later);
        let request: Value =
            serde_json::from_str(&server_reader.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(request["id"], answered);
        assert_eq!(request["params"]["name"], "echo");
        assert_eq!(request["params"]["arguments"]["message"], "hi");
        assert!(request["params"].get("_meta").is_none());
        let result = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{answered},\"result\":{{\"content\":[{{\"type\":\"text\",\"text\":\"Echo: hi\"}}]}}}}\n"
        );
        server.write_all(result.as_bytes()).await.unwrap();
        assert_eq!(
            next(&mut told_).await.unwrap(),
            (answered, "result \"Echo: hi\"".to_string())
        );

        // Past its deadline: timed out by the sweeper, and its late answer
        // is read and dropped. A call sent meanwhile with a later deadline
        // is not.
        let slow = send(
            "slow",
            Instant::now() + std::time::Duration::from_millis(50),
        );
        let waits = send("waits", later);
        assert_eq!(
            next(&mut told_).await.unwrap(),
            (slow, "timed out".to_string())
        );
        let late = format!("{{\"jsonrpc\":\"2.0\",\"id\":{slow},\"result\":{{\"content\":[]}}}}\n");
        server.write_all(late.as_bytes()).await.unwrap();

        // Forgotten (cancelled): never told, even when its answer comes.
        let forgotten = send("forgotten", later);
        assert!(lane.forget(forgotten));
        assert!(!lane.forget(forgotten));
        let answer =
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{forgotten},\"result\":{{\"content\":[]}}}}\n");
        server.write_all(answer.as_bytes()).await.unwrap();

        // The server's error; then the end of its stdout for the call still
        // waiting; then a call sent after the end is never written.
        let failing = send("failing", later);
        let error = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{failing},\"error\":{{\"code\":-32602,\"message\":\"no\"}}}}\n"
        );
        server.write_all(error.as_bytes()).await.unwrap();
        assert_eq!(
            next(&mut told_).await.unwrap(),
            (failing, "error Mcp error: -32602: no".to_string())
        );
        drop(server);
        drop(server_reader);
        receiving.await.unwrap();
        assert_eq!(
            next(&mut told_).await.unwrap(),
            (waits, "closed".to_string())
        );
        let after = send("after", later);
        assert_eq!(
            next(&mut told_).await.unwrap(),
            (after, "unsent".to_string())
        );
        drop(tell);
        assert!(next(&mut told_).await.is_none(), "each call is told once");
    }
}
