//! OAuth-protected upstreams, end to end on 127.0.0.1, with real
//! components only: the MCP conformance suite's client `auth` scenarios
//! (npm `@modelcontextprotocol/conformance`, its own MCP and authorization
//! servers) through `e2e/conformance_client.py`; a FastMCP server behind
//! FastMCP's in-memory OAuth provider (`e2e/oauth_server.py`); mcp-remote
//! as a stdio upstream. The browser is `e2e/browser.py`, which follows the
//! authorization server's redirects back to `disclose mcp login`.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{
    ANSWER, Driver, Guard, Sdk, config, disclose, free_port, installed, is_error, root, text,
};

fn e2e(script: &str) -> String {
    root()
        .join("crates/mcp/e2e")
        .join(script)
        .display()
        .to_string()
}

/// `$BROWSER` for every sign-in here.
fn browser() -> String {
    format!("python3 {}", e2e("browser.py"))
}

/// The FastMCP server behind its in-memory OAuth provider, until dropped.
struct Notes {
    _server: Guard,
    port: u16,
}

impl Notes {
    /// Starts it; its access tokens live `access_seconds`.
    fn start(access_seconds: u64) -> Notes {
        let port = free_port();
        let mut child = Command::new(&installed().python)
            .arg(e2e("oauth_server.py"))
            .arg(port.to_string())
            .arg(access_seconds.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the FastMCP server starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("it speaks");
        assert_eq!(first.trim(), "listening");
        let server = Guard(child);
        let deadline = Instant::now() + ANSWER;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "FastMCP never listened");
            std::thread::sleep(Duration::from_millis(100));
        }
        Notes {
            _server: server,
            port,
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// One HTTP/1.1 request to it: the status and the body.
    fn request(&self, method: &str, path: &str, form: &str) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream.set_read_timeout(Some(ANSWER)).expect("a timeout");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
            self.port,
            form.len()
        );
        stream.write_all(head.as_bytes()).expect("sent");
        let mut raw = String::new();
        let _ = stream.read_to_string(&mut raw);
        let status = raw
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = raw.split("\r\n\r\n").nth(1).unwrap_or_default().to_string();
        (status, body)
    }

    /// How many codes and refresh grants it answered.
    fn state(&self) -> Value {
        let (status, body) = self.request("GET", "/test/state", "");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("json")
    }
}

/// A config with the server as `notes` (its entry `extra` on top), a token
/// directory and a recording directory, in a temporary directory.
struct Setup {
    dir: tempfile::TempDir,
    config: String,
}

impl Setup {
    fn new(notes: &Notes, extra: Value) -> Setup {
        let dir = tempfile::tempdir().expect("a directory");
        let mut entry = json!({"type": "http", "url": notes.url(), "approval": "never"});
        for (key, value) in extra.as_object().expect("an object") {
            entry[key] = value.clone();
        }
        let config = config(dir.path(), json!({ "notes": entry }))
            .display()
            .to_string();
        Setup { dir, config }
    }

    fn tokens(&self) -> String {
        self.dir.path().join("tokens").display().to_string()
    }

    fn records(&self) -> String {
        self.dir.path().join("records").display().to_string()
    }

    /// `disclose mcp SUB… --config C --token-dir T`.
    fn account(&self, sub: &[&str]) -> Output {
        Command::new(disclose())
            .arg("mcp")
            .args(sub)
            .args(["--config", &self.config, "--token-dir", &self.tokens()])
            .env("BROWSER", browser())
            .stdin(Stdio::null())
            .output()
            .expect("runs")
    }

    fn login(&self) -> Output {
        self.account(&["login", "notes", "--timeout", "60"])
    }

    /// The gateway, through the Python SDK's client.
    fn gateway(&self) -> Driver {
        Driver::start(
            Sdk::PythonLegacy,
            false,
            &[
                "--config",
                &self.config,
                "--token-dir",
                &self.tokens(),
                "--record",
                &self.records(),
            ],
        )
    }

