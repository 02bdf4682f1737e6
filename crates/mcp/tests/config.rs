//! The config reader's messages, exactly (insta inline snapshots): every
//! refusal names the file and the place, `LINE:COLUMN` for text that is not
//! JSON and the key path otherwise; a value that may be a credential is
//! never shown.

use disclose_mcp::config::{Config, Transport, parse};

/// The gateway's environment in these tests.
fn var(name: &str) -> Option<String> {
    match name {
        "TOKEN" => Some("s3cret".to_string()),
        "HOME" => Some("/home/u".to_string()),
        _ => None,
    }
}

/// The message a config is refused with, or a summary of what it reads.
fn check(text: &str) -> String {
    match parse("mcp.json", text.as_bytes(), &var) {
        Err(error) => error.to_string(),
        Ok(config) => summary(&config),
    }
}

fn summary(config: &Config) -> String {
    let mut out = String::new();
    for (origin, server) in &config.servers {
        let transport = match &server.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
                secrets,
            } => format!("stdio {command} {args:?} env {env:?} cwd {cwd:?} secrets {secrets:?}"),
            Transport::Http {
                url,
                headers,
                oauth,
            } => format!(
                "http {url} headers {headers:?}{}",
                oauth
                    .as_ref()
                    .map(|o| format!(" oauth {o:?}"))
                    .unwrap_or_default()
            ),
        };
        out.push_str(&format!(
            "{origin}: {transport}, approval {}\n",
            server.approval
        ));
    }
    for key in &config.ignored {
        out.push_str(&format!("ignored {key}\n"));
    }
    out
}

#[test]
fn claude_desktop_and_claude_code_entries_read_unchanged() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {
        "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "${TOKEN}"}},
        "fs": {"command": "node", "args": ["${HOME}/fs.js", "${DATA:-/srv/data}"], "cwd": "${HOME}", "approval": "never"},
        "remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
        "sh": {"type": "streamable-http", "url": "http://127.0.0.1:8080/mcp", "disabled": false, "timeout": 5},
        "plain": {"type": "stdio", "command": "srv"}
    }}"#), @r#"
fs: stdio node ["/home/u/fs.js", "/srv/data"] env [] cwd Some("/home/u") secrets [], approval never
github: stdio npx ["-y", "@modelcontextprotocol/server-github"] env [("GITHUB_TOKEN", "s3cret")] cwd None secrets [], approval required
plain: stdio srv [] env [] cwd None secrets [], approval required
remote: http https://example.com/mcp headers [("Authorization", "Bearer s3cret")], approval required
sh: http http://127.0.0.1:8080/mcp headers [], approval required
ignored mcpServers.sh.disabled
ignored mcpServers.sh.timeout
"#);
}

#[test]
fn text_that_is_not_json_is_placed_by_line_and_column() {
    insta::assert_snapshot!(check("{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}"), @"mcp.json:2:24: the config is not JSON: trailing comma");
    insta::assert_snapshot!(check("{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"a\": {}}}"), @r#"mcp.json:1:40: the config is not JSON: duplicate key "a": a key may appear only once in an object"#);
    insta::assert_snapshot!(check(""), @"mcp.json:1:1: the config is not JSON: EOF while parsing a value");
}

#[test]
fn the_shape_is_named_by_key() {
    insta::assert_snapshot!(check("[]"), @r#"mcp.json: the config is an array, not an object with "mcpServers""#);
    insta::assert_snapshot!(check("{}"), @r#"mcp.json: the config has no "mcpServers" object"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": []}"#), @"mcp.json: mcpServers: is an array, not an object of servers");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": "npx"}}"#), @"mcp.json: mcpServers.a: is a string, not an object");
}

#[test]
fn a_key_that_is_not_an_origin_is_refused() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"My Server": {"command": "x"}}}"#), @r#"mcp.json: mcpServers."My Server": the server name "My Server" is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of its tools' names"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"git_hub": {"command": "x"}}}"#), @r#"mcp.json: mcpServers.git_hub: the server name "git_hub" is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of its tools' names"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"": {"command": "x"}}}"#), @r#"mcp.json: mcpServers."": the server name "" is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of its tools' names"#);
}

#[test]
fn entries_without_a_transport_or_with_an_unknown_one_are_refused() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {}}}"#), @r#"mcp.json: mcpServers.a: has neither "command" (a stdio server) nor "url" (an HTTP server)"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}"#), @r#"mcp.json: mcpServers.a.type: "sse" is not a transport this gateway speaks: "stdio", "http" or "streamable-http""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"type": 3}}}"#), @"mcp.json: mcpServers.a.type: is a number, not a string");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#), @r#"mcp.json: mcpServers.a.url: is set on a stdio server (it has "command")"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"type": "http", "command": "x"}}}"#), @r#"mcp.json: mcpServers.a.command: is set on an HTTP server (it has "url")"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "ftp://user:pw@h/x?k=v"}}}"#), @r#"mcp.json: mcpServers.a.url: "ftp://h/x" is not an http:// or https:// URL"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "  "}}}"#), @"mcp.json: mcpServers.a.command: is empty");
}

