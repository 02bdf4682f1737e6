//! The gateway's config: the `mcpServers` JSON that MCP clients already use
//! (Claude Desktop, Cursor, Claude Code's `.mcp.json`), read unchanged.
//!
//! Each entry's key is its origin (SPEC §1). A stdio entry has `command`,
//! `args`, `env` and `cwd`; an HTTP entry has `type` (`http`, also
//! `streamable-http`), `url` and `headers`. `${VAR}` and `${VAR:-default}`
//! are taken from the gateway's environment in `command`, `args`, `env`,
//! `cwd`, `url` and `headers`, as Claude Code expands them. Our own keys are
//! `approval` (`required`, the default, or `never`), on a stdio entry
//! `secrets` (the `env` keys whose values are secrets whatever their
//! names, beside those `secrets` finds by name), and on an HTTP entry
//! `oauth` (it signs in with OAuth: `oauth::OAuthEntry`); keys that other
//! clients read (`disabled`, `timeout`, …) are left alone, named once on
//! stderr as not read here.
//!
//! This module reads bytes and an environment lookup and returns a typed
//! [`Config`] or one [`ConfigError`] whose `Display` is the whole message
//! (`FILE:LINE:COLUMN: …` for text that is not JSON, `FILE: mcpServers.KEY…:
//! …` otherwise). It spawns nothing and reads no file itself.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use disclose::Approval;
use serde_json::{Map, Value};

/// A whole config: every server, by origin (byte order, the order of
/// admission).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The servers by origin.
    pub servers: BTreeMap<String, Server>,
    /// Keys of entries that other clients read and this gateway does not,
    /// as `mcpServers.ORIGIN.KEY`, for one note on stderr.
    pub ignored: Vec<String>,
}

/// One upstream server.
#[derive(Clone, PartialEq)]
pub struct Server {
    /// Its key in `mcpServers`: the origin of its tools.
    pub origin: String,
    /// How it is reached.
    pub transport: Transport,
    /// The approval every one of its tools is declared with.
    pub approval: Approval,
}

/// How an upstream is reached.
#[derive(Clone, PartialEq)]
pub enum Transport {
    /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set for it, on top of the gateway's environment.
        env: Vec<(String, String)>,
        /// Its working directory.
        cwd: Option<PathBuf>,
        /// The `env` keys the config's `"secrets"` names: their values are
        /// secrets whatever the key (`secrets`).
        secrets: Vec<String>,
    },
    /// Streamable HTTP.
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
        /// `"oauth"`: how it signs in, when the entry says so.
        oauth: Option<crate::oauth::OAuthEntry>,
    },
}

// Config values may hold credentials (env, headers): Debug never prints them.
impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match &self.transport {
            Transport::Stdio { command, .. } => format!("stdio {command}"),
            Transport::Http { url, .. } => format!("http {}", redact_url(url)),
        };
        f.debug_struct("Server")
            .field("origin", &self.origin)
            .field("transport", &kind)
            .field("approval", &self.approval)
            .finish()
    }
}

/// A URL without its user information or query, for messages.
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host_and_path = rest.rsplit_once('@').map_or(rest, |(_, after)| after);
    let without_query = host_and_path.split(['?', '#']).next().unwrap_or_default();
    if scheme.is_empty() {
        without_query.to_string()
    } else {
        format!("{scheme}://{without_query}")
    }
}

/// Why a config was refused; `Display` is the whole message after
/// `disclose: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The file, as named on the command line.
    pub file: String,
    /// Where: `LINE:COLUMN` or the key path, and what is wrong.
    pub problem: Problem,
}

/// What is wrong with a config, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not JSON (or a key given twice) at a place in the text.
    NotJson {
        /// 1-based line.
        line: usize,
        /// 1-based byte column.
        column: usize,
        /// What the reader said.
        message: String,
    },
    /// A value at a key path is wrong.
    At {
        /// `mcpServers.ORIGIN.KEY…`, or empty for the whole document.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Problem::NotJson {
                line,
                column,
                message,
            } => write!(
                f,
                "{}:{line}:{column}: the config is not JSON: {message}",
                self.file
            ),
            Problem::At { path, message } if path.is_empty() => {
                write!(f, "{}: {message}", self.file)
            }
            Problem::At { path, message } => write!(f, "{}: {path}: {message}", self.file),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The keys of an entry this gateway reads.
const KNOWN: [&str; 10] = [
    "type", "command", "args", "env", "cwd", "url", "headers", "approval", "secrets", "oauth",
];

