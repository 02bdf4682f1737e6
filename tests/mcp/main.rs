//! `disclose mcp` end to end, with real components only: the official
//! Python SDK (both of its lifecycles: `server/discover` on protocol
//! 2026-07-28, and the initialize handshake) and the official TypeScript
//! SDK as clients; the reference servers upstream (server-everything over
//! stdio and over streamable HTTP, server-filesystem on two roots,
//! server-memory), installed at pinned versions by script/mcp-e2e-install.
//! Each test is one gateway (or two) with its own temporary roots. Unix
//! only, as the gateway is.
#![cfg(unix)]

mod forward;
mod http;
mod oauth;
mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{
    Driver, Over, Sdk, Wire, canonical, config, everything, everything_http, filesystem, gone,
    is_error, memory, text, upstream_pid,
};

/// A config over the four reference servers (five entries), and its
/// temporary directory.
struct Setup {
    dir: tempfile::TempDir,
    config: String,
    _http: Option<support::Guard>,
}

impl Setup {
    fn new(approval: &str, with_http: bool) -> Setup {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for root in ["a", "b"] {
            std::fs::create_dir(dir.path().join(root)).expect("a root");
        }
        let mut servers = json!({
            "everything": everything(approval),
            "fs-a": filesystem(&dir.path().join("a"), approval),
            "fs-b": filesystem(&dir.path().join("b"), approval),
            "memory": memory(&dir.path().join("memory.jsonl"), approval),
        });
        let http = with_http.then(|| {
            let (guard, url) = everything_http();
            servers["everything-http"] = json!({"type": "http", "url": url, "approval": approval});
            guard
        });
        let config = config(dir.path(), servers).display().to_string();
        Setup {
            dir,
            config,
            _http: http,
        }
    }

    fn path(&self, rest: &str) -> String {
        self.dir.path().join(rest).display().to_string()
    }

    fn args<'a>(&'a self, more: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["--config", self.config.as_str()];
        args.extend_from_slice(more);
        args
    }
}

/// The run's resident tools in the `mcp` shape, as the library gives them:
/// the two doors (no host tools behind a gateway).
fn doors() -> String {
    let run = disclose::Catalog::new().start(disclose::Mode::Work);
    run.tools_for(disclose::Provider::Mcp).as_str().to_string()
}

/// The one recording a gateway wrote in `dir`.
fn recording(dir: &Path) -> String {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the record directory")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1, "one session file: {files:?}");
    std::fs::read_to_string(files.remove(0)).expect("the recording")
}

#[test]
fn tools_list_is_byte_identical_across_processes_and_both_clients() {
    let setup = Setup::new("required", true);
    // The wire, twice: two fresh processes.
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut wire = Wire::start(&setup.args(&[]));
        wire.initialize();
        lines.push(wire.request(1, "tools/list", json!({})));
        let (status, _) = wire.disconnect(Duration::from_secs(20));
        assert!(status.success());
    }
    assert_eq!(
        lines[0], lines[1],
        "tools/list differs between two processes"
    );
    let answer: Value = serde_json::from_str(&lines[0]).expect("JSON");
    let tools = &answer["result"]["tools"];
    assert_eq!(
        canonical(tools),
        doors(),
        "tools/list is the run's tool_defs (mcp)"
    );
    // The same list, the same index, through every client.
    let mut seen = Vec::new();
    for sdk in [Sdk::PythonModern, Sdk::PythonLegacy, Sdk::TypeScript] {
        let mut client = Driver::start(sdk, true, &setup.args(&[]));
        let listed = client.send(json!({"op": "list_tools"}));
        let list = listed["tools"].clone();
        for tool in list.as_array().expect("tools") {
            let name = tool["name"].as_str().expect("a name");
            assert!(disclose::internals::naming::name_is_valid(name), "{name}");
        }
        // The streamable HTTP upstream serves calls like the stdio one.
        let via_http = client.call(
            "everything-http__echo",
            json!({"message": "via http"}),
            &["allow once"],
        );
        assert_eq!(text(&via_http), "Echo: via http", "{sdk:?}");
        let instructions = client.ready["instructions"].as_str().map(str::to_string);
        seen.push((sdk, canonical(&list), instructions));
        client.close();
    }
    let protocol = |sdk| format!("{sdk:?}");
    for (sdk, list, instructions) in &seen {
        assert_eq!(list, &doors(), "{} sees another tool list", protocol(sdk));
        assert_eq!(
            instructions,
            &seen[0].2,
            "{} sees another index",
            protocol(sdk)
        );
    }
    let index = seen[0].2.clone().expect("instructions");
    assert!(
        index.starts_with("## Capabilities\nmode: work\nDormant"),
        "{index}"
    );
    assert!(
        index.len() <= 1024 + 64,
        "the index is bounded: {} bytes",
        index.len()
    );
}

#[test]
fn describe_finds_both_filesystems_and_a_memory_guide_holds_its_schema() {
    let setup = Setup::new("required", false);
    let record = tempfile::tempdir().expect("dir");
    let record_dir = record.path().display().to_string();
    let mut client = Driver::start(
        Sdk::PythonModern,
        true,
        &setup.args(&["--record", &record_dir]),
    );
    let found = text(&client.describe("read the text of a file"));
    assert!(found.contains("- fs-a__read_text_file: "), "{found}");
    assert!(found.contains("- fs-b__read_text_file: "), "{found}");
    let guide = text(&client.describe("memory__create_entities"));
    client.close();
    let session = recording(record.path());
    let declared = session
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a session line"))
        .find(|op| {
            op["op"] == "tool" && op["origin"] == "memory" && op["name"] == "create_entities"
        })
        .expect("memory's create_entities is declared");
    let schema = canonical(&declared["input_schema"]);
    assert!(
        guide.starts_with("tool memory__create_entities\n"),
        "{guide}"
    );
    assert!(
        guide.contains(&format!("\ninput schema: {schema}\n")),
        "{guide}"
    );
}

