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
        if !server.tools.is_open() {
            let list = |globs: &[disclose_mcp::policy::Glob]| {
                globs.iter().map(ToString::to_string).collect::<Vec<_>>()
            };
            out.push_str(&format!(
                "{origin}: tools allow {:?} deny {:?}\n",
                server.tools.allow.as_deref().map(list),
                list(&server.tools.deny)
            ));
        }
    }
    if config.order.iter().ne(config.servers.keys()) {
        out.push_str(&format!("order {:?}\n", config.order));
    }
    for (path, origin) in &config.mapped {
        out.push_str(&format!("mapped {path} -> {origin}\n"));
    }
    for path in &config.disabled {
        out.push_str(&format!("disabled {path}\n"));
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
order ["github", "fs", "remote", "sh", "plain"]
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
    insta::assert_snapshot!(check("{}"), @r#"mcp.json: the config has no "mcpServers" object (nor VS Code's "servers")"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": []}"#), @"mcp.json: mcpServers: is an array, not an object of servers");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": "npx"}}"#), @"mcp.json: mcpServers.a: is a string, not an object");
}

#[test]
fn a_key_that_is_not_an_origin_is_mapped_or_refused_when_nothing_is_left() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {"My Server": {"command": "x"}}}"#), @r#"
my-server: stdio x [] env [] cwd None secrets [], approval required
mapped mcpServers."My Server" -> my-server
"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"git_hub": {"command": "x"}}}"#), @r#"
git-hub: stdio x [] env [] cwd None secrets [], approval required
mapped mcpServers.git_hub -> git-hub
"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"": {"command": "x"}}}"#), @r#"mcp.json: mcpServers."": the server name "" has no letter or digit to make an origin of; give the entry an "origin" (1 to 32 lowercase letters, digits and inner hyphens)"#);
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
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": "sometimes"}}}"#), @r#"mcp.json: mcpServers.a.approval: is "sometimes"; it is "required" (the default), "never" or "writes""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": false}}}"#), @r#"mcp.json: mcpServers.a.approval: is false; it is "required" (the default), "never" or "writes""#);
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
fn vs_code_s_servers_shape_is_read_and_its_inputs_are_refused_by_name() {
    insta::assert_snapshot!(check(r#"{"servers": {
        "fs": {"type": "stdio", "command": "node", "args": ["fs.js"], "envFile": "${workspaceFolder}/.env"},
        "web": {"type": "http", "url": "https://example.com/mcp"}
    }, "inputs": []}"#), @r#"
fs: stdio node ["fs.js"] env [] cwd None secrets [], approval required
web: http https://example.com/mcp headers [], approval required
ignored servers.fs.envFile
"#);
    insta::assert_snapshot!(check(r#"{"servers": {"web": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}"}}}}"#), @r#"mcp.json: servers.web.headers.Authorization: "${input:token}" asks VS Code to prompt for a value, and the gateway cannot prompt: put the value in the gateway's environment and write ${VAR}"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x"}}, "servers": {"b": {"command": "y"}}}"#), @r#"mcp.json: the config has both "mcpServers" and "servers" (VS Code's); keep the servers in one of them"#);
    insta::assert_snapshot!(check(r#"{"servers": []}"#), @"mcp.json: servers: is an array, not an object of servers");
}

#[test]
fn a_key_that_is_not_an_origin_is_mapped_or_given_one() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {
        "GitHub": {"command": "a"},
        "my_tools": {"command": "b"},
        "My Server (v2)": {"command": "c"},
        "a-very-long-server-name-that-goes-past-thirty-two": {"command": "d"},
        "__x__": {"command": "e"},
        "plain": {"command": "f"},
        "Other": {"command": "g", "origin": "named"}
    }}"#), @r#"
a-very-long-server-name-that-goe: stdio d [] env [] cwd None secrets [], approval required
github: stdio a [] env [] cwd None secrets [], approval required
my-server-v2: stdio c [] env [] cwd None secrets [], approval required
my-tools: stdio b [] env [] cwd None secrets [], approval required
named: stdio g [] env [] cwd None secrets [], approval required
plain: stdio f [] env [] cwd None secrets [], approval required
x: stdio e [] env [] cwd None secrets [], approval required
order ["github", "my-tools", "my-server-v2", "a-very-long-server-name-that-goe", "x", "plain", "named"]
mapped mcpServers.GitHub -> github
mapped mcpServers.my_tools -> my-tools
mapped mcpServers."My Server (v2)" -> my-server-v2
mapped mcpServers.a-very-long-server-name-that-goes-past-thirty-two -> a-very-long-server-name-that-goe
mapped mcpServers.__x__ -> x
mapped mcpServers.Other -> named
"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"GitHub": {"command": "a"}, "github": {"command": "b"}}}"#), @r#"mcp.json: mcpServers.github: serves as origin "github" as mcpServers.GitHub does; give one of them an "origin" of its own"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b", "origin": "a"}}}"#), @r#"mcp.json: mcpServers.b: serves as origin "a" as mcpServers.a does; give one of them an "origin" of its own"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "a", "origin": "Not_One"}}}"#), @r#"mcp.json: mcpServers.a.origin: "Not_One" is not a valid origin: 1 to 32 lowercase letters, digits and inner hyphens (SPEC §1), since it prefixes each of the server's tools' names"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "a", "origin": 7}}}"#), @"mcp.json: mcpServers.a.origin: is a number, not a string");
}

#[test]
fn a_disabled_entry_is_not_read_further() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {
        "off": {"command": "x", "env": {"T": "${UNSET}"}, "disabled": true},
        "on": {"command": "y", "disabled": false}
    }}"#), @r#"
on: stdio y [] env [] cwd None secrets [], approval required
disabled mcpServers.off
"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "disabled": "yes"}}}"#), @r#"mcp.json: mcpServers.a.disabled: is "yes", not true or false"#);
}

