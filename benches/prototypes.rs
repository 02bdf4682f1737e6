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

/// P4's proposal: the library's `fit`, the lean one, and `jsonschema`.
fn x4_fit(c: &mut Criterion) {
    let cases = realistic::fit_cases(64, 4);
    let validators: Vec<jsonschema::Validator> = cases
        .iter()
        .map(|(schema, _)| jsonschema::draft202012::new(schema).expect("schema compiles"))
        .collect();
    for (schema, args) in &cases {
        assert_eq!(fit_lean(schema, args), fit(schema, args));
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
