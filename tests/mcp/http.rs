//! `disclose mcp --listen`: the gateway over streamable HTTP, end to end.
//! The official Python SDK's and TypeScript SDK's streamable HTTP clients
//! (and a raw HTTP/1.1 wire, for what no SDK sends) against
//! `disclose mcp --listen 127.0.0.1:0`, server-everything upstream: one run
//! and one recording per MCP session, approvals that stay in their session,
//! every refusal with its status and nothing else lost, the refused bind,
//! idle sessions ended, and no config secret in anything the test can read.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{
    Driver, Listening, RawSession, Sdk, canonical, config, everything, everything_http, gateway,
    http, is_error, post_headers, send, stream_head, text,
};

/// The token every test gateway here requires (from this variable).
const TOKEN: &str = "the-http-tests-token-0123456789abcdef";
const TOKEN_VAR: &str = "DISCLOSE_HTTP_TEST_TOKEN";

/// A config, its directory and a record directory.
struct Served {
    /// Kept until the test ends: the config and recordings are in it.
    _dir: tempfile::TempDir,
    config: String,
    record: String,
}

impl Served {
    fn new(servers: Value) -> Served {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let config = config(dir.path(), servers).display().to_string();
        let record = dir.path().join("record").display().to_string();
        Served {
            _dir: dir,
            config,
            record,
        }
    }

    /// `disclose mcp --config … --record … --listen 127.0.0.1:0
    /// --token-env …` and `more`.
    fn listen(&self, more: &[&str]) -> Listening {
        let mut args = vec![
            "--config",
            &self.config,
            "--record",
            &self.record,
            "--listen",
            "127.0.0.1:0",
            "--token-env",
            TOKEN_VAR,
        ];
        args.extend_from_slice(more);
        Listening::start(&args, &[(TOKEN_VAR, TOKEN)])
    }

    fn recordings(&self) -> Vec<(PathBuf, String)> {
        recordings(Path::new(&self.record))
    }
}

/// Every recording in `dir`, by name.
fn recordings(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a recording");
            (path, text)
        })
        .collect()
}

/// The model's tool calls a recording holds (`describe` and `call` ops),
/// after checking it is a whole session that replays with no breach.
fn replayed_calls(session: &str) -> Vec<String> {
    let parsed = disclose_replay::session::parse(session.as_bytes()).expect("the recording parses");
    let replayed = disclose_replay::replay::replay(&parsed);
    let breaches = disclose_replay::invariants::check(&parsed, &replayed);
    assert!(breaches.is_empty(), "{breaches:?}");
    let ops: Vec<&str> = replayed.steps.iter().map(|s| s.op).collect();
    assert!(
        ops.contains(&"start") && ops.contains(&"render") && ops.contains(&"tool_defs"),
        "{ops:?}"
    );
    session
        .lines()
        .filter(|l| l.contains("\"op\":\"call\"") || l.contains("\"op\":\"describe\""))
        .map(str::to_string)
        .collect()
}

/// The doors, as the library lists them.
fn doors() -> String {
    let run = disclose::Catalog::new().start(disclose::Mode::Work);
    run.tools_for(disclose::Provider::Mcp).as_str().to_string()
}

fn echo(message: &str) -> Value {
    json!({"message": message})
}