#[test]
fn a_file_written_through_root_a_reads_back_and_is_in_a_only() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::TypeScript, false, &setup.args(&[]));
    let path = setup.path("a/note.txt");
    let content = "written through the gateway\nsecond line é\n";
    let wrote = client.call(
        "fs-a__write_file",
        json!({"path": path, "content": content}),
        &[],
    );
    assert!(!is_error(&wrote), "{wrote}");
    let read = client.call("fs-a__read_text_file", json!({"path": path}), &[]);
    assert_eq!(text(&read), content);
    assert_eq!(std::fs::read_to_string(&path).expect("in A"), content);
    assert!(!Path::new(&setup.path("b/note.txt")).exists(), "not in B");
    // B's server is confined to B: it refuses A's file itself.
    let through_b = client.call("fs-b__read_text_file", json!({"path": path}), &[]);
    assert!(is_error(&through_b), "{through_b}");
    client.close();
}

#[test]
fn a_misfit_call_is_refused_and_the_upstream_never_receives_it() {
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path().join("a");
    std::fs::create_dir(&root).expect("root");
    // `tee` keeps every byte the real server is sent.
    let heard = dir.path().join("heard.jsonl");
    let server = support::server_js("@modelcontextprotocol/server-filesystem");
    let script = format!(
        "tee '{}' | exec node '{server}' '{}'",
        heard.display(),
        root.display()
    );
    let cfg = config(
        dir.path(),
        json!({"fs": {"command": "sh", "args": ["-c", script], "approval": "never"}}),
    );
    let cfg = cfg.display().to_string();
    let mut client = Driver::start(Sdk::PythonLegacy, false, &["--config", &cfg]);
    let path = root.join("m.txt").display().to_string();
    let misfit = client.call("fs__write_file", json!({"path": path, "content": 42}), &[]);
    assert!(is_error(&misfit), "{misfit}");
    assert_eq!(
        text(&misfit),
        format!(
            "refused E_INVALID_ARGS call.misfit: args for \"fs__write_file\" do not fit its input schema: \"content\" is integer, expected string\nschema: {}\n",
            r#"{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"content":{"type":"string"},"path":{"type":"string"}},"required":["path","content"],"type":"object"}"#
        )
    );
    let fits = client.call("fs__list_allowed_directories", json!({}), &[]);
    assert!(!is_error(&fits), "{fits}");
    client.close();
    let heard = std::fs::read_to_string(&heard).expect("what the server heard");
    assert!(heard.contains("list_allowed_directories"), "{heard}");
    assert!(
        !heard.contains("write_file"),
        "the misfit reached the server:\n{heard}"
    );
    assert!(!Path::new(&path).exists());
}

#[test]
fn text_and_image_content_come_back_unchanged() {
    let setup = Setup::new("never", false);
    let mut gateway = Driver::start(Sdk::PythonModern, false, &setup.args(&[]));
    let server = support::server_js("@modelcontextprotocol/server-everything");
    let mut direct = Driver::start_command(Sdk::PythonModern, false, "node", &[&server, "stdio"]);
    for (tool, args) in [
        ("echo", json!({"message": "héllo ✓ \u{1F600}"})),
        ("get-tiny-image", json!({})),
        ("get-structured-content", json!({"location": "New York"})),
    ] {
        let through = gateway.call(&format!("everything__{tool}"), args.clone(), &[]);
        let straight = direct.send(json!({"op": "call", "name": tool, "args": args}));
        assert!(!is_error(&through), "{through}");
        assert_eq!(through["result"], straight["result"], "{tool}");
    }
    let image = gateway.call("everything__get-tiny-image", json!({}), &[]);
    let kinds: Vec<&str> = image["result"]["content"]
        .as_array()
        .expect("content")
        .iter()
        .filter_map(|c| c["type"].as_str())
        .collect();
    assert!(kinds.contains(&"image"), "{kinds:?}");
    gateway.close();
    direct.close();
}

/// Every approval path, through one client.
fn approval_paths(sdk: Sdk) {
    let setup = Setup::new("required", false);
    let mut client = Driver::start(sdk, true, &setup.args(&[]));
    let echo = |message: &str| json!({"message": message});
    let once = client.call("everything__echo", echo("once"), &["allow once"]);
    assert_eq!(text(&once), "Echo: once", "{once}");
    let asked = once["asked"][0].as_str().expect("asked");
    assert_eq!(
        asked,
        "Allow everything__echo to run?\nserver: everything; tool: echo; effect: read\nargs: {\"message\":\"once\"}"
    );
    // Allowed once: asked again.
    let declined = client.call("everything__echo", echo("no"), &["decline"]);
    assert_eq!(
        text(&declined),
        "disclose: the user declined the call of \"everything__echo\"; it was not run\n"
    );
    assert!(is_error(&declined));
    let rejected = client.call("everything__echo", echo("no"), &["reject"]);
    assert!(text(&rejected).contains("the user declined"), "{rejected}");
    let cancelled = client.call("everything__echo", echo("no"), &["cancel"]);
    assert!(
        text(&cancelled).contains("the user cancelled"),
        "{cancelled}"
    );
    let session = client.call("everything__echo", echo("s1"), &["allow for this session"]);
    assert_eq!(text(&session), "Echo: s1");
    let again = client.call("everything__echo", echo("s2"), &[]);
    assert_eq!(text(&again), "Echo: s2");
    assert_eq!(
        again["asked"],
        json!([]),
        "allowed for the session: not asked"
    );
    // Another tool of the same server is still asked.
    let other = client.call("everything__get-sum", json!({"a": 2, "b": 3}), &["decline"]);
    assert_eq!(other["asked"].as_array().map(Vec::len), Some(1));
    client.close();
    // Absent: a client without elicitation cannot be asked.
    let mut unasked = Driver::start(sdk, false, &setup.args(&[]));
    let refused = unasked.call("everything__echo", echo("x"), &[]);
    assert!(is_error(&refused));
    assert_eq!(
        text(&refused),
        "disclose: \"everything__echo\" needs a user's approval (effect read), and this client cannot be asked: it did not declare the elicitation capability. It was not run. To allow it, set \"approval\": \"never\" on server \"everything\" in the gateway's config, or start the gateway with --dangerously-allow-all (every tool of every server then runs unasked)\n"
    );
    unasked.close();
    // The dangerous flag: runs unasked.
    let mut all = Driver::start(sdk, false, &setup.args(&["--dangerously-allow-all"]));
    let ran = all.call("everything__echo", echo("all"), &[]);
    assert_eq!(text(&ran), "Echo: all");
    all.close();
}

