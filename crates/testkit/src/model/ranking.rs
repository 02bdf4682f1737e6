//! SPEC §5 in the model (contract 5): the candidates and their params,
//! `df` over stems and `dfv` over vector words, the integer weight, each
//! query stem's part (by presence, or for a CJK stem by its occurrences
//! in the candidate's bag, BM25's saturation in integers), the vectors,
//! `isqrt` by Newton's method, the floored cosine, the fusion with the
//! cosine in proportion to the query words that have a vector, and the
//! order; and `describe`'s ranked answer.
//!
//! What §5 reads of one text alone (its stems, and its vector words with
//! their occurrences and rows) is found once per thread; what it reads of
//! the candidates alone (`dfv` and the vectors) once per run, in
//! [`Search::new`]; the rest of every score is recomputed for each query.
//! It owns §5's arithmetic for the tests and the fuzzer; it does not own
//! the words and the WordPiece split (`words`), the hint (`index`) or
//! anything of the library's but `stem`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::index::hint;
use super::words::{
    Memo, STOPWORDS, is_cjk_word, pieces, remembered, stemmed, word_list, word_rows,
};

/// SPEC §1: the two doors, `describe` and `call`, with their descriptions
/// and their input schemas' property keys (none has a description). Every
/// run holds them and is offered them (§8), so they are candidates of every
/// search (§5).
pub const DOORS: [(&str, &str, &[&str]); 2] = [
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

/// SPEC §16 `DESCRIBE_HITS`: how many hits a keyword answer lists.
pub const HITS: usize = 8;

/// SPEC §16 `QUERY_MAX_BYTES`.
pub const QUERY_MAX: usize = 256;

/// SPEC §5 `weight(df)` for `n` candidates: the number of binary digits
/// of `⌊(n+1)² / df²⌋` when `df ≥ 1`, of `(n+1)²` when `df = 0`, in `u128`.
pub fn weight(n: usize, df: usize) -> u32 {
    let above = n as u128 + 1;
    let df = df as u128;
    let squared = above.saturating_mul(above);
    let mut quotient = if df == 0 {
        squared
    } else {
        squared / df.saturating_mul(df)
    };
    let mut digits = 0;
    while quotient > 0 {
        quotient /= 2;
        digits += 1;
    }
    digits
}

/// A candidate of SPEC §5's search: a tool the run is offered (resident
/// or dormant, the doors included) or a skill.
#[derive(Clone, Debug, PartialEq)]
pub enum Candidate {
    /// A tool: its minted name, its description and its input schema.
    Tool {
        /// The minted name.
        name: String,
        /// The description.
        description: String,
        /// The input schema (its top-level properties are the params).
        schema: Value,
    },
    /// A skill: its name and its disclosure.
    Skill {
        /// The name.
        name: String,
        /// The disclosure.
        disclosure: String,
    },
}

impl Candidate {
    /// The name the ranking reads and sorts by.
    pub fn name(&self) -> &str {
        match self {
            Candidate::Tool { name, .. } | Candidate::Skill { name, .. } => name,
        }
    }

    /// SPEC §5's text: the description or the disclosure.
    pub fn text(&self) -> &str {
        match self {
            Candidate::Tool { description, .. } => description,
            Candidate::Skill { disclosure, .. } => disclosure,
        }
    }

    /// SPEC §5's params: each key of the schema's `properties` (an object),
    /// then the key's string `description`, as words; none for a skill.
    pub fn params(&self) -> Vec<String> {
        self.param_texts().into_iter().flat_map(word_list).collect()
    }

    /// The texts of SPEC §5's params: each key of the schema's
    /// `properties`, then the key's string `description`.
    fn param_texts(&self) -> Vec<&str> {
        let mut out = Vec::new();
        if let Candidate::Tool { schema, .. } = self
            && let Some(Value::Object(properties)) = schema.get("properties")
        {
            for (key, value) in properties {
                out.push(key.as_str());
                if let Some(Value::String(d)) = value.get("description") {
                    out.push(d.as_str());
                }
            }
        }
        out
    }

    /// Its line in a ranked answer: `- <name>: <hint>\n` or
    /// `- skill <name>: <hint>\n`, the hint as [`hint`] computes it.
    pub fn hit(&self) -> String {
        match self {
            Candidate::Tool {
                name, description, ..
            } => format!("- {name}: {}\n", hint(description)),
            Candidate::Skill { name, disclosure } => {
                format!("- skill {name}: {}\n", hint(disclosure))
            }
        }
    }
}

/// SPEC §5 `isqrt`, the largest `r` with `r² ≤ x`, by Newton's method
/// from above.
pub fn isqrt(x: u128) -> u128 {
    if x < 2 {
        return x;
    }
    // x/2 + 1 is at least √x; each step keeps r ≥ ⌊√x⌋ until it stops.
    let mut r = x / 2 + 1;
    let mut next = (r + x / r) / 2;
    while next < r {
        r = next;
        next = (r + x / r) / 2;
    }
    r
}

/// `⌊a / b⌋`, `b > 0`, from the truncating quotient.
pub fn floor(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && a < 0 { q - 1 } else { q }
}

/// The search of one run (SPEC §5): its candidates, and what §5 reads of
/// them alone, found once for the run's every query.
#[derive(Clone, Debug)]
pub struct Search {
    candidates: Vec<Candidate>,
    /// Each candidate's fields (name, text, params), each as its texts: a
    /// field holds a stem when one of its texts does.
    fields: Vec<[Vec<Arc<Text>>; 3]>,
    /// Each candidate's bag: the stems of its text and params words that
    /// are not stopwords, with how often each occurs; and its length.
    bags: Vec<(BTreeMap<Arc<str>, u128>, u128)>,
    /// `dfv(w)` of every vector word of a candidate.
    dfv: BTreeMap<Arc<str>, usize>,
    /// Each candidate's `v(c)` and `isqrt(v(c)·v(c))`.
    vectors: Vec<(Vec<i64>, i128)>,
}

/// What SPEC §5 reads of one text alone: the stems of its words, the
/// stems of those that are not stopwords with how often each occurs (its
/// share of a bag), and each of its vector words (a word that is not a
/// stopword) with how often it occurs and the sum of its pieces' rows.
#[derive(Debug, Default)]
struct Text {
    stems: BTreeSet<Arc<str>>,
    bag: BTreeMap<Arc<str>, u128>,
    words: BTreeMap<Arc<str>, (i64, Arc<[i64]>)>,
}

impl Text {
    /// The text `s`, read once per thread: the fuzzer's runs hold the same
    /// descriptions and keys again and again.
    fn of(s: &str) -> Arc<Text> {
        thread_local!(static MEMO: Memo<Arc<Text>> = Memo::default());
        remembered(&MEMO, s, |s| {
            let mut text = Text::default();
            for w in word_list(s) {
                text.stems.insert(stemmed(&w));
                if !stop(&w) {
                    *text.bag.entry(stemmed(&w)).or_default() += 1;
                    let rows = word_rows(&w);
                    text.words.entry(w.into()).or_insert((0, rows)).0 += 1;
                }
            }
            Arc::new(text)
        })
    }
}

/// A candidate's vector words, with their occurrences over its fields and
/// their rows.
type Words<'a> = BTreeMap<&'a Arc<str>, (i64, &'a [i64])>;

/// Whether a field (its texts) holds the stem `t`.
fn holds(field: &[Arc<Text>], t: &str) -> bool {
    field.iter().any(|text| text.stems.contains(t))
}

/// §5's stopword test.
fn stop(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// `v(ws)` among `n` candidates, `ws` given as each distinct word with
/// how often it occurs and the sum of its pieces' rows: the rows of every
/// piece of every occurrence, each weighed by `weight(n, dfv(w))`.
fn vector<'a>(
    n: usize,
    dfv: &BTreeMap<Arc<str>, usize>,
    ws: impl IntoIterator<Item = (&'a str, i64, &'a [i64])>,
) -> Vec<i64> {
    let mut v = vec![0i64; 128];
    for (w, times, rows) in ws {
        let weight = i64::from(weight(n, dfv.get(w).copied().unwrap_or(0)));
        // Weighing the sum of the rows is weighing each row, and `times`
        // occurrences weigh `times` as much.
        for (x, r) in v.iter_mut().zip(rows) {
            *x += times * weight * r;
        }
    }
    v
}

fn dot(a: &[i64], b: &[i64]) -> i128 {
    a.iter()
        .zip(b)
        .map(|(x, y)| i128::from(*x) * i128::from(*y))
        .sum()
}

impl Search {
    /// The search over `tools` (the tools the run is offered, the doors
    /// left out: they are added here) and `skills`.
    pub fn new(tools: Vec<Candidate>, skills: Vec<Candidate>) -> Search {
        let doors = DOORS.iter().map(|(name, description, keys)| Candidate::Tool {
            name: name.to_string(),
            description: description.to_string(),
            schema: serde_json::json!({
                "properties": keys.iter().map(|k| (k.to_string(), serde_json::json!({}))).collect::<serde_json::Map<_, _>>()
            }),
        });
        let candidates: Vec<Candidate> = doors.chain(tools).chain(skills).collect();
        let fields: Vec<[Vec<Arc<Text>>; 3]> = (candidates.iter())
            .map(|c| {
                let params = c.param_texts().into_iter().map(Text::of).collect();
                [vec![Text::of(c.name())], vec![Text::of(c.text())], params]
            })
            .collect();
        let words: Vec<Words> = (fields.iter())
            .map(|texts| {
                let mut words = BTreeMap::new();
                for (w, (times, rows)) in texts.iter().flatten().flat_map(|text| &text.words) {
                    words.entry(w).or_insert((0, &rows[..])).0 += times;
                }
                words
            })
            .collect();
        // How many candidates hold each vector word (a word no candidate
        // holds has `dfv` 0).
        let mut dfv: BTreeMap<Arc<str>, usize> = BTreeMap::new();
        for w in words.iter().flat_map(BTreeMap::keys) {
            *dfv.entry(Arc::clone(w)).or_default() += 1;
        }
        let bags = (fields.iter())
            .map(|[_, text, params]| {
                let mut bag: BTreeMap<Arc<str>, u128> = BTreeMap::new();
                for (t, k) in text.iter().chain(params).flat_map(|text| &text.bag) {
                    *bag.entry(Arc::clone(t)).or_default() += k;
                }
                let len = bag.values().sum();
                (bag, len)
            })
            .collect();
        let n = candidates.len();
        let vectors = (words.iter())
            .map(|ws| {
                let vc = vector(n, &dfv, ws.iter().map(|(w, (k, rows))| (&w[..], *k, *rows)));
                let nc = isqrt(dot(&vc, &vc) as u128) as i128;
                (vc, nc)
            })
            .collect();
        Search {
            candidates,
            fields,
            bags,
            dfv,
            vectors,
        }
    }

    /// SPEC §5's answer to the `describe` query `query`, as given, when it
    /// is ranked: valid, and once trimmed not the name of a candidate (an
    /// exact name gets the full guide instead). `None` for a refused query
    /// and for an exact name: this model does not write those.
    pub fn describe(&self, query: &str) -> Option<String> {
        let query = self.ranked_query(query)?;
        Some(self.answer(query, &self.scores(query)))
    }

    /// [`Search::describe`]'s answer with [`Search::named_scores`], from
    /// one scoring of the query.
    pub fn describe_scored(&self, query: &str) -> Option<(String, Vec<(String, i128)>)> {
        let query = self.ranked_query(query)?;
        let scores = self.scores(query);
        Some((self.answer(query, &scores), self.named(&scores)))
    }

    /// The trimmed `query` when SPEC §5 ranks it: valid, and not the name
    /// of a candidate.
    fn ranked_query<'q>(&self, query: &'q str) -> Option<&'q str> {
        let control = |c: char| u32::from(c) < 0x20 || u32::from(c) == 0x7f;
        if query.trim().is_empty() || query.len() > QUERY_MAX || query.chars().any(control) {
            return None;
        }
        let query = query.trim();
        (!self.candidates.iter().any(|c| c.name() == query)).then_some(query)
    }

    /// The ranked answer to `query`, the candidates scored `scores`.
    fn answer(&self, query: &str, scores: &[i128]) -> String {
        let hits = self.ranked(scores);
        if hits.is_empty() {
            return format!("no capability is named \"{query}\", and nothing matched\n");
        }
        let mut out = format!("no capability is named \"{query}\"; closest matches:\n");
        for candidate in hits {
            out.push_str(&candidate.hit());
        }
        out
    }

    /// SPEC §5's ranking of the trimmed `query`: the candidates with a
    /// score above 0, by score descending, then name in byte order; the
    /// first [`HITS`].
    pub fn rank(&self, query: &str) -> Vec<&Candidate> {
        self.ranked(&self.scores(query))
    }

    /// [`Search::rank`] of the candidates scored `scores`.
    fn ranked(&self, scores: &[i128]) -> Vec<&Candidate> {
        let mut scored: Vec<(i128, &Candidate)> = (scores.iter().copied())
            .zip(&self.candidates)
            .filter(|(score, _)| *score > 0)
            .collect();
        scored.sort_by(|(a, x), (b, y)| {
            b.cmp(a)
                .then_with(|| x.name().as_bytes().cmp(y.name().as_bytes()))
        });
        scored.into_iter().take(HITS).map(|(_, c)| c).collect()
    }

    /// Every candidate's name and SPEC §5 `score(c)` for the trimmed
    /// `query`, by name in byte order.
    pub fn named_scores(&self, query: &str) -> Vec<(String, i128)> {
        self.named(&self.scores(query))
    }

    /// Each candidate's name with its score of `scores`, by name in byte
    /// order.
    fn named(&self, scores: &[i128]) -> Vec<(String, i128)> {
        let mut named: Vec<(String, i128)> = (self.candidates.iter())
            .map(|c| c.name().to_string())
            .zip(scores.iter().copied())
            .collect();
        named.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        named
    }

    /// Every candidate's SPEC §5 `score(c)`, in candidate order.
    fn scores(&self, query: &str) -> Vec<i128> {
        let fields = &self.fields;
        let n = fields.len();
        let mut q: Vec<String> = Vec::new();
        for w in word_list(query) {
            if !stop(&w) && !q.contains(&w) {
                q.push(w);
            }
        }
        // Each query stem some candidate holds, with `weight(n, df(t))`.
        let mut query_stems: BTreeMap<Arc<str>, u128> = BTreeMap::new();
        for t in q.iter().map(|w| stemmed(w)) {
            let df = (fields.iter())
                .filter(|f| f.iter().any(|field| holds(field, &t)))
                .count();
            if df > 0 {
                query_stems.insert(t, u128::from(weight(n, df)));
            }
        }
        let rows: Vec<Arc<[i64]>> = q.iter().map(|w| word_rows(w)).collect();
        let vq = vector(
            n,
            &self.dfv,
            (q.iter().zip(&rows)).map(|(w, r)| (w.as_str(), 1, &r[..])),
        );
        let nq = isqrt(dot(&vq, &vq) as u128) as i128;
        let total: u128 = self.bags.iter().map(|(_, len)| len).sum();
        let lex: Vec<u128> = (fields.iter().zip(&self.bags))
            .map(|([name, text, params], (bag, len))| {
                (query_stems.iter())
                    .map(|(t, weight)| {
                        let in_name = u128::from(holds(name, t));
                        let part = if is_cjk_word(t) {
                            let tf = bag.get(t).copied().unwrap_or(0);
                            3072 * in_name + sat(tf, *len, total, n as u128)
                        } else {
                            1024 * (3 * in_name
                                + u128::from(holds(text, t))
                                + 2 * u128::from(holds(params, t)))
                        };
                        weight * part
                    })
                    .sum()
            })
            .collect();
        let most = lex.iter().copied().max().unwrap_or(0);
        // `Qv`: the query words whose pieces are not empty.
        let with_vector = q.iter().filter(|w| !pieces(w).is_empty()).count() as i128;
        let mut scores = Vec::with_capacity(n);
        for (lex, (vc, nc)) in lex.iter().zip(&self.vectors) {
            let (vc, nc) = (vc, *nc);
            let cos = if nq > 0 && nc > 0 {
                floor(1024 * dot(&vq, vc), nq * nc)
            } else {
                0
            };
            // 0 when L = 0; 0 when Q is empty.
            let keyword = (1024 * lex).checked_div(most).unwrap_or(0) as i128;
            let cosine = if q.is_empty() {
                0
            } else {
                floor(3 * cos * with_vector, q.len() as i128)
            };
            scores.push(keyword + cosine);
        }
        scores
    }
}

