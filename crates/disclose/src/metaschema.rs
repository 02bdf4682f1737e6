//! The draft 2020-12 meta-schema verdict of SPEC §2 check 6, decided without
//! the `jsonschema` crate when a schema is plainly valid or plainly not.
//!
//! [`is_valid`] answers exactly what `jsonschema::draft202012::meta::is_valid`
//! answers. Most tool schemas use a dozen keywords whose meta-schema
//! constraints are one JSON type each (`"type": "string"`, an array of unique
//! strings, a non-negative integer, a subschema), so a walk that checks those
//! constraints exactly decides such a schema in a few hundred instructions,
//! where the compiled meta-schema spends thousands (and compiling it, once a
//! process, ~30 M). The meta-schema is a conjunction — each keyword's
//! constraint applies whatever the others say — so one listed keyword that
//! breaks its constraint, anywhere, makes the schema invalid; a schema with
//! none broken and every keyword listed is valid. Anything else — a keyword
//! outside the list, a value the walk is unsure of (a float where an integer
//! is required), nesting deeper than [`MAX_DEPTH`] — hands the whole schema
//! to the crate, which stays the authority on everything else.
//!
//! The constraints are those of the meta-schema the crate embeds
//! (`referencing` 0.61.2, `metaschemas/draft2020-12/meta/*.json`): the
//! meta-schema allows both objects and booleans as (sub)schemas, and
//! `$dynamicRef: "#meta"` makes every subschema position the whole
//! meta-schema again.

use serde_json::Value;

/// Deeper subschemas than this are left to the crate: the walk recurses, and
/// real tool schemas nest a handful of levels.
const MAX_DEPTH: usize = 32;

/// `validation.json`'s `simpleTypes`.
const SIMPLE_TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Whether `schema` is a valid JSON Schema under the draft 2020-12
/// meta-schema: `jsonschema::draft202012::meta::is_valid(schema)`, with the
/// common cases decided by [`verdict`].
pub fn is_valid(schema: &Value) -> bool {
    verdict(schema).unwrap_or_else(|| jsonschema::draft202012::meta::is_valid(schema))
}

/// The walk's verdict: `Some(true)` when every keyword of `schema` and of
/// its subschemas is listed and holds; `Some(false)` when a listed keyword
/// anywhere breaks its constraint (the meta-schema is a conjunction: every
/// keyword's constraint applies whatever the others say); `None`, "left to
/// the crate", otherwise.
pub fn verdict(schema: &Value) -> Option<bool> {
    match subschema(schema, 0) {
        Walk::Valid => Some(true),
        Walk::Invalid => Some(false),
        Walk::Unknown => None,
    }
}

/// What the walk found in a part of a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// Every keyword is listed and holds.
    Valid,
    /// A listed keyword breaks its constraint.
    Invalid,
    /// Nothing broken, but something the walk does not decide.
    Unknown,
}

impl Walk {
    fn holds(holds: bool) -> Walk {
        if holds { Walk::Valid } else { Walk::Invalid }
    }

    /// Both parts of a conjunction: invalid if either is, else unknown if
    /// either is.
    fn and(self, other: Walk) -> Walk {
        match (self, other) {
            (Walk::Invalid, _) | (_, Walk::Invalid) => Walk::Invalid,
            (Walk::Unknown, _) | (_, Walk::Unknown) => Walk::Unknown,
            (Walk::Valid, Walk::Valid) => Walk::Valid,
        }
    }

    /// All of `parts`, stopping at the first invalid one.
    fn all(parts: impl IntoIterator<Item = Walk>) -> Walk {
        let mut walk = Walk::Valid;
        for part in parts {
            walk = walk.and(part);
            if walk == Walk::Invalid {
                break;
            }
        }
        walk
    }
}

/// A schema position (`$dynamicRef: "#meta"`): the meta-schema's top-level
/// `"type": ["object", "boolean"]`, then every keyword.
fn subschema(value: &Value, depth: usize) -> Walk {
    match value {
        Value::Bool(_) => Walk::Valid,
        Value::Object(_) if depth >= MAX_DEPTH => Walk::Unknown,
        Value::Object(map) => Walk::all(
            map.iter()
                .map(|(name, value)| keyword(name, value, depth + 1)),
        ),
        _ => Walk::Invalid,
    }
}

