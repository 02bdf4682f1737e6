//! The validator of the protocol's message schemas: exactly the keywords
//! `docs/protocol/*.schema.json` use, read as draft 2020-12 reads them.
//!
//! The schemas are this crate's own and small, so `--validate-protocol`
//! needs no general validator: [`compile`] refuses a schema with any other
//! keyword (an edit to `docs/protocol/` that this module does not check
//! fails every validation, and the tests), and [`check`] finds a message's
//! first breach. The full draft 2020-12 validator, `jsonschema`, is this
//! module's test oracle, not a dependency of the binary: the tests hold the
//! two verdicts equal (docs/decisions.md, *The gate builds without
//! `jsonschema`*).

use std::cmp::Ordering;

use disclose::internals::fit::type_name;
use serde_json::{Map, Number, Value};

/// Keywords that say something about the schema, not about a message.
const ANNOTATIONS: [&str; 3] = ["$schema", "title", "description"];

/// Why a schema is not one this module checks: the keyword, at its place.
pub(super) fn compile(schema: &Value) -> Result<(), String> {
    compile_at(schema, "#")
}

fn compile_at(schema: &Value, at: &str) -> Result<(), String> {
    let keywords = match schema {
        Value::Bool(_) => return Ok(()),
        Value::Object(keywords) => keywords,
        _ => return Err(format!("{at} is not a schema")),
    };
    for (keyword, value) in keywords {
        let here = format!("{at}/{keyword}");
        let fits = match keyword.as_str() {
            k if ANNOTATIONS.contains(&k) => value.is_string(),
            "type" => type_names(value).is_some(),
            "required" => value
                .as_array()
                .is_some_and(|keys| keys.iter().all(Value::is_string)),
            "properties" => {
                let Some(properties) = value.as_object() else {
                    return Err(format!("{here} is not an object"));
                };
                for (key, property) in properties {
                    compile_at(property, &format!("{here}/{key}"))?;
                }
                true
            }
            "additionalProperties" | "items" | "not" => {
                compile_at(value, &here)?;
                true
            }
            "const" => true,
            "minItems" | "minLength" => value.as_u64().is_some(),
            "minimum" => value.is_number(),
            "uniqueItems" => value.is_boolean(),
            _ => return Err(format!("{here}: the harness does not check this keyword")),
        };
        if !fits {
            return Err(format!("{here} is not a valid value of {keyword}"));
        }
    }
    Ok(())
}

/// A message's first breach of its schema: where, as a JSON Pointer into
/// the message (`/` for the message itself), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MessageBreach {
    pub at: String,
    pub why: String,
}

/// Checks `message` against a schema [`compile`] accepted. The schema's
/// depth bounds the walk: a message deeper than its schema is not walked
/// past it.
pub(super) fn check(schema: &Value, message: &Value) -> Result<(), MessageBreach> {
    let mut at = String::new();
    check_at(schema, message, &mut at)
}

