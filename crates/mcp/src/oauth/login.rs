//! `disclose mcp login ORIGIN --config FILE`: one sign-in, start to end.
//!
//! 1. **The challenge.** The server is asked what the gateway asks it at
//!    start (`initialize`, then `tools/list`) with no token; a 401 or 403
//!    answer's `WWW-Authenticate` is kept.
//! 2. **Discovery** (rmcp): the protected resource metadata the challenge
//!    names, else its well-known places (RFC 9728); then the authorization
//!    server's metadata (RFC 8414, or OpenID Connect discovery).
//! 3. **Scopes**: the config's `scopes`; else the challenge's `scope`,
//!    else the resource metadata's `scopes_supported`, else none (the
//!    parameter is left out); on a later sign-in to the same issuer, the
//!    scopes granted before and those a 403 asked for since too (a
//!    step-up). rmcp adds `offline_access` when the server offers it.
//! 4. **The client**, first that applies: the config's `client_id` (and
//!    `client_secret`); the config's `client_metadata_url`, when the
//!    server says `client_id_metadata_document_supported`; the client this
//!    gateway registered with the same issuer before, when its redirect
//!    port can be had again and it was registered for every scope asked
//!    for; a new dynamic registration (RFC 7591).
//! 5. **The browser**: a listener on 127.0.0.1 (the entry's
//!    `callback_port`, else the registered client's, else a free one), the
//!    authorization URL (PKCE S256 and the RFC 8707 `resource`, by rmcp)
//!    printed and opened with `$BROWSER URL` (else `xdg-open`/`open`).
//! 6. **The redirect**: its `state` must be the one sent; its code is
//!    exchanged (the verifier and `resource` again) and the sign-in written
//!    to the token directory (`store`), 0600.

use std::io::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::auth::{
    AuthorizationManager, AuthorizationMetadataSource, AuthorizationRequest, AuthorizationSession,
    CredentialStore as _, InMemoryCredentialStore,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;

use super::OAuthEntry;
use super::store::{Record, Registered, Registration, TokenDir};
use crate::config::redact_url;
use crate::log;

/// The name the gateway registers under.
const CLIENT_NAME: &str = "disclose";

/// The most a browser's request to the listener may hold.
const MAX_REQUEST: usize = 16 * 1024;

/// How long one connection to the listener may take to send its request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// What to sign in to.
pub struct SignInTarget<'a> {
    /// Its origin (config key).
    pub origin: &'a str,
    /// Its URL.
    pub url: &'a str,
    /// Its headers (none of them `Authorization`).
    pub headers: &'a [(String, String)],
    /// Its `"oauth"`, when the entry has one.
    pub settings: Option<&'a OAuthEntry>,
}

/// A sign-in that went through.
pub struct SignedIn {
    /// The file the tokens are in.
    pub file: PathBuf,
    /// The sign-in.
    pub record: Record,
}

/// Why a sign-in did not go through: the server or the user said no (exit
/// 1), or something local failed (exit 2).
#[derive(Debug)]
pub enum Failed {
    /// The authorization server, the MCP server or the user refused.
    Refused(String),
    /// A local error: a file, a port.
    Local(String),
}

