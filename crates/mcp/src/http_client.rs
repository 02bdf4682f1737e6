//! The HTTP client of an HTTP upstream: rmcp's streamable HTTP client over
//! reqwest, built as rmcp builds its own, with one repair.
//!
//! The spec has a server answer a request in a session it does not know
//! (it restarted, say) with 404; rmcp then reports the session expired,
//! and the gateway connects again on the next call and compares the
//! tools' digests (`upstream`). Servers built on the TypeScript SDK's
//! examples (server-everything among them) answer 400 with a JSON-RPC
//! error that carries no `id` instead. rmcp hands that error on, nothing
//! can match it to the request, and the call waited out `--call-timeout`:
//! every call, for the rest of the gateway's life. So here an error
//! without an `id`, in answer to a request sent in a session, is that
//! 404; in answer to a request sent outside one, it is given the
//! request's `id`, so it reaches the caller at once.

use std::sync::Arc;

use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcError, JsonRpcMessage, RequestId};
use rmcp::transport::common::client_side_sse::BoxedSseResponse;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};

/// reqwest as rmcp's streamable HTTP client, with the repair above.
#[derive(Clone)]
pub struct Client(reqwest::Client);

type Posted = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

/// The headers rmcp hands every request, as its trait names them; their
/// order reaches no output.
#[allow(clippy::disallowed_types)]
type Headers = std::collections::HashMap<HeaderName, HeaderValue>;

impl Client {
    /// The client rmcp's own would be: no idle connections kept (a reused
    /// one can stall 40 ms on a delayed ACK), redirects followed only when
    /// they keep the method, the body and the origin. TLS is rustls with
    /// ring (docs/decisions.md), the process's provider from the first
    /// client on.
    pub fn new() -> Result<Client, reqwest::Error> {
        // Already installed (by an earlier client): the same provider.
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(same_origin_redirects())
            .build()
            .map(Client)
    }
}

/// At most this many redirects are followed for one request.
const MAX_REDIRECTS: usize = 10;

/// rmcp's policy (private to it): a 307 or 308 to the same origin is
/// followed; any other redirect is handed back as the response, since a
/// 301, 302 or 303 turns a POST into a GET without its message, and a
/// redirect to another origin would send it the session and the headers.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("exceeded {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

/// The repair: `posted` answers the request `request` (`None`: a
/// notification or a response), sent in a session when `in_session`.
fn repaired(posted: Posted, request: Option<RequestId>, in_session: bool) -> Posted {
    let Some(id) = request else {
        return posted;
    };
    match posted {
        Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), session))
            if error.id.is_none() =>
        {
            if in_session {
                Err(StreamableHttpError::SessionExpired)
            } else {
                let error = JsonRpcError {
                    id: Some(id),
                    ..error
                };
                Ok(StreamableHttpPostResponse::Json(
                    JsonRpcMessage::Error(error),
                    session,
                ))
            }
        }
        other => other,
    }
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    }
}

impl StreamableHttpClient for Client {
    type Error = reqwest::Error;

    /// rmcp's worker posts through [`Self::post_message_with_response_limits`];
    /// this is the trait's required form of it, with the default limits.
    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Posted {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: Headers,
        limits: StreamableHttpResponseLimits,
    ) -> Posted {
        let (request, in_session) = (request_id(&message), session_id.is_some());
        let posted = self
            .0
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        repaired(posted, request, in_session)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Result<(), StreamableHttpError<reqwest::Error>> {
        self.0
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    /// Like [`Self::post_message`]: the trait's required form of the
    /// size-limited one the worker calls, with the default limit.
    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Result<BoxedSseResponse, StreamableHttpError<reqwest::Error>> {
        let limit = StreamableHttpResponseLimits::default().max_sse_event_size;
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            limit,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: Headers,
        max_sse_event_size: usize,
    ) -> Result<BoxedSseResponse, StreamableHttpError<reqwest::Error>> {
        self.0
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{NumberOrString, ServerJsonRpcMessage};

    /// The client speaks TLS with its own provider: building it does not
    /// need one installed first, and an https upstream gets a TLS
    /// ClientHello (a handshake record, TLS 1.0 to 1.3 framing).
    #[tokio::test]
    async fn an_https_upstream_gets_a_tls_handshake() {
        use std::io::Read as _;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let first = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().expect("the client connects");
            let mut record = [0u8; 3];
            stream.read_exact(&mut record).expect("it writes");
            record
        });
        let client = Client::new().expect("the client builds");
        let sent = client
            .0
            .get(format!("https://127.0.0.1:{port}/"))
            .send()
            .await;
        assert!(sent.is_err(), "no TLS server answered");
        assert_eq!(first.join().expect("the listener"), [0x16, 3, 1]);
    }

    fn answer(json: &str) -> Posted {
        let message: ServerJsonRpcMessage = serde_json::from_str(json).expect("a message");
        Ok(StreamableHttpPostResponse::Json(message, None))
    }

    fn id_of(posted: &Posted) -> Option<RequestId> {
        match posted {
            Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::Error(error), _)) => {
                error.id.clone()
            }
            _ => None,
        }
    }

    const UNMATCHED: &str = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}"#;

    #[test]
    fn an_error_without_an_id_to_a_request_in_a_session_is_an_expired_session() {
        let seven = Some(NumberOrString::Number(7));
        let repaired = repaired(answer(UNMATCHED), seven, true);
        assert!(matches!(repaired, Err(StreamableHttpError::SessionExpired)));
    }

    #[test]
    fn outside_a_session_it_is_given_the_request_s_id() {
        let seven = NumberOrString::Number(7);
        let repaired = repaired(answer(UNMATCHED), Some(seven.clone()), false);
        assert_eq!(id_of(&repaired), Some(seven));
    }

    #[test]
    fn anything_else_passes_unchanged() {
        let matched = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"bad"}}"#;
        let seven = Some(NumberOrString::Number(7));
        let passed = repaired(answer(matched), seven.clone(), true);
        assert_eq!(id_of(&passed), seven);
        // Answering a notification or a response: nothing to match.
        let passed = repaired(answer(UNMATCHED), None, true);
        assert!(matches!(passed, Ok(StreamableHttpPostResponse::Json(..))));
        assert_eq!(id_of(&passed), None);
        let result = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
        let passed = repaired(answer(result), Some(NumberOrString::Number(7)), true);
        assert!(matches!(
            passed,
            Ok(StreamableHttpPostResponse::Json(
                JsonRpcMessage::Response(_),
                _
            ))
        ));
    }
}
