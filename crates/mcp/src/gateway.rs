//! The gateway as an MCP server: the two doors over a run of the catalog,
//! whatever transport carries it (stdio, or streamable HTTP with one run
//! per MCP session).
//!
//! [`Shared`] (the `shared` module) is what every session sees alike and
//! what the upstreams are. A [`Gateway`] is one `rmcp::ServerHandler` over
//! it, bound to one [`SessionRun`] (its run,
//! recording, allowances and approval rounds): bound at once over stdio,
//! and over HTTP on its session's `initialize`, or, for a request of the
//! 2026-07-28 revision, which has no session, to the sessionless run.
//!
//! `tools/list` is the run's resident tools in the `mcp` shape
//! (`Run::tools_for(Provider::Mcp)`, SPEC §11), fixed at start; the
//! `initialize` (and `server/discover`) `instructions` carry `Run::render()`,
//! which is also served as the prompt and the resource `index` for clients
//! that drop instructions. Every `tools/call` goes through `Run::answer`
//! (recorded): `describe` is answered by the library, a refusal becomes a
//! tool result with `isError` and the exact refusal text, and a routed call
//! goes to its upstream under its raw name, after approval, and comes back
//! as the upstream answered (with any config secret scrubbed, `secrets`);
//! the upstream's progress notifications for it reach the client that made
//! it, under that client's progress token.
//! The gateway never changes a run's catalog: a restarted upstream whose
//! tool changed (by digest, SPEC §2) has that tool refused, in every
//! session.
//!
//! Besides tools, it forwards what its upstreams offer (`hub`, `listing`):
//! `prompts/list` and the resource lists are the gateway's index and every
//! upstream's entries; `prompts/get`, `resources/read`,
//! `completion/complete` and `resources/subscribe`/`unsubscribe` go to the
//! upstream that owns the prompt or URI, with the same restarts, timeout,
//! cancellation, progress and HTTP limits as a call, and come back as sent
//! (secrets scrubbed). A server's question during a forwarded request goes
//! to the session that made it (`questions`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use disclose::{Answer, Approval, ToolCall};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientRequest, CompleteRequest,
    CompleteRequestParams, CompleteResult, ContentBlock, GetPromptRequest, GetPromptRequestParams,
    GetPromptResponse, InitializeRequestParams, InitializeResult, InputRequest, InputRequests,
    InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProgressToken,
    ProtocolVersion, ReadResourceRequest, ReadResourceRequestParams, ReadResourceResponse,
    Reference, ResultType, ServerConfig, ServerResult, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

use crate::approval::{self, Decision};
use crate::questions::{Asker, Parked};
use crate::session::{Allowance, SessionRun, lock};
use crate::shared::{Shared, UpstreamTool};
use crate::upstream::{Called, Forward, Replied, What};

/// The name of the prompt and resource that carry the dormant index.
pub const INDEX: &str = "index";
/// The resource's address.
pub const INDEX_URI: &str = "disclose://index";
/// The key of a server's question among a call's input requests.
pub const QUESTION: &str = "question";

/// The description of the index, as a prompt and as a resource.
const INDEX_DESCRIPTION: &str =
    "The catalog's dormant index: every capability behind describe and call, one line each.";

/// The gateway's own prompt and resource, first in their lists.
pub fn own() -> crate::listing::Own {
    // Our own JSON of a fixed shape: a test holds that it reads.
    crate::listing::Own {
        prompt: serde_json::from_value(json!({"name": INDEX, "description": INDEX_DESCRIPTION}))
            .unwrap_or_else(|_| rmcp::model::Prompt::new(INDEX, Some(INDEX_DESCRIPTION), None)),
        resource: serde_json::from_value(json!({
            "uri": INDEX_URI,
            "name": INDEX,
            "description": INDEX_DESCRIPTION,
            "mimeType": "text/markdown",
        }))
        .unwrap_or_else(|_| rmcp::model::Resource::new(INDEX_URI, INDEX)),
    }
}

