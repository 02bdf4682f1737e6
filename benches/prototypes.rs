//! Measured proposals (issue 5): each group races the library's current way
//! of doing one hot step against a drop-in alternative with the same output,
//! so `docs/performance.md` can say what a library change would buy before
//! anyone makes it. Each alternative is asserted equal to the library's
//! answer on the same inputs first. Not a target; `script/bench` does not
//! read these. Run with `cargo bench --bench prototypes`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use disclose::fit::type_name;
use disclose::session::SESSION_SCHEMA;
use disclose::{Violation, fit};
use serde_json::{Map, Value};

#[path = "support/realistic.rs"]
mod realistic;

fn quick<'c>(
    c: &'c mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group
}

/// `fit` with an allocation-free pre-check: args that fit (the common case)
/// cost a few map lookups; only a misfit pays for collecting violations,
/// through the library's own `fit`, so the messages stay the same.
fn fit_lean(schema: &Value, args: &Value) -> Result<(), Vec<Violation>> {
    let (Some(object), Some(args_map)) = (schema.as_object(), args.as_object()) else {
        return fit(schema, args);
    };
    let properties = object.get("properties").and_then(Value::as_object);
    let closed = object.get("additionalProperties") == Some(&Value::Bool(false));
    let required_present = match object.get("required") {
        Some(Value::Array(keys)) => keys
            .iter()
            .filter_map(Value::as_str)
            .all(|k| args_map.contains_key(k)),
        _ => true,
    };
    let typed = |declared: Option<&Value>, value: &Value| {
        let found = type_name(value);
        let ok = |t: &str| t == found || (t == "number" && found == "integer");
        match declared {
            Some(Value::String(t)) => ok(t),
            Some(Value::Array(ts)) => {
                let mut named = ts.iter().filter_map(Value::as_str).peekable();
                named.peek().is_none() || named.any(ok)
            }
            _ => true,
        }
    };
    let keys_fit = args_map
        .iter()
        .all(|(key, value)| match properties.and_then(|p| p.get(key)) {
            Some(prop) => typed(prop.get("type"), value),
            None => !closed,
        });
    if required_present && keys_fit {
        Ok(())
    } else {
        fit(schema, args)
    }
}

/// A type set as bits: null, boolean, integer, number, string, array, object.
fn type_bit(name: &str) -> u8 {
    match name {
        "null" => 1,
        "boolean" => 2,
        "integer" => 4,
        // SPEC §6: `number` also matches integers.
        "number" => 8 | 4,
        "string" => 16,
        "array" => 32,
        "object" => 64,
        _ => 0,
    }
}

fn value_bit(value: &Value) -> u8 {
    match type_name(value) {
        "number" => 8,
        other => type_bit(other),
    }
}

/// `fit` compiled once per tool, as the jsonschema side is: the required
/// keys, the declared properties in byte order with their type sets, and
/// `additionalProperties: false`. Checking args that fit is a merge walk
/// of two sorted lists: no lookups by string, no allocation. A misfit falls
/// back to the library's `fit` for the exact violations.
struct FitPlan {
    required: Vec<String>,
    properties: Vec<(String, Option<u8>)>,
    closed: bool,
}

impl FitPlan {
    fn compile(schema: &Value) -> FitPlan {
        let empty = Map::new();
        let object = schema.as_object().unwrap_or(&empty);
        let required = match object.get("required") {
            Some(Value::Array(keys)) => keys
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        };
        let mut properties: Vec<(String, Option<u8>)> = object
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty)
            .iter()
            .map(|(key, prop)| {
                let types = match prop.get("type") {
                    Some(Value::String(t)) => Some(type_bit(t)),
                    Some(Value::Array(ts)) if ts.iter().any(Value::is_string) => Some(
                        ts.iter()
                            .filter_map(Value::as_str)
                            .fold(0, |bits, t| bits | type_bit(t)),
                    ),
                    _ => None,
                };
                (key.clone(), types)
            })
            .collect();
        properties.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        FitPlan {
            required,
            properties,
            closed: object.get("additionalProperties") == Some(&Value::Bool(false)),
        }
    }

    fn fits(&self, args: &Value) -> bool {
        let Value::Object(args) = args else {
            return false;
        };
        if !self.required.iter().all(|k| args.contains_key(k)) {
            return false;
        }
        // serde_json's map iterates in byte order (no `preserve_order`).
        let mut declared = self.properties.iter().peekable();
        for (key, value) in args {
            while declared
                .peek()
                .is_some_and(|(name, _)| name.as_bytes() < key.as_bytes())
            {
                declared.next();
            }
            match declared.peek() {
                Some((name, Some(types))) if name == key && types & value_bit(value) == 0 => {
                    return false;
                }
                Some((name, _)) if name == key => {}
                _ if self.closed => return false,
                _ => {}
            }
        }
        true
    }

    fn fit(&self, schema: &Value, args: &Value) -> Result<(), Vec<Violation>> {
        if self.fits(args) {
            Ok(())
        } else {
            fit(schema, args)
        }
    }
}