/// Signs `target` in, keeping the tokens in `tokens`; gives up after
/// `timeout` without a redirect.
pub async fn login(
    target: &SignInTarget<'_>,
    tokens: &TokenDir,
    timeout: Duration,
) -> Result<SignedIn, Failed> {
    let (origin, url) = (target.origin, target.url);
    let before = tokens.read(url).map_err(Failed::Local)?;
    let challenge = challenge(target).await.map_err(Failed::Refused)?;
    let refused = |what: &str, error: &dyn std::fmt::Display| {
        Failed::Refused(format!("{origin}: {what}: {error}"))
    };
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| refused("cannot start a sign-in", &e))?;
    let resolution = manager
        .resolve_metadata_from_challenge(challenge.as_deref())
        .await
        .map_err(|e| refused("discovery failed", &e))?;
    if resolution.source == AuthorizationMetadataSource::LegacyEndpointFallback
        && challenge.is_none()
        && target.settings.is_none()
    {
        return Err(Failed::Refused(format!(
            "{origin}: {} asks for no sign-in: it answered without a challenge and publishes no OAuth metadata",
            redact_url(url)
        )));
    }
    let metadata = resolution.metadata;
    let issuer = metadata.issuer.clone();
    manager.set_metadata(metadata.clone());
    // A sign-in with the same issuer before: its client and its scopes.
    let before = before.filter(|record| record.issuer == issuer);

    let scopes = scopes(&manager, target.settings, before.as_ref()).await;
    let listener = listen(target.settings, before.as_ref())
        .await
        .map_err(Failed::Local)?;
    let port = listener
        .local_addr()
        .map_err(|e| Failed::Local(format!("the redirect listener has no address: {e}")))?
        .port();
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");

    let mut request = AuthorizationRequest::new(&redirect_uri).with_client_name(CLIENT_NAME);
    request = if scopes.is_empty() {
        // Nothing from the config, the challenge or the metadata: the
        // parameter is left out.
        request.with_initial_scope_selection()
    } else {
        request.with_scopes(scopes.clone())
    };
    let supports_documents = metadata
        .additional_fields
        .get("client_id_metadata_document_supported")
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let (request, client) = client(
        request,
        &mut manager,
        target,
        before.as_ref(),
        &redirect_uri,
        &scopes,
        supports_documents,
    )
    .await?;
    crate::secrets::learn(
        client
            .secret
            .iter()
            .map(|s| (s.clone(), format!("the client secret of {origin}")))
            .collect(),
    );

    let memory = InMemoryCredentialStore::new();
    manager.set_credential_store(memory.clone());
    let session = AuthorizationSession::new(manager, request)
        .await
        .map_err(|(_, e)| refused("the authorization request could not be made", &e))?;
    let authorization_url = session.get_authorization_url().to_string();
    let parsed = url::Url::parse(&authorization_url)
        .map_err(|e| refused("the authorization URL is not a URL", &e))?;
    let query = |name: &str| {
        parsed
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let state = query("state").unwrap_or_default();
    let resource = query("resource").unwrap_or_else(|| url.to_string());

    log(&format!(
        "{origin}: sign in in your browser; if it does not open, visit this URL:"
    ));
    crate::stderr_line(&format!("  {authorization_url}"));
    open_browser(&authorization_url);
    log(&format!(
        "{origin}: waiting for the browser on {redirect_uri} (up to {} s)",
        timeout.as_secs()
    ));

    let callback = tokio::time::timeout(timeout, receive(listener, port, &state))
        .await
        .map_err(|_| {
            Failed::Refused(format!(
                "{origin}: no sign-in reached {redirect_uri} within {} s; run login again",
                timeout.as_secs()
            ))
        })?
        .map_err(|e| Failed::Refused(format!("{origin}: {e}")))?;
    session
        .handle_callback_url(&callback)
        .await
        .map_err(|e| refused("the authorization code could not be exchanged", &e))?;
    let credentials =
        memory.load().await.ok().flatten().ok_or_else(|| {
            Failed::Refused(format!("{origin}: the token exchange stored no tokens"))
        })?;

    let record = Record {
        origin: origin.to_string(),
        url: url.to_string(),
        resource,
        issuer,
        metadata,
        client,
        credentials: Some(credentials),
        required_scopes: Vec::new(),
        signed_out: None,
    };
    let _locked = tokens.lock(url).await.map_err(Failed::Local)?;
    let file = tokens.write(&record).map_err(Failed::Local)?;
    Ok(SignedIn { file, record })
}

/// The client to sign in as, in the order of the module's docs, and the
/// request that names it.
async fn client(
    mut request: AuthorizationRequest,
    manager: &mut AuthorizationManager,
    target: &SignInTarget<'_>,
    before: Option<&Record>,
    redirect_uri: &str,
    scopes: &[String],
    supports_documents: bool,
) -> Result<(AuthorizationRequest, Registered), Failed> {
    let settings = target.settings.cloned().unwrap_or_default();
    let registered = |id: &str, registration| Registered {
        id: id.to_string(),
        secret: None,
        registration,
        redirect_uri: redirect_uri.to_string(),
        scopes: Vec::new(),
    };
    if let Some(id) = &settings.client_id {
        request = request.with_preregistered_client(id);
        if let Some(secret) = &settings.client_secret {
            request = request.with_client_secret(secret);
        }
        return Ok((request, registered(id, Registration::Preregistered)));
    }
    if let Some(document) = settings
        .client_metadata_url
        .as_ref()
        .filter(|_| supports_documents)
    {
        request = request.with_client_metadata_url(document);
        return Ok((
            request,
            registered(document, Registration::MetadataDocument),
        ));
    }
    let client = match before.map(|record| &record.client) {
        // Reused while its redirect URI is the one listened on and it was
        // registered for every scope asked for now.
        Some(client)
            if client.registration == Registration::Dynamic
                && client.redirect_uri == redirect_uri
                && (client.scopes.is_empty()
                    || scopes.iter().all(|s| client.scopes.contains(s))) =>
        {
            client.clone()
        }
        _ => register(manager, redirect_uri, scopes, target.origin).await?,
    };
    request = request.with_preregistered_client(&client.id);
    if let Some(secret) = &client.secret {
        request = request.with_client_secret(secret);
    }
    Ok((request, client))
}