fn check_at(schema: &Value, value: &Value, at: &mut String) -> Result<(), MessageBreach> {
    let keywords = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Object(keywords) => keywords,
        _ => return breach(at, "is not allowed".into()),
    };
    if let Some(names) = keywords.get("type").and_then(type_names)
        && !names.iter().any(|name| is_type(value, name))
    {
        return breach(
            at,
            format!("is {}, expected {}", type_name(value), names.join("|")),
        );
    }
    if let Some(expected) = keywords.get("const")
        && !json_equal(value, expected)
    {
        return breach(at, format!("must be {expected}"));
    }
    if let Some(not) = keywords.get("not")
        && check_at(not, value, &mut at.clone()).is_ok()
    {
        return breach(
            at,
            match not.get("const") {
                Some(forbidden) if not.as_object().is_some_and(|n| n.len() == 1) => {
                    format!("must not be {forbidden}")
                }
                _ => format!("must not match {not}"),
            },
        );
    }
    match value {
        Value::String(text) => {
            if let Some(least) = keywords.get("minLength").and_then(Value::as_u64)
                && (text.chars().count() as u64) < least
            {
                return breach(
                    at,
                    format!("is shorter than {}", plural(least, "character")),
                );
            }
        }
        Value::Number(number) => {
            if let Some(Value::Number(least)) = keywords.get("minimum")
                && compare(number, least) == Ordering::Less
            {
                return breach(at, format!("is less than {least}"));
            }
        }
        Value::Array(items) => {
            if let Some(least) = keywords.get("minItems").and_then(Value::as_u64)
                && (items.len() as u64) < least
            {
                return breach(at, format!("has fewer than {}", plural(least, "item")));
            }
            if keywords.get("uniqueItems") == Some(&Value::Bool(true))
                && let Some((first, second)) = equal_pair(items)
            {
                return breach(at, format!("has equal items at {first} and {second}"));
            }
            if let Some(each) = keywords.get("items") {
                for (index, item) in items.iter().enumerate() {
                    let len = at.len();
                    at.push('/');
                    at.push_str(&index.to_string());
                    check_at(each, item, at)?;
                    at.truncate(len);
                }
            }
        }
        Value::Object(fields) => check_object(keywords, fields, at)?,
        Value::Null | Value::Bool(_) => {}
    }
    Ok(())
}

fn check_object(
    keywords: &Map<String, Value>,
    fields: &Map<String, Value>,
    at: &mut String,
) -> Result<(), MessageBreach> {
    for key in keywords
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !fields.contains_key(key) {
            return breach(at, format!("missing required {}", Value::from(key)));
        }
    }
    let properties = keywords.get("properties").and_then(Value::as_object);
    let additional = keywords.get("additionalProperties");
    for (key, field) in fields {
        let schema = match properties.and_then(|p| p.get(key)) {
            Some(schema) => schema,
            None => match additional {
                Some(Value::Bool(false)) => {
                    return breach(at, format!("unexpected {}", Value::from(key.as_str())));
                }
                Some(schema) => schema,
                None => continue,
            },
        };
        let len = at.len();
        at.push('/');
        at.push_str(&key.replace('~', "~0").replace('/', "~1"));
        check_at(schema, field, at)?;
        at.truncate(len);
    }
    Ok(())
}

/// The breach `why` at `at` (`/` for the message itself).
fn breach(at: &str, why: String) -> Result<(), MessageBreach> {
    let at = if at.is_empty() { "/" } else { at };
    Err(MessageBreach {
        at: at.to_string(),
        why,
    })
}

fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `type`'s names: one, or an array of them, each a JSON Schema type.
fn type_names(value: &Value) -> Option<Vec<&str>> {
    const TYPES: [&str; 7] = [
        "null", "boolean", "object", "array", "number", "string", "integer",
    ];
    let names: Vec<&str> = match value {
        Value::String(name) => vec![name.as_str()],
        Value::Array(names) => names.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    names
        .iter()
        .all(|name| TYPES.contains(name))
        .then_some(names)
}

/// Whether `value` is of JSON Schema type `name`: the type names, and what
/// counts as an integer, are `fit`'s (SPEC §6).
fn is_type(value: &Value, name: &str) -> bool {
    name == type_name(value) || (name == "number" && value.is_number())
}

/// Draft 2020-12's equality: numbers by value (`1` equals `1.0`), the rest
/// structurally.
fn json_equal(a: &Value, b: &Value) -> bool {
    json_order(a, b) == Ordering::Equal
}

/// The first two positions of equal items, in sorted order: n log n
/// comparisons, where comparing each pair would be n².
fn equal_pair(items: &[Value]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&x, &y| json_order(&items[x], &items[y]).then(x.cmp(&y)));
    order
        .windows(2)
        .filter(|pair| json_equal(&items[pair[0]], &items[pair[1]]))
        .map(|pair| (pair[0], pair[1]))
        .min()
}

