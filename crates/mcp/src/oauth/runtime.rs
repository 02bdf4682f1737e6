//! An HTTP upstream's sign-in while the gateway serves.
//!
//! [`manager`] decides, before a connection opens, whether the server signs
//! in (its entry says `"oauth"`, or a sign-in is stored for its URL and it
//! sends no `Authorization` of its own) and whether it can: a server that
//! must sign in and has no usable tokens is left out, its `login` command
//! named, without a request. A signed-in server gets rmcp's
//! `AuthorizationManager` over its file ([`super::store::FileStore`]), set
//! from the sign-in (the authorization server's metadata, the client, the
//! resource), so no discovery runs at start; `upstream` wraps its HTTP
//! client in rmcp's `AuthClient`, which sends the access token, refreshes
//! it when it has less than half its life or 30 s left, and once more when
//! the server answers 401.
//!
//! [`needs_sign_in`] reads a failed request: a 401 the refresh could not
//! mend, or a 401 challenge from a server that was never signed in, needs
//! `login`; a 403 `insufficient_scope` needs a new `login` too, and its
//! scope is written into the sign-in so that `login` asks for it (a
//! step-up); each answer names the exact command.

use std::error::Error;

use rmcp::transport::auth::{AuthorizationManager, OAuthClientConfig, WWWAuthenticateParams};
use rmcp::transport::streamable_http_client::StreamableHttpError;

use super::store::{FileStore, Record, Registration};
use crate::config::{Server, Transport};

/// The sign-in `server` makes at run time: `Ok(None)` when it makes none,
/// the manager to make it with, or why it cannot (its `login` named).
pub async fn manager(server: &Server) -> Result<Option<AuthorizationManager>, String> {
    let Transport::Http {
        url,
        headers,
        oauth,
    } = &server.transport
    else {
        return Ok(None);
    };
    let Some(context) = super::context() else {
        return Ok(None);
    };
    let own_authorization = headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("authorization"));
    if own_authorization {
        return Ok(None);
    }
    let login = context.login_command(&server.origin);
    let record = match context.tokens.read(url)? {
        Some(record) => record,
        None if oauth.is_some() => {
            return Err(format!("is not signed in: run `{login}`"));
        }
        None => return Ok(None),
    };
    if record.credentials().is_none() {
        let why = record
            .signed_out
            .clone()
            .unwrap_or_else(|| "its sign-in holds no tokens".into());
        return Err(format!("needs a new sign-in ({why}): run `{login}`"));
    }
    let configured = oauth.as_ref().and_then(|o| o.client_id.as_ref());
    if configured.is_some_and(|id| *id != record.client.id) {
        return Err(format!(
            "was signed in as another client than the config's \"client_id\": run `{login}`"
        ));
    }
    crate::secrets::learn(record.secrets());
    let secret = match record.client.registration {
        Registration::Preregistered => oauth.as_ref().and_then(|o| o.client_secret.clone()),
        Registration::Dynamic => record.client.secret.clone(),
        Registration::MetadataDocument => None,
    };
    build(&record, secret, FileStore::new(context.tokens.clone(), url))
        .await
        .map(Some)
        .map_err(|error| format!("cannot use its sign-in: {error}"))
}

/// rmcp's manager for a stored sign-in: the resource as its base (the
/// `resource` of every refresh), the stored metadata, the client.
async fn build(
    record: &Record,
    secret: Option<String>,
    store: FileStore,
) -> Result<AuthorizationManager, rmcp::transport::auth::AuthError> {
    let mut manager = AuthorizationManager::new(record.resource.as_str()).await?;
    manager.set_metadata(record.metadata.clone());
    let mut client = OAuthClientConfig::new(record.client.id.clone(), &record.client.redirect_uri);
    if let Some(secret) = secret {
        client = client.with_client_secret(secret);
    }
    manager.configure_client(client)?;
    manager.set_credential_store(store);
    Ok(manager)
}

/// What a server needs before `error` (from its transport) goes away, when
/// it is a sign-in: the words after `server "O"`, naming the command.
/// A 403's scope is written into the server's sign-in on the way.
pub fn needs_sign_in(server: &Server, error: &(dyn Error + 'static)) -> Option<String> {
    let Transport::Http { url, oauth, .. } = &server.transport else {
        return None;
    };
    let context = super::context()?;
    let login = context.login_command(&server.origin);
    // Read only for an error of sign-in (the file is not touched otherwise).
    let signs_in = || oauth.is_some() || matches!(context.tokens.read(url), Ok(Some(_)));
    let mut cause: Option<&(dyn Error + 'static)> = Some(error);
    while let Some(error) = cause {
        match error.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            Some(StreamableHttpError::AuthRequired(challenge)) => {
                let header = &challenge.www_authenticate_header;
                if signs_in() {
                    return Some(format!(
                        "refused its token (401) and it could not be refreshed: sign in again with `{login}`"
                    ));
                }
                if names_resource_metadata(header, url) {
                    return Some(format!("asks to be signed in (OAuth): run `{login}`"));
                }
                return None;
            }
            Some(StreamableHttpError::InsufficientScope(challenge)) if signs_in() => {
                let scope = challenge.required_scope.clone().or_else(|| {
                    let base = url::Url::parse(url).ok()?;
                    WWWAuthenticateParams::parse(&challenge.www_authenticate_header, &base).scope
                });
                let Some(scope) = scope.filter(|s| !s.trim().is_empty()) else {
                    return Some(format!(
                        "refused the signed-in token (403): sign in again with `{login}`"
                    ));
                };
                let kept = require_scopes(url, &scope);
                return Some(format!(
                    "needs more access (scope \"{scope}\"){kept}: sign in again with `{login}`"
                ));
            }
            Some(StreamableHttpError::Auth(
                rmcp::transport::auth::AuthError::CredentialStoreError(message),
            )) => {
                return Some(format!("cannot use its sign-in: {message}"));
            }
            _ => cause = error.source(),
        }
    }
    None
}

/// Whether a 401's challenge is OAuth's: `Bearer`, naming the resource's
/// metadata (RFC 9728).
fn names_resource_metadata(header: &str, url: &str) -> bool {
    let bearer = header
        .trim_start()
        .get(..6)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("bearer"));
    let Ok(base) = url::Url::parse(url) else {
        return false;
    };
    bearer
        && WWWAuthenticateParams::parse(header, &base)
            .resource_metadata_url
            .is_some()
}

/// Adds `scope`'s words to the sign-in's required scopes, which the next
/// `login` asks for; the words after the scope in the message.
fn require_scopes(url: &str, scope: &str) -> &'static str {
    let Some(context) = super::context() else {
        return "";
    };
    let Ok(Some(mut record)) = context.tokens.read(url) else {
        return "";
    };
    for word in scope.split_whitespace() {
        if !record.required_scopes.iter().any(|kept| kept == word) {
            record.required_scopes.push(word.to_string());
        }
    }
    match context.tokens.write(&record) {
        Ok(_) => ", which the next sign-in asks for",
        Err(_) => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bearer_challenge_naming_resource_metadata_is_oauth() {
        let url = "https://mcp.example.com/mcp";
        assert!(names_resource_metadata(
            r#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp""#,
            url
        ));
        assert!(names_resource_metadata(
            r#"bearer error="invalid_token", resource_metadata="/.well-known/oauth-protected-resource""#,
            url
        ));
        assert!(!names_resource_metadata(r#"Bearer realm="api""#, url));
        assert!(!names_resource_metadata(
            r#"Basic realm="x", resource_metadata="https://mcp.example.com/m""#,
            url
        ));
    }
}
