//! The gateway as an MCP server: the two doors over a run of the catalog,
//! whatever transport carries it (stdio, or streamable HTTP with one run
//! per MCP session).
//!
//! [`Shared`] is what every session sees alike and what the upstreams are:
//! the one upstream snapshot, the routes, the fixed `tools/list` answer and
//! `instructions`, the upstreams themselves and the tools refused since an
//! upstream restarted with another descriptor. A [`Gateway`] is one
//! `rmcp::ServerHandler` over it, bound to one [`SessionRun`] (its run,
//! recording, allowances and approval rounds): bound at once over stdio,
//! and over HTTP on its session's `initialize`, or, for a request of the
//! 2026-07-28 revision, which has no session, to the sessionless run.
//!
//! `tools/list` is the run's resident tools in contract 3's `mcp` shape
//! (`Run::tools_for(Provider::Mcp)`, SPEC §11), fixed at start; the
//! `initialize` (and `server/discover`) `instructions` carry `Run::render()`,
//! which is also served as the prompt and the resource `index` for clients
//! that drop instructions. Every `tools/call` goes through `Run::answer`
//! (recorded): `describe` is answered by the library, a refusal becomes a
//! tool result with `isError` and the exact refusal text, and a routed call
//! goes to its upstream under its raw name, after approval, and comes back
//! as the upstream answered (with any config secret scrubbed, `secrets`).
//! The gateway never changes a run's catalog: a restarted upstream whose
//! tool changed (by digest, SPEC §2) has that tool refused, in every
//! session.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use disclose::{Answer, Approval, Recorder, ToolCall};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, InitializeRequestParams, InitializeResult, InputRequest, InputRequests,
    InputRequiredResult, ListPromptsResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ResultType, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::approval::{self, Decision};
use crate::catalog::{Built, Snapshot};
use crate::recording::{self, Out};
use crate::session::{Allowance, Opened, SessionRun, lock};
use crate::upstream::{Called, Upstream};

/// The name of the prompt and resource that carry the dormant index.
pub const INDEX: &str = "index";
/// The resource's address.
pub const INDEX_URI: &str = "disclose://index";

/// Where a minted tool goes, and what it was when the run started.
#[derive(Clone, Debug)]
pub struct UpstreamTool {
    /// The upstream's origin.
    pub origin: String,
    /// The tool's raw name upstream.
    pub raw_name: String,
    /// Its descriptor digest at start (SPEC §2).
    pub digest: String,
    /// Its effect, as admitted.
    pub effect: disclose::Effect,
    /// Its approval, as admitted.
    pub approval: Approval,
}

/// How the gateway treats approvals and upstream calls.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How long an upstream `tools/call` may take.
    pub call_timeout: Duration,
    /// `--dangerously-allow-all`: no call is put to the user.
    pub allow_all: bool,
}

/// What every session of the gateway shares: the snapshot, the routes,
/// the fixed answers and the upstreams.
pub struct Shared {
    snapshot: Snapshot,
    /// The recording header's `about`.
    about: String,
    /// `--record DIR`.
    record: Option<PathBuf>,
    routes: BTreeMap<String, UpstreamTool>,
    upstreams: BTreeMap<String, Arc<Upstream>>,
    /// Tools whose upstream restarted with a different descriptor:
    /// minted name → the refusal text. A fact about the upstream, so every
    /// session refuses them.
    changed: Mutex<BTreeMap<String, String>>,
    /// The `tools/list` answer, built once: the run's tool list is fixed.
    list: ListToolsResult,
    /// What `initialize` and `server/discover` say, built once (rmcp asks
    /// for it on many requests).
    info: ServerConfig,
    render: String,
    options: Options,
    next_serial: AtomicU64,
    /// Set when any session's recording could not be written.
    record_failed: Arc<AtomicBool>,
    /// The run of 2026-07-28 requests over HTTP, and when it last answered.
    sessionless: Mutex<Option<(Arc<SessionRun>, Instant)>>,
}

