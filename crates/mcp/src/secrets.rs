//! Credentials stay upstream: the values of every server's `env` and
//! `headers` in the config, what its `url` carries besides the address
//! (user information, the query and its values), and the gateway's own
//! `--token-env` token, are scrubbed from everything the gateway passes on
//! or writes.
//!
//! The gateway itself never prints a config value (`config` names keys and
//! kinds only), but an upstream may: a server that echoes its environment
//! in a tool result, quotes a header in an error, or logs its config on
//! stderr. So every line the gateway writes to stderr (its own and each
//! upstream's), every upstream tool result and error it passes back, and
//! every tool declaration it admits (and so records) goes through
//! [`scrub`] / [`Secrets::scrub_value`], which replace each secret by
//! [`REDACTED`]. A value shorter than [`SHORTEST`] bytes is not a secret
//! here (`DEBUG=1` must not blank every `1`), nor is a header's scheme word
//! (`Bearer`): its token is.
//!
//! The set is installed once, before any upstream starts; it is read-only
//! afterwards.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use crate::config::{Config, Transport};

/// What a secret is replaced by.
pub const REDACTED: &str = "[redacted by disclose]";

/// The shortest value treated as a secret, in bytes.
pub const SHORTEST: usize = 8;

/// The values to scrub, longest first (so a secret that contains another
/// is replaced whole).
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    values: Vec<String>,
}

impl Secrets {
    /// Every `env` and `headers` value of the config, and `token`.
    pub fn of(config: &Config, token: Option<&str>) -> Secrets {
        let mut values = Vec::new();
        for server in config.servers.values() {
            match &server.transport {
                Transport::Stdio { env, .. } => {
                    values.extend(env.iter().map(|(_, v)| v.clone()));
                }
                Transport::Http { url, headers } => {
                    values.extend(in_url(url));
                    for (_, value) in headers {
                        values.push(value.clone());
                        // `Bearer TOKEN`, `Basic B64`: the token alone too.
                        values.extend(value.split_whitespace().map(str::to_string));
                    }
                }
            }
        }
        values.extend(token.map(str::to_string));
        Secrets::from_values(values)
    }

    fn from_values(mut values: Vec<String>) -> Secrets {
        values.retain(|v| v.len() >= SHORTEST);
        values.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        values.dedup();
        Secrets { values }
    }

    /// Whether there is anything to scrub.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every secret replaced.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.values {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), REDACTED));
            }
        }
        out
    }

    /// Every string in `value` (keys included) with every secret replaced;
    /// `false` when nothing was found, and `value` is untouched.
    pub fn scrub_value(&self, value: &mut Value) -> bool {
        if self.values.is_empty() {
            return false;
        }
        // One look at the whole text first: most values hold no secret.
        let text = value.to_string();
        if !self.values.iter().any(|s| text.contains(s.as_str())) {
            return false;
        }
        self.walk(value);
        true
    }

    fn walk(&self, value: &mut Value) {
        match value {
            Value::String(text) => {
                if let Cow::Owned(clean) = self.scrub(text) {
                    *text = clean;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.walk(item)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (key, mut item) in entries {
                    self.walk(&mut item);
                    map.insert(self.scrub(&key).into_owned(), item);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

static INSTALLED: OnceLock<Secrets> = OnceLock::new();

/// The credentials a URL may carry (`https://user:pass@host/mcp?key=K`):
/// its user information and password, its query, and each query value.
/// They never appear in the gateway's own lines (`config::redact_url`),
/// but an error an HTTP library writes may quote the whole URL.
fn in_url(url: &str) -> Vec<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority_and_path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let authority = authority_and_path.split('/').next().unwrap_or_default();
    let mut found = Vec::new();
    if let Some((userinfo, _)) = authority.rsplit_once('@') {
        found.push(userinfo.to_string());
        found.extend(
            userinfo
                .split_once(':')
                .map(|(_, password)| password.to_string()),
        );
    }
    if !query.is_empty() {
        found.push(query.to_string());
        found.extend(
            query
                .split('&')
                .filter_map(|pair| pair.split_once('=').map(|(_, value)| value.to_string())),
        );
    }
    found
}

/// Makes `secrets` the process's set (once; a second call is ignored).
pub fn install(secrets: Secrets) {
    let _ = INSTALLED.set(secrets);
}

/// The installed set (empty before [`install`]).
pub fn installed() -> &'static Secrets {
    static NONE: Secrets = Secrets { values: Vec::new() };
    INSTALLED.get().unwrap_or(&NONE)
}

/// `text` with every installed secret replaced.
pub fn scrub(text: &str) -> Cow<'_, str> {
    installed().scrub(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn secrets(values: &[&str]) -> Secrets {
        Secrets::from_values(values.iter().map(|v| v.to_string()).collect())
    }

    #[test]
    fn every_occurrence_is_replaced_and_short_values_are_not_secrets() {
        let s = secrets(&["hunter2-hunter2", "1", "abc"]);
        assert_eq!(
            s.scrub("a hunter2-hunter2 b hunter2-hunter2 1 abc"),
            format!("a {REDACTED} b {REDACTED} 1 abc")
        );
        assert!(matches!(s.scrub("nothing here"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_longest_secret_goes_first() {
        let s = secrets(&["token-123456", "Bearer token-123456"]);
        assert_eq!(s.scrub("Bearer token-123456!"), format!("{REDACTED}!"));
    }

    #[test]
    fn values_are_walked_keys_included() {
        let s = secrets(&["s3cret-value"]);
        let mut value =
            json!({"text": "is s3cret-value", "s3cret-value": [1, "s3cret-value"], "n": 2});
        assert!(s.scrub_value(&mut value));
        assert_eq!(
            value,
            json!({"text": format!("is {REDACTED}"), REDACTED: [1, REDACTED], "n": 2})
        );
        let mut clean = json!({"text": "plain"});
        assert!(!s.scrub_value(&mut clean));
    }

    #[test]
    fn a_config_gives_env_and_header_values_and_the_token() {
        let text = br#"{"mcpServers": {
            "a": {"command": "x", "env": {"KEY": "env-secret-1", "DEBUG": "1"}},
            "b": {"url": "http://127.0.0.1/mcp", "headers": {"Authorization": "Bearer header-secret-2"}},
            "c": {"url": "https://me:url-password-3@example.com/mcp?api_key=query-secret-4&v=1#top"}
        }}"#;
        let config = crate::config::parse("mcp.json", text, &|_| None).expect("a config");
        let s = Secrets::of(&config, Some("the-gateway-token"));
        let scrubbed = s.scrub("env-secret-1 header-secret-2 the-gateway-token DEBUG=1 Bearer");
        assert_eq!(
            scrubbed,
            format!("{REDACTED} {REDACTED} {REDACTED} DEBUG=1 Bearer")
        );
        let quoted = "error sending request for url (https://me:url-password-3@example.com/mcp?api_key=query-secret-4&v=1)";
        assert_eq!(
            s.scrub(quoted),
            format!(
                "error sending request for url (https://{REDACTED}@example.com/mcp?{REDACTED})"
            )
        );
        assert_eq!(
            s.scrub("key query-secret-4, password url-password-3"),
            format!("key {REDACTED}, password {REDACTED}")
        );
    }
}
