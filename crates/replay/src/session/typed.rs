//! The reader's fast path: an op line straight into its [`OpKind`], by
//! serde's derive, without first building the line's own `Value` map and
//! then looking every field up in it (the fields' values that are JSON —
//! `input_schema`, `args` — are still `Value`s).
//!
//! It answers only lines it is sure of and says nothing about the rest: a
//! line it cannot read (not JSON, a key twice at any depth, a mistyped or unknown field,
//! `null` anywhere a string is wanted, a word outside its op's set, the
//! header) gets `None`, and the [`LineReader`](super::LineReader) reads it
//! again, as the one judge of a line, to give the answer or the error with
//! its line and column. So whenever this says `Some`, the reader's answer is
//! the same op; the tests check that on every line shape and corpus line.
//! Which fields an op takes is the op table's (`super::ops`), read here as
//! bit sets computed when the crate is built.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::OpKind;
use super::ops::{OPS, Tag, When};
use crate::json::Strict;
use disclose::Provider;
use disclose::ToolCall;
use disclose::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
use disclose::{Mode, Profile};

/// Every field any op takes but the header's; which of them an op takes is
/// the op table's business ([`SETS`]). A field given as `null` fails the read (an
/// optional field set to `null` is mistyped, not absent: docs/decisions.md).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line<'a> {
    /// The op and the other words that only choose something are borrowed
    /// from the line when they need no unescaping (nearly always), so they
    /// cost no allocation.
    #[serde(borrow)]
    op: Cow<'a, str>,
    #[serde(default, deserialize_with = "given")]
    origin: Option<String>,
    #[serde(default, deserialize_with = "given")]
    name: Option<String>,
    #[serde(default, deserialize_with = "given")]
    description: Option<String>,
    #[serde(default, deserialize_with = "given_json")]
    input_schema: Option<Value>,
    #[serde(default, borrow, deserialize_with = "given_word")]
    effect: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "given_word")]
    approval: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "given")]
    admitted: Option<bool>,
    #[serde(default, deserialize_with = "given")]
    disclosure: Option<String>,
    #[serde(default, deserialize_with = "given")]
    address: Option<String>,
    #[serde(default, deserialize_with = "given")]
    body: Option<String>,
    #[serde(default, deserialize_with = "given")]
    hash: Option<String>,
    #[serde(default, deserialize_with = "given")]
    package: Option<String>,
    #[serde(default, deserialize_with = "given")]
    text: Option<String>,
    #[serde(default, borrow, deserialize_with = "given_word")]
    mode: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "given_word")]
    profile: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "given_word")]
    provider: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "given")]
    id: Option<String>,
    #[serde(default, deserialize_with = "given_json")]
    args: Option<Value>,
}

/// A field that is present is `Some`, whatever JSON it holds (`null` too,
/// where the type is `Value`); serde's own `Option` would read `null` as
/// absent.
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// [`given`] for a JSON value, read strictly: a key twice anywhere in it
/// fails the read (and the reader reports it), as everywhere else.
fn given_json<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Strict::deserialize(d).map(|Strict(value)| Some(value))
}

/// [`given`] for a word, borrowed where the line allows.
fn given_word<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct Word;
    impl<'de> Visitor<'de> for Word {
        type Value = Cow<'de, str>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }

        fn visit_borrowed_str<E: de::Error>(self, word: &'de str) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(word))
        }

        fn visit_str<E: de::Error>(self, word: &str) -> Result<Self::Value, E> {
            Ok(Cow::Owned(word.to_string()))
        }
    }
    d.deserialize_str(Word).map(Some)
}

/// The fields of [`Line`] after `op`; in a field set, bit `i` is
/// `FIELD_NAMES[i]`.
const FIELD_NAMES: [&str; 18] = [
    "origin",
    "name",
    "description",
    "input_schema",
    "effect",
    "approval",
    "admitted",
    "disclosure",
    "address",
    "body",
    "hash",
    "package",
    "text",
    "mode",
    "profile",
    "provider",
    "id",
    "args",
];

/// The bit of field `name` (a name of no field fails the build).
const fn bit(name: &str) -> u32 {
    let mut i = 0;
    while i < FIELD_NAMES.len() {
        let (a, b) = (name.as_bytes(), FIELD_NAMES[i].as_bytes());
        let mut same = a.len() == b.len();
        let mut j = 0;
        while same && j < a.len() {
            same = a[j] == b[j];
            j += 1;
        }
        if same {
            return 1 << i;
        }
        i += 1;
    }
    panic!("a session field that `Line` does not read");
}

/// The field set of `names`.
const fn set(names: &[&str]) -> u32 {
    let mut set = 0;
    let mut i = 0;
    while i < names.len() {
        set |= bit(names[i]);
        i += 1;
    }
    set
}

