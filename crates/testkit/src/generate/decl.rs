//! Declarations: tools, shelf and carried skills, and bulk declarations
//! large enough to overflow the index.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

use super::schema::{object_schema, schema};
use super::text::{boundary_text, description, long_text, origin, raw_name, sentence, text};
use disclose::Catalog;
use disclose::Refusal;
use disclose::internals::naming::mint;
use disclose::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};

/// The four effect classes' words, and words §1 maps to `irreversible`.
pub(super) const EFFECT_WORDS: &[&str] =
    &["read", "idempotent-write", "reversible", "irreversible"];
pub(super) const UNKNOWN_EFFECTS: &[&str] = &["Read", "write", ""];
/// The two approval words, and words §1 maps to `required`.
pub(super) const APPROVAL_WORDS: &[&str] = &["required", "never"];
pub(super) const UNKNOWN_APPROVALS: &[&str] = &["Never", "sometimes"];
/// Where a shelf skill's card lives.
pub(super) const ADDRESSES: &[&str] = &["skills/a.md", "", "é/中.md"];
/// A bulk declaration's origins and name stems.
pub(super) const BULK_ORIGINS: &[&str] = &["host", "github", "a"];
pub(super) const BULK_STEMS: &[&str] = &["t", "tool_", "Search-"];

/// How an effect class is spelled in a session by spelling `pick`: 0 is
/// the class's own word; `irreversible`, the class absent and unknown words
/// fail closed to, may also be absent or an unknown word (SPEC §1).
pub(super) fn effect_spelling(effect: Effect, pick: u64) -> Option<&'static str> {
    match (effect, pick % 5) {
        (Effect::Irreversible, 1) => None,
        (Effect::Irreversible, n @ 2..=4) => UNKNOWN_EFFECTS.get(n as usize - 2).copied(),
        (effect, _) => Some(effect.as_str()),
    }
}

/// How an approval is spelled by spelling `pick`: 0 is its own word;
/// `required` may also be absent or an unknown word (SPEC §1).
pub(super) fn approval_spelling(approval: Approval, pick: u64) -> Option<&'static str> {
    match (approval, pick % 4) {
        (Approval::Required, 1) => None,
        (Approval::Required, n @ 2..=3) => UNKNOWN_APPROVALS.get(n as usize - 2).copied(),
        (approval, _) => Some(approval.as_str()),
    }
}

/// A declared effect word: the four classes, unknown words, or absent.
fn effect() -> BoxedStrategy<Option<String>> {
    prop_oneof![
        2 => Just(None),
        4 => select(EFFECT_WORDS)
            .prop_map(|w| Some(w.to_string())),
        1 => select(UNKNOWN_EFFECTS).prop_map(|w| Some(w.to_string())),
    ]
    .boxed()
}

/// A declared approval word: `required`, `never`, unknown words, or absent.
fn approval() -> BoxedStrategy<Option<String>> {
    prop_oneof![
        2 => Just(None),
        4 => select(APPROVAL_WORDS).prop_map(|w| Some(w.to_string())),
        1 => select(UNKNOWN_APPROVALS).prop_map(|w| Some(w.to_string())),
    ]
    .boxed()
}

/// A tool declaration (origin, raw name, description, schema, effect and
/// approval all adversarial).
pub fn tool_decl() -> BoxedStrategy<ToolDecl> {
    (
        origin(),
        raw_name(),
        description(),
        schema(),
        effect(),
        approval(),
    )
        .prop_map(
            |(origin, name, description, input_schema, effect, approval)| ToolDecl {
                origin,
                name,
                description,
                input_schema: input_schema.into(),
                effect: Effect::from_declared(effect.as_deref()),
                approval: Approval::from_declared(approval.as_deref()),
            },
        )
        .boxed()
}

/// How a declared skill hash relates to the truth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HashKind {
    Absent,
    Right,
    Wrong,
    Upper,
    NonHex,
    Short,
}

fn hash_kind() -> BoxedStrategy<HashKind> {
    prop_oneof![
        3 => Just(HashKind::Absent),
        3 => Just(HashKind::Right),
        1 => Just(HashKind::Wrong),
        1 => Just(HashKind::Upper),
        1 => Just(HashKind::NonHex),
        1 => Just(HashKind::Short),
    ]
    .boxed()
}

