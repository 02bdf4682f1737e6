//! The client's side of the lane: a plain `tools/call`, `prompts/get` or
//! `resources/read` over stdio.
//!
//! Once the session is initialized, a `tools/call` whose params are only
//! `name` and `arguments` (no progress token, no request state) is the
//! lane's, and is answered as [`Gateway::call`] answers it, in the same
//! steps: the catalog's answer first, in the tap ([`Gateway::decide`]).
//! A call routed to an upstream that is up on a lane, with no approval to
//! ask, is sent there at once ([`Gateway::lane_now`]), and the upstream's
//! tap writes its answer; any other goes to [`Gateway::run_routed`] on a
//! task of its own. So the common call costs no task, no timer and no
//! channel. Its answer is written as rmcp writes one: the same
//! `ServerResult`, shaped for the session's protocol version as rmcp's
//! handler shapes it. The client's `notifications/cancelled` for such a
//! call cancels it (upstream is told), and its answer is then dropped, as
//! rmcp drops a cancelled request's. When the client's stdin ends, rmcp
//! is told only once every such call has answered.
//!
//! A plain `prompts/get` (params only `name` and `arguments`) of an
//! upstream's prompt, or `resources/read` (params only `uri`) of an
//! upstream's resource, goes the same way when the upstream that owns it
//! ([`Gateway::asked_prompt`], [`Gateway::asked_read`]) is up on a lane
//! ([`Gateway::ask_now`]): sent at once, and its answer read by the code
//! rmcp's handler reads it with ([`client_reply`], [`RoutedAsk::answer`]) and
//! written as rmcp writes it. One that never reached its server goes to
//! [`Gateway::ask`] on a task, which restarts the server. Any other (the
//! index, a name or URI no upstream claims, a server not up on a lane) is
//! left to rmcp.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::{
    CallToolRequestParams, ErrorCode, NumberOrString, ProtocolVersion, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::{ErrorData, Peer, RoleServer};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::{Lines, Reader, SharedWriter, Tap, Writer};
use crate::gateway::{Caller, Decided, Gateway, INDEX, INDEX_URI, Routed, RoutedAsk, client_reply};
use crate::questions::Asker;
use crate::session::lock;
use crate::upstream::{Cancel, LaneNow, Replied, Settled};

/// The client's lane of one session.
pub struct Lane {
    gateway: Gateway,
    /// rmcp's peer of the session, once `initialize` has been answered.
    peer: OnceLock<Peer<RoleServer>>,
    /// Who the servers' questions during its calls go to, made at its
    /// first call (its client and what it declared never change).
    asker: OnceLock<Asker>,
    writer: SharedWriter,
    /// The lane's calls in flight, by their id's JSON text.
    in_flight: Mutex<BTreeMap<String, Flight>>,
    /// How many of its calls have not written their answer yet.
    running: AtomicUsize,
    finished: tokio::sync::Notify,
}

/// A call of the lane in flight, as its cancelling reaches it.
enum Flight {
    /// Answered on a task of its own.
    Task(CancellationToken),
    /// Sent to its upstream at once (`None` while it is being sent).
    Sent(Option<Cancel>),
}

/// A plain request's line, read in one pass. A line that is not one is
/// read again as a [`Peek`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainLine<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    id: RequestId,
    #[serde(borrow)]
    method: &'a str,
    params: Params,
}

/// A line that is no plain request, as far as the lane reads it to know
/// whether it cancels one of its requests.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Peek<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    #[serde(default)]
    id: Option<RequestId>,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

/// A plain request's params: nothing that rmcp's context would carry. A
/// key given as `null` is no string, so no plain request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Params {
    #[serde(default, deserialize_with = "given")]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
    #[serde(default, deserialize_with = "given")]
    uri: Option<String>,
}

fn given<'de, D: serde::Deserializer<'de>>(value: D) -> Result<Option<String>, D::Error> {
    String::deserialize(value).map(Some)
}

/// A plain request of the lane.
enum Plain {
    /// `tools/call`.
    Call(Call),
    /// `prompts/get`, its name and arguments read as a call's.
    Prompt(Call),
    /// `resources/read` of this URI.
    Read(String),
}