/// Each op's (required, optional) field sets, by its place in the op
/// table: the rows the reader checks, as bits, computed when the crate is
/// built. The header's are empty: its fields are not a [`Line`]'s, and
/// this path never reads it.
const SETS: [(u32, u32); OPS.len()] = {
    let mut sets = [(0, 0); OPS.len()];
    let mut i = 0;
    while i < OPS.len() {
        if !matches!(OPS[i].when, When::Header) {
            sets[i] = (set(OPS[i].required), set(OPS[i].optional));
        }
        i += 1;
    }
    sets
};

impl Line<'_> {
    fn fields(&self) -> u32 {
        [
            (self.origin.is_some(), const { bit("origin") }),
            (self.name.is_some(), const { bit("name") }),
            (self.description.is_some(), const { bit("description") }),
            (self.input_schema.is_some(), const { bit("input_schema") }),
            (self.effect.is_some(), const { bit("effect") }),
            (self.approval.is_some(), const { bit("approval") }),
            (self.admitted.is_some(), const { bit("admitted") }),
            (self.disclosure.is_some(), const { bit("disclosure") }),
            (self.address.is_some(), const { bit("address") }),
            (self.body.is_some(), const { bit("body") }),
            (self.hash.is_some(), const { bit("hash") }),
            (self.package.is_some(), const { bit("package") }),
            (self.text.is_some(), const { bit("text") }),
            (self.mode.is_some(), const { bit("mode") }),
            (self.profile.is_some(), const { bit("profile") }),
            (self.provider.is_some(), const { bit("provider") }),
            (self.id.is_some(), const { bit("id") }),
            (self.args.is_some(), const { bit("args") }),
        ]
        .into_iter()
        .filter(|(given, _)| *given)
        .fold(0, |fields, (_, bit)| fields | bit)
    }
}

/// The op of a line after the header, and where it may stand, when the
/// fast path is sure of it.
pub(super) fn op_kind(raw: &str) -> Option<(When, OpKind)> {
    let line: Line = serde_json::from_str(raw).ok()?;
    let (row, &(required, optional)) =
        (OPS.iter().zip(&SETS)).find(|(row, _)| row.name == line.op)?;
    let fields = line.fields();
    if fields & required != required || fields & !(required | optional) != 0 {
        return None;
    }
    // Every required field is present, so the defaults below are never
    // taken.
    let Line {
        origin,
        name,
        description,
        input_schema,
        effect,
        approval,
        admitted,
        disclosure,
        address,
        body,
        hash,
        package,
        text,
        mode,
        profile,
        provider,
        id,
        args,
        ..
    } = line;
    let mode = mode.map(|m| Mode::parse(&m));
    let kind = match row.tag {
        Tag::Session => return None,
        Tag::Tool => OpKind::Tool {
            decl: ToolDecl {
                origin: origin.unwrap_or_default(),
                name: name.unwrap_or_default(),
                description: description.unwrap_or_default(),
                input_schema: input_schema.unwrap_or_default().into(),
                effect: Effect::from_declared(effect.as_deref()),
                approval: Approval::from_declared(approval.as_deref()),
            },
            admitted: admitted.unwrap_or(true),
        },
        Tag::Skill => OpKind::Skill(ShelfSkill {
            name: name.unwrap_or_default(),
            disclosure: disclosure.unwrap_or_default(),
            address: address.unwrap_or_default(),
            hash,
            package,
        }),
        Tag::CarriedSkill => OpKind::CarriedSkill(CarriedSkill {
            name: name.unwrap_or_default(),
            disclosure: disclosure.unwrap_or_default(),
            body: body.unwrap_or_default(),
            hash,
            package,
        }),
        Tag::Dev => OpKind::Dev {
            text: text.unwrap_or_default(),
        },
        Tag::Start => OpKind::Start {
            mode: mode.flatten()?,
            profile: match profile {
                None => None,
                Some(word) => Some(Profile::parse(&word)?),
            },
        },
        Tag::Render => OpKind::Render,
        Tag::ToolDefs => OpKind::ToolDefs {
            provider: match provider {
                None => Provider::default(),
                Some(word) => Provider::parse(&word)?,
            },
        },
        Tag::Describe => OpKind::Describe {
            name: name.unwrap_or_default(),
        },
        Tag::Call => OpKind::Call(ToolCall {
            id: id.unwrap_or_default(),
            name: name.unwrap_or_default(),
            args: args.unwrap_or_default(),
        }),
        Tag::SwitchMode => OpKind::SwitchMode {
            mode: mode.flatten()?,
        },
        Tag::Expand => OpKind::Expand {
            name: name.unwrap_or_default(),
        },
        Tag::Pins => OpKind::Pins,
        Tag::Digests => OpKind::Digests,
    };
    Some((row.when, kind))
}