#[test]
fn approval_paths_through_python_on_protocol_2026_07_28() {
    approval_paths(Sdk::PythonModern);
}

#[test]
fn approval_paths_through_typescript_by_elicitation_create() {
    approval_paths(Sdk::TypeScript);
}

#[test]
fn a_recorded_session_replays_byte_for_byte_with_every_upstream_absent() {
    let setup = Setup::new("never", false);
    let record = tempfile::tempdir().expect("dir");
    let record_dir = record.path().display().to_string();
    let mut client = Driver::start(
        Sdk::PythonModern,
        false,
        &setup.args(&["--record", &record_dir]),
    );
    let mut given = Vec::new();
    let path = setup.path("a/plan.md");
    for (name, args) in [
        ("describe", json!({"name": "save a note to a file"})),
        ("describe", json!({"name": "fs-a__write_file"})),
        (
            "call",
            json!({"name": "fs-a__write_file", "args": {"path": path, "text": "x"}}),
        ),
        (
            "call",
            json!({"name": "fs-a__write_file", "args": {"path": path, "content": "# Plan\n"}}),
        ),
        (
            "call",
            json!({"name": "memory__create_entities", "args": {"entities": [{"name": "plan", "entityType": "doc", "observations": ["in A"]}]}}),
        ),
        ("describe", json!({"name": ""})),
        ("fs-a__read_text_file", json!({"path": path})),
    ] {
        let answer = client.send(json!({"op": "call", "name": name, "args": args}));
        given.push(answer);
    }
    let (status, stderr) = client.close();
    assert!(status.success(), "{stderr}");
    let text_of = |a: &Value| {
        a["result"]["content"][0]["text"]
            .as_str()
            .map(str::to_string)
    };
    let session = recording(record.path());
    // The recording holds declarations and the model's calls, never the
    // config (the memory file's path is in its env).
    assert!(
        !session.contains("memory.jsonl"),
        "an env value was recorded"
    );
    let parsed = disclose_replay::session::parse(session.as_bytes()).expect("the recording parses");
    let replayed = disclose_replay::replay::replay(&parsed);
    let again = disclose_replay::replay::replay(&parsed);
    assert_eq!(
        disclose_replay::transcript::encode(&replayed.steps),
        disclose_replay::transcript::encode(&again.steps)
    );
    let breaches = disclose_replay::invariants::check(&parsed, &replayed);
    assert!(breaches.is_empty(), "{breaches:?}");
    // What the model was told, step by step, is what the replay says.
    let answers: Vec<&disclose_replay::replay::Step> = replayed
        .steps
        .iter()
        .filter(|s| matches!(s.op, "describe" | "call"))
        .collect();
    assert_eq!(answers.len(), given.len(), "one op per tool call");
    for (step, answer) in answers.iter().zip(&given) {
        match &step.outcome {
            disclose_replay::replay::Outcome::Routed(_) => {
                assert!(step.output.starts_with("routed "), "{}", step.output);
            }
            _ => assert_eq!(
                Some(step.output.clone()),
                text_of(answer),
                "line {}",
                step.line
            ),
        }
    }
    let ops: Vec<&str> = replayed.steps.iter().map(|s| s.op).collect();
    assert!(ops.starts_with(&["tool"]), "{ops:?}");
    assert!(ops.contains(&"start") && ops.contains(&"render") && ops.contains(&"tool_defs"));
}

/// An upstream killed between two calls is restarted by the very next
/// call to one of its tools, which goes through; the other servers never
/// notice.
#[test]
fn an_upstream_that_dies_is_restarted_by_the_next_call() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::TypeScript, false, &setup.args(&[]));
    assert_eq!(
        text(&client.call("everything__echo", json!({"message": "1"}), &[])),
        "Echo: 1"
    );
    let first = upstream_pid(&client.stderr(), "everything");
    // SAFETY: a signal to the upstream this test's gateway started.
    unsafe { libc::kill(first, libc::SIGKILL) };
    assert!(gone(first, Duration::from_secs(10)));
    std::thread::sleep(Duration::from_millis(300));
    let back = client.call("everything__echo", json!({"message": "2"}), &[]);
    assert_eq!(text(&back), "Echo: 2", "{}", client.stderr());
    let stderr = client.stderr();
    assert!(
        stderr.contains("disclose: everything: exited (signal: 9")
            && stderr.contains("disclose: everything: restarting\n")
            && stderr.contains("disclose: everything: restarted\n"),
        "{stderr}"
    );
    assert_ne!(upstream_pid(&stderr, "everything"), first);
    let graph = client.call("memory__read_graph", json!({}), &[]);
    assert!(!is_error(&graph), "{graph}");
    client.close();
}

/// Stands in front of a real server: passes its stdin on, and the first
/// time it runs (no `MARKER` yet) stops reading 1 s after `tools/list`, its
/// stdout still open and the process alive. A write to it then fails: the
/// server never saw that line.
const DEAF_ONCE: &str = r#"import os, subprocess, sys, time
marker, argv = sys.argv[1], sys.argv[2:]
first = not os.path.exists(marker)
open(marker, "a").close()
child = subprocess.Popen(argv, stdin=subprocess.PIPE)
for line in sys.stdin.buffer:
    child.stdin.write(line)
    child.stdin.flush()
    if first and b'"tools/list"' in line:
        time.sleep(1)
        os.close(0)
        child.wait()
child.stdin.close()
child.wait()
"#;

/// A call sent at once whose write finds the server no longer reading (it
/// never saw the call) restarts the server and goes through, its args
/// intact: the lane hands the whole call to the way that restarts.
#[test]
fn a_call_its_server_could_not_read_restarts_it_with_its_args() {
    let dir = tempfile::tempdir().expect("dir");
    let wrapper = dir.path().join("deaf_once.py");
    std::fs::write(&wrapper, DEAF_ONCE).expect("the wrapper");
    let server = everything("never");
    let mut args = vec![
        json!(wrapper.display().to_string()),
        json!(dir.path().join("heard").display().to_string()),
        server["command"].clone(),
    ];
    args.extend(server["args"].as_array().expect("its args").iter().cloned());
    let cfg = config(
        dir.path(),
        json!({"flaky": {"command": "python3", "args": args, "approval": "never"}}),
    )
    .display()
    .to_string();
    // The wrapper stops reading 1 s after tools/list, before the server's
    // prompts and resources are listed: they wait out the start timeout,
    // and the server is served without them.
    let mut client = Driver::start(
        Sdk::PythonLegacy,
        false,
        &["--config", &cfg, "--start-timeout", "10"],
    );
    std::thread::sleep(Duration::from_secs(2));
    let back = client.call("flaky__echo", json!({"message": "kept"}), &[]);
    assert_eq!(text(&back), "Echo: kept", "{}", client.stderr());
    let stderr = client.stderr();
    assert!(
        stderr.contains("disclose: flaky: restarting\n")
            && stderr.contains("disclose: flaky: restarted\n"),
        "{stderr}"
    );
    client.close();
}

