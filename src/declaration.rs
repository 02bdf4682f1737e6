//! What an origin or the host declares (SPEC §1): tools, shelf skills and
//! carried skills, with the effect and approval words that fail closed.
//!
//! Declarations are plain data. Nothing here is admitted: only
//! [`crate::Catalog`] turns a declaration into an admitted capability.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// How much effect an approved call has (seed 000).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Writes, and writing again changes nothing more.
    IdempotentWrite,
    /// Writes something that can be undone.
    Reversible,
    /// Writes something that cannot be undone; the fail-closed default.
    Irreversible,
}

impl Effect {
    /// The effect of a declared word: absent or unknown fails closed to
    /// `irreversible`.
    pub fn from_declared(word: Option<&str>) -> Effect {
        match word {
            Some("read") => Effect::Read,
            Some("idempotent-write") => Effect::IdempotentWrite,
            Some("reversible") => Effect::Reversible,
            _ => Effect::Irreversible,
        }
    }

    /// The effect as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::IdempotentWrite => "idempotent-write",
            Effect::Reversible => "reversible",
            Effect::Irreversible => "irreversible",
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a call needs a human at all (seed 000); orthogonal to [`Effect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Approval {
    /// A human approves each call; the fail-closed default.
    Required,
    /// No human is asked.
    Never,
}

impl Approval {
    /// The approval of a declared word: absent or unknown fails closed to
    /// `required`.
    pub fn from_declared(word: Option<&str>) -> Approval {
        match word {
            Some("never") => Approval::Never,
            _ => Approval::Required,
        }
    }

    /// The approval as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Approval::Required => "required",
            Approval::Never => "never",
        }
    }
}

impl fmt::Display for Approval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool as its origin declared it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDecl {
    /// `host` for the build's own tools, else the declaring server or rail.
    pub origin: String,
    /// The raw name as the origin declared it.
    pub name: String,
    /// The full guide text; its first sentence is the hint.
    pub description: String,
    /// A JSON Schema (draft 2020-12) for the arguments. Shared, not copied:
    /// the admitted tool and every tool list hold the same schema.
    pub input_schema: Arc<Value>,
    /// The declared effect word, if any.
    pub effect: Option<String>,
    /// The declared approval word, if any.
    pub approval: Option<String>,
}

/// A skill on the shelf: the card lives at an address the host's `read` opens.
#[derive(Clone, Debug, PartialEq)]
pub struct ShelfSkill {
    /// The skill's name.
    pub name: String,
    /// One line saying what it is for.
    pub disclosure: String,
    /// Where the card lives.
    pub address: String,
    /// BLAKE3 of the card when it was read: 64 lowercase hex.
    pub hash: Option<String>,
    /// The package directory, when the skill came in one.
    pub package: Option<String>,
}

/// A skill carried in: the card's body is held by the catalog itself.
#[derive(Clone, Debug, PartialEq)]
pub struct CarriedSkill {
    /// The skill's name.
    pub name: String,
    /// One line saying what it is for.
    pub disclosure: String,
    /// The card's text.
    pub body: String,
    /// A declared BLAKE3 of `body`, checked at admission.
    pub hash: Option<String>,
    /// The package directory, when the skill came in one.
    pub package: Option<String>,
}
