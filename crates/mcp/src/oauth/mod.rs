//! OAuth sign-in to HTTP upstreams, on rmcp's `auth` feature.
//!
//! An HTTP upstream signs in with OAuth when its entry says `"oauth": {}`
//! ([`OAuthEntry`]), or when it has answered a request with a 401 whose
//! `WWW-Authenticate: Bearer` challenge names its resource metadata
//! (RFC 9728) and the user has signed in to it since. Signing in is a
//! command of its own, never the gateway's start: `disclose mcp login
//! ORIGIN --config FILE` ([`login`]) discovers the authorization server,
//! registers the gateway as a client (the config's pre-registered client,
//! else a Client ID Metadata Document when the server supports one and the
//! config names it, else dynamic registration), opens the browser on an
//! authorization request with PKCE (S256) and the RFC 8707 `resource`,
//! receives the redirect on 127.0.0.1, and stores the tokens ([`store`]).
//!
//! At run time ([`runtime`]) the gateway sends the stored access token,
//! refreshes it before it expires and once when the server answers 401
//! (rmcp's `AuthClient`, over [`store::FileStore`]), and says, on stderr
//! and to the client, the exact `login` command a server needs when it is
//! not signed in, its refresh token was refused, or a 403 asks for more
//! scope (which the next `login` then asks for). Tokens and client secrets
//! join the scrubbed secrets (`secrets`) as they are read or refreshed.

pub mod commands;
pub mod login;
pub mod runtime;
pub mod store;

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::config::{Refused, expand, kind, quoted};

/// `"oauth"` on an HTTP entry: how the gateway signs in to it. Every key is
/// optional; `{}` takes everything from the server's metadata.
#[derive(Clone, Default, PartialEq)]
pub struct OAuthEntry {
    /// A client registered with the authorization server beforehand.
    pub client_id: Option<String>,
    /// Its secret (a `${VAR}`, kept out of the file), for a confidential
    /// client.
    pub client_secret: Option<String>,
    /// The scopes to ask for; empty: those of the server's challenge, else
    /// of its resource metadata.
    pub scopes: Vec<String>,
    /// The loopback port the browser is sent back to (a free one when
    /// unset).
    pub callback_port: Option<u16>,
    /// The HTTPS URL of a Client ID Metadata Document that names this
    /// gateway, used as its client id where the server supports them.
    pub client_metadata_url: Option<String>,
}

// The secret is a credential: Debug never prints it.
impl std::fmt::Debug for OAuthEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthEntry")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("scopes", &self.scopes)
            .field("callback_port", &self.callback_port)
            .field("client_metadata_url", &self.client_metadata_url)
            .finish()
    }
}

/// The keys of `"oauth"`.
const KEYS: [&str; 5] = [
    "client_id",
    "client_secret",
    "scopes",
    "callback_port",
    "client_metadata_url",
];

