//! The sealed refusal vocabulary (SPEC §9).
//!
//! A refusal is a reading, not a failure: every door of the catalog answers
//! `Ok` or exactly one [`Refusal`]. There is one variant per code, each with a
//! fixed [`Class`] and a `Display` that is the exact message of the spec's
//! table. Reason texts are fixed strings of this module, never a dependency's
//! error text. [`vocabulary`] lists every code, class, template and reason, so
//! `disclose vocab` (and its golden) makes any rewording a reviewed change.
//!
//! The vocabulary is complete by construction: [`Refusal::which`] maps each
//! variant to its [`Code`] through an exhaustive `match`, and everything the
//! vocabulary says about a code (class, template, reasons, and refusals built
//! with placeholder values) is an exhaustive `match` on [`Code`], whose
//! [`Code::ALL`] the vocabulary walks. A new variant does not compile until
//! it is listed; the tests check that each template is what `Display` prints
//! for the placeholders.

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

/// Declares a closed set of fixed texts (codes, reasons), each listed in the
/// vocabulary.
macro_rules! fixed_texts {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $text:literal,)+ }) => {
        $(#[$doc])*
        ///
        /// `#[non_exhaustive]`: a later contract version may add one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every one, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// Its fixed text.
            pub fn text(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }
    };
}

fixed_texts! {
    /// Why an input schema was refused (`admit.schema`).
    SchemaReason {
        /// The schema is an array, string, number, boolean or null.
        NotObject => "it is not a JSON object",
        /// The schema breaks the draft 2020-12 meta-schema.
        MetaSchema => "it breaks the draft 2020-12 meta-schema",
    }
}

fixed_texts! {
    /// Why a declared skill hash was refused (`admit.hash`).
    HashReason {
        /// A carried skill's declared hash is not BLAKE3 of its body.
        BodyMismatch => "the body hashes to a different BLAKE3",
        /// A shelf skill's declared hash is not 64 lowercase hex digits.
        NotHex => "it is not 64 lowercase hex digits",
    }
}

