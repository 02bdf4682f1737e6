//! The same generators drawn straight from a seeded RNG, for `disclose
//! fuzz`: no value trees, so a case costs what drawing its values costs, and
//! shrinking is left to the driver, on failure only ([`SessionPlan::shrunk`]).
//!
//! Each function draws what the strategy of the same name generates, with
//! the same tables and weights, so the fuzzer and the property tests aim at
//! the same inputs; the strategies stay for the property tests, where
//! proptest's shrinking of every value is worth its cost.

use serde_json::{Map, Value, json};

use super::decl::{
    ADDRESSES, APPROVAL_WORDS, BULK_ORIGINS, BULK_STEMS, Decl, EFFECT_WORDS, UNKNOWN_APPROVALS,
    UNKNOWN_EFFECTS,
};
use super::requests::{ABOUTS, CALL_IDS, FAULTS, LITERAL_NAMES, ODD_ROUTES, PROVIDERS, SEPARATORS};
use super::schema::{KEYS, ODD_SCHEMAS, TYPES};
use super::session::{
    ArgsPlan, CallPlan, FaultPlan, Layout, Query, Request, Route, SessionPlan, Target,
};
use super::text::{
    BLANK, BOUNDARY_MIDS, BOUNDARY_TAILS, INVALID_NAMES, INVALID_ORIGINS, LONG_NAME_FILL,
    LONG_NAME_LENGTHS, ORIGINS, PIECES, SENTENCE_ENDS, SPECIAL_NAMES, STEMS, WORDS, variant,
};
use disclose::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
use disclose::{Mode, Profile};

/// SplitMix64: small, fast, and the same on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..hi` (`lo` when the range is empty).
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        match hi.checked_sub(lo).filter(|&n| n > 0) {
            Some(n) => lo + (self.next_u64() % n as u64) as usize,
            None => lo,
        }
    }

    /// An index drawn with these weights (the first when they are all 0).
    fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return 0;
        }
        let mut at = self.next_u64() % total;
        for (i, w) in weights.iter().enumerate() {
            if at < *w {
                return i;
            }
            at -= w;
        }
        0
    }

    /// One element of a non-empty slice.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.range(0, items.len())]
    }

    fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    fn usize(&mut self) -> usize {
        self.next_u64() as usize
    }
}

fn words(rng: &mut Rng, lo: usize, hi: usize, sep: &str) -> String {
    let n = rng.range(lo, hi);
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(rng.pick(WORDS));
    }
    out
}

/// [`super::text`]: glued pieces, sentences, blank text, boundary text,
/// long text.
pub fn text(rng: &mut Rng) -> String {
    match rng.weighted(&[4, 3, 1, 2, 1]) {
        0 => (0..rng.range(0, 10)).map(|_| rng.pick(PIECES)).collect(),
        1 => sentence(rng),
        2 => rng.pick(BLANK).to_string(),
        3 => boundary_text(rng),
        _ => long_text(rng),
    }
}

fn sentence(rng: &mut Rng) -> String {
    let words = words(rng, 1, 8, " ");
    format!("{words}{}", rng.pick(SENTENCE_ENDS))
}

fn boundary_text(rng: &mut Rng) -> String {
    let n = rng.range(74, 83);
    let mid = rng.pick(BOUNDARY_MIDS);
    let tail = rng.pick(BOUNDARY_TAILS);
    format!("{}{mid}{tail}", "a".repeat(n))
}

fn long_text(rng: &mut Rng) -> String {
    words(rng, 40, 120, " ")
}

/// [`super::raw_name`].
fn raw_name(rng: &mut Rng) -> String {
    match rng.weighted(&[10, 3, 1, 1, 1]) {
        0 => {
            let stem = rng.pick(STEMS);
            let case = rng.range(0, 3) as u8;
            variant(stem, case, rng.coin())
        }
        1 => rng.pick(SPECIAL_NAMES).to_string(),
        2 => rng.pick(LONG_NAME_FILL).repeat(rng.pick(LONG_NAME_LENGTHS)),
        3 => rng.pick(INVALID_NAMES).to_string(),
        _ => text(rng),
    }
}