/// A call's slot among its session's calls in flight (HTTP's
/// `--max-calls`), put in the request's extensions by the transport and
/// taken by the call, which holds it until it is answered.
#[derive(Clone)]
pub struct CallSlot(Arc<std::sync::Mutex<Option<tokio::sync::OwnedSemaphorePermit>>>);

impl CallSlot {
    /// A slot holding `permit`.
    pub fn new(permit: tokio::sync::OwnedSemaphorePermit) -> CallSlot {
        CallSlot(Arc::new(std::sync::Mutex::new(Some(permit))))
    }

    /// The slot of the HTTP request a call came in, taken out of it.
    fn take(context: &RequestContext<RoleServer>) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let parts = context.extensions.get::<http::request::Parts>()?;
        let slot = parts.extensions.get::<CallSlot>()?;
        lock(&slot.0).take()
    }
}

/// Who made a `tools/call`, as its answer needs them: from rmcp's
/// request context, or from the stdio lane (`lane`), which reads plain
/// calls itself.
pub(crate) struct Caller {
    pub(crate) id: rmcp::model::RequestId,
    /// Cancelled when the client cancels the call.
    pub(crate) ct: tokio_util::sync::CancellationToken,
    /// The client's progress token, when it asked for progress.
    pub(crate) progress: Option<ProgressToken>,
    pub(crate) peer: rmcp::Peer<RoleServer>,
    pub(crate) capabilities: Option<rmcp::model::ClientCapabilities>,
    pub(crate) version: Option<ProtocolVersion>,
    /// Its slot among its session's calls in flight (HTTP).
    pub(crate) slot: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Caller {
    /// Who to ask the server's questions during this call.
    fn asker(&self, session: u64) -> Asker {
        Asker::new(
            session,
            &self.peer,
            self.capabilities.clone(),
            self.version.as_ref(),
        )
    }

    fn of(context: RequestContext<RoleServer>) -> Caller {
        Caller {
            slot: CallSlot::take(&context),
            capabilities: context.client_capabilities(),
            version: context.protocol_version(),
            progress: context.meta.get_progress_token(),
            id: context.id,
            ct: context.ct,
            peer: context.peer,
        }
    }
}

/// A call as the catalog answered it ([`Gateway::decide`]).
pub(crate) enum Decided {
    /// Answered without an upstream: `describe`, a refusal, a tool no
    /// upstream serves or whose upstream changed it.
    Answered(CallToolResponse),
    /// To run on its upstream.
    Routed(Routed),
}

/// A call the catalog routed to an upstream tool.
pub(crate) struct Routed {
    pub(crate) session: Arc<SessionRun>,
    /// The call as resolved and fitted: its minted name and args.
    pub(crate) call: ToolCall,
    pub(crate) route: UpstreamTool,
    /// The approval round a 2026-07-28 retry answers.
    pending: Option<(String, Value)>,
}

/// A `prompts/get` of an upstream's prompt or a `resources/read` of an
/// upstream's resource, routed to the upstream that owns it: what rmcp's
/// handler and the stdio lane (`lane`) both send.
pub(crate) struct RoutedAsk {
    /// The upstream that owns the prompt or the URI.
    pub(crate) origin: String,
    /// What the client named: the prompt's minted name, or the URI.
    subject: String,
    /// The request's params, as its upstream is sent them.
    pub(crate) params: RoutedAskParams,
}

/// An [`RoutedAsk`]'s params: the prompt's raw name and the client's
/// arguments, or the URI, and nothing else of the client's request.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub(crate) enum RoutedAskParams {
    Prompt(GetPromptRequestParams),
    Read(ReadResourceRequestParams),
}