/// The hash text of `kind` for content `of`.
fn hash_text(kind: HashKind, of: &str) -> Option<String> {
    let right = blake3::hash(of.as_bytes()).to_hex().to_string();
    match kind {
        HashKind::Absent => None,
        HashKind::Right => Some(right),
        HashKind::Wrong => Some(
            blake3::hash(format!("{of}!").as_bytes())
                .to_hex()
                .to_string(),
        ),
        HashKind::Upper => Some(right.to_ascii_uppercase()),
        HashKind::NonHex => Some("not-a-hash".to_string()),
        HashKind::Short => Some(right.get(..63).unwrap_or_default().to_string()),
    }
}

fn package() -> BoxedStrategy<Option<String>> {
    prop_oneof![3 => Just(None), 1 => Just(Some("pkg/skills".to_string()))].boxed()
}

/// A shelf skill; its hash is right-shaped, uppercase, short, not hex, or
/// absent.
pub fn shelf_skill() -> BoxedStrategy<ShelfSkill> {
    (
        raw_name(),
        description(),
        select(ADDRESSES),
        hash_kind(),
        package(),
    )
        .prop_map(|(name, disclosure, address, kind, package)| ShelfSkill {
            hash: hash_text(kind, address),
            name,
            disclosure,
            address: address.to_string(),
            package,
        })
        .boxed()
}

/// A carried skill; its declared hash is right (BLAKE3 of the body), wrong,
/// not hex, or absent.
pub fn carried_skill() -> BoxedStrategy<CarriedSkill> {
    (raw_name(), description(), text(), hash_kind(), package())
        .prop_map(|(name, disclosure, body, kind, package)| CarriedSkill {
            hash: hash_text(kind, &body),
            name,
            disclosure,
            body,
            package,
        })
        .boxed()
}

/// One generated declaration; [`Decl::expand`] gives the session ops it
/// stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    /// A tool; `admitted` is written only when `Some`.
    Tool {
        /// The declaration.
        decl: ToolDecl,
        /// The `admitted` field, if written.
        admitted: Option<bool>,
    },
    /// A shelf skill.
    Shelf(ShelfSkill),
    /// A carried skill.
    Carried(CarriedSkill),
    /// `count` tools `<stem><i>` sharing an origin, a description and a
    /// schema (read, never approved): enough of them overflow the index.
    Bulk {
        /// The shared origin.
        origin: String,
        /// The name stem.
        stem: String,
        /// How many tools.
        count: usize,
        /// The shared description.
        description: String,
        /// The shared input schema.
        schema: Value,
    },
}

/// One declaration op as the session writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Declared {
    /// A `tool` op.
    Tool {
        /// The declaration.
        decl: ToolDecl,
        /// The `admitted` field, if written.
        admitted: Option<bool>,
    },
    /// A `skill` op.
    Shelf(ShelfSkill),
    /// A `carried_skill` op.
    Carried(CarriedSkill),
}

impl Decl {
    /// The declaration ops this stands for, in order.
    pub fn expand(&self) -> Vec<Declared> {
        match self {
            Decl::Tool { decl, admitted } => vec![Declared::Tool {
                decl: decl.clone(),
                admitted: *admitted,
            }],
            Decl::Shelf(skill) => vec![Declared::Shelf(skill.clone())],
            Decl::Carried(skill) => vec![Declared::Carried(skill.clone())],
            Decl::Bulk {
                origin,
                stem,
                count,
                description,
                schema,
            } => (0..*count)
                .map(|i| Declared::Tool {
                    decl: ToolDecl {
                        origin: origin.clone(),
                        name: format!("{stem}{i}"),
                        description: description.clone(),
                        input_schema: schema.clone().into(),
                        effect: Effect::Read,
                        approval: Approval::Never,
                    },
                    admitted: None,
                })
                .collect(),
        }
    }

    /// The name a request refers to this declaration by: the minted name of
    /// its (first) tool, or the skill's name.
    pub fn name(&self) -> String {
        match self {
            Decl::Tool { decl, .. } => mint(&decl.origin, &decl.name),
            Decl::Shelf(skill) => skill.name.clone(),
            Decl::Carried(skill) => skill.name.clone(),
            Decl::Bulk { origin, stem, .. } => mint(origin, &format!("{stem}0")),
        }
    }

    /// Its description or disclosure, to shrink.
    pub(crate) fn text_mut(&mut self) -> Option<&mut String> {
        match self {
            Decl::Tool { decl, .. } => Some(&mut decl.description),
            Decl::Shelf(skill) => Some(&mut skill.disclosure),
            Decl::Carried(skill) => Some(&mut skill.disclosure),
            Decl::Bulk { description, .. } => Some(description),
        }
    }