/// A total order of JSON values whose equal is draft 2020-12's: by kind,
/// then numbers by value, strings by bytes, arrays item by item, objects
/// key by key (a `Map` iterates its keys in order). Parsing bounds the
/// depth, so the recursion is bounded too.
fn json_order(a: &Value, b: &Value) -> Ordering {
    fn rank(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Bool(_) => 1,
            Value::Number(_) => 2,
            Value::String(_) => 3,
            Value::Array(_) => 4,
            Value::Object(_) => 5,
        }
    }
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => compare(x, y),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => x
            .iter()
            .zip(y)
            .map(|(x, y)| json_order(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        (Value::Object(x), Value::Object(y)) => x
            .iter()
            .zip(y)
            .map(|((kx, vx), (ky, vy))| kx.cmp(ky).then_with(|| json_order(vx, vy)))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| x.len().cmp(&y.len())),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Two numbers by value, exactly: integers as integers, an integer and a
/// float by the float's integer part and then its fraction.
fn compare(x: &Number, y: &Number) -> Ordering {
    match (exact(x), exact(y)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => compare_float(x, y.as_f64().unwrap_or(0.0)),
        (None, Some(y)) => compare_float(y, x.as_f64().unwrap_or(0.0)).reverse(),
        (None, None) => {
            // JSON's floats are finite, so this order is total (-0 is 0).
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

fn exact(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// An integer against a finite float, exactly.
fn compare_float(int: i128, float: f64) -> Ordering {
    // Every i64 and u64 lies within ±2^64; past that the float decides.
    const BOUND: f64 = 18_446_744_073_709_551_616.0;
    if float >= BOUND {
        return Ordering::Less;
    }
    if float <= -BOUND {
        return Ordering::Greater;
    }
    let whole = float.trunc();
    int.cmp(&(whole as i128)).then_with(|| {
        let fraction = float - whole;
        if fraction > 0.0 {
            Ordering::Less
        } else if fraction < 0.0 {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::MessageKind;
    use super::*;

    fn schema_of(kind: MessageKind) -> Value {
        serde_json::from_str(kind.schema()).unwrap()
    }

    /// The first breach's place and words, or `None` when `message` fits.
    fn breach(kind: MessageKind, message: Value) -> Option<(String, String)> {
        check(&schema_of(kind), &message)
            .err()
            .map(|b| (b.at, b.why))
    }

    #[test]
    fn every_shipped_schema_is_one_this_module_checks() {
        for kind in MessageKind::ALL {
            assert_eq!(compile(&schema_of(kind)), Ok(()), "{}", kind.file());
        }
    }

    #[test]
    fn a_keyword_it_does_not_check_is_refused_not_skipped() {
        let pattern = json!({"properties": {"case": {"type": "string", "pattern": "^a"}}});
        assert_eq!(
            compile(&pattern),
            Err("#/properties/case/pattern: the harness does not check this keyword".into())
        );
        for bad in [
            json!({"minItems": -1}),
            json!({"type": "text"}),
            json!({"required": "case"}),
            json!({"items": 3}),
            json!({"uniqueItems": "yes"}),
        ] {
            assert!(compile(&bad).is_err(), "{bad}");
        }
        assert_eq!(compile(&json!(false)), Ok(()));
    }

    #[test]
    fn each_breach_is_named_where_it_is() {
        use MessageKind::*;
        let cases = [
            (Bye, json!([]), "/", "is array, expected object"),
            (Bye, json!({}), "/", "missing required \"cmd\""),
            (Bye, json!({"cmd": "hi"}), "/cmd", "must be \"bye\""),
            (Bye, json!({"cmd": "bye", "x": 1}), "/", "unexpected \"x\""),
            (
                Hello,
                json!({"cmd": "hello", "protocol": 2}),
                "/protocol",
                "must be 1",
            ),
            (
                Errored,
                json!({"case": "", "errored": "e"}),
                "/case",
                "is shorter than 1 character",
            ),
            (
                Outputs,
                json!({"case": "c", "outputs": ["a", 1.5]}),
                "/outputs/1",
                "is number, expected string",
            ),
            (
                Run,
                json!({"cmd": "run", "case": "c", "ops": [{"op": "session"}]}),
                "/ops/0/op",
                "must not be \"session\"",
            ),
            (
                Run,
                json!({"cmd": "run", "case": "c", "ops": [{"mode": "chat"}]}),
                "/ops/0",
                "missing required \"op\"",
            ),
            (
                HelloReply,
                json!({"implementation": {"name": "n", "version": "1", "language": "c"}, "contract": []}),
                "/contract",
                "has fewer than 1 item",
            ),
            (
                HelloReply,
                json!({"implementation": {"name": "n", "version": "1", "language": "c"}, "contract": [2, 3, 2.0]}),
                "/contract",
                "has equal items at 0 and 2",
            ),
            (
                HelloReply,
                json!({"implementation": {"name": "n", "version": "1", "language": "c"}, "contract": [0]}),
                "/contract/0",
                "is less than 1",
            ),
            (
                HelloReply,
                json!({"implementation": {"name": "n", "version": "1", "language": "c", "home/page~": 1}, "contract": [1]}),
                "/implementation",
                "unexpected \"home/page~\"",
            ),
        ];
        for (kind, message, at, why) in cases {
            assert_eq!(
                breach(kind, message.clone()),
                Some((at.to_string(), why.to_string())),
                "{message}"
            );
        }
        let fits = json!({"implementation": {"name": "n", "version": "1", "language": "c"}, "contract": [1, 2.0, 4]});
        assert_eq!(breach(HelloReply, fits), None);
    }

    #[test]
    fn types_are_draft_2020_12s() {
        let fits = |schema: Value, value: Value| check(&schema, &value).is_ok();
        assert!(fits(json!({"type": "number"}), json!(1)));
        assert!(fits(json!({"type": "integer"}), json!(1.0)));
        assert!(!fits(json!({"type": "integer"}), json!(1.5)));
        assert!(fits(json!({"type": ["string", "null"]}), json!(null)));
        assert!(!fits(json!({"type": ["string", "null"]}), json!(false)));
        assert!(!fits(json!(false), json!(null)));
    }

    #[test]
    fn a_place_is_a_json_pointer() {
        let schema = json!({"properties": {"a/b~": {"items": {"type": "string"}}}});
        let at = check(&schema, &json!({"a/b~": ["x", 2]})).map_err(|b| b.at);
        assert_eq!(at, Err("/a~1b~0/1".to_string()));
    }

    #[test]
    fn numbers_compare_by_value() {
        let n = |v: Value| match v {
            Value::Number(n) => n,
            _ => unreachable!(),
        };
        let order = |a: Value, b: Value| compare(&n(a), &n(b));
        assert_eq!(order(json!(1), json!(1.0)), Ordering::Equal);
        assert_eq!(order(json!(1), json!(1.5)), Ordering::Less);
        assert_eq!(order(json!(-1), json!(-1.5)), Ordering::Greater);
        assert_eq!(order(json!(-0.0), json!(0)), Ordering::Equal);
        assert_eq!(order(json!(u64::MAX), json!(i64::MIN)), Ordering::Greater);
        // 2^53 + 1 is no f64: exactly, it is above the float 2^53.
        assert_eq!(
            order(
                json!(9_007_199_254_740_993_u64),
                json!(9_007_199_254_740_992.0)
            ),
            Ordering::Greater
        );
        assert_eq!(order(json!(u64::MAX), json!(1e300)), Ordering::Less);
        assert_eq!(order(json!(i64::MIN), json!(-1e300)), Ordering::Greater);
    }

    /// A small deterministic generator of messages near a schema: the
    /// shapes it asks for, with values that break each keyword at a rate of
    /// `noise` per cent (0: none; every message of a 0 fits).
    struct Rng {
        state: u64,
        noise: usize,
    }

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            (self.state % n as u64) as usize
        }

        fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }

        /// Whether to break something here.
        fn noisy(&mut self) -> bool {
            self.noise > 0 && self.chance(self.noise)
        }

        /// One of `fitting`, or now and then one of `breaking`.
        fn pick(&mut self, fitting: &[Value], breaking: &[Value]) -> Value {
            if self.noisy() {
                breaking[self.below(breaking.len())].clone()
            } else {
                fitting[self.below(fitting.len())].clone()
            }
        }
    }

    fn wild(rng: &mut Rng) -> Value {
        let pool = [
            json!(null),
            json!(true),
            json!(0),
            json!(1),
            json!(-1),
            json!(1.0),
            json!(1.5),
            json!(2),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(""),
            json!("a"),
            json!("é"),
            json!("session"),
            json!("bye"),
            json!("hello"),
            json!([]),
            json!([1, 1.0]),
            json!({}),
            json!({"op": "x"}),
            json!({"op": "session"}),
        ];
        pool[rng.below(pool.len())].clone()
    }

    fn near(schema: &Value, rng: &mut Rng) -> Value {
        if rng.noisy() {
            return wild(rng);
        }
        if let Some(value) = schema.get("const") {
            return value.clone();
        }
        let kind = schema
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("string");
        match kind {
            "object" => {
                let mut fields = Map::new();
                let required = schema.get("required").cloned().unwrap_or(json!([]));
                for (key, property) in schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                {
                    let wanted = required.as_array().is_some_and(|r| r.contains(&json!(key)));
                    if (wanted && !rng.noisy()) || rng.chance(50) {
                        fields.insert(key.clone(), near(property, rng));
                    }
                }
                if rng.noisy() {
                    let key = ["extra", "elapsed_ms", "a/b", "op"][rng.below(4)];
                    fields.insert(key.into(), wild(rng));
                }
                Value::Object(fields)
            }
            "array" => {
                let item = schema.get("items").cloned().unwrap_or(json!(true));
                let mut items: Vec<Value> = (0..rng.below(4)).map(|_| near(&item, rng)).collect();
                if !items.is_empty() && rng.noisy() {
                    let again = items[rng.below(items.len())].clone();
                    items.push(again);
                }
                Value::Array(items)
            }
            "integer" => rng.pick(
                &[json!(1), json!(2), json!(3), json!(2.0), json!(u64::MAX)],
                &[json!(0), json!(-4), json!(1.5), json!(i64::MIN)],
            ),
            _ => rng.pick(
                &[json!("a"), json!("x y"), json!("é"), json!("~/")],
                &[json!(""), json!("session")],
            ),
        }
    }

    /// The oracle: on thousands of messages near each schema, this module's
    /// verdict is a full draft 2020-12 validator's, and the place it names
    /// is one the validator names too.
    #[test]
    fn verdicts_are_a_full_validators() {
        let mut rng = Rng {
            state: 0x9e37_79b9_7f4a_7c15,
            noise: 0,
        };
        for kind in MessageKind::ALL {
            let schema = schema_of(kind);
            let full = jsonschema::draft202012::new(&schema).unwrap();
            let (mut fitting, mut breaking) = (0, 0);
            for case in 0..4_000 {
                rng.noise = [0, 3, 10, 25][case % 4];
                let message = near(&schema, &mut rng);
                let places: Vec<String> = full
                    .iter_errors(&message)
                    .map(|e| match e.instance_path().to_string() {
                        at if at.is_empty() => "/".to_string(),
                        at => at,
                    })
                    .collect();
                match check(&schema, &message) {
                    Ok(()) => {
                        assert_eq!(places, Vec::<String>::new(), "{}: {message}", kind.file());
                        fitting += 1;
                    }
                    Err(breach) => {
                        assert!(
                            places.contains(&breach.at),
                            "{}: {message}: {breach:?} not in {places:?}",
                            kind.file()
                        );
                        breaking += 1;
                    }
                }
            }
            assert!(
                fitting >= 400 && breaking >= 400,
                "{}: {fitting} fit, {breaking} break",
                kind.file()
            );
        }
    }
}