impl RoutedAsk {
    /// Its method.
    pub(crate) fn method(&self) -> &'static str {
        match self.params {
            RoutedAskParams::Prompt(_) => "prompts/get",
            RoutedAskParams::Read(_) => "resources/read",
        }
    }

    /// What it is, in the gateway's messages.
    pub(crate) fn what(&self) -> What<'_> {
        What {
            method: self.method(),
            subject: &self.subject,
        }
    }

    /// What the client is answered for what its upstream gave
    /// ([`client_reply`]): a result of the request's own kind, in the
    /// 2026-07-28 envelope (rmcp drops it for older clients).
    pub(crate) fn answer(
        &self,
        answer: Result<ServerResult, ErrorData>,
    ) -> Result<ServerResult, ErrorData> {
        match (&self.params, answer?) {
            (RoutedAskParams::Prompt(_), ServerResult::GetPromptResult(mut result)) => {
                result.result_type = Some(ResultType::COMPLETE);
                Ok(ServerResult::GetPromptResult(result))
            }
            (RoutedAskParams::Read(_), ServerResult::ReadResourceResult(mut result)) => {
                result.result_type = Some(ResultType::COMPLETE);
                Ok(ServerResult::ReadResourceResult(result))
            }
            _ => Err(unexpected(&self.origin, self.what())),
        }
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

    /// Answers one `tools/call`, made by `caller`.
    pub(crate) async fn call(
        &self,
        request: CallToolRequestParams,
        mut caller: Caller,
    ) -> CallToolResponse {
        let _slot = caller.slot.take();
        // A 2026-07-28 client's retry with its answer to a server's question.
        if let Some(state) = &request.request_state
            && let Ok(session) = self.session()
            && let Some(mut parked) = session.take_parked(state)
        {
            let answer = request
                .input_responses
                .as_ref()
                .and_then(|responses| responses.get(QUESTION).cloned())
                .ok_or_else(|| {
                    ErrorData::invalid_params("disclose: the retry carries no answer", None)
                });
            if let Some(waiting) = parked.waiting.take() {
                let _ = waiting.send(answer);
            }
            return self.next_round(&session, parked, &caller.ct).await;
        }
        match self.decide(&request, &caller.id) {
            Decided::Answered(response) => response,
            Decided::Routed(routed) => self.run_routed(routed, &request, &caller).await,
        }
    }

    /// What a call is before any upstream is asked: the catalog's answer
    /// (recorded), or the upstream tool it routes to.
    pub(crate) fn decide(
        &self,
        request: &CallToolRequestParams,
        id: &rmcp::model::RequestId,
    ) -> Decided {
        let session = match self.session() {
            Ok(session) => session,
            Err(message) => {
                crate::log(&message);
                return Decided::Answered(error(format!("disclose: {message}\n")).into());
            }
        };
        let call = ToolCall {
            id: id_text(id),
            name: request.name.to_string(),
            args: Value::Object(request.arguments.clone().unwrap_or_default()),
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
        let call = match answer {
            Answer::Text(text) => {
                return Decided::Answered(
                    CallToolResult::success(vec![ContentBlock::text(text)]).into(),
                );
            }
            Answer::Refused(refusal) => return Decided::Answered(error(refusal.to_lines()).into()),
            Answer::Run(routed) => routed,
            _ => {
                return Decided::Answered(
                    error("disclose: this answer is not one the gateway knows\n".into()).into(),
                );
            }
        };
        let Some(route) = self.shared.routes.get(&call.name).cloned() else {
            return Decided::Answered(
                error(format!(
                    "disclose: \"{}\" is admitted but no upstream serves it\n",
                    call.name
                ))
                .into(),
            );
        };
        if let Some(refusal) = lock(&self.shared.changed).get(&call.name) {
            return Decided::Answered(error(refusal.clone()).into());
        }
        Decided::Routed(Routed {
            session,
            call,
            route,
            pending,
        })
    }

    /// The upstream a routed call can be sent to at once, on its lane:
    /// one whose approval is not asked (never needed, `--allow-all`, or
    /// allowed for the session) and whose server is up on a lane. `None`
    /// leaves the call to [`Gateway::run_routed`].
    pub(crate) fn lane_now(&self, routed: &Routed) -> Option<crate::upstream::LaneNow> {
        let asks = self.asks_approval(&routed.session, &routed.call.name, &routed.route);
        if routed.pending.is_some() || asks {
            return None;
        }
        self.shared.upstreams.get(&routed.route.origin)?.lane_now()
    }

    /// Whether a call of `minted` must be put to the user before it runs.
    fn asks_approval(&self, session: &SessionRun, minted: &str, route: &UpstreamTool) -> bool {
        route.approval != Approval::Never
            && !self.shared.options.allow_all
            && !session.is_allowed(minted, &route.digest)
    }

    /// Runs a routed call: approval, then its upstream.
    pub(crate) async fn run_routed(
        &self,
        routed: Routed,
        request: &CallToolRequestParams,
        caller: &Caller,
    ) -> CallToolResponse {
        let shared = &self.shared;
        let Routed {
            session,
            call: routed,
            route,
            pending,
        } = routed;
        if let Some(response) = self
            .approve(
                &session,
                &routed.name,
                &route,
                &routed.args,
                request,
                pending,
                caller,
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
        if caller
            .version
            .as_ref()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
        {
            return self
                .in_rounds(&session, Arc::clone(upstream), route, minted, args, caller)
                .await;
        }
        let restarted = |tools: &[Value]| shared.compare_restarted(&route.origin, tools, &minted);
        // The client's progress token, when it asked for progress: the
        // server's notifications for this call come back under it.
        let (sink, progress) = match caller.progress.clone() {
            Some(token) => {
                let (sink, progress) = tokio::sync::mpsc::unbounded_channel();
                (Some(sink), Some((token, progress)))
            }
            None => (None, None),
        };
        let forward = Forward {
            cancel: &caller.ct,
            timeout: shared.options.call_timeout,
            restarted: &restarted,
            progress: sink,
            asker: Some(caller.asker(session.serial())),
        };
        let called = upstream.call(&route.raw_name, args, forward);
        // Every notification is sent before the result: the forwarding
        // ends when the call has dropped its sink.
        let (called, ()) = tokio::join!(called, forward_progress(&caller.peer, progress));
        self.responded(called, &routed.name, &route.origin)
    }

    /// Runs a 2026-07-28 client's call on a task of its own, so that a
    /// question its server asks can be given to the client as
    /// `input_required` while the call waits for the answer.
    async fn in_rounds(
        &self,
        session: &SessionRun,
        upstream: Arc<crate::upstream::Upstream>,
        route: UpstreamTool,
        minted: String,
        args: Option<Map<String, Value>>,
        caller: &Caller,
    ) -> CallToolResponse {
        let (asker, questions) = Asker::rounds(caller.capabilities.clone());
        let (finished, done) = tokio::sync::oneshot::channel();
        let cancel = tokio_util::sync::CancellationToken::new();
        let shared = Arc::clone(&self.shared);
        let (origin, name) = (route.origin.clone(), minted.clone());
        let running = cancel.clone();
        let (sink, progress) = match caller.progress.clone() {
            Some(token) => {
                let (sink, progress) = tokio::sync::mpsc::unbounded_channel();
                (Some(sink), Some((token, progress)))
            }
            None => (None, None),
        };
        let peer = caller.peer.clone();
        tokio::spawn(async move {
            let restarted = |tools: &[Value]| shared.compare_restarted(&origin, tools, &name);
            let forward = Forward {
                cancel: &running,
                timeout: shared.options.call_timeout,
                restarted: &restarted,
                progress: sink,
                asker: Some(asker),
            };
            let called = upstream.call(&route.raw_name, args, forward);
            // Every notification is sent before the result, as for a call
            // that is not asked in rounds.
            let (called, ()) = tokio::join!(called, forward_progress(&peer, progress));
            let _ = finished.send(called);
        });
        let parked = Parked {
            done,
            questions,
            waiting: None,
            cancel: cancel.drop_guard(),
            minted,
            origin: route.origin,
        };
        self.next_round(session, parked, &caller.ct).await
    }

    /// Waits for a call in rounds to end, or for its server's next
    /// question, which is the client's answer: `input_required`, the call
    /// parked until the retry.
    async fn next_round(
        &self,
        session: &SessionRun,
        mut parked: Parked,
        ct: &tokio_util::sync::CancellationToken,
    ) -> CallToolResponse {
        tokio::select! {
            called = &mut parked.done => {
                let called = called.unwrap_or_else(|_| {
                    Called::Failed("disclose: the call ended without an answer\n".into())
                });
                self.responded(called, &parked.minted, &parked.origin)
            }
            Some(question) = parked.questions.recv() => {
                let state = new_state();
                let mut requests = InputRequests::new();
                requests.insert(QUESTION.to_string(), question.request);
                parked.waiting = Some(question.answer);
                session.park(state.clone(), parked);
                InputRequiredResult::new(Some(requests), Some(state)).into()
            }
            () = ct.cancelled() => error(format!(
                "disclose: the client cancelled tools/call \"{}\"; server \"{}\" was told\n",
                parked.minted, parked.origin
            )).into(),
        }
    }

    /// What the client is answered for what its upstream call gave; the
    /// `resource_link`s of a result are remembered, so their URIs can be
    /// read through the gateway.
    pub(crate) fn responded(&self, called: Called, minted: &str, origin: &str) -> CallToolResponse {
        if let Called::Result(result) = &called {
            self.shared.hub.remember_links(origin, &result.content);
        }
        responded(called, minted, origin)
    }

    /// Forwards `request` to `origin` for `caller`, with its progress, its
    /// questions and its slot among the session's requests in flight, as
    /// a call is forwarded.
    async fn forward(
        &self,
        origin: &str,
        request: ClientRequest,
        what: What<'_>,
        mut caller: Caller,
    ) -> Result<ServerResult, ErrorData> {
        let _slot = caller.slot.take();
        let shared = &self.shared;
        let Some(upstream) = shared.upstreams.get(origin) else {
            return Err(ErrorData::internal_error(
                format!("disclose: server \"{origin}\" is not running"),
                None,
            ));
        };
        let session = self
            .session()
            .map_err(|m| ErrorData::internal_error(m, None))?;
        let restarted = |tools: &[Value]| shared.compare_restarted(origin, tools, "");
        let (sink, progress) = match caller.progress.clone() {
            Some(token) => {
                let (sink, progress) = tokio::sync::mpsc::unbounded_channel();
                (Some(sink), Some((token, progress)))
            }
            None => (None, None),
        };
        let forward = Forward {
            cancel: &caller.ct,
            timeout: shared.options.call_timeout,
            restarted: &restarted,
            progress: sink,
            asker: Some(caller.asker(session.serial())),
        };
        let replied = upstream.request(request, what, forward);
        let (replied, ()) = tokio::join!(replied, forward_progress(&caller.peer, progress));
        client_reply(replied, origin, what)
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
        caller: &Caller,
    ) -> Option<CallToolResponse> {
        if !self.asks_approval(session, minted, route) {
            return None;
        }
        let can_ask = caller
            .capabilities
            .as_ref()
            .is_some_and(|caps| caps.elicitation.is_some());
        if !can_ask {
            return Some(error(approval::cannot_ask(minted, route)).into());
        }
        let params = approval::request(minted, route, args, session.allowance());
        let modern = caller
            .version
            .as_ref()
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
            let asked = caller.peer.create_elicitation(params);
            let result = tokio::select! {
                result = asked => result,
                () = caller.ct.cancelled() => return Some(error(format!(
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

/// What the client gets for what an upstream replied to a request other
/// than a call: its result or its error with every config secret
/// replaced, or the gateway's error naming what went wrong.
pub(crate) fn client_reply(
    replied: Replied,
    origin: &str,
    what: What<'_>,
) -> Result<ServerResult, ErrorData> {
    let scrub = |text: &str| crate::secrets::scrub(text).into_owned();
    match replied {
        Replied::Result(result) => {
            let mut result = *result;
            let secrets = crate::secrets::installed();
            if !secrets.is_empty()
                && let Ok(mut value) = serde_json::to_value(&result)
                && secrets.scrub_value(&mut value)
            {
                result = serde_json::from_value(value).map_err(|_| {
                    ErrorData::internal_error(
                        format!("disclose: server \"{origin}\" answered {what} with a secret of the gateway's config, and it could not be cleaned; it was withheld"),
                        None,
                    )
                })?;
            }
            Ok(result)
        }
        Replied::Error(mut error) => {
            error.message = scrub(&error.message).into();
            if let Some(data) = error.data.as_mut() {
                crate::secrets::installed().scrub_value(data);
            }
            Err(error)
        }
        Replied::Failed(text) => Err(ErrorData::internal_error(scrub(text.trim_end()), None)),
        Replied::Cancelled => Err(ErrorData::internal_error(
            format!("disclose: the client cancelled {what}; server \"{origin}\" was told"),
            None,
        )),
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

/// Sends each progress notification of a call to the client that made it,
/// under the client's own token (its message scrubbed), until the call
/// ends.
async fn forward_progress(
    peer: &rmcp::Peer<RoleServer>,
    progress: Option<(ProgressToken, UnboundedReceiver<ProgressNotificationParam>)>,
) {
    let Some((token, mut progress)) = progress else {
        return;
    };
    while let Some(upstream) = progress.recv().await {
        let mut notification = ProgressNotificationParam::new(token.clone(), upstream.progress);
        notification.total = upstream.total;
        notification.message = upstream
            .message
            .map(|message| crate::secrets::scrub(&message).into_owned());
        // A client that went away misses the rest; the call still ends.
        let _ = peer.notify_progress(notification).await;
    }
}

/// What the client is answered for what its upstream call gave.
fn responded(called: Called, minted: &str, origin: &str) -> CallToolResponse {
    match called {
        Called::Result(mut result) => {
            // The 2026-07-28 envelope; rmcp drops it for older clients.
            result.result_type = Some(ResultType::COMPLETE);
            scrubbed(result).into()
        }
        Called::Failed(text) => error(crate::secrets::scrub(&text).into_owned()).into(),
        Called::Cancelled => error(format!(
            "disclose: the client cancelled tools/call \"{minted}\"; server \"{origin}\" was told\n"
        ))
        .into(),
    }
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
pub(crate) fn from_json<T: DeserializeOwned>(mut value: Value) -> Result<T, ErrorData> {
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
            self.shared.join(&session, context.peer.clone());
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
        Ok(self.call(request, Caller::of(context)).await)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let (prompts, next_cursor) = self.shared.hub.lists().prompts(cursor(&request))?;
        Ok(ListPromptsResult {
            prompts,
            next_cursor,
            ..ListPromptsResult::default()
        })
    }

    async fn get_prompt(
        &self,
        mut request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name == INDEX {
            let result: rmcp::model::GetPromptResult = from_json(json!({
                "description": "The catalog's dormant index",
                "messages": [{"role": "user", "content": {"type": "text", "text": self.shared.render}}],
            }))?;
            return Ok(result.into());
        }
        let arguments = request.arguments.take();
        let Some(asked) = self.asked_prompt(&request.name, arguments) else {
            return Err(ErrorData::invalid_params(
                format!("no prompt is named \"{}\"", request.name),
                None,
            ));
        };
        match self.ask(&asked, Caller::of(context)).await? {
            ServerResult::GetPromptResult(result) => Ok(result.into()),
            _ => Err(unexpected(&asked.origin, asked.what())),
        }
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let (resources, next_cursor) = self.shared.hub.lists().resources(cursor(&request))?;
        Ok(ListResourcesResult {
            resources,
            next_cursor,
            ..ListResourcesResult::default()
        })
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let (resource_templates, next_cursor) =
            self.shared.hub.lists().templates(cursor(&request))?;
        Ok(ListResourceTemplatesResult {
            resource_templates,
            next_cursor,
            ..ListResourceTemplatesResult::default()
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri == INDEX_URI {
            let result: rmcp::model::ReadResourceResult = from_json(json!({
                "contents": [{"uri": INDEX_URI, "mimeType": "text/markdown", "text": self.shared.render}],
            }))?;
            return Ok(result.into());
        }
        let asked = self.asked_read(&request.uri)?;
        match self.ask(&asked, Caller::of(context)).await? {
            ServerResult::ReadResourceResult(result) => Ok(result.into()),
            _ => Err(unexpected(&asked.origin, asked.what())),
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri == INDEX_URI {
            // The index never changes during a run.
            return Ok(());
        }
        let origin = self.owner(&request.uri)?;
        let session = self
            .session()
            .map_err(|m| ErrorData::internal_error(m, None))?;
        if !self
            .shared
            .hub
            .subscribe(session.serial(), &origin, &request.uri)
        {
            return Ok(());
        }
        let what = What {
            method: "resources/subscribe",
            subject: &request.uri,
        };
        #[expect(
            deprecated,
            reason = "resources/subscribe is the handshake revisions' own"
        )]
        let sent = ClientRequest::SubscribeRequest(rmcp::model::SubscribeRequest::new(
            SubscribeRequestParams::new(request.uri.clone()),
        ));
        let subscribed = self.forward(&origin, sent, what, Caller::of(context)).await;
        if subscribed.is_err() {
            self.shared
                .hub
                .unsubscribe(session.serial(), &origin, &request.uri);
        }
        subscribed.map(|_| ())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri == INDEX_URI {
            return Ok(());
        }
        let origin = self.owner(&request.uri)?;
        let session = self
            .session()
            .map_err(|m| ErrorData::internal_error(m, None))?;
        if !self
            .shared
            .hub
            .unsubscribe(session.serial(), &origin, &request.uri)
        {
            return Ok(());
        }
        let what = What {
            method: "resources/unsubscribe",
            subject: &request.uri,
        };
        #[expect(
            deprecated,
            reason = "resources/unsubscribe is the handshake revisions' own"
        )]
        let sent = ClientRequest::UnsubscribeRequest(rmcp::model::UnsubscribeRequest::new(
            UnsubscribeRequestParams::new(request.uri.clone()),
        ));
        self.forward(&origin, sent, what, Caller::of(context))
            .await
            .map(|_| ())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let lists = self.shared.hub.lists();
        let mut sent = request.clone();
        sent.meta = None;
        let (origin, subject) = match &request.r#ref {
            Reference::Prompt(prompt) if prompt.name == INDEX => {
                return Ok(CompleteResult::default());
            }
            Reference::Prompt(prompt) => {
                let Some(route) = lists.prompt(&prompt.name) else {
                    return Err(ErrorData::invalid_params(
                        format!("no prompt is named \"{}\"", prompt.name),
                        None,
                    ));
                };
                sent.r#ref = Reference::for_prompt(route.raw_name.clone());
                (route.origin.clone(), prompt.name.clone())
            }
            Reference::Resource(resource) => {
                let Some(origin) = lists.template_owner(&resource.uri) else {
                    return Err(ErrorData::resource_not_found(
                        format!("no server lists a resource template \"{}\"", resource.uri),
                        None,
                    ));
                };
                (origin.to_string(), resource.uri.clone())
            }
            _ => {
                return Err(ErrorData::invalid_params(
                    "a completion's ref is ref/prompt or ref/resource",
                    None,
                ));
            }
        };
        let what = What {
            method: "completion/complete",
            subject: &subject,
        };
        let sent = ClientRequest::CompleteRequest(CompleteRequest::new(sent));
        match self
            .forward(&origin, sent, what, Caller::of(context))
            .await?
        {
            ServerResult::CompleteResult(mut result) => {
                result.result_type = Some(ResultType::COMPLETE);
                Ok(result)
            }
            _ => Err(unexpected(&origin, what)),
        }
    }
}

impl Gateway {
    /// The `prompts/get` of the upstream prompt minted `name`, with
    /// `arguments`; `None` when no upstream prompt is so named.
    pub(crate) fn asked_prompt(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
    ) -> Option<RoutedAsk> {
        let lists = self.shared.hub.lists();
        let route = lists.prompt(name)?;
        let mut params = GetPromptRequestParams::new(route.raw_name.clone());
        params.arguments = arguments;
        Some(RoutedAsk {
            origin: route.origin.clone(),
            subject: name.to_string(),
            params: RoutedAskParams::Prompt(params),
        })
    }

    /// The `resources/read` of `uri` (not the index's) by the upstream
    /// that serves it, or the specification's "resource not found".
    pub(crate) fn asked_read(&self, uri: &str) -> Result<RoutedAsk, ErrorData> {
        Ok(RoutedAsk {
            origin: self.owner(uri)?,
            subject: uri.to_string(),
            params: RoutedAskParams::Read(ReadResourceRequestParams::new(uri)),
        })
    }

    /// Sends `asked` to its upstream for `caller` and reads its answer, as
    /// rmcp's handler does.
    pub(crate) async fn ask(
        &self,
        asked: &RoutedAsk,
        caller: Caller,
    ) -> Result<ServerResult, ErrorData> {
        let sent = match &asked.params {
            RoutedAskParams::Prompt(params) => {
                ClientRequest::GetPromptRequest(GetPromptRequest::new(params.clone()))
            }
            RoutedAskParams::Read(params) => {
                ClientRequest::ReadResourceRequest(ReadResourceRequest::new(params.clone()))
            }
        };
        let answer = self
            .forward(&asked.origin, sent, asked.what(), caller)
            .await;
        asked.answer(answer)
    }

    /// The upstream `asked` can be sent to at once, on its lane: its
    /// server is up on a child's stdio. `None` leaves it to
    /// [`Gateway::ask`], which restarts a server that is down.
    pub(crate) fn ask_now(&self, asked: &RoutedAsk) -> Option<crate::upstream::LaneNow> {
        self.shared.upstreams.get(&asked.origin)?.lane_now()
    }

    /// The serial of the session this server answers for.
    pub(crate) fn serial(&self) -> Option<u64> {
        self.session().ok().map(|session| session.serial())
    }

    /// The upstream that serves `uri`, or the specification's "resource
    /// not found".
    fn owner(&self, uri: &str) -> Result<String, ErrorData> {
        self.shared.hub.resource_owner(uri).ok_or_else(|| {
            ErrorData::resource_not_found(
                format!("no server lists \"{uri}\" or a template it matches"),
                Some(json!({ "uri": uri })),
            )
        })
    }
}

/// A list request's cursor, if it has one.
fn cursor(request: &Option<PaginatedRequestParams>) -> Option<&str> {
    request.as_ref().and_then(|r| r.cursor.as_deref())
}

/// The error for a result of another kind than the request's.
fn unexpected(origin: &str, what: What<'_>) -> ErrorData {
    ErrorData::internal_error(
        format!("disclose: server \"{origin}\" answered {what} with a result of another kind"),
        None,
    )
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
        let capabilities: rmcp::model::ServerCapabilities = serde_json::from_value(json!({
            "tools": {"listChanged": false},
            "prompts": {"listChanged": false},
            "resources": {"listChanged": false},
        }))
        .expect("capabilities");
        assert!(capabilities.tools.is_some() && capabilities.prompts.is_some());
    }
}
