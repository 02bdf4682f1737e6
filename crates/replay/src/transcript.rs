//! The transcript (SPEC §12): length-framed blocks, one per op.
//!
//! ```text
//! disclose transcript 1\n
//! === <line> <op> <n>\n
//! <exactly n bytes>
//! ```
//!
//! Framing by length, not by delimiter, makes every output byte — trailing
//! whitespace, a missing final newline, `\r` — part of the comparison.

use std::fmt;
use std::fmt::Write as _;

use crate::replay::Step;

/// The first line of every transcript.
pub const MAGIC: &str = "disclose transcript 1\n";

/// Encodes replayed steps as a transcript.
pub fn encode(steps: &[Step]) -> String {
    // A frame line is under 64 bytes (two numbers and an op's name), so
    // the transcript is allocated once.
    let room = MAGIC.len() + steps.iter().map(|s| s.output.len() + 64).sum::<usize>();
    let mut out = String::with_capacity(room);
    out.push_str(MAGIC);
    for step in steps {
        // Written in place: a `format!` per frame was 2% of a `check`.
        let _ = writeln!(out, "=== {} {} {}", step.line, step.op, step.output.len());
        out.push_str(&step.output);
    }
    out
}

/// One block of a decoded transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block<'a> {
    /// The op's line in the session.
    pub line: usize,
    /// The op's name.
    pub op: &'a str,
    /// The block's exact bytes.
    pub output: &'a [u8],
}

/// Why bytes are not a transcript, and at which byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// A plain message.
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for DecodeError {}

/// Decodes a transcript into its blocks.
pub fn decode(bytes: &[u8]) -> Result<Vec<Block<'_>>, DecodeError> {
    let err = |offset, message: &str| DecodeError {
        offset,
        message: message.to_string(),
    };
    if !bytes.starts_with(MAGIC.as_bytes()) {
        return Err(err(0, "does not start with \"disclose transcript 1\""));
    }
    let mut blocks = Vec::new();
    let mut at = MAGIC.len();
    while at < bytes.len() {
        let end = bytes[at..]
            .iter()
            .position(|b| *b == b'\n')
            .map(|p| at + p)
            .ok_or_else(|| err(at, "a block header has no newline"))?;
        let header = std::str::from_utf8(&bytes[at..end])
            .map_err(|_| err(at, "a block header is not UTF-8"))?;
        let mut parts = header
            .strip_prefix("=== ")
            .ok_or_else(|| err(at, "a block header does not start with \"=== \""))?
            .split(' ');
        let (Some(line), Some(op), Some(n), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(err(at, "a block header is not \"=== <line> <op> <n>\""));
        };
        let line: usize = line
            .parse()
            .map_err(|_| err(at, "a block's line is not a number"))?;
        let n: usize = n
            .parse()
            .map_err(|_| err(at, "a block's length is not a number"))?;
        let start = end + 1;
        let stop = start
            .checked_add(n)
            .filter(|stop| *stop <= bytes.len())
            .ok_or_else(|| err(at, "a block is shorter than its length says"))?;
        blocks.push(Block {
            line,
            op,
            output: &bytes[start..stop],
        });
        at = stop;
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Outcome;

    #[test]
    fn encode_then_decode_round_trips() {
        let steps = vec![
            Step {
                line: 2,
                op: "render",
                output: "a\nb".into(),
                outcome: Outcome::Done,
            },
            Step {
                line: 4,
                op: "pins",
                output: String::new(),
                outcome: Outcome::Done,
            },
        ];
        let text = encode(&steps);
        assert_eq!(
            text,
            "disclose transcript 1\n=== 2 render 3\na\nb=== 4 pins 0\n"
        );
        let blocks = decode(text.as_bytes()).expect("round trip");
        assert_eq!(
            blocks,
            [
                Block {
                    line: 2,
                    op: "render",
                    output: b"a\nb"
                },
                Block {
                    line: 4,
                    op: "pins",
                    output: b""
                }
            ]
        );
    }

    #[test]
    fn truncated_blocks_are_errors_not_panics() {
        assert!(decode(b"disclose transcript 1\n=== 2 render 99\nabc").is_err());
        assert!(decode(b"nope").is_err());
        assert!(decode(b"disclose transcript 1\n=== x render 1\na").is_err());
    }
}
