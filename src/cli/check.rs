//! `disclose check`: the CI gate (SPEC §13–§14). Not built yet.

use std::path::PathBuf;

use anyhow::Result;

use super::Exit;

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

/// Runs `disclose check`.
pub fn run(_args: &CheckArgs) -> Result<Exit> {
    anyhow::bail!("check is not built yet")
}
