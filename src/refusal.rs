//! The sealed refusal vocabulary (SPEC §9).
//!
//! A refusal is a reading, not a failure: every door of the catalog answers
//! `Ok` or exactly one [`Refusal`]. There is one variant per code, each with a
//! fixed [`Class`] and a `Display` that is the exact message of the spec's
//! table. Reason texts are fixed strings of this module, never a dependency's
//! error text. [`vocabulary`] lists every code, class, template and reason, so
//! `disclose vocab` (and its golden) makes any rewording a reviewed change.

use std::fmt;

use crate::fit::Violation;
use crate::mode::{Mode, Profile};

/// The class a refusal belongs to (the runtime's error code family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Class {
    /// The arguments (a declaration, a query, a call) were not acceptable.
    InvalidArgs,
    /// A gate (mode, approval, profile) denied the call.
    GateDenied,
}

impl Class {
    /// The class as printed: `E_INVALID_ARGS` or `E_GATE_DENIED`.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::InvalidArgs => "E_INVALID_ARGS",
            Class::GateDenied => "E_GATE_DENIED",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of capability already holds a name (`admit.duplicate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A tool (including the build's own `describe` and `call`).
    Tool,
    /// A skill, from either door.
    Skill,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Skill => "skill",
        }
    }
}

/// Declares a closed set of fixed reason texts, each listed in the vocabulary.
macro_rules! reasons {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every reason, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The fixed text of this reason.
            pub fn text(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }
    };
}

reasons! {
    /// Why an input schema was refused (`admit.schema`).
    SchemaReason {
        /// The schema is an array, string, number, boolean or null.
        NotObject => "it is not a JSON object",
        /// The schema breaks the draft 2020-12 meta-schema.
        MetaSchema => "it breaks the draft 2020-12 meta-schema",
    }
}

reasons! {
    /// Why a declared skill hash was refused (`admit.hash`).
    HashReason {
        /// A carried skill's declared hash is not BLAKE3 of its body.
        BodyMismatch => "the body hashes to a different BLAKE3",
        /// A shelf skill's declared hash is not 64 lowercase hex digits.
        NotHex => "it is not 64 lowercase hex digits",
    }
}

reasons! {
    /// Why a `describe` query was refused (`describe.query`), SPEC §5.
    QueryReason {
        /// Empty after trimming whitespace.
        Empty => "is empty",
        /// More than `QUERY_MAX_BYTES` bytes.
        TooLong => "is longer than 256 bytes",
        /// Holds U+0000–U+001F or U+007F.
        Control => "holds a control character",
    }
}

reasons! {
    /// Why a call through `call` had the wrong shape (`call.shape`), SPEC §6.
    ShapeReason {
        /// The outer args are not a JSON object.
        NotObject => "its args are not an object",
        /// The outer args have no `name`.
        MissingName => "\"name\" is missing",
        /// The outer args have no `args`.
        MissingArgs => "\"args\" is missing",
        /// `name` is present but not a string.
        NameNotString => "\"name\" is not a string",
    }
}

/// A typed, named answer that is not `ok` (SPEC §9). Sealed: these are the
/// only refusals that exist. `#[non_exhaustive]`: a later contract version
/// may add a code, and a runtime's `match` must not stop compiling then.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Refusal {
    /// `admit.frozen`: an admission after the run started.
    Frozen {
        /// The minted name.
        name: String,
    },
    /// `admit.origin`: the origin does not match its pattern.
    Origin {
        /// The origin as declared.
        origin: String,
    },
    /// `admit.name`: the minted name is not 1 to 64 of `[A-Za-z0-9_-]`.
    Name {
        /// The minted name.
        name: String,
    },
    /// `admit.reserved`: the minted name is `describe` or `call`.
    Reserved {
        /// The minted name.
        name: String,
    },
    /// `admit.disclosure`: the description or disclosure is blank.
    Disclosure {
        /// The minted name.
        name: String,
    },
    /// `admit.schema`: the input schema is not a valid JSON Schema object.
    Schema {
        /// The minted name.
        name: String,
        /// Which check failed.
        reason: SchemaReason,
    },
    /// `admit.hash`: a skill's declared hash is wrong.
    Hash {
        /// The skill's name.
        name: String,
        /// The hash as declared.
        given: String,
        /// Which check failed.
        reason: HashReason,
    },
    /// `admit.duplicate`: the minted name is already admitted.
    Duplicate {
        /// The minted name.
        name: String,
        /// What holds it.
        holder: Kind,
    },
    /// `admit.collision`: the normalization key is already held.
    Collision {
        /// The minted name that was refused.
        name: String,
        /// The admitted name holding the same key.
        holder: String,
    },
    /// `admit.generation`: the generation counter would overflow.
    Generation,
    /// `describe.query`: the query failed validation.
    Query {
        /// Which check failed.
        reason: QueryReason,
    },
    /// `call.shape`: the args of `call` are not `{"name": string, "args": …}`.
    Shape {
        /// Which check failed.
        reason: ShapeReason,
    },
    /// `call.itself`: `call` was asked to call `call`.
    Itself,
    /// `call.unknown`: the target is not an admitted tool.
    Unknown {
        /// The target as asked.
        name: String,
        /// Up to `NEAREST_NAMES` offered tools, nearest first.
        nearest: Vec<String>,
    },
    /// `call.not_offered`: a dormant tool was called directly.
    NotOffered {
        /// The tool's minted name.
        name: String,
    },
    /// `call.misfit`: the inner args do not fit the target's schema.
    Misfit {
        /// The target's minted name.
        name: String,
        /// Every violation, in the order of SPEC §6.
        violations: Vec<Violation>,
        /// The target's canonical input schema.
        schema: String,
    },
    /// `gate.mode`: the tool does not run in the effective mode.
    GateMode {
        /// The tool's name.
        name: String,
        /// The effective mode.
        mode: Mode,
    },
    /// `approval.child_unattended`: a child called a tool needing approval.
    ChildUnattended {
        /// The tool's name.
        name: String,
    },
    /// `profile.narrowed`: a child called a tool its profile does not offer.
    Narrowed {
        /// The tool's name.
        name: String,
        /// The child's profile.
        profile: Profile,
    },
    /// `expand.unknown`: nothing visible is named that.
    ExpandUnknown {
        /// The name as asked.
        name: String,
    },
}

impl Refusal {
    /// The code, e.g. `admit.frozen`.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Frozen { .. } => "admit.frozen",
            Refusal::Origin { .. } => "admit.origin",
            Refusal::Name { .. } => "admit.name",
            Refusal::Reserved { .. } => "admit.reserved",
            Refusal::Disclosure { .. } => "admit.disclosure",
            Refusal::Schema { .. } => "admit.schema",
            Refusal::Hash { .. } => "admit.hash",
            Refusal::Duplicate { .. } => "admit.duplicate",
            Refusal::Collision { .. } => "admit.collision",
            Refusal::Generation => "admit.generation",
            Refusal::Query { .. } => "describe.query",
            Refusal::Shape { .. } => "call.shape",
            Refusal::Itself => "call.itself",
            Refusal::Unknown { .. } => "call.unknown",
            Refusal::NotOffered { .. } => "call.not_offered",
            Refusal::Misfit { .. } => "call.misfit",
            Refusal::GateMode { .. } => "gate.mode",
            Refusal::ChildUnattended { .. } => "approval.child_unattended",
            Refusal::Narrowed { .. } => "profile.narrowed",
            Refusal::ExpandUnknown { .. } => "expand.unknown",
        }
    }

    /// The class of the code.
    pub fn class(&self) -> Class {
        match self {
            Refusal::GateMode { .. }
            | Refusal::ChildUnattended { .. }
            | Refusal::Narrowed { .. } => Class::GateDenied,
            _ => Class::InvalidArgs,
        }
    }

    /// The refusal as the transcript prints it:
    /// `refused <class> <code>: <message>\n`, plus `schema: <schema>\n` for
    /// `call.misfit` (SPEC §9).
    pub fn to_lines(&self) -> String {
        let mut out = format!("refused {} {}: {self}\n", self.class(), self.code());
        if let Refusal::Misfit { schema, .. } = self {
            out.push_str("schema: ");
            out.push_str(schema);
            out.push('\n');
        }
        out
    }
}