/// The scopes to ask for (see the module's docs).
async fn scopes(
    manager: &AuthorizationManager,
    settings: Option<&OAuthEntry>,
    before: Option<&Record>,
) -> Vec<String> {
    let mut scopes = match settings.filter(|s| !s.scopes.is_empty()) {
        Some(settings) => settings.scopes.clone(),
        None => manager.select_initial_scopes(&[]).await,
    };
    if let Some(record) = before {
        let granted = record
            .credentials()
            .map(|c| c.granted_scopes.clone())
            .unwrap_or_default();
        scopes.extend(granted);
        scopes.extend(record.required_scopes.iter().cloned());
    }
    let mut kept: Vec<String> = Vec::with_capacity(scopes.len());
    for scope in scopes {
        if !kept.contains(&scope) {
            kept.push(scope);
        }
    }
    kept
}

/// What the server answers the gateway's first requests without a token:
/// the `WWW-Authenticate` of a 401 or 403, or `None` when it answered.
async fn challenge(target: &SignInTarget<'_>) -> Result<Option<String>, String> {
    let origin = target.origin;
    #[allow(clippy::disallowed_types)]
    let mut custom = std::collections::HashMap::new();
    for (name, value) in target.headers {
        let name = http::HeaderName::try_from(name.as_str())
            .map_err(|_| format!("{origin}: header \"{name}\" is not a valid header name"))?;
        let value = http::HeaderValue::try_from(value.as_str()).map_err(|_| {
            format!("{origin}: header \"{name}\" has a value that is not a valid header value")
        })?;
        custom.insert(name, value);
    }
    let config = StreamableHttpClientTransportConfig::with_uri(target.url)
        .custom_headers(custom)
        .reinit_on_expired_session(false);
    let client = crate::http_client::Client::new()
        .map_err(|e| format!("{origin}: cannot build an HTTP client: {e}"))?;
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let challenge = match ().serve(transport).await {
        Ok(service) => {
            let listed = service.peer().list_tools(None).await;
            let _ = service.cancel().await;
            match listed {
                Ok(_) => return Ok(None),
                Err(error) => error.auth_challenge().map(str::to_string),
            }
        }
        Err(error) => error.auth_challenge().map(str::to_string),
    };
    // A server that answers a request without a token with something else
    // than a challenge (a 400, a session error) is found by the
    // well-known places instead.
    Ok(challenge)
}

/// A new dynamic registration (RFC 7591), with the secret the server
/// issued, if any.
async fn register(
    manager: &mut AuthorizationManager,
    redirect_uri: &str,
    scopes: &[String],
    origin: &str,
) -> Result<Registered, Failed> {
    let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let registered = manager
        .register_client(CLIENT_NAME, redirect_uri, &scopes)
        .await
        .map_err(|error| {
            let text = error.to_string();
            if text.contains("registration not supported") {
                Failed::Refused(format!(
                    "{origin}: the authorization server takes no dynamic registration and names no Client ID Metadata Document the config gives: set \"oauth\": {{\"client_id\": …}} to a client registered with it"
                ))
            } else {
                Failed::Refused(format!("{origin}: dynamic registration failed: {text}"))
            }
        })?;
    Ok(Registered {
        id: registered.client_id,
        secret: registered.client_secret,
        registration: Registration::Dynamic,
        redirect_uri: redirect_uri.to_string(),
        scopes: scopes.iter().map(|s| s.to_string()).collect(),
    })
}

/// The redirect listener: the entry's port, else the port the client was
/// registered with (so its redirect URI still matches), else a free one.
async fn listen(
    settings: Option<&OAuthEntry>,
    before: Option<&Record>,
) -> Result<TcpListener, String> {
    let loopback = |port| SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    if let Some(port) = settings.and_then(|s| s.callback_port) {
        return TcpListener::bind(loopback(port))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port} (\"callback_port\"): {e}"));
    }
    let registered = before
        .filter(|record| record.client.registration == Registration::Dynamic)
        .and_then(|record| url::Url::parse(&record.client.redirect_uri).ok())
        .and_then(|uri| uri.port());
    if let Some(port) = registered
        && let Ok(listener) = TcpListener::bind(loopback(port)).await
    {
        return Ok(listener);
    }
    TcpListener::bind(loopback(0))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))
}

/// Opens `url` in the user's browser: `$BROWSER URL` (its words, then the
/// URL), else the desktop's opener. Its failure only costs the printed URL.
fn open_browser(url: &str) {
    let browser = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty());
    let (program, mut args): (String, Vec<String>) = match &browser {
        Some(browser) => {
            let mut words = browser.split_whitespace().map(str::to_string);
            let program = words.next().unwrap_or_default();
            (program, words.collect())
        }
        None if cfg!(target_os = "macos") => ("open".into(), Vec::new()),
        None => ("xdg-open".into(), Vec::new()),
    };
    args.push(url.to_string());
    let spawned = tokio::process::Command::new(&program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        Ok(mut child) => {
            tokio::spawn(async move {
                let _ = child.wait().await;
            });
        }
        Err(error) => log(&format!(
            "could not open a browser ({program}: {error}); open the URL above yourself"
        )),
    }
}

