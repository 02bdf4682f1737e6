//! `disclose mcp --config FILE`: the catalog as a live MCP gateway.
//!
//! An MCP server on stdin/stdout that a client launches. It starts every
//! server of an `mcpServers` config as its own client (the official Rust
//! SDK, `rmcp`), admits all their tools into one run of the `disclose`
//! catalog, and serves that run: a fixed, byte-stable tool list (the two
//! doors), the dormant index as `instructions`, `describe` answered by the
//! library, and every `call` checked by the library before it reaches its
//! server under the tool's raw name. `--record DIR` writes each served
//! session as a corpus session that `disclose check` replays byte for byte
//! with every upstream absent.
//!
//! This crate is the only one that holds rmcp and tokio: the library
//! `disclose` stays lean. The binary calls [`run`] with parsed [`Args`]
//! (the `disclose mcp` subcommand; `disclose-mcp` until the workspace
//! split wires it).
//!
//! Layers: [`config`] (the file, typed), [`upstream`] (one server, its
//! process and its calls), [`catalog`] (admission and the started run),
//! [`gateway`] (the MCP server over the run, any transport), [`approval`]
//! (elicitation texts), [`recording`] (the session files); [`serve_stdio`]
//! puts them together over stdio. A second downstream transport is another
//! `serve_*` over the same [`gateway::Gateway`].
//!
//! Exit status: 0 when the client disconnected (or a signal ended the
//! gateway) and the recording is complete; 1 when the recording could not
//! be written or serving failed; 2 on a usage, config or I/O error before
//! serving.

pub mod approval;
pub mod catalog;
pub mod config;
pub mod gateway;
pub mod recording;
pub mod upstream;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::ValueEnum;
use disclose::{Profile, Recorder};
use rmcp::ServiceExt;

use crate::catalog::Listed;
use crate::gateway::{Gateway, Options};
use crate::recording::Out;
use crate::upstream::Upstream;

/// `disclose mcp`: serve every server of an `mcpServers` config through the
/// catalog's two doors, over stdio.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// The `mcpServers` JSON (Claude Desktop, Cursor, `.mcp.json`), read
    /// unchanged; `approval` per server is ours.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Write each served session as a corpus session in DIR.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Serve a child run (SPEC §8): `scout` offers read and
    /// idempotent-write tools, `writer` reversible ones too; never a tool
    /// whose approval is required.
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,
    /// Seconds a server has to answer initialize and tools/list.
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = seconds)]
    pub start_timeout: Duration,
    /// Seconds an upstream tools/call may take before it is cancelled.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub call_timeout: Duration,
    /// DANGEROUS: run every call of every server without asking the user,
    /// whatever its approval.
    #[arg(long)]
    pub dangerously_allow_all: bool,
}

/// `--profile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// Read and idempotent-write tools.
    Scout,
    /// Scout's, and reversible tools.
    Writer,
}

impl From<ProfileArg> for Profile {
    fn from(profile: ProfileArg) -> Profile {
        match profile {
            ProfileArg::Scout => Profile::Scout,
            ProfileArg::Writer => Profile::Writer,
        }
    }
}

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("\"{text}\" is not a number of seconds"))?;
    if !(value > 0.0 && value <= 86_400.0) {
        return Err(format!("{text} is not between 0 and 86400 seconds"));
    }
    Ok(Duration::from_secs_f64(value))
}

/// One diagnostic line on stderr, `disclose: `-prefixed. A stderr the
/// client closed is not an error (`eprintln!` would panic).
pub fn log(message: &str) {
    stderr_line(&format!("disclose: {message}"));
}

