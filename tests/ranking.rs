//! Property tests of `describe`'s keyword ranking (SPEC §5, contract
//! version 2), on generated catalogs and queries.
//!
//! Everything the properties compare against is written here again from
//! the spec's text — the words (with the camelCase split), the 75 stopwords,
//! `df`, the weight as an exact integer inequality, the score and the order —
//! never asked of the code under test. The ranking is read from `describe`'s
//! output, the bytes a model sees.
//!
//! Every property runs 1,000 cases unless `PROPTEST_CASES` says otherwise.

use std::collections::BTreeSet;

use disclose::search::{SCAN_QUERIES, STOPWORDS, weight};
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

/// The doors' descriptions (SPEC §1): they are candidates too.
const DOORS: [(&str, &str); 2] = [
    (
        "describe",
        "Find a capability by exact name for its full guide, or by keywords for a ranked list.",
    ),
    (
        "call",
        "Run a dormant tool by name; its args are checked against that tool's input schema first.",
    ),
];

/// `words(s)`: maximal alphanumeric runs, split again between an ASCII
/// lowercase letter or digit and an ASCII uppercase letter, each character
/// lowercased on its own.
fn spec_words(s: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    let mut word = String::new();
    let mut last: Option<char> = None;
    for c in s.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.insert(std::mem::take(&mut word));
            }
            last = None;
            continue;
        }
        if let Some(p) = last
            && (p.is_ascii_lowercase() || p.is_ascii_digit())
            && c.is_ascii_uppercase()
        {
            words.insert(std::mem::take(&mut word));
        }
        for l in c.to_lowercase() {
            word.push(l);
        }
        last = Some(c);
    }
    if !word.is_empty() {
        words.insert(word);
    }
    words
}

/// A candidate as the test sees it: name, text, and their words.
#[derive(Clone, Debug)]
struct Candidate {
    name: String,
    name_words: BTreeSet<String>,
    text_words: BTreeSet<String>,
}

impl Candidate {
    fn new(name: &str, text: &str) -> Candidate {
        Candidate {
            name: name.to_string(),
            name_words: spec_words(name),
            text_words: spec_words(text),
        }
    }

    fn holds(&self, word: &str) -> bool {
        self.name_words.contains(word) || self.text_words.contains(word)
    }
}

/// The query words: distinct, not stopwords, held by some candidate.
fn query_words(query: &str, candidates: &[Candidate]) -> Vec<String> {
    let stop = spec_stopwords();
    spec_words(query.trim())
        .into_iter()
        .filter(|w| !stop.contains(w.as_str()) && candidates.iter().any(|c| c.holds(w)))
        .collect()
}

/// The weight as the least `w` with `(N+1)² < 2^w · df²`, found by
/// counting up rather than by a bit length.
fn spec_weight(n: u128, df: u128) -> u32 {
    let top = (n + 1) * (n + 1);
    let mut w = 1;
    while (1u128 << w) * df * df <= top {
        w += 1;
    }
    w
}

/// SPEC §5's ranking: names, best first, at most 8.
fn spec_ranking(query: &str, candidates: &[Candidate]) -> Vec<String> {
    let n = candidates.len() as u128;
    let words = query_words(query, candidates);
    let mut scored: Vec<(u64, &str)> = candidates
        .iter()
        .map(|c| {
            let score = words
                .iter()
                .map(|w| {
                    let df = candidates.iter().filter(|d| d.holds(w)).count() as u128;
                    let hit = 3 * u64::from(c.name_words.contains(w))
                        + u64::from(c.text_words.contains(w));
                    u64::from(spec_weight(n, df)) * hit
                })
                .sum();
            (score, c.name.as_str())
        })
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
];

/// A declaration: a tool (origin, raw name, text, effect) or a skill.
#[derive(Clone, Debug)]
enum Decl {
    Tool(String, String, String, &'static str),
    Skill(String, String),
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
            select(&["read", "reversible", "irreversible"][..])
        )
            .prop_map(|(o, n, t, e)| Decl::Tool(o.to_string(), n, t, e)),
        1 => (name(), text()).prop_map(|(n, t)| Decl::Skill(n, t)),
    ]
}

