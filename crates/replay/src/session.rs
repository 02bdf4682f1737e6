//! The recorded-session format (SPEC §11): JSON Lines in, typed ops out.
//!
//! Parsing never panics and never half-succeeds: a session is either every
//! op typed and in a legal order, or one [`SessionError`] with the line,
//! column and a plain message. This module reads bytes, not files, and
//! owns the session's order of ops; the rest sits beside it:
//!
//! - `ops`, the op table written once: each op's name, its fields, and
//!   where it may stand ([`OP_NAMES`] comes from it);
//! - `reader`, the rule: the one judge of a line, writing every message;
//! - `typed`, its fast path: a well-formed op line read straight into its
//!   op by serde's derive, any other line left to the reader. The tests
//!   hold the two equal on every line shape the table makes and on every
//!   line of the corpus (`tests::the_shipped_schema_agrees_with_the_reader_*`,
//!   through `fast_path_agrees`).
//!
//! `corpora/session.schema.json`, shipped for other implementations, says
//! what the reader says: the tests hold it to the reader on every line
//! shape and every corpus line, so the replay does not validate a line a
//! second time.

use std::fmt;

mod ops;
mod reader;
#[cfg(test)]
mod tests;
mod typed;

use ops::When;
use reader::{LineReader, first_column};

pub use ops::OP_NAMES;

pub use disclose::internals::record::{FORMAT, OpKind};

/// A parsed, well-formed session.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    about: String,
    ops: Vec<Op>,
}

impl Session {
    /// Why the session exists (the header's `about`).
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The ops after the header, in file order. Only [`parse`] builds a
    /// session, so queries always follow the one `start`.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }
}

/// One op and the 1-based line it stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// The op's line in the session file.
    pub line: usize,
    /// What it does.
    pub kind: OpKind,
}

/// Why a session is malformed, and where (1-based line and byte column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionError {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// A plain message.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SessionError {}

/// Parses a whole session from its bytes.
pub fn parse(bytes: &[u8]) -> Result<Session, SessionError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |p| p + 1);
        SessionError {
            line,
            column: e.valid_up_to() - line_start + 1,
            message: "the file is not valid UTF-8".to_string(),
        }
    })?;

    let mut about = None;
    let mut ops = Vec::new();
    let mut started_at: Option<usize> = None;
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        // Blank is whitespace only, as SPEC §0.1 counts whitespace (a
        // no-break space too); JSON's own four are all a token may follow.
        if raw.trim().is_empty() {
            continue;
        }
        let fast = match about {
            Some(_) => typed::op_kind(raw),
            None => None,
        };
        let (when, kind) = match fast {
            Some(read) => read,
            None => {
                let reader = LineReader::new(raw, line)?;
                let row = reader.op()?;
                if about.is_none() {
                    if row.when != When::Header {
                        return Err(reader.error_at_start(format!(
                            "the first line must be the header {{\"op\":\"session\",\"format\":1,\"about\":\"…\"}}, not op \"{}\"",
                            row.name
                        )));
                    }
                    about = Some(reader.header()?);
                    continue;
                }
                (row.when, reader.op_kind(row)?)
            }
        };
        let at_start = |message| SessionError {
            line,
            column: first_column(raw),
            message,
        };
        // SPEC §11's order, as the op table says where each op may stand.
        match (when, started_at) {
            (When::Started, None) => {
                return Err(at_start(format!(
                    "op \"{}\" needs a started run; put {{\"op\":\"start\",\"mode\":\"chat\"}} before it",
                    kind.name()
                )));
            }
            (When::Start, Some(first)) => {
                return Err(at_start(format!(
                    "the run already started on line {first}; a session has one start"
                )));
            }
            (When::BeforeStart, Some(first)) => {
                return Err(at_start(format!(
                    "op \"{}\" must come before the run starts (line {first})",
                    kind.name()
                )));
            }
            (When::Start, None) => started_at = Some(line),
            _ => {}
        }
        ops.push(Op { line, kind });
    }
    match about {
        Some(about) => Ok(Session {
            about,
            ops,
        }),
        None => Err(SessionError {
            line: 1,
            column: 1,
            message: "the session is empty; its first line must be the header {\"op\":\"session\",\"format\":1,\"about\":\"…\"}".to_string(),
        }),
    }
}