/// A plain call's (or prompt's) name and arguments.
struct Call {
    name: String,
    arguments: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cancelled {
    request_id: RequestId,
}

impl Lane {
    /// The lane of `gateway`'s session, and the transport rmcp serves it
    /// over: reading `reader`, writing `writer`.
    pub fn over(
        gateway: Gateway,
        reader: Reader,
        writer: Writer,
    ) -> (Arc<Lane>, Lines<RoleServer, Arc<Lane>>) {
        let writer = super::shared(writer);
        let lane = Arc::new(Lane {
            gateway,
            peer: OnceLock::new(),
            asker: OnceLock::new(),
            writer: Arc::clone(&writer),
            in_flight: Mutex::new(BTreeMap::new()),
            running: AtomicUsize::new(0),
            finished: tokio::sync::Notify::new(),
        });
        let transport = Lines::new(Arc::clone(&lane), reader, writer);
        (lane, transport)
    }

    /// Opens the lane: from now on the session's plain calls are its.
    pub fn open(&self, peer: Peer<RoleServer>) {
        let _ = self.peer.set(peer);
    }

    /// Answers a plain call: the catalog first, here; then its upstream,
    /// at once or on a task.
    fn answer(self: &Arc<Self>, id: RequestId, call: Call, peer: &Peer<RoleServer>, modern: bool) {
        let mut request = CallToolRequestParams::new(call.name);
        request.arguments = call.arguments;
        match self.gateway.decide(&request, &id) {
            Decided::Answered(response) => {
                self.running.fetch_add(1, Ordering::AcqRel);
                self.write(id, Ok(response.into()), modern);
            }
            Decided::Routed(routed) => {
                let key = key(&id);
                self.running.fetch_add(1, Ordering::AcqRel);
                match self.gateway.lane_now(&routed) {
                    Some(lane) => self.send_now(lane, key, id, routed, request, peer, modern),
                    None => {
                        let ct = CancellationToken::new();
                        lock(&self.in_flight).insert(key.clone(), Flight::Task(ct.clone()));
                        self.spawn(key, id, ct, routed, request, peer.clone());
                    }
                }
            }
        }
    }

    /// Sends a routed call on its upstream's lane; the upstream's answer
    /// is written as it is read.
    #[allow(clippy::too_many_arguments)]
    fn send_now(
        self: &Arc<Self>,
        lane: LaneNow,
        key: String,
        id: RequestId,
        mut routed: Routed,
        request: CallToolRequestParams,
        peer: &Peer<RoleServer>,
        modern: bool,
    ) {
        lock(&self.in_flight).insert(key.clone(), Flight::Sent(None));
        let raw_name = routed.route.raw_name.clone();
        // The args are sent as they are, not copied: they go back to the
        // routed call only if it must take the way that restarts the child
        // (which sends a call's args as an object, `{}` for any other).
        let args = Arc::new(match std::mem::take(&mut routed.call.args) {
            Value::Object(map) => map,
            _ => Map::new(),
        });
        let this = Arc::clone(self);
        let asker = self.asker(routed.session.serial(), peer);
        let (flight, peer) = (key.clone(), peer.clone());
        let kept = Arc::clone(&args);
        let done = Box::new(move |settled: Settled| {
            match settled.called(&routed.route.origin, &routed.route.raw_name) {
                Some(called) => {
                    let response =
                        this.gateway
                            .responded(called, &routed.call.name, &routed.route.origin);
                    this.reply(&flight, id, Ok(response.into()), modern);
                }
                // The child is gone: the call goes the way that restarts
                // it, unless it was cancelled meanwhile.
                None => {
                    routed.call.args = Value::Object(Arc::unwrap_or_clone(kept));
                    let Some(ct) = this.to_task(&flight) else {
                        return this.answered();
                    };
                    this.spawn(flight, id, ct, routed, request, peer);
                }
            }
        });
        let timeout = self.gateway.shared().options.call_timeout;
        let params = crate::lane::upstream::Params::call(&raw_name, Some(&args));
        let cancel = lane.send("tools/call", &params, &raw_name, timeout, asker, done);
        self.sent(&key, cancel);
    }