/// Reads an HTTP entry's `"oauth"` (`None` when it has none). `headers`
/// are the entry's: an `Authorization` of its own would fight the token.
pub(crate) fn settings(
    entry: &Map<String, Value>,
    path: &str,
    headers: &[(String, String)],
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<OAuthEntry>, Refused> {
    let here = format!("{path}.oauth");
    let oauth = match entry.get("oauth") {
        None => return Ok(None),
        Some(Value::Object(oauth)) => oauth,
        Some(other) => {
            return Err((
                here,
                format!(
                    "is {}, not an object (`{{}}` signs in as the server's metadata says)",
                    kind(other)
                ),
            ));
        }
    };
    if let Some((name, _)) = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("authorization"))
    {
        return Err((
            format!("{path}.headers.{}", crate::config::quote_key(name)),
            "is set on a server that signs in with OAuth (\"oauth\"): the gateway sends the signed-in token".into(),
        ));
    }
    if let Some(key) = oauth.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err((
            format!("{here}.{}", crate::config::quote_key(key)),
            format!("is not a key of \"oauth\" ({})", KEYS.join(", ")),
        ));
    }
    let text = |name: &str| -> Result<Option<String>, Refused> {
        let at = format!("{here}.{name}");
        match oauth.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => {
                let text = expand(text, &at, var)?;
                if text.is_empty() {
                    return Err((at, "is empty".into()));
                }
                Ok(Some(text))
            }
            // A secret may be a number by mistake: say its kind only.
            Some(other) => Err((at, format!("is {}, not a string", kind(other)))),
        }
    };
    let client_id = text("client_id")?;
    let client_secret = text("client_secret")?;
    if client_secret.is_some() && client_id.is_none() {
        return Err((
            format!("{here}.client_secret"),
            "is set without \"client_id\" (a secret belongs to a pre-registered client)".into(),
        ));
    }
    let client_metadata_url = text("client_metadata_url")?;
    if let Some(url) = &client_metadata_url
        && !is_metadata_document_url(url)
    {
        return Err((
            format!("{here}.client_metadata_url"),
            format!(
                "{} is not an https:// URL with a path (a Client ID Metadata Document's URL is the client id)",
                quoted(url)
            ),
        ));
    }
    let scopes = match oauth.get("scopes") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut scopes = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let at = format!("{here}.scopes[{i}]");
                let Value::String(scope) = item else {
                    return Err((at, format!("is {}, not a string", kind(item))));
                };
                if scope.is_empty() || scope.chars().any(|c| c.is_whitespace()) {
                    return Err((
                        at,
                        format!(
                            "{} is not one scope (no spaces; one scope an item)",
                            quoted(scope)
                        ),
                    ));
                }
                scopes.push(scope.clone());
            }
            scopes
        }
        Some(other) => {
            return Err((
                format!("{here}.scopes"),
                format!("is {}, not an array of scopes", kind(other)),
            ));
        }
    };
    let callback_port = match oauth.get("callback_port") {
        None => None,
        Some(Value::Number(n)) => match n.as_u64().and_then(|n| u16::try_from(n).ok()) {
            Some(port) if port > 0 => Some(port),
            _ => {
                return Err((
                    format!("{here}.callback_port"),
                    format!("is {n}, not a port (1 to 65535)"),
                ));
            }
        },
        Some(other) => {
            return Err((
                format!("{here}.callback_port"),
                format!("is {}, not a port number", kind(other)),
            ));
        }
    };
    Ok(Some(OAuthEntry {
        client_id,
        client_secret,
        scopes,
        callback_port,
        client_metadata_url,
    }))
}

/// Whether `url` can be a Client ID Metadata Document's: https, a host, and
/// a path other than `/` (SEP-991).
fn is_metadata_document_url(url: &str) -> bool {
    url::Url::parse(url)
        .is_ok_and(|url| url.scheme() == "https" && url.host_str().is_some() && url.path() != "/")
}

/// Where the process keeps its sign-ins and how it names the `login`
/// command: set once, before any upstream starts (like `secrets`).
#[derive(Clone, Debug)]
pub struct Context {
    /// The token directory.
    pub tokens: store::TokenDir,
    /// The config file, as `login` is to be given it (absolute).
    pub config: PathBuf,
    /// Whether `--token-dir` was given (and so belongs in the command).
    pub token_dir_given: bool,
}

static CONTEXT: OnceLock<Context> = OnceLock::new();

/// Before serving `config` (read from `file`): where sign-ins are, so that
/// a server that signs in finds its tokens and a message names the exact
/// `login`. A token directory that cannot be named is an error only when
/// some entry says `"oauth"`.
pub fn prepare(
    config: &crate::config::Config,
    file: &std::path::Path,
    token_dir: Option<&std::path::Path>,
) -> Result<(), String> {
    let absolute =
        |path: &std::path::Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let tokens = match store::TokenDir::resolve(token_dir.map(absolute).as_deref(), &|name| {
        std::env::var(name).ok()
    }) {
        Ok(tokens) => tokens,
        Err(message) => {
            let needed = config.servers.values().any(|server| {
                matches!(
                    &server.transport,
                    crate::config::Transport::Http { oauth: Some(_), .. }
                )
            });
            return if needed { Err(message) } else { Ok(()) };
        }
    };
    install(Context {
        tokens,
        config: absolute(file),
        token_dir_given: token_dir.is_some(),
    });
    Ok(())
}

/// Makes `context` the process's (once; a second call is ignored).
pub fn install(context: Context) {
    let _ = CONTEXT.set(context);
}