/// A call in flight when its server dies may have done its work: it is
/// not sent again, and answers with the exit status; the next call
/// restarts the server.
#[test]
fn a_call_in_flight_when_its_upstream_dies_answers_with_the_exit_status() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::PythonLegacy, false, &setup.args(&[]));
    assert_eq!(
        text(&client.call("everything__echo", json!({"message": "1"}), &[])),
        "Echo: 1"
    );
    let pid = upstream_pid(&client.stderr(), "everything");
    let long = json!({"duration": 5, "steps": 5});
    client.ask(json!({"op": "call", "name": "call", "args": {"name": "everything__trigger-long-running-operation", "args": long}}));
    std::thread::sleep(Duration::from_millis(1000));
    // SAFETY: a signal to the upstream this test's gateway started.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let died = text(&client.answer());
    assert!(
        died.starts_with("disclose: server \"everything\" exited (signal: 9")
            && died.ends_with(") during tools/call \"trigger-long-running-operation\"; it is restarted on the next call to one of its tools\n"),
        "{died}"
    );
    let back = client.call("everything__echo", json!({"message": "2"}), &[]);
    assert_eq!(text(&back), "Echo: 2", "{}", client.stderr());
    client.close();
}

/// A gateway over server-everything by streamable HTTP (origin `web`),
/// with server-memory beside it when `with_memory`, after one call to it
/// went through.
struct Web {
    client: Driver,
    upstream: support::Guard,
    port: u16,
    url: String,
    _dir: tempfile::TempDir,
}

impl Web {
    fn serving(with_memory: bool) -> Web {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let port = support::free_port();
        let upstream = support::everything_http_on(port);
        let url = format!("http://127.0.0.1:{port}/mcp");
        let mut servers = json!({"web": {"type": "http", "url": &url, "approval": "never"}});
        if with_memory {
            servers["memory"] = memory(&dir.path().join("memory.jsonl"), "never");
        }
        let config = config(dir.path(), servers).display().to_string();
        let mut client = Driver::start(Sdk::TypeScript, false, &["--config", &config]);
        assert_eq!(
            text(&client.call("web__echo", json!({"message": "1"}), &[])),
            "Echo: 1"
        );
        Web {
            client,
            upstream,
            port,
            url,
            _dir: dir,
        }
    }
}

/// The same over streamable HTTP: an upstream that stops listening
/// answers with an error naming it, the others keep working, and once it
/// listens again its next call reconnects (a new MCP session).
#[test]
fn an_http_upstream_that_goes_away_is_reconnected_on_its_next_call() {
    let web = Web::serving(true);
    let (mut client, url, port) = (web.client, web.url, web.port);
    drop(web.upstream);
    let failed = client.call("web__echo", json!({"message": "2"}), &[]);
    assert!(is_error(&failed), "{failed}");
    assert_eq!(
        text(&failed),
        format!(
            "disclose: server \"web\" could not be reconnected: failed initialize at {url}: Connection refused (os error 111); it is tried again on the next call to one of its tools\n"
        )
    );
    let graph = client.call("memory__read_graph", json!({}), &[]);
    assert!(!is_error(&graph), "{graph}");
    let _upstream = support::everything_http_on(port);
    let back = client.call("web__echo", json!({"message": "3"}), &[]);
    assert_eq!(text(&back), "Echo: 3", "{}", client.stderr());
    let stderr = client.stderr();
    assert!(
        stderr.contains("disclose: web: could not be reached (")
            && stderr.contains("disclose: web: reconnecting\n")
            && stderr.contains("disclose: web: reconnected\n"),
        "{stderr}"
    );
    client.close();
}

/// An HTTP upstream restarted between two calls no longer knows the
/// gateway's MCP session. server-everything says so with a 400 and an
/// error without an `id` (not the spec's 404), which rmcp could match to
/// no request: the call waited out `--call-timeout`, and so did every
/// call after it. The server ran nothing, so the call itself opens a new
/// session, compares the digests, and goes through.
#[test]
fn an_http_upstream_restarted_between_calls_is_reached_on_a_new_session() {
    let web = Web::serving(false);
    let mut client = web.client;
    drop(web.upstream);
    let _upstream = support::everything_http_on(web.port);
    let asked = Instant::now();
    let back = client.call("web__echo", json!({"message": "2"}), &[]);
    assert!(asked.elapsed() < Duration::from_secs(10), "{back}");
    assert_eq!(text(&back), "Echo: 2", "{}", client.stderr());
    let stderr = client.stderr();
    assert!(
        stderr.contains("disclose: web: no longer knows the gateway's session (it restarted)\n")
            && stderr.contains("disclose: web: reconnected\n"),
        "{stderr}"
    );
    client.close();
}

