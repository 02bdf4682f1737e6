//! What the end-to-end tests share: the real components (installed at
//! pinned versions by `script/mcp-e2e-install` when absent; a failed
//! install fails the test, it never skips it), configs over the reference
//! servers, the gateway on a raw wire, and the official clients driven
//! line by line (`crates/mcp/e2e/client.py`, `client.mjs`).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one answer may take (an upstream start is the slowest step).
pub const ANSWER: Duration = Duration::from_secs(90);

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `disclose` binary; the gateway is its `mcp` subcommand.
pub fn disclose() -> &'static str {
    env!("CARGO_BIN_EXE_disclose")
}

/// `disclose mcp`, ready for its arguments.
pub fn gateway() -> Command {
    let mut command = Command::new(disclose());
    command.arg("mcp");
    command
}

/// Where the real components live, installed once per test process.
pub struct Installed {
    pub node_modules: PathBuf,
    pub python: PathBuf,
    pub ts_client: PathBuf,
    /// An SDK server with N tools (`e2e/many_tools.mjs N`).
    pub many_tools: PathBuf,
    pub py_client: PathBuf,
    /// The second upstream, written with the Python SDK
    /// (`e2e/second_server.py`).
    pub second_server: PathBuf,
}

/// Installs the pinned components if needed (idempotent, keyed by the
/// lockfiles' hashes); panics with the script's output when it cannot.
pub fn installed() -> &'static Installed {
    static INSTALLED: OnceLock<Installed> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let root = root();
        let script = root.join("script/mcp-e2e-install");
        let output = Command::new("bash")
            .arg(&script)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        assert!(
            output.status.success(),
            "script/mcp-e2e-install failed ({}); the end-to-end tests need it:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let dest = std::env::var_os("DISCLOSE_MCP_E2E_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target/mcp-e2e"));
        let node = dest.join("node");
        // Our Node scripts resolve the SDK from beside node_modules.
        let place = |name: &str| {
            let placed = node.join(name);
            let source = std::fs::read(root.join("crates/mcp/e2e").join(name)).expect(name);
            let temp = node.join(format!("{name}.{}", std::process::id()));
            std::fs::write(&temp, source).expect("copy a script");
            std::fs::rename(&temp, &placed).expect("place a script");
            placed
        };
        Installed {
            node_modules: node.join("node_modules"),
            python: dest.join("venv/bin/python"),
            ts_client: place("client.mjs"),
            many_tools: place("many_tools.mjs"),
            py_client: root.join("crates/mcp/e2e/client.py"),
            second_server: root.join("crates/mcp/e2e/second_server.py"),
        }
    })
}

/// A reference server's entry point.
pub fn server_js(package: &str) -> String {
    let dir = installed().node_modules.join(package);
    dir.join("dist/index.js").display().to_string()
}

/// `server-everything` over stdio.
pub fn everything(approval: &str) -> Value {
    json!({"command": "node", "args": [server_js("@modelcontextprotocol/server-everything"), "stdio"], "approval": approval})
}

/// The Python SDK's second upstream over stdio, with `env`.
pub fn second(env: Value, approval: Value) -> Value {
    let installed = installed();
    json!({
        "command": installed.python.display().to_string(),
        "args": [installed.second_server.display().to_string(), "stdio"],
        "env": env,
        "approval": approval,
    })
}

/// `server-filesystem` on one root.
pub fn filesystem(root: &Path, approval: &str) -> Value {
    json!({"command": "node", "args": [server_js("@modelcontextprotocol/server-filesystem"), root.display().to_string()], "approval": approval})
}

/// `server-memory` with its graph in `file`.
pub fn memory(file: &Path, approval: &str) -> Value {
    json!({"command": "node", "args": [server_js("@modelcontextprotocol/server-memory")], "env": {"MEMORY_FILE_PATH": file.display().to_string()}, "approval": approval})
}

