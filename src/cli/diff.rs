//! `disclose diff`. Not built yet.

use anyhow::Result;

use super::Exit;

/// `disclose diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {}

/// Runs `disclose diff`.
pub fn run(_args: &DiffArgs) -> Result<Exit> {
    anyhow::bail!("diff is not built yet")
}
