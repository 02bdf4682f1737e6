//! SPEC §2 check 6's meta-schema verdict: the library's walk (the fast
//! path) against the `jsonschema` crate (the rule), on generated schemas
//! and on every schema the corpus, the MCP examples, the benches'
//! realistic generator and the fuzzer produce.

use serde_json::Value;

use disclose::internals::metaschema::{is_valid, verdict};

/// The realistic generator of the benches and `examples/profile.rs`.
#[path = "../benches/support/realistic.rs"]
mod realistic;

/// The walk against the crate on generated schemas.
mod properties {
    use std::cell::Cell;

    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::{Index, select, subsequence};
    use proptest::test_runner::{Config, TestRunner};
    use serde_json::{Map, json};

    use super::*;
    use disclose_testkit::generate::{KEYS, TYPES, json_value};

    /// Numbers at every edge of the list's constraints: negative, zero and
    /// -0, integral and fractional floats, the ends of u64 and i64.
    fn number() -> BoxedStrategy<Value> {
        prop_oneof![
            Just(json!(0)),
            Just(json!(1)),
            Just(json!(7)),
            Just(json!(-1)),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(0.0)),
            Just(json!(-0.0)),
            Just(json!(1.0)),
            Just(json!(1.5)),
            Just(json!(-2.5)),
            Just(json!(1e300)),
        ]
        .boxed()
    }

    /// A value of any JSON type, numbers at their edges included.
    fn junk() -> BoxedStrategy<Value> {
        prop_oneof![json_value(), number()].boxed()
    }

    /// A type name: mostly one of the seven, sometimes a near miss.
    fn type_name() -> BoxedStrategy<Value> {
        prop_oneof![
            6 => select(TYPES).prop_map(Value::from),
            1 => select(&["Number", "any", "", "int", "string ", "Object"][..]).prop_map(Value::from),
        ]
        .boxed()
    }

    /// `type`: a name, an array of names (empty, repeated), or junk.
    fn type_value() -> BoxedStrategy<Value> {
        prop_oneof![
            4 => type_name(),
            3 => vec(type_name(), 0..4).prop_map(Value::Array),
            1 => vec(prop_oneof![type_name(), junk()], 1..3).prop_map(Value::Array),
            1 => junk(),
        ]
        .boxed()
    }

    /// `required`: distinct names (up to 20, past the walk's pairwise
    /// limit), sometimes with one of them again, a non-string, or junk.
    fn required() -> BoxedStrategy<Value> {
        let names: Vec<String> = KEYS
            .iter()
            .map(|k| k.to_string())
            .chain((0..16).map(|i| format!("k{i}")))
            .collect();
        prop_oneof![
            6 => (subsequence(names, 0..20), any::<Option<(Index, Index)>>()).prop_map(
                |(mut names, again)| {
                    if let (Some((which, at)), false) = (again, names.is_empty()) {
                        let name = names[which.index(names.len())].clone();
                        names.insert(at.index(names.len() + 1), name);
                    }
                    json!(names)
                }
            ),
            1 => vec(prop_oneof![select(KEYS).prop_map(Value::from), junk()], 1..3)
                .prop_map(Value::Array),
            1 => junk(),
        ]
        .boxed()
    }

    /// One keyword of an object schema whose subschemas are `sub`: every
    /// listed keyword with mostly right values and some wrong ones, and
    /// some keywords the walk does not list.
    fn keyword(sub: BoxedStrategy<Value>) -> BoxedStrategy<(String, Value)> {
        let sub_or_junk = prop_oneof![6 => sub, 1 => junk()].boxed();
        let key = |names: &'static [&'static str]| select(names).prop_map(str::to_string);
        prop_oneof![
            6 => (Just("type".to_string()), type_value()),
            4 => (
                key(&["properties", "$defs", "patternProperties"]),
                prop_oneof![
                    6 => vec((select(KEYS), sub_or_junk.clone()), 0..4).prop_map(|pairs| {
                        Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                    }),
                    1 => junk(),
                ]
            ),
            4 => (key(&["items", "additionalProperties", "not"]), sub_or_junk.clone()),
            2 => (
                key(&["anyOf", "oneOf", "allOf"]),
                prop_oneof![
                    6 => vec(sub_or_junk.clone(), 0..3).prop_map(Value::Array),
                    1 => junk(),
                ]
            ),
            3 => (Just("required".to_string()), required()),
            2 => (
                key(&["enum", "examples"]),
                prop_oneof![
                    4 => vec(json_value(), 0..3).prop_map(Value::Array),
                    1 => junk(),
                ]
            ),
            1 => (key(&["const", "default"]), junk()),
            3 => (
                key(&["title", "description", "$comment", "format", "pattern", "$ref", "$schema"]),
                prop_oneof![
                    4 => select(KEYS).prop_map(Value::from),
                    // Broken regexes and URI references: annotations only.
                    1 => select(&["(", "#", "^a", "#/$defs/a", "[", "a b"][..]).prop_map(Value::from),
                    1 => junk(),
                ]
            ),
            2 => (
                key(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
                prop_oneof![4 => number(), 1 => junk()]
            ),
            3 => (
                key(&["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]),
                prop_oneof![4 => number(), 1 => junk()]
            ),
            2 => (
                key(&["uniqueItems", "deprecated", "readOnly", "writeOnly"]),
                prop_oneof![4 => any::<bool>().prop_map(Value::Bool), 1 => junk()]
            ),
            // Not listed: the crate decides, whatever the value.
            3 => (
                key(&[
                    "$id", "$anchor", "x-custom", "multipleOf", "dependentRequired",
                    "if", "prefixItems", "minContains", "definitions", "contentEncoding", "Type",
                    "",
                ]),
                prop_oneof![
                    select(&["#", "^a", "#/$defs/a", "https://example.com/s", "[", "a b"][..])
                        .prop_map(Value::from),
                    sub_or_junk,
                ]
            ),
        ]
        .boxed()
    }

    /// Schemas up to four levels deep, top-level non-schemas included.
    fn schema() -> BoxedStrategy<Value> {
        let leaf = prop_oneof![any::<bool>().prop_map(Value::Bool), Just(json!({}))];
        let schema = leaf.prop_recursive(4, 64, 5, |inner| {
            vec(keyword(inner.boxed()), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>()))
        });
        prop_oneof![12 => schema, 1 => junk()].boxed()
    }

    /// Wherever the walk decides, it says what the crate says, so `is_valid`
    /// is the crate's verdict; and on the generated mix the walk proves at
    /// least 30% of the cases valid, refuses at least 10%, and leaves at
    /// least 10% to the crate, a quarter of all cases being invalid, so no
    /// side holds vacuously.
    #[test]
    fn fast_path_agrees_with_jsonschema() {
        const CASES: u32 = 4000;
        let mut runner = TestRunner::new(Config {
            cases: CASES,
            source_file: Some(file!()),
            ..Config::default()
        });
        let counts = Cell::new([0u32; 4]);
        let result = runner.run(&schema(), |schema| {
            let crate_says = jsonschema::draft202012::meta::is_valid(&schema);
            let walk_says = verdict(&schema);
            prop_assert!(
                walk_says.is_none_or(|valid| valid == crate_says),
                "the walk says {:?} of {}",
                walk_says,
                schema
            );
            prop_assert_eq!(is_valid(&schema), crate_says, "{}", schema);
            let mut seen = counts.get();
            seen[match walk_says {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }] += 1;
            seen[3] += u32::from(!crate_says);
            counts.set(seen);
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
        let [proven, refused, left, invalid] = counts.get();
        let percent = |n: u32| n * 100 / CASES;
        assert!(
            percent(proven) >= 30,
            "the walk proved only {proven} of {CASES}"
        );
        assert!(
            percent(refused) >= 10,
            "the walk refused only {refused} of {CASES}"
        );
        assert!(
            percent(left) >= 10,
            "the walk left only {left} of {CASES} to the crate"
        );
        assert!(
            percent(invalid) >= 25,
            "only {invalid} of {CASES} were invalid"
        );
    }
}

/// Which shipped and generated schemas the walk decides: all of them but
/// the few that use a keyword it leaves to the crate.
mod reach {
    use std::path::{Path, PathBuf};

    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    use super::*;

    /// A keyword the walk leaves to the crate that generated schemas use:
    /// `dependentRequired` (the fuzzer's schemas).
    const LEFT_TO_THE_CRATE: [&str; 1] = ["dependentRequired"];

    /// Whether `value` has a key `key` at any depth.
    fn mentions(value: &Value, key: &str) -> bool {
        match value {
            Value::Object(map) => map.iter().any(|(k, v)| k == key || mentions(v, key)),
            Value::Array(items) => items.iter().any(|v| mentions(v, key)),
            _ => false,
        }
    }

    /// Every value under a key `key` in `value`, at any depth.
    fn under<'a>(value: &'a Value, key: &str, out: &mut Vec<&'a Value>) {
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    if k == key {
                        out.push(v);
                    } else {
                        under(v, key, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| under(v, key, out)),
            _ => {}
        }
    }

    fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                files(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }

    /// The walk decides every schema, as the crate does, unless it uses a
    /// keyword of [`LEFT_TO_THE_CRATE`]; returns how many it decided, and
    /// the schemas it left (with where they came from) for the caller to
    /// pin.
    fn decides_all(schemas: &[(String, Value)]) -> (usize, Vec<String>) {
        let mut decided = 0;
        let mut left = Vec::new();
        for (origin, schema) in schemas {
            let crate_says = jsonschema::draft202012::meta::is_valid(schema);
            match verdict(schema) {
                Some(valid) => {
                    assert_eq!(valid, crate_says, "{origin}: the walk misjudges {schema}");
                    decided += 1;
                }
                None => {
                    assert!(
                        LEFT_TO_THE_CRATE.iter().any(|k| mentions(schema, k)),
                        "{origin}: the walk does not decide {schema}"
                    );
                    left.push(origin.clone());
                }
            }
        }
        (decided, left)
    }

    #[test]
    fn shipped_schemas_are_decided() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut schemas = Vec::new();
        let mut paths = Vec::new();
        files(&root.join("corpora"), "jsonl", &mut paths);
        for path in &paths {
            let text = std::fs::read_to_string(path).expect("a corpus file");
            let name = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            for (i, line) in text.lines().enumerate() {
                // Some corpus lines are deliberately not JSON.
                let Ok(value) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                let mut found = Vec::new();
                under(&value, "input_schema", &mut found);
                schemas.extend(
                    found
                        .into_iter()
                        .map(|s| (format!("{name}:{}", i + 1), s.clone())),
                );
            }
        }
        let mut paths = Vec::new();
        files(&root.join("examples/mcp"), "json", &mut paths);
        for path in &paths {
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(path).expect("an MCP example"))
                    .expect("MCP examples are JSON");
            let mut found = Vec::new();
            under(&value, "inputSchema", &mut found);
            let name = path
                .strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string();
            schemas.extend(found.into_iter().map(|s| (name.clone(), s.clone())));
        }
        let (decided, left) = decides_all(&schemas);
        // Every one: valid or not, the shipped corpus never needs the
        // crate's compiled meta-schema.
        assert_eq!(
            left,
            Vec::<String>::new(),
            "decided {decided} of {}",
            schemas.len()
        );
        assert!(
            decided > 1500,
            "decided only {decided} of {}",
            schemas.len()
        );
    }

    #[test]
    fn generated_schemas_are_decided() {
        // The realistic generator: sessions (as in P1 and P5, salted or
        // not) and the benches' scale catalogs.
        let mut schemas = Vec::new();
        for seed in 0..16 {
            let text = realistic::salted_session(&realistic::session(seed), seed);
            for line in text.lines() {
                let value: Value = serde_json::from_str(line).expect("generated lines are JSON");
                let mut found = Vec::new();
                under(&value, "input_schema", &mut found);
                schemas.extend(
                    found
                        .into_iter()
                        .map(|s| (format!("session {seed}"), s.clone())),
                );
            }
        }
        for decl in realistic::salted_decls(&realistic::decls(2000, 6), 1) {
            schemas.push((decl.name.clone(), (*decl.input_schema).clone()));
        }
        let (decided, left) = decides_all(&schemas);
        assert_eq!(left, Vec::<String>::new());
        assert_eq!(decided, schemas.len());
        assert!(decided > 2000, "only {decided} schemas");

        // The fuzzer's schemas: all valid ones proven but those with a
        // keyword left to the crate.
        let mut runner = TestRunner::deterministic();
        let strategy = disclose_testkit::generate::schema();
        let schemas: Vec<(String, Value)> = (0..2000)
            .map(|i| {
                let tree = strategy.new_tree(&mut runner).expect("a schema");
                (format!("fuzzer schema {i}"), tree.current())
            })
            .collect();
        let (decided, left) = decides_all(&schemas);
        // Nearly all (the rest hold a `dependentRequired`, checked above).
        assert!(
            decided >= 1600,
            "decided {decided} of 2000, left {}",
            left.len()
        );
    }
}
