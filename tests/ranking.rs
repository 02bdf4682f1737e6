//! Property tests of `describe`'s ranking (SPEC §5, contract version 3),
//! on generated catalogs and queries.
//!
//! Everything the properties compare against is written here again from
//! the spec's text — the words (with the camelCase split), the 75 stopwords,
//! the three fields with the params, `df` over stems and `dfv` over words,
//! the weight as an exact integer inequality, the WordPiece split, the
//! vectors, `isqrt`, the floored cosine, the fusion and the order — never
//! asked of the code under test. Only `stem` is the library's: it is pinned
//! line by line by `contract3/stems.tsv` (tests/contract3.rs), and the
//! vocabulary and the rows are read here from the shipped files. The
//! ranking is read from `describe`'s output, the bytes a model sees.
//!
//! Every property runs 1,000 cases unless `PROPTEST_CASES` says otherwise.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use disclose::contract3::pieces;
use disclose::search::{STOPWORDS, floor_div, isqrt, weight};
use disclose::stem::stem;
use disclose::{Approval, Catalog, Effect, Mode, Profile, Run, ShelfSkill, ToolDecl};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::json;

/// 1,000 cases, or `PROPTEST_CASES`.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// SPEC §5, written out again.

/// The stopwords exactly as SPEC §5 prints them.
const SPEC_STOPWORDS: &str = "a about all an and any are as at be but by can could did do does \
    for from he her his how i if in into is it its like me my need no not of on or our please \
    she should so some such than that the their them then there these they this to too us very \
    want was we what when where which who whom why will with would you your";

fn spec_stopwords() -> BTreeSet<&'static str> {
    SPEC_STOPWORDS.split_whitespace().collect()
}

/// The doors' descriptions and the keys of their input schemas (SPEC §1):
/// they are candidates too.
const DOORS: [(&str, &str, &[&str]); 2] = [
    (
        "describe",
        "Find a capability by exact name for its full guide, or by keywords for a ranked list.",
        &["name"],
    ),
    (
        "call",
        "Run a dormant tool by name; its args are checked against that tool's input schema first.",
        &["args", "name"],
    ),
];

/// `words(s)` as a list: maximal alphanumeric runs, split again between
/// an ASCII lowercase letter or digit and an ASCII uppercase letter, each
/// character lowercased on its own; every occurrence, in order.
fn spec_word_list(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut last: Option<char> = None;
    for c in s.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            last = None;
            continue;
        }
        if let Some(p) = last
            && (p.is_ascii_lowercase() || p.is_ascii_digit())
            && c.is_ascii_uppercase()
        {
            words.push(std::mem::take(&mut word));
        }
        for l in c.to_lowercase() {
            word.push(l);
        }
        last = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// The vocabulary (entry → its first line) and the rows.
type Data = (BTreeMap<String, usize>, Vec<[i64; 128]>);

/// The vocabulary and the rows, from the files.
fn spec_vocabulary() -> &'static Data {
    static DATA: OnceLock<Data> = OnceLock::new();
    DATA.get_or_init(|| {
        let text = include_str!("../crates/disclose/contract3/wordpiece.txt");
        let bytes = include_bytes!("../crates/disclose/contract3/vectors.i8");
        let mut entries = BTreeMap::new();
        for (line, entry) in text.lines().enumerate() {
            entries.entry(entry.to_string()).or_insert(line);
        }
        let rows = bytes
            .chunks(128)
            .map(|row| std::array::from_fn(|i| i64::from(row[i] as i8)))
            .collect();
        (entries, rows)
    })
}

/// `pieces(w)`, greedily, over every end from the longest down: no bound
/// on an entry's length, a new string per try.
fn spec_pieces(word: &str) -> Vec<usize> {
    let (entries, _) = spec_vocabulary();
    let chars: Vec<char> = word.chars().collect();
    if chars.len() > 100 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut from = 0;
    while from < chars.len() {
        let mut found = None;
        for end in (from + 1..=chars.len()).rev() {
            let piece: String = chars[from..end].iter().collect();
            let key = if from == 0 {
                piece
            } else {
                format!("##{piece}")
            };
            if let Some(&line) = entries.get(&key) {
                found = Some((end, line));
                break;
            }
        }
        match found {
            Some((end, line)) => {
                out.push(line);
                from = end;
            }
            None => return Vec::new(),
        }
    }
    out
}