/// [`super::origin`].
fn origin(rng: &mut Rng) -> String {
    match rng.weighted(&[6, 4, 1, 1]) {
        0 => "host".to_string(),
        1 => rng.pick(ORIGINS).to_string(),
        2 => rng.pick(INVALID_ORIGINS).to_string(),
        _ => "o".repeat(rng.pick(&[32, 33])),
    }
}

/// [`super::description`].
fn description(rng: &mut Rng) -> String {
    match rng.weighted(&[6, 2, 1, 2]) {
        0 => sentence(rng),
        1 => boundary_text(rng),
        2 => long_text(rng),
        _ => text(rng),
    }
}

fn property_schema(rng: &mut Rng) -> Value {
    match rng.weighted(&[5, 2, 1, 1, 1, 1, 1, 1]) {
        0 => json!({ "type": rng.pick(TYPES) }),
        1 => {
            let mut unique: Vec<&str> = Vec::new();
            for _ in 0..rng.range(1, 4) {
                let t = rng.pick(TYPES);
                if !unique.contains(&t) {
                    unique.push(t);
                }
            }
            json!({ "type": unique })
        }
        2 => json!({}),
        3 => json!({ "description": "free-form" }),
        4 => json!({
            "type": "object",
            "properties": { "inner": { "type": rng.pick(TYPES) } },
            "required": ["inner"],
        }),
        5 => json!({ "type": "string", "minLength": 2 }),
        6 => json!({ "enum": [1, "a"] }),
        _ => Value::Bool(rng.coin()),
    }
}

/// [`super::object_schema`].
fn object_schema(rng: &mut Rng) -> Value {
    let properties: Vec<(&str, Value)> = (0..rng.range(0, 4))
        .map(|_| (rng.pick(KEYS), property_schema(rng)))
        .collect();
    let required: Vec<&str> = (0..rng.range(0, 3)).map(|_| rng.pick(KEYS)).collect();
    let additional = match rng.weighted(&[2, 1, 2, 1]) {
        0 => None,
        1 => Some(json!(true)),
        2 => Some(json!(false)),
        _ => Some(json!({ "type": "string" })),
    };
    let typed = rng.weighted(&[4, 1]) == 0;
    let extra = match rng.weighted(&[6, 1, 1, 1, 1]) {
        0 => None,
        1 => Some(("minProperties", json!(1))),
        2 => Some(("maxProperties", json!(2))),
        3 => Some(("dependentRequired", json!({ "a": ["b"] }))),
        _ => Some(("patternProperties", json!({ "^x": { "type": "string" } }))),
    };
    super::schema::assemble(properties, required, additional, typed, extra)
}

/// [`super::schema`].
fn schema(rng: &mut Rng) -> Value {
    match rng.weighted(&[12, 1]) {
        0 => object_schema(rng),
        _ => serde_json::from_str(rng.pick(ODD_SCHEMAS)).unwrap_or(Value::Null),
    }
}

fn json_leaf(rng: &mut Rng) -> Value {
    match rng.range(0, 14) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(3),
        5 => json!(1.0),
        6 => json!(1.5),
        7 => json!(-0.5),
        8 => json!(1e300),
        9 => json!(u64::MAX),
        10 => json!(i64::MIN),
        11 => json!(""),
        12 => json!("x"),
        _ => json!("é\u{0}"),
    }
}

/// [`super::json_value`]: at most two levels deep.
fn json_value(rng: &mut Rng, depth: u32) -> Value {
    if depth == 0 {
        return json_leaf(rng);
    }
    match rng.weighted(&[2, 1, 1]) {
        0 => json_leaf(rng),
        1 => Value::Array(
            (0..rng.range(0, 3))
                .map(|_| json_value(rng, depth - 1))
                .collect(),
        ),
        _ => object(rng, 3, depth - 1),
    }
}

