//! What an origin or the host declares (SPEC §1): tools, shelf skills and
//! carried skills, with the effect and approval words that fail closed.
//!
//! Declarations are plain data. Nothing here is admitted: only
//! [`crate::Catalog`] turns a declaration into an admitted capability.
//!
//! Effect and approval are typed here; the words are the session format's
//! business (SPEC §11), where [`Effect::from_declared`] and
//! [`Approval::from_declared`] map an absent or unknown word to the
//! fail-closed default (SPEC §1).

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

/// How much effect an approved call has (seed 000).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Reads only.
    Read,
    /// Writes, and writing again changes nothing more.
    IdempotentWrite,
    /// Writes something that can be undone.
    Reversible,
    /// Writes something that cannot be undone; the fail-closed default.
    #[default]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Approval {
    /// A human approves each call; the fail-closed default.
    #[default]
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
///
/// Build one with [`ToolDecl::new`] (effect `irreversible`, approval
/// `required`: the fail-closed defaults of SPEC §1) and move it away from
/// them only on purpose:
///
/// ```
/// use disclose_catalog::{Approval, Effect, ToolDecl};
/// use serde_json::json;
///
/// let decl = ToolDecl::new("github", "get_issue", "Read one issue.", json!({"type": "object"}))
///     .with_effect(Effect::Read)
///     .with_approval(Approval::Never);
/// assert_eq!((decl.effect, decl.approval), (Effect::Read, Approval::Never));
/// ```
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
    /// The declared effect class.
    pub effect: Effect,
    /// Whether a human approves each call.
    pub approval: Approval,
}

impl ToolDecl {
    /// A declaration with the fail-closed effect (`irreversible`) and
    /// approval (`required`).
    pub fn new(
        origin: impl Into<String>,
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: impl Into<Arc<Value>>,
    ) -> ToolDecl {
        ToolDecl {
            origin: origin.into(),
            name: name.into(),
            description: description.into(),
            input_schema: input_schema.into(),
            effect: Effect::default(),
            approval: Approval::default(),
        }
    }

    /// The same declaration with another effect class.
    pub fn with_effect(self, effect: Effect) -> ToolDecl {
        ToolDecl { effect, ..self }
    }

    /// The same declaration with another approval.
    pub fn with_approval(self, approval: Approval) -> ToolDecl {
        ToolDecl { approval, ..self }
    }
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