    /// The one token file.
    fn token_file(&self) -> PathBuf {
        let files: Vec<PathBuf> = std::fs::read_dir(self.tokens())
            .expect("the token directory")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].clone()
    }

    fn record(&self) -> Value {
        serde_json::from_slice(&std::fs::read(self.token_file()).expect("read")).expect("json")
    }

    /// The exact command the gateway names.
    fn login_command(&self) -> String {
        format!(
            "disclose mcp login notes --config {} --token-dir {}",
            self.config,
            self.tokens()
        )
    }

    /// Every recording's text.
    fn recordings(&self) -> String {
        let mut all = String::new();
        if let Ok(entries) = std::fs::read_dir(self.records()) {
            for entry in entries {
                all.push_str(&std::fs::read_to_string(entry.expect("entry").path()).expect("read"));
            }
        }
        all
    }
}

/// The access token, refresh token and client secret of a sign-in.
fn secrets_of(record: &Value) -> Vec<String> {
    let tokens = &record["credentials"]["token_response"];
    [
        &tokens["access_token"],
        &tokens["refresh_token"],
        &record["client"]["secret"],
    ]
    .into_iter()
    .filter_map(|v| v.as_str().map(str::to_string))
    .collect()
}

fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_signed_in_server_is_served_refreshed_and_signed_in_again_and_no_token_leaks() {
    // Six-second access tokens: rmcp refreshes when half a token's life
    // is left, so no request here is sent with a token the server has
    // dropped, until the test drops them.
    let notes = Notes::start(6);
    let setup = Setup::new(&notes, json!({"oauth": {}}));
    let mut seen = Vec::new();

    // Never signed in: left out at start, the command named, the other
    // servers (none here) serving.
    let gateway = setup.gateway();
    let (_, stderr) = gateway.close();
    assert!(
        stderr.contains(&format!(
            "disclose: notes: left out: is not signed in: run `{}`",
            setup.login_command()
        )),
        "{stderr}"
    );
    let status = setup.account(&["auth-status"]);
    let listed = String::from_utf8_lossy(&status.stdout).into_owned();
    assert!(
        listed.starts_with("notes: needs sign-in: run `disclose mcp login notes"),
        "{listed}"
    );

    let login = setup.login();
    assert!(login.status.success(), "{}", stderr_of(&login));
    let stderr = stderr_of(&login);
    assert!(
        stderr.contains("/authorize?"),
        "the URL is printed: {stderr}"
    );
    assert!(stderr.contains("code_challenge_method=S256"), "{stderr}");
    assert!(stderr.contains("resource=http"), "{stderr}");
    let file = setup.token_file();
    let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{}", file.display());
    let record = setup.record();
    assert_eq!(record["client"]["registration"], "dynamic");
    seen.extend(secrets_of(&record));
    // A public client (dynamic registration asks for one): no secret.
    assert_eq!(seen.len(), 2, "an access and a refresh token: {record}");
    let status = setup.account(&["auth-status"]);
    let listed = String::from_utf8_lossy(&status.stdout).into_owned();
    assert!(
        listed.contains("notes: signed in, access token expires at"),
        "{listed}"
    );
    for secret in &seen {
        assert!(!listed.contains(secret.as_str()) && !stderr.contains(secret.as_str()));
    }

    // Served, then served again by a new gateway with no new sign-in.
    let mut answers = Vec::new();
    let mut gateway = setup.gateway();
    let answer = gateway.call("notes__note", json!({"text": "one"}), &[]);
    assert_eq!(text(&answer), "noted: one", "{answer}");
    answers.push(answer);
    let (_, mut stderr) = gateway.close();
    let mut gateway = setup.gateway();
    let answer = gateway.call("notes__note", json!({"text": "two"}), &[]);
    assert_eq!(text(&answer), "noted: two", "{answer}");
    answers.push(answer);
    assert_eq!(notes.state()["codes"], 1, "one sign-in for both gateways");

    // Expired: refreshed before the next request, which goes through.
    std::thread::sleep(Duration::from_millis(6500));
    let answer = gateway.call("notes__note", json!({"text": "three"}), &[]);
    assert_eq!(text(&answer), "noted: three", "{answer}");
    answers.push(answer);
    let refreshes = notes.state()["refreshes"].as_u64().expect("a count");
    assert!(refreshes >= 1, "{}", notes.state());
    let refreshed = setup.record();
    assert_ne!(
        refreshed["credentials"]["token_response"]["access_token"],
        record["credentials"]["token_response"]["access_token"]
    );
    seen.extend(secrets_of(&refreshed));

    // The server forgets its access tokens: a 401, one refresh, the call
    // sent again and answered.
    let (status, _) = notes.request("POST", "/test/drop-access", "");
    assert_eq!(status, 200);
    let answer = gateway.call("notes__note", json!({"text": "four"}), &[]);
    assert_eq!(text(&answer), "noted: four", "{answer}");
    answers.push(answer);
    assert!(notes.state()["refreshes"].as_u64() > Some(refreshes));
    let current = setup.record();
    seen.extend(secrets_of(&current));

    // The refresh token revoked (RFC 7009, as the provider's user would):
    // the next call says to sign in again, and so does stderr.
    let refresh = current["credentials"]["token_response"]["refresh_token"]
        .as_str()
        .expect("a refresh token")
        .to_string();
    let client = current["client"]["id"].as_str().expect("an id").to_string();
    let (status, body) = notes.request(
        "POST",
        "/revoke",
        // A public client authenticates with an empty secret.
        &format!("token={refresh}&client_id={client}&client_secret="),
    );
    assert_eq!(status, 200, "{body}");
    let answer = gateway.call("notes__note", json!({"text": "five"}), &[]);
    assert!(is_error(&answer), "{answer}");
    assert!(
        text(&answer).contains(&format!("sign in again with `{}`", setup.login_command())),
        "{answer}"
    );
    answers.push(answer);
    let again = gateway.call("notes__note", json!({"text": "six"}), &[]);
    assert!(
        text(&again).contains(&setup.login_command()),
        "left out until login: {again}"
    );
    answers.push(again);
    let listed = String::from_utf8_lossy(&setup.account(&["auth-status"]).stdout).into_owned();
    assert!(
        listed.contains("needs sign-in (the authorization server refused its refresh token)"),
        "{listed}"
    );

    // Signed in again while the gateway serves: its next call goes through.
    let login = setup.login();
    assert!(login.status.success(), "{}", stderr_of(&login));
    stderr.push_str(&stderr_of(&login));
    seen.extend(secrets_of(&setup.record()));
    let answer = gateway.call("notes__note", json!({"text": "seven"}), &[]);
    assert_eq!(text(&answer), "noted: seven", "{answer}");
    answers.push(answer);
    let (_, last) = gateway.close();
    stderr.push_str(&last);
    assert!(
        stderr.contains(&format!(
            "notes: refused its token (401) and it could not be refreshed: sign in again with `{}`",
            setup.login_command()
        )),
        "{stderr}"
    );

    // No token anywhere: stderr, results, recordings.
    let results = serde_json::to_string(&answers).expect("json");
    let recordings = setup.recordings();
    assert!(
        recordings.contains("notes__note"),
        "the calls were recorded"
    );
    seen.sort();
    seen.dedup();
    for secret in &seen {
        assert!(!stderr.contains(secret.as_str()), "stderr holds a token");
        assert!(!results.contains(secret.as_str()), "a result holds a token");
        assert!(
            !recordings.contains(secret.as_str()),
            "a recording holds a token"
        );
    }

    // logout forgets it.
    let logout = setup.account(&["logout", "notes"]);
    assert!(logout.status.success(), "{}", stderr_of(&logout));
    assert!(!setup.token_file_exists());
}

