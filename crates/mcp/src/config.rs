//! The gateway's config: the `mcpServers` JSON that MCP clients already use
//! (Claude Desktop, Cursor, Claude Code's `.mcp.json`), or VS Code's
//! `mcp.json` (`servers`), read unchanged.
//!
//! Each entry's key names its origin (SPEC §1): the key itself when it is
//! one, else the key mapped by [`origin_of`] (`GitHub` → `github`,
//! `my_tools` → `my-tools`), or the entry's own `"origin"`. A stdio entry
//! has `command`, `args`, `env` and `cwd`; an HTTP entry has `type`
//! (`http`, also `streamable-http`), `url` and `headers`. `${VAR}` and
//! `${VAR:-default}` are taken from the gateway's environment in `command`,
//! `args`, `env`, `cwd`, `url` and `headers`, as Claude Code expands them
//! (VS Code's `${input:…}` is refused: the gateway cannot prompt). An entry
//! with `"disabled": true` is not read further and not started. Our own
//! keys are `approval` (`required`, the default, `never`, `writes`, or an
//! object of per-tool exceptions), `tools` (`allow` and `deny` globs),
//! `origin`, on a stdio entry `secrets` (the `env` keys whose values are
//! secrets whatever their names, beside those `secrets` finds by name), and
//! on an HTTP entry `oauth` (it signs in with OAuth: `oauth::OAuthEntry`);
//! keys that other clients read (`timeout`, `envFile`, …) are left
//! alone, named once on stderr as not read here.
//!
//! This module reads bytes and an environment lookup and returns a typed
//! [`Config`] or one [`ConfigError`] whose `Display` is the whole message
//! (`FILE:LINE:COLUMN: …` for text that is not JSON, `FILE: mcpServers.KEY…:
//! …` otherwise). It spawns nothing and reads no file itself.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::policy::{ApprovalRule, AskPolicy, Glob, ToolFilter};

/// A whole config: every server, by origin (byte order, the order of
/// admission).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The servers by origin.
    pub servers: BTreeMap<String, Server>,
    /// The origins in the order the file gives their entries (which
    /// server's resource wins when two list one URI).
    pub order: Vec<String>,
    /// Entries with `"disabled": true`, by path: not started.
    pub disabled: Vec<String>,
    /// Entries whose key is not an origin, by path, with the origin they
    /// serve as.
    pub mapped: Vec<(String, String)>,
    /// Keys of entries that other clients read and this gateway does not,
    /// as `mcpServers.KEY.NAME`, for one note on stderr.
    pub ignored: Vec<String>,
}

