//! SPEC §2 check 6: whether an input schema is valid under the draft
//! 2020-12 meta-schema, with `format` an annotation only and no `$ref`
//! resolved — the rule as the spec states it, checked here in full.
//!
//! The meta-schema is a conjunction. Its top level and each of its seven
//! vocabularies (`core`, `applicator`, `unevaluated`, `validation`,
//! `meta-data`, `format-annotation`, `content`) say only two things: a
//! schema is an object or a boolean, and each listed keyword's value meets
//! one constraint, whatever the other keywords say. A keyword outside the
//! lists is allowed with any value. `$dynamicRef: "#meta"` makes every
//! subschema position the whole meta-schema again. So [`is_valid`] walks
//! every schema position once, with a work list rather than recursion (so
//! no nesting can exhaust the stack), and checks each listed keyword's
//! constraint exactly; the first broken one decides.
//!
//! The constraints are those of the meta-schema as published, which the
//! `jsonschema` crate embeds (`referencing` 0.61.2,
//! `metaschemas/draft2020-12/`); the crate is the reference implementation,
//! not the rule, and a dev-dependency only: the tests hold [`is_valid`]
//! equal to `jsonschema::draft202012::meta::is_valid` on generated schemas
//! and on every schema the corpus and the generators produce
//! (`tests/metaschema.rs`).

use serde_json::Value;

/// `validation.json`'s `simpleTypes`.
const SIMPLE_TYPES: [&str; 7] = [
    "array", "boolean", "integer", "null", "number", "object", "string",
];

