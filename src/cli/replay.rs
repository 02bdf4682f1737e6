//! `disclose replay FILE` prints one transcript; `disclose replay DIR --out
//! OUT` writes a transcript tree that mirrors the corpus (for `diff`).

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use disclose_replay::replay::{TRANSCRIPT_MAX_BYTES, replay_within};
use disclose_replay::transcript;
use rayon::prelude::*;

use super::args::ReplayArgs;
use super::corpus::{self, Loaded};
use super::files::GoldenTree;
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
            Loaded::Session(session) => match replay_within(&session, TRANSCRIPT_MAX_BYTES) {
                Ok(replayed) => {
                    emit(&transcript::encode(&replayed.steps))?;
                    Ok(Exit::Pass)
                }
                Err(too_large) => {
                    eprintln!("{}: {too_large}", args.path.display());
                    Ok(Exit::Fail)
                }
            },
            Loaded::Malformed(malformed) => {
                eprintln!("{malformed}");
                Ok(Exit::Fail)
            }
        },
        Some(out) => tree(&args.path, out),
    }
}

/// Writes `OUT/<rel>.txt` for every session under `dir`. Malformed sessions,
/// sessions past the transcript limit and unreadable entries are reported
/// and skipped; the rest are still written, each whole or not at all, and
/// never through a link inside `OUT`.
fn tree(dir: &Path, out: &Path) -> Result<Exit> {
    let corpus = corpus::discover(dir)?;
    let tree = GoldenTree::new(out);
    let results: Vec<Result<Option<String>>> = corpus
        .files
        .par_iter()
        .map(|file| {
            let session = match corpus::load(&file.path)? {
                Loaded::Session(session) => session,
                Loaded::Malformed(malformed) => return Ok(Some(malformed.to_string())),
            };
            let replayed = match replay_within(&session, TRANSCRIPT_MAX_BYTES) {
                Ok(replayed) => replayed,
                Err(e) => return Ok(Some(format!("{}: {e}", file.path.display()))),
            };
            let rel = file.golden_rel();
            tree.write(&rel, transcript::encode(&replayed.steps).as_bytes())
                .map_err(|e| anyhow!("failed to write \"{}\": {e}", tree.shown(&rel).display()))?;
            Ok(None)
        })
        .collect();
    for entry in &corpus.unreadable {
        eprintln!("disclose: {entry}");
    }
    let mut skipped = 0;
    for result in results {
        if let Some(message) = result? {
            eprintln!("{message}");
            skipped += 1;
        }
    }
    eprintln!(
        "disclose: wrote {} transcripts to \"{}\"",
        corpus.files.len() - skipped,
        out.display()
    );
    Ok(if !corpus.unreadable.is_empty() {
        Exit::Usage
    } else if skipped > 0 {
        Exit::Fail
    } else {
        Exit::Pass
    })
}
