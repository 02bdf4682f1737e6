//! Property tests of `describe`'s ranking (SPEC §5, contract version 5),
//! on generated catalogs and queries, against the test kit's readable
//! model of §5 (`disclose_testkit::model::ranking`, the fuzzer's reference
//! too): the words (with the camelCase split and the CJK characters and
//! pairs), the 75 stopwords, the three fields with the params, `df` over
//! stems and `dfv` over words, the weight, the parts (by presence, or a
//! CJK stem's saturated occurrences), the WordPiece split (none for a CJK
//! word), the vectors, `isqrt`, the floored cosine, the fusion with the
//! cosine in proportion and the order, all written apart from the library. Only
//! `stem` is the library's: it is pinned line by line by
//! `contract4/stems.tsv` (tests/contract4.rs). The ranking is read from
//! `describe`'s output, the bytes a model sees.
//!
//! Every property runs 1,000 cases unless `PROPTEST_CASES` says otherwise.

use std::collections::BTreeSet;

use disclose::internals::contract4;
use disclose::internals::search::{STOPWORDS, floor_div, isqrt, pieces, saturation, weight};
use disclose::{Approval, Catalog, Effect, Mode, Profile, Run, ShelfSkill, ToolDecl};
use disclose_testkit::model::{self, Candidate, Search};
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

/// The stopwords exactly as SPEC §5 prints them.
const SPEC_STOPWORDS: &str = "a about all an and any are as at be but by can could did do does \
    for from he her his how i if in into is it its like me my need no not of on or our please \
    she should so some such than that the their them then there these they this to too us very \
    want was we what when where which who whom why will with would you your";

fn spec_stopwords() -> BTreeSet<&'static str> {
    SPEC_STOPWORDS.split_whitespace().collect()
}