/// Reads a config. `file` names it in messages; `var` looks a variable up
/// in the gateway's environment.
pub fn parse(
    file: &str,
    bytes: &[u8],
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Config, ConfigError> {
    let error = |problem| ConfigError {
        file: file.to_string(),
        problem,
    };
    let at = |path: String, message: String| error(Problem::At { path, message });
    let value = disclose_replay::json::parse_slice(bytes).map_err(|e| {
        error(Problem::NotJson {
            line: e.line,
            column: e.column,
            message: e.message,
        })
    })?;
    let Value::Object(top) = value else {
        return Err(at(
            String::new(),
            format!(
                "the config is {}, not an object with \"mcpServers\"",
                kind(&value)
            ),
        ));
    };
    let servers = match top.get("mcpServers") {
        Some(Value::Object(servers)) => servers,
        Some(other) => {
            return Err(at(
                "mcpServers".into(),
                format!("is {}, not an object of servers", kind(other)),
            ));
        }
        None => {
            return Err(at(
                String::new(),
                "the config has no \"mcpServers\" object".into(),
            ));
        }
    };
    let mut config = Config {
        servers: BTreeMap::new(),
        ignored: Vec::new(),
    };
    for (origin, entry) in servers {
        let path = format!("mcpServers.{}", quote_key(origin));
        if !disclose::internals::naming::origin_is_valid(origin) {
            return Err(at(
                path,
                format!(
                    "the server name {} is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of its tools' names",
                    quoted(origin)
                ),
            ));
        }
        let Value::Object(entry) = entry else {
            return Err(at(path, format!("is {}, not an object", kind(entry))));
        };
        let server = server(origin, entry, &path, var).map_err(|(path, m)| at(path, m))?;
        for key in entry.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
            config.ignored.push(format!("{path}.{}", quote_key(key)));
        }
        config.servers.insert(origin.clone(), server);
    }
    Ok(config)
}

/// A refused value: its key path, and what is wrong with it.
pub(crate) type Refused = (String, String);

fn server(
    origin: &str,
    entry: &Map<String, Value>,
    path: &str,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Server, Refused> {
    let key = |k: &str| format!("{path}.{k}");
    let approval = match entry.get("approval") {
        None => Approval::Required,
        Some(Value::String(word)) if word == "required" => Approval::Required,
        Some(Value::String(word)) if word == "never" => Approval::Never,
        Some(other) => {
            return Err((
                key("approval"),
                format!(
                    "is {}; it is \"required\" (the default) or \"never\"",
                    shown(other)
                ),
            ));
        }
    };
    let kind_word = match entry.get("type") {
        None => None,
        Some(Value::String(word)) => Some(word.as_str()),
        Some(other) => {
            return Err((key("type"), format!("is {}, not a string", kind(other))));
        }
    };
    let has_command = entry.contains_key("command");
    let has_url = entry.contains_key("url");
    let http = match kind_word {
        Some("stdio") => false,
        Some("http" | "streamable-http") => true,
        Some(other) => {
            return Err((
                key("type"),
                format!(
                    "{} is not a transport this gateway speaks: \"stdio\", \"http\" or \"streamable-http\"",
                    quoted(other)
                ),
            ));
        }
        None if has_command => false,
        None if has_url => true,
        None => {
            return Err((
                path.to_string(),
                "has neither \"command\" (a stdio server) nor \"url\" (an HTTP server)".into(),
            ));
        }
    };
    let transport = if http {
        if has_command {
            return Err((
                key("command"),
                "is set on an HTTP server (it has \"url\")".into(),
            ));
        }
        if entry.contains_key("secrets") {
            return Err((
                key("secrets"),
                "is set on an HTTP server (it names \"env\" keys of a stdio server; every header value is a secret already)".into(),
            ));
        }
        let url = string(entry, "url", path, var)?.ok_or_else(|| {
            (
                path.to_string(),
                "is an HTTP server without \"url\"".to_string(),
            )
        })?;
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err((
                key("url"),
                format!(
                    "{} is not an http:// or https:// URL",
                    quoted(&redact_url(&url))
                ),
            ));
        }
        let headers = pairs(entry, "headers", path, var)?;
        Transport::Http {
            oauth: crate::oauth::settings(entry, path, &headers, var)?,
            url,
            headers,
        }
    } else {
        if has_url {
            return Err((
                key("url"),
                "is set on a stdio server (it has \"command\")".into(),
            ));
        }
        if entry.contains_key("oauth") {
            return Err((
                key("oauth"),
                "is set on a stdio server (only an HTTP server signs in with OAuth)".into(),
            ));
        }
        let command = string(entry, "command", path, var)?.ok_or_else(|| {
            (
                path.to_string(),
                "is a stdio server without \"command\"".to_string(),
            )
        })?;
        if command.trim().is_empty() {
            return Err((key("command"), "is empty".into()));
        }
        let args = match entry.get("args") {
            None => Vec::new(),
            Some(Value::Array(items)) => {
                let mut args = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let here = format!("{path}.args[{i}]");
                    let Value::String(text) = item else {
                        return Err((here, format!("is {}, not a string", kind(item))));
                    };
                    args.push(expand(text, &here, var)?);
                }
                args
            }
            Some(other) => {
                return Err((
                    key("args"),
                    format!("is {}, not an array of strings", kind(other)),
                ));
            }
        };
        let env = pairs(entry, "env", path, var)?;
        Transport::Stdio {
            command,
            args,
            secrets: secret_keys(entry, path, &env)?,
            env,
            cwd: string(entry, "cwd", path, var)?.map(PathBuf::from),
        }
    };
    Ok(Server {
        origin: origin.to_string(),
        transport,
        approval,
    })
}