/// Writes `{"mcpServers": servers}` to `dir/mcp.json`.
pub fn config(dir: &Path, servers: Value) -> PathBuf {
    let path = dir.join("mcp.json");
    let text = serde_json::to_string_pretty(&json!({ "mcpServers": servers })).expect("json");
    std::fs::write(&path, text).expect("write the config");
    path
}

/// Lines a child writes, read on a thread.
fn lines_of(reader: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Everything a child writes to stderr, kept.
fn collect(reader: impl std::io::Read + Send + 'static) -> Arc<Mutex<String>> {
    let kept = Arc::new(Mutex::new(String::new()));
    let into = Arc::clone(&kept);
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines() {
            let Ok(line) = line else { break };
            let mut kept = into.lock().unwrap_or_else(|e| e.into_inner());
            kept.push_str(&line);
            kept.push('\n');
        }
    });
    kept
}

/// A child killed (with its process group) when dropped.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One of the official clients, driving a gateway it launched.
pub struct Driver {
    child: Guard,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    /// The first line: `{ready, protocol, instructions}`.
    pub ready: Value,
}

/// Which client, and how it connects.
#[derive(Clone, Copy, Debug)]
pub enum Sdk {
    /// Python, `server/discover` (protocol 2026-07-28).
    PythonModern,
    /// Python, the initialize handshake.
    PythonLegacy,
    /// TypeScript (initialize, 2025-11-25).
    TypeScript,
}

impl Driver {
    /// Launches `sdk`'s client, which launches the gateway with `args`.
    pub fn start(sdk: Sdk, elicit: bool, args: &[&str]) -> Driver {
        let args: Vec<&str> = std::iter::once("mcp").chain(args.iter().copied()).collect();
        Driver::start_command(sdk, elicit, disclose(), &args)
    }

    /// Launches `sdk`'s client against any stdio server.
    pub fn start_command(sdk: Sdk, elicit: bool, program: &str, args: &[&str]) -> Driver {
        Driver::launch(sdk, elicit, program, args, &[])
    }

    /// Launches `sdk`'s client against a gateway's URL, with the bearer
    /// token when given (the client reads it from `MCP_BEARER_TOKEN`).
    pub fn connect(sdk: Sdk, elicit: bool, url: &str, token: Option<&str>) -> Driver {
        let env: Vec<(&str, &str)> = token.map(|t| ("MCP_BEARER_TOKEN", t)).into_iter().collect();
        Driver::launch(sdk, elicit, url, &[], &env)
    }

    /// Launches `sdk`'s client against `program ARGS`, with `env` set for
    /// the client (and so for the program it launches).
    pub fn launch(
        sdk: Sdk,
        elicit: bool,
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Driver {
        let installed = installed();
        let yes = if elicit { "yes" } else { "no" };
        let mut command = match sdk {
            Sdk::PythonModern | Sdk::PythonLegacy => {
                let mode = if matches!(sdk, Sdk::PythonModern) {
                    "auto"
                } else {
                    "legacy"
                };
                let mut c = Command::new(&installed.python);
                c.arg(&installed.py_client).args([mode, yes]);
                c
            }
            Sdk::TypeScript => {
                let mut c = Command::new("node");
                c.arg(&installed.ts_client).arg(yes);
                c
            }
        };
        command.arg("--").arg(program).args(args);
        command
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().expect("the client starts");
        let stdin = child.stdin.take();
        let lines = lines_of(child.stdout.take().expect("stdout"));
        let stderr = collect(child.stderr.take().expect("stderr"));
        let mut driver = Driver {
            child: Guard(child),
            stdin,
            lines,
            stderr,
            ready: Value::Null,
        };
        driver.ready = driver.read();
        assert_eq!(
            driver.ready["ready"],
            json!(true),
            "{sdk:?} did not connect: {}\nstderr:\n{}",
            driver.ready,
            driver.stderr()
        );
        driver
    }

    fn read(&mut self) -> Value {
        match self.lines.recv_timeout(ANSWER) {
            Ok(line) => serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("not JSON from the client ({e}): {line}")),
            Err(e) => panic!(
                "no answer from the client ({e}); its stderr:\n{}",
                self.stderr()
            ),
        }
    }

