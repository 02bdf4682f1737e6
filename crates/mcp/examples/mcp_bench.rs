//! The gateway's performance targets, measured side by side in one run
//! (`script/bench-mcp` runs it on a release build, after
//! `script/mcp-e2e-install`). One line per target:
//!
//! - G1: a `call` round trip through the gateway against the same call
//!   made directly to the same upstream (server-everything's `echo`) by the
//!   same client (rmcp); the ratio of medians, target ≤ 1.2.
//! - G2: from launch to `tools/list` answered with three upstreams
//!   (server-everything, server-filesystem, server-memory), against the
//!   slowest upstream's own launch, `initialize` and `tools/list`; the ratio
//!   of medians, target ≤ 1.2.
//! - G3: the gateway's peak RSS (VmHWM) with 1,000 upstream tools admitted
//!   (e2e/many_tools.mjs, built with the official TypeScript SDK), after
//!   `tools/list` and ten ranked `describe`s; target ≤ 64 MiB.
//! - G4: a `call` round trip through the gateway over streamable HTTP
//!   (`--listen`, with a bearer token, one MCP session) against the same
//!   call through the gateway over stdio, same client (rmcp), same
//!   upstream; the ratio of medians.
//! - G5: 16 MCP sessions at once over HTTP, each making 100 `call`s one
//!   after another (one server-everything upstream for all); every call
//!   must succeed; p50 and p99 latency, the wall time, and the gateway's
//!   peak RSS. Then what a session costs in memory: the peak RSS with 16
//!   sessions open over 1,000 upstream tools (e2e/many_tools.mjs), each
//!   after one ranked `describe`.
//!
//! Usage: mcp_bench DISCLOSE NODE_MODULES [ROUNDS] [g1|http]
//! (the gateway is `DISCLOSE mcp`; `g1` runs G1 alone, `http` G4 and G5)

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

type Client = RunningService<RoleClient, ()>;

struct Spawned {
    client: Client,
    child: tokio::process::Child,
}

async fn spawn(program: &str, args: &[String]) -> Spawned {
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let client = ().serve((stdout, stdin)).await.expect("initialize");
    Spawned { client, child }
}

async fn call(client: &Client, name: &str, args: Value) -> Duration {
    let mut params = CallToolRequestParams::new(name.to_string());
    params.arguments = args.as_object().cloned().or_else(|| Some(Map::new()));
    let started = Instant::now();
    let answer = client
        .peer()
        .call_tool_once(params)
        .await
        .expect("a result");
    let took = started.elapsed();
    assert!(matches!(answer, CallToolResponse::Complete(_)));
    took
}

