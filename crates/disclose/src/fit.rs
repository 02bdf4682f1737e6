//! `fit`: the top-level check of a call's args against a tool's input schema
//! (SPEC §6, seed 001 §8-61).
//!
//! This is the rule as the spec reads it; [`plan`] is its fast path (the
//! same verdict from a plan compiled once per schema), held equal to it by
//! `tests/properties.rs` (`fit_plan_is_fit`).
//!
//! It checks the top level only — object-ness, `required`, declared property
//! types, and `additionalProperties: false` — and reports every violation in
//! the spec's order. Deeper shapes are the tool's own business. It must never
//! refuse args that a full JSON Schema validator accepts for an object
//! schema: it checks less, never more.

use std::fmt;

use serde_json::{Map, Value};

pub(crate) mod plan;

/// One way args fail to fit, printed as SPEC §6 writes it.
/// `#[non_exhaustive]`: a later contract version may check more.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Violation {
    /// `args is <type>, not an object` (and nothing else is checked).
    NotObject {
        /// The JSON type of the args.
        found: &'static str,
    },
    /// `missing required "<key>"`.
    Missing {
        /// The required key.
        key: String,
    },
    /// `"<key>" is <type>, expected <t1|t2|…>`.
    Type {
        /// The key.
        key: String,
        /// The value's JSON type.
        found: &'static str,
        /// The declared types, as written in the schema.
        expected: Vec<String>,
    },
    /// `unexpected "<key>"` (only under `additionalProperties: false`).
    Unexpected {
        /// The key.
        key: String,
    },
}

/// The violation templates, as `disclose vocab` lists them for `call.misfit`.
pub const VIOLATION_TEMPLATES: [&str; 4] = [
    "args is <type>, not an object",
    "missing required \"<key>\"",
    "\"<key>\" is <type>, expected <t1|t2|…>",
    "unexpected \"<key>\"",
];

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NotObject { found } => write!(f, "args is {found}, not an object"),
            Violation::Missing { key } => write!(f, "missing required \"{key}\""),
            Violation::Type {
                key,
                found,
                expected,
            } => write!(f, "\"{key}\" is {found}, expected {}", expected.join("|")),
            Violation::Unexpected { key } => write!(f, "unexpected \"{key}\""),
        }
    }
}

/// The JSON type name of a value. A number is `integer` when it is integral
/// (an `i64`/`u64`, or an `f64` with no fractional part), else `number`.
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if crate::seam::is_integral(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether a number is integral: an `i64`/`u64`, or an `f64` with no
/// fractional part (SPEC §6).
#[inline]
pub(crate) fn is_integral(n: &serde_json::Number) -> bool {
    // Every i64 and u64 is an f64 with no fractional part (rounded when
    // large, but still whole), so one test covers all three.
    n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Whether a value of JSON type `found` matches the declared type `declared`
/// (`number` also matches integers).
fn type_matches(declared: &str, found: &str) -> bool {
    declared == found || (declared == "number" && found == "integer")
}

/// Checks `args` against the top level of `schema`; `Ok` or every violation.
pub fn fit(schema: &Value, args: &Value) -> Result<(), Vec<Violation>> {
    let Value::Object(args) = args else {
        return Err(vec![Violation::NotObject {
            found: type_name(args),
        }]);
    };
    let empty = Map::new();
    let schema = schema.as_object().unwrap_or(&empty);
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut violations = Vec::new();

    if let Some(Value::Array(required)) = schema.get("required") {
        for key in required.iter().filter_map(Value::as_str) {
            if !args.contains_key(key) {
                violations.push(Violation::Missing {
                    key: key.to_string(),
                });
            }
        }
    }

    let mut keys: Vec<&String> = args.keys().collect();
    keys.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));

    for key in &keys {
        let declared = properties.get(key.as_str()).and_then(|p| p.get("type"));
        let expected: Vec<&str> = match declared {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        if expected.is_empty() {
            continue;
        }
        let found = type_name(&args[key.as_str()]);
        if !expected.iter().any(|t| type_matches(t, found)) {
            violations.push(Violation::Type {
                key: key.to_string(),
                found,
                expected: expected.into_iter().map(str::to_string).collect(),
            });
        }
    }

    // SPEC §6 rule 4, checking less rather than more: under
    // `patternProperties` a key outside `properties` may still be allowed,
    // and matching ECMA-262 patterns is a full validator's job.
    let patterns = schema
        .get("patternProperties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) && !patterns {
        for key in &keys {
            if !properties.contains_key(key.as_str()) {
                violations.push(Violation::Unexpected {
                    key: key.to_string(),
                });
            }
        }
    }

    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(schema: Value, args: Value) -> Vec<String> {
        match fit(&schema, &args) {
            Ok(()) => vec![],
            Err(vs) => vs.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn not_an_object_stops() {
        assert_eq!(
            lines(json!({"required": ["a"]}), json!([1])),
            ["args is array, not an object"]
        );
        assert_eq!(
            lines(json!({}), json!(1.5)),
            ["args is number, not an object"]
        );
    }

    #[test]
    fn every_violation_in_order() {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": ["string", "null"]}, "x": {"type": "number"}},
            "required": ["s", "q", "n"],
            "additionalProperties": false
        });
        assert_eq!(
            lines(schema, json!({"z": 1, "n": 1.5, "s": 3, "x": 2, "b": true})),
            [
                "missing required \"q\"",
                "\"n\" is number, expected integer",
                "\"s\" is integer, expected string|null",
                "unexpected \"b\"",
                "unexpected \"z\"",
            ]
        );
    }

    #[test]
    fn pattern_properties_suspend_the_unexpected_key_check() {
        let schema = json!({"properties": {"a": {}}, "patternProperties": {"^x_": {}}, "additionalProperties": false});
        assert_eq!(
            lines(schema.clone(), json!({"x_1": 1, "zz": 2})),
            Vec::<String>::new()
        );
        let no_patterns = json!({"properties": {"a": {}}, "patternProperties": {}, "additionalProperties": false});
        assert_eq!(lines(no_patterns, json!({"zz": 2})), ["unexpected \"zz\""]);
    }

    #[test]
    fn integral_floats_are_integers_and_numbers_take_integers() {
        let schema = json!({"properties": {"n": {"type": "integer"}, "x": {"type": "number"}}});
        assert_eq!(
            lines(schema, json!({"n": 1.0, "x": 3})),
            Vec::<String>::new()
        );
    }
}