/// P4's proposal: the library's `fit`, the lean one, and `jsonschema`.
fn x4_fit(c: &mut Criterion) {
    let cases = realistic::fit_cases(64, 4);
    let validators: Vec<jsonschema::Validator> = cases
        .iter()
        .map(|(schema, _)| jsonschema::draft202012::new(schema).expect("schema compiles"))
        .collect();
    let plans: Vec<FitPlan> = cases.iter().map(|(s, _)| FitPlan::compile(s)).collect();
    for ((schema, args), plan) in cases.iter().zip(&plans) {
        assert_eq!(fit_lean(schema, args), fit(schema, args));
        assert_eq!(plan.fit(schema, args), fit(schema, args));
    }
    let fits: Vec<&(Value, Value)> = cases.iter().filter(|(s, a)| fit(s, a).is_ok()).collect();
    let mut group = quick(c, "X4_fit");
    group.bench_function("library", |b| {
        b.iter(|| {
            for (schema, args) in &cases {
                black_box(fit(black_box(schema), black_box(args)).is_ok());
            }
        })
    });
    group.bench_function("lean", |b| {
        b.iter(|| {
            for (schema, args) in &cases {
                black_box(fit_lean(black_box(schema), black_box(args)).is_ok());
            }
        })
    });
    group.bench_function("planned", |b| {
        b.iter(|| {
            for ((_, args), plan) in cases.iter().zip(&plans) {
                black_box(plan.fits(black_box(args)));
            }
        })
    });
    group.bench_function("jsonschema", |b| {
        b.iter(|| {
            for ((_, args), validator) in cases.iter().zip(&validators) {
                black_box(validator.is_valid(black_box(args)));
            }
        })
    });
    group.bench_function("library_fitting_only", |b| {
        b.iter(|| {
            for (schema, args) in &fits {
                black_box(fit(black_box(schema), black_box(args)).is_ok());
            }
        })
    });
    group.bench_function("lean_fitting_only", |b| {
        b.iter(|| {
            for (schema, args) in &fits {
                black_box(fit_lean(black_box(schema), black_box(args)).is_ok());
            }
        })
    });
    group.finish();
}

/// P1's proposal for the session schema: validate each line against its
/// own op's definition instead of the whole `allOf` of fourteen `if`s.
fn x1_schema(c: &mut Criterion) {
    let schema: Value = serde_json::from_str(SESSION_SCHEMA).expect("the shipped schema is JSON");
    let whole = jsonschema::draft202012::new(&schema).expect("the shipped schema compiles");
    let defs = schema["$defs"].as_object().cloned().unwrap_or_default();
    let per_op: Map<String, Value> = defs.into_iter().collect();
    let per_op: Vec<(String, jsonschema::Validator)> = per_op
        .into_iter()
        .map(|(op, def)| {
            let validator = jsonschema::draft202012::new(&def).expect("each op's schema compiles");
            (op, validator)
        })
        .collect();
    let lines: Vec<Value> = (0..4)
        .flat_map(|seed| {
            realistic::session(seed)
                .lines()
                .map(|l| serde_json::from_str(l).expect("generated lines are JSON"))
                .collect::<Vec<Value>>()
        })
        .collect();
    let by_op = |line: &Value| {
        let op = line.get("op").and_then(Value::as_str).unwrap_or_default();
        per_op
            .iter()
            .find(|(name, _)| name == op)
            .is_some_and(|(_, v)| v.is_valid(line))
    };
    for line in &lines {
        assert_eq!(whole.is_valid(line), by_op(line));
    }
    let mut group = quick(c, "X1_schema");
    group.bench_function("whole", |b| {
        b.iter(|| {
            lines
                .iter()
                .filter(|l| whole.is_valid(black_box(l)))
                .count()
        })
    });
    group.bench_function("per_op", |b| {
        b.iter(|| lines.iter().filter(|l| by_op(black_box(l))).count())
    });
    group.finish();
}

criterion_group!(benches, x4_fit, x1_schema);
criterion_main!(benches);