fn query() -> impl Strategy<Value = String> {
    let extra = select(&["zebra", "the", "a", "ISSUE", "getIssue", "list_issues"][..]);
    (phrase(1, 3), vec(extra, 0..2)).prop_map(|(mut words, extra)| {
        words.extend(extra);
        words.join(" ")
    })
}

/// Admits `decls` in order (refusals skipped) and starts the run, as a
/// scout child when `child`. Returns the run and its candidates as the spec
/// defines them: offered tools (doors included) and skills.
fn started(decls: &[Decl], child: bool) -> (Run, Vec<Candidate>) {
    let mut catalog = Catalog::new();
    let mut candidates: Vec<Candidate> = DOORS.iter().map(|(n, t)| Candidate::new(n, t)).collect();
    for decl in decls {
        match decl {
            Decl::Tool(origin, name, text, effect) => {
                let decl = ToolDecl {
                    origin: origin.clone(),
                    name: name.clone(),
                    description: text.clone(),
                    input_schema: json!({"type": "object"}).into(),
                    effect: Effect::from_declared(Some(effect)),
                    approval: Approval::Never,
                };
                if let Ok(tool) = catalog.admit_tool(&decl) {
                    // SPEC §8: a scout is offered `read` tools only here.
                    if !child || *effect == "read" {
                        candidates.push(Candidate::new(tool.name(), text));
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
                    candidates.push(Candidate::new(name, text));
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
    if head.ends_with(", and no keyword matched") {
        assert_eq!(rest, "");
        return None;
    }
    assert!(head.ends_with("; closest by keyword:"), "{out}");
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
        }
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

    /// Every listed hit shares a non-stop query word with its name or text
    /// (by this file's tokenizer), and the no-match line comes exactly when
    /// no candidate shares one.
    #[test]
    fn every_hit_shares_a_non_stop_query_word(
        decls in vec(decl(), 1..24),
        q in query(),
        child in any::<bool>(),
    ) {
        let (run, candidates) = started(&decls, child);
        prop_assume!(!is_exact(&run, &q));
        let stop = spec_stopwords();
        let asked: BTreeSet<String> =
            spec_words(&q).into_iter().filter(|w| !stop.contains(w.as_str())).collect();
        let sharing = |c: &Candidate| asked.iter().any(|w| c.holds(w));
        match listed(&run, &q) {
            None => prop_assert!(!candidates.iter().any(sharing), "no match for {q:?}"),
            Some(hits) => {
                prop_assert!(!hits.is_empty() && hits.len() <= 8);
                for hit in &hits {
                    let c = candidates.iter().find(|c| &c.name == hit);
                    prop_assert!(c.is_some(), "{hit} is not a candidate of this run");
                    prop_assert!(c.is_some_and(sharing), "{hit} shares no word of {q:?}");
                }
                let all = candidates.iter().filter(|c| sharing(c)).count();
                prop_assert_eq!(hits.len(), all.min(8));
            }
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
        let mut all = vec![Decl::Tool("twin".into(), a.clone(), text.clone(), "read")];
        all.push(Decl::Tool("twin".into(), b.clone(), text.clone(), "read"));
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

    /// A run asked many keyword queries answers the first few by scan and
    /// the rest through its inverted index (`search::SCAN_QUERIES`): every
    /// answer, either way, is SPEC §5 read independently.
    #[test]
    fn every_answer_of_a_long_run_is_section_5(
        decls in vec(decl(), 1..24),
        queries in vec(query(), SCAN_QUERIES + 1..SCAN_QUERIES + 6),
        child in any::<bool>(),
    ) {
        let (run, candidates) = started(&decls, child);
        for q in queries.iter().filter(|q| !is_exact(&run, q)) {
            let expected = spec_ranking(q, &candidates);
            prop_assert_eq!(listed(&run, q).unwrap_or_default(), expected, "query {:?}", q);
        }
    }
}

#[test]
fn the_library_stopwords_are_the_spec_s() {
    let library: BTreeSet<&str> = STOPWORDS.iter().copied().collect();
    assert_eq!(library, spec_stopwords());
    assert_eq!(STOPWORDS.len(), 75);
}