/// One upstream server.
#[derive(Clone, PartialEq)]
pub struct Server {
    /// The origin of its tools and prompts.
    pub origin: String,
    /// Its entry's place in the file (`mcpServers.KEY`), for messages.
    pub path: String,
    /// How it is reached.
    pub transport: Transport,
    /// Which of its tools are put to the user.
    pub approval: ApprovalRule,
    /// Which of its tools are admitted.
    pub tools: ToolFilter,
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
            .field("path", &self.path)
            .field("transport", &kind)
            .field("approval", &self.approval)
            .field("tools", &self.tools)
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
const KNOWN: [&str; 13] = [
    "type", "command", "args", "env", "cwd", "url", "headers", "approval", "secrets", "tools",
    "origin", "disabled", "oauth",
];

/// The origin a server's key maps to when it is not one itself: ASCII
/// letters lower-cased, digits kept, every run of any other characters
/// (`_`, spaces, dots, …) one `-`, none at either end, cut to 32
/// characters. `None` when nothing is left (a key of separators alone).
pub fn origin_of(key: &str) -> Option<String> {
    let mut origin = String::with_capacity(key.len().min(32));
    let mut pending_dash = false;
    for c in key.chars() {
        if c.is_ascii_alphanumeric() {
            if pending_dash && !origin.is_empty() {
                origin.push('-');
            }
            pending_dash = false;
            origin.push(c.to_ascii_lowercase());
        } else {
            pending_dash = true;
        }
        if origin.len() >= 32 {
            break;
        }
    }
    origin.truncate(32);
    let origin = origin.trim_end_matches('-').to_string();
    disclose::internals::naming::origin_is_valid(&origin).then_some(origin)
}

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
    let (section, servers) = match (top.get("mcpServers"), top.get("servers")) {
        (Some(_), Some(_)) => {
            return Err(at(
                String::new(),
                "the config has both \"mcpServers\" and \"servers\" (VS Code's); keep the servers in one of them".into(),
            ));
        }
        (Some(servers), None) => ("mcpServers", servers),
        (None, Some(servers)) => ("servers", servers),
        (None, None) => {
            return Err(at(
                String::new(),
                "the config has no \"mcpServers\" object (nor VS Code's \"servers\")".into(),
            ));
        }
    };
    let Value::Object(servers) = servers else {
        return Err(at(
            section.into(),
            format!("is {}, not an object of servers", kind(servers)),
        ));
    };
    let mut config = Config {
        servers: BTreeMap::new(),
        order: Vec::new(),
        disabled: Vec::new(),
        mapped: Vec::new(),
        ignored: Vec::new(),
    };
    // Which key holds each origin, to name both when two map to one.
    let mut holders: BTreeMap<String, String> = BTreeMap::new();
    for key in keys_in_file_order(bytes, section, servers) {
        let Some(entry) = servers.get(&key) else {
            continue;
        };
        let path = format!("{section}.{}", quote_key(&key));
        let Value::Object(entry) = entry else {
            return Err(at(path, format!("is {}, not an object", kind(entry))));
        };
        match entry.get("disabled") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => {
                config.disabled.push(path);
                continue;
            }
            Some(other) => {
                return Err(at(
                    format!("{path}.disabled"),
                    format!("is {}, not true or false", shown(other)),
                ));
            }
        }
        let origin = entry_origin(&key, entry, &path).map_err(|(path, m)| at(path, m))?;
        if let Some(holder) = holders.get(&origin) {
            return Err(at(
                path.clone(),
                format!(
                    "serves as origin {} as {holder} does; give one of them an \"origin\" of its own",
                    quoted(&origin)
                ),
            ));
        }
        holders.insert(origin.clone(), path.clone());
        if origin != key {
            config.mapped.push((path.clone(), origin.clone()));
        }
        let server = server(&origin, entry, &path, var).map_err(|(path, m)| at(path, m))?;
        for name in entry.keys().filter(|k| !KNOWN.contains(&k.as_str())) {
            config.ignored.push(format!("{path}.{}", quote_key(name)));
        }
        config.order.push(origin.clone());
        config.servers.insert(origin, server);
    }
    Ok(config)
}

/// The origin an entry serves as: its `"origin"`, its key when that is an
/// origin, or its key mapped by [`origin_of`].
fn entry_origin(key: &str, entry: &Map<String, Value>, path: &str) -> Result<String, Refused> {
    let valid = disclose::internals::naming::origin_is_valid;
    match entry.get("origin") {
        Some(Value::String(origin)) if valid(origin) => Ok(origin.clone()),
        Some(Value::String(origin)) => Err((
            format!("{path}.origin"),
            format!(
                "{} is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of the server's tools' names",
                quoted(origin)
            ),
        )),
        Some(other) => Err((
            format!("{path}.origin"),
            format!("is {}, not a string", kind(other)),
        )),
        None if valid(key) => Ok(key.to_string()),
        None => origin_of(key).ok_or_else(|| {
            (
                path.to_string(),
                format!(
                    "the server name {} has no letter or digit to make an origin of; give the entry an \"origin\" (1 to 32 lowercase letters, digits and inner hyphens)",
                    quoted(key)
                ),
            )
        }),
    }
}