fn string(
    entry: &Map<String, Value>,
    name: &str,
    path: &str,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<String>, Refused> {
    let here = format!("{path}.{name}");
    match entry.get(name) {
        None => Ok(None),
        Some(Value::String(text)) => expand(text, &here, var).map(Some),
        Some(other) => Err((here, format!("is {}, not a string", kind(other)))),
    }
}

/// An object of strings (`env`, `headers`), values expanded, in key order.
fn pairs(
    entry: &Map<String, Value>,
    name: &str,
    path: &str,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, Refused> {
    let here = format!("{path}.{name}");
    match entry.get(name) {
        None => Ok(Vec::new()),
        Some(Value::Object(map)) => {
            let mut out = Vec::with_capacity(map.len());
            for (k, v) in map {
                let at = format!("{here}.{}", quote_key(k));
                let Value::String(text) = v else {
                    // The value may be a credential: say its kind only.
                    return Err((at, format!("is {}, not a string", kind(v))));
                };
                out.push((k.clone(), expand(text, &at, var)?));
            }
            Ok(out)
        }
        Some(other) => Err((
            here,
            format!("is {}, not an object of strings", kind(other)),
        )),
    }
}

/// `"secrets"`: keys of the entry's `env`. A key that `env` does not hold
/// is refused: a misspelt name would leave the credential it meant
/// unprotected.
fn secret_keys(
    entry: &Map<String, Value>,
    path: &str,
    env: &[(String, String)],
) -> Result<Vec<String>, Refused> {
    let here = format!("{path}.secrets");
    let items = match entry.get("secrets") {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err((
                here,
                format!("is {}, not an array of \"env\" keys", kind(other)),
            ));
        }
    };
    let mut keys = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("{here}[{i}]");
        let Value::String(key) = item else {
            return Err((at, format!("is {}, not a string", kind(item))));
        };
        if !env.iter().any(|(k, _)| k == key) {
            return Err((
                at,
                format!("{} is not a key of this server's \"env\"", quoted(key)),
            ));
        }
        keys.push(key.clone());
    }
    Ok(keys)
}

/// `${VAR}` and `${VAR:-default}` from the gateway's environment; a `$`
/// not followed by `{` is itself. An unset variable without a default is
/// an error naming the variable, never the value around it.
pub fn expand(
    text: &str,
    path: &str,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<String, Refused> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            return Err((
                path.to_string(),
                "has \"${\" without its closing \"}\"".into(),
            ));
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        let name_ok = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit();
        if !name_ok {
            return Err((
                path.to_string(),
                format!(
                    "{} is not a variable name (letters, digits and _)",
                    quoted(&format!("${{{inner}}}"))
                ),
            ));
        }
        match (var(name), default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err((
                    path.to_string(),
                    format!(
                        "${{{name}}} is not set in the gateway's environment (set it, or write ${{{name}:-default}})"
                    ),
                ));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value shown in a message: strings and scalars as JSON, others by kind.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => quoted(text),
        Value::Array(_) | Value::Object(_) => kind(value).to_string(),
        other => other.to_string(),
    }
}

/// A text in double quotes, escaped as JSON.
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::new();
    disclose::internals::canonical::write_string(&mut out, text);
    out
}

/// A key in a path: bare when it is a plain word, quoted otherwise.
pub(crate) fn quote_key(key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain { key.to_string() } else { quoted(key) }
}