/// The installed context, if any.
pub fn context() -> Option<&'static Context> {
    CONTEXT.get()
}

impl Context {
    /// The exact command that signs `origin` in, as a user types it.
    pub fn login_command(&self, origin: &str) -> String {
        let mut command = format!(
            "disclose mcp login {origin} --config {}",
            shell_word(&self.config.display().to_string())
        );
        if self.token_dir_given {
            command.push_str(" --token-dir ");
            command.push_str(&shell_word(&self.tokens.path().display().to_string()));
        }
        command
    }
}

/// `word` as one shell word: bare when it is plain, in single quotes
/// otherwise.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(oauth: &str, headers: &[(&str, &str)]) -> Result<Option<OAuthEntry>, Refused> {
        let entry: Value =
            serde_json::from_str(&format!(r#"{{"url": "http://x", "oauth": {oauth}}}"#))
                .expect("json");
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let var = |name: &str| (name == "SECRET").then(|| "s3cret-value".to_string());
        settings(
            entry.as_object().expect("an object"),
            "mcpServers.x",
            &headers,
            &var,
        )
    }

    #[test]
    fn an_empty_object_takes_everything_from_the_metadata() {
        assert_eq!(parse("{}", &[]), Ok(Some(OAuthEntry::default())));
    }

    #[test]
    fn every_key_is_read_and_the_secret_expanded() {
        let settings = parse(
            r#"{"client_id": "disclose", "client_secret": "${SECRET}", "scopes": ["read", "write"], "callback_port": 8976, "client_metadata_url": "https://example.com/client.json"}"#,
            &[("X-Team", "a")],
        )
        .expect("valid")
        .expect("some");
        assert_eq!(settings.client_id.as_deref(), Some("disclose"));
        assert_eq!(settings.client_secret.as_deref(), Some("s3cret-value"));
        assert_eq!(settings.scopes, ["read", "write"]);
        assert_eq!(settings.callback_port, Some(8976));
        assert!(!format!("{settings:?}").contains("s3cret"));
    }

    #[test]
    fn mistakes_are_refused_at_their_key() {
        let refused = |oauth: &str| parse(oauth, &[]).expect_err(oauth);
        assert_eq!(
            refused("true"),
            (
                "mcpServers.x.oauth".into(),
                "is a boolean, not an object (`{}` signs in as the server's metadata says)".into()
            )
        );
        assert_eq!(
            refused(r#"{"clientId": "a"}"#).0,
            "mcpServers.x.oauth.clientId"
        );
        assert_eq!(
            refused(r#"{"client_secret": "abc"}"#).0,
            "mcpServers.x.oauth.client_secret"
        );
        assert_eq!(
            refused(r#"{"client_id": "${UNSET}"}"#).1,
            "${UNSET} is not set in the gateway's environment (set it, or write ${UNSET:-default})"
        );
        assert_eq!(
            refused(r#"{"scopes": "read write"}"#).1,
            "is a string, not an array of scopes"
        );
        assert_eq!(
            refused(r#"{"scopes": ["read write"]}"#).0,
            "mcpServers.x.oauth.scopes[0]"
        );
        assert_eq!(
            refused(r#"{"callback_port": 70000}"#).1,
            "is 70000, not a port (1 to 65535)"
        );
        assert_eq!(
            refused(r#"{"callback_port": 0}"#).1,
            "is 0, not a port (1 to 65535)"
        );
        assert_eq!(
            refused(r#"{"client_metadata_url": "http://example.com/c.json"}"#).0,
            "mcpServers.x.oauth.client_metadata_url"
        );
        assert_eq!(
            refused(r#"{"client_metadata_url": "https://example.com/"}"#).0,
            "mcpServers.x.oauth.client_metadata_url"
        );
        let header = parse("{}", &[("authorization", "Bearer x")]).expect_err("a header");
        assert_eq!(header.0, "mcpServers.x.headers.authorization");
    }

    #[test]
    fn a_path_is_one_shell_word() {
        assert_eq!(shell_word("/home/me/mcp.json"), "/home/me/mcp.json");
        assert_eq!(shell_word("/my files/mcp.json"), "'/my files/mcp.json'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
