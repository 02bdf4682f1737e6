//! The servers' own questions: an upstream's `elicitation/create` or
//! `sampling/createMessage` made while it serves a request the gateway
//! forwarded goes to the session that made that request, and that
//! session's answer goes back.
//!
//! Each forwarded request registers its [`Asker`] on the upstream
//! connection it is sent on ([`Askers::asking`]) until it is answered. A
//! question names its request where the transport can: over streamable
//! HTTP it arrives on the response stream of the request it belongs to
//! (rmcp marks it, SEP-2260). Over stdio nothing on the wire ties the two,
//! so a question goes to the one session whose requests the server is
//! running; when it runs requests of two sessions at once, nothing can
//! tell whose user to ask, and no one is asked.
//!
//! A client of the handshake revisions is asked with a request of the
//! gateway's own (`elicitation/create`, `sampling/createMessage`); a client
//! of 2026-07-28, which takes no request from a server, is asked by the
//! answer to its call: `input_required` with the server's question, whose
//! retry carries the answer back ([`Parked`]).
//!
//! What the gateway answers itself (docs/decisions.md):
//! - a question from the client's session that did not declare the
//!   capability: elicitation in a mode it did not declare, `-32602`
//!   (Invalid params, as the specification has a client answer it);
//!   sampling, `-32601` (Method not found, as a client without sampling
//!   answers it);
//! - a question outside any forwarded request, or one the gateway cannot
//!   place: `-32602`, as SEP-2260 has a client answer a request associated
//!   with none of its own.

// Sampling is deprecated by SEP-2577 (for twelve months at least) and is
// forwarded all the same.
#![expect(deprecated)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult,
    ElicitRequest, ElicitRequestParams, ElicitResult, ErrorCode, InputRequest, ProtocolVersion,
    RequestId,
};
use rmcp::service::{InboundStreamOrigin, RequestContext};
use rmcp::{ErrorData, Peer, RoleClient, RoleServer};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::session::lock;

/// The session a forwarded request came from, as its server's questions
/// reach it.
#[derive(Clone)]
pub struct Asker {
    /// Whose request it is: the session's number, or, for a request asked
    /// in rounds, a number of that request's own (the sessionless run's
    /// clients share one session).
    who: u64,
    /// How its client is asked.
    reach: Reach,
    /// What its client declared.
    capabilities: Option<Arc<ClientCapabilities>>,
}

/// How a session's client is asked.
#[derive(Clone)]
enum Reach {
    /// With a request of the gateway's own (the handshake revisions).
    Request(Peer<RoleServer>),
    /// Through `input_required` rounds on the request it made (2026-07-28).
    Rounds(mpsc::UnboundedSender<Question>),
    /// Not at all: a client of 2026-07-28 whose request takes no rounds
    /// here.
    Never,
}

/// A server's question on its way to a client of 2026-07-28, and where
/// its answer goes.
pub struct Question {
    /// The question, as the client's `input_required` result carries it.
    pub request: InputRequest,
    /// The client's answer (its result for the request), or the error the
    /// server gets.
    pub answer: oneshot::Sender<Result<Value, ErrorData>>,
}

/// The numbers of requests asked in rounds, apart from sessions'.
static ROUNDS: AtomicU64 = AtomicU64::new(1 << 62);

impl Asker {
    /// The client of session `session`, reached through `peer`, which
    /// declared `capabilities` and speaks `version`.
    pub fn new(
        session: u64,
        peer: &Peer<RoleServer>,
        capabilities: Option<ClientCapabilities>,
        version: Option<&ProtocolVersion>,
    ) -> Asker {
        let modern = version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        Asker {
            who: session,
            reach: if modern {
                Reach::Never
            } else {
                Reach::Request(peer.clone())
            },
            capabilities: capabilities.map(Arc::new),
        }
    }

    /// A client of 2026-07-28 that declared `capabilities`, asked through
    /// the rounds of one request: each question comes out of the returned
    /// receiver.
    pub fn rounds(
        capabilities: Option<ClientCapabilities>,
    ) -> (Asker, mpsc::UnboundedReceiver<Question>) {
        let (questions, asked) = mpsc::unbounded_channel();
        let asker = Asker {
            who: ROUNDS.fetch_add(1, Ordering::Relaxed),
            reach: Reach::Rounds(questions),
            capabilities: capabilities.map(Arc::new),
        };
        (asker, asked)
    }