/// A refusal is a reading, not a failure (SPEC §0), but a runtime that
/// treats one as an error can `?` it.
impl std::error::Error for Refusal {}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Frozen { name } => {
                write!(f, "the run has started; \"{name}\" was not admitted")
            }
            Refusal::Origin { origin } => write!(
                f,
                "origin \"{origin}\" is not lowercase letters, digits and inner hyphens"
            ),
            Refusal::Name { name } => write!(f, "\"{name}\" is not 1 to 64 of A-Z a-z 0-9 _ -"),
            Refusal::Reserved { name } => {
                write!(f, "\"{name}\" is reserved for the catalog's own door")
            }
            Refusal::Disclosure { name } => write!(f, "\"{name}\" has an empty disclosure"),
            Refusal::Schema { name, reason } => write!(
                f,
                "\"{name}\" has an input schema that is not a valid JSON Schema object: {}",
                reason.text()
            ),
            Refusal::Hash {
                name,
                given,
                reason,
            } => write!(f, "\"{name}\" declares hash {given} but {}", reason.text()),
            Refusal::Duplicate { name, holder } => {
                write!(f, "\"{name}\" is already admitted as a {}", holder.as_str())
            }
            Refusal::Collision { name, holder } => write!(
                f,
                "\"{name}\" collides with \"{holder}\" after provider normalization"
            ),
            Refusal::Generation => f.write_str("the catalog generation would overflow"),
            Refusal::Query { reason } => write!(f, "the query {}", reason.text()),
            Refusal::Shape { reason } => write!(
                f,
                "call takes {{\"name\": string, \"args\": object}}: {}",
                reason.text()
            ),
            Refusal::Itself => f.write_str("call cannot call itself"),
            Refusal::Unknown { name, nearest } => {
                write!(f, "no admitted tool is named \"{name}\"; ")?;
                if nearest.is_empty() {
                    f.write_str("nothing is admitted")
                } else {
                    write!(f, "nearest: {}", nearest.join(", "))
                }
            }
            Refusal::NotOffered { name } => {
                write!(f, "\"{name}\" is dormant; run it through call")
            }
            Refusal::Misfit {
                name, violations, ..
            } => {
                write!(f, "args for \"{name}\" do not fit its input schema: ")?;
                for (i, violation) in violations.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{violation}")?;
                }
                Ok(())
            }
            Refusal::GateMode { name, mode } => {
                write!(f, "\"{name}\" does not run in {mode} mode")
            }
            Refusal::ChildUnattended { name } => write!(
                f,
                "\"{name}\" needs a human's approval, and no human is attached to this child"
            ),
            Refusal::Narrowed { name, profile } => {
                write!(f, "\"{name}\" is not offered to a {profile} child")
            }
            Refusal::ExpandUnknown { name } => write!(f, "nothing admitted is named \"{name}\""),
        }
    }
}

