//! Generators of adversarial inputs: proptest [`Strategy`]s shared by the
//! property tests (`tests/properties.rs`) and `disclose fuzz`.
//!
//! Every strategy draws only from the runner's RNG, so a seed fixes the
//! value; and every one is built from proptest combinators, so a failing
//! value shrinks. Whole sessions are generated as a [`SessionPlan`] — typed,
//! so shrinking removes declarations and requests — and written as the JSONL
//! text of SPEC §11 by [`SessionPlan::to_text`], with at most one deliberate
//! [`Fault`] whose line the plan knows.
//!
//! What it aims at: multibyte, combining and control characters, blank and
//! very long text, hints at the 77/80/81-byte boundaries, names that collide
//! only after normalization or sit at 64/65 bytes, invalid origins and
//! schemas, args that fit or miss, and catalogs large enough to end the
//! index in `+N more`. It checks nothing: that is [`crate::fuzzing`]'s and
//! the tests' business.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

use crate::catalog::Catalog;
use crate::declaration::{CarriedSkill, ShelfSkill, ToolDecl};
use crate::mode::{Mode, Profile};
use crate::naming::{mint, name_is_valid, origin_is_valid};
use crate::refusal::Refusal;

/// Pieces adversarial text is glued from.
const PIECES: &[&str] = &[
    "a", "read", "file", "issue", "search", " ", ". ", ".", "Search", "é", "中", "🦀", "e\u{301}",
    "\u{0}", "\t", "\n", "\r", "\u{7f}", "\u{a0}", "\u{2028}", "-", "_", "\"", "\\", "…", "0",
];

/// Words for sentences and keyword queries: some match names, some do not.
const WORDS: &[&str] = &[
    "read", "file", "search", "issue", "create", "github", "list", "the", "a", "of", "Résumé",
    "中文", "delete", "plan", "send", "mail", "ping", "status", "Search", "x",
];

/// Text that trims to nothing (Unicode `White_Space`, as `str::trim` sees it).
const BLANK: &[&str] = &["", " ", "\t\n", "\u{a0}\u{2028}", "\r\n", "\u{3000}"];

/// Raw-name stems; the variants differ only in case or `-`/`_`.
const STEMS: &[&str] = &[
    "search",
    "search_a",
    "read",
    "plan",
    "create_issue",
    "ping",
    "x",
];

/// Names the catalog treats specially: the resident core and the doors;
/// `edit` and `exec` twice, as the only ones the mode gate refuses.
const SPECIAL_NAMES: &[&str] = &[
    "read", "search", "status", "edit", "exec", "edit", "exec", "describe", "call",
];

/// Names that never match `^[A-Za-z0-9_-]{1,64}$`.
const INVALID_NAMES: &[&str] = &["", "a.b", "é", "a b", "a\u{0}", "tool/x", "名前"];

/// Keys shared by schemas and args, so generated args often name declared
/// properties.
pub const KEYS: &[&str] = &["a", "b", "path", "type", "é", "", "N", "x1"];

/// The JSON Schema type names.
pub const TYPES: &[&str] = &[
    "string", "integer", "number", "boolean", "array", "object", "null",
];

/// Adversarial text: glued pieces, sentences, blank text, text at the hint
/// boundaries, and text hundreds of bytes long.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => vec(select(PIECES), 0..10).prop_map(|pieces| pieces.concat()),
        3 => sentence(),
        1 => select(BLANK).prop_map(str::to_string),
        2 => boundary_text(),
        1 => long_text(),
    ]
    .boxed()
}

/// Words joined by spaces, sometimes followed by a second sentence.
fn sentence() -> impl Strategy<Value = String> {
    (
        vec(select(WORDS), 1..8),
        select(&["", ".", ". More to say.", ".\nSecond line."][..]),
    )
        .prop_map(|(words, end)| format!("{}{end}", words.join(" ")))
}

/// Text whose first sentence is 74–82 ASCII bytes and then perhaps a
/// multibyte or combining character that straddles byte 77, so the hint is
/// kept whole (≤ 80) or cut on a char boundary (SPEC §4).
pub fn boundary_text() -> BoxedStrategy<String> {
    (
        74usize..=82,
        select(&["", "é", "中", "🦀", "e\u{301}", " ", "\u{0}"][..]),
        select(&["", "x", " tail words", ". Next sentence.", "\nline two"][..]),
    )
        .prop_map(|(n, mid, tail)| format!("{}{mid}{tail}", "a".repeat(n)))
        .boxed()
}

/// Hundreds of bytes of words.
pub fn long_text() -> BoxedStrategy<String> {
    vec(select(WORDS), 40..120)
        .prop_map(|words| words.join(" "))
        .boxed()
}

