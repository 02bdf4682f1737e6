//! The command line (clap derive): validation only, no behaviour.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// A deterministic, progressive-disclosure tool catalog, and the harness
/// that replays recorded sessions through it.
#[derive(Debug, Parser)]
#[command(name = "disclose", version, about)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every session under DIR and gate on goldens and invariants.
    Check(super::check::CheckArgs),
    /// Print a session's transcript, or write a transcript tree with --out.
    Replay(ReplayArgs),
    /// Print the sealed refusal vocabulary.
    Vocab,
    /// Compare two transcript trees (or files): what changed, and what it costs.
    Diff(super::diff::DiffArgs),
    /// Generate catalogs and sessions and check every invariant on each.
    Fuzz(super::fuzz::FuzzArgs),
    /// Turn a provider's tool list into session lines.
    Import(super::import::ImportArgs),
    /// Request bytes per session under the dormant, eager and deferred strategies.
    Cost(super::cost::CostArgs),
    /// Serve this library over the conformance protocol on stdin/stdout.
    Serve,
    /// Which cases changed state, per implementation, between two
    /// `check --json` reports.
    DiffReport(super::check_report_diff::DiffReportArgs),
    /// How often describe lists an expected tool for each task (hit@1/3/8, recall@8, MRR).
    Recall(super::recall::RecallArgs),
    /// Serve the servers of an `mcpServers` config through the catalog's two
    /// doors, as an MCP server on stdin/stdout, or over streamable HTTP
    /// (--listen).
    #[cfg(all(feature = "mcp", unix))]
    Mcp(disclose_mcp::Args),
    /// Not in this build: the gateway is left out of a build with
    /// --no-default-features, and of one for Windows (`disclose mcp` says
    /// how to get it).
    #[cfg(not(all(feature = "mcp", unix)))]
    #[command(disable_help_flag = true)]
    Mcp(NoGateway),
}

/// `disclose mcp` in a build without the gateway: whatever follows is
/// taken, so that every form of the command gets the same answer.
#[cfg(not(all(feature = "mcp", unix)))]
#[derive(Debug, clap::Args)]
pub struct NoGateway {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    _args: Vec<std::ffi::OsString>,
}

/// `disclose replay`.
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// A session file, or a corpus directory with --out.
    pub path: PathBuf,
    /// Write one transcript per session under OUT, mirroring the corpus.
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
}