/// SPEC §5 `sat(t, c)` of a stem found `tf` times in a bag of `len` words,
/// `total` words in all bags and `n` candidates: `0` when `tf` is, else
/// `⌊22528·tf·total / (10·tf·total + 3·total + 9·len·n)⌋`.
pub fn sat(tf: u128, len: u128, total: u128, n: u128) -> u128 {
    if tf == 0 {
        return 0;
    }
    22528 * tf * total / (10 * tf * total + 3 * total + 9 * len * n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_is_the_bit_length_of_the_squared_ratio() {
        // (N+1)²/df²: 16/9 → 1 → 1 bit; 16/4 → 4 → 3; 16/1 → 16 → 5;
        // 4/1 → 4 → 3; 10⁶/1 → 20 bits; 36/25 → 1 → 1.
        assert_eq!(weight(3, 3), 1);
        assert_eq!(weight(3, 2), 3);
        assert_eq!(weight(3, 1), 5);
        assert_eq!(weight(1, 1), 3);
        assert_eq!(weight(999, 1), 20);
        assert_eq!(weight(5, 5), 1);
    }

    /// A run of the two doors, two tools and a skill: N = 5.
    fn search() -> Search {
        let tool = |name: &str, description: &str, schema: Value| Candidate::Tool {
            name: name.into(),
            description: description.into(),
            schema,
        };
        Search::new(
            vec![
                tool(
                    "send_mail",
                    "Sends a file by mail. Then more.",
                    serde_json::json!({}),
                ),
                tool(
                    "read_file",
                    "Reads a file.",
                    serde_json::json!({"properties": {"path": {"description": "Where it lives"}}}),
                ),
                tool("organize_files", "Sort things.", serde_json::json!({})),
            ],
            vec![Candidate::Skill {
                name: "mailer".into(),
                disclosure: "Mail helper.".into(),
            }],
        )
    }

    fn names(query: &str) -> Vec<String> {
        let search = search();
        (search.rank(query).into_iter())
            .map(|c| c.name().to_string())
            .collect()
    }

    #[test]
    fn stems_and_params_are_matched() {
        // `organizing` shares only its stem `organiz` with organize_files's
        // name (lex 3·weight, the only lex: 1024 after the fusion).
        assert_eq!(
            names("organizing").first().map(String::as_str),
            Some("organize_files")
        );
        // `lives` only in read_file's params.
        assert_eq!(
            names("lives").first().map(String::as_str),
            Some("read_file")
        );
        assert!(names("by").is_empty());
    }

    #[test]
    fn params_are_keys_then_string_descriptions() {
        let tool = Candidate::Tool {
            name: "t".into(),
            description: String::new(),
            schema: serde_json::json!({"properties": {"repoName": {"description": "The repo"}, "n": {"description": 3}, "m": true}}),
        };
        // serde_json's map is ordered by key here; order changes no result.
        assert_eq!(tool.params(), ["m", "n", "repo", "name", "the", "repo"]);
        let skill = Candidate::Skill {
            name: "s".into(),
            disclosure: "d".into(),
        };
        assert!(skill.params().is_empty());
    }

    #[test]
    fn isqrt_and_floor_are_exact() {
        for x in [0u128, 1, 2, 3, 4, 15, 16, 17, u128::MAX] {
            let r = isqrt(x);
            assert!(
                r * r <= x && (r + 1).checked_mul(r + 1).is_none_or(|s| x < s),
                "{x}"
            );
        }
        assert_eq!(floor(-1, 1024), -1);
        assert_eq!(floor(-2048, 1024), -2);
        assert_eq!(floor(5, 2), 2);
    }

    #[test]
    fn only_a_valid_query_that_names_nothing_gets_a_ranked_answer() {
        let search = search();
        for not_ranked in [
            "",
            " \u{3000}",
            "call",
            " send_mail ",
            "mailer",
            "a\tb",
            "x\u{7f}",
        ] {
            assert_eq!(search.describe(not_ranked), None, "{not_ranked:?}");
        }
        assert_eq!(search.describe(&"z".repeat(257)), None);
        assert!(search.describe(&"z".repeat(256)).is_some());
        // Only stopwords: no stem, no vector word, nothing matches.
        assert_eq!(
            search.describe("the of a"),
            Some("no capability is named \"the of a\", and nothing matched\n".to_string())
        );
        assert!(
            search
                .describe("Mailer")
                .is_some_and(|a| a.contains("- skill mailer"))
        );
    }
}