/// What the gateway's shared part is built from.
pub struct Parts {
    /// The upstream snapshot.
    pub snapshot: Snapshot,
    /// A run started from it, for its routes, tool list and render.
    pub built: Built,
    /// The recording header's `about`.
    pub about: String,
    /// `--record DIR`.
    pub record: Option<PathBuf>,
    /// The started upstreams, by origin.
    pub upstreams: BTreeMap<String, Arc<Upstream>>,
    /// Approvals and timeouts.
    pub options: Options,
}

impl Shared {
    /// The shared part, and the run it was built with (the first session's,
    /// over stdio).
    pub fn new(parts: Parts) -> (Arc<Shared>, disclose::RecordedRun<Out>) {
        let Built {
            run,
            routes,
            tools,
            render,
            refused: _,
        } = parts.built;
        // Both are our own JSON of a fixed shape (a test holds that they
        // read); the defaults are never expected.
        let list = from_json(json!({ "tools": tools })).unwrap_or_default();
        let capabilities: ServerCapabilities = serde_json::from_value(json!({
            "tools": {"listChanged": false},
            "prompts": {"listChanged": false},
            "resources": {"listChanged": false},
        }))
        .unwrap_or_default();
        let info = ServerConfig::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new(
                "disclose",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(render.clone());
        let shared = Shared {
            snapshot: parts.snapshot,
            about: parts.about,
            record: parts.record,
            routes,
            upstreams: parts.upstreams,
            changed: Mutex::new(BTreeMap::new()),
            list,
            info,
            render,
            options: parts.options,
            next_serial: AtomicU64::new(1),
            record_failed: Arc::new(AtomicBool::new(false)),
            sessionless: Mutex::new(None),
        };
        (Arc::new(shared), run)
    }

    /// The upstreams, for a clean stop.
    pub fn upstreams(&self) -> Vec<Arc<Upstream>> {
        self.upstreams.values().cloned().collect()
    }

    /// Whether a session's recording could not be written.
    pub fn record_failed(&self) -> bool {
        self.record_failed.load(Ordering::Relaxed)
    }

    /// How many tools are routed to upstreams.
    pub fn routed(&self) -> usize {
        self.routes.len()
    }

    /// A session over `run` (stdio's, whose run was started with the
    /// gateway).
    pub fn session_over(
        &self,
        run: disclose::RecordedRun<Out>,
        recorded_at: Option<PathBuf>,
    ) -> Arc<SessionRun> {
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        Arc::new(SessionRun::new(Opened {
            serial,
            label: format!("session {serial}"),
            run,
            recorded_at,
            allowance: Allowance::Remembered,
            record_failed: Arc::clone(&self.record_failed),
            announce_end: false,
        }))
    }

    /// A new session: its own run from the snapshot, its own recording.
    pub fn open(&self, allowance: Allowance) -> Result<Arc<SessionRun>, String> {
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        let label = match allowance {
            Allowance::Remembered => format!("session {serial}"),
            Allowance::OnceOnly => format!("sessionless run {serial}"),
        };
        let (out, recorded_at) = match &self.record {
            Some(dir) => {
                let (path, file) = recording::create(dir)
                    .map_err(|e| format!("{label}: cannot record in {}: {e}", dir.display()))?;
                (Out::File(file), Some(path))
            }
            None => (Out::Nowhere, None),
        };
        let built = self.snapshot.start(Recorder::new(out, &self.about));
        crate::log(&format!(
            "{label} started{}",
            recorded_at
                .as_ref()
                .map(|p| format!("; recording to {}", p.display()))
                .unwrap_or_default()
        ));
        Ok(Arc::new(SessionRun::new(Opened {
            serial,
            label,
            run: built.run,
            recorded_at,
            allowance,
            record_failed: Arc::clone(&self.record_failed),
            announce_end: true,
        })))
    }

    /// The sessionless run, started on its first use.
    pub fn sessionless(&self) -> Result<Arc<SessionRun>, String> {
        let mut slot = lock(&self.sessionless);
        if let Some((session, used)) = slot.as_mut() {
            *used = Instant::now();
            return Ok(Arc::clone(session));
        }
        let session = self.open(Allowance::OnceOnly)?;
        *slot = Some((Arc::clone(&session), Instant::now()));
        Ok(session)
    }

    /// Ends the sessionless run when it has not answered for `idle` (its
    /// recording closes once the calls still holding it are answered).
    pub fn end_idle_sessionless(&self, idle: Duration) {
        let mut slot = lock(&self.sessionless);
        if slot
            .as_ref()
            .is_some_and(|(_, used)| used.elapsed() >= idle)
        {
            *slot = None;
        }
    }

    /// Ends the sessionless run now (the gateway stops).
    pub fn end_sessionless(&self) {
        lock(&self.sessionless).take();
    }

    /// After a restart: each of this upstream's tools whose descriptor
    /// differs from the run's (or that is gone) is refused from now on.
    /// Gives the refusal for `minted` when it is one of them.
    fn compare_restarted(&self, origin: &str, tools: &[Value], minted: &str) -> Option<String> {
        let now = crate::catalog::digests(origin, tools);
        let mut changed = lock(&self.changed);
        for (name, route) in self.routes.iter().filter(|(_, r)| r.origin == origin) {
            let current = now.get(name);
            if current == Some(&route.digest) {
                changed.remove(name);
                continue;
            }
            let became = match current {
                Some(digest) => format!("digest {} became {}", short(&route.digest), short(digest)),
                None => format!("digest {} is no longer listed", short(&route.digest)),
            };
            let text = format!(
                "disclose: server \"{origin}\" restarted and \"{name}\" changed ({became}); the run's catalog does not change, so it is refused until the gateway restarts\n"
            );
            crate::log(&format!("{origin}: {name} changed on restart ({became})"));
            changed.insert(name.clone(), text);
        }
        changed.get(minted).cloned()
    }
}

/// One MCP server over the shared gateway, bound to one session.
#[derive(Clone)]
pub struct Gateway {
    shared: Arc<Shared>,
    /// Set from the start over stdio; over HTTP by the session's
    /// `initialize`, and never for a sessionless request.
    bound: Arc<OnceLock<Arc<SessionRun>>>,
}

impl Gateway {
    /// A server bound to `session` from the start (stdio).
    pub fn bound(shared: Arc<Shared>, session: Arc<SessionRun>) -> Gateway {
        let bound = OnceLock::new();
        let _ = bound.set(session);
        Gateway {
            shared,
            bound: Arc::new(bound),
        }
    }