/// Every value of `map` as a subschema; invalid when `value` is no object.
fn subschemas(value: &Value, depth: usize) -> Walk {
    match value.as_object() {
        Some(map) => Walk::all(map.values().map(|schema| subschema(schema, depth))),
        None => Walk::Invalid,
    }
}

/// One keyword's value against its meta-schema constraint; unknown for
/// every keyword not listed (the crate decides those).
fn keyword(name: &str, value: &Value, depth: usize) -> Walk {
    match name {
        // validation.json: a simple type, or a non-empty array of unique ones.
        "type" => Walk::holds(match value {
            Value::String(ty) => SIMPLE_TYPES.contains(&ty.as_str()),
            Value::Array(types) => {
                !types.is_empty()
                    && types
                        .iter()
                        .all(|ty| ty.as_str().is_some_and(|ty| SIMPLE_TYPES.contains(&ty)))
                    && unique_strings(types)
            }
            _ => false,
        }),
        // validation.json `stringArray`: strings, `uniqueItems`; may be empty.
        "required" => Walk::holds(
            value
                .as_array()
                .is_some_and(|names| names.iter().all(Value::is_string) && unique_strings(names)),
        ),
        // applicator.json / core.json: an object whose values are subschemas
        // (`patternProperties`' names are `format: regex`, an annotation).
        "properties" | "$defs" | "patternProperties" => subschemas(value, depth),
        // applicator.json: one subschema.
        "items" | "additionalProperties" | "not" => subschema(value, depth),
        // applicator.json `schemaArray`: a non-empty array of subschemas.
        "anyOf" | "oneOf" | "allOf" => match value.as_array() {
            Some(schemas) if !schemas.is_empty() => {
                Walk::all(schemas.iter().map(|schema| subschema(schema, depth)))
            }
            _ => Walk::Invalid,
        },
        // validation.json `enum` and meta-data.json `examples`: any array.
        "enum" | "examples" => Walk::holds(value.is_array()),
        // validation.json `const: true`, meta-data.json `default: true`.
        "const" | "default" => Walk::Valid,
        // meta-data.json, core.json, format-annotation.json, validation.json
        // and core.json again: a string. The `format`s on `pattern`
        // (`regex`), `$ref` (`uri-reference`) and `$schema` (`uri`, which
        // every tool of a real MCP server built on zod declares) are
        // annotations in this meta-schema, which the crate does not assert
        // (`tests::formats_are_annotations`).
        "title" | "description" | "$comment" | "format" | "pattern" | "$ref" | "$schema" => {
            Walk::holds(value.is_string())
        }
        // validation.json: any number.
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            Walk::holds(value.is_number())
        }
        // validation.json `nonNegativeInteger`: an integer ≥ 0. JSON
        // integers decide; 1.0, -0.0 or 1e300 (integers to JSON Schema) and
        // -0.5 go to the crate.
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => {
            match value {
                Value::Number(n) if n.is_u64() => Walk::Valid,
                Value::Number(n) if n.is_i64() => Walk::Invalid,
                Value::Number(_) => Walk::Unknown,
                _ => Walk::Invalid,
            }
        }
        // validation.json, meta-data.json: a boolean.
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => Walk::holds(value.is_boolean()),
        _ => Walk::Unknown,
    }
}

