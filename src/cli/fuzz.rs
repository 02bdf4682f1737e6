//! `disclose fuzz`. Not built yet.

use anyhow::Result;

use super::Exit;

/// `disclose fuzz`.
#[derive(Debug, clap::Args)]
pub struct FuzzArgs {}

/// Runs `disclose fuzz`.
pub fn run(_args: &FuzzArgs) -> Result<Exit> {
    anyhow::bail!("fuzz is not built yet")
}