impl Setup {
    fn token_file_exists(&self) -> bool {
        std::fs::read_dir(self.tokens()).is_ok_and(|entries| {
            entries
                .filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "json"))
        })
    }
}

#[test]
fn a_token_file_others_may_read_is_refused_and_a_server_asking_for_oauth_names_login() {
    let notes = Notes::start(3600);
    // No "oauth": the server's 401 names its resource metadata.
    let setup = Setup::new(&notes, json!({}));
    let gateway = setup.gateway();
    let (_, stderr) = gateway.close();
    assert!(
        stderr.contains(&format!(
            "disclose: notes: left out: asks to be signed in (OAuth): run `{}`",
            setup.login_command()
        )),
        "{stderr}"
    );
    let login = setup.login();
    assert!(login.status.success(), "{}", stderr_of(&login));
    let mut gateway = setup.gateway();
    let answer = gateway.call("notes__note", json!({"text": "hi"}), &[]);
    assert_eq!(text(&answer), "noted: hi", "{answer}");
    gateway.close();

    let file = setup.token_file();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let gateway = setup.gateway();
    let (_, stderr) = gateway.close();
    assert!(
        stderr.contains(&format!(
            "disclose: notes: left out: {}: has mode 0644",
            file.display()
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("a token file must be 0600: refused"),
        "{stderr}"
    );
    let login = setup.login();
    assert_eq!(login.status.code(), Some(2), "{}", stderr_of(&login));
    assert!(stderr_of(&login).contains("has mode 0644"));
}

#[test]
fn a_403_asking_for_more_scope_names_login_which_asks_for_it() {
    let notes = Notes::start(3600);
    let setup = Setup::new(&notes, json!({"oauth": {}}));
    let login = setup.login();
    assert!(login.status.success(), "{}", stderr_of(&login));
    assert!(
        stderr_of(&login).contains("scope=notes&"),
        "{}",
        stderr_of(&login)
    );
    let mut gateway = setup.gateway();
    let answer = gateway.call("notes__archive", json!({"text": "old"}), &[]);
    assert!(is_error(&answer), "{answer}");
    assert_eq!(
        text(&answer),
        format!(
            "disclose: server \"notes\" needs more access (scope \"notes notes:admin\"), which the next sign-in asks for: sign in again with `{}`\n",
            setup.login_command()
        )
    );
    assert_eq!(
        setup.record()["required_scopes"],
        json!(["notes", "notes:admin"])
    );
    let login = setup.login();
    assert!(login.status.success(), "{}", stderr_of(&login));
    assert!(
        stderr_of(&login).contains("scope=notes+notes%3Aadmin&"),
        "{}",
        stderr_of(&login)
    );
    let answer = gateway.call("notes__archive", json!({"text": "old"}), &[]);
    assert_eq!(text(&answer), "archived: old", "{answer}");
    assert!(setup.record().get("required_scopes").is_none());
    gateway.close();
}

#[test]
fn mcp_remote_as_a_stdio_upstream_still_signs_in_by_itself() {
    let notes = Notes::start(3600);
    let dir = tempfile::tempdir().expect("a directory");
    let remote = installed().node_modules.join("mcp-remote/dist/proxy.js");
    let callback = free_port().to_string();
    let config = config(
        dir.path(),
        json!({"remote": {
            "command": "node",
            "args": [remote.display().to_string(), notes.url(), callback, "--host", "127.0.0.1"],
            "env": {"BROWSER": browser(), "MCP_REMOTE_CONFIG_DIR": dir.path().join("mcp-auth").display().to_string()},
            "approval": "never"
        }}),
    )
    .display()
    .to_string();
    let mut gateway = Driver::start(
        Sdk::PythonLegacy,
        false,
        &["--config", &config, "--start-timeout", "90"],
    );
    let answer = gateway.call("remote__note", json!({"text": "via mcp-remote"}), &[]);
    assert_eq!(text(&answer), "noted: via mcp-remote", "{answer}");
    gateway.close();
    assert_eq!(notes.state()["codes"], 1);
}

/// What a conformance scenario is expected to show.
enum Expect {
    /// Every check passes.
    Pass,
    /// Every check passes but these, for the reason given.
    FailsOnly(&'static [&'static str], &'static str),
}

/// The suite's client scenarios for a client that signs in interactively
/// (auth/client-credentials-basic, -jwt and cross-app-access-complete-flow
/// are machine-to-machine grants, which `login` does not make).
const SCENARIOS: &[(&str, Expect)] = &[
    ("auth/metadata-default", Expect::Pass),
    ("auth/metadata-var1", Expect::Pass),
    ("auth/metadata-var2", Expect::Pass),
    ("auth/metadata-var3", Expect::Pass),
    ("auth/basic-cimd", Expect::Pass),
    ("auth/scope-from-www-authenticate", Expect::Pass),
    ("auth/scope-from-scopes-supported", Expect::Pass),
    ("auth/scope-omitted-when-undefined", Expect::Pass),
    (
        "auth/scope-step-up",
        Expect::FailsOnly(
            &["scope-step-up-escalation"],
            "the 403 comes only on tools/call of the suite's tool, which has no description, and the catalog admits no tool without one (SPEC §2); the step-up itself is a_403_asking_for_more_scope_names_login_which_asks_for_it",
        ),
    ),
    ("auth/scope-retry-limit", Expect::Pass),
    ("auth/token-endpoint-auth-basic", Expect::Pass),
    ("auth/token-endpoint-auth-post", Expect::Pass),
    ("auth/token-endpoint-auth-none", Expect::Pass),
    ("auth/pre-registration", Expect::Pass),
    (
        "auth/2025-03-26-oauth-metadata-backcompat",
        Expect::FailsOnly(
            &[
                "client-registration",
                "authorization-request",
                "token-request",
            ],
            "its metadata at /.well-known/oauth-authorization-server names the issuer .../oauth; RFC 8414 §3.3 has a client refuse metadata whose issuer is not the one it was fetched for, and rmcp does",
        ),
    ),
    ("auth/2025-03-26-oauth-endpoint-fallback", Expect::Pass),
    ("auth/resource-mismatch", Expect::Pass),
    ("auth/offline-access-scope", Expect::Pass),
    ("auth/offline-access-not-supported", Expect::Pass),
];

#[test]
fn the_conformance_suite_s_sign_in_scenarios_pass_through_login_and_the_gateway() {
    // Four scenarios at a time: each spends about a third of its seven
    // seconds on a CPU, the rest waiting on Node, Python and the loopback.
    let wrong: Vec<String> = std::thread::scope(|scope| {
        let mut wrong = Vec::new();
        for batch in SCENARIOS.chunks(4) {
            let runs: Vec<_> = batch
                .iter()
                .map(|(scenario, expect)| scope.spawn(move || judge(scenario, expect)))
                .collect();
            wrong.extend(
                runs.into_iter()
                    .filter_map(|run| run.join().expect("a scenario")),
            );
        }
        wrong
    });
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// Runs one scenario; what is wrong with its checks, if anything.
fn judge(scenario: &str, expect: &Expect) -> Option<String> {
    let suite = installed()
        .node_modules
        .join("@modelcontextprotocol/conformance/dist/index.js");
    let out = tempfile::tempdir().expect("a directory");
    let run = Command::new("node")
        .arg("--import")
        .arg(e2e("node20.mjs"))
        .arg(&suite)
        .args(["client", "--scenario", scenario, "--timeout", "60000", "-o"])
        .arg(out.path())
        .arg("--command")
        .arg(format!("python3 {}", e2e("conformance_client.py")))
        .env("DISCLOSE", disclose())
        .stdin(Stdio::null())
        .output()
        .expect("the suite runs");
    let checks = checks_in(out.path());
    if checks.is_empty() {
        return Some(format!(
            "{scenario}: no checks.json\n{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let failed: Vec<String> = checks
        .iter()
        .filter(|c| c["status"] != "SUCCESS" && c["status"] != "INFO")
        .map(|c| format!("{} {}: {}", c["status"], c["id"], c["description"]))
        .collect();
    let (allowed, why): (&[&str], &str) = match expect {
        Expect::Pass => (&[], ""),
        Expect::FailsOnly(ids, why) => (ids, why),
    };
    let unexpected: Vec<&String> = failed
        .iter()
        .filter(|f| !allowed.iter().any(|id| f.contains(&format!("\"{id}\""))))
        .collect();
    let missing: Vec<&&str> = allowed
        .iter()
        .filter(|id| !failed.iter().any(|f| f.contains(&format!("\"{id}\""))))
        .collect();
    (!unexpected.is_empty() || !missing.is_empty()).then(|| {
        format!(
            "{scenario}: unexpected {unexpected:?}; expected to fail ({why}) but passed {missing:?}\n{}",
            String::from_utf8_lossy(&run.stderr)
        )
    })
}

/// Every check of the run under `dir` (`dir/auth/NAME-TIME/checks.json`).
fn checks_in(dir: &Path) -> Vec<Value> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "checks.json") {
                let checks: Value =
                    serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
                found.extend(checks.as_array().cloned().unwrap_or_default());
            }
        }
    }
    found
}