#[test]
fn a_restarted_server_whose_tools_changed_has_them_refused_by_digest() {
    let dir = tempfile::tempdir().expect("dir");
    let root = dir.path().join("a");
    std::fs::create_dir(&root).expect("root");
    let flag = dir.path().join("upgraded");
    let old = support::server_js("server-filesystem-2025-7-1");
    let new = support::server_js("@modelcontextprotocol/server-filesystem");
    // The same origin runs 2025.7.1 first, and 2026.8.31 once upgraded.
    let script = format!(
        "if [ -e '{}' ]; then exec node '{new}' '{r}'; else exec node '{old}' '{r}'; fi",
        flag.display(),
        r = root.display()
    );
    let cfg = config(
        dir.path(),
        json!({"fs": {"command": "sh", "args": ["-c", script], "approval": "never"}}),
    )
    .display()
    .to_string();
    let mut client = Driver::start(Sdk::PythonLegacy, false, &["--config", &cfg]);
    let listed = client.call("fs__list_allowed_directories", json!({}), &[]);
    assert!(!is_error(&listed), "{listed}");
    std::fs::write(&flag, "").expect("flag");
    let pid = upstream_pid(&client.stderr(), "fs");
    unsafe { libc::kill(pid, libc::SIGTERM) };
    assert!(gone(pid, Duration::from_secs(10)));
    std::thread::sleep(Duration::from_millis(300));
    // The call that finds it exited restarts it, and the digests say no.
    let changed = client.call("fs__list_allowed_directories", json!({}), &[]);
    let said = text(&changed);
    assert!(is_error(&changed));
    assert!(client.stderr().contains("disclose: fs: exited (signal: 15"));
    assert!(
        said.starts_with("disclose: server \"fs\" restarted and \"fs__list_allowed_directories\" changed (digest "),
        "{said}"
    );
    assert!(said.contains(" became "), "{said}");
    // The run's catalog never changes: describe still shows the old tool,
    // and the new server's new tools are not there.
    let guide = text(&client.describe("fs__read_file"));
    assert!(guide.starts_with("tool fs__read_file\n"), "{guide}");
    let unknown = text(&client.call("fs__read_text_file", json!({"path": "x"}), &[]));
    assert!(
        unknown.starts_with("refused E_INVALID_ARGS call.unknown"),
        "{unknown}"
    );
    client.close();
}

#[test]
fn a_client_that_disconnects_ends_the_gateway_cleanly() {
    let setup = Setup::new("never", false);
    let record = tempfile::tempdir().expect("dir");
    let record_dir = record.path().display().to_string();
    let mut wire = Wire::start(&setup.args(&["--record", &record_dir]));
    wire.initialize();
    let answer = wire.request(
        1,
        "tools/call",
        json!({"name": "call", "arguments": {"name": "memory__read_graph", "args": {}}}),
    );
    assert!(answer.contains("\"entities\""), "{answer}");
    assert!(!answer.contains("\"isError\":true"), "{answer}");
    let stderr = wire.stderr();
    let pids: Vec<i32> = ["everything", "fs-a", "fs-b", "memory"]
        .iter()
        .map(|origin| upstream_pid(&stderr, origin))
        .collect();
    let (status, stderr) = wire.disconnect(Duration::from_secs(20));
    assert_eq!(status.code(), Some(0), "{stderr}");
    for pid in pids {
        assert!(
            gone(pid, Duration::from_secs(5)),
            "upstream {pid} outlived the gateway"
        );
    }
    let session = recording(record.path());
    assert!(
        session.ends_with("\"args\":{\"args\":{},\"name\":\"memory__read_graph\"}}\n"),
        "{session}"
    );
    disclose_replay::session::parse(session.as_bytes()).expect("complete and parseable");
}

/// Both kinds of stdio clients hand the servers they launch are read and
/// written on the gateway's one thread: through tokio's stdin and stdout
/// a blocking thread would carry every message (docs/decisions.md, "The
/// gateway's stdio"). Anything else (here stdout a file) is served too,
/// through those.
#[test]
fn pipes_and_unix_sockets_are_served_on_the_gateway_s_one_thread() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let config = config(dir.path(), json!({"everything": everything("never")}));
    let config = config.display().to_string();
    for over in [Over::Pipes, Over::UnixSockets, Over::PipeInFileOut] {
        let mut wire = Wire::over(&["--config", &config], over);
        wire.initialize();
        for id in 1..=3 {
            let args = json!({"name": "everything__echo", "args": {"message": format!("m{id}")}});
            let answer = wire.request(id, "tools/call", json!({"name": "call", "arguments": args}));
            assert!(
                answer.contains(&format!("Echo: m{id}")),
                "{over:?}: {answer}"
            );
        }
        if !matches!(over, Over::PipeInFileOut) {
            assert_eq!(wire.threads(), 1, "{over:?}: the gateway's threads");
        }
        let (status, stderr) = wire.disconnect(Duration::from_secs(20));
        assert_eq!(status.code(), Some(0), "{over:?}: {stderr}");
    }
}

#[test]
fn a_killed_gateway_leaves_no_orphans() {
    let setup = Setup::new("never", false);
    let mut wire = Wire::start(&setup.args(&[]));
    wire.initialize();
    let stderr = wire.stderr();
    let pids: Vec<i32> = ["everything", "fs-a", "fs-b", "memory"]
        .iter()
        .map(|origin| upstream_pid(&stderr, origin))
        .collect();
    let _ = wire.child.0.kill();
    let _ = wire.child.0.wait();
    for pid in pids {
        assert!(
            gone(pid, Duration::from_secs(5)),
            "upstream {pid} outlived a killed gateway"
        );
    }
}

#[test]
fn a_slow_upstream_call_times_out_naming_the_server() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(
        Sdk::TypeScript,
        false,
        &setup.args(&["--call-timeout", "1"]),
    );
    let started = Instant::now();
    let slow = client.call(
        "everything__trigger-long-running-operation",
        json!({"duration": 5, "steps": 5}),
        &[],
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        text(&slow),
        "disclose: server \"everything\" did not answer tools/call \"trigger-long-running-operation\" within 1 s (--call-timeout); the call was cancelled upstream\n"
    );
    // The server is still there for the next call.
    assert_eq!(
        text(&client.call("everything__echo", json!({"message": "ok"}), &[])),
        "Echo: ok"
    );
    client.close();
}

#[test]
fn calls_run_concurrently_and_a_cancelled_call_is_cancelled() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::TypeScript, false, &setup.args(&[]));
    let slow = json!({"name": "call", "args": {"name": "everything__trigger-long-running-operation", "args": {"duration": 2, "steps": 2}}});
    let started = Instant::now();
    let both = client.send(json!({"op": "concurrent", "calls": [slow, slow]}));
    let took = started.elapsed();
    assert_eq!(both["results"].as_array().map(Vec::len), Some(2), "{both}");
    assert!(
        took < Duration::from_millis(3500),
        "two 2 s calls took {took:?}"
    );
    let cancelled = client.send(json!({
        "op": "call", "name": "call",
        "args": {"name": "everything__trigger-long-running-operation", "args": {"duration": 5, "steps": 5}},
        "cancel_after_ms": 500,
    }));
    assert!(
        cancelled["error"]
            .as_str()
            .is_some_and(|e| e.contains("the test cancels")),
        "{cancelled}"
    );
    assert_eq!(
        text(&client.call("everything__echo", json!({"message": "after"}), &[])),
        "Echo: after"
    );
    client.close();
}