/// One whole line on stderr, written at once; failures are ignored.
pub fn stderr_line(line: &str) {
    use std::io::Write as _;
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Runs the gateway over stdio until the client disconnects; the exit
/// status (0, 1 or 2, as the crate docs say).
pub fn run(args: Args) -> u8 {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    match runtime {
        Ok(runtime) => {
            let code = runtime.block_on(serve_stdio(args));
            // Tasks still reading an upstream's stderr are not waited for.
            runtime.shutdown_timeout(Duration::from_millis(200));
            code
        }
        Err(error) => {
            log(&format!("cannot start the async runtime: {error}"));
            2
        }
    }
}

/// Everything before serving: the config read, the recording opened, the
/// upstreams started and the run built. Errors are exit-2 messages.
pub async fn prepare(args: &Args) -> Result<Gateway, String> {
    let file = args.config.display().to_string();
    let bytes = std::fs::read(&args.config).map_err(|e| format!("{file}: cannot be read: {e}"))?;
    let env = |name: &str| std::env::var(name).ok();
    let config = config::parse(&file, &bytes, &env).map_err(|e| e.to_string())?;
    for key in &config.ignored {
        log(&format!(
            "{file}: {key} is not read by disclose mcp (left to other clients)"
        ));
    }
    let (out, recorded_at) = match &args.record {
        Some(dir) => {
            let (path, handle) = recording::create(dir)
                .map_err(|e| format!("{}: cannot record there: {e}", dir.display()))?;
            (Out::File(handle), Some(path))
        }
        None => (Out::Nowhere, None),
    };
    let upstreams: Vec<Arc<Upstream>> = config
        .servers
        .values()
        .map(|server| Arc::new(Upstream::new(server.clone(), args.start_timeout)))
        .collect();
    let started = upstream::start_all(upstreams).await;
    let approvals: BTreeMap<&str, disclose::Approval> = config
        .servers
        .iter()
        .map(|(origin, server)| (origin.as_str(), server.approval))
        .collect();
    let listed: Vec<Listed<'_>> = started
        .iter()
        .map(|(upstream, tools)| Listed {
            origin: upstream.origin(),
            approval: approvals
                .get(upstream.origin())
                .copied()
                .unwrap_or_default(),
            tools,
        })
        .collect();
    let served: Vec<&str> = listed.iter().map(|l| l.origin).collect();
    let left_out: Vec<&str> = config
        .servers
        .keys()
        .map(String::as_str)
        .filter(|o| !served.contains(o))
        .collect();
    let mut about = format!("disclose mcp: {}", served.join(", "));
    if served.is_empty() {
        about = "disclose mcp: no server".to_string();
    }
    if !left_out.is_empty() {
        about.push_str(&format!(" (left out: {})", left_out.join(", ")));
    }
    let recorder = Recorder::new(out, &about);
    let built = catalog::build(recorder, &listed, args.profile.map(Profile::from));
    let offered = built.routes.len();
    log(&format!(
        "serving {offered} tools of {} servers through describe and call{}",
        served.len(),
        recorded_at
            .map(|p| format!("; recording to {}", p.display()))
            .unwrap_or_default()
    ));
    let upstreams = started
        .into_iter()
        .map(|(upstream, _)| (upstream.origin().to_string(), upstream))
        .collect();
    Ok(Gateway::new(
        built.run,
        built.routes,
        upstreams,
        built.tools,
        built.render,
        Options {
            call_timeout: args.call_timeout,
            allow_all: args.dangerously_allow_all,
        },
    ))
}

/// Serves over stdin/stdout until the client disconnects or a signal
/// arrives, then stops every upstream.
pub async fn serve_stdio(args: Args) -> u8 {
    let gateway = match prepare(&args).await {
        Ok(gateway) => gateway,
        Err(message) => {
            log(&message);
            return 2;
        }
    };
    if args.dangerously_allow_all {
        log("--dangerously-allow-all: every call runs without asking the user");
    }
    let served = tokio::select! {
        served = serve_until_closed(gateway.clone()) => served,
        () = signalled() => {
            log("stopping on a signal");
            Ok(())
        }
    };
    let stops: Vec<_> = gateway
        .upstreams()
        .into_iter()
        .map(|upstream| tokio::spawn(async move { upstream.stop().await }))
        .collect();
    for stop in stops {
        let _ = stop.await;
    }
    let mut code = 0;
    if let Err(error) = served {
        log(&format!("serving over stdio failed: {error}"));
        code = 1;
    }
    if let Some(error) = gateway.record_error() {
        log(&format!("the recording is incomplete: {error}"));
        code = 1;
    }
    code
}

async fn serve_until_closed(gateway: Gateway) -> Result<(), String> {
    let served = match pipes() {
        Some(pipes) => gateway.serve(pipes).await,
        None => gateway.serve(rmcp::transport::stdio()).await,
    };
    match served {
        Ok(service) => {
            let _ = service.waiting().await;
            Ok(())
        }
        // The client went away before initialize: nothing was served.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(error.to_string()),
    }
}

/// stdin and stdout as epoll-driven pipes, when both are pipes (as a
/// client that launches the gateway makes them): tokio's own stdin and
/// stdout go through a blocking thread for every read and write, which
/// costs each message a hand-off (docs/decisions.md). `None` otherwise
/// (a file, a terminal), and rmcp's stdio is used.
fn pipes() -> Option<(
    tokio::net::unix::pipe::Receiver,
    tokio::net::unix::pipe::Sender,
)> {
    use std::os::fd::AsFd;
    let stdin = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let stdout = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let receiver = tokio::net::unix::pipe::Receiver::from_owned_fd(stdin).ok()?;
    let sender = tokio::net::unix::pipe::Sender::from_owned_fd(stdout).ok()?;
    Some((receiver, sender))
}

async fn signalled() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int), Ok(mut hup)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
        signal(SignalKind::hangup()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
        _ = hup.recv() => {}
    }
}