#[test]
fn two_http_sessions_each_get_their_own_run_recording_and_approvals() {
    let served = Served::new(json!({"everything": everything("required")}));
    let mut gateway = served.listen(&[]);
    let url = gateway.url();
    // Two sessions at once, one through each SDK's streamable HTTP client.
    let mut a = Driver::connect(Sdk::PythonLegacy, true, &url, Some(TOKEN));
    let mut b = Driver::connect(Sdk::TypeScript, true, &url, Some(TOKEN));
    for (client, name) in [(&a, "python"), (&b, "typescript")] {
        assert_eq!(client.ready["protocol"], json!("2025-11-25"), "{name}");
    }
    assert_eq!(a.ready["instructions"], b.ready["instructions"]);
    for client in [&mut a, &mut b] {
        let listed = client.send(json!({"op": "list_tools"}));
        assert_eq!(canonical(&listed["tools"]), doors());
    }
    // A allows echo for its session: asked once, then not.
    let a1 = a.call(
        "everything__echo",
        echo("from A"),
        &["allow for this session"],
    );
    assert_eq!(text(&a1), "Echo: from A", "{a1}");
    assert_eq!(a1["asked"].as_array().map(Vec::len), Some(1), "{a1}");
    let a2 = a.call("everything__echo", echo("A again"), &[]);
    assert_eq!(text(&a2), "Echo: A again");
    assert_eq!(a2["asked"], json!([]), "allowed for A's session");
    // B is asked: A's allowance is not B's. The question reaches B's client.
    let b1 = b.call("everything__echo", echo("from B"), &["decline"]);
    assert!(is_error(&b1), "{b1}");
    assert_eq!(
        text(&b1),
        "disclose: the user declined the call of \"everything__echo\"; it was not run\n"
    );
    assert_eq!(b1["asked"].as_array().map(Vec::len), Some(1), "{b1}");
    let b2 = b.call("everything__echo", echo("B once"), &["allow once"]);
    assert_eq!(text(&b2), "Echo: B once");
    // B's answers changed nothing of A's.
    let a3 = a.call("everything__echo", echo("A third"), &[]);
    assert_eq!(text(&a3), "Echo: A third");
    assert_eq!(a3["asked"], json!([]));
    let (status, stderr) = a.close();
    assert!(status.success(), "{stderr}");
    let (status, stderr) = b.close();
    assert!(status.success(), "{stderr}");
    // Both ended with DELETE: each closed its own recording.
    gateway.wait_stderr("session 1 ended");
    let log = gateway.wait_stderr("session 2 ended");
    let (status, log_at_stop) = gateway.stop();
    assert!(status.success(), "{log_at_stop}");
    let files = served.recordings();
    assert_eq!(files.len(), 2, "one recording a session: {files:?}");
    let of = |needle: &str| {
        let found: Vec<&(PathBuf, String)> =
            files.iter().filter(|(_, t)| t.contains(needle)).collect();
        assert_eq!(found.len(), 1, "{needle} is in one recording");
        replayed_calls(&found[0].1)
    };
    let a_calls = of("from A");
    assert_eq!(a_calls.len(), 3, "{a_calls:?}");
    assert!(a_calls.iter().all(|c| !c.contains("B")), "{a_calls:?}");
    let b_calls = of("from B");
    assert_eq!(b_calls.len(), 2, "{b_calls:?}");
    assert!(b_calls.iter().all(|c| !c.contains(" A")), "{b_calls:?}");
    for (path, session) in &files {
        assert!(!session.contains(TOKEN), "{}", path.display());
        assert!(
            log.contains(&format!("recording {} closed", path.display())),
            "{log}"
        );
    }
    assert!(!log_at_stop.contains(TOKEN));
}