/// Runs futures at once on this task, in order of the results.
async fn futures_join<F: std::future::Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut pinned: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = (0..pinned.len()).map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (i, f) in pinned.iter_mut().enumerate() {
            if out[i].is_none() {
                match f.as_mut().poll(cx) {
                    std::task::Poll::Ready(v) => out[i] = Some(v),
                    std::task::Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
    out.into_iter().flatten().collect()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn js(modules: &Path, package: &str) -> String {
    modules
        .join(package)
        .join("dist/index.js")
        .display()
        .to_string()
}

fn config(dir: &Path, servers: Value) -> String {
    let path = dir.join(format!("bench-{}.json", std::process::id()));
    std::fs::write(&path, json!({ "mcpServers": servers }).to_string()).expect("config");
    path.display().to_string()
}

async fn stop(spawned: Spawned) {
    let Spawned { client, mut child } = spawned;
    let _ = client.cancel().await;
    let _ = child.kill().await;
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let gateway = args
        .get(1)
        .expect("usage: mcp_bench GATEWAY NODE_MODULES [ROUNDS]")
        .clone();
    let modules = PathBuf::from(args.get(2).expect("NODE_MODULES"));
    let rounds: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(300);
    let tmp = std::env::temp_dir();
    let everything = js(&modules, "@modelcontextprotocol/server-everything");
    let filesystem = js(&modules, "@modelcontextprotocol/server-filesystem");
    let memory = js(&modules, "@modelcontextprotocol/server-memory");
    let root = tmp.join(format!("bench-root-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("root");
    let root = root.display().to_string();
    let memory_file = tmp.join(format!("bench-memory-{}.jsonl", std::process::id()));
    if args.get(4).map(String::as_str) == Some("http") {
        over_http(&gateway, &modules, rounds).await;
        clean(&tmp);
        return;
    }

    // G1: alternate direct and gateway calls, so both see the same machine.
    let direct = spawn("node", &[everything.clone(), "stdio".into()]).await;
    let cfg = config(
        &tmp,
        json!({"everything": {"command": "node", "args": [everything, "stdio"], "approval": "never"}}),
    );
    let through = spawn(&gateway, &["mcp".into(), "--config".into(), cfg]).await;
    let (mut d, mut g) = (Vec::new(), Vec::new());
    for i in 0..rounds + 20 {
        let message = json!({"message": format!("round {i}")});
        let a = call(&direct.client, "echo", message.clone()).await;
        let b = call(
            &through.client,
            "call",
            json!({"name": "everything__echo", "args": message}),
        )
        .await;
        if i >= 20 {
            d.push(a);
            g.push(b);
        }
    }
    let mut local = Vec::new();
    for _ in 0..rounds {
        local.push(
            call(
                &through.client,
                "describe",
                json!({"name": "everything__echo"}),
            )
            .await,
        );
    }
    let (md, mg) = (median(d), median(g));
    let ml = median(local);
    let g1 = mg.as_secs_f64() / md.as_secs_f64();
    println!(
        "G1 call round trip gateway/direct {g1:.2}x (target <= 1.2) {} [gateway median {mg:?}, direct median {md:?}, {rounds} calls each; describe through the gateway alone {ml:?}]",
        if g1 <= 1.2 { "pass" } else { "FAIL" }
    );
    stop(direct).await;
    stop(through).await;
    if args.get(4).map(String::as_str) == Some("g1") {
        return;
    }

    // G2: launch to tools/list answered.
    let three = json!({
        "everything": {"command": "node", "args": [everything, "stdio"]},
        "fs": {"command": "node", "args": [filesystem, root]},
        "memory": {"command": "node", "args": [memory], "env": {"MEMORY_FILE_PATH": memory_file.display().to_string()}},
    });
    let cfg = config(&tmp, three);
    let alone: [(&str, Vec<String>); 3] = [
        ("everything", vec![everything.clone(), "stdio".into()]),
        ("fs", vec![filesystem.clone(), root.clone()]),
        ("memory", vec![memory.clone()]),
    ];
    let g2_rounds = 7;
    let mut own: Vec<Vec<Duration>> = vec![Vec::new(); 3];
    let mut whole = Vec::new();
    let mut together = Vec::new();
    for _ in 0..g2_rounds {
        // The three started at once by the client itself: what two cores
        // allow, with no gateway.
        let started = Instant::now();
        let each = alone.iter().map(|(_, args)| async move {
            let s = spawn("node", args).await;
            let _ = s.client.peer().list_all_tools().await.expect("tools");
            s
        });
        let all = futures_join(each.collect()).await;
        together.push(started.elapsed());
        for s in all {
            stop(s).await;
        }
        for (k, (_, args)) in alone.iter().enumerate() {
            let started = Instant::now();
            let s = spawn("node", args).await;
            let _ = s.client.peer().list_all_tools().await.expect("tools");
            own[k].push(started.elapsed());
            stop(s).await;
        }
        let started = Instant::now();
        let s = spawn(&gateway, &["mcp".into(), "--config".into(), cfg.clone()]).await;
        let _ = s.client.peer().list_all_tools().await.expect("tools");
        whole.push(started.elapsed());
        stop(s).await;
    }
    let own: Vec<Duration> = own.into_iter().map(median).collect();
    let slowest = own.iter().copied().max().unwrap_or_default();
    let mw = median(whole);
    let mt = median(together);
    let g2 = mw.as_secs_f64() / slowest.as_secs_f64();
    println!(
        "G2 launch to tools/list, 3 upstreams / slowest alone {g2:.2}x (target <= 1.2) {} [gateway median {mw:?}; alone: everything {:?}, filesystem {:?}, memory {:?}; the three started at once by the client, no gateway, {mt:?} (gateway/that {:.2}x); {g2_rounds} rounds]",
        if g2 <= 1.2 { "pass" } else { "FAIL" },
        own[0],
        own[1],
        own[2],
        mw.as_secs_f64() / mt.as_secs_f64()
    );

    // G3: peak RSS with 1,000 upstream tools.
    let many = modules.parent().expect("node dir").join("many_tools.mjs");
    let cfg = config(
        &tmp,
        json!({"many": {"command": "node", "args": [many.display().to_string(), "1000"], "approval": "never"}}),
    );
    let s = spawn(&gateway, &["mcp".into(), "--config".into(), cfg]).await;
    let _ = s.client.peer().list_all_tools().await.expect("tools");
    for query in [
        "find an invoice",
        "delete a ticket",
        "export the orders",
        "sync the repo",
        "search contacts by email",
        "update a deal",
        "list every page",
        "get the event",
        "create an issue",
        "many__get_issue_0",
    ] {
        call(&s.client, "describe", json!({ "name": query })).await;
    }
    call(
        &s.client,
        "call",
        json!({"name": "many__get_issue_0", "args": {"id": "1"}}),
    )
    .await;
    let mib = peak_rss_mib(s.child.id().expect("pid"));
    println!(
        "G3 peak RSS with 1,000 upstream tools admitted {mib:.1} MiB (target <= 64 MiB) {}",
        if mib <= 64.0 { "pass" } else { "FAIL" }
    );
    stop(s).await;
    over_http(&gateway, &modules, rounds).await;
    clean(&tmp);
}

/// Removes what this process wrote under `tmp`: its gateway config, the
/// filesystem server's root and the memory server's file.
fn clean(tmp: &Path) {
    let pid = std::process::id();
    let _ = std::fs::remove_file(tmp.join(format!("bench-{pid}.json")));
    let _ = std::fs::remove_file(tmp.join(format!("bench-memory-{pid}.jsonl")));
    let _ = std::fs::remove_dir_all(tmp.join(format!("bench-root-{pid}")));
}

/// The token the HTTP gateway of G4 and G5 requires.
const TOKEN: &str = "mcp-bench-token-0123456789abcdef";

/// The gateway over HTTP: its process and its URL (read from stderr).
async fn listening(gateway: &str, cfg: &str) -> (tokio::process::Child, String) {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(gateway)
        .args(["mcp", "--config", cfg, "--listen", "127.0.0.1:0"])
        .args(["--token-env", "MCP_BENCH_TOKEN"])
        .env("MCP_BENCH_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the gateway starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    let url = loop {
        let line = lines
            .next_line()
            .await
            .expect("stderr")
            .expect("the gateway says where it listens");
        if let Some(rest) = line.strip_prefix("disclose: listening on ") {
            break rest.split(' ').next().expect("a URL").to_string();
        }
    };
    // Drain the rest, so the gateway never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, url)
}

async fn http_client(url: &str) -> Client {
    // rmcp's reqwest is built without a TLS provider (the gateway's own
    // client installs ring's, `src/http_client.rs`); the bench's client
    // must install it too before reqwest builds a client.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let config = StreamableHttpClientTransportConfig::with_uri(url).auth_header(TOKEN);
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize over HTTP")
}

fn peak_rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    kib as f64 / 1024.0
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

/// G4 and G5.
async fn over_http(gateway: &str, modules: &Path, rounds: usize) {
    let everything = js(modules, "@modelcontextprotocol/server-everything");
    let tmp = std::env::temp_dir();
    let cfg = config(
        &tmp,
        json!({"everything": {"command": "node", "args": [everything, "stdio"], "approval": "never"}}),
    );
    // G4: alternate HTTP and stdio calls, so both see the same machine.
    let (mut server, url) = listening(gateway, &cfg).await;
    let http = http_client(&url).await;
    let stdio = spawn(gateway, &["mcp".into(), "--config".into(), cfg.clone()]).await;
    let (mut h, mut s) = (Vec::new(), Vec::new());
    let (mut hd, mut sd) = (Vec::new(), Vec::new());
    for i in 0..rounds + 20 {
        let message =
            json!({"name": "everything__echo", "args": {"message": format!("round {i}")}});
        let a = call(&http, "call", message.clone()).await;
        let b = call(&stdio.client, "call", message).await;
        let describe = json!({"name": "everything__echo"});
        let c = call(&http, "describe", describe.clone()).await;
        let d = call(&stdio.client, "describe", describe).await;
        if i >= 20 {
            h.push(a);
            s.push(b);
            hd.push(c);
            sd.push(d);
        }
    }
    let (mh, ms) = (median(h), median(s));
    let (mhd, msd) = (median(hd), median(sd));
    println!(
        "G4 call round trip gateway over HTTP/over stdio {:.2}x [HTTP median {mh:?}, stdio median {ms:?}, {rounds} calls each; describe alone: HTTP {mhd:?}, stdio {msd:?}, {:.2}x]",
        mh.as_secs_f64() / ms.as_secs_f64(),
        mhd.as_secs_f64() / msd.as_secs_f64()
    );
    let _ = http.cancel().await;
    stop(stdio).await;
    let _ = server.kill().await;

    // G5: 16 sessions at once, 100 calls each.
    let (sessions, calls) = (16, 100);
    let (mut server, url) = listening(gateway, &cfg).await;
    let pid = server.id().expect("pid");
    let started = Instant::now();
    let tasks: Vec<_> = (0..sessions)
        .map(|n| {
            let url = url.clone();
            tokio::spawn(async move {
                let client = http_client(&url).await;
                let mut took = Vec::with_capacity(calls);
                let mut failed = 0usize;
                for i in 0..calls {
                    let mut params = CallToolRequestParams::new("call");
                    params.arguments = json!({"name": "everything__echo", "args": {"message": format!("session {n} call {i}")}})
                        .as_object()
                        .cloned();
                    let at = Instant::now();
                    match client.peer().call_tool_once(params).await {
                        Ok(CallToolResponse::Complete(result)) if result.is_error != Some(true) => {
                            took.push(at.elapsed());
                        }
                        _ => failed += 1,
                    }
                }
                let _ = client.cancel().await;
                (took, failed)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut failed = 0;
    for task in tasks {
        let (took, f) = task.await.expect("a session");
        all.extend(took);
        failed += f;
    }
    let wall = started.elapsed();
    all.sort();
    let rss = peak_rss_mib(pid);
    println!(
        "G5 {sessions} sessions x {calls} calls over HTTP: {} ok, {failed} failed {}; p50 {:?}, p99 {:?}, wall {wall:?} ({:.0} calls/s); gateway peak RSS {rss:.1} MiB",
        all.len(),
        if failed == 0 { "pass" } else { "FAIL" },
        quantile(&all, 0.50),
        quantile(&all, 0.99),
        all.len() as f64 / wall.as_secs_f64()
    );
    let _ = server.kill().await;

    // G5's memory: sessions over a 1,000-tool catalog.
    let many = modules.parent().expect("node dir").join("many_tools.mjs");
    let cfg = config(
        &tmp,
        json!({"many": {"command": "node", "args": [many.display().to_string(), "1000"], "approval": "never"}}),
    );
    let (mut server, url) = listening(gateway, &cfg).await;
    let pid = server.id().expect("pid");
    let alone = {
        let client = http_client(&url).await;
        call(&client, "describe", json!({"name": "find an invoice"})).await;
        let rss = peak_rss_mib(pid);
        let _ = client.cancel().await;
        rss
    };
    let mut clients = Vec::new();
    for n in 0..sessions {
        let client = http_client(&url).await;
        call(
            &client,
            "describe",
            json!({ "name": format!("update deal {n}") }),
        )
        .await;
        clients.push(client);
    }
    let rss = peak_rss_mib(pid);
    println!(
        "G5 memory with 1,000 upstream tools: one session {alone:.1} MiB, {sessions} sessions open {rss:.1} MiB (about {:.1} MiB a session)",
        (rss - alone) / (sessions as f64 - 1.0)
    );
    for client in clients {
        let _ = client.cancel().await;
    }
    let _ = server.kill().await;
}