    /// Sends a plain `prompts/get` or `resources/read` on the lane of the
    /// upstream that owns it, when it is up on one; the upstream's answer
    /// is written as it is read. `false` leaves the request to rmcp.
    fn ask(
        self: &Arc<Self>,
        id: RequestId,
        asked: Option<RoutedAsk>,
        peer: &Peer<RoleServer>,
        modern: bool,
    ) -> bool {
        let Some(asked) = asked else {
            return false;
        };
        let (Some(lane), Some(serial)) = (self.gateway.ask_now(&asked), self.gateway.serial())
        else {
            return false;
        };
        let key = key(&id);
        self.running.fetch_add(1, Ordering::AcqRel);
        lock(&self.in_flight).insert(key.clone(), Flight::Sent(None));
        let asker = self.asker(serial, peer);
        let asked = Arc::new(asked);
        let this = Arc::clone(self);
        let (flight, peer) = (key.clone(), peer.clone());
        let kept = Arc::clone(&asked);
        let done = Box::new(move |settled: Settled| {
            let replied = match settled {
                Settled::Result(result) => Replied::Result(Box::new(result)),
                Settled::Replied(replied) => replied,
                // The child is gone: the request goes the way that
                // restarts it, unless it was cancelled meanwhile.
                Settled::Unsent => {
                    let Some(ct) = this.to_task(&flight) else {
                        return this.answered();
                    };
                    tokio::spawn(async move {
                        let caller = caller(id.clone(), ct, peer);
                        let answer = this.gateway.ask(&kept, caller).await;
                        this.reply(&flight, id, answer, modern);
                    });
                    return;
                }
            };
            let answer = kept.answer(client_reply(replied, &kept.origin, kept.what()));
            this.reply(&flight, id, answer, modern);
        });
        let timeout = self.gateway.shared().options.call_timeout;
        let what = asked.what();
        let cancel = lane.send(
            what.method,
            &asked.params,
            what.subject,
            timeout,
            asker,
            done,
        );
        self.sent(&key, cancel);
        true
    }

    /// Who the servers' questions during the session's requests go to.
    fn asker(&self, serial: u64, peer: &Peer<RoleServer>) -> Asker {
        self.asker
            .get_or_init(|| {
                let info = peer.peer_info();
                Asker::new(
                    serial,
                    peer,
                    info.as_ref().map(|info| info.capabilities.clone()),
                    info.as_ref().map(|info| &info.protocol_version),
                )
            })
            .clone()
    }

    /// Keeps the cancelling of request `key`, sent at once, while it waits.
    fn sent(&self, key: &str, cancel: Cancel) {
        if let Some(Flight::Sent(slot)) = lock(&self.in_flight).get_mut(key) {
            *slot = Some(cancel);
        }
    }

    /// Moves request `key` to a task of its own: its cancelling, or `None`
    /// when it was cancelled meanwhile.
    fn to_task(&self, key: &str) -> Option<CancellationToken> {
        let ct = CancellationToken::new();
        *lock(&self.in_flight).get_mut(key)? = Flight::Task(ct.clone());
        Some(ct)
    }

    /// Runs a routed call on a task of its own ([`Gateway::run_routed`]).
    fn spawn(
        self: &Arc<Self>,
        key: String,
        id: RequestId,
        ct: CancellationToken,
        routed: Routed,
        request: CallToolRequestParams,
        peer: Peer<RoleServer>,
    ) {
        let lane = Arc::clone(self);
        tokio::spawn(async move {
            let caller = caller(id.clone(), ct, peer);
            let modern = is_modern(caller.version.as_ref());
            let response = lane.gateway.run_routed(routed, &request, &caller).await;
            lane.reply(&key, id, Ok(response.into()), modern);
        });
    }

    /// Writes a request's answer, unless the request was cancelled.
    fn reply(
        self: &Arc<Self>,
        key: &str,
        id: RequestId,
        answer: Result<ServerResult, ErrorData>,
        modern: bool,
    ) {
        if lock(&self.in_flight).remove(key).is_some() {
            self.write(id, answer, modern);
        } else {
            self.answered();
        }
    }