/// `isqrt` by bisection.
fn spec_isqrt(x: u128) -> u128 {
    let (mut lo, mut hi) = (0u128, 1u128 << 64);
    // lo² ≤ x < hi²
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mid.checked_mul(mid).is_some_and(|m| m <= x) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// `⌊a / b⌋` for `b > 0`, from the truncating quotient.
fn spec_floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a < 0 { q - 1 } else { q }
}

/// A candidate as the test sees it: its name and its three fields.
#[derive(Clone, Debug)]
struct Candidate {
    name: String,
    name_words: Vec<String>,
    text_words: Vec<String>,
    param_words: Vec<String>,
}

impl Candidate {
    fn new(name: &str, text: &str, schema: Option<&serde_json::Value>) -> Candidate {
        let mut param_words = Vec::new();
        if let Some(properties) = schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.as_object())
        {
            for (key, value) in properties {
                param_words.extend(spec_word_list(key));
                if let Some(d) = value.get("description").and_then(|d| d.as_str()) {
                    param_words.extend(spec_word_list(d));
                }
            }
        }
        Candidate {
            name: name.to_string(),
            name_words: spec_word_list(name),
            text_words: spec_word_list(text),
            param_words,
        }
    }

    fn stems(words: &[String]) -> BTreeSet<String> {
        words.iter().map(|w| stem(w).into_owned()).collect()
    }

    /// Name, text and params, stopwords out, every occurrence kept.
    fn vector_words(&self) -> Vec<String> {
        let stop = spec_stopwords();
        (self
            .name_words
            .iter()
            .chain(&self.text_words)
            .chain(&self.param_words))
        .filter(|w| !stop.contains(w.as_str()))
        .cloned()
        .collect()
    }
}

/// The weight as the least `w` with `(N+1)² < 2^w · df²` (df ≥ 1), or
/// `(N+1)² < 2^w` (df = 0), found by counting up rather than by a bit
/// length.
fn spec_weight(n: u128, df: u128) -> u32 {
    let top = (n + 1) * (n + 1);
    let below = if df == 0 { 1 } else { df * df };
    let mut w = 1;
    while (1u128 << w) * below <= top {
        w += 1;
    }
    w
}

/// The vector of a list of words: Σ weight(dfv(w)) · Σ rows of pieces(w).
fn spec_vector(words: &[String], dfv: &dyn Fn(&str) -> u128, n: u128) -> Vec<i64> {
    let (_, rows) = spec_vocabulary();
    let mut v = vec![0i64; 128];
    for w in words {
        let weight = i64::from(spec_weight(n, dfv(w)));
        for p in spec_pieces(w) {
            for (x, r) in v.iter_mut().zip(rows[p].iter()) {
                *x += weight * r;
            }
        }
    }
    v
}

fn spec_dot(a: &[i64], b: &[i64]) -> i128 {
    a.iter()
        .zip(b)
        .map(|(x, y)| i128::from(*x) * i128::from(*y))
        .sum()
}

