//! The writing shared by every report (`check`, `check --impl`, `diff`,
//! `recall`): one Markdown escaper and table writer ([`markdown`]), one
//! JUnit writer ([`junit`]), the text of a JSON report ([`json`]), GitHub's
//! workflow commands ([`github`]), and writing a report file
//! ([`write_file`]).
//!
//! It owns no report's content: each report builds its own typed model and
//! its own shape from it, explicitly, in its own modules (never a derived
//! serialization of internal types, so a renamed field cannot change a
//! report's bytes). Only the mechanics every format repeats live here.

pub mod github;
pub mod json;
pub mod junit;
pub mod markdown;

use std::path::Path;

use anyhow::{Context, Result};

/// Writes a report to `path`, creating its parent directories; the error
/// names the path (`failed to write "out/report.json"`).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("failed to create \"{}\"", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("failed to write \"{}\"", path.display()))
}