/// No two equal strings in `items` (which holds strings only):
/// `uniqueItems` as the crate compares strings, by their characters. Short
/// arrays (every `required` of a real tool schema) are compared pairwise,
/// without allocating.
fn unique_strings(items: &[Value]) -> bool {
    if items.len() <= 16 {
        return items
            .iter()
            .enumerate()
            .all(|(i, item)| !items[..i].contains(item));
    }
    let mut names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
    names.sort_unstable();
    names.windows(2).all(|pair| pair[0] != pair[1])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `schema`'s verdict under the draft 2020-12 meta-schema is `valid`
    /// (read by hand from the meta-schema, and the crate agrees), and the
    /// walk decides it without the crate exactly when `decided`.
    fn check(schema: Value, valid: bool, decided: bool) {
        assert_eq!(
            jsonschema::draft202012::meta::is_valid(&schema),
            valid,
            "the crate on {schema}"
        );
        assert_eq!(is_valid(&schema), valid, "{schema}");
        assert_eq!(
            verdict(&schema),
            decided.then_some(valid),
            "the walk on {schema}"
        );
    }

    #[test]
    fn plain_schemas_are_proven() {
        check(json!({}), true, true);
        check(json!(true), true, true);
        check(json!(false), true, true);
        check(
            json!({"type": "object", "properties": {"path": {"type": "string", "description": "Where."}},
                   "required": ["path"], "additionalProperties": false}),
            true,
            true,
        );
        check(json!({"type": ["string", "null"]}), true, true);
        check(
            json!({"type": ["array", "boolean", "integer", "null", "number", "object", "string"]}),
            true,
            true,
        );
        check(
            json!({"properties": {"a": true, "b": false, "": {}}}),
            true,
            true,
        );
        check(json!({"items": {"items": false}, "not": {}}), true, true);
        check(
            json!({"anyOf": [true], "oneOf": [{}, false], "allOf": [{"type": "null"}]}),
            true,
            true,
        );
        check(json!({"$defs": {"a": {"type": "integer"}}}), true, true);
        // `required` and `enum` may be empty in 2020-12 (no `minItems`).
        check(json!({"required": [], "enum": []}), true, true);
        check(
            json!({"enum": [1, "a", null, {}], "const": {"x": [1.5]}, "default": null}),
            true,
            true,
        );
        check(
            json!({"examples": [], "title": "", "$comment": "salt 1", "description": "é"}),
            true,
            true,
        );
        // `format` is an annotation: its value need only be a string.
        check(json!({"format": "no-such-format"}), true, true);
        check(
            json!({"minimum": -1.5, "maximum": 1e300, "exclusiveMinimum": -0.0, "exclusiveMaximum": i64::MIN}),
            true,
            true,
        );
        check(
            json!({"minLength": 0, "maxLength": u64::MAX, "minItems": 1, "maxItems": 2, "minProperties": 3, "maxProperties": 4}),
            true,
            true,
        );
        check(
            json!({"uniqueItems": false, "deprecated": true, "readOnly": false, "writeOnly": true}),
            true,
            true,
        );
        let distinct: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
        check(json!({ "required": distinct }), true, true);
    }

    #[test]
    fn formats_are_annotations() {
        // `pattern`, `$ref` and `patternProperties`' names carry a `format`
        // (`regex`, `uri-reference`) that this meta-schema only annotates:
        // the crate accepts a broken regex or URI, so the walk does too. If
        // the crate ever asserts these formats, this fails first.
        check(json!({"pattern": "("}), true, true);
        check(json!({"$ref": "a b\\c %%"}), true, true);
        check(json!({"patternProperties": {"(": {}}}), true, true);
        check(json!({"pattern": "^[0-9a-f]{32}$"}), true, true);
        check(json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}), true, true);
        check(
            json!({"patternProperties": {"^x": {"type": "string"}}}),
            true,
            true,
        );
        check(
            json!({"properties": {"a": {"items": {"pattern": "x"}}}}),
            true,
            true,
        );
        // Their types still bind.
        check(json!({"pattern": 1}), false, true);
        check(json!({"$ref": null}), false, true);
        check(json!({"patternProperties": {"^x": 1}}), false, true);
    }

    #[test]
    fn valid_schemas_the_walk_leaves_to_the_crate() {
        // An integer to JSON Schema is any number with a zero fractional
        // part (validation §6.1.1), and -0.0 ≥ 0: all valid, none decided.
        check(json!({"minLength": 1.0}), true, false);
        check(json!({"maxItems": 1e300}), true, false);
        check(json!({"minProperties": -0.0}), true, false);
        // The JSON text `-0`, as serde_json reads it (the float -0.0).
        let minus_zero: Value = serde_json::from_str(r#"{"maxLength": -0}"#).expect("JSON");
        check(minus_zero, true, false);
        // Keywords outside the list: unconstrained, or constrained by a
        // `pattern` (`$id`, `$anchor`).
        check(json!({"x-custom": [1]}), true, false);
        check(
            json!({"$id": "https://example.com/s", "$schema": "https://json-schema.org/draft/2020-12/schema"}),
            true,
            false,
        );
        check(
            json!({"dependentRequired": {"a": ["b"]}, "multipleOf": 2}),
            true,
            false,
        );
        // One unlisted keyword deep inside leaves the whole schema to the crate.
        check(
            json!({"properties": {"a": {"items": {"multipleOf": 3}}}}),
            true,
            false,
        );
        // Nesting past MAX_DEPTH.
        let mut deep = json!({"type": "string"});
        for _ in 0..MAX_DEPTH {
            deep = json!({ "items": deep });
        }
        check(deep.clone(), true, false);
        check(deep["items"].clone(), true, true);
    }

    #[test]
    fn invalid_schemas_are_refused_or_left_to_the_crate() {
        // Not a schema at all: the meta-schema's `type: [object, boolean]`.
        for value in [json!(1), json!("string"), json!(null), json!([])] {
            check(value, false, true);
        }
        // `type`: a simple type name, or a non-empty array of unique ones.
        for ty in [
            json!([]),
            json!(["string", "string"]),
            json!("any"),
            json!("Number"),
            json!(""),
            json!(1),
            json!(["string", 1]),
            json!(null),
        ] {
            check(json!({ "type": ty }), false, true);
        }
        // `required`: an array of unique strings.
        let mut twenty: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
        twenty.push("k0".to_string());
        for required in [
            json!(["a", "a"]),
            json!(["a", "b", "a"]),
            json!("a"),
            json!([1]),
            json!(twenty),
        ] {
            check(json!({ "required": required }), false, true);
        }
        // Non-negative integers: a negative JSON integer or a non-number is
        // decided; a fractional float is the crate's.
        for (bad, decided) in [
            (json!(-1), true),
            (json!(1.5), false),
            (json!("1"), true),
            (json!(i64::MIN), true),
            (json!(null), true),
            (json!(-0.5), false),
        ] {
            check(json!({ "minLength": bad }), false, decided);
            check(json!({ "maxProperties": bad }), false, decided);
        }
        // Subschema positions take objects and booleans only.
        check(json!({"properties": {"a": 1}}), false, true);
        check(json!({"properties": []}), false, true);
        check(json!({"items": []}), false, true); // 2020-12: `prefixItems` takes arrays
        check(json!({"additionalProperties": "no"}), false, true);
        check(json!({"not": null}), false, true);
        check(json!({"$defs": {"a": 0}}), false, true);
        // `schemaArray`: non-empty.
        check(json!({"anyOf": []}), false, true);
        check(json!({"oneOf": {}}), false, true);
        check(json!({"allOf": [1]}), false, true);
        // The rest of the list, each with a value of the wrong type.
        for (name, bad) in [
            ("enum", json!(1)),
            ("examples", json!({})),
            ("description", json!(1)),
            ("title", json!(["a"])),
            ("$comment", json!(null)),
            ("format", json!(1)),
            ("$schema", json!(7)),
            ("minimum", json!("0")),
            ("exclusiveMaximum", json!(true)),
            ("uniqueItems", json!("true")),
            ("readOnly", json!(0)),
        ] {
            check(json!({ name: bad }), false, true);
        }
        // A defect deep inside, or beside an unlisted keyword (the
        // conjunction fails whatever the crate would say of the other).
        check(
            json!({"properties": {"a": {"properties": {"b": {"type": "strin"}}}}}),
            false,
            true,
        );
        check(
            json!({"anyOf": [{"items": {"minLength": -1}}]}),
            false,
            true,
        );
        check(json!({"required": ["a", "a"], "x-custom": 1}), false, true);
        check(json!({"multipleOf": 2, "type": "strng"}), false, true);
        // A defect past MAX_DEPTH is the crate's.
        let mut deep = json!({"type": "strng"});
        for _ in 0..MAX_DEPTH {
            deep = json!({ "items": deep });
        }
        check(deep, false, false);
    }
}