/// Applies a case/separator variant to a stem: `search_a`, `Search_a`,
/// `SEARCH_A`, `search-a`, ...
fn variant(stem: &str, case: u8, dash: bool) -> String {
    let cased = match case {
        1 => {
            let mut chars = stem.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_uppercase().chain(chars).collect()
            })
        }
        2 => stem.to_ascii_uppercase(),
        _ => stem.to_string(),
    };
    if dash { cased.replace('_', "-") } else { cased }
}

/// A raw name: stems and their case/separator variants (to provoke
/// `admit.collision`), the resident names and the doors, names whose minted
/// form is 64 or 65 bytes, invalid names, and arbitrary text.
pub fn raw_name() -> BoxedStrategy<String> {
    prop_oneof![
        10 => (select(STEMS), 0u8..3, any::<bool>())
            .prop_map(|(stem, case, dash)| variant(stem, case, dash)),
        3 => select(SPECIAL_NAMES).prop_map(str::to_string),
        // `github__` is 8 bytes: 56/57 mint to 64/65 bytes.
        1 => (select(&[1usize, 55, 56, 57, 63, 64, 65][..]), select(&["n", "N", "_", "-"][..]))
            .prop_map(|(n, c)| c.repeat(n)),
        1 => select(INVALID_NAMES).prop_map(str::to_string),
        1 => text(),
    ]
    .boxed()
}

/// An origin: mostly `host` and valid server ids, sometimes invalid ones
/// (`a_b`, `UP`, 33 characters, ...) or exactly 32 characters.
pub fn origin() -> BoxedStrategy<String> {
    prop_oneof![
        6 => Just("host".to_string()),
        4 => select(&["github", "alpha", "beta", "a-b", "x9", "a"][..]).prop_map(str::to_string),
        1 => select(&["a_b", "UP", "", "-a", "a-", "é", "a b"][..]).prop_map(str::to_string),
        1 => select(&[32usize, 33][..]).prop_map(|n| "o".repeat(n)),
    ]
    .boxed()
}

/// The schema of one property: a declared type (a string or an array of
/// types), none, deeper constraints `fit` does not check, or a boolean schema.
fn property_schema() -> BoxedStrategy<Value> {
    prop_oneof![
        5 => select(TYPES).prop_map(|t| json!({ "type": t })),
        2 => vec(select(TYPES), 1..4).prop_map(|types| {
            let mut unique: Vec<&str> = Vec::new();
            for t in types {
                if !unique.contains(&t) {
                    unique.push(t);
                }
            }
            json!({ "type": unique })
        }),
        1 => Just(json!({})),
        1 => Just(json!({ "description": "free-form" })),
        1 => select(TYPES).prop_map(|t| json!({
            "type": "object",
            "properties": { "inner": { "type": t } },
            "required": ["inner"],
        })),
        1 => Just(json!({ "type": "string", "minLength": 2 })),
        1 => Just(json!({ "enum": [1, "a"] })),
        1 => select(&[true, false][..]).prop_map(Value::Bool),
    ]
    .boxed()
}

/// A valid top-level object schema: `properties` with declared types,
/// `required`, and `additionalProperties` true, false, absent or a schema;
/// sometimes without `"type": "object"`, sometimes with another keyword.
pub fn object_schema() -> BoxedStrategy<Value> {
    let additional = prop_oneof![
        2 => Just(None),
        1 => Just(Some(json!(true))),
        2 => Just(Some(json!(false))),
        1 => Just(Some(json!({ "type": "string" }))),
    ];
    let extra = prop_oneof![
        6 => Just(None),
        1 => Just(Some(("minProperties", json!(1)))),
        1 => Just(Some(("maxProperties", json!(2)))),
        1 => Just(Some(("dependentRequired", json!({ "a": ["b"] })))),
        1 => Just(Some(("patternProperties", json!({ "^x": { "type": "string" } })))),
    ];
    (
        vec((select(KEYS), property_schema()), 0..4),
        vec(select(KEYS), 0..3),
        additional,
        prop_oneof![4 => Just(true), 1 => Just(false)],
        extra,
    )
        .prop_map(|(properties, required, additional, typed, extra)| {
            let mut schema = Map::new();
            if typed {
                schema.insert("type".into(), json!("object"));
            }
            if !properties.is_empty() {
                let properties: Map<String, Value> = properties
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect();
                schema.insert("properties".into(), Value::Object(properties));
            }
            let mut unique: Vec<&str> = Vec::new();
            for key in required {
                if !unique.contains(&key) {
                    unique.push(key);
                }
            }
            if !unique.is_empty() {
                schema.insert("required".into(), json!(unique));
            }
            if let Some(additional) = additional {
                schema.insert("additionalProperties".into(), additional);
            }
            if let Some((keyword, value)) = extra {
                schema.insert(keyword.into(), value);
            }
            Value::Object(schema)
        })
        .boxed()
}