#[test]
fn upstreams_that_fail_or_hang_are_named_and_left_out() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = config(
        dir.path(),
        json!({
            "broken": {"command": "/nonexistent/mcp-server"},
            "crashes": {"command": "sh", "args": ["-c", "echo dying >&2; exit 3"]},
            "hangs": {"command": "sleep", "args": ["600"]},
            "memory": memory(&dir.path().join("m.jsonl"), "never"),
            "nobody": {"type": "http", "url": format!("http://127.0.0.1:{}/mcp", support::free_port())},
        }),
    )
    .display()
    .to_string();
    let started = Instant::now();
    let mut client = Driver::start(
        Sdk::PythonLegacy,
        false,
        &["--config", &cfg, "--start-timeout", "2"],
    );
    // Not a timing test: the hanging server is given 2 s (stderr says so
    // below), and nothing waits for it past that; the bound only catches
    // a start that waits for it for good, on a loaded machine too.
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(!is_error(&client.call(
        "memory__read_graph",
        json!({}),
        &[]
    )));
    let (_, stderr) = client.close();
    assert!(
        stderr.contains(
            "disclose: broken: left out: could not be started: /nonexistent/mcp-server: "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("disclose: crashes: left out: exited (exit status: 3) before initialize"),
        "{stderr}"
    );
    assert!(stderr.contains("[crashes] dying"), "{stderr}");
    assert!(stderr.contains("disclose: hangs: left out: did not answer initialize and tools/list within 2 s (--start-timeout)"), "{stderr}");
    assert!(
        stderr.contains("disclose: nobody: left out: failed initialize at http://127.0.0.1:"),
        "{stderr}"
    );
}

#[test]
fn the_index_reaches_clients_that_drop_instructions_as_a_prompt_and_a_resource() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::PythonModern, false, &setup.args(&[]));
    let index = client.ready["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert_eq!(client.send(json!({"op": "prompt"}))["text"], json!(index));
    assert_eq!(client.send(json!({"op": "resource"}))["text"], json!(index));
    let (_, stderr) = client.close();
    // server-everything announces list_changed at start; the list stays.
    assert!(stderr.contains("disclose: everything: announced notifications/tools/list_changed; the run's catalog stays as it started"), "{stderr}");
}

