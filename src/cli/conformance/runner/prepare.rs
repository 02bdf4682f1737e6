//! Preparing the cases: one thread reads and parses each session and its
//! golden once, for every implementation, and hands each implementation's
//! thread the `run` message, the op lines that frame the answer, and the
//! golden it must equal. A malformed session or a missing golden is a
//! corpus error here, and reaches no implementation. It talks to no
//! process: [`super::drive`] does.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::SyncSender;

use disclose_replay::session::{self, Session};

use super::process::{Settings, own_trouble};
use crate::cli::conformance::protocol::{self, MessageKind};
use crate::cli::corpus::SessionFile;
use crate::cli::files::{FileError, GoldenTree, read_regular};

/// A session ready to send: the run message, the op lines and names that
/// frame the answer, and the golden it must equal.
pub(super) struct Prepared {
    pub(super) message: String,
    /// With `--validate-protocol`, why the message breaks its own schema.
    pub(super) invalid: Option<String>,
    pub(super) frame: Vec<(usize, &'static str)>,
    pub(super) golden_path: PathBuf,
    pub(super) golden: Vec<u8>,
}

/// A case as prepared, handed to every implementation's run.
#[derive(Clone)]
pub(super) enum Prep {
    Ready(Arc<Prepared>),
    Corpus(String),
    Io(String),
}

/// Prepares every case, in corpus order, and hands each to every
/// implementation's run. A full channel holds this thread back until that
/// run catches up; a run that is gone (its thread panicked) is skipped.
/// A missing golden's message names `bless_command`.
pub(super) fn prepare_all(
    cases: &[&SessionFile],
    golden_dir: &Path,
    bless_command: &str,
    settings: &Settings,
    runs: &[SyncSender<Prep>],
) {
    let tree = GoldenTree::new(golden_dir);
    for file in cases {
        let prep = prepare(file, &tree, bless_command, settings);
        let mut anyone = false;
        for run in runs {
            anyone |= run.send(prep.clone()).is_ok();
        }
        if !anyone {
            return;
        }
    }
}

/// Reads a session and its golden. Only a session that parses is sent; its
/// ops go out as the file's own text, one object per op.
fn prepare(
    file: &SessionFile,
    tree: &GoldenTree,
    bless_command: &str,
    settings: &Settings,
) -> Prep {
    let bytes = match read_regular(&file.path, u64::MAX, "a session") {
        Ok(bytes) => bytes,
        Err(e) => return Prep::Io(format!("failed to read \"{}\": {e}", file.path.display())),
    };
    let session = match session::parse(&bytes) {
        Ok(session) => session,
        Err(error) => {
            return Prep::Corpus(format!(
                "{}:{error} (a malformed session is sent to no implementation)",
                file.path.display()
            ));
        }
    };
    let golden_rel = file.golden_rel();
    let golden_path = tree.shown(&golden_rel);
    if file.name() == "vocabulary" {
        return Prep::Corpus(format!(
            "its golden would be \"{}\", which holds the vocabulary; rename the session",
            golden_path.display()
        ));
    }
    // A regular file of at most the golden limit, never through a link in
    // the golden tree, as the in-process check reads it.
    let golden = match tree.read(&golden_rel) {
        Ok(golden) => golden,
        Err(FileError::Missing) => {
            return Prep::Corpus(format!(
                "no golden \"{}\"; bless it with the in-process check (`{bless_command}`)",
                golden_path.display(),
            ));
        }
        Err(e) => {
            return Prep::Io(format!("failed to read \"{}\": {e}", golden_path.display()));
        }
    };
    // The parser accepted the file, so it is UTF-8, and its non-blank
    // lines after the header are exactly the session's ops, in order.
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<(usize, &str)> = text
        .split('\n')
        .enumerate()
        // Blank as the parser counts it (SPEC §0.1's whitespace); an op is
        // sent without the JSON whitespace around it.
        .filter(|(_, raw)| !raw.trim().is_empty())
        .map(|(i, raw)| (i + 1, raw.trim_matches([' ', '\t', '\r'])))
        .skip(1)
        .collect();
    if !same_ops(&session, &lines) {
        return Prep::Corpus(format!(
            "{}: its lines and its parsed ops do not line up (a harness bug)",
            file.path.display()
        ));
    }
    // A `\r` between tokens is JSON whitespace, but a reader with universal
    // newlines would split the message there: send such an op re-encoded.
    let reencoded: Vec<String> = lines
        .iter()
        .filter(|(_, raw)| raw.contains('\r'))
        .map(|(_, raw)| {
            serde_json::from_str::<serde_json::Value>(raw)
                .map_or_else(|_| raw.to_string(), |v| v.to_string())
        })
        .collect();
    let mut reencoded = reencoded.iter();
    let ops: Vec<&str> = lines
        .iter()
        .map(|(_, raw)| {
            if raw.contains('\r') {
                reencoded.next().map_or(*raw, String::as_str)
            } else {
                raw
            }
        })
        .collect();
    let message = protocol::run_message(file.name(), &ops);
    Prep::Ready(Arc::new(Prepared {
        invalid: own_trouble(&message, MessageKind::Run, settings),
        message,
        frame: session
            .ops()
            .iter()
            .map(|op| (op.line, op.kind.name()))
            .collect(),
        golden_path,
        golden,
    }))
}

fn same_ops(session: &Session, lines: &[(usize, &str)]) -> bool {
    session.ops().len() == lines.len()
        && session
            .ops()
            .iter()
            .zip(lines)
            .all(|(op, (line, _))| op.line == *line)
}