/// Waits on `listener` for the redirect that carries `state`, answering
/// each request the browser makes; gives the redirect's whole URL, or why
/// the authorization server refused.
async fn receive(listener: TcpListener, port: u16, state: &str) -> Result<String, String> {
    let (found, mut arrived) = tokio::sync::mpsc::unbounded_channel();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let found = found.clone();
                let state = state.to_string();
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(
                        REQUEST_TIMEOUT,
                        answer(stream, port, &state, &found),
                    )
                    .await;
                });
            }
            Some(outcome) = arrived.recv() => return outcome,
        }
    }
}

type Found = tokio::sync::mpsc::UnboundedSender<Result<String, String>>;

/// Reads one request and answers it; a redirect with the right `state`
/// (a code, or the server's error) is handed to `found`.
async fn answer(mut stream: tokio::net::TcpStream, port: u16, state: &str, found: &Found) {
    let mut request = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < MAX_REQUEST {
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&chunk[..n]),
        }
    }
    let line = request
        .split(|b| *b == b'\n')
        .next()
        .and_then(|line| std::str::from_utf8(line).ok())
        .unwrap_or_default();
    let target = match line.split(' ').collect::<Vec<_>>()[..] {
        ["GET", target, _] => target,
        _ => {
            return reply(
                &mut stream,
                "405 Method Not Allowed",
                "disclose waits for a GET.",
            )
            .await;
        }
    };
    let Ok(full) = url::Url::parse(&format!("http://127.0.0.1:{port}{target}")) else {
        return reply(&mut stream, "400 Bad Request", "That is not a redirect.").await;
    };
    if full.path() != "/callback" {
        return reply(&mut stream, "404 Not Found", "Nothing here.").await;
    }
    let param = |name: &str| {
        full.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    if param("state").as_deref() != Some(state) {
        return reply(
            &mut stream,
            "400 Bad Request",
            "This is not the sign-in disclose is waiting for.",
        )
        .await;
    }
    if let Some(error) = param("error") {
        let description = param("error_description").unwrap_or_default();
        reply(
            &mut stream,
            "200 OK",
            "The sign-in was refused; see the terminal.",
        )
        .await;
        let _ = found.send(Err(format!(
            "the authorization server refused the sign-in: {error}{}{description}",
            if description.is_empty() { "" } else { ": " }
        )));
        return;
    }
    reply(
        &mut stream,
        "200 OK",
        "Signed in. You can close this tab and go back to the terminal.",
    )
    .await;
    let _ = found.send(Ok(full.to_string()));
}

async fn reply(stream: &mut tokio::net::TcpStream, status: &str, text: &str) {
    let body = format!("<!doctype html><meta charset=utf-8><title>disclose</title><p>{text}</p>\n");
    let mut head = Vec::new();
    let _ = write!(
        head,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
        body.len()
    );
    head.extend_from_slice(body.as_bytes());
    let _ = stream.write_all(&head).await;
    let _ = stream.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn get(port: u16, path: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connects");
        stream
            .write_all(format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").as_bytes())
            .await
            .expect("sent");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("answered");
        answer
    }

    #[tokio::test]
    async fn only_the_redirect_with_its_state_is_taken() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let waiting = tokio::spawn(async move { receive(listener, port, "s1").await });
        assert!(get(port, "/favicon.ico").await.starts_with("HTTP/1.1 404"));
        assert!(
            get(port, "/callback?code=c&state=other")
                .await
                .starts_with("HTTP/1.1 400")
        );
        // A connection that says nothing does not hold the others up.
        let _silent = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("connects");
        let ok = get(port, "/callback?code=c1&state=s1").await;
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
        assert!(ok.contains("Signed in"), "{ok}");
        let url = waiting.await.expect("joined").expect("a code");
        assert_eq!(
            url,
            format!("http://127.0.0.1:{port}/callback?code=c1&state=s1")
        );
    }

    #[tokio::test]
    async fn a_refusal_is_told_with_its_description() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let port = listener.local_addr().expect("an address").port();
        let waiting = tokio::spawn(async move { receive(listener, port, "s1").await });
        get(
            port,
            "/callback?error=access_denied&error_description=no%20thanks&state=s1",
        )
        .await;
        let refused = waiting.await.expect("joined").expect_err("refused");
        assert_eq!(
            refused,
            "the authorization server refused the sign-in: access_denied: no thanks"
        );
    }
}