/// The keys of `servers` in the order the file has them (serde_json's map
/// sorts them). The bytes were read whole already, so the second reading
/// cannot fail; if it did, byte order stands in.
fn keys_in_file_order(bytes: &[u8], section: &str, servers: &Map<String, Value>) -> Vec<String> {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

    /// A map's keys in order, its values skipped.
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut keys = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(key);
            }
            Ok(keys)
        }
    }
    impl<'de> DeserializeSeed<'de> for Keys {
        type Value = Vec<String>;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<String>, D::Error> {
            d.deserialize_map(self)
        }
    }
    /// The top object: the section's keys.
    struct Top<'s>(&'s str);
    impl<'de> Visitor<'de> for Top<'_> {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<String>, A::Error> {
            let mut found = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                if key == self.0 {
                    found = map.next_value_seed(Keys)?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(found)
        }
    }
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    match serde::Deserializer::deserialize_map(&mut reader, Top(section)) {
        Ok(keys) if keys.len() == servers.len() => keys,
        _ => servers.keys().cloned().collect(),
    }
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
    let approval = approval_rule(entry.get("approval"), &key("approval"))?;
    let tools = tool_filter(entry.get("tools"), &key("tools"))?;
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
        path: path.to_string(),
        transport,
        approval,
        tools,
    })
}

const APPROVAL_WORDS: &str = "\"required\" (the default), \"never\" or \"writes\"";

/// `"approval"`: a word, or `{"default": WORD, "never": [glob…],
/// "required": [glob…]}`.
fn approval_rule(value: Option<&Value>, here: &str) -> Result<ApprovalRule, Refused> {
    let word = |value: &Value, here: &str| match value {
        Value::String(text) => AskPolicy::from_word(text).ok_or_else(|| {
            (
                here.to_string(),
                format!("is {}; it is {APPROVAL_WORDS}", shown(value)),
            )
        }),
        other => Err((
            here.to_string(),
            format!("is {}; it is {APPROVAL_WORDS}", shown(other)),
        )),
    };
    let map = match value {
        None => return Ok(ApprovalRule::default()),
        Some(Value::Object(map)) => map,
        Some(other) => return word(other, here).map(ApprovalRule::of),
    };
    if let Some(unknown) = map
        .keys()
        .find(|k| !["default", "never", "required"].contains(&k.as_str()))
    {
        return Err((
            format!("{here}.{}", quote_key(unknown)),
            "is not read here: an approval object has \"default\", \"never\" and \"required\""
                .into(),
        ));
    }
    let default = match map.get("default") {
        None => AskPolicy::Required,
        Some(value) => word(value, &format!("{here}.default"))?,
    };
    Ok(ApprovalRule {
        default,
        never: globs(map.get("never"), &format!("{here}.never"))?,
        required: globs(map.get("required"), &format!("{here}.required"))?,
    })
}

/// `"tools"`: `{"allow": [glob…], "deny": [glob…]}`.
fn tool_filter(value: Option<&Value>, here: &str) -> Result<ToolFilter, Refused> {
    let map = match value {
        None => return Ok(ToolFilter::default()),
        Some(Value::Object(map)) => map,
        Some(other) => {
            return Err((
                here.to_string(),
                format!(
                    "is {}, not an object with \"allow\" and \"deny\" lists of tool names",
                    kind(other)
                ),
            ));
        }
    };
    if let Some(unknown) = map
        .keys()
        .find(|k| !["allow", "deny"].contains(&k.as_str()))
    {
        return Err((
            format!("{here}.{}", quote_key(unknown)),
            "is not read here: \"tools\" has \"allow\" and \"deny\"".into(),
        ));
    }
    let allow = match map.get("allow") {
        None => None,
        some => Some(globs(some, &format!("{here}.allow"))?),
    };
    Ok(ToolFilter {
        allow,
        deny: globs(map.get("deny"), &format!("{here}.deny"))?,
    })
}

/// A list of globs over tool names.
fn globs(value: Option<&Value>, here: &str) -> Result<Vec<Glob>, Refused> {
    let items = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err((
                here.to_string(),
                format!(
                    "is {}, not an array of tool names (globs with * and ?)",
                    kind(other)
                ),
            ));
        }
    };
    let mut globs = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::String(text) = item else {
            return Err((
                format!("{here}[{i}]"),
                format!("is {}, not a string", kind(item)),
            ));
        };
        globs.push(Glob::new(text.clone()));
    }
    Ok(globs)
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
        if inner.starts_with("input:") {
            return Err((
                path.to_string(),
                format!(
                    "{} asks VS Code to prompt for a value, and the gateway cannot prompt: put the value in the gateway's environment and write ${{VAR}}",
                    quoted(&format!("${{{inner}}}"))
                ),
            ));
        }
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
