//! Credentials stay upstream, and nothing else is touched.
//!
//! A secret is exactly (docs/decisions.md): every `headers` value of the
//! config (and the token after its scheme word, `Bearer TOKEN`); what a
//! `url` carries besides its address (user information and password, the
//! query and each of its values); an `env` value whose key names a
//! credential by one of its words ([`CREDENTIAL_WORDS`]: `GITHUB_TOKEN`,
//! `apiKey`, `DB_PASSWORD`), or that the server's `"secrets"` list names;
//! the user information of an `env` value that is a URL
//! (`postgres://user:pass@host/db`); the gateway's own `--token-env`
//! token; and OAuth's: an entry's `oauth.client_secret`, and every access
//! token, refresh token and client secret of a sign-in (`oauth::store`),
//! learned as they are read or refreshed. Every other value (a time zone,
//! a model name, a path) is left as it is, wherever it appears.
//!
//! The gateway itself never prints a config value (`config` names keys and
//! kinds only), but an upstream may: a server that echoes its environment
//! in a tool result, quotes a header in an error, or logs its config on
//! stderr. So every line the gateway writes to stderr (its own and each
//! upstream's), every upstream tool result, progress message and error it
//! passes back goes through [`scrub`] / [`Secrets::scrub_value`], which
//! replace each secret by [`REDACTED`]. A tool declaration is never
//! rewritten (a redaction must not change a tool's name): one that holds a
//! secret ([`Secrets::found_in`]) is left out of the catalog, and recorded
//! redacted (`catalog`). A value shorter than [`SHORTEST`] bytes is not a
//! secret here (a header `X-Version: 2` must not blank every `2`).
//!
//! The config's set is installed once, before any upstream starts; after
//! that it only grows, by the tokens a sign-in brings ([`learn`]).

use std::borrow::Cow;
use std::sync::{Arc, RwLock};

use serde_json::Value;

use crate::config::{Config, Transport, quote_key};

/// What a secret is replaced by.
pub const REDACTED: &str = "[redacted by disclose]";

/// The shortest value treated as a secret, in bytes.
pub const SHORTEST: usize = 8;

/// The words of an `env` key that make its value a secret: the key is
/// split on `_`, `-`, `.`, lower-to-upper case and letter-to-digit
/// boundaries, and any of its words, in any case, is one of these.
pub const CREDENTIAL_WORDS: [&str; 28] = [
    "APIKEY",
    "AUTH",
    "AUTHORIZATION",
    "BEARER",
    "COOKIE",
    "COOKIES",
    "CREDENTIAL",
    "CREDENTIALS",
    "CREDS",
    "DSN",
    "JWT",
    "KEY",
    "KEYS",
    "OAUTH",
    "PASS",
    "PASSPHRASE",
    "PASSWD",
    "PASSWORD",
    "PASSWORDS",
    "PAT",
    "PGPASSWORD",
    "PRIVATE",
    "PWD",
    "SECRET",
    "SECRETS",
    "SESSION",
    "TOKEN",
    "TOKENS",
];

/// Keys that hold one of the words but are a shell's directories, never a
/// password: `PWD` and `OLDPWD` alone.
const NOT_CREDENTIALS: [&str; 2] = ["PWD", "OLDPWD"];

/// One secret, and where the config holds it (`mcpServers.gh.env.TOKEN`):
/// the place is what messages name, never the value.
#[derive(Clone, Debug)]
struct Secret {
    value: String,
    source: String,
}

/// The values to scrub, longest first (so a secret that contains another
/// is replaced whole).
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    secrets: Vec<Secret>,
}

impl Secrets {
    /// The secrets of `config`, and `token` (`--token-env`).
    pub fn of(config: &Config, token: Option<&str>) -> Secrets {
        let mut found = Vec::new();
        for server in config.servers.values() {
            let at = &server.path;
            match &server.transport {
                Transport::Stdio { env, secrets, .. } => {
                    for (key, value) in env {
                        let source = format!("{at}.env.{}", quote_key(key));
                        if secrets.contains(key) || names_a_credential(key) {
                            found.push((value.clone(), source));
                        } else {
                            found.extend(
                                in_userinfo(value)
                                    .into_iter()
                                    .map(|part| (part, source.clone())),
                            );
                        }
                    }
                }
                Transport::Http {
                    url,
                    headers,
                    oauth,
                } => {
                    if let Some(secret) = oauth.as_ref().and_then(|o| o.client_secret.as_ref()) {
                        found.push((secret.clone(), format!("{at}.oauth.client_secret")));
                    }
                    let source = format!("{at}.url");
                    let parts = in_userinfo(url).into_iter().chain(in_query(url));
                    found.extend(parts.map(|part| (part, source.clone())));
                    for (name, value) in headers {
                        let source = format!("{at}.headers.{}", quote_key(name));
                        // `Bearer TOKEN`, `Basic B64`: the token alone too.
                        if let Some((_, token)) = value.trim().split_once(char::is_whitespace) {
                            found.push((token.trim().to_string(), source.clone()));
                        }
                        found.push((value.clone(), source));
                    }
                }
            }
        }
        found.extend(token.map(|t| (t.to_string(), "the --token-env token".to_string())));
        Secrets::from_found(found)
    }