/// SPEC §5's ranking of `query` by the model: names, best first, at
/// most 8.
fn spec_ranking(query: &str, search: &Search) -> Vec<String> {
    (search.rank(query.trim()).into_iter())
        .map(|c| c.name().to_string())
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

/// Words of texts and queries only (a name of them is refused), for
/// contract 5: Chinese, Japanese and Korean runs that share characters and
/// pairs, a run glued to Latin letters, kana, Hangul, and the characters at
/// the ranges' ends (U+9FFF is CJK, U+A000 and U+3005 are alphanumeric and
/// not).
const CJK_VOCABULARY: &[&str] = &[
    "读取文件",
    "文件",
    "读取文件的全部内容",
    "创建会议",
    "会议",
    "日历中的会议",
    "mcp服务器",
    "服务器",
    "ファイルを読む",
    "ファイル",
    "파일 읽기",
    "파일",
    "\u{9FFF}\u{9FFF}",
    "\u{A000}\u{9FFF}",
    "人々",
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

/// Words of a text or a query: any of [`VOCABULARY`] or
/// [`CJK_VOCABULARY`], CJK ones one time in three.
fn words(min: usize, max: usize) -> impl Strategy<Value = Vec<&'static str>> {
    let word = prop_oneof![2 => select(VOCABULARY), 1 => select(CJK_VOCABULARY)];
    vec(word, min..=max)
}

fn text() -> impl Strategy<Value = String> {
    words(1, 6).prop_map(|w| w.join(" "))
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
    let extra = select(
        &[
            "zebra",
            "the",
            "a",
            "ISSUE",
            "getIssue",
            "list_issues",
            "文件",
            "会",
        ][..],
    );
    (words(1, 3), vec(extra, 0..2))
        .prop_map(|(mut words, extra)| {
            words.extend(extra);
            words.join(" ")
        })
        // Three of the 108-byte word pass the limit: such a query is
        // `describe.query`, not a ranking (SPEC §5's validation).
        .prop_filter("a valid query", |q| q.len() <= disclose::QUERY_MAX_BYTES)
}

/// Admits `decls` in order (refusals skipped) and starts the run, as a
/// scout child when `child`. Returns the run and the model's search over
/// its candidates as the spec defines them: offered tools (the model adds
/// the doors) and skills.
fn started(decls: &[Decl], child: bool) -> (Run, Search) {
    let mut catalog = Catalog::new();
    let (mut tools, mut skills) = (Vec::new(), Vec::new());
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
                        tools.push(Candidate::Tool {
                            name: tool.name().to_string(),
                            description: text.clone(),
                            schema: schema.clone(),
                        });
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
                    skills.push(Candidate::Skill {
                        name: name.clone(),
                        disclosure: text.clone(),
                    });
                }
            }
        }
    }
    let run = if child {
        catalog.start_child(Mode::Chat, Profile::Scout)
    } else {
        catalog.start(Mode::Chat)
    };
    (run, Search::new(tools, skills))
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
            prop_assert_eq!(w, model::weight(n, lo));
            prop_assert_eq!(weight(n, 0), model::weight(n, 0));
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
        twin in (phrase(2, 3), words(1, 5)),
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
        let (run, search) = started(&decls, child);
        prop_assume!(!is_exact(&run, &q));
        let expected = spec_ranking(&q, &search);
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
        let (run, search) = started(&decls, child);
        for q in queries.iter().filter(|q| !is_exact(&run, q)) {
            let expected = spec_ranking(q, &search);
            prop_assert_eq!(listed(&run, q).unwrap_or_default(), expected, "query {:?}", q);
        }
    }

    /// `pieces` is the greedy split written here, on words drawn from
    /// vocabulary fragments, ASCII, other scripts and long runs; a CJK
    /// word has none, though the vocabulary splits some.
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
        let want: Vec<u32> = model::pieces(&word).into_iter().map(|p| p as u32).collect();
        prop_assert_eq!(pieces(&word), want, "{:?}", word);
        let split: Vec<u32> = model::wordpiece(&word).into_iter().map(|p| p as u32).collect();
        prop_assert_eq!(contract4::pieces(&word), split, "{:?}", word);
        if model::is_cjk_word(&word) {
            prop_assert!(pieces(&word).is_empty());
        }
    }

    /// `isqrt(x)² ≤ x < (isqrt(x)+1)²` on any u128.
    #[test]
    fn isqrt_is_the_largest_root(x in any::<u128>(), small in 0u128..1 << 20) {
        for x in [x, small, x >> 64, x >> 100] {
            let r = isqrt(x);
            prop_assert!(r.checked_mul(r).is_some_and(|s| s <= x), "{x}: {r}");
            prop_assert!((r + 1).checked_mul(r + 1).is_none_or(|s| x < s), "{x}: {r}");
            prop_assert_eq!(r, model::isqrt(x));
        }
    }

    /// `sat(t, c)` is the spec's quotient, below 2253, rising with `tf`
    /// and falling as the bag grows.
    #[test]
    fn saturation_is_the_spec_s_quotient(
        tf in 0u32..1000,
        len in 0u32..10_000,
        extra in 0u64..1_000_000,
        n in 1usize..10_000,
    ) {
        let total = u64::from(len) + extra;
        prop_assume!(tf <= len);
        let sat = saturation(tf, len, total, n);
        let want = model::sat(u128::from(tf), u128::from(len), u128::from(total), n as u128);
        prop_assert_eq!(u128::from(sat), want);
        prop_assert!(sat < 2253);
        if tf >= 1 {
            prop_assert!(saturation(tf + 1, len + 1, total + 1, n) >= saturation(tf, len + 1, total + 1, n));
            prop_assert!(saturation(tf, len + 1, total + 1, n) <= saturation(tf, len, total + 1, n));
        }
    }

    /// The cosine's division is the floor, also for a negative dot
    /// product.
    #[test]
    fn the_division_is_floored(a in any::<i64>(), b in 1i64..i64::MAX) {
        let (a, b) = (i128::from(a), i128::from(b));
        let q = floor_div(a, b);
        prop_assert!(q * b <= a && a < (q + 1) * b, "{a} / {b}: {q}");
        prop_assert_eq!(q, model::floor(a, b));
    }
}

#[test]
fn the_library_stopwords_are_the_spec_s() {
    let library: BTreeSet<&str> = STOPWORDS.iter().copied().collect();
    assert_eq!(library, spec_stopwords());
    assert_eq!(STOPWORDS.len(), 75);
    let model: BTreeSet<&str> = model::STOPWORDS.iter().copied().collect();
    assert_eq!(model, spec_stopwords());
}