/// SPEC §5's scores, by candidate.
fn spec_scores(query: &str, candidates: &[Candidate]) -> Vec<i128> {
    let n = candidates.len() as u128;
    let stop = spec_stopwords();
    let mut q: Vec<String> = Vec::new();
    for w in spec_word_list(query.trim()) {
        if !stop.contains(w.as_str()) && !q.contains(&w) {
            q.push(w);
        }
    }
    let fields: Vec<[BTreeSet<String>; 3]> = candidates
        .iter()
        .map(|c| {
            [
                Candidate::stems(&c.name_words),
                Candidate::stems(&c.text_words),
                Candidate::stems(&c.param_words),
            ]
        })
        .collect();
    let df = |t: &str| {
        fields
            .iter()
            .filter(|f| f.iter().any(|s| s.contains(t)))
            .count() as u128
    };
    let query_stems: BTreeSet<String> = q
        .iter()
        .map(|w| stem(w).into_owned())
        .filter(|t| df(t) > 0)
        .collect();
    let lex: Vec<u128> = fields
        .iter()
        .map(|[name, text, params]| {
            query_stems
                .iter()
                .map(|t| {
                    let hit = 3 * u128::from(name.contains(t))
                        + u128::from(text.contains(t))
                        + u128::from(params.contains(t));
                    u128::from(spec_weight(n, df(t))) * hit
                })
                .sum()
        })
        .collect();
    let vector_words: Vec<Vec<String>> = candidates.iter().map(Candidate::vector_words).collect();
    let dfv = |w: &str| {
        vector_words
            .iter()
            .filter(|ws| ws.iter().any(|x| x == w))
            .count() as u128
    };
    let vq = spec_vector(&q, &dfv, n);
    let nq = spec_isqrt(spec_dot(&vq, &vq) as u128) as i128;
    let l = lex.iter().copied().max().unwrap_or(0);
    (lex.iter().zip(&vector_words))
        .map(|(&lex, words)| {
            let vc = spec_vector(words, &dfv, n);
            let nc = spec_isqrt(spec_dot(&vc, &vc) as u128) as i128;
            let cos = if nq > 0 && nc > 0 {
                spec_floor(1024 * spec_dot(&vq, &vc), nq * nc)
            } else {
                0
            };
            let keyword = (1024 * lex).checked_div(l).unwrap_or(0) as i128;
            keyword + 2 * cos
        })
        .collect()
}

/// SPEC §5's ranking: names, best first, at most 8.
fn spec_ranking(query: &str, candidates: &[Candidate]) -> Vec<String> {
    let scores = spec_scores(query, candidates);
    let mut scored: Vec<(i128, &str)> = (scores.into_iter().zip(candidates))
        .map(|(score, c)| (score, c.name.as_str()))
        .filter(|(score, _)| *score > 0)
        .collect();
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
    });
    scored
        .into_iter()
        .take(8)
        .map(|(_, n)| n.to_string())
        .collect()
}

// ---------------------------------------------------------------------------
// Catalogs and queries.