    fn from_found(found: Vec<(String, String)>) -> Secrets {
        Secrets::default().with(
            found
                .into_iter()
                .map(|(value, source)| Secret { value, source }),
        )
    }

    /// These secrets and `more`, longest first (so a secret that contains
    /// another is replaced whole); values shorter than [`SHORTEST`] are
    /// dropped, and a value named by two places keeps the first.
    fn with(&self, more: impl IntoIterator<Item = Secret>) -> Secrets {
        let mut secrets: Vec<Secret> = self
            .secrets
            .iter()
            .cloned()
            .chain(more)
            .filter(|secret| secret.value.len() >= SHORTEST)
            .collect();
        secrets.sort_by(|a, b| {
            b.value
                .len()
                .cmp(&a.value.len())
                .then_with(|| a.value.cmp(&b.value))
        });
        secrets.dedup_by(|a, b| a.value == b.value);
        Secrets { secrets }
    }

    /// Whether there is anything to scrub.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret replaced.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.value.as_str()) {
                out = Cow::Owned(out.replace(secret.value.as_str(), REDACTED));
            }
        }
        out
    }

    /// Where the config holds the first secret that occurs in `text`.
    fn in_text(&self, text: &str) -> Option<&str> {
        self.secrets
            .iter()
            .find(|secret| text.contains(secret.value.as_str()))
            .map(|secret| secret.source.as_str())
    }

    /// Where the config holds a secret that occurs in any string of
    /// `value` (keys included), if one does: `mcpServers.gh.env.TOKEN`.
    pub fn found_in(&self, value: &Value) -> Option<&str> {
        match value {
            Value::String(text) => self.in_text(text),
            Value::Array(items) => items.iter().find_map(|item| self.found_in(item)),
            Value::Object(map) => map
                .iter()
                .find_map(|(key, item)| self.in_text(key).or_else(|| self.found_in(item))),
            Value::Null | Value::Bool(_) | Value::Number(_) => None,
        }
    }

    /// Every string in `value` (keys included) with every secret replaced;
    /// `false` when nothing was found, and `value` is untouched.
    pub fn scrub_value(&self, value: &mut Value) -> bool {
        if self.secrets.is_empty() {
            return false;
        }
        match value {
            Value::String(text) => match self.scrub(text) {
                Cow::Owned(clean) => {
                    *text = clean;
                    true
                }
                Cow::Borrowed(_) => false,
            },
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |found, item| self.scrub_value(item) | found),
            Value::Object(map) => {
                let mut found = map
                    .values_mut()
                    .fold(false, |found, item| self.scrub_value(item) | found);
                if map.keys().any(|key| self.in_text(key).is_some()) {
                    let entries = std::mem::take(map);
                    for (key, item) in entries {
                        map.insert(self.scrub(&key).into_owned(), item);
                    }
                    found = true;
                }
                found
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => false,
        }
    }
}

/// Whether an `env` key names a credential by one of its words.
pub fn names_a_credential(key: &str) -> bool {
    if NOT_CREDENTIALS.contains(&key) {
        return false;
    }
    words(key).into_iter().any(|word| {
        CREDENTIAL_WORDS
            .iter()
            .any(|credential| credential.eq_ignore_ascii_case(word))
    })
}