#[test]
fn a_scout_child_is_offered_read_tools_only() {
    let setup = Setup::new("never", false);
    let mut client = Driver::start(Sdk::TypeScript, false, &setup.args(&["--profile", "scout"]));
    let index = client.ready["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert!(!index.contains("write_file"), "{index}");
    let write = client.call(
        "fs-a__write_file",
        json!({"path": setup.path("a/x"), "content": "x"}),
        &[],
    );
    assert_eq!(
        text(&write),
        "refused E_GATE_DENIED profile.narrowed: \"fs-a__write_file\" is not offered to a scout child\n"
    );
    assert!(!Path::new(&setup.path("a/x")).exists());
    let listed = client.call("fs-a__list_allowed_directories", json!({}), &[]);
    assert!(!is_error(&listed), "{listed}");
    client.close();
}

#[test]
fn hostile_configs_exit_2_naming_the_place() {
    let dir = tempfile::tempdir().expect("dir");
    let cases: [(&str, &str); 6] = [
        (
            "{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}",
            ":1:38: the config is not JSON: trailing comma",
        ),
        (
            "{\"mcpServers\": {\"Bad_Name\": {\"command\": \"x\"}, \"bad-name\": {\"command\": \"y\"}}}",
            "mcpServers.bad-name: serves as origin \"bad-name\" as mcpServers.Bad_Name does",
        ),
        (
            "{\"mcpServers\": {\"a\": {\"args\": []}}}",
            "mcpServers.a: has neither \"command\" (a stdio server) nor \"url\" (an HTTP server)",
        ),
        (
            "{\"mcpServers\": {\"a\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\"}}}",
            "mcpServers.a.type: \"sse\" is not a transport this gateway speaks",
        ),
        (
            "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"T\": \"${DISCLOSE_TEST_SURELY_UNSET}\"}}}}",
            "mcpServers.a.env.T: ${DISCLOSE_TEST_SURELY_UNSET} is not set in the gateway's environment",
        ),
        (
            "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"approval\": \"sometimes\"}}}",
            "mcpServers.a.approval: is \"sometimes\"; it is \"required\" (the default), \"never\" or \"writes\"",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("c{i}.json"));
        std::fs::write(&path, text).expect("write");
        let output = support::gateway()
            .arg("--config")
            .arg(&path)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{text}: {stderr}");
        assert!(output.stdout.is_empty(), "stdout carries only JSON-RPC");
        assert!(
            stderr.starts_with(&format!("disclose: {}", path.display())),
            "{stderr}"
        );
        assert!(stderr.contains(expected), "{text}:\n{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let missing = support::gateway()
        .args(["--config", "/nonexistent/mcp.json"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn cancellations_and_timeouts_reach_the_upstream() {
    let dir = tempfile::tempdir().expect("dir");
    let heard = dir.path().join("heard.jsonl");
    let server = support::server_js("@modelcontextprotocol/server-everything");
    // `tee` keeps every byte the real server is sent.
    let script = format!("tee '{}' | exec node '{server}' stdio", heard.display());
    let cfg = config(
        dir.path(),
        json!({"everything": {"command": "sh", "args": ["-c", script], "approval": "never"}}),
    )
    .display()
    .to_string();
    let mut client = Driver::start(
        Sdk::TypeScript,
        false,
        &["--config", &cfg, "--call-timeout", "1"],
    );
    let long = json!({"duration": 5, "steps": 5});
    let cancelled = client.send(json!({
        "op": "call", "name": "call",
        "args": {"name": "everything__trigger-long-running-operation", "args": long},
        "cancel_after_ms": 300,
    }));
    assert!(cancelled["error"].is_string(), "{cancelled}");
    let timed_out = client.call("everything__trigger-long-running-operation", long, &[]);
    assert!(
        text(&timed_out).contains("within 1 s (--call-timeout)"),
        "{timed_out}"
    );
    assert_eq!(
        text(&client.call("everything__echo", json!({"message": "x"}), &[])),
        "Echo: x"
    );
    client.close();
    let heard = std::fs::read_to_string(&heard).expect("what the server heard");
    let cancels = heard
        .lines()
        .filter(|l| l.contains("\"notifications/cancelled\""))
        .count();
    assert_eq!(
        cancels, 2,
        "one for the client's cancel, one for the timeout:\n{heard}"
    );
}

/// The progress a call's notifications report, as the clients give them:
/// `(progress, total)` each, in order.
fn progress_of(answer: &Value) -> Vec<(f64, Option<f64>)> {
    answer["progress"]
        .as_array()
        .unwrap_or_else(|| panic!("no progress in {answer}"))
        .iter()
        .map(|p| {
            (
                p["progress"].as_f64().expect("a progress"),
                p["total"].as_f64(),
            )
        })
        .collect()
}

/// server-everything's long-running operation, `steps` steps in `seconds`.
fn long_running(seconds: f64, steps: u64) -> Value {
    json!({"name": "everything__trigger-long-running-operation", "args": {"duration": seconds, "steps": steps}})
}

/// A call made with a progress token gets every progress notification the
/// server sends for it, in order, under the client's own token and before
/// its result: two calls at once on the raw wire (a string token and a
/// number) each get their own; and each official client, which checks the
/// token itself, hands all of them to its callback.
#[test]
fn progress_reaches_the_client_that_asked_under_its_own_token() {
    let setup = Setup::new("never", false);
    let mut wire = Wire::start(&setup.args(&[]));
    wire.initialize();
    for (id, token, steps) in [(1, json!("client-token-a"), 4), (2, json!(77), 3)] {
        wire.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "call", "arguments": long_running(1.0, steps), "_meta": {"progressToken": token},
        }}));
    }
    let mut heard: Vec<(Value, f64, Option<f64>)> = Vec::new();
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let message: Value = serde_json::from_str(&wire.line()).expect("JSON-RPC");
        if message["method"] == "notifications/progress" {
            let params = &message["params"];
            let token = params["progressToken"].clone();
            assert!(
                !answered.contains(&token),
                "progress for {token} after its result"
            );
            heard.push((
                token,
                params["progress"].as_f64().expect("progress"),
                params["total"].as_f64(),
            ));
        } else if let Some(id) = message["id"].as_u64() {
            assert!(
                message["result"]["content"][0]["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Long running operation completed.")),
                "{message}"
            );
            answered.push(if id == 1 {
                json!("client-token-a")
            } else {
                json!(77)
            });
        }
    }
    for (token, steps) in [(json!("client-token-a"), 4u32), (json!(77), 3)] {
        let seen: Vec<(f64, Option<f64>)> = heard
            .iter()
            .filter(|(t, _, _)| *t == token)
            .map(|(_, p, total)| (*p, *total))
            .collect();
        let expected: Vec<(f64, Option<f64>)> = (1..=steps)
            .map(|i| (f64::from(i), Some(f64::from(steps))))
            .collect();
        assert_eq!(seen, expected, "{token}");
    }
    assert_eq!(
        heard.len(),
        7,
        "no notification under another token: {heard:?}"
    );
    // A call without a token is sent none.
    let quiet = wire.request(
        3,
        "tools/call",
        json!({"name": "call", "arguments": long_running(0.4, 2)}),
    );
    assert!(
        quiet.contains("Long running operation completed."),
        "{quiet}"
    );
    let (status, stderr) = wire.disconnect(Duration::from_secs(20));
    assert!(status.success(), "{stderr}");
    for sdk in [Sdk::PythonModern, Sdk::PythonLegacy, Sdk::TypeScript] {
        let mut client = Driver::start(sdk, false, &setup.args(&[]));
        let answer = client.send(
            json!({"op": "call", "name": "call", "args": long_running(1.0, 4), "progress": true}),
        );
        assert!(answer.get("error").is_none(), "{sdk:?}: {answer}");
        let expected: Vec<(f64, Option<f64>)> =
            (1..=4).map(|i| (f64::from(i), Some(4.0))).collect();
        assert_eq!(progress_of(&answer), expected, "{sdk:?}: {answer}");
        client.close();
    }
}