    /// A server whose `initialize` opens a new session; any other first
    /// request (2026-07-28, sessionless) is answered by the sessionless run.
    pub fn unbound(shared: Arc<Shared>) -> Gateway {
        Gateway {
            shared,
            bound: Arc::new(OnceLock::new()),
        }
    }

    /// The shared part.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The session this server answers for.
    fn session(&self) -> Result<Arc<SessionRun>, String> {
        if let Some(session) = self.bound.get() {
            return Ok(Arc::clone(session));
        }
        self.shared.sessionless()
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let session = match self.session() {
            Ok(session) => session,
            Err(message) => {
                crate::log(&message);
                return error(format!("disclose: {message}\n")).into();
            }
        };
        let shared = &self.shared;
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        let call = ToolCall {
            id: id_text(&context.id),
            name: request.name.to_string(),
            args,
        };
        // A 2026-07-28 client retries the same call with the user's answer:
        // the retry is the same call, so it is answered but not recorded
        // again.
        let pending = request
            .request_state
            .as_ref()
            .and_then(|state| session.take_pending(state));
        let answer = match &pending {
            Some(_) => session.answer_again(&call),
            None => session.answer(&call),
        };
        let routed = match answer {
            Answer::Text(text) => {
                return CallToolResult::success(vec![ContentBlock::text(text)]).into();
            }
            Answer::Refused(refusal) => return error(refusal.to_lines()).into(),
            Answer::Run(routed) => routed,
            _ => {
                return error("disclose: this answer is not one the gateway knows\n".into()).into();
            }
        };
        let Some(route) = shared.routes.get(&routed.name).cloned() else {
            return error(format!(
                "disclose: \"{}\" is admitted but no upstream serves it\n",
                routed.name
            ))
            .into();
        };
        if let Some(refusal) = lock(&shared.changed).get(&routed.name) {
            return error(refusal.clone()).into();
        }
        if let Some(response) = self
            .approve(
                &session,
                &routed.name,
                &route,
                &routed.args,
                &request,
                pending,
                &context,
            )
            .await
        {
            return response;
        }
        let Some(upstream) = shared.upstreams.get(&route.origin) else {
            return error(format!(
                "disclose: server \"{}\" is not running\n",
                route.origin
            ))
            .into();
        };
        let args = match routed.args {
            Value::Object(map) => Some(map),
            _ => Some(Map::new()),
        };
        let minted = routed.name.clone();
        let restarted = |tools: &[Value]| shared.compare_restarted(&route.origin, tools, &minted);
        match upstream
            .call(
                &route.raw_name,
                args,
                &context.ct,
                shared.options.call_timeout,
                &restarted,
            )
            .await
        {
            Called::Result(mut result) => {
                // The 2026-07-28 envelope; rmcp drops it for older clients.
                result.result_type = Some(ResultType::COMPLETE);
                scrubbed(result).into()
            }
            Called::Failed(text) => error(crate::secrets::scrub(&text).into_owned()).into(),
            Called::Cancelled => error(format!(
                "disclose: the client cancelled tools/call \"{}\"; server \"{}\" was told\n",
                routed.name, route.origin
            ))
            .into(),
        }
    }