/// Input schemas that admission must refuse (`admit.schema`), or that pass
/// the meta-schema but no validator can compile offline.
const ODD_SCHEMAS: &[&str] = &[
    r#"{"type":"Number"}"#,
    r#"[]"#,
    r#""string""#,
    r#"null"#,
    r#"3"#,
    r#"true"#,
    r#"{"type":"object","required":"a"}"#,
    r#"{"type":"object","required":["a","a"]}"#,
    r#"{"properties":{"a":{"type":"Number"}}}"#,
    r#"{"minLength":-1}"#,
    r#"{"type":"object","additionalProperties":"no"}"#,
    r#"{"$ref":"https://example.com/remote.json"}"#,
];

/// An input schema: mostly valid object schemas, sometimes invalid ones or
/// non-objects.
pub fn schema() -> BoxedStrategy<Value> {
    prop_oneof![
        12 => object_schema(),
        1 => select(ODD_SCHEMAS).prop_map(|text| serde_json::from_str(text).unwrap_or(Value::Null)),
    ]
    .boxed()
}

/// JSON leaves, integral floats and extremes included.
fn json_leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        Just(json!(true)),
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(3)),
        Just(json!(1.0)),
        Just(json!(1.5)),
        Just(json!(-0.5)),
        Just(json!(1e300)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!("")),
        Just(json!("x")),
        Just(json!("é\u{0}")),
    ]
    .boxed()
}

/// Any JSON value, at most two levels deep.
pub fn json_value() -> BoxedStrategy<Value> {
    json_leaf()
        .prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..3).prop_map(Value::Array),
                vec((select(KEYS), inner), 0..3).prop_map(|pairs| object(pairs)),
            ]
        })
        .boxed()
}

fn object(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

/// A call's args: mostly an object over [`KEYS`] (so it meets declared
/// properties), sometimes any JSON value.
pub fn args() -> BoxedStrategy<Value> {
    prop_oneof![
        6 => vec((select(KEYS), json_value()), 0..4).prop_map(object),
        1 => json_value(),
    ]
    .boxed()
}

/// A value of the declared JSON type `type_name`; `salt` picks between
/// equivalent spellings (an integer may be written `1.0`).
fn value_of_type(type_name: &str, salt: u64) -> Value {
    match type_name {
        "string" => json!("s"),
        "integer" if salt & 2 == 0 => json!(1.0),
        "integer" => json!(3),
        "number" if salt & 4 == 0 => json!(2.5),
        "number" => json!(7),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        "null" => Value::Null,
        _ => json!("any"),
    }
}

/// A value for one property schema: of one of its declared types (chosen by
/// `salt`), or a string when no type is declared.
fn value_for(property: Option<&Value>, salt: u64) -> Value {
    let declared: Vec<&str> = match property.and_then(|p| p.get("type")) {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let len = u64::try_from(declared.len()).unwrap_or(1).max(1);
    let pick = usize::try_from(salt % len).unwrap_or(0);
    value_of_type(declared.get(pick).copied().unwrap_or("string"), salt)
}

/// Args built to fit `schema` at the top level: every required key, and the
/// optional properties `salt`'s bits select, each of a declared type. A
/// full validator may still reject them (deeper constraints); that is the
/// point of comparing.
pub fn fitting_args(schema: &Value, salt: u64) -> Value {
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut args = Map::new();
    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            args.insert(key.to_string(), value_for(properties.get(key), salt));
        }
    }
    for (bit, (key, property)) in properties.iter().enumerate() {
        if (salt >> (bit % 64)) & 1 == 1 && !args.contains_key(key) {
            args.insert(key.clone(), value_for(Some(property), salt >> 8));
        }
    }
    // A key only `patternProperties` admits (the generated pattern is `^x`).
    if schema.get("patternProperties").is_some() && salt & 8 != 0 && !args.contains_key("x1") {
        args.insert("x1".to_string(), json!("s"));
    }
    Value::Object(args)
}

/// An object schema and args for it, fitting or not.
pub fn schema_and_args() -> BoxedStrategy<(Value, Value)> {
    (
        object_schema(),
        any::<u64>(),
        prop_oneof![2 => Just(None), 1 => args().prop_map(Some)],
    )
        .prop_map(|(schema, salt, given)| {
            let args = given.unwrap_or_else(|| fitting_args(&schema, salt));
            (schema, args)
        })
        .boxed()
}

/// A declared effect word: the four classes, unknown words, or absent.
fn effect() -> BoxedStrategy<Option<String>> {
    prop_oneof![
        2 => Just(None),
        4 => select(&["read", "idempotent-write", "reversible", "irreversible"][..])
            .prop_map(|w| Some(w.to_string())),
        1 => select(&["Read", "write", ""][..]).prop_map(|w| Some(w.to_string())),
    ]
    .boxed()
}