/// Only credentials are secrets (the issue's scenario): a time zone, a
/// model name, a path and a value equal to one of the server's tool names
/// reach the tool's result unchanged, and that tool keeps its minted name
/// and works; a credential, named by its key or by the config's
/// `"secrets"`, reaches no result, log line or recording; a declaration
/// that holds one is left out, stderr naming the server, the tool and the
/// key, and the recording keeps it redacted and not admitted.
#[test]
fn only_credentials_are_secrets_and_a_redaction_never_renames_a_tool() {
    let dir = tempfile::tempdir().expect("dir");
    let record = dir.path().join("record");
    let kept = [
        ("TZ", "America/New_York"),
        ("DEFAULT_MODEL", "claude-sonnet-4-5"),
        ("DATA_DIR", "/srv/data/everything"),
        ("FAVOURITE_TOOL", "get-tiny-image"),
    ];
    let hidden = [
        ("EVERYTHING_API_KEY", "planted-api-key-3c9f0a"),
        ("UPSTREAM_TOKEN", "planted-token-77e1b2"),
        ("LISTED", "planted-listed-81d2c4"),
        // server-everything's `echo` is described by this very text.
        ("ECHO_TEXT", "Echoes back the input string"),
    ];
    let mut server = everything("never");
    server["env"] = kept
        .iter()
        .chain(&hidden)
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    server["secrets"] = json!(["LISTED", "ECHO_TEXT"]);
    let cfg = config(dir.path(), json!({"everything": server}))
        .display()
        .to_string();
    let record_dir = record.display().to_string();
    let mut client = Driver::start(
        Sdk::PythonLegacy,
        false,
        &["--config", &cfg, "--record", &record_dir],
    );
    let env = client.call("everything__get-env", json!({}), &[]);
    let printed: Value = serde_json::from_str(&text(&env)).expect("get-env prints JSON");
    for (key, value) in kept {
        assert_eq!(printed[key], json!(value), "{key}");
    }
    for (key, _) in hidden {
        assert_eq!(printed[key], json!("[redacted by disclose]"), "{key}");
    }
    // The tool whose name is a config value keeps it, and works.
    let guide = text(&client.describe("everything__get-tiny-image"));
    assert!(
        guide.starts_with("tool everything__get-tiny-image\n"),
        "{guide}"
    );
    let image = client.call("everything__get-tiny-image", json!({}), &[]);
    assert!(!is_error(&image), "{image}");
    // The tool whose description is a secret is not in the catalog.
    let echo = text(&client.call("everything__echo", json!({"message": "x"}), &[]));
    assert!(
        echo.starts_with("refused E_INVALID_ARGS call.unknown: "),
        "{echo}"
    );
    let (status, stderr) = client.close();
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("disclose: everything: tool #1 \"echo\" is left out: its declaration holds the value of mcpServers.everything.env.ECHO_TEXT, a secret (the recording keeps the declaration, redacted)\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("[redacted by disclose]__"), "{stderr}");
    let session = recording(&record);
    for output in [&stderr, &session, &env.to_string()] {
        for (_, secret) in hidden {
            assert!(!output.contains(secret), "{secret} leaked into:\n{output}");
        }
    }
    let declared: Vec<Value> = session
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a session line"))
        .filter(|op| op["op"] == "tool")
        .collect();
    let echo = declared
        .iter()
        .find(|op| op["name"] == "echo")
        .expect("echo is recorded");
    assert_eq!(echo["admitted"], json!(false), "{echo}");
    assert_eq!(
        echo["description"],
        json!("[redacted by disclose]"),
        "{echo}"
    );
    assert!(
        declared
            .iter()
            .any(|op| op["name"] == "get-tiny-image" && op.get("admitted").is_none())
    );
    let parsed = disclose_replay::session::parse(session.as_bytes()).expect("the recording parses");
    let replayed = disclose_replay::replay::replay(&parsed);
    assert!(
        replayed
            .steps
            .iter()
            .any(|s| s.output == "unadmitted tool everything/echo\n"),
        "{:?}",
        replayed.steps.iter().map(|s| &s.output).collect::<Vec<_>>()
    );
    let breaches = disclose_replay::invariants::check(&parsed, &replayed);
    assert!(breaches.is_empty(), "{breaches:?}");
}

/// With 500 tools upstream (and server-everything's beside them) the
/// dormant index in the instructions is packed up to its 1,024 bytes and
/// never past them (SPEC §4), and the instructions are that index after
/// the two-line header (`## Capabilities`, the mode line), nothing more.
#[test]
fn the_index_in_the_instructions_stays_within_its_ceiling_over_500_tools() {
    let dir = tempfile::tempdir().expect("dir");
    let many = support::installed().many_tools.display().to_string();
    let cfg = config(
        dir.path(),
        json!({"many": {"command": "node", "args": [many, "500"], "approval": "never"}, "everything": everything("never")}),
    )
    .display()
    .to_string();
    let mut wire = Wire::start(&["--config", &cfg]);
    let ready = wire.initialize();
    let instructions = ready["result"]["instructions"]
        .as_str()
        .expect("instructions");
    let header = "## Capabilities\nmode: work\n";
    let index = instructions
        .strip_prefix(header)
        .unwrap_or_else(|| panic!("{instructions}"));
    assert!(
        index.starts_with("Dormant (describe a name for its guide; call runs a tool):\n"),
        "{index}"
    );
    assert!(index.ends_with(" more\n"), "{index}");
    assert!(index.len() <= 1024, "the index is {} bytes", index.len());
    assert!(
        index.len() > 960,
        "the index is packed: {} bytes",
        index.len()
    );
    assert_eq!(instructions.len(), header.len() + index.len());
    let (status, stderr) = wire.disconnect(Duration::from_secs(20));
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("many: 500 tools listed"), "{stderr}");
}

/// What the gateway shows a model, pinned byte for byte for configs users
/// already have: the `tools/list` answer and the `instructions`, in
/// `tests/mcp/pinned/`. Nothing the gateway forwards besides tools (its
/// prompts, resources, questions) may move them. A deliberate change is
/// blessed with `DISCLOSE_BLESS=1 cargo test --test mcp pinned`, after
/// reading the diff.
#[test]
fn the_tool_list_and_instructions_are_pinned_for_existing_configs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(dir.path().join("root")).expect("a root");
    let root = dir.path().join("root");
    let memory_file = dir.path().join("memory.jsonl");
    let configs = [
        ("memory", json!({"memory": memory(&memory_file, "never")})),
        (
            "filesystem-and-memory",
            json!({"fs": filesystem(&root, "required"), "memory": memory(&memory_file, "required")}),
        ),
        (
            "reference-servers",
            json!({"everything": everything("required"), "fs": filesystem(&root, "never"), "memory": memory(&memory_file, "never")}),
        ),
    ];
    let pinned = support::root().join("tests/mcp/pinned");
    let bless = std::env::var_os("DISCLOSE_BLESS").is_some();
    let mut differs = Vec::new();
    for (name, servers) in configs {
        let config = config(dir.path(), servers).display().to_string();
        let mut wire = Wire::start(&["--config", &config]);
        let initialized = wire.initialize();
        let instructions = initialized["result"]["instructions"]
            .as_str()
            .expect("instructions")
            .to_string();
        let tools = wire.request(1, "tools/list", json!({}));
        let (status, _) = wire.disconnect(Duration::from_secs(20));
        assert!(status.success());
        for (file, got) in [
            (format!("{name}.tools-list.json"), format!("{tools}\n")),
            (format!("{name}.instructions.md"), instructions),
        ] {
            let path = pinned.join(&file);
            if bless {
                std::fs::create_dir_all(&pinned).expect("the pinned directory");
                std::fs::write(&path, &got).expect("bless");
                continue;
            }
            let want = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if want != got {
                differs.push(format!("{file}:\n--- pinned\n{want}\n--- now\n{got}"));
            }
        }
    }
    assert!(differs.is_empty(), "{}", differs.join("\n"));
}
