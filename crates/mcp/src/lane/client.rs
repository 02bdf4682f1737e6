//! The client's side of the lane: a plain `tools/call` over stdio.
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

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, NumberOrString, ProtocolVersion, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::{Peer, RoleServer};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::{Lines, Reader, SharedWriter, Tap, Writer};
use crate::gateway::{Caller, Decided, Gateway, Routed};
use crate::questions::Asker;
use crate::session::lock;
use crate::upstream::{Cancel, LaneNow, Settled};

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

/// A plain call's line, read in one pass. A line that is not one is read
/// again as a [`Peek`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainCall<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    id: RequestId,
    #[serde(borrow)]
    method: &'a str,
    params: Call,
}

/// A line that is no plain call, as far as the lane reads it to know
/// whether it cancels one of its calls.
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

/// A plain call's params: nothing that rmcp's context would carry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Call {
    name: String,
    #[serde(default)]
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
                self.write(id, response, modern);
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
        let asker = self
            .asker
            .get_or_init(|| {
                let info = peer.peer_info();
                Asker::new(
                    routed.session.serial(),
                    peer,
                    info.as_ref().map(|info| info.capabilities.clone()),
                    info.as_ref().map(|info| &info.protocol_version),
                )
            })
            .clone();
        let (flight, peer) = (key.clone(), peer.clone());
        let kept = Arc::clone(&args);
        let done = Box::new(move |settled: Settled| match settled {
            Settled::Called(called) => {
                let response =
                    this.gateway
                        .responded(called, &routed.call.name, &routed.route.origin);
                this.reply(&flight, id, response, modern);
            }
            // The child is gone: the call goes the way that restarts it,
            // unless it was cancelled meanwhile.
            Settled::Unsent => {
                routed.call.args = Value::Object(Arc::unwrap_or_clone(kept));
                let ct = CancellationToken::new();
                match lock(&this.in_flight).get_mut(&flight) {
                    Some(entry) => *entry = Flight::Task(ct.clone()),
                    None => return this.answered(),
                }
                this.spawn(flight, id, ct, routed, request, peer);
            }
        });
        let timeout = self.gateway.shared().options.call_timeout;
        let cancel = lane.send(&raw_name, Some(&args), timeout, asker, done);
        if let Some(Flight::Sent(slot)) = lock(&self.in_flight).get_mut(&key) {
            *slot = Some(cancel);
        }
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
            let info = peer.peer_info();
            let version = info.as_ref().map(|info| info.protocol_version.clone());
            let modern = is_modern(version.as_ref());
            let caller = Caller {
                id: id.clone(),
                ct,
                progress: None,
                capabilities: info.as_ref().map(|info| info.capabilities.clone()),
                version,
                peer,
                slot: None,
            };
            let response = lane.gateway.run_routed(routed, &request, &caller).await;
            lane.reply(&key, id, response, modern);
        });
    }

    /// Writes a call's answer, unless the call was cancelled.
    fn reply(self: &Arc<Self>, key: &str, id: RequestId, response: CallToolResponse, modern: bool) {
        if lock(&self.in_flight).remove(key).is_some() {
            self.write(id, response, modern);
        } else {
            self.answered();
        }
    }

    /// Writes a call's answer as rmcp's handler would, then counts it
    /// answered.
    fn write(self: &Arc<Self>, id: RequestId, response: CallToolResponse, modern: bool) {
        let mut result = ServerResult::from(response);
        if modern {
            result.fill_missing_cache_hints();
        } else {
            result.strip_result_type_for_legacy_peer();
            result.strip_non_object_output_for_legacy_peer();
        }
        let lane = Arc::clone(self);
        match super::line(&ServerJsonRpcMessage::response(result, id)) {
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
        if let Some((id, call)) = plain_call(line) {
            self.answer(id, call, peer, is_modern(Some(&info.protocol_version)));
            return true;
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

/// `line`'s id and params, when it is a plain `tools/call`: a request with
/// no key but `jsonrpc`, `id`, `method` and `params`, whose params have no
/// key but `name` and `arguments`.
fn plain_call(line: &str) -> Option<(RequestId, Call)> {
    let plain = serde_json::from_str::<PlainCall>(line).ok()?;
    (plain.jsonrpc == "2.0" && plain.method == "tools/call").then_some((plain.id, plain.params))
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

    /// The id's key, the name and the arguments (`null` when not given).
    fn plain(line: &str) -> Option<(String, String, Value)> {
        plain_call(line).map(|(id, call)| {
            (
                key(&id),
                call.name,
                call.arguments.map_or(Value::Null, Value::Object),
            )
        })
    }

    #[test]
    fn a_plain_call_is_read_in_one_pass_with_its_id_and_arguments() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"call","arguments":{"name":"a__b","args":{"x":[1,"\u00e9"]}}}}"#;
        let (id, name, arguments) = plain(line).expect("a plain call");
        assert_eq!((id.as_str(), name.as_str()), ("7", "call"));
        assert_eq!(
            arguments,
            serde_json::json!({"name": "a__b", "args": {"x": [1, "é"]}})
        );
        // Keys in any order, a string id, and no arguments.
        let line =
            r#"{"params":{"name":"describe"},"method":"tools/call","id":"7","jsonrpc":"2.0"}"#;
        assert_eq!(
            plain(line),
            Some(("\"7\"".into(), "describe".into(), Value::Null))
        );
    }

    #[test]
    fn any_other_line_is_not_a_plain_call() {
        for line in [
            // What rmcp's context carries: a progress token, a request's state.
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call","arguments":{},"_meta":{"progressToken":1}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"call","task":{}}}"#,
            // Another method with a call's params, a notification, no params.
            r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"call","arguments":{}}}"#,
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
            assert!(plain(line).is_none(), "{line}");
        }
    }
}