fn object(rng: &mut Rng, most: usize, depth: u32) -> Value {
    let mut map = Map::new();
    for _ in 0..rng.range(0, most + 1) {
        let key = rng.pick(KEYS).to_string();
        map.insert(key, json_value(rng, depth));
    }
    Value::Object(map)
}

/// [`super::args`].
fn args(rng: &mut Rng) -> Value {
    match rng.weighted(&[6, 1]) {
        0 => object(rng, 3, 2),
        _ => json_value(rng, 2),
    }
}

fn effect(rng: &mut Rng) -> Option<&'static str> {
    match rng.weighted(&[2, 4, 1]) {
        0 => None,
        1 => Some(rng.pick(EFFECT_WORDS)),
        _ => Some(rng.pick(UNKNOWN_EFFECTS)),
    }
}

fn approval(rng: &mut Rng) -> Option<&'static str> {
    match rng.weighted(&[2, 4, 1]) {
        0 => None,
        1 => Some(rng.pick(APPROVAL_WORDS)),
        _ => Some(rng.pick(UNKNOWN_APPROVALS)),
    }
}

/// [`super::tool_decl`].
fn tool_decl(rng: &mut Rng) -> ToolDecl {
    ToolDecl {
        origin: origin(rng),
        name: raw_name(rng),
        description: description(rng),
        input_schema: schema(rng).into(),
        effect: Effect::from_declared(effect(rng)),
        approval: Approval::from_declared(approval(rng)),
    }
}

/// A declared hash of `of`: absent, right, wrong, uppercase, not hex, short.
fn hash(rng: &mut Rng, of: &str) -> Option<String> {
    let right = || blake3::hash(of.as_bytes()).to_hex().to_string();
    match rng.weighted(&[3, 3, 1, 1, 1, 1]) {
        0 => None,
        1 => Some(right()),
        2 => Some(
            blake3::hash(format!("{of}!").as_bytes())
                .to_hex()
                .to_string(),
        ),
        3 => Some(right().to_ascii_uppercase()),
        4 => Some("not-a-hash".to_string()),
        _ => Some(right().get(..63).unwrap_or_default().to_string()),
    }
}

fn package(rng: &mut Rng) -> Option<String> {
    (rng.weighted(&[3, 1]) == 1).then(|| "pkg/skills".to_string())
}

/// [`super::decl`].
fn decl(rng: &mut Rng) -> Decl {
    match rng.weighted(&[10, 2, 2, 1]) {
        0 => {
            let decl = tool_decl(rng);
            let admitted = match rng.weighted(&[3, 1, 1]) {
                0 => None,
                1 => Some(true),
                _ => Some(false),
            };
            Decl::Tool { decl, admitted }
        }
        1 => {
            let name = raw_name(rng);
            let disclosure = description(rng);
            let address = rng.pick(ADDRESSES);
            Decl::Shelf(ShelfSkill {
                hash: hash(rng, address),
                name,
                disclosure,
                address: address.to_string(),
                package: package(rng),
            })
        }
        2 => {
            let name = raw_name(rng);
            let disclosure = description(rng);
            let body = text(rng);
            Decl::Carried(CarriedSkill {
                hash: hash(rng, &body),
                name,
                disclosure,
                body,
                package: package(rng),
            })
        }
        _ => Decl::Bulk {
            origin: rng.pick(BULK_ORIGINS).to_string(),
            stem: rng.pick(BULK_STEMS).to_string(),
            count: rng.range(8, 40),
            description: match rng.range(0, 3) {
                0 => sentence(rng),
                1 => boundary_text(rng),
                _ => long_text(rng),
            },
            schema: object_schema(rng),
        },
    }
}