    /// Sends one command, returns its answer.
    pub fn send(&mut self, order: Value) -> Value {
        self.ask(order);
        self.answer()
    }

    /// Sends one command without waiting: [`Driver::answer`] reads its
    /// answer (so two clients can be busy at once).
    pub fn ask(&mut self, order: Value) {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{order}").expect("write to the client");
        stdin.flush().expect("flush");
    }

    /// The answer to the command [`Driver::ask`] sent.
    pub fn answer(&mut self) -> Value {
        self.read()
    }

    /// `call` through the gateway's door (`{"name":"call","args":{name,args}}`).
    pub fn call(&mut self, minted: &str, args: Value, answers: &[&str]) -> Value {
        self.send(json!({"op": "call", "name": "call", "args": {"name": minted, "args": args}, "answers": answers}))
    }

    /// `describe`.
    pub fn describe(&mut self, query: &str) -> Value {
        self.send(json!({"op": "call", "name": "describe", "args": {"name": query}}))
    }

    /// Everything the client and the gateway wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Ends the session; the client's exit status and stderr.
    pub fn close(mut self) -> (ExitStatus, String) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "{}", json!({"op": "close"}));
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Ok(Some(status)) = self.child.0.try_wait() {
                break status;
            }
            assert!(Instant::now() < deadline, "the client did not end");
            std::thread::sleep(Duration::from_millis(50));
        };
        // The stderr thread ends with the pipe.
        std::thread::sleep(Duration::from_millis(100));
        (status, self.stderr())
    }
}

/// The text of a tool result's first content block.
pub fn text(answer: &Value) -> String {
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {answer}"))
        .to_string()
}

/// Whether a tool result is an error.
pub fn is_error(answer: &Value) -> bool {
    answer["result"]["isError"] == json!(true)
}

/// A file another process writes, read as it grows: at its end, waits
/// for more instead of ending.
struct Tail(std::fs::File);

impl Read for Tail {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.0.read(buf)? {
                0 => std::thread::sleep(Duration::from_millis(10)),
                n => return Ok(n),
            }
        }
    }
}

/// What a client hands the gateway as its stdin and stdout.
#[derive(Clone, Copy, Debug)]
pub enum Over {
    /// Pipes, as Python's `subprocess` and Rust's `std::process` make them.
    Pipes,
    /// A Unix socket pair each, as Node's `child_process` makes them (so
    /// Claude Desktop, Claude Code, VS Code and Cursor).
    UnixSockets,
    /// stdin a pipe, stdout a file (`disclose mcp > answers.jsonl`).
    PipeInFileOut,
}

/// The gateway on a raw wire: bytes in, lines out, as a client's transport
/// sees them.
pub struct Wire {
    pub child: Guard,
    stdin: Option<Box<dyn Write + Send>>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    /// Where stdout is written, when it is a file.
    _out: Option<tempfile::TempDir>,
}

impl Wire {
    /// Starts the gateway with `args`, its stdin and stdout pipes.
    pub fn start(args: &[&str]) -> Wire {
        Wire::over(args, Over::Pipes)
    }

    /// Starts the gateway with `args` over `over`.
    pub fn over(args: &[&str], over: Over) -> Wire {
        let mut command = gateway();
        command.args(args);
        Wire::of(command, over)
    }

    /// Starts the stdio server a config entry names (`command`, `args`,
    /// `env`) on pipes, as a client reaches it without the gateway.
    pub fn server(entry: &Value) -> Wire {
        let mut command = Command::new(entry["command"].as_str().expect("a command"));
        for arg in entry["args"].as_array().into_iter().flatten() {
            command.arg(arg.as_str().expect("an argument"));
        }
        for (key, value) in entry["env"].as_object().into_iter().flatten() {
            command.env(key, value.as_str().expect("a value"));
        }
        Wire::of(command, Over::Pipes)
    }

