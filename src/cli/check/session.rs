//! One session checked: read, replayed once, its transcript compared with
//! its golden (or blessed into it), and I1–I8 checked on the replay; only a
//! small [`Case`] survives it. It walks no tree: [`super::run`] hands it one
//! file, and [`super::strays`] looks at what else the golden tree holds.

use disclose_replay::invariants::{self, index_of};
use disclose_replay::replay::{TRANSCRIPT_MAX_BYTES, replay_within};
use disclose_replay::session::Session;
use disclose_replay::{golden, transcript};

use super::report::{Case, CaseFailure, CaseKind, FailureKind, RenderCost};
use super::{Config, Goldens, VOCABULARY, file_failure, io_failure, no_golden};
use crate::cli::corpus::{self, Loaded, SessionFile};
use crate::cli::files::FileError;

/// One session: read, replay once, compare (or bless), check invariants.
pub(super) fn check_session(config: &Config, file: &SessionFile) -> Case {
    let golden_rel = file.golden_rel();
    let golden_path = config.tree.shown(&golden_rel);
    let mut case = Case::new(
        CaseKind::Session,
        file.name(),
        file.path.display().to_string(),
    );
    let session = match corpus::load(&file.path) {
        Ok(Loaded::Session(session)) => session,
        Ok(Loaded::Malformed(malformed)) => {
            case.failures.push(CaseFailure {
                kind: FailureKind::Malformed,
                line: Some(malformed.error.line),
                column: Some(malformed.error.column),
                op: None,
                message: malformed.to_string(),
                diff: None,
            });
            return case;
        }
        Err(error) => {
            case.failures.push(io_failure(&error));
            return case;
        }
    };
    if file.name() == VOCABULARY {
        case.failures.push(CaseFailure::about_the_case(
            FailureKind::ReservedName,
            format!(
                "its golden would be \"{}\", which holds the vocabulary; rename the session",
                golden_path.display()
            ),
        ));
        return case;
    }
    let replayed = match replay_within(&session, TRANSCRIPT_MAX_BYTES) {
        Ok(replayed) => replayed,
        Err(too_large) => {
            case.failures.push(CaseFailure {
                kind: FailureKind::Limit,
                line: Some(too_large.line),
                column: None,
                op: Some(too_large.op.to_string()),
                message: too_large.to_string(),
                diff: None,
            });
            return case;
        }
    };
    let text = transcript::encode(&replayed.steps);
    case.renders = replayed
        .steps
        .iter()
        .filter(|s| s.op == "render")
        .map(|s| RenderCost {
            line: s.line,
            index_bytes: index_of(&s.output).len(),
        })
        .collect();
    match config.goldens {
        Goldens::Compare => compare_golden(config, &mut case, &golden_rel, text.as_bytes()),
        Goldens::Bless => bless(config, &mut case, &golden_rel, text.as_bytes()),
    }
    drop(text);
    invariant_failures(&mut case, &session, &replayed);
    case
}

fn compare_golden(config: &Config, case: &mut Case, golden_rel: &str, actual: &[u8]) {
    let golden_path = config.tree.shown(golden_rel);
    let expected = match config.tree.read(golden_rel) {
        Ok(bytes) => bytes,
        Err(FileError::Missing) => {
            case.failures.push(no_golden(config, &golden_path));
            return;
        }
        Err(e) => {
            case.failures.push(file_failure("read", &golden_path, &e));
            return;
        }
    };
    let Some(mismatch) = golden::compare(&expected, actual) else {
        return;
    };
    let message = match &mismatch.undecodable {
        Some(why) => format!(
            "\"{}\" is not a well-formed transcript ({why}); the replay differs from it",
            golden_path.display()
        ),
        None => format!("the transcript differs from \"{}\"", golden_path.display()),
    };
    case.failures.push(CaseFailure {
        kind: FailureKind::Mismatch,
        line: mismatch.block.as_ref().map(|b| b.line),
        column: None,
        op: mismatch.block.map(|b| b.op),
        message,
        diff: Some(mismatch.diff),
    });
}

/// Writes `bytes` as the golden when it differs or is missing (see
/// [`GoldenTree::write`]: atomically, never through a link).
pub(super) fn bless(config: &Config, case: &mut Case, golden_rel: &str, bytes: &[u8]) {
    let golden_path = config.tree.shown(golden_rel);
    match config.tree.write(golden_rel, bytes) {
        Ok(true) => case.blessed = Some(format!("wrote {}", golden_path.display())),
        Ok(false) => {}
        Err(e) => case.failures.push(file_failure("write", &golden_path, &e)),
    }
}

fn invariant_failures(
    case: &mut Case,
    session: &Session,
    replayed: &disclose_replay::replay::Replay,
) {
    for breach in invariants::check(session, replayed) {
        let op = replayed
            .steps
            .iter()
            .find(|s| s.line == breach.line)
            .map(|s| s.op.to_string());
        case.failures.push(CaseFailure {
            kind: FailureKind::Invariant(breach.invariant),
            line: (breach.line > 0).then_some(breach.line),
            column: None,
            op,
            message: breach.message,
            diff: None,
        });
    }
}