/// One row of the sealed vocabulary: what `disclose vocab` prints.
#[derive(Clone, Debug)]
pub struct VocabEntry {
    /// The code, e.g. `admit.frozen`.
    pub code: &'static str,
    /// Its class.
    pub class: Class,
    /// The message template, placeholders in `<…>` as in SPEC §9.
    pub template: &'static str,
    /// The fixed texts that may stand for `<reason>` (empty when none).
    pub reasons: Vec<&'static str>,
}

/// Every code of the sealed vocabulary, in the order of SPEC §9's table.
pub fn vocabulary() -> Vec<VocabEntry> {
    fn texts<R: Copy>(all: &[R], text: fn(R) -> &'static str) -> Vec<&'static str> {
        all.iter().map(|r| text(*r)).collect()
    }
    let row = |code, class, template, reasons| VocabEntry {
        code,
        class,
        template,
        reasons,
    };
    use Class::{GateDenied as G, InvalidArgs as I};
    vec![
        row(
            "admit.frozen",
            I,
            "the run has started; \"<name>\" was not admitted",
            vec![],
        ),
        row(
            "admit.origin",
            I,
            "origin \"<origin>\" is not lowercase letters, digits and inner hyphens",
            vec![],
        ),
        row(
            "admit.name",
            I,
            "\"<name>\" is not 1 to 64 of A-Z a-z 0-9 _ -",
            vec![],
        ),
        row(
            "admit.reserved",
            I,
            "\"<name>\" is reserved for the catalog's own door",
            vec![],
        ),
        row(
            "admit.disclosure",
            I,
            "\"<name>\" has an empty disclosure",
            vec![],
        ),
        row(
            "admit.schema",
            I,
            "\"<name>\" has an input schema that is not a valid JSON Schema object: <reason>",
            texts(SchemaReason::ALL, SchemaReason::text),
        ),
        row(
            "admit.hash",
            I,
            "\"<name>\" declares hash <given> but <reason>",
            texts(HashReason::ALL, HashReason::text),
        ),
        row(
            "admit.duplicate",
            I,
            "\"<name>\" is already admitted as a <tool|skill>",
            vec![],
        ),
        row(
            "admit.collision",
            I,
            "\"<name>\" collides with \"<holder>\" after provider normalization",
            vec![],
        ),
        row(
            "admit.generation",
            I,
            "the catalog generation would overflow",
            vec![],
        ),
        row(
            "describe.query",
            I,
            "the query <reason>",
            texts(QueryReason::ALL, QueryReason::text),
        ),
        row(
            "call.shape",
            I,
            "call takes {\"name\": string, \"args\": object}: <reason>",
            texts(ShapeReason::ALL, ShapeReason::text),
        ),
        row("call.itself", I, "call cannot call itself", vec![]),
        row(
            "call.unknown",
            I,
            "no admitted tool is named \"<name>\"; nearest: <a>, <b>, <c> (; nothing is admitted)",
            vec![],
        ),
        row(
            "call.not_offered",
            I,
            "\"<name>\" is dormant; run it through call",
            vec![],
        ),
        row(
            "call.misfit",
            I,
            "args for \"<name>\" do not fit its input schema: <violations joined by \"; \">",
            crate::fit::VIOLATION_TEMPLATES.to_vec(),
        ),
        row(
            "gate.mode",
            G,
            "\"<name>\" does not run in <mode> mode",
            vec![],
        ),
        row(
            "approval.child_unattended",
            G,
            "\"<name>\" needs a human's approval, and no human is attached to this child",
            vec![],
        ),
        row(
            "profile.narrowed",
            G,
            "\"<name>\" is not offered to a <profile> child",
            vec![],
        ),
        row(
            "expand.unknown",
            I,
            "nothing admitted is named \"<name>\"",
            vec![],
        ),
    ]
}

/// The vocabulary as `disclose vocab` prints it and `golden/vocabulary.txt`
/// holds it: a format line, then one `<code> <class> <template>` line per
/// code, each followed by its fixed reasons as `  reason: <text>` lines.
pub fn vocabulary_text() -> String {
    let mut out = String::from("disclose vocabulary 1\n");
    for entry in vocabulary() {
        out.push_str(&format!(
            "{} {} {}\n",
            entry.code, entry.class, entry.template
        ));
        for reason in &entry.reasons {
            out.push_str(&format!("  reason: {reason}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// One of every variant: the vocabulary and the enum must name the same
    /// codes, so a variant added without a vocabulary row fails here.
    fn one_of_each() -> Vec<Refusal> {
        let name = || "x".to_string();
        vec![
            Refusal::Frozen { name: name() },
            Refusal::Origin { origin: name() },
            Refusal::Name { name: name() },
            Refusal::Reserved { name: name() },
            Refusal::Disclosure { name: name() },
            Refusal::Schema {
                name: name(),
                reason: SchemaReason::NotObject,
            },
            Refusal::Hash {
                name: name(),
                given: name(),
                reason: HashReason::NotHex,
            },
            Refusal::Duplicate {
                name: name(),
                holder: Kind::Tool,
            },
            Refusal::Collision {
                name: name(),
                holder: name(),
            },
            Refusal::Generation,
            Refusal::Query {
                reason: QueryReason::Empty,
            },
            Refusal::Shape {
                reason: ShapeReason::NotObject,
            },
            Refusal::Itself,
            Refusal::Unknown {
                name: name(),
                nearest: vec![],
            },
            Refusal::NotOffered { name: name() },
            Refusal::Misfit {
                name: name(),
                violations: vec![],
                schema: "{}".into(),
            },
            Refusal::GateMode {
                name: name(),
                mode: Mode::Chat,
            },
            Refusal::ChildUnattended { name: name() },
            Refusal::Narrowed {
                name: name(),
                profile: Profile::Scout,
            },
            Refusal::ExpandUnknown { name: name() },
        ]
    }

    #[test]
    fn vocabulary_and_enum_name_the_same_codes_and_classes() {
        let from_enum: BTreeSet<(&str, Class)> = one_of_each()
            .iter()
            .map(|r| (r.code(), r.class()))
            .collect();
        let from_table: BTreeSet<(&str, Class)> =
            vocabulary().iter().map(|v| (v.code, v.class)).collect();
        assert_eq!(from_enum, from_table);
        assert_eq!(vocabulary().len(), 20, "SPEC §9 has twenty codes");
    }
}
