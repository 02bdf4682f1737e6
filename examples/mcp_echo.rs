//! The cheapest MCP server there is, for the gateway's G1 over a raw upstream
//! (docs/performance.md): newline-delimited JSON-RPC on stdin/stdout,
//! answering `initialize` (with the protocol version it was asked for),
//! `tools/list` (one tool, `echo`), `tools/call` (the message back) and `ping`
//! at once, every other request with -32601, and no notification at all. So
//! a call's time through a gateway is the gateway's, not the upstream's.
//!
//! Usage: `mcp_echo` (exits when stdin closes).

use std::io::{BufRead, Write};

use serde_json::{Value, json};

#[path = "../benches/support/allocator.rs"]
mod allocator;

fn answer(request: &Value) -> Value {
    let params = &request["params"];
    match request["method"].as_str().unwrap_or_default() {
        "initialize" => json!({"result": {
            "protocolVersion": params["protocolVersion"].as_str().unwrap_or("2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "mcp-echo", "version": "1.0.0"},
        }}),
        "tools/list" => json!({"result": {"tools": [{
            "name": "echo",
            "description": "Echoes the message back.",
            "inputSchema": {
                "type": "object",
                "properties": {"message": {"type": "string", "description": "What to echo."}},
                "required": ["message"],
            },
        }]}}),
        "tools/call" => {
            let message = params["arguments"]["message"].as_str().unwrap_or_default();
            json!({"result": {"content": [{"type": "text", "text": format!("Echo: {message}")}]}})
        }
        "ping" => json!({"result": {}}),
        _ => json!({"error": {"code": -32601, "message": "method not found"}}),
    }
}

fn main() {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else { break };
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // A notification (no id) is never answered.
        let Some(id) = request.get("id") else {
            continue;
        };
        let mut reply = answer(&request);
        reply["jsonrpc"] = json!("2.0");
        reply["id"] = id.clone();
        let mut bytes = serde_json::to_vec(&reply).expect("a Value serializes");
        bytes.push(b'\n');
        if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
