//! The client's side of the lane: a plain `tools/call` over stdio.
//!
//! Once the session is initialized, a `tools/call` whose params are only
//! `name` and `arguments` (no progress token, no request state) goes to
//! [`Gateway::call`] on a task of its own, and its answer is written as
//! rmcp writes one: the same `ServerResult`, shaped for the session's
//! protocol version as rmcp's handler shapes it. The client's
//! `notifications/cancelled` for such a call cancels it, and its answer is
//! then dropped, as rmcp drops a cancelled request's. When the client's
//! stdin ends, rmcp is told only once every such call has answered.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::{
    CallToolRequestParams, NumberOrString, ProtocolVersion, RequestId, ServerJsonRpcMessage,
    ServerResult,
};
use rmcp::{Peer, RoleServer};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::{Lines, Reader, SharedWriter, Tap, Writer};
use crate::gateway::{Caller, Gateway};
use crate::session::lock;

/// The client's lane of one session.
pub struct Lane {
    gateway: Gateway,
    /// rmcp's peer of the session, once `initialize` has been answered.
    peer: OnceLock<Peer<RoleServer>>,
    writer: SharedWriter,
    /// The lane's calls in flight, by their id's JSON text.
    in_flight: Mutex<BTreeMap<String, CancellationToken>>,
    /// How many of its calls have not written their answer yet.
    running: AtomicUsize,
    finished: tokio::sync::Notify,
}

/// A line, as far as the lane reads it to know whether it is its.
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

    fn spawn(self: &Arc<Self>, id: RequestId, call: Call, peer: Peer<RoleServer>) {
        let ct = CancellationToken::new();
        let key = key(&id);
        lock(&self.in_flight).insert(key.clone(), ct.clone());
        self.running.fetch_add(1, Ordering::AcqRel);
        let lane = Arc::clone(self);
        tokio::spawn(async move {
            let info = peer.peer_info();
            let version = info.as_ref().map(|info| info.protocol_version.clone());
            let modern = version
                .as_ref()
                .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
            let caller = Caller {
                id: id.clone(),
                ct,
                progress: None,
                capabilities: info.as_ref().map(|info| info.capabilities.clone()),
                version,
                peer,
                slot: None,
            };
            let mut request = CallToolRequestParams::new(call.name);
            request.arguments = call.arguments;
            let response = lane.gateway.call(request, caller).await;
            if lock(&lane.in_flight).remove(&key).is_some() {
                let mut result = ServerResult::from(response);
                if modern {
                    result.fill_missing_cache_hints();
                } else {
                    result.strip_result_type_for_legacy_peer();
                    result.strip_non_object_output_for_legacy_peer();
                }
                // A client that went away misses its answer.
                let _ =
                    super::write(&lane.writer, &ServerJsonRpcMessage::response(result, id)).await;
            }
            if lane.running.fetch_sub(1, Ordering::AcqRel) == 1 {
                lane.finished.notify_waiters();
            }
        });
    }
}

impl Tap for Arc<Lane> {
    fn take(&self, line: &[u8]) -> bool {
        let Some(peer) = self.peer.get() else {
            return false;
        };
        // An inline (sessionless) session stores no peer info: its
        // requests carry what rmcp's context reads.
        if peer.peer_info().is_none() {
            return false;
        }
        let Ok(peek) = serde_json::from_slice::<Peek>(line) else {
            return false;
        };
        if peek.jsonrpc != "2.0" {
            return false;
        }
        match (peek.method, peek.id, peek.params) {
            ("tools/call", Some(id), Some(params)) => {
                let Ok(call) = serde_json::from_str::<Call>(params.get()) else {
                    return false;
                };
                self.spawn(id, call, peer.clone());
                true
            }
            ("notifications/cancelled", None, Some(params)) => {
                let Ok(cancelled) = serde_json::from_str::<Cancelled>(params.get()) else {
                    return false;
                };
                let Some(ct) = lock(&self.in_flight).remove(&key(&cancelled.request_id)) else {
                    return false;
                };
                ct.cancel();
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

/// A request id as a map key: `1` and `"1"` differ.
fn key(id: &RequestId) -> String {
    match id {
        NumberOrString::Number(n) => n.to_string(),
        NumberOrString::String(s) => format!("{:?}", s.as_ref()),
    }
}