    /// Writes a request's answer as rmcp's handler would, then counts it
    /// answered.
    fn write(
        self: &Arc<Self>,
        id: RequestId,
        answer: Result<ServerResult, ErrorData>,
        modern: bool,
    ) {
        let message = match answer {
            Ok(mut result) => {
                if modern {
                    result.fill_missing_cache_hints();
                } else {
                    result.strip_result_type_for_legacy_peer();
                    result.strip_non_object_output_for_legacy_peer();
                }
                ServerJsonRpcMessage::response(result, id)
            }
            Err(mut error) => {
                // rmcp's code for 2026-07-28 clients.
                if modern && error.code == ErrorCode::RESOURCE_NOT_FOUND {
                    error.code = ErrorCode::INVALID_PARAMS;
                }
                ServerJsonRpcMessage::error(error, Some(id))
            }
        };
        let lane = Arc::clone(self);
        match super::line(&message) {
            // A client that went away misses its answer.
            Ok(line) => super::write_now(&self.writer, line, move |_| lane.answered()),
            Err(_) => self.answered(),
        }
    }

    /// One of the lane's calls has answered (or will never).
    fn answered(&self) {
        if self.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.finished.notify_waiters();
        }
    }
}

/// Who made a request of the lane, as the gateway's way that restarts a
/// server needs them (no progress: a plain request asks none).
fn caller(id: RequestId, ct: CancellationToken, peer: Peer<RoleServer>) -> Caller {
    let info = peer.peer_info();
    Caller {
        id,
        ct,
        progress: None,
        capabilities: info.as_ref().map(|info| info.capabilities.clone()),
        version: info.as_ref().map(|info| info.protocol_version.clone()),
        peer,
        slot: None,
    }
}

