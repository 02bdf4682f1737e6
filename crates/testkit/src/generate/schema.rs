//! Input schemas (valid, invalid, and ones no validator compiles offline),
//! JSON values, and args that fit a schema or miss it.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value, json};

/// Keys shared by schemas and args, so generated args often name declared
/// properties.
pub const KEYS: &[&str] = &["a", "b", "path", "type", "é", "", "N", "x1"];

/// The JSON Schema type names.
pub const TYPES: &[&str] = &[
    "string", "integer", "number", "boolean", "array", "object", "null",
];

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
            assemble(properties, required, additional, typed, extra)
        })
        .boxed()
}

/// An object schema from its drawn parts (shared with [`super::draw`], so
/// the proptest strategy and the seeded draw build the same shapes): the
/// keys in `required` deduplicated in order, `properties` and `required`
/// left out when empty.
pub(crate) fn assemble(
    properties: Vec<(&str, Value)>,
    required: Vec<&str>,
    additional: Option<Value>,
    typed: bool,
    extra: Option<(&str, Value)>,
) -> Value {
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
}

/// Input schemas that admission must refuse (`admit.schema`), or that pass
/// the meta-schema but no validator can compile offline.
pub(super) const ODD_SCHEMAS: &[&str] = &[
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