/// Words that make names, texts and queries collide often: shared nouns,
/// stopwords, camelCase compounds, an HTTPServer-style acronym, digits.
const VOCABULARY: &[&str] = &[
    "issue",
    "Issue",
    "issues",
    "create",
    "list",
    "file",
    "File",
    "read",
    "the",
    "to",
    "for",
    "weather",
    "getWeather",
    "forecast",
    "HTTPServer",
    "server",
    "s3Upload",
    "upload",
    "pull",
    "request",
    "v2API",
    "api",
    "Ünïcode",
    "ÜNÏCODE",
    // Stems, other words for the same thing, a word with no vector (an
    // unmatched character), a word past 100 characters.
    "organizing",
    "organize",
    "added",
    "add",
    "altitude",
    "elevation",
    "timezone",
    "zone",
    "forecasts",
    "ꙮꙮ",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

/// A declaration: a tool (origin, raw name, text, effect, params) or a
/// skill.
#[derive(Clone, Debug)]
enum Decl {
    Tool(String, String, String, &'static str, serde_json::Value),
    Skill(String, String),
}

/// An input schema whose properties are drawn keys, some with a drawn
/// description, one with a description that is not a string; or no
/// properties object at all.
fn schema() -> impl Strategy<Value = serde_json::Value> {
    let property = (
        name(),
        prop_oneof![
            2 => text().prop_map(|d| json!({"type": "string", "description": d})),
            1 => Just(json!({"type": "integer"})),
            1 => Just(json!({"description": 7})),
            1 => Just(json!(true)),
        ],
    );
    prop_oneof![
        3 => vec(property, 0..4).prop_map(|ps| {
            let properties: serde_json::Map<String, serde_json::Value> = ps.into_iter().collect();
            json!({"type": "object", "properties": properties})
        }),
        1 => Just(json!({"type": "object"})),
        1 => Just(json!({"type": "object", "properties": []})),
    ]
}

fn phrase(min: usize, max: usize) -> impl Strategy<Value = Vec<&'static str>> {
    vec(select(VOCABULARY), min..=max)
}

/// A name joined from vocabulary words with `_`, `-` or nothing; names
/// that break SPEC §2 (non-ASCII, collisions) are refused at admission and
/// simply are not candidates.
fn name() -> impl Strategy<Value = String> {
    (phrase(1, 3), select(&["_", "-", ""][..])).prop_map(|(words, sep)| words.join(sep))
}

fn text() -> impl Strategy<Value = String> {
    phrase(1, 6).prop_map(|w| w.join(" "))
}

fn decl() -> impl Strategy<Value = Decl> {
    prop_oneof![
        4 => (
            select(&["host", "gh", "linear"][..]),
            name(),
            text(),
            select(&["read", "reversible", "irreversible"][..]),
            schema(),
        )
            .prop_map(|(o, n, t, e, s)| Decl::Tool(o.to_string(), n, t, e, s)),
        1 => (name(), text()).prop_map(|(n, t)| Decl::Skill(n, t)),
    ]
}

fn query() -> impl Strategy<Value = String> {
    let extra = select(&["zebra", "the", "a", "ISSUE", "getIssue", "list_issues"][..]);
    (phrase(1, 3), vec(extra, 0..2))
        .prop_map(|(mut words, extra)| {
            words.extend(extra);
            words.join(" ")
        })
        // Three of the 108-byte word pass the limit: such a query is
        // `describe.query`, not a ranking (SPEC §5's validation).
        .prop_filter("a valid query", |q| q.len() <= disclose::QUERY_MAX_BYTES)
}

/// Admits `decls` in order (refusals skipped) and starts the run, as a
/// scout child when `child`. Returns the run and its candidates as the spec
/// defines them: offered tools (doors included) and skills.
fn started(decls: &[Decl], child: bool) -> (Run, Vec<Candidate>) {
    let mut catalog = Catalog::new();
    let mut candidates: Vec<Candidate> = DOORS
        .iter()
        .map(|(n, t, keys)| {
            let properties: serde_json::Map<String, serde_json::Value> = keys
                .iter()
                .map(|k| (k.to_string(), json!({"type": "object"})))
                .collect();
            Candidate::new(n, t, Some(&json!({ "properties": properties })))
        })
        .collect();
    for decl in decls {
        match decl {
            Decl::Tool(origin, name, text, effect, schema) => {
                let decl = ToolDecl {
                    origin: origin.clone(),
                    name: name.clone(),
                    description: text.clone(),
                    input_schema: schema.clone().into(),
                    effect: Effect::from_declared(Some(effect)),
                    approval: Approval::Never,
                };
                if let Ok(tool) = catalog.admit_tool(&decl) {
                    // SPEC §8: a scout is offered `read` tools only here.
                    if !child || *effect == "read" {
                        candidates.push(Candidate::new(tool.name(), text, Some(schema)));
                    }
                }
            }
            Decl::Skill(name, text) => {
                let decl = ShelfSkill {
                    name: name.clone(),
                    disclosure: text.clone(),
                    address: "s.md".to_string(),
                    hash: None,
                    package: None,
                };
                if catalog.admit_skill(&decl).is_ok() {
                    candidates.push(Candidate::new(name, text, None));
                }
            }
        }
    }
    let run = if child {
        catalog.start_child(Mode::Chat, Profile::Scout)
    } else {
        catalog.start(Mode::Chat)
    };
    (run, candidates)
}

/// The names `describe` lists for `query`, read from its output; `None`
/// for the no-match line.
fn listed(run: &Run, query: &str) -> Option<Vec<String>> {
    let out = run.describe(query).expect("generated queries are valid");
    let (head, rest) = out.split_once('\n').expect("one line at least");
    if head.ends_with(", and nothing matched") {
        assert_eq!(rest, "");
        return None;
    }
    assert!(head.ends_with("; closest matches:"), "{out}");
    Some(
        rest.lines()
            .map(|line| {
                let line = line.strip_prefix("- ").expect("a hit line");
                let line = line.strip_prefix("skill ").unwrap_or(line);
                line.split_once(':').expect("name: hint").0.to_string()
            })
            .collect(),
    )
}

/// Generated queries that happen to be an exact name get a guide, not a
/// ranking; the properties are about rankings.
fn is_exact(run: &Run, query: &str) -> bool {
    run.tool(query.trim()).is_some() || run.skill(query.trim()).is_some()
}

proptest! {
    #![proptest_config(config())]

    /// `2^(w-1) ≤ (N+1)²/df² < 2^w`, as `2^(w-1)·df² ≤ (N+1)² < 2^w·df²`
    /// in exact integers, and the weight never rises as `df` rises.
    #[test]
    fn weight_is_the_bit_length_of_the_squared_ratio(
        n in prop_oneof![1usize..64, 1usize..100_000, 1usize..(1 << 40)],
        a in any::<u64>(),
        b in any::<u64>(),
    ) {
        let df1 = (a % n as u64) as usize + 1;
        let df2 = (b % n as u64) as usize + 1;
        let (lo, hi) = (df1.min(df2), df1.max(df2));
        let w = weight(n, lo);
        prop_assert!((1..=128).contains(&w));
        let top = (n as u128 + 1) * (n as u128 + 1);
        let df2 = (lo as u128) * (lo as u128);
        prop_assert!((1u128 << (w - 1)).checked_mul(df2).is_some_and(|v| v <= top));
        prop_assert!((1u128 << w).checked_mul(df2).is_none_or(|v| top < v));
        prop_assert!(weight(n, hi) <= w, "weight rose from df {lo} to {hi}");
        if n < 1 << 20 {
            prop_assert_eq!(w, spec_weight(n as u128, lo as u128));
            prop_assert_eq!(weight(n, 0), spec_weight(n as u128, 0));
        }
        // df = 0 weighs (N+1)²'s bit length: at least df = 1's.
        let zero = weight(n, 0);
        prop_assert!((1u128 << (zero - 1)) <= top && top < (1u128 << zero));
        prop_assert!(zero >= weight(n, 1));
    }

    /// SPEC §2: rendering and answers do not depend on admission order
    /// where no refusal does. Declarations that collide are dropped first,
    /// so every order admits the same set.
    #[test]
    fn ranking_is_independent_of_admission_order(
        decls in vec(decl(), 1..24),
        order in any::<u64>(),
        queries in vec(query(), 1..6),
        child in any::<bool>(),
    ) {
        // Keep the first declaration of each normalization key only.
        let mut keys = BTreeSet::new();
        let kept: Vec<Decl> = decls
            .into_iter()
            .filter(|d| {
                let name = match d {
                    Decl::Tool(o, n, ..) if o == "host" => n.clone(),
                    Decl::Tool(o, n, ..) => format!("{o}__{n}"),
                    Decl::Skill(n, _) => n.clone(),
                };
                keys.insert(name.to_ascii_lowercase().replace('-', "_"))
            })
            .collect();
        let mut shuffled = kept.clone();
        // A deterministic shuffle from the generated seed.
        let mut state = order | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            shuffled.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let (one, _) = started(&kept, child);
        let (other, _) = started(&shuffled, child);
        for q in &queries {
            prop_assert_eq!(one.describe(q), other.describe(q), "query {:?}", q);
        }
    }

    /// Two candidates whose names and texts have the same words score the
    /// same: listed in name order, with only same-score candidates (so
    /// names between theirs) between them; when only one is listed, it is
    /// the first by name and the list was full.
    #[test]
    fn equal_words_tie_in_name_order(
        decls in vec(decl(), 0..16),
        twin in (phrase(2, 3), phrase(1, 5)),
        q in query(),
    ) {
        let (name_words, text_words) = twin;
        let text = text_words.join(" ");
        let mut reversed = name_words.clone();
        reversed.reverse();
        // The same name words in another order and joint (`_` against
        // `__`, so even a palindrome gets another normalization key).
        let a = name_words.join("_");
        let b = reversed.join("__");
        let schema = json!({"type": "object", "properties": {"repo": {"description": text}}});
        let mut all = vec![Decl::Tool("twin".into(), a.clone(), text.clone(), "read", schema.clone())];
        all.push(Decl::Tool("twin".into(), b.clone(), text.clone(), "read", schema));
        all.extend(decls);
        let (run, _) = started(&all, false);
        let (a, b) = (format!("twin__{a}"), format!("twin__{b}"));
        prop_assume!(run.tool(&a).is_some() && run.tool(&b).is_some());
        prop_assume!(!is_exact(&run, &q));
        let hits = listed(&run, &q).unwrap_or_default();
        let (first, second) = if a.as_bytes() < b.as_bytes() { (a, b) } else { (b, a) };
        let at = |name: &str| hits.iter().position(|h| h == name);
        match (at(&first), at(&second)) {
            (Some(i), Some(j)) => {
                prop_assert!(i < j, "{first} after {second}: {hits:?}");
                for between in &hits[i + 1..j] {
                    prop_assert!(
                        first.as_bytes() < between.as_bytes()
                            && between.as_bytes() < second.as_bytes(),
                        "{between} sits between tied {first} and {second}: {hits:?}"
                    );
                }
            }
            (Some(i), None) => {
                prop_assert_eq!(hits.len(), 8, "{} listed without its twin: {:?}", first, hits);
                for after in &hits[i + 1..] {
                    prop_assert!(
                        first.as_bytes() < after.as_bytes() && after.as_bytes() < second.as_bytes(),
                        "{after} of another score follows {first}: {hits:?}"
                    );
                }
            }
            (None, Some(_)) => prop_assert!(false, "{second} listed before {first}: {hits:?}"),
            (None, None) => {}
        }
    }

    /// The whole ranking, byte for byte, equals SPEC §5 read again here.
    #[test]
    fn ranking_is_section_5_read_independently(
        decls in vec(decl(), 1..24),
        q in query(),
        child in any::<bool>(),
    ) {
        let (run, candidates) = started(&decls, child);
        prop_assume!(!is_exact(&run, &q));
        let expected = spec_ranking(&q, &candidates);
        prop_assert_eq!(listed(&run, &q).unwrap_or_default(), expected, "query {:?}", q);
    }

    /// A run asked many queries answers each from what its first one
    /// built: every answer is SPEC §5 read independently.
    #[test]
    fn every_answer_of_a_long_run_is_section_5(
        decls in vec(decl(), 1..24),
        queries in vec(query(), 2..8),
        child in any::<bool>(),
    ) {
        let (run, candidates) = started(&decls, child);
        for q in queries.iter().filter(|q| !is_exact(&run, q)) {
            let expected = spec_ranking(q, &candidates);
            prop_assert_eq!(listed(&run, q).unwrap_or_default(), expected, "query {:?}", q);
        }
    }

    /// `pieces` is the greedy split written here, on words drawn from
    /// vocabulary fragments, ASCII, other scripts and long runs.
    #[test]
    fn pieces_are_the_greedy_split(
        parts in vec(prop_oneof![
            select(&["un", "afford", "able", "ness", "##", "organ", "iz", "ing", "q", "x", "é", "ß", "中", "ꙮ", "7"][..]).prop_map(str::to_string),
            "[a-z]{1,12}",
            "[a-zà-ÿ0-9]{1,6}",
        ], 1..12),
        long in 0usize..3,
    ) {
        let mut word: String = parts.concat();
        if long == 2 {
            word = word.repeat(101 / word.chars().count().max(1) + 1);
        }
        let want: Vec<u32> = spec_pieces(&word).into_iter().map(|p| p as u32).collect();
        prop_assert_eq!(pieces(&word), want, "{:?}", word);
    }

    /// `isqrt(x)² ≤ x < (isqrt(x)+1)²` on any u128.
    #[test]
    fn isqrt_is_the_largest_root(x in any::<u128>(), small in 0u128..1 << 20) {
        for x in [x, small, x >> 64, x >> 100] {
            let r = isqrt(x);
            prop_assert!(r.checked_mul(r).is_some_and(|s| s <= x), "{x}: {r}");
            prop_assert!((r + 1).checked_mul(r + 1).is_none_or(|s| x < s), "{x}: {r}");
            prop_assert_eq!(r, spec_isqrt(x));
        }
    }

    /// The cosine's division is the floor, also for a negative dot
    /// product.
    #[test]
    fn the_division_is_floored(a in any::<i64>(), b in 1i64..i64::MAX) {
        let (a, b) = (i128::from(a), i128::from(b));
        let q = floor_div(a, b);
        prop_assert!(q * b <= a && a < (q + 1) * b, "{a} / {b}: {q}");
        prop_assert_eq!(q, spec_floor(a, b));
    }
}

#[test]
fn the_library_stopwords_are_the_spec_s() {
    let library: BTreeSet<&str> = STOPWORDS.iter().copied().collect();
    assert_eq!(library, spec_stopwords());
    assert_eq!(STOPWORDS.len(), 75);
}
