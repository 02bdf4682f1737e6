//! The MCP sessions of the HTTP transport: rmcp's in-memory session
//! manager, with the gateway's own table beside it.
//!
//! rmcp's `LocalSessionManager` routes messages and ends a session that
//! has been idle for `--idle-timeout` (its keep-alive). This wrapper keeps,
//! for each live `Mcp-Session-Id`, what the gateway limits: the session's
//! slot among `--max-sessions` (held from its `initialize` to its end) and
//! its calls in flight (`--max-calls`). A session leaves the table when
//! rmcp closes it, whatever the reason (`DELETE`, idle, the gateway's
//! stop), and its slot is free again. The session's run is not here: it is
//! the rmcp handler's (`gateway::Gateway`), dropped with the session.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::session::lock;

/// What the gateway keeps for one live session.
pub struct Live {
    /// Its calls in flight.
    pub calls: Arc<Semaphore>,
    /// Its slot among the gateway's sessions, once its `initialize` was
    /// answered.
    slot: Mutex<Option<OwnedSemaphorePermit>>,
}

/// rmcp's session manager and the gateway's table of live sessions.
pub struct Sessions {
    inner: LocalSessionManager,
    live: Mutex<BTreeMap<SessionId, Arc<Live>>>,
    calls_per_session: usize,
}

impl Sessions {
    /// Sessions that end after `idle` without a message, each allowed
    /// `calls_per_session` calls in flight.
    pub fn new(idle: std::time::Duration, calls_per_session: usize) -> Sessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        Sessions {
            inner,
            live: Mutex::new(BTreeMap::new()),
            calls_per_session,
        }
    }

    /// The live session `id` names, if any.
    pub fn get(&self, id: &str) -> Option<Arc<Live>> {
        lock(&self.live).get(id).cloned()
    }

    /// Gives a session its slot (after its `initialize` was answered); if
    /// it already ended, the slot is simply dropped.
    pub fn attach(&self, id: &str, slot: OwnedSemaphorePermit) {
        if let Some(live) = self.get(id) {
            *lock(&live.slot) = Some(slot);
        }
    }

    /// How many sessions are live.
    pub fn count(&self) -> usize {
        lock(&self.live).len()
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        let live = Live {
            calls: Arc::new(Semaphore::new(self.calls_per_session)),
            slot: Mutex::new(None),
        };
        lock(&self.live).insert(id.clone(), Arc::new(live));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        lock(&self.live).remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.resume(id, last_event_id).await
    }
}
