//! `disclose cost`. Not built yet.

use anyhow::Result;

use super::Exit;

/// `disclose cost`.
#[derive(Debug, clap::Args)]
pub struct CostArgs {}

/// Runs `disclose cost`.
pub fn run(_args: &CostArgs) -> Result<Exit> {
    anyhow::bail!("cost is not built yet")
}