/// The words of a key: split on every character that is not a letter or
/// a digit, between a lowercase letter and an uppercase one (`apiKey`),
/// before the last capital of a run followed by a lowercase letter
/// (`APIKey`), and between letters and digits (`OAUTH2`).
fn words(key: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = key.char_indices().collect();
    let mut words = Vec::new();
    let mut start = None;
    for (n, &(at, here)) in chars.iter().enumerate() {
        if !here.is_alphanumeric() {
            words.extend(start.take().map(|from| &key[from..at]));
            continue;
        }
        let Some(from) = start else {
            start = Some(at);
            continue;
        };
        // In a word, so the character before is a letter or a digit.
        let before = chars[n - 1].1;
        let next_lower = chars.get(n + 1).is_some_and(|&(_, c)| c.is_lowercase());
        let cut = (before.is_lowercase() && here.is_uppercase())
            || (before.is_uppercase() && here.is_uppercase() && next_lower)
            || before.is_numeric() != here.is_numeric();
        if cut {
            words.push(&key[from..at]);
            start = Some(at);
        }
    }
    words.extend(start.map(|from| &key[from..]));
    words
}

/// The process's set: the config's, and what sign-ins taught it since.
static INSTALLED: RwLock<Option<Arc<Secrets>>> = RwLock::new(None);

/// The address and the query of a URL (`https://user:pass@host/mcp?key=K`):
/// `("user:pass@host", "key=K")`, either empty.
fn url_parts(url: &str) -> (&str, &str) {
    let Some((_, rest)) = url.split_once("://") else {
        return ("", "");
    };
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority_and_path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let authority = authority_and_path.split('/').next().unwrap_or_default();
    (authority, query)
}

/// A URL's user information and its password, if it has any. They never
/// appear in the gateway's own lines (`config::redact_url`), but an error
/// an HTTP library writes may quote the whole URL.
fn in_userinfo(url: &str) -> Vec<String> {
    let Some((userinfo, _)) = url_parts(url).0.rsplit_once('@') else {
        return Vec::new();
    };
    let password = userinfo.split_once(':').map(|(_, password)| password);
    std::iter::once(userinfo)
        .chain(password)
        .map(str::to_string)
        .collect()
}

/// A URL's query and each of its values: `?api_key=…` is how several
/// hosted servers take a key.
fn in_query(url: &str) -> Vec<String> {
    let query = url_parts(url).1;
    if query.is_empty() {
        return Vec::new();
    }
    let values = query
        .split('&')
        .filter_map(|pair| pair.split_once('=').map(|(_, value)| value));
    std::iter::once(query)
        .chain(values)
        .map(str::to_string)
        .collect()
}

/// Makes `secrets` (the config's) part of the process's set.
pub fn install(secrets: Secrets) {
    let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    let now = installed.as_deref().cloned().unwrap_or_default();
    *installed = Some(Arc::new(now.with(secrets.secrets)));
}

/// Adds `found` (values, and where they come from) to the process's set:
/// tokens, as a sign-in reads or refreshes them.
pub fn learn(found: Vec<(String, String)>) {
    if found.iter().all(|(value, _)| value.len() < SHORTEST) {
        return;
    }
    let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
    let now = installed.as_deref().cloned().unwrap_or_default();
    *installed = Some(Arc::new(
        now.with(
            found
                .into_iter()
                .map(|(value, source)| Secret { value, source }),
        ),
    ));
}

