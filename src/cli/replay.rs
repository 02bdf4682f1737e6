//! `disclose replay FILE` prints one transcript; `disclose replay DIR --out
//! OUT` writes a transcript tree that mirrors the corpus (for `diff`).

use std::path::Path;

use anyhow::{Context, Result, bail};
use disclose::replay::replay;
use disclose::transcript;
use rayon::prelude::*;

use super::args::ReplayArgs;
use super::corpus::{self, Loaded};
use super::{Exit, emit};

/// Runs `disclose replay`.
pub fn run(args: &ReplayArgs) -> Result<Exit> {
    match &args.out {
        None if args.path.is_dir() => {
            bail!(
                "\"{}\" is a directory; replay a directory with --out OUT",
                args.path.display()
            )
        }
        None => match corpus::load(&args.path)? {
            Loaded::Session(session) => {
                emit(&transcript::encode(&replay(&session).steps))?;
                Ok(Exit::Pass)
            }
            Loaded::Malformed(malformed) => {
                eprintln!("{malformed}");
                Ok(Exit::Fail)
            }
        },
        Some(out) => tree(&args.path, out),
    }
}

/// Writes `OUT/<rel>.txt` for every session under `dir`. Malformed sessions
/// are reported and skipped; the rest are still written.
fn tree(dir: &Path, out: &Path) -> Result<Exit> {
    let files = corpus::discover(dir)?;
    let results: Vec<Result<Option<String>>> = files
        .par_iter()
        .map(|file| {
            let session = match corpus::load(&file.path)? {
                Loaded::Session(session) => session,
                Loaded::Malformed(malformed) => return Ok(Some(malformed.to_string())),
            };
            let target = file.golden(out);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("failed to create \"{}\"", parent.display()))?;
            }
            std::fs::write(&target, transcript::encode(&replay(&session).steps))
                .with_context(|| format!("failed to write \"{}\"", target.display()))?;
            Ok(None)
        })
        .collect();
    let mut malformed = 0;
    for result in results {
        if let Some(message) = result? {
            eprintln!("{message}");
            malformed += 1;
        }
    }
    eprintln!(
        "disclose: wrote {} transcripts to \"{}\"",
        files.len() - malformed,
        out.display()
    );
    Ok(if malformed > 0 {
        Exit::Fail
    } else {
        Exit::Pass
    })
}