    /// Asks the client the server's question `method`: by `by_request`
    /// (its own request, the handshake revisions), or as `request` in the
    /// rounds of its call (2026-07-28).
    async fn ask<T: DeserializeOwned>(
        &self,
        origin: &str,
        method: &str,
        request: InputRequest,
        context: &RequestContext<RoleClient>,
        by_request: Option<impl Future<Output = Result<T, rmcp::ServiceError>>>,
    ) -> Result<T, ErrorData> {
        if let Some(asked) = by_request {
            return answered(tokio::select! {
                answer = asked => answer,
                () = context.ct.cancelled() => return Err(cancelled(origin)),
            });
        }
        let Reach::Rounds(questions) = &self.reach else {
            return Err(ErrorData::invalid_params(
                format!(
                    "disclose: server \"{origin}\" asked {method}, and the client of the request that asked speaks protocol 2026-07-28, which the gateway asks only during a tools/call"
                ),
                None,
            ));
        };
        let gone = || {
            ErrorData::internal_error(
                format!("disclose: the client's call ended before it answered {method}"),
                None,
            )
        };
        let (answer, answered) = oneshot::channel();
        questions
            .send(Question { request, answer })
            .map_err(|_| gone())?;
        let value = tokio::select! {
            value = answered => value.map_err(|_| gone())??,
            () = context.ct.cancelled() => return Err(cancelled(origin)),
        };
        serde_json::from_value(value).map_err(|e| {
            ErrorData::invalid_params(
                format!("disclose: the client's answer to {method} cannot be read: {e}"),
                None,
            )
        })
    }
}

/// The requests in flight on one upstream connection, with who made each.
#[derive(Clone, Default)]
pub struct Askers(Arc<Mutex<Vec<(RequestId, Asker)>>>);

/// A request's registration, ended when dropped.
pub struct Asking {
    askers: Askers,
    id: RequestId,
}

impl Drop for Asking {
    fn drop(&mut self) {
        lock(&self.askers.0).retain(|(id, _)| *id != self.id);
    }
}

/// Whose question it is.
enum Placed {
    Asker(Asker),
    /// No forwarded request is in flight, or the question names none.
    Outside,
    /// Requests of more than one session are, and nothing says whose.
    Ambiguous,
}

impl Askers {
    /// Registers the request `id`, made by `asker`, until the returned
    /// registration is dropped.
    pub fn asking(&self, id: RequestId, asker: Asker) -> Asking {
        lock(&self.0).push((id.clone(), asker));
        Asking {
            askers: self.clone(),
            id,
        }
    }

    /// Whose question `context` carries.
    fn place(&self, context: &RequestContext<RoleClient>) -> Placed {
        let askers = lock(&self.0);
        match context.extensions.get::<InboundStreamOrigin>() {
            Some(InboundStreamOrigin::OutboundRequest(id)) => askers
                .iter()
                .find(|(asked, _)| asked == id)
                .map_or(Placed::Outside, |(_, asker)| Placed::Asker(asker.clone())),
            Some(InboundStreamOrigin::Unassociated) => Placed::Outside,
            None => {
                let mut sessions = askers.iter().map(|(_, asker)| asker.who);
                let Some(first) = sessions.next() else {
                    return Placed::Outside;
                };
                if sessions.any(|session| session != first) {
                    return Placed::Ambiguous;
                }
                Placed::Asker(askers[0].1.clone())
            }
        }
    }

    /// Forwards an upstream's `elicitation/create` to the session whose
    /// request it belongs to, and gives its answer.
    pub async fn elicit(
        &self,
        origin: &str,
        params: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let asker = self.asker(origin, "elicitation/create", &context)?;
        let url = matches!(params, ElicitRequestParams::UrlElicitationParams { .. });
        let declared = asker
            .capabilities
            .as_ref()
            .and_then(|c| c.elicitation.as_ref())
            .is_some_and(|e| match (url, &e.form, &e.url) {
                (true, _, url) => url.is_some(),
                // An empty capability is form mode (the specification).
                (false, form, url) => form.is_some() || url.is_none(),
            });
        if !declared {
            let mode = if url { "url" } else { "form" };
            return Err(ErrorData::invalid_params(
                format!(
                    "disclose: server \"{origin}\" asked elicitation/create in {mode} mode, and the client of the call that asked did not declare it"
                ),
                None,
            ));
        }
        let params = scrubbed(params)?;
        let by_request = match &asker.reach {
            Reach::Request(peer) => Some(peer.create_elicitation(params.clone())),
            _ => None,
        };
        let request = InputRequest::Elicitation(ElicitRequest::new(params));
        asker
            .ask(origin, "elicitation/create", request, &context, by_request)
            .await
    }