/// Whether `schema` is a valid JSON Schema under the draft 2020-12
/// meta-schema. Each schema position is visited once (a long `required`
/// is sorted to find repeats); only the work list of subschemas still to
/// check is allocated.
pub fn is_valid(schema: &Value) -> bool {
    let mut pending = vec![schema];
    while let Some(schema) = pending.pop() {
        match schema {
            // The meta-schema's top-level `"type": ["object", "boolean"]`.
            Value::Bool(_) => {}
            Value::Object(map) => {
                if !map
                    .iter()
                    .all(|(name, value)| keyword(name, value, &mut pending))
                {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// Whether one keyword's value meets its constraint in the meta-schema.
/// Each subschema it holds is pushed on `pending`, to be checked as a
/// schema in its turn. A keyword no vocabulary lists holds whatever its
/// value.
fn keyword<'a>(name: &str, value: &'a Value, pending: &mut Vec<&'a Value>) -> bool {
    match name {
        // core.json `$id`: a URI reference, with no fragment but an empty
        // one (`"pattern": "^[^#]*#?$"`).
        "$id" => value
            .as_str()
            .is_some_and(|id| id.find('#').is_none_or(|at| at + 1 == id.len())),
        // core.json `anchorString`, and schema.json's deprecated
        // `$recursiveAnchor`, which refers to it.
        "$anchor" | "$dynamicAnchor" | "$recursiveAnchor" => value.as_str().is_some_and(is_anchor),
        // A string. The `format`s on `$schema` (`uri`), the references
        // (`uri-reference`) and `pattern` (`regex`) are annotations in this
        // meta-schema: a broken URI or regex is still a valid schema
        // (`tests::formats_are_annotations`).
        "$schema" | "$ref" | "$dynamicRef" | "$recursiveRef" | "$comment" | "title"
        | "description" | "format" | "pattern" | "contentEncoding" | "contentMediaType" => {
            value.is_string()
        }
        // core.json: an object of booleans (its names' `format: uri` is an
        // annotation).
        "$vocabulary" => value
            .as_object()
            .is_some_and(|map| map.values().all(Value::is_boolean)),
        // An object of subschemas: core.json `$defs`; applicator.json
        // `properties`, `patternProperties` (its names' `format: regex` is
        // an annotation) and `dependentSchemas`; schema.json's deprecated
        // `definitions`.
        "$defs" | "properties" | "patternProperties" | "dependentSchemas" | "definitions" => {
            match value.as_object() {
                Some(map) => {
                    pending.extend(map.values());
                    true
                }
                None => false,
            }
        }
        // One subschema: applicator.json, unevaluated.json, content.json.
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "if"
        | "then"
        | "else"
        | "not"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => {
            pending.push(value);
            true
        }
        // applicator.json `schemaArray`: a non-empty array of subschemas.
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => match value.as_array() {
            Some(schemas) if !schemas.is_empty() => {
                pending.extend(schemas);
                true
            }
            _ => false,
        },
        // validation.json: a simple type, or a non-empty array of unique
        // ones.
        "type" => match value {
            Value::String(ty) => SIMPLE_TYPES.contains(&ty.as_str()),
            Value::Array(types) => {
                !types.is_empty()
                    && types
                        .iter()
                        .all(|ty| ty.as_str().is_some_and(|ty| SIMPLE_TYPES.contains(&ty)))
                    && unique_strings(types)
            }
            _ => false,
        },
        // validation.json `const: true`, meta-data.json `default: true`.
        "const" | "default" => true,
        // validation.json `enum` and meta-data.json `examples`: any array.
        "enum" | "examples" => value.is_array(),
        // validation.json: a number greater than 0.
        "multipleOf" => match value {
            Value::Number(n) if n.is_u64() => n.as_u64() != Some(0),
            Value::Number(n) if n.is_i64() => false,
            Value::Number(n) => n.as_f64().is_some_and(|n| n > 0.0),
            _ => false,
        },
        // validation.json: any number.
        "maximum" | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" => value.is_number(),
        // validation.json `nonNegativeInteger`.
        "maxLength" | "minLength" | "maxItems" | "minItems" | "maxContains" | "minContains"
        | "maxProperties" | "minProperties" => is_non_negative_integer(value),
        // validation.json, meta-data.json: a boolean.
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => value.is_boolean(),
        // validation.json `stringArray`.
        "required" => is_string_array(value),
        // validation.json: an object of `stringArray`s.
        "dependentRequired" => value
            .as_object()
            .is_some_and(|map| map.values().all(is_string_array)),
        // schema.json's deprecated `dependencies`: an object whose values
        // are each a subschema or a `stringArray` (`anyOf`; no array is a
        // schema, and no object or boolean an array).
        "dependencies" => match value.as_object() {
            Some(map) => map.values().all(|value| {
                if value.is_array() {
                    is_string_array(value)
                } else {
                    pending.push(value);
                    true
                }
            }),
            None => false,
        },
        _ => true,
    }
}

/// core.json `anchorString`: `^[A-Za-z_][-A-Za-z0-9._]*$`.
fn is_anchor(anchor: &str) -> bool {
    let mut bytes = anchor.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'))
}

/// validation.json `nonNegativeInteger`: `"type": "integer"`, `"minimum":
/// 0`. An integer to JSON Schema is any number with a zero fractional part
/// (so 1.0 and 1e300 are), and -0.0 is not below 0.
fn is_non_negative_integer(value: &Value) -> bool {
    match value {
        Value::Number(n) if n.is_u64() => true,
        Value::Number(n) if n.is_i64() => false,
        Value::Number(n) => n.as_f64().is_some_and(|f| f.fract() == 0.0 && f >= 0.0),
        _ => false,
    }
}

/// validation.json `stringArray`: an array of strings, `uniqueItems`; may
/// be empty.
fn is_string_array(value: &Value) -> bool {
    value
        .as_array()
        .is_some_and(|items| items.iter().all(Value::is_string) && unique_strings(items))
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

    /// `schema`'s verdict under the draft 2020-12 meta-schema is `valid`,
    /// read by hand from the meta-schema; the crate agrees, and so does
    /// [`is_valid`].
    fn check(schema: Value, valid: bool) {
        assert_eq!(
            jsonschema::draft202012::meta::is_valid(&schema),
            valid,
            "the crate on {schema}"
        );
        assert_eq!(is_valid(&schema), valid, "{schema}");
    }

    #[test]
    fn plain_schemas_are_valid() {
        check(json!({}), true);
        check(json!(true), true);
        check(json!(false), true);
        check(
            json!({"type": "object", "properties": {"path": {"type": "string", "description": "Where."}},
                   "required": ["path"], "additionalProperties": false}),
            true,
        );
        check(json!({"type": ["string", "null"]}), true);
        check(
            json!({"type": ["array", "boolean", "integer", "null", "number", "object", "string"]}),
            true,
        );
        check(json!({"properties": {"a": true, "b": false, "": {}}}), true);
        check(json!({"items": {"items": false}, "not": {}}), true);
        check(
            json!({"anyOf": [true], "oneOf": [{}, false], "allOf": [{"type": "null"}]}),
            true,
        );
        check(json!({"$defs": {"a": {"type": "integer"}}}), true);
        // `required` and `enum` may be empty in 2020-12 (no `minItems`).
        check(json!({"required": [], "enum": []}), true);
        check(
            json!({"enum": [1, "a", null, {}], "const": {"x": [1.5]}, "default": null}),
            true,
        );
        check(
            json!({"examples": [], "title": "", "$comment": "salt 1", "description": "é"}),
            true,
        );
        // `format` is an annotation: its value need only be a string.
        check(json!({"format": "no-such-format"}), true);
        check(
            json!({"minimum": -1.5, "maximum": 1e300, "exclusiveMinimum": -0.0, "exclusiveMaximum": i64::MIN}),
            true,
        );
        check(
            json!({"minLength": 0, "maxLength": u64::MAX, "minItems": 1, "maxItems": 2, "minProperties": 3, "maxProperties": 4}),
            true,
        );
        check(
            json!({"uniqueItems": false, "deprecated": true, "readOnly": false, "writeOnly": true}),
            true,
        );
        let distinct: Vec<String> = (0..20).map(|i| format!("k{i}")).collect();
        check(json!({ "required": distinct }), true);
    }

    #[test]
    fn every_vocabulary_s_keywords_are_checked() {
        // core.json.
        check(
            json!({"$id": "https://example.com/s", "$schema": "https://json-schema.org/draft/2020-12/schema"}),
            true,
        );
        check(json!({"$id": "s#"}), true);
        check(json!({"$id": ""}), true);
        check(json!({"$id": "s#a"}), false);
        check(json!({"$id": "#"}), true);
        check(json!({"$id": "##"}), false);
        check(json!({"$id": 1}), false);
        check(json!({"$anchor": "a-b.c_1", "$dynamicAnchor": "_"}), true);
        for anchor in ["", "1a", "-a", "a b", "é", "a#", "a\n", "a:b"] {
            check(json!({ "$anchor": anchor }), false);
            check(json!({ "$dynamicAnchor": anchor }), false);
        }
        check(
            json!({"$dynamicRef": "#meta", "$vocabulary": {"urn:x": true, "": false}}),
            true,
        );
        check(json!({"$dynamicRef": 1}), false);
        check(json!({"$vocabulary": {"urn:x": 1}}), false);
        check(json!({"$vocabulary": []}), false);
        // applicator.json.
        check(
            json!({"prefixItems": [{}, true], "contains": {"type": "string"}, "propertyNames": {"pattern": "^a"},
                   "if": true, "then": {}, "else": false, "dependentSchemas": {"a": {}}}),
            true,
        );
        check(json!({"prefixItems": []}), false);
        check(json!({"prefixItems": {}}), false);
        check(json!({"contains": 1}), false);
        check(json!({"propertyNames": "a"}), false);
        check(json!({"if": null}), false);
        check(json!({"else": {"type": "strng"}}), false);
        check(json!({"dependentSchemas": {"a": []}}), false);
        check(json!({"dependentSchemas": []}), false);
        // unevaluated.json and content.json.
        check(
            json!({"unevaluatedItems": false, "unevaluatedProperties": {}, "contentEncoding": "base64",
                   "contentMediaType": "application/json", "contentSchema": {"type": "object"}}),
            true,
        );
        check(json!({"unevaluatedProperties": 0}), false);
        check(json!({"contentSchema": "x"}), false);
        check(json!({"contentEncoding": 64}), false);
        // validation.json's counts and `multipleOf`.
        check(json!({"minContains": 0, "maxContains": 3}), true);
        check(json!({"minContains": -1}), false);
        check(json!({"multipleOf": 2, "maxContains": 1.0}), true);
        for bad in [
            json!(0),
            json!(0.0),
            json!(-0.0),
            json!(-2),
            json!(-0.5),
            json!("2"),
        ] {
            check(json!({ "multipleOf": bad }), false);
        }
        check(json!({"multipleOf": 0.001}), true);
        check(json!({"dependentRequired": {"a": ["b"], "c": []}}), true);
        check(json!({"dependentRequired": {"a": ["b", "b"]}}), false);
        check(json!({"dependentRequired": {"a": "b"}}), false);
        // schema.json's deprecated keywords.
        check(
            json!({"definitions": {"a": {}}, "dependencies": {"a": ["b"], "c": {"type": "string"}, "d": true},
                   "$recursiveAnchor": "a", "$recursiveRef": "#"}),
            true,
        );
        check(json!({"definitions": {"a": 1}}), false);
        check(json!({"dependencies": {"a": ["b", "b"]}}), false);
        check(json!({"dependencies": {"a": [1]}}), false);
        check(json!({"dependencies": {"a": "b"}}), false);
        check(json!({"dependencies": {"a": {"minLength": -1}}}), false);
        check(json!({"$recursiveAnchor": true}), false);
        check(json!({"$recursiveRef": null}), false);
        // Keywords no vocabulary lists take any value.
        check(json!({"x-custom": [1], "Type": "strng", "": null}), true);
    }

    #[test]
    fn each_keyword_of_a_group_binds() {
        // Each keyword with a value that meets its constraint and one that
        // breaks it, so none can drop out of its group unseen.
        let groups: [(&[&str], Value, Value); 8] = [
            (
                &[
                    "$schema",
                    "$ref",
                    "$dynamicRef",
                    "$recursiveRef",
                    "$comment",
                    "title",
                    "description",
                    "format",
                    "pattern",
                    "contentEncoding",
                    "contentMediaType",
                ],
                json!("a"),
                json!(1),
            ),
            (
                &["$anchor", "$dynamicAnchor", "$recursiveAnchor"],
                json!("a"),
                json!("1"),
            ),
            (
                &[
                    "$defs",
                    "properties",
                    "patternProperties",
                    "dependentSchemas",
                    "definitions",
                ],
                json!({"a": {}}),
                json!({"a": 1}),
            ),
            (
                &[
                    "items",
                    "contains",
                    "additionalProperties",
                    "propertyNames",
                    "if",
                    "then",
                    "else",
                    "not",
                    "unevaluatedItems",
                    "unevaluatedProperties",
                    "contentSchema",
                ],
                json!({}),
                json!([]),
            ),
            (
                &["prefixItems", "allOf", "anyOf", "oneOf"],
                json!([true]),
                json!([]),
            ),
            (
                &["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
                json!(-1.5),
                json!("1"),
            ),
            (
                &[
                    "maxLength",
                    "minLength",
                    "maxItems",
                    "minItems",
                    "maxContains",
                    "minContains",
                    "maxProperties",
                    "minProperties",
                ],
                json!(2.0),
                json!(-1),
            ),
            (
                &["uniqueItems", "deprecated", "readOnly", "writeOnly"],
                json!(true),
                json!(null),
            ),
        ];
        for (names, good, bad) in groups {
            for name in names {
                check(json!({ *name: good.clone() }), true);
                check(json!({ *name: bad.clone() }), false);
            }
        }
        for (name, good, bad) in [
            ("enum", json!([]), json!({})),
            ("examples", json!([1]), json!("a")),
            ("required", json!(["a"]), json!(["a", "a"])),
            ("dependentRequired", json!({"a": []}), json!({"a": [1]})),
            ("dependencies", json!({"a": ["b"]}), json!({"a": 1})),
            ("$vocabulary", json!({"a": false}), json!({"a": null})),
            ("$id", json!("a#"), json!("#a")),
            ("multipleOf", json!(0.5), json!(-1)),
            ("type", json!(["null"]), json!(["null", "null"])),
        ] {
            check(json!({ name: good }), true);
            check(json!({ name: bad }), false);
        }
    }

    #[test]
    fn formats_are_annotations() {
        // `pattern`, `$ref` and `patternProperties`' names carry a `format`
        // (`regex`, `uri-reference`) that this meta-schema only annotates:
        // the crate accepts a broken regex or URI, and so does the rule. If
        // the crate ever asserts these formats, this fails first.
        check(json!({"pattern": "("}), true);
        check(json!({"$ref": "a b\\c %%"}), true);
        check(json!({"patternProperties": {"(": {}}}), true);
        check(json!({"$schema": "not a uri"}), true);
        check(json!({"$vocabulary": {"not a uri": true}}), true);
        check(json!({"pattern": "^[0-9a-f]{32}$"}), true);
        check(json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}), true);
        check(
            json!({"patternProperties": {"^x": {"type": "string"}}}),
            true,
        );
        check(
            json!({"properties": {"a": {"items": {"pattern": "x"}}}}),
            true,
        );
        // Their types still bind.
        check(json!({"pattern": 1}), false);
        check(json!({"$ref": null}), false);
        check(json!({"patternProperties": {"^x": 1}}), false);
        // A `$schema` naming another draft changes nothing: the rule is
        // draft 2020-12's.
        check(
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "strng"}),
            false,
        );
        check(
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": []}),
            false,
        );
    }

    #[test]
    fn integers_are_numbers_with_no_fraction() {
        // An integer to JSON Schema is any number with a zero fractional
        // part (validation §6.1.1), and -0.0 ≥ 0.
        check(json!({"minLength": 1.0}), true);
        check(json!({"maxItems": 1e300}), true);
        check(json!({"minProperties": -0.0}), true);
        // The JSON text `-0`, as serde_json reads it (the float -0.0).
        let minus_zero: Value = serde_json::from_str(r#"{"maxLength": -0}"#).expect("JSON");
        check(minus_zero, true);
        for bad in [
            json!(-1),
            json!(1.5),
            json!("1"),
            json!(i64::MIN),
            json!(null),
            json!(-0.5),
            json!(-1.0),
        ] {
            check(json!({ "minLength": bad.clone() }), false);
            check(json!({ "maxProperties": bad }), false);
        }
    }

    #[test]
    fn invalid_schemas_are_refused() {
        // Not a schema at all: the meta-schema's `type: [object, boolean]`.
        for value in [json!(1), json!("string"), json!(null), json!([])] {
            check(value, false);
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
            check(json!({ "type": ty }), false);
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
            check(json!({ "required": required }), false);
        }
        // Subschema positions take objects and booleans only.
        check(json!({"properties": {"a": 1}}), false);
        check(json!({"properties": []}), false);
        check(json!({"items": []}), false); // 2020-12: `prefixItems` takes arrays
        check(json!({"additionalProperties": "no"}), false);
        check(json!({"not": null}), false);
        check(json!({"$defs": {"a": 0}}), false);
        // `schemaArray`: non-empty.
        check(json!({"anyOf": []}), false);
        check(json!({"oneOf": {}}), false);
        check(json!({"allOf": [1]}), false);
        // The rest, each with a value of the wrong type.
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
            check(json!({ name: bad }), false);
        }
        // A defect deep inside, or beside a keyword no vocabulary lists.
        check(
            json!({"properties": {"a": {"properties": {"b": {"type": "strin"}}}}}),
            false,
        );
        check(json!({"anyOf": [{"items": {"minLength": -1}}]}), false);
        check(json!({"required": ["a", "a"], "x-custom": 1}), false);
        check(json!({"multipleOf": 2, "type": "strng"}), false);
    }

    #[test]
    fn nesting_of_any_depth_is_walked() {
        // Past any recursion limit of the crate's, so only the rule read
        // by hand speaks; a work list, not the stack, holds the positions.
        for (leaf, valid) in [
            (json!({"type": "string"}), true),
            (json!({"type": "strng"}), false),
        ] {
            let mut deep = leaf;
            for _ in 0..20_000 {
                // Not `json!`, which would serialize `deep` by recursion.
                deep = Value::Object(serde_json::Map::from_iter([("items".to_string(), deep)]));
            }
            assert_eq!(is_valid(&deep), valid);
            // serde_json drops a value by recursion: take it apart level by
            // level so the test's own stack holds.
            while let Value::Object(mut map) = deep {
                deep = map.remove("items").unwrap_or(Value::Null);
            }
        }
    }
}