    /// The input schema of its tool(s); skills have none.
    pub fn schema(&self) -> Option<&Value> {
        match self {
            Decl::Tool { decl, .. } => Some(&decl.input_schema),
            Decl::Bulk { schema, .. } => Some(schema),
            Decl::Shelf(_) | Decl::Carried(_) => None,
        }
    }
}

impl Declared {
    /// Whether the building admitted it (`admitted: false` never reaches the
    /// catalog).
    pub fn is_admitted(&self) -> bool {
        !matches!(
            self,
            Declared::Tool {
                admitted: Some(false),
                ..
            }
        )
    }

    /// The name it is admitted under: the minted tool name or the skill name.
    pub fn name(&self) -> String {
        match self {
            Declared::Tool { decl, .. } => mint(&decl.origin, &decl.name),
            Declared::Shelf(skill) => skill.name.clone(),
            Declared::Carried(skill) => skill.name.clone(),
        }
    }

    /// Admits it into `catalog` through its door; `None` when the building
    /// did not admit it.
    pub fn admit(&self, catalog: &mut Catalog) -> Option<Result<String, Refusal>> {
        if !self.is_admitted() {
            return None;
        }
        Some(match self {
            Declared::Tool { decl, .. } => catalog.admit_tool(decl).map(|t| t.name().to_string()),
            Declared::Shelf(skill) => catalog.admit_skill(skill).map(|s| s.name().to_string()),
            Declared::Carried(skill) => catalog
                .admit_carried_skill(skill)
                .map(|s| s.name().to_string()),
        })
    }

    /// The session op line (SPEC §11).
    pub fn op(&self) -> Value {
        let mut op = Map::new();
        match self {
            Declared::Tool { decl, admitted } => {
                op.insert("op".into(), json!("tool"));
                op.insert("origin".into(), json!(decl.origin));
                op.insert("name".into(), json!(decl.name));
                op.insert("description".into(), json!(decl.description));
                op.insert("input_schema".into(), (*decl.input_schema).clone());
                op.insert("effect".into(), json!(decl.effect.as_str()));
                op.insert("approval".into(), json!(decl.approval.as_str()));
                if let Some(admitted) = admitted {
                    op.insert("admitted".into(), json!(admitted));
                }
            }
            Declared::Shelf(skill) => {
                op.insert("op".into(), json!("skill"));
                op.insert("name".into(), json!(skill.name));
                op.insert("disclosure".into(), json!(skill.disclosure));
                op.insert("address".into(), json!(skill.address));
                optional(&mut op, "hash", &skill.hash);
                optional(&mut op, "package", &skill.package);
            }
            Declared::Carried(skill) => {
                op.insert("op".into(), json!("carried_skill"));
                op.insert("name".into(), json!(skill.name));
                op.insert("disclosure".into(), json!(skill.disclosure));
                op.insert("body".into(), json!(skill.body));
                optional(&mut op, "hash", &skill.hash);
                optional(&mut op, "package", &skill.package);
            }
        }
        Value::Object(op)
    }
}

fn optional(op: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        op.insert(key.into(), json!(value));
    }
}

/// A declaration of any kind, weighted towards tools; one in fifteen is a
/// bulk declaration large enough to end the index in `+N more`.
pub fn decl() -> BoxedStrategy<Decl> {
    let admitted = prop_oneof![
        3 => Just(None),
        1 => Just(Some(true)),
        1 => Just(Some(false)),
    ];
    let bulk = (
        select(BULK_ORIGINS),
        select(BULK_STEMS),
        8usize..40,
        prop_oneof![sentence(), boundary_text(), long_text()],
        object_schema(),
    )
        .prop_map(|(origin, stem, count, description, schema)| Decl::Bulk {
            origin: origin.to_string(),
            stem: stem.to_string(),
            count,
            description,
            schema,
        });
    prop_oneof![
        10 => (tool_decl(), admitted).prop_map(|(decl, admitted)| Decl::Tool { decl, admitted }),
        2 => shelf_skill().prop_map(Decl::Shelf),
        2 => carried_skill().prop_map(Decl::Carried),
        1 => bulk,
    ]
    .boxed()
}

/// A catalog's worth of declarations.
pub fn catalog_decls() -> BoxedStrategy<Vec<Decl>> {
    vec(decl(), 0..10).boxed()
}