    /// Puts a call whose approval is required to the user. `None` lets the
    /// call run; otherwise the answer to give instead.
    #[allow(clippy::too_many_arguments)]
    async fn approve(
        &self,
        session: &SessionRun,
        minted: &str,
        route: &UpstreamTool,
        args: &Value,
        request: &CallToolRequestParams,
        pending: Option<(String, Value)>,
        context: &RequestContext<RoleServer>,
    ) -> Option<CallToolResponse> {
        if route.approval == Approval::Never || self.shared.options.allow_all {
            return None;
        }
        if session.is_allowed(minted, &route.digest) {
            return None;
        }
        let can_ask = context
            .client_capabilities()
            .is_some_and(|caps| caps.elicitation.is_some());
        if !can_ask {
            return Some(error(approval::cannot_ask(minted, route)).into());
        }
        let params = approval::request(minted, route, args, session.allowance());
        let modern = context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        let answer = if modern {
            // SEP-2322: ask by answering input_required; the client retries
            // the same call with the user's answer.
            let answered = pending.filter(|(name, asked)| name == minted && asked == args);
            match (answered, request.input_responses.as_ref()) {
                (Some(_), Some(responses)) => responses.get(approval::KEY).cloned(),
                _ => {
                    let state = new_state();
                    session.ask_later(state.clone(), minted, args);
                    let mut requests = InputRequests::new();
                    requests.insert(
                        approval::KEY.to_string(),
                        InputRequest::Elicitation(rmcp::model::ElicitRequest::new(params)),
                    );
                    return Some(InputRequiredResult::new(Some(requests), Some(state)).into());
                }
            }
        } else {
            let asked = context.peer.create_elicitation(params);
            let result = tokio::select! {
                result = asked => result,
                () = context.ct.cancelled() => return Some(error(format!(
                    "disclose: the client cancelled tools/call \"{minted}\" while its approval was asked\n"
                )).into()),
            };
            match result {
                Ok(result) => serde_json::to_value(result).ok(),
                Err(e) => {
                    return Some(
                        error(format!(
                            "disclose: \"{minted}\" needs approval, and asking the client failed: {e}\n"
                        ))
                        .into(),
                    );
                }
            }
        };
        match approval::decide(answer.as_ref()) {
            Decision::Once => None,
            Decision::Session => {
                session.allow(minted, &route.digest);
                None
            }
            Decision::Declined(how) => Some(error(approval::declined(minted, how)).into()),
        }
    }
}

/// A request state for an approval round: 128 bits from the OS, so no
/// client can name another's round.
fn new_state() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS randomness: the time and a counter still never repeat.
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (nanos ^ u128::from(n)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// An upstream result with every config secret replaced.
fn scrubbed(result: CallToolResult) -> CallToolResult {
    let secrets = crate::secrets::installed();
    if secrets.is_empty() {
        return result;
    }
    let Ok(mut value) = serde_json::to_value(&result) else {
        return result;
    };
    if !secrets.scrub_value(&mut value) {
        return result;
    }
    serde_json::from_value(value).unwrap_or_else(|_| {
        error("disclose: the server's result held a secret of the gateway's config and could not be cleaned; it was withheld\n".into())
    })
}

fn short(digest: &str) -> &str {
    digest.get(..16).unwrap_or(digest)
}

fn id_text(id: &rmcp::model::RequestId) -> String {
    match id {
        rmcp::model::NumberOrString::Number(n) => n.to_string(),
        rmcp::model::NumberOrString::String(s) => s.to_string(),
    }
}

fn error(text: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// A result built from JSON, with the 2026-07-28 `resultType` envelope
/// (rmcp drops it for clients of older versions).
fn from_json<T: DeserializeOwned>(mut value: Value) -> Result<T, ErrorData> {
    if let Value::Object(map) = &mut value {
        map.insert("resultType".into(), json!("complete"));
    }
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

impl ServerHandler for Gateway {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let result = self.negotiate_initialize(&request)?;
        if self.bound.get().is_none() {
            let session = self.shared.open(Allowance::Remembered).map_err(|message| {
                crate::log(&message);
                ErrorData::internal_error(message, None)
            })?;
            let _ = self.bound.set(session);
        }
        Ok(result)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.shared.list.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(self.call(request, context).await)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        from_json(json!({"prompts": [{
            "name": INDEX,
            "description": "The catalog's dormant index: every capability behind describe and call, one line each.",
        }]}))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != INDEX {
            return Err(ErrorData::invalid_params(
                format!(
                    "no prompt is named \"{}\"; the one prompt is \"{INDEX}\"",
                    request.name
                ),
                None,
            ));
        }
        let result: rmcp::model::GetPromptResult = from_json(json!({
            "description": "The catalog's dormant index",
            "messages": [{"role": "user", "content": {"type": "text", "text": self.shared.render}}],
        }))?;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json(json!({"resources": [{
            "uri": INDEX_URI,
            "name": INDEX,
            "description": "The catalog's dormant index: every capability behind describe and call, one line each.",
            "mimeType": "text/markdown",
        }]}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != INDEX_URI {
            return Err(ErrorData::resource_not_found(
                format!(
                    "no resource is at \"{}\"; the one resource is \"{INDEX_URI}\"",
                    request.uri
                ),
                None,
            ));
        }
        let result: rmcp::model::ReadResourceResult = from_json(json!({
            "contents": [{"uri": INDEX_URI, "mimeType": "text/markdown", "text": self.shared.render}],
        }))?;
        Ok(result.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_answers_read() {
        let run = disclose::Catalog::new().start(disclose::Mode::Work);
        let tools = run.tools_for(disclose::Provider::Mcp).into_value();
        let list: ListToolsResult =
            from_json(json!({ "tools": tools })).expect("a tools/list result");
        assert_eq!(list.tools.len(), 2);
        let capabilities: ServerCapabilities = serde_json::from_value(json!({
            "tools": {"listChanged": false},
            "prompts": {"listChanged": false},
            "resources": {"listChanged": false},
        }))
        .expect("capabilities");
        assert!(capabilities.tools.is_some() && capabilities.prompts.is_some());
    }
}