/// A declared approval word: `required`, `never`, unknown words, or absent.
fn approval() -> BoxedStrategy<Option<String>> {
    prop_oneof![
        2 => Just(None),
        4 => select(&["required", "never"][..]).prop_map(|w| Some(w.to_string())),
        1 => select(&["Never", "sometimes"][..]).prop_map(|w| Some(w.to_string())),
    ]
    .boxed()
}

/// A description or disclosure: mostly sentences, often at the hint
/// boundaries or long, sometimes any adversarial text.
pub fn description() -> BoxedStrategy<String> {
    prop_oneof![
        6 => sentence(),
        2 => boundary_text(),
        1 => long_text(),
        2 => text(),
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
                input_schema,
                effect,
                approval,
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
        select(&["skills/a.md", "", "é/中.md"][..]),
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
                        input_schema: schema.clone(),
                        effect: Some("read".to_string()),
                        approval: Some("never".to_string()),
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
                op.insert("input_schema".into(), decl.input_schema.clone());
                if let Some(effect) = &decl.effect {
                    op.insert("effect".into(), json!(effect));
                }
                if let Some(approval) = &decl.approval {
                    op.insert("approval".into(), json!(approval));
                }
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
        select(&["host", "github", "a"][..]),
        select(&["t", "tool_", "Search-"][..]),
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

/// How a request names a capability.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The name of the plan's declaration `i % len` (a literal `nope<i>`
    /// when there are none).
    Declared(usize),
    /// The minted name of the plan's tool `i % tools` (counting each tool
    /// of a bulk declaration; `nope<i>` when there are none).
    Tool(usize),
    /// A literal name.
    Named(String),
}

/// A `describe` query.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// Exactly a name.
    Exact(Target),
    /// A name with whitespace around it (trimmed before matching).
    Padded(Target),
    /// Keywords.
    Keywords(String),
    /// A query refused `describe.query` (or 256 bytes, just allowed).
    Odd(String),
}

/// How a call reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Named directly.
    Direct,
    /// Through `call`, well shaped.
    Through,
    /// Through `call` with outer args that are not an object.
    NotObject,
    /// Through `call` without `name`.
    MissingName,
    /// Through `call` without `args`.
    MissingArgs,
    /// Through `call` with a `name` that is not a string.
    NameNotString,
    /// `call` calling `call`.
    Itself,
}

/// A call's inner args.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgsPlan {
    /// Built by [`fitting_args`] for the target's schema with this salt.
    Fitting(u64),
    /// Given as is.
    Given(Value),
}

/// A `call` op.
#[derive(Clone, Debug, PartialEq)]
pub struct CallPlan {
    /// The call id.
    pub id: String,
    /// How it reaches the target.
    pub route: Route,
    /// The target.
    pub target: Target,
    /// The inner args.
    pub args: ArgsPlan,
}

/// One op after `start`.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `render`.
    Render,
    /// `tool_defs`.
    ToolDefs,
    /// `pins`.
    Pins,
    /// `digests`.
    Digests,
    /// `describe`.
    Describe(Query),
    /// `expand`.
    Expand(Target),
    /// `call`.
    Call(CallPlan),
    /// `switch_mode`.
    SwitchMode(Mode),
    /// A declaration after start (refused `admit.frozen`).
    Admit(Decl),
}

/// A deliberate malformation (SPEC §11): the session must be reported
/// malformed at the plan's [`SessionPlan::fault_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A line that is not JSON.
    BadJson,
    /// A JSON line that is not an object.
    NotObject,
    /// An object without `op`.
    NoOp,
    /// An unknown op.
    UnknownOp,
    /// A missing field.
    MissingField,
    /// A mistyped field.
    MistypedField,
    /// A field the op does not take.
    UnknownField,
    /// An optional field set to `null`.
    NullOptional,
    /// `switch_mode` to a mode that does not exist.
    BadMode,
    /// `start` with a profile that does not exist.
    BadProfile,
    /// A second header.
    HeaderTwice,
    /// A query op before `start`.
    QueryBeforeStart,
    /// A second `start`.
    SecondStart,
    /// `dev` after `start`.
    DevAfterStart,
    /// A header of another format.
    BadFormat,
    /// No header.
    NoHeader,
    /// Nothing but blank lines.
    Empty,
}

/// A fault and where it goes (`at`, modulo the places it may go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultPlan {
    /// The malformation.
    pub fault: Fault,
    /// Where, modulo the legal positions.
    pub at: usize,
}

