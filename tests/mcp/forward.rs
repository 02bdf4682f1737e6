//! What the gateway forwards besides tools, end to end with real parts:
//! server-everything and a second server written with the Python SDK
//! (`e2e/second_server.py`, whose prompt name and resource URI collide
//! with server-everything's) upstream; the Python and TypeScript SDKs as
//! clients, over stdio and by URL with several sessions at once, so that a
//! notification or a question that reached the wrong session fails.

use serde_json::{Value, json};

use crate::support::{
    Driver, Guard, Listening, Sdk, Wire, config, everything, everything_http, is_error, second,
    text,
};

/// The secret the second server quotes.
const KEY: &str = "sk-second-0123456789";

/// A config over server-everything (first in the file) and the second
/// server, neither asked; its directory.
fn both() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let servers = json!({
        "everything": everything("never"),
        "second": second(json!({"SECOND_API_KEY": KEY}), json!("never")),
    });
    let path = config(dir.path(), servers).display().to_string();
    (dir, path)
}

/// The values of `key` in the objects of `list`.
fn each<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .filter_map(|item| item[key].as_str())
        .collect()
}

/// The texts of a prompt's messages.
fn messages(answer: &Value) -> Vec<String> {
    answer["result"]["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("messages in {answer}"))
        .iter()
        .map(|m| {
            m["content"]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// The text of a resource's first contents.
fn contents(answer: &Value) -> String {
    answer["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("contents in {answer}"))
        .to_string()
}

#[test]
fn prompts_resources_and_completions_of_every_upstream_reach_every_client() {
    let (_dir, config) = both();
    for sdk in [Sdk::TypeScript, Sdk::PythonLegacy, Sdk::PythonModern] {
        let mut client = Driver::start(sdk, true, &["--config", &config]);

        // Prompts: the index first, then each server's, minted; the two
        // `simple-prompt`s are two prompts.
        let prompts = client.send(json!({"op": "list_prompts"}));
        let names = each(&prompts["prompts"], "name");
        assert_eq!(names[0], "index", "{sdk:?}: {names:?}");
        for name in [
            "everything__simple-prompt",
            "everything__args-prompt",
            "everything__completable-prompt",
            "everything__resource-prompt",
            "second__simple-prompt",
            "second__secret-prompt",
        ] {
            assert!(names.contains(&name), "{sdk:?}: {name} in {names:?}");
        }
        let args = client.send(
            json!({"op": "get_prompt", "name": "everything__args-prompt", "args": {"city": "Paris", "state": "TX"}}),
        );
        assert_eq!(messages(&args), ["What's weather in Paris, TX?"], "{sdk:?}");
        let second = client.send(json!({"op": "get_prompt", "name": "second__simple-prompt"}));
        assert_eq!(
            messages(&second),
            ["This is the second server's simple prompt."],
            "{sdk:?}"
        );
        // Every content block comes back, the embedded resource included.
        let embedded = client.send(json!({"op": "get_prompt", "name": "everything__resource-prompt", "args": {"resourceType": "Text", "resourceId": "2"}}));
        let blocks = &embedded["result"]["messages"];
        assert_eq!(
            blocks[1]["content"]["type"], "resource",
            "{sdk:?}: {embedded}"
        );
        assert_eq!(
            blocks[1]["content"]["resource"]["uri"], "demo://resource/dynamic/text/2",
            "{sdk:?}"
        );
        // A secret in a prompt's result is scrubbed.
        let secret = client.send(json!({"op": "get_prompt", "name": "second__secret-prompt"}));
        assert_eq!(
            messages(&secret),
            ["the key is [redacted by disclose]"],
            "{sdk:?}"
        );

        // Resources: URIs unchanged, the first server in the config keeps
        // the one both list, and templates route what no list names.
        let resources = client.send(json!({"op": "list_resources"}));
        let uris = each(&resources["resources"], "uri");
        assert_eq!(uris[0], "disclose://index", "{sdk:?}");
        let features = "demo://resource/static/document/features.md";
        assert_eq!(
            uris.iter().filter(|u| **u == features).count(),
            1,
            "{sdk:?}: {uris:?}"
        );
        assert!(uris.contains(&"second://note/secret"), "{sdk:?}");
        let read = client.send(json!({"op": "read", "uri": features}));
        assert!(
            contents(&read).starts_with("# Everything Server - Features"),
            "{sdk:?}: the first in the config serves it: {read}"
        );
        let templates = client.send(json!({"op": "list_templates"}));
        assert!(
            each(&templates["resourceTemplates"], "uriTemplate")
                .contains(&"demo://resource/dynamic/text/{resourceId}"),
            "{sdk:?}: {templates}"
        );
        let by_template =
            client.send(json!({"op": "read", "uri": "demo://resource/dynamic/text/3"}));
        assert!(
            contents(&by_template).starts_with("Resource 3: This is a plaintext resource"),
            "{sdk:?}: {by_template}"
        );
        let scrubbed = client.send(json!({"op": "read", "uri": "second://note/secret"}));
        assert_eq!(contents(&scrubbed), "key [redacted by disclose]", "{sdk:?}");
        let unclaimed = client.send(json!({"op": "read", "uri": "nowhere://at/all"}));
        let error = unclaimed["error"].as_str().unwrap_or_default();
        assert!(
            error.contains("no server lists \"nowhere://at/all\""),
            "{sdk:?}: {unclaimed}"
        );
        if matches!(sdk, Sdk::TypeScript) {
            // The specification's "resource not found" (2025-11-25).
            assert_eq!(unclaimed["code"], -32002, "{unclaimed}");
        }

        // Completions, by the prompt's minted name and by the template.
        let department = client.send(json!({"op": "complete", "ref": {"type": "ref/prompt", "name": "everything__completable-prompt"}, "argument": {"name": "department", "value": "En"}}));
        assert_eq!(
            department["result"]["completion"]["values"],
            json!(["Engineering"]),
            "{sdk:?}: {department}"
        );
        let id = client.send(json!({"op": "complete", "ref": {"type": "ref/resource", "uri": "demo://resource/dynamic/text/{resourceId}"}, "argument": {"name": "resourceId", "value": "5"}}));
        assert_eq!(
            id["result"]["completion"]["values"],
            json!(["5"]),
            "{sdk:?}: {id}"
        );

        // A resource_link in a tool result is readable through the gateway.
        let links = client.call("everything__get-resource-links", json!({"count": 2}), &[]);
        let linked: Vec<String> = links["result"]["content"]
            .as_array()
            .expect("content")
            .iter()
            .filter(|block| block["type"] == "resource_link")
            .map(|block| block["uri"].as_str().expect("a uri").to_string())
            .collect();
        assert_eq!(linked.len(), 2, "{sdk:?}: {links}");
        for uri in linked {
            let read = client.send(json!({"op": "read", "uri": uri}));
            assert!(read.get("result").is_some(), "{sdk:?}: {uri}: {read}");
        }
        let (status, stderr) = client.close();
        assert!(status.success(), "{sdk:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "disclose: second: resource \"{features}\" is left out: everything lists it too, first in the config"
            )),
            "{stderr}"
        );
        assert!(!stderr.contains(KEY), "the secret reached stderr");
    }
}

/// The raw line of the answer to request `id`, its id taken out, and the
/// time server-everything writes into its dynamic resources ("created at
/// 9:43:12 AM") too.
fn answered(wire: &mut Wire, id: u64, method: &str, params: Value) -> String {
    let line = wire.request(id, method, params);
    let mut line = line.replacen(&format!("\"id\":{id},"), "", 1);
    let mut from = 0;
    while let Some(at) = line[from..].find("created at ") {
        let start = from + at + "created at ".len();
        let end = line[start..].find('"').map_or(line.len(), |n| start + n);
        line.replace_range(start..end, "…");
        from = start;
    }
    line
}

/// The answer's `result`, parsed.
fn result_of(line: &str) -> Value {
    let answer: Value = serde_json::from_str(line).expect("JSON-RPC");
    answer["result"].clone()
}

/// Over stdio a plain `prompts/get` or `resources/read` goes on the lane;
/// the same request with `_meta` is left to rmcp's handler. Their answers
/// are the same bytes: the server's result, secrets scrubbed, and the same
/// errors for what no server claims.
#[test]
fn prompts_and_reads_on_the_lane_answer_as_rmcp_s_handler_does() {
    let (_dir, config) = both();
    let mut wire = Wire::start(&["--config", &config]);
    wire.initialize();
    let cases = [
        (
            "prompts/get",
            json!({"name": "everything__args-prompt", "arguments": {"city": "Paris", "state": "TX"}}),
        ),
        (
            "prompts/get",
            json!({"name": "everything__resource-prompt", "arguments": {"resourceType": "Text", "resourceId": "2"}}),
        ),
        ("prompts/get", json!({"name": "second__simple-prompt"})),
        ("prompts/get", json!({"name": "second__secret-prompt"})),
        ("prompts/get", json!({"name": "nobody__prompt"})),
        ("prompts/get", json!({"name": "index"})),
        (
            "resources/read",
            json!({"uri": "demo://resource/static/document/features.md"}),
        ),
        (
            "resources/read",
            json!({"uri": "demo://resource/dynamic/text/3"}),
        ),
        ("resources/read", json!({"uri": "second://note/secret"})),
        ("resources/read", json!({"uri": "nowhere://at/all"})),
        ("resources/read", json!({"uri": "disclose://index"})),
    ];
    let mut id = 10;
    let mut lane = Vec::new();
    for (method, params) in &cases {
        let mut with_meta = params.clone();
        with_meta["_meta"] = json!({});
        let plain = answered(&mut wire, id, method, params.clone());
        let typed = answered(&mut wire, id + 1, method, with_meta);
        assert_eq!(plain, typed, "{method} {params}");
        assert!(!plain.contains(KEY), "a secret reached the client: {plain}");
        lane.push(plain);
        id += 2;
    }
    let secret = result_of(&lane[3]);
    assert_eq!(
        secret["messages"][0]["content"]["text"], "the key is [redacted by disclose]",
        "{secret}"
    );
    let note = result_of(&lane[8]);
    assert_eq!(
        note["contents"][0]["text"], "key [redacted by disclose]",
        "{note}"
    );
    // A prompt no server lists: invalid params; a URI no server claims:
    // the specification's "resource not found", naming it.
    let unknown: Value = serde_json::from_str(&lane[4]).expect("JSON-RPC");
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(
        unknown["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no prompt is named \"nobody__prompt\"")),
        "{unknown}"
    );
    let unclaimed: Value = serde_json::from_str(&lane[9]).expect("JSON-RPC");
    assert_eq!(unclaimed["error"]["code"], -32002, "{unclaimed}");
    assert_eq!(
        unclaimed["error"]["data"]["uri"], "nowhere://at/all",
        "{unclaimed}"
    );
    let (status, stderr) = wire.disconnect(std::time::Duration::from_secs(10));
    assert!(status.success(), "{stderr}");
    assert!(!stderr.contains(KEY), "the secret reached stderr");

    // What each server gives a client that reaches it without the gateway
    // is what the gateway gives.
    let servers = [
        (everything("never"), &cases[..2], &lane[..2]),
        (everything("never"), &cases[6..8], &lane[6..8]),
        (second(json!({}), json!("never")), &cases[2..3], &lane[2..3]),
    ];
    for (entry, cases, lane) in servers {
        let mut direct = Wire::server(&entry);
        direct.initialize();
        for ((method, params), through) in cases.iter().zip(lane) {
            let mut params = params.clone();
            if let Some(name) = params["name"].as_str() {
                let raw = name.split_once("__").expect("a minted name").1;
                params["name"] = json!(raw);
            }
            let own = answered(&mut direct, 1, method, params.clone());
            assert_eq!(
                result_of(through),
                result_of(&own),
                "{method} {params}: through the gateway {through}, direct {own}"
            );
        }
    }
}

/// On the lane a read that its server does not answer in time, or that
/// the client cancels, or whose server dies serving it, ends as rmcp's
/// handler ends it: the same timeout error, no answer, and the server
/// restarted by the next read.
#[test]
fn a_read_on_the_lane_times_out_is_cancelled_and_restarts_its_server_as_rmcp_s_handler_does() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let marker = dir.path().join("died-once");
    let env = json!({"SECOND_API_KEY": KEY, "SECOND_SLOW": "30", "SECOND_MARKER": marker.display().to_string()});
    let servers = json!({"second": second(env, json!("never"))});
    let config = config(dir.path(), servers).display().to_string();
    let mut wire = Wire::start(&["--config", &config, "--call-timeout", "1"]);
    wire.initialize();

    let slow = json!({"uri": "second://slow"});
    let plain = answered(&mut wire, 1, "resources/read", slow.clone());
    let typed = answered(
        &mut wire,
        2,
        "resources/read",
        json!({"uri": "second://slow", "_meta": {}}),
    );
    assert_eq!(plain, typed);
    assert!(
        plain.contains("did not answer resources/read \\\"second://slow\\\" within 1 s (--call-timeout); the request was cancelled upstream"),
        "{plain}"
    );

    // Cancelled: never answered, then or after its timeout.
    wire.send(json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": slow}));
    wire.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
    );
    for id in [4, 5] {
        if id == 5 {
            std::thread::sleep(std::time::Duration::from_millis(1500));
        }
        wire.send(json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": "second://note/secret"}}));
        loop {
            let line: Value = serde_json::from_str(&wire.line()).expect("JSON-RPC");
            assert_ne!(line["id"], 3, "a cancelled read was answered: {line}");
            if line["id"] == id {
                assert_eq!(contents(&line), "key [redacted by disclose]", "{line}");
                break;
            }
        }
    }

    // Dies serving it: the error names the exit, and the next read
    // restarts the server.
    let died: Value = serde_json::from_str(&answered(
        &mut wire,
        6,
        "resources/read",
        json!({"uri": "second://fragile"}),
    ))
    .expect("JSON-RPC");
    let error = died["error"]["message"].as_str().unwrap_or_default();
    assert!(
        error.contains("server \"second\" exited")
            && error.contains("during resources/read \"second://fragile\""),
        "{died}"
    );
    let again: Value = serde_json::from_str(&answered(
        &mut wire,
        7,
        "resources/read",
        json!({"uri": "second://fragile"}),
    ))
    .expect("JSON-RPC");
    assert_eq!(contents(&again), "read after a restart", "{again}");
    let (status, stderr) = wire.disconnect(std::time::Duration::from_secs(10));
    assert!(status.success(), "{stderr}");
    assert!(stderr.contains("second: restarted"), "{stderr}");
    assert!(!stderr.contains(KEY), "the secret reached stderr");
}

/// A gateway by URL over server-everything twice (by stdio, and over
/// streamable HTTP as `web`) and the second server, none asked; the HTTP
/// server's guard.
fn listening() -> (tempfile::TempDir, Guard, Listening) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (web, url) = everything_http();
    let servers = json!({
        "everything": everything("never"),
        "second": second(json!({"SECOND_API_KEY": KEY}), json!("never")),
        "web": {"type": "http", "url": url, "approval": "never"},
    });
    let config = config(dir.path(), servers).display().to_string();
    let gateway = Listening::start(&["--config", &config, "--listen", "127.0.0.1:0"], &[]);
    (dir, web, gateway)
}

/// The clients of one gateway, each with sampling declared.
fn sampling_client(sdk: Sdk, elicit: bool, url: &str) -> Driver {
    Driver::launch(sdk, elicit, url, &[], &[("MCP_SAMPLING", "1")])
}

#[test]
fn a_server_s_question_goes_to_the_session_whose_call_asked_it() {
    let (_dir, _guards, gateway) = listening();
    let url = gateway.url();
    let mut ts = sampling_client(Sdk::TypeScript, true, &url);
    let mut py = sampling_client(Sdk::PythonLegacy, true, &url);

    // Two sessions call the same HTTP server's asking tool at once: each
    // question arrives on the stream of the call it belongs to, and each
    // session answers only its own.
    let elicit = |name: &str| json!({"op": "call", "name": "call", "args": {"name": "web__trigger-elicitation-request", "args": {}}, "answers": [{"name": name}]});
    ts.ask(elicit("Ada"));
    py.ask(elicit("Bo"));
    let (ts_answer, py_answer) = (ts.answer(), py.answer());
    for (answer, name) in [(&ts_answer, "Ada"), (&py_answer, "Bo")] {
        let asked = answer["asked"].as_array().expect("asked");
        assert_eq!(
            asked,
            &[json!("Please provide inputs for the following fields:")],
            "{answer}"
        );
        let texts: Vec<&str> = answer["result"]["content"]
            .as_array()
            .expect("content")
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect();
        assert!(
            texts.iter().any(|t| t.contains(&format!("- Name: {name}"))),
            "{name}: {answer}"
        );
    }

    // Over stdio the wire names no call: the one session calling is asked.
    ts.ask(json!({"op": "call", "name": "call", "args": {"name": "second__ask_name", "args": {}}, "answers": [{"name": "Cy"}]}));
    py.ask(json!({"op": "call", "name": "call", "args": {"name": "everything__trigger-sampling-request", "args": {"prompt": "hello there", "maxTokens": 20}}, "answers": []}));
    let (asked_name, sampled) = (ts.answer(), py.answer());
    assert_eq!(text(&asked_name), "hello Cy", "{asked_name}");
    assert_eq!(asked_name["asked"], json!(["What is your name?"]));
    // server-everything puts its own words before the prompt.
    let asked = sampled["asked"].as_array().expect("asked");
    assert!(
        asked.len() == 1
            && asked[0]
                .as_str()
                .is_some_and(|a| a.starts_with("sampling: ") && a.ends_with("hello there")),
        "{sampled}"
    );
    assert!(text(&sampled).contains("hello there\""), "{sampled}");

    // A client that declared neither: the server gets the errors the
    // specification has such a client answer, and says so in its result.
    let mut plain = Driver::connect(Sdk::TypeScript, false, &url, None);
    let refused = plain.call("everything__trigger-elicitation-request", json!({}), &[]);
    assert!(
        refused.to_string().contains("-32602"),
        "elicitation without the capability: {refused}"
    );
    let refused = plain.call(
        "everything__trigger-sampling-request",
        json!({"prompt": "x", "maxTokens": 5}),
        &[],
    );
    assert!(
        refused.to_string().contains("-32601"),
        "sampling without the capability: {refused}"
    );
    plain.close();
    ts.close();
    py.close();
    let (_, stderr) = gateway.stop();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn resource_updates_reach_only_the_sessions_subscribed_and_list_changes_reach_all() {
    let (_dir, _guards, gateway) = listening();
    let url = gateway.url();
    let mut a = Driver::connect(Sdk::TypeScript, true, &url, None);
    let mut b = Driver::connect(Sdk::TypeScript, true, &url, None);
    let one = "demo://resource/dynamic/text/1";
    let two = "demo://resource/dynamic/text/2";
    for (client, uri) in [(&mut a, one), (&mut b, two)] {
        let subscribed = client.send(json!({"op": "subscribe", "uri": uri}));
        assert!(subscribed.get("result").is_some(), "{subscribed}");
    }
    // server-everything sends an update of each subscribed URI at once,
    // then every 5 s.
    let toggled = a.call("everything__toggle-subscriber-updates", json!({}), &[]);
    assert!(!is_error(&toggled), "{toggled}");
    let wait = json!({"op": "notes", "wait_ms": 20000, "until": "notifications/resources/updated"});
    let seen_a = a.send(wait.clone());
    let seen_b = b.send(wait);
    let updated = |seen: &Value| -> Vec<String> {
        seen["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .filter(|n| n["method"] == "notifications/resources/updated")
            .map(|n| n["uri"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let (for_a, for_b) = (updated(&seen_a), updated(&seen_b));
    assert!(
        !for_a.is_empty() && for_a.iter().all(|u| u == one),
        "{seen_a}"
    );
    assert!(
        !for_b.is_empty() && for_b.iter().all(|u| u == two),
        "{seen_b}"
    );
    let unsubscribed = a.send(json!({"op": "unsubscribe", "uri": one}));
    assert!(unsubscribed.get("result").is_some(), "{unsubscribed}");

    // A resource a tool registers: its server announces the list changed,
    // and every session is told and can read it.
    let gzip = b.call(
        "everything__gzip-file-as-resource",
        json!({"name": "hello.txt", "data": "data:text/plain;base64,aGVsbG8="}),
        &[],
    );
    assert!(!is_error(&gzip), "{gzip}");
    for client in [&mut a, &mut b] {
        let seen = client.send(json!({"op": "notes", "wait_ms": 20000, "until": "notifications/resources/list_changed"}));
        assert!(
            seen["notes"]
                .as_array()
                .expect("notes")
                .iter()
                .any(|n| n["method"] == "notifications/resources/list_changed"),
            "{seen}"
        );
        let listed = client.send(json!({"op": "list_resources"}));
        assert!(
            each(&listed["resources"], "uri").contains(&"demo://resource/session/hello.txt"),
            "{listed}"
        );
        let read = client.send(json!({"op": "read", "uri": "demo://resource/session/hello.txt"}));
        assert!(read.get("result").is_some(), "{read}");
    }
    a.close();
    b.close();
    gateway.stop();
}

#[test]
fn filters_approval_rules_and_vs_code_s_shape_hold_with_real_servers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("record");
    let mut everything = everything("never");
    everything["tools"] = json!({"allow": ["echo", "get-*"], "deny": ["get-env"]});
    everything["approval"] = json!({"default": "never", "required": ["echo"]});
    let servers = json!({
        "Everything_Server": everything,
        "second": second(json!({}), json!("writes")),
        "off": {"command": "no-such-command-anywhere", "disabled": true},
    });
    let path = dir.path().join("mcp.json");
    std::fs::write(&path, json!({ "servers": servers }).to_string()).expect("the config");
    let path = path.display().to_string();
    let record_arg = record.display().to_string();
    let mut client = Driver::start(
        Sdk::TypeScript,
        true,
        &["--config", &path, "--record", &record_arg],
    );
    let index = client.ready["instructions"]
        .as_str()
        .expect("instructions")
        .to_string();
    assert!(index.contains("- everything-server__echo:"), "{index}");
    assert!(!index.contains("get-env"), "{index}");
    assert!(!index.contains("toggle-simulated-logging"), "{index}");

    // Left out: unknown to describe and to call, as a name never listed.
    let describe = |name: &str| json!({"op": "call", "name": "describe", "args": {"name": name}, "answers": []});
    let described = client.send(describe("everything-server__get-env"));
    let never = client.send(describe("everything-server__no-such-tool"));
    let first_line = |answer: &Value, name: &str| {
        let text = text(answer);
        text.lines().next().unwrap_or_default().replace(name, "X")
    };
    assert_eq!(
        first_line(&described, "get-env"),
        first_line(&never, "no-such-tool"),
        "a filtered tool is unknown: {described}"
    );
    let called = client.call("everything-server__get-env", json!({}), &[]);
    assert!(is_error(&called), "{called}");
    assert!(called["asked"].as_array().expect("asked").is_empty());

    // Approval per tool: `echo` is asked, `get-sum` is not; `writes` asks
    // for second's writing tool only.
    let sum = client.call("everything-server__get-sum", json!({"a": 1, "b": 2}), &[]);
    assert!(text(&sum).contains('3'), "{sum}");
    assert!(sum["asked"].as_array().expect("asked").is_empty(), "{sum}");
    let echo = client.call(
        "everything-server__echo",
        json!({"message": "hi"}),
        &["allow once"],
    );
    assert_eq!(text(&echo), "Echo: hi");
    assert_eq!(echo["asked"].as_array().expect("asked").len(), 1, "{echo}");
    let read = client.call("second__read_note", json!({}), &[]);
    assert_eq!(text(&read), "the note");
    assert!(
        read["asked"].as_array().expect("asked").is_empty(),
        "{read}"
    );
    let wrote = client.call("second__write_note", json!({"text": "x"}), &["allow once"]);
    assert_eq!(text(&wrote), "wrote x");
    assert_eq!(
        wrote["asked"].as_array().expect("asked").len(),
        1,
        "{wrote}"
    );

    let (status, stderr) = client.close();
    assert!(status.success(), "{stderr}");
    for said in [
        "servers.Everything_Server serves as origin \"everything-server\"",
        "servers.off is disabled (\"disabled\": true) and not started",
        "tools left out by servers.Everything_Server.tools",
    ] {
        assert!(stderr.contains(said), "{said:?} in:\n{stderr}");
    }
    assert!(!stderr.contains("no-such-command-anywhere"), "{stderr}");
    let recorded: String = std::fs::read_dir(&record)
        .expect("the recording")
        .filter_map(Result::ok)
        .map(|e| std::fs::read_to_string(e.path()).expect("a recording"))
        .collect();
    let declared: Vec<String> = recorded
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .filter(|op| op["op"] == "tool")
        .map(|op| {
            format!(
                "{}/{}",
                op["origin"].as_str().unwrap_or_default(),
                op["name"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert!(
        declared.contains(&"everything-server/echo".to_string()),
        "{declared:?}"
    );
    assert!(
        !declared.iter().any(|d| d.ends_with("/get-env")),
        "a filtered tool was declared in the recording: {declared:?}"
    );
    // Approval follows the rule into the recording.
    assert!(recorded.contains(r#""name":"echo""#), "{recorded}");
}

#[test]
fn an_upstream_that_dies_serving_resources_read_is_restarted_by_the_next_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let marker = dir.path().join("died-once");
    let servers = json!({
        "second": second(json!({"SECOND_MARKER": marker.display().to_string()}), json!("never")),
    });
    let config = config(dir.path(), servers).display().to_string();
    let mut client = Driver::start(Sdk::TypeScript, false, &["--config", &config]);
    let died = client.send(json!({"op": "read", "uri": "second://fragile"}));
    let error = died["error"].as_str().unwrap_or_default();
    assert!(
        error.contains("server \"second\" exited")
            && error.contains("during resources/read \"second://fragile\""),
        "{died}"
    );
    let again = client.send(json!({"op": "read", "uri": "second://fragile"}));
    assert_eq!(contents(&again), "read after a restart", "{again}");
    let (_, stderr) = client.close();
    assert!(stderr.contains("second: restarted"), "{stderr}");
}

/// A client of 2026-07-28 takes no request from a server: the gateway
/// gives it the server's question as `input_required` on its call, and
/// its retry's answer goes back to the server, which then finishes.
#[test]
fn a_2026_07_28_client_is_asked_a_server_s_questions_in_rounds_of_its_call() {
    let (_dir, config) = both();
    let mut client = Driver::launch(
        Sdk::PythonModern,
        true,
        crate::support::disclose(),
        &["mcp", "--config", &config],
        &[("MCP_SAMPLING", "1")],
    );
    assert_eq!(client.ready["protocol"], "2026-07-28", "{}", client.ready);
    let call = |name: &str, args: Value, answers: Value| json!({"op": "call", "name": "call", "args": {"name": name, "args": args}, "answers": answers});
    let named = client.send(call("second__ask_name", json!({}), json!([{"name": "Di"}])));
    assert_eq!(text(&named), "hello Di", "{named}");
    assert_eq!(named["asked"], json!(["What is your name?"]));
    let sampled = client.send(call(
        "everything__trigger-sampling-request",
        json!({"prompt": "rounds", "maxTokens": 5}),
        json!([]),
    ));
    assert!(text(&sampled).contains("rounds\""), "{sampled}");
    let declined = client.send(call("second__ask_name", json!({}), json!(["reject"])));
    assert_eq!(text(&declined), "decline", "{declined}");
    let (status, stderr) = client.close();
    assert!(status.success(), "{stderr}");
}
