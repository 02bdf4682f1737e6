//! SPEC §2 check 6's meta-schema verdict: the library's rule against the
//! `jsonschema` crate (the reference implementation), on generated schemas
//! and on every schema the corpus, the MCP examples, the benches'
//! realistic generator and the fuzzer produce.

use serde_json::Value;

use disclose::internals::metaschema::is_valid;

/// The realistic generator of the benches and `examples/profile.rs`.
#[path = "../benches/support/realistic.rs"]
mod realistic;

/// The rule against the crate on generated schemas.
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

    /// A string for `$id` or an anchor: mostly ones that hold, some that
    /// break the pattern (a fragment, a leading digit, a space, a newline
    /// at the end, a letter past ASCII).
    fn id_or_anchor() -> BoxedStrategy<Value> {
        prop_oneof![
            6 => select(&[
                "", "s", "s#", "#", "s#a", "##", "https://example.com/s", "a b#", "a", "_",
                "a-b.c_1", "A9", "1a", "-a", "a b", "é", "a#", "a\n", "a:b",
            ][..])
            .prop_map(Value::from),
            1 => junk(),
        ]
        .boxed()
    }

    /// An object of fewer than `most` members named from `KEYS`, each
    /// value drawn from `values`.
    fn object_of(values: BoxedStrategy<Value>, most: usize) -> BoxedStrategy<Value> {
        vec((select(KEYS), values), 0..most)
            .prop_map(|pairs| {
                Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            })
            .boxed()
    }

    /// One keyword of an object schema whose subschemas are `sub`: every
    /// keyword of the meta-schema with mostly right values and some wrong
    /// ones, and some keywords no vocabulary lists.
    fn keyword(sub: BoxedStrategy<Value>) -> BoxedStrategy<(String, Value)> {
        let sub_or_junk = prop_oneof![6 => sub, 1 => junk()].boxed();
        let key = |names: &'static [&'static str]| select(names).prop_map(str::to_string);
        prop_oneof![
            6 => (Just("type".to_string()), type_value()),
            4 => (
                key(&["properties", "$defs", "patternProperties", "dependentSchemas", "definitions"]),
                prop_oneof![
                    6 => object_of(sub_or_junk.clone(), 4),
                    1 => junk(),
                ]
            ),
            4 => (
                key(&[
                    "items", "additionalProperties", "not", "contains", "propertyNames", "if",
                    "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
                ]),
                sub_or_junk.clone()
            ),
            2 => (
                key(&["anyOf", "oneOf", "allOf", "prefixItems"]),
                prop_oneof![
                    6 => vec(sub_or_junk.clone(), 0..3).prop_map(Value::Array),
                    1 => junk(),
                ]
            ),
            3 => (Just("required".to_string()), required()),
            1 => (
                Just("dependentRequired".to_string()),
                prop_oneof![
                    4 => object_of(required(), 3),
                    1 => junk(),
                ]
            ),
            1 => (
                Just("dependencies".to_string()),
                prop_oneof![
                    4 => object_of(prop_oneof![required(), sub_or_junk.clone()].boxed(), 3),
                    1 => junk(),
                ]
            ),
            1 => (
                Just("$vocabulary".to_string()),
                prop_oneof![
                    4 => object_of(
                        prop_oneof![4 => any::<bool>().prop_map(Value::Bool), 1 => junk()].boxed(),
                        3
                    ),
                    1 => junk(),
                ]
            ),
            2 => (
                key(&["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"]),
                id_or_anchor()
            ),
            2 => (
                key(&["enum", "examples"]),
                prop_oneof![
                    4 => vec(json_value(), 0..3).prop_map(Value::Array),
                    1 => junk(),
                ]
            ),
            1 => (key(&["const", "default"]), junk()),
            3 => (
                key(&[
                    "title", "description", "$comment", "format", "pattern", "$ref", "$schema",
                    "$dynamicRef", "$recursiveRef", "contentEncoding", "contentMediaType",
                ]),
                prop_oneof![
                    4 => select(KEYS).prop_map(Value::from),
                    // Broken regexes and URI references: annotations only.
                    1 => select(&["(", "#", "^a", "#/$defs/a", "[", "a b"][..]).prop_map(Value::from),
                    1 => junk(),
                ]
            ),
            2 => (
                key(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
                prop_oneof![4 => number(), 1 => junk()]
            ),
            3 => (
                key(&[
                    "minLength", "maxLength", "minItems", "maxItems", "minProperties",
                    "maxProperties", "minContains", "maxContains",
                ]),
                prop_oneof![4 => number(), 1 => junk()]
            ),
            2 => (
                key(&["uniqueItems", "deprecated", "readOnly", "writeOnly"]),
                prop_oneof![4 => any::<bool>().prop_map(Value::Bool), 1 => junk()]
            ),
            // Listed by no vocabulary: valid whatever the value.
            2 => (
                key(&["x-custom", "Type", "", "$Id", "ref", "dependency"]),
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

    /// The rule says what the crate says on every generated schema, and
    /// the mix holds enough of each answer (at least a quarter valid and a
    /// quarter invalid) that neither side holds vacuously.
    #[test]
    fn the_rule_agrees_with_jsonschema() {
        const CASES: u32 = 4000;
        let mut runner = TestRunner::new(Config {
            cases: CASES,
            source_file: Some(file!()),
            ..Config::default()
        });
        let valid = Cell::new(0u32);
        let result = runner.run(&schema(), |schema| {
            let crate_says = jsonschema::draft202012::meta::is_valid(&schema);
            prop_assert_eq!(is_valid(&schema), crate_says, "{}", schema);
            valid.set(valid.get() + u32::from(crate_says));
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
        let valid = valid.get();
        let percent = |n: u32| n * 100 / CASES;
        assert!(percent(valid) >= 25, "only {valid} of {CASES} were valid");
        assert!(
            percent(CASES - valid) >= 25,
            "only {} of {CASES} were invalid",
            CASES - valid
        );
    }
}

/// The rule against the crate on every shipped schema and on what the
/// generators make.
mod reach {
    use std::path::{Path, PathBuf};

    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    use super::*;

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

    /// The rule says what the crate says of every one of `schemas`
    /// (each with where it came from); returns how many are invalid.
    fn agrees_on_all(schemas: &[(String, Value)]) -> usize {
        let mut invalid = 0;
        for (origin, schema) in schemas {
            let crate_says = jsonschema::draft202012::meta::is_valid(schema);
            assert_eq!(
                is_valid(schema),
                crate_says,
                "{origin}: the rule misjudges {schema}"
            );
            invalid += usize::from(!crate_says);
        }
        invalid
    }

    #[test]
    fn shipped_schemas_are_judged_as_the_crate_judges_them() {
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
        let invalid = agrees_on_all(&schemas);
        // The corpus's `admit.schema` cases are among them.
        assert!(schemas.len() > 1500, "only {} schemas", schemas.len());
        assert!(invalid >= 5, "only {invalid} invalid schemas");
    }

    #[test]
    fn generated_schemas_are_judged_as_the_crate_judges_them() {
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
        assert_eq!(
            agrees_on_all(&schemas),
            0,
            "the realistic schemas are valid"
        );
        assert!(schemas.len() > 2000, "only {} schemas", schemas.len());

        // The fuzzer's schemas.
        let mut runner = TestRunner::deterministic();
        let strategy = disclose_testkit::generate::schema();
        let schemas: Vec<(String, Value)> = (0..2000)
            .map(|i| {
                let tree = strategy.new_tree(&mut runner).expect("a schema");
                (format!("fuzzer schema {i}"), tree.current())
            })
            .collect();
        agrees_on_all(&schemas);
    }
}