/// How the lines are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `\r\n` line ends.
    pub crlf: bool,
    /// A whitespace-only line after op `k % n` (never before the header).
    pub blank_after: Option<usize>,
    /// Whether the last line ends with a line break.
    pub final_newline: bool,
}

/// A whole generated session: declarations, an optional dev line, the
/// start, requests, perhaps one fault, and a layout.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionPlan {
    /// The header's `about`.
    pub about: String,
    /// Declarations before `start`.
    pub decls: Vec<Decl>,
    /// The dev line, if any.
    pub dev: Option<String>,
    /// The run-start mode.
    pub mode: Mode,
    /// The child profile, if any.
    pub profile: Option<Profile>,
    /// Ops after `start`.
    pub requests: Vec<Request>,
    /// A deliberate malformation, if any.
    pub fault: Option<FaultPlan>,
    /// Line layout.
    pub layout: Layout,
    /// A seed for order-independence checks (which permutation to try).
    pub shuffle: u64,
}

/// One line of a plan's text, before layout.
struct Line {
    text: String,
    is_fault: bool,
}

/// What requests may name, computed once per rendering: each declaration's
/// name and schema, and the pool of tools a [`Target::Tool`] picks from.
struct Names<'a> {
    decls: Vec<(String, Option<&'a Value>)>,
    tools: Vec<(String, &'a Value)>,
}

impl<'a> Names<'a> {
    /// The pool is the declared tools that look admissible (valid origin
    /// and name, not a door, a description, not `admitted: false`), or
    /// every declared tool when none does.
    fn of(decls: &'a [Decl]) -> Names<'a> {
        let mut plausible = Vec::new();
        let mut all = Vec::new();
        for decl in decls {
            match decl {
                Decl::Tool { decl, admitted } => {
                    let name = mint(&decl.origin, &decl.name);
                    let looks_admissible = *admitted != Some(false)
                        && origin_is_valid(&decl.origin)
                        && name_is_valid(&name)
                        && name != crate::DESCRIBE
                        && name != crate::CALL
                        && !decl.description.trim().is_empty();
                    if looks_admissible {
                        plausible.push((name.clone(), &decl.input_schema));
                    }
                    all.push((name, &decl.input_schema));
                }
                Decl::Bulk {
                    origin,
                    stem,
                    count,
                    schema,
                    ..
                } => {
                    for k in 0..*count {
                        plausible.push((mint(origin, &format!("{stem}{k}")), schema));
                    }
                }
                Decl::Shelf(_) | Decl::Carried(_) => {}
            }
        }
        Names {
            decls: decls.iter().map(|d| (d.name(), d.schema())).collect(),
            tools: if plausible.is_empty() { all } else { plausible },
        }
    }

    /// The name `target` stands for, and the schema of what it names.
    fn resolve(&self, target: &Target) -> (String, Option<&'a Value>) {
        let pick = |i: &usize, len: usize| i.checked_rem(len);
        match target {
            Target::Named(name) => {
                let schema = self.decls.iter().find(|(n, _)| n == name).and_then(|d| d.1);
                (name.clone(), schema)
            }
            Target::Declared(i) => {
                match pick(i, self.decls.len()).and_then(|k| self.decls.get(k)) {
                    Some((name, schema)) => (name.clone(), *schema),
                    None => (format!("nope{i}"), None),
                }
            }
            Target::Tool(i) => match pick(i, self.tools.len()).and_then(|k| self.tools.get(k)) {
                Some((name, schema)) => (name.clone(), Some(*schema)),
                None => (format!("nope{i}"), None),
            },
        }
    }
}

impl SessionPlan {
    /// The name `target` stands for in this plan.
    pub fn resolve(&self, target: &Target) -> String {
        Names::of(&self.decls).resolve(target).0
    }

    fn request_op(&self, names: &Names<'_>, request: &Request) -> Vec<Value> {
        let one = |op: Value| vec![op];
        match request {
            Request::Render => one(json!({ "op": "render" })),
            Request::ToolDefs => one(json!({ "op": "tool_defs" })),
            Request::Pins => one(json!({ "op": "pins" })),
            Request::Digests => one(json!({ "op": "digests" })),
            Request::SwitchMode(mode) => one(json!({ "op": "switch_mode", "mode": mode.as_str() })),
            Request::Expand(target) => {
                one(json!({ "op": "expand", "name": names.resolve(target).0 }))
            }
            Request::Describe(query) => {
                let name = match query {
                    Query::Exact(target) => names.resolve(target).0,
                    Query::Padded(target) => format!("  {}\t", names.resolve(target).0),
                    Query::Keywords(words) | Query::Odd(words) => words.clone(),
                };
                one(json!({ "op": "describe", "name": name }))
            }
            Request::Call(call) => one(Self::call_op(names, call)),
            Request::Admit(decl) => decl.expand().iter().map(Declared::op).collect(),
        }
    }

    fn call_op(names: &Names<'_>, call: &CallPlan) -> Value {
        let (target, schema) = names.resolve(&call.target);
        let args = match &call.args {
            ArgsPlan::Given(value) => value.clone(),
            ArgsPlan::Fitting(salt) => {
                schema.map_or_else(|| json!({}), |schema| fitting_args(schema, *salt))
            }
        };
        let (name, args) = match call.route {
            Route::Direct => (target, args),
            Route::Through => ("call".to_string(), json!({ "name": target, "args": args })),
            Route::NotObject => ("call".to_string(), json!([target])),
            Route::MissingName => ("call".to_string(), json!({ "args": args })),
            Route::MissingArgs => ("call".to_string(), json!({ "name": target })),
            Route::NameNotString => ("call".to_string(), json!({ "name": 7, "args": args })),
            Route::Itself => ("call".to_string(), json!({ "name": "call", "args": {} })),
        };
        json!({ "op": "call", "id": call.id, "name": name, "args": args })
    }

    /// The op lines without layout: the header, declarations, dev, start,
    /// requests, and the fault placed where it belongs.
    fn lines(&self) -> Vec<Line> {
        let line = |value: Value| Line {
            text: serde_json::to_string(&value).unwrap_or_default(),
            is_fault: false,
        };
        let mut head = vec![line(
            json!({ "op": "session", "format": 1, "about": self.about }),
        )];
        let mut before: Vec<Line> = self
            .decls
            .iter()
            .flat_map(Decl::expand)
            .map(|d| line(d.op()))
            .collect();
        if let Some(dev) = &self.dev {
            before.push(line(json!({ "op": "dev", "text": dev })));
        }
        let mut start = json!({ "op": "start", "mode": self.mode.as_str() });
        if let Some(profile) = self.profile {
            start["profile"] = json!(profile.as_str());
        }
        let start = line(start);
        let names = Names::of(&self.decls);
        let mut after: Vec<Line> = self
            .requests
            .iter()
            .flat_map(|r| self.request_op(&names, r))
            .map(line)
            .collect();

        let Some(FaultPlan { fault, at }) = self.fault else {
            head.extend(before);
            head.push(start);
            head.extend(after);
            return head;
        };
        let bad = |text: &str| Line {
            text: text.to_string(),
            is_fault: true,
        };
        match fault {
            Fault::Empty => return Vec::new(),
            Fault::NoHeader => {
                // The first line is now a declaration or `start`: the fault.
                before.push(start);
                before.extend(after);
                if let Some(first) = before.first_mut() {
                    first.is_fault = true;
                }
                return before;
            }
            Fault::BadFormat => {
                head[0] = bad(r#"{"op":"session","format":2,"about":"x"}"#);
            }
            Fault::QueryBeforeStart => {
                before.insert(at % (before.len() + 1), bad(r#"{"op":"render"}"#));
            }
            Fault::SecondStart | Fault::DevAfterStart => {
                let text = if fault == Fault::SecondStart {
                    r#"{"op":"start","mode":"work"}"#
                } else {
                    r#"{"op":"dev","text":"late"}"#
                };
                after.insert(at % (after.len() + 1), bad(text));
            }
            _ => {
                let text = match fault {
                    Fault::BadJson => r#"{"op":"render","#,
                    Fault::NotObject => r#"["op","render"]"#,
                    Fault::NoOp => r#"{"name":"x"}"#,
                    Fault::UnknownOp => r#"{"op":"frobnicate"}"#,
                    Fault::MissingField => r#"{"op":"expand"}"#,
                    Fault::MistypedField => r#"{"op":"describe","name":3}"#,
                    Fault::UnknownField => r#"{"op":"pins","extra":1}"#,
                    Fault::NullOptional => {
                        r#"{"op":"tool","origin":"host","name":"n","description":"d","input_schema":{},"effect":null}"#
                    }
                    Fault::BadMode => r#"{"op":"switch_mode","mode":"Work"}"#,
                    Fault::BadProfile => r#"{"op":"start","mode":"chat","profile":"boss"}"#,
                    _ => r#"{"op":"session","format":1,"about":"again"}"#,
                };
                let total = before.len() + 1 + after.len();
                let at = at % (total + 1);
                if at <= before.len() {
                    before.insert(at, bad(text));
                } else {
                    after.insert((at - before.len() - 1).min(after.len()), bad(text));
                }
            }
        }
        head.extend(before);
        head.push(start);
        head.extend(after);
        head
    }

    /// The session as JSONL text, laid out, and the 1-based line of its
    /// fault (if it has one).
    pub fn render(&self) -> (String, Option<usize>) {
        let lines = self.lines();
        let end = if self.layout.crlf { "\r\n" } else { "\n" };
        let blank_after = self
            .layout
            .blank_after
            .filter(|_| !lines.is_empty())
            .map(|k| k % lines.len());
        let mut text = String::new();
        let mut number = 0;
        let mut fault_line = None;
        for (i, line) in lines.iter().enumerate() {
            number += 1;
            if line.is_fault {
                fault_line = Some(number);
            }
            text.push_str(&line.text);
            if i + 1 < lines.len() || self.layout.final_newline {
                text.push_str(end);
            }
            if blank_after == Some(i) && i + 1 < lines.len() {
                number += 1;
                text.push_str(" \t");
                text.push_str(end);
            }
        }
        if matches!(
            self.fault,
            Some(FaultPlan {
                fault: Fault::Empty,
                ..
            })
        ) {
            return (format!(" {end}{end}"), Some(1));
        }
        (text, fault_line)
    }

    /// The session as JSONL text.
    pub fn to_text(&self) -> String {
        self.render().0
    }

    /// The line the fault is on, when the plan has one.
    pub fn fault_line(&self) -> Option<usize> {
        self.render().1
    }

    /// Every declaration op before `start`, in order.
    pub fn declared(&self) -> Vec<Declared> {
        self.decls.iter().flat_map(Decl::expand).collect()
    }

    /// The same plan without its `admitted: false` declarations (SPEC §13
    /// I4), before and after `start`.
    pub fn without_unadmitted(&self) -> SessionPlan {
        let unadmitted = |d: &Decl| {
            matches!(
                d,
                Decl::Tool {
                    admitted: Some(false),
                    ..
                }
            )
        };
        SessionPlan {
            decls: self
                .decls
                .iter()
                .filter(|d| !unadmitted(d))
                .cloned()
                .collect(),
            requests: self
                .requests
                .iter()
                .filter(|r| !matches!(r, Request::Admit(d) if unadmitted(d)))
                .cloned()
                .collect(),
            ..self.clone()
        }
    }
}

/// A name a request may use: declared names (resolved through the plan) or
/// literals — the resident names, the doors, near-misses, unknowns.
fn target() -> BoxedStrategy<Target> {
    prop_oneof![
        4 => any::<usize>().prop_map(Target::Declared),
        1 => select(&["read", "edit", "exec", "describe", "call", "nope", "Search_A", "github__search", ""][..])
            .prop_map(|n| Target::Named(n.to_string())),
        1 => raw_name().prop_map(Target::Named),
    ]
    .boxed()
}

fn query() -> BoxedStrategy<Query> {
    let odd = prop_oneof![
        Just(String::new()),
        Just("   ".to_string()),
        Just("a".repeat(256)),
        Just("a".repeat(257)),
        Just("é".repeat(129)),
        Just("a\u{0}b".to_string()),
        Just("tab\there".to_string()),
        Just("\u{7f}".to_string()),
    ];
    let keywords = (vec(select(WORDS), 1..4), select(&[" ", "_", "-", "  "][..]))
        .prop_map(|(words, sep)| words.join(sep));
    prop_oneof![
        3 => target().prop_map(Query::Exact),
        1 => target().prop_map(Query::Padded),
        3 => keywords.prop_map(Query::Keywords),
        1 => odd.prop_map(Query::Odd),
        1 => text().prop_map(Query::Odd),
    ]
    .boxed()
}

fn call_plan() -> BoxedStrategy<CallPlan> {
    let route = prop_oneof![
        3 => Just(Route::Through),
        2 => Just(Route::Direct),
        1 => select(&[
            Route::NotObject,
            Route::MissingName,
            Route::MissingArgs,
            Route::NameNotString,
            Route::Itself,
        ][..]),
    ];
    let args = prop_oneof![
        3 => any::<u64>().prop_map(ArgsPlan::Fitting),
        2 => args().prop_map(ArgsPlan::Given),
    ];
    // Calls aim mostly at declared tools, so many get past `call.unknown`.
    let target = prop_oneof![
        4 => any::<usize>().prop_map(Target::Tool),
        1 => target(),
    ];
    (
        select(&["c1", "c2", "", "id 3", "é"][..]),
        route,
        target,
        args,
    )
        .prop_map(|(id, route, target, args)| CallPlan {
            id: id.to_string(),
            route,
            target,
            args,
        })
        .boxed()
}

fn mode() -> BoxedStrategy<Mode> {
    select(&Mode::ALL[..]).boxed()
}

/// One request after `start`.
pub fn request() -> BoxedStrategy<Request> {
    prop_oneof![
        2 => Just(Request::Render),
        1 => Just(Request::ToolDefs),
        1 => Just(Request::Pins),
        1 => Just(Request::Digests),
        4 => query().prop_map(Request::Describe),
        1 => target().prop_map(Request::Expand),
        5 => call_plan().prop_map(Request::Call),
        1 => mode().prop_map(Request::SwitchMode),
        1 => decl().prop_map(Request::Admit),
    ]
    .boxed()
}

fn fault() -> BoxedStrategy<Option<FaultPlan>> {
    let fault = select(
        &[
            Fault::BadJson,
            Fault::NotObject,
            Fault::NoOp,
            Fault::UnknownOp,
            Fault::MissingField,
            Fault::MistypedField,
            Fault::UnknownField,
            Fault::NullOptional,
            Fault::BadMode,
            Fault::BadProfile,
            Fault::HeaderTwice,
            Fault::QueryBeforeStart,
            Fault::SecondStart,
            Fault::DevAfterStart,
            Fault::BadFormat,
            Fault::NoHeader,
            Fault::Empty,
        ][..],
    );
    prop_oneof![
        9 => Just(None),
        1 => (fault, any::<usize>()).prop_map(|(fault, at)| Some(FaultPlan { fault, at })),
    ]
    .boxed()
}

fn layout() -> BoxedStrategy<Layout> {
    (
        prop_oneof![7 => Just(false), 1 => Just(true)],
        prop_oneof![5 => Just(None), 1 => any::<usize>().prop_map(Some)],
        prop_oneof![5 => Just(true), 1 => Just(false)],
    )
        .prop_map(|(crlf, blank_after, final_newline)| Layout {
            crlf,
            blank_after,
            final_newline,
        })
        .boxed()
}

/// A whole session: up to 6 declarations (one in fifteen a bulk of 8–39
/// tools), perhaps a dev line, a start in either mode and perhaps as a
/// child, up to 9 requests, and one fault in ten.
pub fn session_plan() -> BoxedStrategy<SessionPlan> {
    let profile = prop_oneof![
        3 => Just(None),
        1 => select(&Profile::ALL[..]).prop_map(Some),
    ];
    let dev = prop_oneof![4 => Just(None), 1 => text().prop_map(Some)];
    let about = select(&["generated", "é\tabout", ""][..]).prop_map(str::to_string);
    // Empty catalogs are one case, not one in seven.
    let decls = prop_oneof![1 => Just(Vec::new()), 12 => vec(decl(), 1..7)];
    (
        (about, decls, dev, mode(), profile),
        (vec(request(), 0..10), fault(), layout(), any::<u64>()),
    )
        .prop_map(
            |((about, decls, dev, mode, profile), (requests, fault, layout, shuffle))| {
                SessionPlan {
                    about,
                    decls,
                    dev,
                    mode,
                    profile,
                    requests,
                    fault,
                    layout,
                    shuffle,
                }
            },
        )
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::RngAlgorithm;
    use proptest::test_runner::{Config, TestRng, TestRunner};

    fn runner(seed: u8) -> TestRunner {
        TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
        )
    }

    #[test]
    fn same_seed_same_session() {
        let draw = |seed| {
            let mut runner = runner(seed);
            (0..20)
                .map(|_| {
                    session_plan()
                        .new_tree(&mut runner)
                        .unwrap()
                        .current()
                        .to_text()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }

    #[test]
    fn variants_differ_only_in_case_or_separator() {
        assert_eq!(variant("search_a", 0, true), "search-a");
        assert_eq!(variant("search_a", 1, false), "Search_a");
        assert_eq!(variant("search_a", 2, true), "SEARCH-A");
    }

    #[test]
    fn fitting_args_cover_required_keys_with_declared_types() {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": ["string", "null"]}},
            "required": ["n", "s", "q"],
        });
        assert_eq!(
            fitting_args(&schema, 0),
            json!({"n": 1.0, "s": "s", "q": "s"})
        );
        assert_eq!(
            fitting_args(&schema, 3),
            json!({"n": 3, "s": null, "q": "s"})
        );
    }

    #[test]
    fn a_fault_is_placed_on_the_line_the_plan_says() {
        let plan = SessionPlan {
            about: "t".into(),
            decls: vec![],
            dev: None,
            mode: Mode::Chat,
            profile: None,
            requests: vec![Request::Render],
            fault: Some(FaultPlan {
                fault: Fault::QueryBeforeStart,
                at: 0,
            }),
            layout: Layout {
                crlf: false,
                blank_after: Some(0),
                final_newline: true,
            },
            shuffle: 0,
        };
        assert_eq!(
            plan.render(),
            (
                "{\"about\":\"t\",\"format\":1,\"op\":\"session\"}\n \t\n{\"op\":\"render\"}\n{\"mode\":\"chat\",\"op\":\"start\"}\n{\"op\":\"render\"}\n".to_string(),
                Some(3)
            )
        );
    }
}