/// The process's set as it stands (empty before [`install`] or [`learn`]).
pub fn installed() -> Arc<Secrets> {
    let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner());
    installed.clone().unwrap_or_default()
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
        Secrets::from_found(
            values
                .iter()
                .map(|v| (v.to_string(), format!("place of {v}")))
                .collect(),
        )
    }

    fn of(config: &str) -> Secrets {
        let config =
            crate::config::parse("mcp.json", config.as_bytes(), &|_| None).expect("a config");
        Secrets::of(&config, Some("the-gateway-token"))
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
        let s = secrets(&["s3cret-value", "quote\"d-secret"]);
        let mut value = json!({"text": "is s3cret-value", "s3cret-value": [1, "s3cret-value"], "n": 2, "q": "a quote\"d-secret"});
        assert!(s.scrub_value(&mut value));
        assert_eq!(
            value,
            json!({"text": format!("is {REDACTED}"), REDACTED: [1, REDACTED], "n": 2, "q": format!("a {REDACTED}")})
        );
        let mut clean = json!({"text": "plain", "list": ["plain"]});
        assert!(!s.scrub_value(&mut clean));
        assert_eq!(clean, json!({"text": "plain", "list": ["plain"]}));
    }

    #[test]
    fn a_secret_is_found_anywhere_in_a_value_and_named_by_its_place() {
        let s = secrets(&["s3cret-value"]);
        for holding in [
            json!({"name": "t", "description": "uses s3cret-value"}),
            json!({"name": "t", "inputSchema": {"properties": {"s3cret-value": {}}}}),
            json!({"name": "t", "inputSchema": {"enum": ["a", "xs3cret-valuex"]}}),
        ] {
            assert_eq!(
                s.found_in(&holding),
                Some("place of s3cret-value"),
                "{holding}"
            );
        }
        assert_eq!(s.found_in(&json!({"name": "t", "n": 12345678})), None);
    }

    #[test]
    fn keys_are_split_into_words() {
        let split = words;
        assert_eq!(split("GITHUB_TOKEN"), ["GITHUB", "TOKEN"]);
        assert_eq!(split("apiKey"), ["api", "Key"]);
        assert_eq!(split("APIKey"), ["API", "Key"]);
        assert_eq!(split("OAUTH2_CLIENT-ID"), ["OAUTH", "2", "CLIENT", "ID"]);
        assert_eq!(split("my.db.password"), ["my", "db", "password"]);
        assert_eq!(split("__x__"), ["x"]);
        assert_eq!(split("ÉTÉ_KEY"), ["ÉTÉ", "KEY"]);
    }

    #[test]
    fn credentials_are_named_by_a_word_of_the_key() {
        for key in [
            "GITHUB_TOKEN",
            "GITHUB_PERSONAL_ACCESS_TOKEN",
            "OPENAI_API_KEY",
            "apiKey",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
            "PGPASSWORD",
            "SMTP_PASSWD",
            "DB_PWD",
            "AUTH",
            "GOOGLE_APPLICATION_CREDENTIALS",
            "SESSION_COOKIE",
            "GITLAB_PAT",
            "SSH_PRIVATE_KEY",
            "SENTRY_DSN",
            "x-auth",
            "OAUTH2_TOKEN",
        ] {
            assert!(names_a_credential(key), "{key} names a credential");
        }
        for key in [
            "TZ",
            "MODEL",
            "MEMORY_FILE_PATH",
            "HOME",
            "PWD",
            "OLDPWD",
            "DEBUG",
            "KEYBOARD_LAYOUT",
            "MONKEY",
            "PATH",
            "PASSAGE",
            "COMPASS",
            "TOKENIZER",
        ] {
            assert!(!names_a_credential(key), "{key} names no credential");
        }
    }

    #[test]
    fn a_config_gives_its_credentials_and_nothing_else() {
        let s = of(r#"{"mcpServers": {
            "a": {"command": "x", "env": {"API_KEY": "env-secret-1", "DEBUG": "1", "TZ": "America/New_York", "MODEL": "claude-sonnet-4", "DATA": "/srv/data/x", "DATABASE_URL": "postgres://app:db-password-5@db/app?sslmode=require", "PLAIN": "listed-secret-6"}, "secrets": ["PLAIN"]},
            "b": {"url": "http://127.0.0.1/mcp", "headers": {"Authorization": "Bearer header-secret-2", "X-Key": "plain-header-7"}},
            "c": {"url": "https://me:url-password-3@example.com/mcp?api_key=query-secret-4&v=1#top"}
        }}"#);
        let kept = "DEBUG=1 TZ=America/New_York MODEL=claude-sonnet-4 DATA=/srv/data/x sslmode=require Bearer";
        assert_eq!(s.scrub(kept), kept);
        let scrubbed = s.scrub(
            "env-secret-1 header-secret-2 the-gateway-token db-password-5 listed-secret-6 plain-header-7",
        );
        assert_eq!(scrubbed, [REDACTED; 6].join(" "));
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
        let place = |text: &str| s.found_in(&json!(text)).map(str::to_string);
        assert_eq!(
            place("env-secret-1").as_deref(),
            Some("mcpServers.a.env.API_KEY")
        );
        assert_eq!(
            place("listed-secret-6").as_deref(),
            Some("mcpServers.a.env.PLAIN")
        );
        assert_eq!(
            place("db-password-5").as_deref(),
            Some("mcpServers.a.env.DATABASE_URL")
        );
        assert_eq!(
            place("header-secret-2").as_deref(),
            Some("mcpServers.b.headers.Authorization")
        );
        assert_eq!(place("query-secret-4").as_deref(), Some("mcpServers.c.url"));
        assert_eq!(
            place("the-gateway-token").as_deref(),
            Some("the --token-env token")
        );
        assert_eq!(place("America/New_York"), None);
    }
}
