//! The gateway as an MCP server: one run of the catalog behind the two
//! doors, whatever transport carries it (stdio today; a second transport
//! serves the same [`Gateway`]).
//!
//! `tools/list` is the run's resident tools in contract 3's `mcp` shape
//! (`Run::tools_for(Provider::Mcp)`, SPEC §11), fixed at start; the
//! `initialize` (and `server/discover`) `instructions` carry `Run::render()`,
//! which is also served as the prompt and the resource `index` for clients
//! that drop instructions. Every `tools/call` goes through `Run::answer`
//! (recorded): `describe` is answered by the library, a refusal becomes a
//! tool result with `isError` and the exact refusal text, and a routed call
//! goes to its upstream under its raw name, after approval, and comes back
//! as the upstream answered. The gateway never changes the run's catalog:
//! a restarted upstream whose tool changed (by digest, SPEC §2) has that
//! tool refused.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use disclose::{Answer, Approval, RecordedRun, ToolCall};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, InputRequest, InputRequests, InputRequiredResult, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ResultType, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::approval::{self, Decision};
use crate::recording::Out;
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

/// The gateway: a started run and its upstreams.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    run: Mutex<RecordedRun<Out>>,
    routes: BTreeMap<String, UpstreamTool>,
    upstreams: BTreeMap<String, Arc<Upstream>>,
    /// Tools whose upstream restarted with a different descriptor:
    /// minted name → the refusal text.
    changed: Mutex<BTreeMap<String, String>>,
    /// Session allowances: minted name → the digest allowed.
    allowed: Mutex<BTreeMap<String, String>>,
    /// Approvals asked of a 2026-07-28 client (MRTR): request state → the
    /// call it is for.
    pending: Mutex<BTreeMap<String, (String, Value)>>,
    next_state: AtomicU64,
    state_salt: u64,
    /// The `tools/list` answer, built once: the run's tool list is fixed.
    list: ListToolsResult,
    /// What `initialize` and `server/discover` say, built once (rmcp asks
    /// for it on many requests).
    info: ServerConfig,
    render: String,
    options: Options,
}

/// Locks a mutex whose holder may have panicked: the data is plain and
/// never left half-written.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Gateway {
    /// A gateway over a started, recorded run. `tools` and `render` are what
    /// the run gave at start (`tools_for(Provider::Mcp)` and `render()`,
    /// already recorded).
    pub fn new(
        run: RecordedRun<Out>,
        routes: BTreeMap<String, UpstreamTool>,
        upstreams: BTreeMap<String, Arc<Upstream>>,
        tools: Value,
        render: String,
        options: Options,
    ) -> Gateway {
        let state_salt = u64::from(std::process::id()).rotate_left(32)
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
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
        Gateway {
            inner: Arc::new(Inner {
                run: Mutex::new(run),
                routes,
                upstreams,
                changed: Mutex::new(BTreeMap::new()),
                allowed: Mutex::new(BTreeMap::new()),
                pending: Mutex::new(BTreeMap::new()),
                next_state: AtomicU64::new(1),
                state_salt,
                list,
                info,
                render,
                options,
            }),
        }
    }

    /// The upstreams, for a clean stop.
    pub fn upstreams(&self) -> Vec<Arc<Upstream>> {
        self.inner.upstreams.values().cloned().collect()
    }

    /// The first recording write that failed, if any.
    pub fn record_error(&self) -> Option<String> {
        lock(&self.inner.run).error().map(ToString::to_string)
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let inner = &self.inner;
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
            .and_then(|state| lock(&inner.pending).remove(state));
        let answer = match &pending {
            Some(_) => lock(&inner.run).run().answer(&call),
            None => lock(&inner.run).answer(&call),
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
        let Some(route) = inner.routes.get(&routed.name).cloned() else {
            return error(format!(
                "disclose: \"{}\" is admitted but no upstream serves it\n",
                routed.name
            ))
            .into();
        };
        if let Some(refusal) = lock(&inner.changed).get(&routed.name) {
            return error(refusal.clone()).into();
        }
        if let Some(response) = self
            .approve(
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
        let Some(upstream) = inner.upstreams.get(&route.origin) else {
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
        let restarted = |tools: &[Value]| self.compare_restarted(&route.origin, tools, &minted);
        match upstream
            .call(
                &route.raw_name,
                args,
                &context.ct,
                inner.options.call_timeout,
                &restarted,
            )
            .await
        {
            Called::Result(mut result) => {
                // The 2026-07-28 envelope; rmcp drops it for older clients.
                result.result_type = Some(ResultType::COMPLETE);
                result.into()
            }
            Called::Failed(text) => error(text).into(),
            Called::Cancelled => error(format!(
                "disclose: the client cancelled tools/call \"{}\"; server \"{}\" was told\n",
                routed.name, route.origin
            ))
            .into(),
        }
    }

    /// Puts a call whose approval is required to the user. `None` lets the
    /// call run; otherwise the answer to give instead.
    async fn approve(
        &self,
        minted: &str,
        route: &UpstreamTool,
        args: &Value,
        request: &CallToolRequestParams,
        pending: Option<(String, Value)>,
        context: &RequestContext<RoleServer>,
    ) -> Option<CallToolResponse> {
        let inner = &self.inner;
        if route.approval == Approval::Never || inner.options.allow_all {
            return None;
        }
        if lock(&inner.allowed).get(minted) == Some(&route.digest) {
            return None;
        }
        let can_ask = context
            .client_capabilities()
            .is_some_and(|caps| caps.elicitation.is_some());
        if !can_ask {
            return Some(error(approval::cannot_ask(minted, route)).into());
        }
        let params = approval::request(minted, route, args);
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
                    let state = self.new_state();
                    lock(&inner.pending).insert(state.clone(), (minted.to_string(), args.clone()));
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
                lock(&inner.allowed).insert(minted.to_string(), route.digest.clone());
                None
            }
            Decision::Declined(how) => Some(error(approval::declined(minted, how)).into()),
        }
    }

    fn new_state(&self) -> String {
        let n = self.inner.next_state.fetch_add(1, Ordering::Relaxed);
        format!("{:016x}{n:08x}", self.inner.state_salt)
    }

    /// After a restart: each of this upstream's tools whose descriptor
    /// differs from the run's (or that is gone) is refused from now on.
    /// Gives the refusal for `minted` when it is one of them.
    fn compare_restarted(&self, origin: &str, tools: &[Value], minted: &str) -> Option<String> {
        let now = crate::catalog::digests(origin, tools);
        let mut changed = lock(&self.inner.changed);
        for (name, route) in self.inner.routes.iter().filter(|(_, r)| r.origin == origin) {
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
        self.inner.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(self.inner.list.clone())
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
            "messages": [{"role": "user", "content": {"type": "text", "text": self.inner.render}}],
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
            "contents": [{"uri": INDEX_URI, "mimeType": "text/markdown", "text": self.inner.render}],
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
