//! `fit`'s fast path (SPEC §6): the same verdict as [`super::fit`], from a
//! plan compiled once per schema.
//!
//! It owns only the *yes*: args that fit are accepted by one merge walk,
//! and anything else goes through the rule to collect the violations, so
//! a misfit's message is always the rule's. It does not own the order of
//! violations, the type names or what counts as an integer (the rule's).
//! `tests/properties.rs` (`fit_plan_is_fit`) holds it equal to the rule on
//! generated schemas and args.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::{Violation, fit};

/// `fit` compiled once per tool, as a JSON Schema validator is compiled:
/// the declared properties in byte order with their type sets and whether
/// each is required, the required keys that are not properties, and whether
/// unexpected keys are refused. Accepting args that fit is one merge walk of
/// the args (a map in byte order) against the properties, with no lookup by
/// key and no allocation; a plan with nothing to check answers from the
/// args' JSON type alone. Only a misfit goes through [`fit`] to collect the
/// violations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitPlan {
    /// Each declared property, in byte order.
    properties: Vec<Property>,
    /// How many of `properties` are required.
    required_properties: usize,
    /// Required keys that are not declared properties.
    required_elsewhere: Vec<String>,
    closed: bool,
    /// No required key, no declared type, not closed: every object fits.
    trivial: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Property {
    key: String,
    /// The declared type set (`None`: no `type`).
    types: Option<u8>,
    required: bool,
}

/// A type name as a bit; `number` also takes integers (its 8, plus
/// `integer`'s 4).
fn type_bits(name: &str) -> u8 {
    match name {
        "null" => 1,
        "boolean" => 2,
        "integer" => 4,
        "number" => 12,
        "string" => 16,
        "array" => 32,
        "object" => 64,
        _ => 0,
    }
}

/// A value's type as a bit: an integral number is only `integer`, any other
/// number only `number` (the bits of [`type_name`], without the name).
fn value_bits(value: &Value) -> u8 {
    match value {
        Value::Null => 1,
        Value::Bool(_) => 2,
        Value::Number(n) if crate::seam::is_integral(n) => 4,
        Value::Number(_) => 8,
        Value::String(_) => 16,
        Value::Array(_) => 32,
        Value::Object(_) => 64,
    }
}

/// Byte order, deciding on the first byte when it differs (as it does for
/// most pairs of property names) without calling `memcmp`.
fn byte_order(a: &[u8], b: &[u8]) -> Ordering {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x.cmp(y),
        _ => a.cmp(b),
    }
}

