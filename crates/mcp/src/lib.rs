//! `disclose mcp --config FILE`: the catalog as a live MCP gateway.
//!
//! An MCP server that a client launches (stdio) or reaches by URL
//! (`--listen ADDR`, streamable HTTP at `/mcp`, one run per MCP session).
//! It starts every server of an `mcpServers` config as its own client (the
//! official Rust SDK, `rmcp`), admits all their tools into one upstream
//! snapshot, and serves runs of the `disclose` catalog over it: a fixed,
//! byte-stable tool list (the two doors), the dormant index as
//! `instructions`, `describe` answered by the library, and every `call`
//! checked by the library before it reaches its server under the tool's raw
//! name. `--record DIR` writes each served session as a corpus session that
//! `disclose check` replays byte for byte with every upstream absent.
//!
//! This crate is the only one that holds rmcp, tokio and hyper: the library
//! `disclose` stays lean. The binary calls [`run`] with parsed [`Args`]
//! (the `disclose mcp` subcommand).
//!
//! Layers: [`config`] (the file, typed) and [`policy`] (per-tool filters
//! and approval rules), [`secrets`] (config credentials scrubbed from all
//! output, and the declarations that hold one withheld), [`upstream`] (one
//! server, its process and its requests), [`catalog`] (the snapshot and
//! each started run), [`listing`] and [`hub`] (the upstreams' prompts,
//! resources and templates, merged and routed, and what they announce),
//! [`questions`] (a server's elicitation and sampling, to the session whose
//! request it serves), [`uri_template`] (RFC 6570 matching), [`shared`]
//! (what every session shares), [`gateway`] (the MCP server over one
//! session, any transport), [`session`] (one session's run, recording and
//! approvals), [`approval`] (elicitation texts), [`recording`] (the session
//! files), [`oauth`] (sign-in to OAuth-protected HTTP upstreams: `disclose
//! mcp login`, `logout`, `auth-status`, and the tokens at run time);
//! [`stdio`] and [`http`] are the two transports over the same
//! [`shared::Shared`].
//!
//! Exit status: 0 when the client disconnected (or a signal ended the
//! gateway) and every recording is complete; 1 when a recording could not
//! be written or serving failed; 2 on a usage, config or I/O error before
//! serving (a refused `--listen` address included).
//!
//! Unix only: each stdio server runs in a process group of its own, which
//! the gateway kills as a whole, and tokens are files only their owner can
//! read (checked by mode and owner). `disclose mcp` in a Windows build of
//! `disclose-cli` says so (docs/decisions.md, "The gateway is Unix-only").

#[cfg(not(unix))]
compile_error!(
    "disclose-mcp needs Unix (process groups, owner-only token files); on Windows, run the gateway under WSL"
);

pub mod approval;
pub mod catalog;
pub mod config;
pub mod gateway;
pub mod http;
pub mod http_client;
pub mod hub;
pub mod lane;
pub mod listing;
pub mod oauth;
pub mod policy;
pub mod questions;
pub mod recording;
pub mod secrets;
pub mod session;
pub mod shared;
pub mod stdio;
pub mod upstream;
pub mod uri_template;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::ValueEnum;
use disclose::{Profile, RecordedRun, Recorder};

use crate::catalog::{Listed, Snapshot};
use crate::recording::Out;
use crate::shared::{Forwards, Options, Parts, Shared};
use crate::upstream::Upstream;

/// `disclose mcp`: serve every server of an `mcpServers` config through the
/// catalog's two doors, over stdio or streamable HTTP; or sign in to one of
/// its servers (`login`, `logout`, `auth-status`).
#[derive(Clone, Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    /// Sign-in to servers that need OAuth (instead of serving).
    #[command(subcommand)]
    pub account: Option<oauth::commands::Account>,
    /// The `mcpServers` JSON (Claude Desktop, Cursor, `.mcp.json`) or VS
    /// Code's `servers`, read unchanged; `approval`, `tools` and `oauth`
    /// per server are ours.
    #[arg(long, value_name = "FILE", required = true)]
    pub config: Option<PathBuf>,
    /// Where OAuth sign-ins are kept (default: $XDG_STATE_HOME/disclose,
    /// else ~/.local/state/disclose).
    #[arg(long, value_name = "DIR")]
    pub token_dir: Option<PathBuf>,
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
    /// Serve streamable HTTP at http://ADDR/mcp (IP:PORT; port 0 picks one,
    /// said on stderr), one run per MCP session, instead of stdio. A
    /// non-loopback address needs --token-env.
    #[arg(long, value_name = "ADDR", value_parser = http::listen_address)]
    pub listen: Option<std::net::SocketAddr>,
    /// With --listen: serve stdio too (one more session; the gateway ends
    /// when the stdio client disconnects).
    #[arg(long, requires = "listen")]
    pub stdio: bool,
    /// The HTTP server's settings (with --listen).
    #[command(flatten)]
    pub http: http::HttpArgs,
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

pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
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

/// One whole line on stderr, written at once, every config secret scrubbed
/// (`secrets`); failures are ignored.
pub fn stderr_line(line: &str) {
    use std::io::Write as _;
    let line = secrets::scrub(line);
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(&line);
    text.push('\n');
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Runs the gateway until its stdio client disconnects or a signal ends
/// it; the exit status (0, 1 or 2, as the crate docs say).
pub fn run(args: Args) -> u8 {
    // One thread, over stdio and over HTTP: the gateway waits on its
    // clients and upstreams far more than it computes, and every wake-up
    // handed between threads is latency (docs/decisions.md).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    match runtime {
        Ok(runtime) => {
            let code = match args.account.clone() {
                Some(command) => runtime.block_on(oauth::commands::run(command)),
                None => runtime.block_on(serve(args)),
            };
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

/// Serves as `args` say, then stops every upstream.
pub async fn serve(args: Args) -> u8 {
    // The HTTP settings are checked (and the address bound) before any
    // upstream starts: a refused address costs nothing.
    let listener = match args.listen {
        Some(addr) => match http::Listener::bind(addr, &args).await {
            Ok(listener) => Some(listener),
            Err(message) => {
                log(&message);
                return 2;
            }
        },
        None => None,
    };
    let token = listener.as_ref().and_then(http::Listener::token);
    let (shared, first, recorded_at) = match prepare(&args, token).await {
        Ok(prepared) => prepared,
        Err(message) => {
            log(&message);
            return 2;
        }
    };
    if args.dangerously_allow_all {
        log("--dangerously-allow-all: every call runs without asking the user");
    }
    let served = match (listener, args.stdio) {
        (None, _) => stdio::serve(Arc::clone(&shared), first, recorded_at).await,
        (Some(listener), false) => {
            drop(first);
            http::serve(Arc::clone(&shared), listener, signalled()).await
        }
        (Some(listener), true) => {
            // The stdio client owns the gateway: its end ends HTTP too.
            let stop = tokio_util::sync::CancellationToken::new();
            let http = http::serve(Arc::clone(&shared), listener, {
                let stop = stop.clone();
                async move { stop.cancelled().await }
            });
            let stdio = async {
                let served = stdio::serve(Arc::clone(&shared), first, recorded_at).await;
                stop.cancel();
                served
            };
            let (http, stdio) = tokio::join!(http, stdio);
            http.and(stdio)
        }
    };
    stop_all(&shared).await;
    let mut code = 0;
    if let Err(error) = served {
        log(&error);
        code = 1;
    }
    if shared.record_failed() {
        log("a recording is incomplete (see above)");
        code = 1;
    }
    code
}

/// Stops every upstream at once.
async fn stop_all(shared: &Shared) {
    let stops: Vec<_> = shared
        .upstreams()
        .into_iter()
        .map(|upstream| tokio::spawn(async move { upstream.stop().await }))
        .collect();
    for stop in stops {
        let _ = stop.await;
    }
}

/// What [`prepare`] gives: the shared gateway, and a run started from its
/// snapshot with where it records (stdio's session; over HTTP alone it
/// records nowhere and is dropped).
pub type Started = (Arc<Shared>, RecordedRun<Out>, Option<PathBuf>);

/// Everything before serving: the config read, the secrets installed, the
/// upstreams started, the snapshot taken, and a first run (stdio's, its
/// recording opened). Errors are exit-2 messages.
pub async fn prepare(args: &Args, token: Option<&str>) -> Result<Started, String> {
    let path = args.config.as_deref().ok_or("--config FILE is required")?;
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{file}: cannot be read: {e}"))?;
    let env = |name: &str| std::env::var(name).ok();
    let config = config::parse(&file, &bytes, &env).map_err(|e| e.to_string())?;
    secrets::install(secrets::Secrets::of(&config, token));
    for (path, origin) in &config.mapped {
        log(&format!("{file}: {path} serves as origin \"{origin}\""));
    }
    for path in &config.disabled {
        log(&format!(
            "{file}: {path} is disabled (\"disabled\": true) and not started"
        ));
    }
    oauth::prepare(&config, path, args.token_dir.as_deref())?;
    for key in &config.ignored {
        log(&format!(
            "{file}: {key} is not read by disclose mcp (left to other clients)"
        ));
    }
    // Stdio's session records from the start; over HTTP each session opens
    // its own file when it starts.
    let (out, recorded_at) = match (&args.record, args.listen.is_none() || args.stdio) {
        (Some(dir), true) => {
            let (path, handle) = recording::create(dir)
                .map_err(|e| format!("{}: cannot record there: {e}", dir.display()))?;
            (Out::File(handle), Some(path))
        }
        (Some(dir), false) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot record there: {e}", dir.display()))?;
            (Out::Nowhere, None)
        }
        (None, _) => (Out::Nowhere, None),
    };
    let hub = Arc::new(hub::Hub::new(gateway::own(), config.order.clone()));
    let upstreams: Vec<Arc<Upstream>> = config
        .servers
        .values()
        .map(|server| {
            let hub = Arc::clone(&hub);
            Arc::new(Upstream::new(server.clone(), args.start_timeout, hub))
        })
        .collect();
    let started = upstream::start_all(upstreams).await;
    let mut forwards = Forwards::default();
    for (upstream, _) in &started {
        let Some(declared) = upstream.declared().await else {
            continue;
        };
        if let Some(prompts) = &declared.prompts {
            forwards.prompts_changed |= prompts.list_changed == Some(true);
        }
        if let Some(resources) = &declared.resources {
            forwards.resources_changed |= resources.list_changed == Some(true);
            forwards.subscribe |= resources.subscribe == Some(true);
        }
        forwards.completions |= declared.completions.is_some();
    }
    // Each server's tools as its filter admits them: a tool left out is
    // never declared, so no run, index or recording holds it.
    let admitted: Vec<(&config::Server, Vec<serde_json::Value>)> = started
        .iter()
        .filter_map(|(upstream, tools)| {
            let server = config.servers.get(upstream.origin())?;
            let (kept, left_out) = catalog::filtered(tools, &server.tools);
            if left_out > 0 {
                log(&format!(
                    "{}: {left_out} of {} tools left out by {}.tools",
                    server.origin,
                    tools.len(),
                    server.path
                ));
            }
            Some((server, kept))
        })
        .collect();
    let listed: Vec<Listed<'_>> = admitted
        .iter()
        .map(|(server, tools)| Listed {
            origin: &server.origin,
            approval: &server.approval,
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
    // A declaration that holds a secret is withheld, never rewritten.
    let snapshot = Snapshot::new(
        &listed,
        args.profile.map(Profile::from),
        &secrets::installed(),
    );
    let first_run = snapshot.start(Recorder::new(out, &about));
    for refused in &first_run.refused {
        log(refused);
    }
    let offered = first_run.routes.len();
    log(&format!(
        "serving {offered} tools of {} servers through describe and call{}",
        served.len(),
        recorded_at
            .as_ref()
            .map(|p| format!("; recording to {}", p.display()))
            .unwrap_or_default()
    ));
    let upstreams = started
        .into_iter()
        .map(|(upstream, _)| (upstream.origin().to_string(), upstream))
        .collect();
    let (shared, run) = Shared::new(Parts {
        snapshot,
        first_run,
        about,
        record: args.record.clone(),
        upstreams,
        hub,
        forwards,
        options: Options {
            call_timeout: args.call_timeout,
            allow_all: args.dangerously_allow_all,
        },
    });
    Ok((shared, run, recorded_at))
}

/// Resolves on SIGTERM, SIGINT or SIGHUP. The handlers are installed when
/// this is called, not when it is first awaited: a signal that arrives
/// right after the gateway said it listens still stops it cleanly.
pub fn signalled() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let signals = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
        signal(SignalKind::hangup()),
    );
    async move {
        let (Ok(mut term), Ok(mut int), Ok(mut hup)) = signals else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
            _ = hup.recv() => {}
        }
        log("stopping on a signal");
    }
}
