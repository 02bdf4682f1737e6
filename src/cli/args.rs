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
    Check(CheckArgs),
    /// Print a session's transcript, or write a transcript tree with --out.
    Replay(ReplayArgs),
    /// Print the sealed refusal vocabulary.
    Vocab,
}

/// `disclose check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The corpus directory.
    #[arg(default_value = "corpora")]
    pub dir: PathBuf,
    /// The golden directory.
    #[arg(long, default_value = "golden")]
    pub golden: PathBuf,
    /// Write goldens from the replays and delete orphans (never when CI is set).
    #[arg(long)]
    pub bless: bool,
    /// Write a JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a Markdown summary (for a CI step summary) to FILE.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Check only this machine's share: `hash:K/N`, 1 <= K <= N.
    #[arg(long, value_name = "hash:K/N")]
    pub partition: Option<String>,
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