impl FitPlan {
    /// Compiles the top level of `schema`.
    pub fn new(schema: &Value) -> FitPlan {
        let empty = Map::new();
        let schema = schema.as_object().unwrap_or(&empty);
        // The required keys once each, sorted, so a property's "required?"
        // is a binary search: linear-logarithmic in `properties` and
        // `required`, never their product.
        let mut required: Vec<&str> = match schema.get("required") {
            Some(Value::Array(keys)) => keys.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        required.sort_unstable();
        required.dedup();
        let declared = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let mut properties: Vec<Property> = declared
            .iter()
            .map(|(key, property)| {
                let types = match property.get("type") {
                    Some(Value::String(t)) => Some(type_bits(t)),
                    Some(Value::Array(ts)) if ts.iter().any(Value::is_string) => Some(
                        ts.iter()
                            .filter_map(Value::as_str)
                            .fold(0, |bits, t| bits | type_bits(t)),
                    ),
                    _ => None,
                };
                Property {
                    key: key.clone(),
                    types,
                    required: required.binary_search(&key.as_str()).is_ok(),
                }
            })
            .collect();
        properties.sort_unstable_by(|a, b| a.key.as_bytes().cmp(b.key.as_bytes()));
        let required_elsewhere: Vec<String> = required
            .into_iter()
            .filter(|key| !declared.contains_key(*key))
            .map(str::to_string)
            .collect();
        let patterns = schema
            .get("patternProperties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false)) && !patterns;
        let required_properties = properties.iter().filter(|p| p.required).count();
        let trivial = !closed
            && required_properties == 0
            && required_elsewhere.is_empty()
            && properties.iter().all(|p| p.types.is_none());
        FitPlan {
            properties,
            required_properties,
            required_elsewhere,
            closed,
            trivial,
        }
    }

    /// Whether the plan has nothing to check beyond the args being an
    /// object (no required key, no declared type, not closed).
    pub fn is_trivial(&self) -> bool {
        self.trivial
    }

    /// Whether `args` fit: exactly when [`fit`] of the same schema is `Ok`.
    pub fn fits(&self, args: &Value) -> bool {
        let Value::Object(args) = args else {
            return false;
        };
        if self.trivial {
            return true;
        }
        if !self.required_elsewhere.iter().all(|k| args.contains_key(k)) {
            return false;
        }
        // A merge walk: without serde_json's `preserve_order` the args come
        // in byte order, as the properties do, so `at` only moves forward.
        // A key that sorts before `at` (args in insertion order) is looked
        // up among the properties already passed.
        let mut at = 0;
        let mut required_seen = 0;
        for (key, value) in args {
            let key = key.as_bytes();
            let found = loop {
                match self.properties.get(at) {
                    Some(p) => match byte_order(p.key.as_bytes(), key) {
                        Ordering::Less => at += 1,
                        Ordering::Equal => break Some(p),
                        Ordering::Greater => break None,
                    },
                    None => break None,
                }
            };
            let found = match found {
                None if at > 0
                    && byte_order(self.properties[at - 1].key.as_bytes(), key)
                        == Ordering::Greater =>
                {
                    self.properties[..at]
                        .binary_search_by(|p| byte_order(p.key.as_bytes(), key))
                        .ok()
                        .map(|i| &self.properties[i])
                }
                found => found,
            };
            match found {
                Some(p) => {
                    if p.types.is_some_and(|types| types & value_bits(value) == 0) {
                        return false;
                    }
                    required_seen += usize::from(p.required);
                }
                None if self.closed => return false,
                None => {}
            }
        }
        required_seen == self.required_properties
    }

    /// [`fit`], answered by the plan when the args fit.
    pub fn check(&self, schema: &Value, args: &Value) -> Result<(), Vec<Violation>> {
        if self.fits(args) {
            Ok(())
        } else {
            fit(schema, args)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_plan_accepts_exactly_what_fit_accepts() {
        let schemas = [
            json!({}),
            json!({"required": ["a"], "properties": {"a": {"type": "integer"}, "b": {"type": ["string", "null"]}, "c": {}}}),
            json!({"properties": {"a": {"type": "number"}, "z": {"type": "Nope"}}, "additionalProperties": false}),
            json!({"properties": {"a": {}}, "patternProperties": {"^x": {}}, "additionalProperties": false}),
            json!({"properties": {"t": {"type": []}}, "additionalProperties": {"type": "string"}}),
            json!({"required": ["b", "q", "b"], "properties": {"b": {"type": "boolean"}, "a": {}}}),
            json!({"properties": {"a": {"type": "Number"}, "b": {"type": ["null", 3]}}}),
            json!({"properties": {"a": {}, "z": {"description": "untyped"}}}),
            json!({"required": [], "additionalProperties": true}),
            // Names that share their first bytes: looked up past the first.
            json!({"required": ["page"], "properties": {"page": {"type": "integer"}, "path": {"type": "string"}, "pa": {"type": "boolean"}}, "additionalProperties": false}),
        ];
        let args = [
            json!({}),
            json!({"a": 1}),
            json!({"a": 1.0, "b": null}),
            json!({"a": 1.5}),
            json!({"a": "x", "c": [1]}),
            json!({"x1": true}),
            json!({"z": 1}),
            json!({"t": 3, "q": 1}),
            json!({"b": true, "q": 0}),
            json!({"b": true}),
            json!({"a": 2, "b": null, "q": "x", "z": {}}),
            json!([1]),
            json!(null),
            json!({"page": 2, "path": "x", "pa": true}),
            json!({"page": "2", "path": 1}),
            json!({"pa": 1, "page": 1}),
            json!({"pat": 1, "page": 1}),
        ];
        for schema in &schemas {
            let plan = FitPlan::new(schema);
            for arg in &args {
                assert_eq!(plan.fits(arg), fit(schema, arg).is_ok(), "{schema} {arg}");
                assert_eq!(plan.check(schema, arg), fit(schema, arg), "{schema} {arg}");
            }
        }
    }

    #[test]
    fn the_plan_decides_every_declared_type_as_fit_does() {
        // Each type name, alone and in an array with `null`, against a value
        // of each JSON type (integral and fractional numbers apart): the
        // plan's type bits must agree with `fit`'s names in every cell.
        let values = [
            json!(null),
            json!(true),
            json!(7),
            json!(u64::MAX),
            json!(-7),
            json!(2.0),
            json!(2.5),
            json!("s"),
            json!([1]),
            json!({"o": 1}),
        ];
        let names = [
            "null", "boolean", "integer", "number", "string", "array", "object", "Number",
        ];
        for name in names {
            for types in [json!(name), json!([name, "null"])] {
                let schema = json!({"properties": {"k": {"type": types}}});
                let plan = FitPlan::new(&schema);
                for value in &values {
                    let args = json!({ "k": value });
                    assert_eq!(
                        plan.fits(&args),
                        fit(&schema, &args).is_ok(),
                        "{schema} {args}"
                    );
                }
            }
        }
        // And `fit` itself, cell by cell, on the single names.
        let fits = |name: &str, value: &Value| {
            fit(
                &json!({"properties": {"k": {"type": name}}}),
                &json!({ "k": value }),
            )
            .is_ok()
        };
        let table = [
            (
                "null",
                [
                    true, false, false, false, false, false, false, false, false, false,
                ],
            ),
            (
                "boolean",
                [
                    false, true, false, false, false, false, false, false, false, false,
                ],
            ),
            (
                "integer",
                [
                    false, false, true, true, true, true, false, false, false, false,
                ],
            ),
            (
                "number",
                [
                    false, false, true, true, true, true, true, false, false, false,
                ],
            ),
            (
                "string",
                [
                    false, false, false, false, false, false, false, true, false, false,
                ],
            ),
            (
                "array",
                [
                    false, false, false, false, false, false, false, false, true, false,
                ],
            ),
            (
                "object",
                [
                    false, false, false, false, false, false, false, false, false, true,
                ],
            ),
            ("Number", [false; 10]),
        ];
        for (name, row) in table {
            for (value, expected) in values.iter().zip(row) {
                assert_eq!(fits(name, value), expected, "{name} {value}");
            }
        }
    }

    #[test]
    fn a_plan_with_nothing_to_check_takes_any_object() {
        for schema in [
            json!({}),
            json!({"type": "object", "properties": {"a": {}, "b": {"minLength": 1}}}),
            json!({"additionalProperties": {"type": "string"}}),
        ] {
            let plan = FitPlan::new(&schema);
            assert!(plan.is_trivial(), "{schema}");
            assert!(plan.fits(&json!({"anything": [1, 2], "a": null})));
            assert!(!plan.fits(&json!("not an object")));
        }
        for schema in [
            json!({"required": ["a"]}),
            json!({"properties": {"a": {"type": "string"}}}),
            json!({"additionalProperties": false}),
        ] {
            assert!(!FitPlan::new(&schema).is_trivial(), "{schema}");
        }
    }
}