fixed_texts! {
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

fixed_texts! {
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

fixed_texts! {
    /// A refusal's code (SPEC §9) without its details: one per variant of
    /// [`Refusal`], in the order of the spec's table.
    Code {
        /// `admit.frozen`.
        Frozen => "admit.frozen",
        /// `admit.origin`.
        Origin => "admit.origin",
        /// `admit.name`.
        Name => "admit.name",
        /// `admit.reserved`.
        Reserved => "admit.reserved",
        /// `admit.disclosure`.
        Disclosure => "admit.disclosure",
        /// `admit.schema`.
        Schema => "admit.schema",
        /// `admit.hash`.
        Hash => "admit.hash",
        /// `admit.duplicate`.
        Duplicate => "admit.duplicate",
        /// `admit.collision`.
        Collision => "admit.collision",
        /// `admit.generation`.
        Generation => "admit.generation",
        /// `describe.query`.
        Query => "describe.query",
        /// `call.shape`.
        Shape => "call.shape",
        /// `call.itself`.
        Itself => "call.itself",
        /// `call.unknown`.
        Unknown => "call.unknown",
        /// `call.not_offered`.
        NotOffered => "call.not_offered",
        /// `call.misfit`.
        Misfit => "call.misfit",
        /// `gate.mode`.
        GateMode => "gate.mode",
        /// `approval.child_unattended`.
        ChildUnattended => "approval.child_unattended",
        /// `profile.narrowed`.
        Narrowed => "profile.narrowed",
        /// `expand.unknown`.
        ExpandUnknown => "expand.unknown",
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
    /// Which code this is. The `match` is exhaustive, so a new variant
    /// does not compile until it has a [`Code`], and through it a class, a
    /// template and placeholders in the vocabulary.
    pub fn which(&self) -> Code {
        match self {
            Refusal::Frozen { .. } => Code::Frozen,
            Refusal::Origin { .. } => Code::Origin,
            Refusal::Name { .. } => Code::Name,
            Refusal::Reserved { .. } => Code::Reserved,
            Refusal::Disclosure { .. } => Code::Disclosure,
            Refusal::Schema { .. } => Code::Schema,
            Refusal::Hash { .. } => Code::Hash,
            Refusal::Duplicate { .. } => Code::Duplicate,
            Refusal::Collision { .. } => Code::Collision,
            Refusal::Generation => Code::Generation,
            Refusal::Query { .. } => Code::Query,
            Refusal::Shape { .. } => Code::Shape,
            Refusal::Itself => Code::Itself,
            Refusal::Unknown { .. } => Code::Unknown,
            Refusal::NotOffered { .. } => Code::NotOffered,
            Refusal::Misfit { .. } => Code::Misfit,
            Refusal::GateMode { .. } => Code::GateMode,
            Refusal::ChildUnattended { .. } => Code::ChildUnattended,
            Refusal::Narrowed { .. } => Code::Narrowed,
            Refusal::ExpandUnknown { .. } => Code::ExpandUnknown,
        }
    }

    /// The code, e.g. `admit.frozen`.
    pub fn code(&self) -> &'static str {
        self.which().text()
    }

    /// The class of the code.
    pub fn class(&self) -> Class {
        self.which().class()
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
#[non_exhaustive]
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

impl Code {
    /// The class of the code (SPEC §9's table).
    pub fn class(self) -> Class {
        match self {
            Code::GateMode | Code::ChildUnattended | Code::Narrowed => Class::GateDenied,
            Code::Frozen
            | Code::Origin
            | Code::Name
            | Code::Reserved
            | Code::Disclosure
            | Code::Schema
            | Code::Hash
            | Code::Duplicate
            | Code::Collision
            | Code::Generation
            | Code::Query
            | Code::Shape
            | Code::Itself
            | Code::Unknown
            | Code::NotOffered
            | Code::Misfit
            | Code::ExpandUnknown => Class::InvalidArgs,
        }
    }

    /// The message template, placeholders in `<…>` as in SPEC §9: `<a|b>`
    /// is one of the words, `<reason>` (and `call.misfit`'s violations) one
    /// of [`Code::reasons`], and a closing `(; …)` the form that replaces
    /// the last `; …` clause.
    pub fn template(self) -> &'static str {
        match self {
            Code::Frozen => "the run has started; \"<name>\" was not admitted",
            Code::Origin => {
                "origin \"<origin>\" is not lowercase letters, digits and inner hyphens"
            }
            Code::Name => "\"<name>\" is not 1 to 64 of A-Z a-z 0-9 _ -",
            Code::Reserved => "\"<name>\" is reserved for the catalog's own door",
            Code::Disclosure => "\"<name>\" has an empty disclosure",
            Code::Schema => {
                "\"<name>\" has an input schema that is not a valid JSON Schema object: <reason>"
            }
            Code::Hash => "\"<name>\" declares hash <given> but <reason>",
            Code::Duplicate => "\"<name>\" is already admitted as a <tool|skill>",
            Code::Collision => "\"<name>\" collides with \"<holder>\" after provider normalization",
            Code::Generation => "the catalog generation would overflow",
            Code::Query => "the query <reason>",
            Code::Shape => "call takes {\"name\": string, \"args\": object}: <reason>",
            Code::Itself => "call cannot call itself",
            Code::Unknown => {
                "no admitted tool is named \"<name>\"; nearest: <a>, <b>, <c> (; nothing is admitted)"
            }
            Code::NotOffered => "\"<name>\" is dormant; run it through call",
            Code::Misfit => {
                "args for \"<name>\" do not fit its input schema: <violations joined by \"; \">"
            }
            Code::GateMode => "\"<name>\" does not run in <mode> mode",
            Code::ChildUnattended => {
                "\"<name>\" needs a human's approval, and no human is attached to this child"
            }
            Code::Narrowed => "\"<name>\" is not offered to a <profile> child",
            Code::ExpandUnknown => "nothing admitted is named \"<name>\"",
        }
    }

    /// The fixed texts that may stand for the template's `<reason>` (for
    /// `call.misfit`, each violation's template); empty when none.
    pub fn reasons(self) -> Vec<&'static str> {
        fn texts<R: Copy>(all: &[R], text: fn(R) -> &'static str) -> Vec<&'static str> {
            all.iter().map(|r| text(*r)).collect()
        }
        match self {
            Code::Schema => texts(SchemaReason::ALL, SchemaReason::text),
            Code::Hash => texts(HashReason::ALL, HashReason::text),
            Code::Query => texts(QueryReason::ALL, QueryReason::text),
            Code::Shape => texts(ShapeReason::ALL, ShapeReason::text),
            Code::Misfit => crate::fit::VIOLATION_TEMPLATES.to_vec(),
            Code::Frozen
            | Code::Origin
            | Code::Name
            | Code::Reserved
            | Code::Disclosure
            | Code::Duplicate
            | Code::Collision
            | Code::Generation
            | Code::Itself
            | Code::Unknown
            | Code::NotOffered
            | Code::GateMode
            | Code::ChildUnattended
            | Code::Narrowed
            | Code::ExpandUnknown => Vec::new(),
        }
    }

    /// Refusals of this code built with placeholder values (`<name>` for a
    /// name, …): one for each form the template describes — each reason,
    /// each word of a `<a|b>`, each mode or profile, the `(; …)` form — so
    /// that their `Display` is the template with its placeholders filled in
    /// by themselves.
    pub fn placeholders(self) -> Vec<Refusal> {
        let name = || "<name>".to_string();
        match self {
            Code::Frozen => vec![Refusal::Frozen { name: name() }],
            Code::Origin => vec![Refusal::Origin {
                origin: "<origin>".to_string(),
            }],
            Code::Name => vec![Refusal::Name { name: name() }],
            Code::Reserved => vec![Refusal::Reserved { name: name() }],
            Code::Disclosure => vec![Refusal::Disclosure { name: name() }],
            Code::Schema => (SchemaReason::ALL.iter())
                .map(|&reason| Refusal::Schema {
                    name: name(),
                    reason,
                })
                .collect(),
            Code::Hash => (HashReason::ALL.iter())
                .map(|&reason| Refusal::Hash {
                    name: name(),
                    given: "<given>".to_string(),
                    reason,
                })
                .collect(),
            Code::Duplicate => [Kind::Tool, Kind::Skill]
                .map(|holder| Refusal::Duplicate {
                    name: name(),
                    holder,
                })
                .to_vec(),
            Code::Collision => vec![Refusal::Collision {
                name: name(),
                holder: "<holder>".to_string(),
            }],
            Code::Generation => vec![Refusal::Generation],
            Code::Query => (QueryReason::ALL.iter())
                .map(|&reason| Refusal::Query { reason })
                .collect(),
            Code::Shape => (ShapeReason::ALL.iter())
                .map(|&reason| Refusal::Shape { reason })
                .collect(),
            Code::Itself => vec![Refusal::Itself],
            Code::Unknown => [vec!["<a>", "<b>", "<c>"], vec![]]
                .map(|nearest| Refusal::Unknown {
                    name: name(),
                    nearest: nearest.into_iter().map(str::to_string).collect(),
                })
                .to_vec(),
            Code::NotOffered => vec![Refusal::NotOffered { name: name() }],
            Code::Misfit => violation_placeholders()
                .into_iter()
                .map(|violation| Refusal::Misfit {
                    name: name(),
                    violations: vec![violation],
                    schema: "<schema>".to_string(),
                })
                .collect(),
            Code::GateMode => Mode::ALL
                .map(|mode| Refusal::GateMode { name: name(), mode })
                .to_vec(),
            Code::ChildUnattended => vec![Refusal::ChildUnattended { name: name() }],
            Code::Narrowed => Profile::ALL
                .map(|profile| Refusal::Narrowed {
                    name: name(),
                    profile,
                })
                .to_vec(),
            Code::ExpandUnknown => vec![Refusal::ExpandUnknown { name: name() }],
        }
    }
}

/// One violation of each kind with placeholder values, in the order of
/// [`crate::fit::VIOLATION_TEMPLATES`] (the vocabulary tests check each
/// against its template).
fn violation_placeholders() -> Vec<Violation> {
    let key = || "<key>".to_string();
    vec![
        Violation::NotObject { found: "<type>" },
        Violation::Missing { key: key() },
        // Joined by `|`, these three print `<t1|t2|…>`.
        Violation::Type {
            key: key(),
            found: "<type>",
            expected: vec!["<t1".into(), "t2".into(), "…>".into()],
        },
        Violation::Unexpected { key: key() },
    ]
}

/// Every code of the sealed vocabulary, in the order of SPEC §9's table.
pub fn vocabulary() -> Vec<VocabEntry> {
    Code::ALL
        .iter()
        .map(|&code| VocabEntry {
            code: code.text(),
            class: code.class(),
            template: code.template(),
            reasons: code.reasons(),
        })
        .collect()
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

    #[test]
    fn the_vocabulary_lists_every_code_once_in_the_spec_order() {
        let codes: Vec<&str> = vocabulary().iter().map(|v| v.code).collect();
        assert_eq!(codes.len(), 20, "SPEC §9 has twenty codes");
        assert_eq!(codes.iter().collect::<BTreeSet<_>>().len(), 20);
        assert_eq!(codes.first(), Some(&"admit.frozen"));
        assert_eq!(codes.last(), Some(&"expand.unknown"));
        let gate: Vec<&str> = (vocabulary().into_iter())
            .filter(|v| v.class == Class::GateDenied)
            .map(|v| v.code)
            .collect();
        assert_eq!(
            gate,
            ["gate.mode", "approval.child_unattended", "profile.narrowed"]
        );
    }

    #[test]
    fn every_placeholder_is_a_refusal_of_its_code() {
        for &code in Code::ALL {
            let placeholders = code.placeholders();
            assert!(!placeholders.is_empty(), "{code:?}");
            for refusal in placeholders {
                assert_eq!(refusal.which(), code);
                assert_eq!(refusal.code(), code.text());
                assert_eq!(refusal.class(), code.class());
            }
        }
    }

    /// The forms a template describes, as [`Code::template`] documents its
    /// notation.
    fn forms(template: &str, reasons: &[&str]) -> BTreeSet<String> {
        let mut forms = vec![template.to_string()];
        // A closing ` (; …)`: the form whose last `; …` clause it replaces.
        if let Some((head, alternative)) =
            template.strip_suffix(')').and_then(|t| t.rsplit_once(" ("))
        {
            let cut = head.rfind("; ").expect("a clause to replace");
            forms = vec![head.to_string(), format!("{}{alternative}", &head[..cut])];
        }
        // `<a|b>`: each word (before reasons are filled in: a violation's
        // `<t1|t2|…>` is a reason's own placeholder).
        forms = forms
            .into_iter()
            .flat_map(|form| {
                let slot = (form.match_indices('<'))
                    .filter_map(|(at, _)| Some((at, at + form[at..].find('>')?)))
                    .find(|&(at, end)| form[at..end].contains('|'));
                match slot {
                    None => vec![form],
                    Some((at, end)) => form[at + 1..end]
                        .split('|')
                        .map(|word| format!("{}{word}{}", &form[..at], &form[end + 1..]))
                        .collect(),
                }
            })
            .collect();
        let fill = |forms: Vec<String>, slot: &str, words: &[&str]| -> Vec<String> {
            forms
                .into_iter()
                .flat_map(|form| {
                    if form.contains(slot) {
                        words.iter().map(|w| form.replace(slot, w)).collect()
                    } else {
                        vec![form]
                    }
                })
                .collect()
        };
        forms = fill(forms, "<reason>", reasons);
        forms = fill(forms, "<violations joined by \"; \">", reasons);
        forms = fill(forms, "<mode>", &Mode::ALL.map(Mode::as_str));
        forms = fill(forms, "<profile>", &Profile::ALL.map(Profile::as_str));
        forms.into_iter().collect()
    }

    /// The vocabulary by construction (docs/testing.md): the templates `disclose vocab` prints describe exactly the
    /// messages `Display` writes, form for form.
    #[test]
    fn each_template_is_what_display_prints_for_its_placeholders() {
        for entry in vocabulary() {
            let code = Code::ALL
                .iter()
                .find(|c| c.text() == entry.code)
                .expect("a code");
            let printed: BTreeSet<String> = code
                .placeholders()
                .iter()
                .map(ToString::to_string)
                .collect();
            assert_eq!(
                printed,
                forms(entry.template, &entry.reasons),
                "{}",
                entry.code
            );
        }
    }

    #[test]
    fn the_notation_of_templates_expands_as_documented() {
        let unknown = forms(Code::Unknown.template(), &[]);
        assert_eq!(
            unknown,
            BTreeSet::from([
                "no admitted tool is named \"<name>\"; nearest: <a>, <b>, <c>".to_string(),
                "no admitted tool is named \"<name>\"; nothing is admitted".to_string(),
            ])
        );
        assert_eq!(forms(Code::Duplicate.template(), &[]).len(), 2);
        assert_eq!(
            forms(Code::Query.template(), &Code::Query.reasons()).len(),
            3
        );
        let misfit = forms(Code::Misfit.template(), &Code::Misfit.reasons());
        assert!(misfit.contains(
            "args for \"<name>\" do not fit its input schema: \"<key>\" is <type>, expected <t1|t2|…>"
        ));
    }

    #[test]
    fn a_refusal_prints_one_line_and_misfit_adds_its_schema() {
        for &code in Code::ALL {
            for refusal in code.placeholders() {
                let lines = refusal.to_lines();
                let expected = if code == Code::Misfit { 2 } else { 1 };
                assert_eq!(lines.lines().count(), expected, "{lines}");
                assert!(lines.starts_with(&format!(
                    "refused {} {}: {refusal}\n",
                    code.class(),
                    code.text()
                )));
            }
        }
    }
}