#[test]
fn tool_filters_and_approval_rules_read_as_the_issue_fixes_them() {
    insta::assert_snapshot!(check(r#"{"mcpServers": {
        "a": {"command": "x", "tools": {"allow": ["read_*", "list_?"], "deny": ["read_secret"]}, "approval": "writes"},
        "b": {"command": "y", "tools": {"deny": ["delete_*"]}, "approval": {"default": "never", "required": ["write_*"], "never": ["write_tmp"]}},
        "c": {"command": "z", "approval": {"never": ["get_*"]}}
    }}"#), @r#"
a: stdio x [] env [] cwd None secrets [], approval writes
a: tools allow Some(["read_*", "list_?"]) deny ["read_secret"]
b: stdio y [] env [] cwd None secrets [], approval never (never [write_tmp], required [write_*])
b: tools allow None deny ["delete_*"]
c: stdio z [] env [] cwd None secrets [], approval required (never [get_*], required [])
"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "tools": ["read_*"]}}}"#), @r#"mcp.json: mcpServers.a.tools: is an array, not an object with "allow" and "deny" lists of tool names"#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "tools": {"allow": "read_*"}}}}"#), @"mcp.json: mcpServers.a.tools.allow: is a string, not an array of tool names (globs with * and ?)");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "tools": {"allow": [1]}}}}"#), @"mcp.json: mcpServers.a.tools.allow[0]: is a number, not a string");
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "tools": {"include": []}}}}"#), @r#"mcp.json: mcpServers.a.tools.include: is not read here: "tools" has "allow" and "deny""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": {"default": "sometimes"}}}}"#), @r#"mcp.json: mcpServers.a.approval.default: is "sometimes"; it is "required" (the default), "never" or "writes""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": {"always": ["x"]}}}}"#), @r#"mcp.json: mcpServers.a.approval.always: is not read here: an approval object has "default", "never" and "required""#);
    insta::assert_snapshot!(check(r#"{"mcpServers": {"a": {"command": "x", "approval": {"never": "x"}}}}"#), @"mcp.json: mcpServers.a.approval.never: is a string, not an array of tool names (globs with * and ?)");
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
