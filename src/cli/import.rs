//! `disclose import`. Not built yet.

use anyhow::Result;

use super::Exit;

/// `disclose import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {}

/// Runs `disclose import`.
pub fn run(_args: &ImportArgs) -> Result<Exit> {
    anyhow::bail!("import is not built yet")
}