/// Three sessions call the long-running operation at once with progress
/// (the two TypeScript clients with the same token, as each numbers its
/// own requests): each sees exactly its own call's notifications, in
/// order, and none of another session's.
#[test]
fn each_http_session_gets_the_progress_of_its_own_calls_only() {
    let served = Served::new(json!({"everything": everything("never")}));
    let gateway = served.listen(&[]);
    let url = gateway.url();
    let mut clients: Vec<(Driver, u32)> = [
        (Sdk::TypeScript, 4),
        (Sdk::TypeScript, 3),
        (Sdk::PythonLegacy, 2),
    ]
    .into_iter()
    .map(|(sdk, steps)| (Driver::connect(sdk, false, &url, Some(TOKEN)), steps))
    .collect();
    for (client, steps) in &mut clients {
        let args = json!({"name": "everything__trigger-long-running-operation", "args": {"duration": 1.5, "steps": steps}});
        client.ask(json!({"op": "call", "name": "call", "args": args, "progress": true}));
    }
    for (mut client, steps) in clients {
        let answer = client.answer();
        assert!(answer.get("error").is_none(), "{answer}");
        let seen: Vec<(f64, Option<f64>)> = answer["progress"]
            .as_array()
            .expect("progress")
            .iter()
            .map(|p| {
                (
                    p["progress"].as_f64().expect("a number"),
                    p["total"].as_f64(),
                )
            })
            .collect();
        let expected: Vec<(f64, Option<f64>)> = (1..=steps)
            .map(|i| (f64::from(i), Some(f64::from(steps))))
            .collect();
        assert_eq!(seen, expected, "{answer}");
        let (status, stderr) = client.close();
        assert!(status.success(), "{stderr}");
    }
    let (status, log) = gateway.stop();
    assert!(status.success(), "{log}");
}

#[test]
fn python_on_2026_07_28_over_http_is_answered_by_the_sessionless_run() {
    let served = Served::new(json!({"everything": everything("required")}));
    let mut gateway = served.listen(&[]);
    let mut client = Driver::connect(Sdk::PythonModern, true, &gateway.url(), Some(TOKEN));
    // server/discover: 2026-07-28, which has no session.
    assert_eq!(client.ready["protocol"], json!("2026-07-28"));
    let listed = client.send(json!({"op": "list_tools"}));
    assert_eq!(canonical(&listed["tools"]), doors());
    let once = client.call("everything__echo", echo("modern"), &["allow once"]);
    assert_eq!(text(&once), "Echo: modern", "{once}");
    // Nothing ties two requests to one client: no allowance is kept.
    let session = client.call("everything__echo", echo("s1"), &["allow for this session"]);
    assert_eq!(text(&session), "Echo: s1", "{session}");
    let again = client.call("everything__echo", echo("s2"), &["decline"]);
    assert_eq!(again["asked"].as_array().map(Vec::len), Some(1), "{again}");
    assert!(is_error(&again), "{again}");
    let (status, stderr) = client.close();
    assert!(status.success(), "{stderr}");
    gateway.wait_stderr("sessionless run 1 started");
    let (status, log) = gateway.stop();
    assert!(status.success(), "{log}");
    assert!(log.contains("sessionless run 1 ended after"), "{log}");
    let files = served.recordings();
    assert_eq!(files.len(), 1, "{files:?}");
    // Each retry of an approval round is the same call, recorded once.
    let calls = replayed_calls(&files[0].1);
    assert_eq!(calls.len(), 3, "{calls:?}");
}