#[test]
fn fields_of_the_wrong_kind_are_refused_without_showing_values() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "args": "-y"}}}"#), @"mcp.json: mcpServers.a.args: is a string, not an array of strings");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "args": ["-y", 2]}}}"#), @"mcp.json: mcpServers.a.args[1]: is a number, not a string");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"K": 42}}}}"#), @"mcp.json: mcpServers.a.env.K: is a number, not a string");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "headers": ["x"]}}}"#), @"mcp.json: mcpServers.a.headers: is an array, not an object of strings");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": "sometimes"}}}"#), @r#"mcp.json: mcpServers.a.approval: is "sometimes"; it is "required" (the default) or "never""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": false}}}"#), @r#"mcp.json: mcpServers.a.approval: is false; it is "required" (the default) or "never""#);
}

#[test]
fn variables_are_expanded_or_the_unset_one_is_named() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"T": "${NOPE}"}}}}"#), @"mcp.json: mcpServers.a.env.T: ${NOPE} is not set in the gateway's environment (set it, or write ${NOPE:-default})");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "headers": {"Authorization": "Bearer ${NOPE}"}}}}"#), @"mcp.json: mcpServers.a.headers.Authorization: ${NOPE} is not set in the gateway's environment (set it, or write ${NOPE:-default})");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "args": ["${TOKEN"]}}}"#), @r#"mcp.json: mcpServers.a.args[0]: has "${" without its closing "}""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "args": ["${1X}"]}}}"#), @r#"mcp.json: mcpServers.a.args[0]: "${1X}" is not a variable name (letters, digits and _)"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "$HOME/${TOKEN}$"}}}"#), @"a: stdio $HOME/s3cret$ [] env [] cwd None secrets [], approval required");
}

#[test]
fn secrets_names_env_keys_of_a_stdio_server_and_nothing_else() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"PLAIN": "v", "OTHER": "w"}, "secrets": ["PLAIN"]}}}"#), @r#"a: stdio x [] env [("OTHER", "w"), ("PLAIN", "v")] cwd None secrets ["PLAIN"], approval required"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"PLAIN": "v"}, "secrets": ["PLAIN", "PLAN"]}}}"#), @r#"mcp.json: mcpServers.a.secrets[1]: "PLAN" is not a key of this server's "env""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "secrets": ["PLAIN"]}}}"#), @r#"mcp.json: mcpServers.a.secrets[0]: "PLAIN" is not a key of this server's "env""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"K": "v"}, "secrets": "K"}}}"#), @r#"mcp.json: mcpServers.a.secrets: is a string, not an array of "env" keys"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "env": {"K": "v"}, "secrets": [["K"]]}}}"#), @"mcp.json: mcpServers.a.secrets[0]: is an array, not a string");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "headers": {"K": "v"}, "secrets": ["K"]}}}"#), @r#"mcp.json: mcpServers.a.secrets: is set on an HTTP server (it names "env" keys of a stdio server; every header value is a secret already)"#);
}

#[test]
fn oauth_is_read_on_an_http_server_and_its_mistakes_are_placed() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "oauth": {}}}}"#), @"a: http http://h headers [] oauth OAuthEntry { client_id: None, client_secret: None, scopes: [], callback_port: None, client_metadata_url: None }, approval required");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "oauth": {"client_id": "cli", "client_secret": "${TOKEN}", "scopes": ["read"], "callback_port": 9000}}}}"#), @r#"a: http http://h headers [] oauth OAuthEntry { client_id: Some("cli"), client_secret: Some("…"), scopes: ["read"], callback_port: Some(9000), client_metadata_url: None }, approval required"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "oauth": {}}}}"#), @"mcp.json: mcpServers.a.oauth: is set on a stdio server (only an HTTP server signs in with OAuth)");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "oauth": {"client_secret": "${TOKEN}"}}}}"#), @r#"mcp.json: mcpServers.a.oauth.client_secret: is set without "client_id" (a secret belongs to a pre-registered client)"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "oauth": {"scope": "read"}}}}"#), @r#"mcp.json: mcpServers.a.oauth.scope: is not a key of "oauth" (client_id, client_secret, scopes, callback_port, client_metadata_url)"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"url": "http://h", "headers": {"Authorization": "Bearer ${TOKEN}"}, "oauth": {}}}}"#), @r#"mcp.json: mcpServers.a.headers.Authorization: is set on a server that signs in with OAuth ("oauth"): the gateway sends the signed-in token"#);
}