    /// Starts `command` over `over`.
    fn of(mut command: Command, over: Over) -> Wire {
        let (their_stdin, our_stdin): (Stdio, Box<dyn Write + Send>) = match over {
            Over::Pipes | Over::PipeInFileOut => {
                let (read, write) = std::io::pipe().expect("a pipe");
                (read.into(), Box::new(write))
            }
            Over::UnixSockets => {
                let (ours, theirs) = UnixStream::pair().expect("a socket pair");
                (OwnedFd::from(theirs).into(), Box::new(ours))
            }
        };
        let mut out = None;
        let (their_stdout, our_stdout): (Stdio, Box<dyn Read + Send>) = match over {
            Over::Pipes => {
                let (read, write) = std::io::pipe().expect("a pipe");
                (write.into(), Box::new(read))
            }
            Over::UnixSockets => {
                let (ours, theirs) = UnixStream::pair().expect("a socket pair");
                (OwnedFd::from(theirs).into(), Box::new(ours))
            }
            Over::PipeInFileOut => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let path = dir.path().join("stdout.jsonl");
                let file = std::fs::File::create(&path).expect("the stdout file");
                let tail = Tail(std::fs::File::open(&path).expect("the stdout file"));
                out = Some(dir);
                (file.into(), Box::new(tail))
            }
        };
        let mut child = command
            .stdin(their_stdin)
            .stdout(their_stdout)
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gateway starts");
        // The command holds the gateway's ends: closed here, so that the
        // gateway alone holds them and its stdout ends when it does.
        drop(command);
        let stderr = collect(child.stderr.take().expect("stderr"));
        Wire {
            child: Guard(child),
            stdin: Some(our_stdin),
            lines: lines_of(our_stdout),
            stderr,
            _out: out,
        }
    }

    /// How many threads the gateway runs now (Linux's /proc).
    pub fn threads(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/task", self.child.0.id()))
            .expect("the gateway's /proc entry")
            .count()
    }

    /// Writes one JSON-RPC message.
    pub fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("open");
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
    }

    /// The next line the gateway writes, as written.
    pub fn line(&mut self) -> String {
        self.lines.recv_timeout(ANSWER).unwrap_or_else(|e| {
            panic!("no line from the gateway ({e}); stderr:\n{}", self.stderr())
        })
    }

    /// A request, and the raw line of its answer (notifications skipped).
    pub fn request(&mut self, id: u64, method: &str, params: Value) -> String {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self.line();
            let value: Value = serde_json::from_str(&line).expect("JSON-RPC on stdout");
            if value.get("id") == Some(&json!(id)) {
                return line;
            }
        }
    }

    /// `initialize` (2025-11-25) and `notifications/initialized`.
    pub fn initialize(&mut self) -> Value {
        let line = self.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "wire", "version": "1"}}),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        serde_json::from_str(&line).expect("JSON")
    }

    /// Closes stdin (the client disconnects) and waits for the exit.
    pub fn disconnect(mut self, within: Duration) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.0.try_wait() {
                std::thread::sleep(Duration::from_millis(100));
                return (status, self.stderr());
            }
            assert!(
                Instant::now() < deadline,
                "the gateway did not end within {within:?} of the client's disconnect; stderr:\n{}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What the gateway wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits until stderr holds `needle`.
    pub fn wait_stderr(&self, needle: &str) -> String {
        let deadline = Instant::now() + ANSWER;
        loop {
            let text = self.stderr();
            if text.contains(needle) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "stderr never said {needle:?}:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The pid a gateway logged for an upstream (`ORIGIN: started … (pid N)`).
pub fn upstream_pid(stderr: &str, origin: &str) -> i32 {
    let prefix = format!("disclose: {origin}: started ");
    stderr
        .lines()
        .filter(|l| l.starts_with(&prefix))
        .filter_map(|l| l.rsplit_once("(pid ").map(|(_, p)| p.trim_end_matches(')')))
        .filter_map(|p| p.parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no pid logged for {origin}:\n{stderr}"))
}

/// Whether a process is still alive (not a zombie).
pub fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Waits until `pid` is gone.
pub fn gone(pid: i32, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    !alive(pid)
}

/// JSON with keys sorted and no spaces, whatever order a client kept.
pub fn canonical(value: &Value) -> String {
    disclose::internals::canonical::canonical(value)
}

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `server-everything` over streamable HTTP on a loopback port, until
/// dropped; its URL.
pub fn everything_http() -> (Guard, String) {
    let port = free_port();
    (
        everything_http_on(port),
        format!("http://127.0.0.1:{port}/mcp"),
    )
}

/// server-everything over streamable HTTP on `port`, once it listens.
pub fn everything_http_on(port: u16) -> Guard {
    let mut child = Command::new("node")
        .arg(server_js("@modelcontextprotocol/server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("server-everything starts");
    let lines = lines_of(child.stderr.take().expect("stderr"));
    let guard = Guard(child);
    let deadline = Instant::now() + ANSWER;
    loop {
        let line = lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("server-everything says it listens");
        if line.contains("listening on port") {
            return guard;
        }
    }
}

/// A gateway serving streamable HTTP (`--listen 127.0.0.1:0`), until
/// dropped; its port is read from its stderr.
pub struct Listening {
    pub child: Guard,
    stderr: Arc<Mutex<String>>,
    /// The port it chose.
    pub port: u16,
}

impl Listening {
    /// Starts `disclose mcp ARGS` with `env` set; waits for its `listening
    /// on` line.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Listening {
        let mut child = gateway()
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the gateway starts");
        let stdout = collect(child.stdout.take().expect("stdout"));
        let stderr = collect(child.stderr.take().expect("stderr"));
        let mut listening = Listening {
            child: Guard(child),
            stderr,
            port: 0,
        };
        let line = listening.wait_stderr("listening on http://127.0.0.1:");
        let port = line
            .split("listening on http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line}"));
        listening.port = port;
        assert!(
            stdout.lock().unwrap_or_else(|e| e.into_inner()).is_empty(),
            "nothing on stdout over HTTP"
        );
        listening
    }

    /// The endpoint.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// What the gateway wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits until stderr holds `needle`; all of it.
    pub fn wait_stderr(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + ANSWER;
        loop {
            let text = self.stderr();
            if text.contains(needle) {
                return text;
            }
            if let Ok(Some(status)) = self.child.0.try_wait() {
                panic!("the gateway exited ({status}) before saying {needle:?}:\n{text}");
            }
            assert!(
                Instant::now() < deadline,
                "stderr never said {needle:?}:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM and waits for the exit; its status and stderr.
    pub fn stop(mut self) -> (ExitStatus, String) {
        let pid = i32::try_from(self.child.0.id()).expect("a pid");
        // SAFETY: kill only sends a signal, to the gateway this test started.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(Some(status)) = self.child.0.try_wait() {
                std::thread::sleep(Duration::from_millis(100));
                return (status, self.stderr());
            }
            assert!(Instant::now() < deadline, "the gateway did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One HTTP exchange as the gateway answered it.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// A header's value (the name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages of the body: the JSON, or each SSE `data:`.
    pub fn messages(&self) -> Vec<Value> {
        if self
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/event-stream"))
        {
            self.body
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .filter(|d| !d.trim().is_empty())
                .map(|d| serde_json::from_str(d).expect("an SSE message is JSON"))
                .collect()
        } else {
            vec![serde_json::from_str(&self.body).unwrap_or(Value::Null)]
        }
    }

    /// The text of the first content block of the answer's result.
    pub fn text(&self) -> String {
        let messages = self.messages();
        let answer = messages
            .iter()
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
            .unwrap_or_else(|| panic!("no answer in {self:?}"));
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text in {answer}"))
            .to_string()
    }
}

/// One HTTP/1.1 request on a new connection (`Connection: close`), its
/// whole answer read. `Host` is `127.0.0.1:PORT` unless `headers` has one.
pub fn http(port: u16, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", port)).expect("the gateway accepts");
    stream
        .set_read_timeout(Some(ANSWER))
        .expect("a read timeout");
    let mut head = format!("{method} /mcp HTTP/1.1\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let framed = headers.iter().any(|(n, _)| {
        n.eq_ignore_ascii_case("content-length") || n.eq_ignore_ascii_case("transfer-encoding")
    });
    if method == "POST" && !framed {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).expect("send the head");
    // The gateway may answer (413) before it reads a large body.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_reply(&raw)
}

fn parse_reply(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        let mut body = String::new();
        let mut rest = rest;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 || after.len() < size {
                break;
            }
            body.push_str(&after[..size]);
            rest = after[size..].trim_start_matches("\r\n");
        }
        body
    } else {
        rest.to_string()
    };
    Reply {
        status,
        headers,
        body,
    }
}

/// The headers of a JSON-RPC POST: both media types, and the token.
pub fn post_headers<'a>(
    token: Option<&'a str>,
    more: &[(&'a str, &'a str)],
) -> Vec<(&'a str, String)> {
    let mut headers = vec![
        ("Content-Type", "application/json".to_string()),
        ("Accept", "application/json, text/event-stream".to_string()),
    ];
    if let Some(token) = token {
        headers.push(("Authorization", format!("Bearer {token}")));
    }
    headers.extend(more.iter().map(|(n, v)| (*n, v.to_string())));
    headers
}

/// A session opened over the raw wire (the handshake, 2025-11-25).
#[derive(Clone)]
pub struct RawSession {
    pub port: u16,
    pub token: Option<String>,
    pub id: String,
    next: u64,
}

impl RawSession {
    /// `initialize` and `notifications/initialized`; the refusal when the
    /// gateway would not open a session.
    pub fn open(port: u16, token: Option<&str>) -> Result<RawSession, Reply> {
        let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
        let reply = send(port, token, None, &body);
        let Some(id) = reply.header("mcp-session-id").map(str::to_string) else {
            return Err(reply);
        };
        let mut session = RawSession {
            port,
            token: token.map(str::to_string),
            id,
            next: 1,
        };
        let initialized =
            session.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        assert_eq!(initialized.status, 202, "{initialized:?}");
        Ok(session)
    }

    /// POSTs one message in this session.
    pub fn post(&mut self, message: &Value) -> Reply {
        send(self.port, self.token.as_deref(), Some(&self.id), message)
    }

    /// `tools/call` of `name` with `args`.
    pub fn call(&mut self, name: &str, args: Value) -> Reply {
        self.next += 1;
        let message = json!({"jsonrpc": "2.0", "id": self.next, "method": "tools/call", "params": {"name": name, "arguments": args}});
        self.post(&message)
    }

    /// Ends the session (DELETE).
    pub fn delete(&self) -> Reply {
        let mut headers = vec![("Mcp-Session-Id", self.id.clone())];
        if let Some(token) = &self.token {
            headers.push(("Authorization", format!("Bearer {token}")));
        }
        let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        http(self.port, "DELETE", &headers, b"")
    }
}

/// POSTs `message`, in session `id` when given.
pub fn send(port: u16, token: Option<&str>, id: Option<&str>, message: &Value) -> Reply {
    let mut headers = post_headers(token, &[]);
    if let Some(id) = id {
        headers.push(("Mcp-Session-Id", id.to_string()));
        headers.push(("MCP-Protocol-Version", "2025-11-25".to_string()));
    }
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    http(port, "POST", &headers, message.to_string().as_bytes())
}

/// A GET that opens a stream: its status and headers, read as soon as the
/// head arrives (the stream itself stays open until the session ends).
pub fn stream_head(port: u16, headers: &[(&str, &str)]) -> Reply {
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", port)).expect("the gateway accepts");
    stream
        .set_read_timeout(Some(ANSWER))
        .expect("a read timeout");
    let mut head = format!("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).expect("send the head");
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => raw.push(byte[0]),
            _ => break,
        }
    }
    parse_reply(&raw)
}