#[test]
fn every_refusal_has_its_status_and_loses_nothing() {
    let served = Served::new(json!({"everything": everything("never")}));
    let mut gateway = served.listen(&[
        "--max-sessions",
        "2",
        "--max-calls",
        "1",
        "--max-body",
        "2048",
    ]);
    let port = gateway.port;
    let token = Some(TOKEN);
    let describe = |name: &str| json!({"name": name});
    let mut a = RawSession::open(port, token).unwrap_or_else(|r| panic!("session A: {r:?}"));
    let first = a.call("describe", describe("everything__echo"));
    assert_eq!(first.status, 200, "{first:?}");
    assert!(
        first.text().starts_with("tool everything__echo\n"),
        "{first:?}"
    );
    let message = json!({"jsonrpc": "2.0", "id": 90, "method": "tools/call", "params": {"name": "describe", "arguments": {"name": "echo"}}});
    // Who is asking: a wrong token, none, a foreign origin, a rebound host.
    let wrong = send(
        port,
        Some("not-the-token-not-the-token"),
        Some(&a.id),
        &message,
    );
    assert_eq!(wrong.status, 401, "{wrong:?}");
    assert_eq!(
        wrong.header("www-authenticate"),
        Some("Bearer realm=\"disclose\"")
    );
    let missing = send(port, None, Some(&a.id), &message);
    assert_eq!(missing.status, 401, "{missing:?}");
    let with = |extra: &[(&'static str, &'static str)], body: &[u8]| {
        let headers = post_headers(token, extra);
        let mut headers: Vec<(&str, String)> = headers;
        headers.push(("Mcp-Session-Id", a.id.clone()));
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        http(port, "POST", &headers, body)
    };
    let body = message.to_string();
    let foreign = with(&[("Origin", "http://evil.example")], body.as_bytes());
    assert_eq!(foreign.status, 403, "{foreign:?}");
    let null = with(&[("Origin", "null")], body.as_bytes());
    assert_eq!(null.status, 403, "{null:?}");
    let rebound = with(&[("Host", "evil.example")], body.as_bytes());
    assert_eq!(rebound.status, 403, "{rebound:?}");
    let local = with(&[("Origin", "http://localhost:3000")], body.as_bytes());
    assert_eq!(local.status, 200, "a loopback origin is allowed: {local:?}");
    // What it may cost: a body over the limit, declared or streamed.
    let big = json!({"jsonrpc": "2.0", "id": 91, "method": "tools/call", "params": {"name": "describe", "arguments": {"name": "x".repeat(4096)}}}).to_string();
    let declared = with(&[], big.as_bytes());
    assert_eq!(declared.status, 413, "{declared:?}");
    let chunked = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    let streamed = with(&[("Transfer-Encoding", "chunked")], chunked.as_bytes());
    assert_eq!(streamed.status, 413, "{streamed:?}");
    // Not JSON-RPC: not JSON, then JSON that is no message.
    let not_json = with(&[], b"hello");
    assert_eq!(not_json.status, 400, "{not_json:?}");
    assert_eq!(not_json.messages()[0]["error"]["code"], json!(-32700));
    let not_message = with(&[], br#"{"hello": "world"}"#);
    assert_eq!(not_message.status, 400, "{not_message:?}");
    assert_eq!(not_message.messages()[0]["error"]["code"], json!(-32600));
    // An unsupported protocol version: 400, from rmcp.
    let version = with(&[("MCP-Protocol-Version", "1999-01-01")], body.as_bytes());
    assert_eq!(version.status, 400, "{version:?}");
    // A session's answers come as an SSE stream; its GET opens the stream
    // of the server's own messages.
    assert_eq!(local.header("content-type"), Some("text/event-stream"));
    let auth = format!("Bearer {TOKEN}");
    let stream = stream_head(
        port,
        &[
            ("Authorization", &auth),
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", &a.id),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
    );
    assert_eq!(stream.status, 200, "{stream:?}");
    assert_eq!(stream.header("content-type"), Some("text/event-stream"));
    // An unknown session, by POST, GET and DELETE.
    let unknown = send(port, token, Some("no-such-session"), &message);
    assert_eq!(unknown.status, 404, "{unknown:?}");
    for method in ["GET", "DELETE"] {
        let reply = http(
            port,
            method,
            &[
                ("Authorization", &auth),
                ("Accept", "text/event-stream"),
                ("Mcp-Session-Id", "no-such-session"),
            ],
            b"",
        );
        assert_eq!(reply.status, 404, "{method}: {reply:?}");
    }
    // Sessions: two at most; the third is refused until one ends.
    let mut b = RawSession::open(port, token).unwrap_or_else(|r| panic!("session B: {r:?}"));
    let third = RawSession::open(port, token)
        .err()
        .expect("a third session is refused");
    assert_eq!(third.status, 503, "{third:?}");
    assert!(third.header("retry-after").is_some(), "{third:?}");
    // Calls in flight: one a session. A's second is refused; B's runs.
    let mut a_slow = a.clone();
    let slow = std::thread::spawn(move || {
        // Refused while one of the probes below holds A's one call: again.
        loop {
            let reply = a_slow.call(
                "call",
                json!({"name": "everything__trigger-long-running-operation", "args": {"duration": 3, "steps": 3}}),
            );
            if reply.status != 429 {
                return reply;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let busy = loop {
        let reply = a.call("describe", describe("everything__get-sum"));
        if reply.status == 429 {
            break reply;
        }
        assert_eq!(reply.status, 200, "{reply:?}");
        assert!(
            Instant::now() < deadline,
            "A's second call was never refused"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(busy.header("retry-after").is_some(), "{busy:?}");
    let other = b.call("describe", describe("everything__get-sum"));
    assert_eq!(other.status, 200, "B is not A: {other:?}");
    let long = slow.join().expect("the slow call");
    assert_eq!(long.status, 200, "{long:?}");
    assert!(
        long.text().starts_with("Long running operation completed"),
        "{long:?}"
    );
    // After every refusal, A still answers, and its stream opens.
    let after = a.call("describe", describe("everything__echo"));
    assert_eq!(after.status, 200, "{after:?}");
    assert_eq!(after.text(), first.text());
    // B ends: its slot is free again.
    let ended = b.delete();
    assert_eq!(ended.status, 204, "{ended:?}");
    let mut c = RawSession::open(port, token).unwrap_or_else(|r| panic!("session C: {r:?}"));
    assert_eq!(c.call("describe", describe("x")).status, 200);
    assert_eq!(a.delete().status, 204);
    assert_eq!(c.delete().status, 204);
    gateway.wait_stderr("session 3 ended");
    let (status, log) = gateway.stop();
    assert!(status.success(), "{log}");
    for code in ["401", "403", "413", "400", "404", "503", "429"] {
        assert!(
            log.contains(&format!(": {code} ")),
            "no refusal {code} logged:\n{log}"
        );
    }
    assert!(!log.contains(TOKEN), "the token was logged");
    // No recording was cut, and none holds a refused request.
    let files = served.recordings();
    assert_eq!(files.len(), 3, "{files:?}");
    let calls: Vec<Vec<String>> = files.iter().map(|(_, t)| replayed_calls(t)).collect();
    let a_calls = calls
        .iter()
        .find(|c| {
            c.iter()
                .any(|l| l.contains("trigger-long-running-operation"))
        })
        .expect("A's recording");
    // A's: the first describe, the localhost-origin one, the slow call,
    // the describes before the refusal, and the last.
    assert!(a_calls.len() >= 4, "{a_calls:?}");
    for (_, session) in &files {
        assert!(!session.contains(TOKEN));
        assert!(!session.contains("xxxxxxxx"), "a refused body was recorded");
        assert!(!session.contains("hello"), "a refused body was recorded");
    }
}

#[test]
fn a_non_loopback_address_without_a_token_exits_2() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = config(dir.path(), json!({})).display().to_string();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        gateway()
            .args(["--config", config.as_str()])
            .args(args)
            .envs(env.iter().copied())
            .env_remove("DISCLOSE_UNSET_TOKEN")
            .output()
            .expect("the gateway runs")
    };
    let refused = run(&["--listen", "0.0.0.0:0"], &[]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(
        stderr,
        "disclose: --listen 0.0.0.0:0: not a loopback address, and no token: anyone who can reach it could call every tool behind the gateway with its credentials. Give a token with --token-env VAR (the token in the variable VAR), or listen on 127.0.0.1\n"
    );
    let unset = run(
        &[
            "--listen",
            "0.0.0.0:0",
            "--token-env",
            "DISCLOSE_UNSET_TOKEN",
        ],
        &[],
    );
    assert_eq!(unset.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&unset.stderr),
        "disclose: --token-env DISCLOSE_UNSET_TOKEN: the variable is not set (or not UTF-8); put the token in it\n"
    );
    let short = run(
        &["--listen", "127.0.0.1:0", "--token-env", TOKEN_VAR],
        &[(TOKEN_VAR, "short")],
    );
    assert_eq!(short.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&short.stderr).contains("shorter than 16 characters"),
        "{short:?}"
    );
    assert!(!String::from_utf8_lossy(&short.stderr).contains("short\n"));
    let without_listen = run(&["--token-env", TOKEN_VAR], &[(TOKEN_VAR, TOKEN)]);
    assert_eq!(without_listen.status.code(), Some(2), "{without_listen:?}");
    let idle = run(&["--listen", "127.0.0.1:0", "--idle-timeout", "30"], &[]);
    assert_eq!(idle.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&idle.stderr)
            .contains("--idle-timeout 30 s is not longer than --call-timeout 60 s"),
        "{idle:?}"
    );
    // With a token, any address serves.
    let mut open = gateway()
        .args([
            "--config",
            config.as_str(),
            "--listen",
            "0.0.0.0:0",
            "--token-env",
            TOKEN_VAR,
        ])
        .env(TOKEN_VAR, TOKEN)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the gateway starts");
    let stderr = open.stderr.take().expect("stderr");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
    let said = lines
        .find_map(|l| l.ok().filter(|l| l.contains("listening on")))
        .expect("it listens");
    assert!(
        said.starts_with("disclose: listening on http://0.0.0.0:"),
        "{said}"
    );
    assert!(said.contains("a bearer token is required"), "{said}");
    // SAFETY: kill only sends a signal, to the gateway this test started.
    unsafe { libc::kill(i32::try_from(open.id()).expect("a pid"), libc::SIGTERM) };
    assert!(open.wait().expect("it stops").success());
}

#[test]
fn no_config_secret_reaches_any_output_of_a_whole_http_session() {
    let env_secret = "planted-env-secret-7f3a91c2";
    let header_secret = "planted-header-secret-55e0b7d4";
    let bearer_secret = "planted-bearer-secret-c19a0e33";
    let (_upstream, url) = everything_http();
    let mut stdio = everything("never");
    stdio["env"] = json!({"PLANTED_TOKEN": env_secret, "TZ": "America/New_York"});
    let served = Served::new(json!({
        "everything": stdio,
        "everything-http": {"type": "http", "url": url, "approval": "never", "headers": {"X-Planted": header_secret, "Authorization": format!("Bearer {bearer_secret}")}},
        "unreachable": {"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Planted": header_secret}},
    }));
    let gateway = served.listen(&["--start-timeout", "10"]);
    let mut outputs = Vec::new();
    for sdk in [Sdk::PythonLegacy, Sdk::TypeScript] {
        let mut client = Driver::connect(sdk, false, &gateway.url(), Some(TOKEN));
        outputs.push(client.ready.to_string());
        // The server prints its environment: the gateway scrubs it.
        let env = client.call("everything__get-env", json!({}), &[]);
        let printed: Value = serde_json::from_str(&text(&env)).expect("get-env prints JSON");
        assert_eq!(
            printed["PLANTED_TOKEN"],
            json!("[redacted by disclose]"),
            "{sdk:?}"
        );
        assert_eq!(printed["TZ"], json!("America/New_York"), "{sdk:?}");
        outputs.push(env.to_string());
        for answer in [
            client.call("everything-http__echo", echo("through http"), &[]),
            client.call("everything__echo", echo("through stdio"), &[]),
            client.describe("everything-http__echo"),
            client.describe("environment variables"),
            client.call("everything-http__get-env", json!({}), &[]),
            client.send(json!({"op": "list_tools"})),
        ] {
            assert!(answer.get("error").is_none(), "{sdk:?}: {answer}");
            outputs.push(answer.to_string());
        }
        let (status, stderr) = client.close();
        assert!(status.success(), "{stderr}");
        outputs.push(stderr);
    }
    let (status, log) = gateway.stop();
    assert!(status.success(), "{log}");
    assert!(log.contains("unreachable: left out"), "{log}");
    outputs.push(log);
    for (path, session) in served.recordings() {
        outputs.push(format!("{}\n{session}", path.display()));
    }
    for output in &outputs {
        for secret in [env_secret, header_secret, bearer_secret, TOKEN] {
            assert!(!output.contains(secret), "{secret} leaked into:\n{output}");
        }
    }
    assert!(outputs.len() > 10);
}

#[test]
fn an_idle_session_is_ended_and_its_recording_closed() {
    let served = Served::new(json!({}));
    let mut gateway = served.listen(&["--idle-timeout", "2", "--call-timeout", "1"]);
    let mut session = RawSession::open(gateway.port, Some(TOKEN)).expect("a session");
    let reply = session.call("describe", json!({"name": "anything"}));
    assert_eq!(reply.status, 200, "{reply:?}");
    let started = Instant::now();
    let log = gateway.wait_stderr("session 1 ended after 1 tool call; recording");
    assert!(started.elapsed() < Duration::from_secs(10));
    let gone = session.call("describe", json!({"name": "anything"}));
    assert_eq!(gone.status, 404, "an ended session is unknown: {gone:?}");
    let files = served.recordings();
    assert_eq!(files.len(), 1);
    assert!(log.contains(&format!("recording {} closed", files[0].0.display())));
    assert_eq!(replayed_calls(&files[0].1).len(), 1);
    // A new session is served as ever; the gateway's stop ends it too,
    // its recording closed.
    let mut next = RawSession::open(gateway.port, Some(TOKEN)).expect("a new session");
    assert_eq!(next.call("describe", json!({"name": "x"})).status, 200);
    let (status, log) = gateway.stop();
    assert!(status.success(), "{log}");
    assert!(
        log.contains("session 2 ended after 1 tool call; recording"),
        "{log}"
    );
    let files = served.recordings();
    assert_eq!(files.len(), 2);
    assert_eq!(replayed_calls(&files[1].1).len(), 1);
}

#[test]
fn stdio_and_http_at_once_are_two_sessions_and_the_stdio_client_owns_the_gateway() {
    let served = Served::new(json!({"everything": everything("never")}));
    let args = [
        "mcp",
        "--config",
        served.config.as_str(),
        "--record",
        served.record.as_str(),
        "--listen",
        "127.0.0.1:0",
        "--stdio",
        "--token-env",
        TOKEN_VAR,
    ];
    let mut local = Driver::launch(
        Sdk::TypeScript,
        false,
        crate::support::disclose(),
        &args,
        &[(TOKEN_VAR, TOKEN)],
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let port: u16 = loop {
        let stderr = local.stderr();
        let port = stderr
            .split("listening on http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok());
        if let Some(port) = port {
            break port;
        }
        assert!(Instant::now() < deadline, "no listening line:\n{stderr}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut remote = Driver::connect(Sdk::PythonLegacy, false, &url, Some(TOKEN));
    let from_stdio = local.call("everything__echo", echo("over stdio"), &[]);
    assert_eq!(text(&from_stdio), "Echo: over stdio");
    let from_http = remote.call("everything__echo", echo("over http"), &[]);
    assert_eq!(text(&from_http), "Echo: over http");
    let (status, stderr) = remote.close();
    assert!(status.success(), "{stderr}");
    // The stdio client leaves: the gateway ends, HTTP with it.
    let (status, stderr) = local.close();
    assert!(status.success(), "{stderr}");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(
            Instant::now() < deadline,
            "HTTP still served after stdio ended"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let files = served.recordings();
    assert_eq!(files.len(), 2, "{files:?}");
    let stdio_calls: Vec<String> = files
        .iter()
        .map(|(_, t)| replayed_calls(t))
        .find(|c| c.iter().any(|l| l.contains("over stdio")))
        .expect("the stdio session's recording");
    assert!(
        stdio_calls.iter().all(|l| !l.contains("over http")),
        "{stdio_calls:?}"
    );
}