fn target(rng: &mut Rng) -> Target {
    match rng.weighted(&[4, 1, 1]) {
        0 => Target::Declared(rng.usize()),
        1 => Target::Named(rng.pick(LITERAL_NAMES).to_string()),
        _ => Target::Named(raw_name(rng)),
    }
}

fn query(rng: &mut Rng) -> Query {
    match rng.weighted(&[3, 1, 3, 1, 1]) {
        0 => Query::Exact(target(rng)),
        1 => Query::Padded(target(rng)),
        2 => {
            let sep = rng.pick(SEPARATORS);
            Query::Keywords(words(rng, 1, 4, sep))
        }
        3 => Query::Odd(match rng.range(0, 8) {
            0 => String::new(),
            1 => "   ".to_string(),
            2 => "a".repeat(256),
            3 => "a".repeat(257),
            4 => "é".repeat(129),
            5 => "a\u{0}b".to_string(),
            6 => "tab\there".to_string(),
            _ => "\u{7f}".to_string(),
        }),
        _ => Query::Odd(text(rng)),
    }
}

fn call_plan(rng: &mut Rng) -> CallPlan {
    let id = rng.pick(CALL_IDS).to_string();
    let route = match rng.weighted(&[3, 2, 1]) {
        0 => Route::Through,
        1 => Route::Direct,
        _ => rng.pick(ODD_ROUTES),
    };
    let target = match rng.weighted(&[4, 1]) {
        0 => Target::Tool(rng.usize()),
        _ => target(rng),
    };
    let args = match rng.weighted(&[3, 2]) {
        0 => ArgsPlan::Fitting(rng.next_u64()),
        _ => ArgsPlan::Given(args(rng)),
    };
    CallPlan {
        id,
        route,
        target,
        args,
    }
}

fn request(rng: &mut Rng) -> Request {
    match rng.weighted(&[2, 1, 1, 1, 4, 1, 5, 1, 1]) {
        0 => Request::Render,
        1 => Request::ToolDefs(rng.pick(PROVIDERS)),
        2 => Request::Pins,
        3 => Request::Digests,
        4 => Request::Describe(query(rng)),
        5 => Request::Expand(target(rng)),
        6 => Request::Call(call_plan(rng)),
        7 => Request::SwitchMode(rng.pick(&Mode::ALL)),
        _ => Request::Admit(decl(rng)),
    }
}

/// [`super::session_plan`]: up to 6 declarations (one in fifteen a bulk),
/// perhaps a dev line, a start in either mode and perhaps as a child, up to
/// 9 requests, and one fault in ten.
pub fn session_plan(rng: &mut Rng) -> SessionPlan {
    let about = rng.pick(ABOUTS).to_string();
    let decls = match rng.weighted(&[1, 12]) {
        0 => Vec::new(),
        _ => (0..rng.range(1, 7)).map(|_| decl(rng)).collect(),
    };
    let dev = (rng.weighted(&[4, 1]) == 1).then(|| text(rng));
    let mode = rng.pick(&Mode::ALL);
    let profile = match rng.weighted(&[3, 1]) {
        0 => None,
        _ => Some(rng.pick(&Profile::ALL)),
    };
    let requests = (0..rng.range(0, 10)).map(|_| request(rng)).collect();
    let fault = match rng.weighted(&[9, 1]) {
        0 => None,
        _ => Some(FaultPlan {
            fault: rng.pick(FAULTS),
            at: rng.usize(),
        }),
    };
    let layout = Layout {
        crlf: rng.weighted(&[7, 1]) == 1,
        blank_after: (rng.weighted(&[5, 1]) == 1).then(|| rng.usize()),
        final_newline: rng.weighted(&[5, 1]) == 0,
    };
    SessionPlan {
        about,
        decls,
        dev,
        mode,
        profile,
        requests,
        fault,
        layout,
        shuffle: rng.next_u64(),
        spelling: rng.next_u64(),
    }
}