    /// Forwards an upstream's `sampling/createMessage` as
    /// [`Askers::elicit`] forwards a question.
    pub async fn sample(
        &self,
        origin: &str,
        params: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let asker = self.asker(origin, "sampling/createMessage", &context)?;
        let sampling = asker
            .capabilities
            .as_ref()
            .and_then(|c| c.sampling.as_ref());
        let declared = match sampling {
            None => false,
            Some(sampling) => {
                let with_tools = params.tools.is_some() || params.tool_choice.is_some();
                !with_tools || sampling.tools.is_some()
            }
        };
        if !declared {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "disclose: server \"{origin}\" asked sampling/createMessage, and the client of the call that asked did not declare sampling (with tools, when it asked with tools)"
                ),
                None,
            ));
        }
        let params = scrubbed(params)?;
        let by_request = match &asker.reach {
            Reach::Request(peer) => Some(peer.create_message(params.clone())),
            _ => None,
        };
        let request = InputRequest::CreateMessage(CreateMessageRequest::new(params));
        asker
            .ask(
                origin,
                "sampling/createMessage",
                request,
                &context,
                by_request,
            )
            .await
    }

    /// The session to ask, or the gateway's own answer.
    fn asker(
        &self,
        origin: &str,
        method: &str,
        context: &RequestContext<RoleClient>,
    ) -> Result<Asker, ErrorData> {
        match self.place(context) {
            Placed::Asker(asker) => Ok(asker),
            Placed::Outside => {
                crate::log(&format!(
                    "{origin}: asked {method} outside any request the gateway forwarded; answered that no one can be asked"
                ));
                Err(ErrorData::invalid_params(
                    format!(
                        "disclose: {method} is answered only during a request the gateway forwarded to server \"{origin}\" (this one is associated with none)"
                    ),
                    None,
                ))
            }
            Placed::Ambiguous => {
                crate::log(&format!(
                    "{origin}: asked {method} while it ran requests of more than one session; answered that no one can be asked"
                ));
                Err(ErrorData::invalid_params(
                    format!(
                        "disclose: server \"{origin}\" is running requests of more than one session, and {method} does not say which it belongs to; no one is asked"
                    ),
                    None,
                ))
            }
        }
    }
}

/// A question with every config secret scrubbed from its text.
fn scrubbed<T: Serialize + DeserializeOwned>(params: T) -> Result<T, ErrorData> {
    let secrets = crate::secrets::installed();
    if secrets.is_empty() {
        return Ok(params);
    }
    let mut value = serde_json::to_value(&params)
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
    if !secrets.scrub_value(&mut value) {
        return Ok(params);
    }
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

/// The client's answer as the upstream gets it: its result, or its error.
fn answered<T>(answer: Result<T, rmcp::ServiceError>) -> Result<T, ErrorData> {
    answer.map_err(|error| match error {
        rmcp::ServiceError::McpError(error) => error,
        other => ErrorData::internal_error(
            format!("disclose: the client could not be asked: {other}"),
            None,
        ),
    })
}

fn cancelled(origin: &str) -> ErrorData {
    ErrorData::internal_error(
        format!("disclose: server \"{origin}\" cancelled its question"),
        None,
    )
}

/// A call of a 2026-07-28 client whose server asked a question: it runs
/// on, its question given to the client as `input_required`, until the
/// client's retry (naming it by its request state) brings the answer.
pub struct Parked {
    /// The call's outcome, once it ends.
    pub done: oneshot::Receiver<crate::upstream::Called>,
    /// Its server's next questions.
    pub questions: mpsc::UnboundedReceiver<Question>,
    /// Where the answer to the question asked goes.
    pub waiting: Option<oneshot::Sender<Result<Value, ErrorData>>>,
    /// Cancels the call upstream when the parked call is dropped (its
    /// session ended, or the client never retried).
    pub cancel: tokio_util::sync::DropGuard,
    /// The minted tool, for the answer.
    pub minted: String,
    /// Its server.
    pub origin: String,
}
