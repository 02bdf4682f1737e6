//! What went wrong in a conversation ([`Trouble`]), and how much of what
//! an implementation wrote is kept for the report: at most [`KEPT_MAX`]
//! bytes of anything (docs/decisions.md, "`check --impl` keeps 8 KiB of
//! what an implementation writes, and owns its process group"). It decides
//! nothing about the process: [`super::Process`] does.

/// Of anything an implementation wrote that a report shows (bytes that
/// break the protocol, a reason, a case id, a diff), at most this many
/// bytes are kept, in memory and in every report (docs/decisions.md).
pub const KEPT_MAX: usize = 8 * 1024;

/// Something that went wrong in the conversation: the case it happened on
/// is errored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trouble {
    /// What went wrong, in a sentence.
    pub what: String,
    /// The bytes the implementation wrote that broke the protocol, if any.
    pub offending: Option<Offending>,
    /// The last lines of its stderr.
    pub stderr: Vec<String>,
}

/// Bytes that broke the protocol: the first [`KEPT_MAX`] of them, and how
/// many there were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offending {
    /// The first bytes, at most [`KEPT_MAX`].
    pub head: Vec<u8>,
    /// How many bytes there were in all.
    pub len: usize,
}

impl Offending {
    /// The first [`KEPT_MAX`] of `bytes`, copied.
    pub fn of(bytes: &[u8]) -> Offending {
        Offending {
            head: bytes[..bytes.len().min(KEPT_MAX)].to_vec(),
            len: bytes.len(),
        }
    }
}

/// `text`, cut to at most [`KEPT_MAX`] bytes at a char boundary, saying
/// how many were left out.
pub fn kept(text: &str) -> String {
    if text.len() <= KEPT_MAX {
        return text.to_string();
    }
    let mut end = KEPT_MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &text[..end], text.len() - end)
}