/// Whether a session of `version` is answered the 2026-07-28 way.
fn is_modern(version: Option<&ProtocolVersion>) -> bool {
    version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

impl Tap for Arc<Lane> {
    fn take(&self, line: &[u8]) -> bool {
        let Some(peer) = self.peer.get() else {
            return false;
        };
        // An inline (sessionless) session stores no peer info: its
        // requests carry what rmcp's context reads.
        let Some(info) = peer.peer_info() else {
            return false;
        };
        // Checked as UTF-8 once, not string by string.
        let Ok(line) = std::str::from_utf8(line) else {
            return false;
        };
        if let Some((id, plain)) = plain(line) {
            let modern = is_modern(Some(&info.protocol_version));
            return match plain {
                Plain::Call(call) => {
                    self.answer(id, call, peer, modern);
                    true
                }
                Plain::Prompt(call) if call.name != INDEX => {
                    let asked = self.gateway.asked_prompt(&call.name, call.arguments);
                    self.ask(id, asked, peer, modern)
                }
                Plain::Read(uri) if uri != INDEX_URI => {
                    let asked = self.gateway.asked_read(&uri).ok();
                    self.ask(id, asked, peer, modern)
                }
                Plain::Prompt(_) | Plain::Read(_) => false,
            };
        }
        // Any other line is the lane's only if it cancels one of its calls.
        let Ok(peek) = serde_json::from_str::<Peek>(line) else {
            return false;
        };
        if peek.jsonrpc != "2.0" {
            return false;
        }
        match (peek.method, peek.id, peek.params) {
            ("notifications/cancelled", None, Some(params)) => {
                let Ok(cancelled) = serde_json::from_str::<Cancelled>(params.get()) else {
                    return false;
                };
                let Some(flight) = lock(&self.in_flight).remove(&key(&cancelled.request_id)) else {
                    return false;
                };
                match flight {
                    Flight::Task(ct) => ct.cancel(),
                    Flight::Sent(cancel) => {
                        if cancel.is_some_and(Cancel::cancel) {
                            self.answered();
                        }
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// Waits until every call the lane took has written its answer.
    async fn end(&self) {
        loop {
            let finished = self.finished.notified();
            if self.running.load(Ordering::Acquire) == 0 {
                return;
            }
            finished.await;
        }
    }
}

/// `line`'s id and request, when it is a plain request: one with no key
/// but `jsonrpc`, `id`, `method` and `params`, whose params are a
/// `tools/call`'s or `prompts/get`'s `name` and `arguments`, or a
/// `resources/read`'s `uri`, and no other key.
fn plain(line: &str) -> Option<(RequestId, Plain)> {
    let plain = serde_json::from_str::<PlainLine>(line).ok()?;
    if plain.jsonrpc != "2.0" {
        return None;
    }
    let request = match (plain.method, plain.params) {
        (
            method @ ("tools/call" | "prompts/get"),
            Params {
                name: Some(name),
                arguments,
                uri: None,
            },
        ) => {
            let call = Call { name, arguments };
            if method == "tools/call" {
                Plain::Call(call)
            } else {
                Plain::Prompt(call)
            }
        }
        (
            "resources/read",
            Params {
                name: None,
                arguments: None,
                uri: Some(uri),
            },
        ) => Plain::Read(uri),
        _ => return None,
    };
    Some((plain.id, request))
}

/// A request id as a map key: `1` and `"1"` differ.
fn key(id: &RequestId) -> String {
    match id {
        NumberOrString::Number(n) => n.to_string(),
        NumberOrString::String(s) => format!("{:?}", s.as_ref()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id's key, the method, and the name and the arguments (`null`
    /// when not given) or the URI.
    fn plain_of(line: &str) -> Option<(String, &'static str, String, Value)> {
        plain(line).map(|(id, plain)| match plain {
            Plain::Call(call) => (
                key(&id),
                "tools/call",
                call.name,
                call.arguments.map_or(Value::Null, Value::Object),
            ),
            Plain::Prompt(call) => (
                key(&id),
                "prompts/get",
                call.name,
                call.arguments.map_or(Value::Null, Value::Object),
            ),
            Plain::Read(uri) => (key(&id), "resources/read", uri, Value::Null),
        })
    }

    #[test]
    fn a_plain_request_is_read_in_one_pass_with_its_id_and_arguments() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"call","arguments":{"name":"a__b","args":{"x":[1,"\u00e9"]}}}}"#;
        let (id, method, name, arguments) = plain_of(line).expect("a plain call");
        assert_eq!(
            (id.as_str(), method, name.as_str()),
            ("7", "tools/call", "call")
        );
        assert_eq!(
            arguments,
            serde_json::json!({"name": "a__b", "args": {"x": [1, "é"]}})
        );
        // Keys in any order, a string id, and no arguments.
        let line =
            r#"{"params":{"name":"describe"},"method":"tools/call","id":"7","jsonrpc":"2.0"}"#;
        assert_eq!(
            plain_of(line),
            Some(("\"7\"".into(), "tools/call", "describe".into(), Value::Null))
        );
        // A prompt with its arguments; a read.
        let line = r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"a__p","arguments":{"city":"Paris"}}}"#;
        assert_eq!(
            plain_of(line),
            Some((
                "3".into(),
                "prompts/get",
                "a__p".into(),
                serde_json::json!({"city": "Paris"})
            ))
        );
        let line = r#"{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"a://b"}}"#;
        assert_eq!(
            plain_of(line),
            Some(("4".into(), "resources/read", "a://b".into(), Value::Null))
        );
    }

    #[test]
    fn any_other_line_is_not_a_plain_request() {
        for line in [
            // What rmcp's context carries: a progress token, a request's state.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call","arguments":{},"_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call","task":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"a__p","_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"a__p","requestState":"s"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a://b","_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a://b","inputResponses":{}}}"#,
            // Another method with a call's params, or the wrong params.
            r#"{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"name":"call","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"name":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a://b","name":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a://b","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call","uri":"a://b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"a://b"}}"#,
            // A notification, no id, no params.
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#,
            // Not JSON-RPC 2.0, a key more, an escaped method, not JSON.
            r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call"},"x":1}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"call"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call"}"#,
        ] {
            assert!(plain_of(line).is_none(), "{line}");
        }
    }
}
