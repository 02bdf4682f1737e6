//! `describe`'s ranking (SPEC §5, contract version 3): the seed's D22
//! keyword weights (a name hit 3, a text or params hit 1) times how rare
//! the stem is among this run's candidates, over Snowball 3 stems of the
//! name, the text and the params; fused with the cosine of static int8
//! word vectors ([`crate::contract3`]), so a tool is found when the query
//! uses other words than it does. Integers only: every implementation
//! ranks identically.
//!
//! A started run makes its [`SearchIndex`] at its first ranked query: the
//! candidates' stems (an inverted index from stem to holders) and vectors
//! are built once, and each query then costs its own words plus one dot
//! product per candidate. The search is per run: its candidates are what
//! that run is offered (a child's are fewer than its parent's), so `N`,
//! every `df` and every `dfv` are too.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::DESCRIBE_HITS;
use crate::contract3::{DIMENSIONS, Vector, add_rows, pieces};
use crate::lookup::Lookup;
use crate::stem::stem;

/// SPEC §5: the words a query drops, in byte order (75 of them).
pub const STOPWORDS: [&str; 75] = [
    "a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "could",
    "did", "do", "does", "for", "from", "he", "her", "his", "how", "i", "if", "in", "into", "is",
    "it", "its", "like", "me", "my", "need", "no", "not", "of", "on", "or", "our", "please", "she",
    "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "to", "too", "us", "very", "want", "was", "we", "what", "when",
    "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// Whether `word` (already lowercased) is one of [`STOPWORDS`].
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// SPEC §5: `weight(df)`, the bit length of `⌊(N+1)² / df²⌋` in unsigned
/// 128-bit integers when `df ≥ 1` (`⌊2·log₂((N+1)/df)⌋ + 1`, at least 1
/// while `df ≤ N`), and the bit length of `(N+1)²` when `df = 0` (a query
/// word no candidate holds weighs most). A word in every candidate weighs
/// 1 (from N = 3 on); a word in one of 1,000 weighs 20.
pub fn weight(candidates: usize, df: usize) -> u32 {
    let above = candidates as u128 + 1;
    // (N+1)² overflows only at N + 1 = 2^64 candidates, which no run can
    // hold; saturating keeps even that from panicking.
    let squared = above.saturating_mul(above);
    let quotient = match df as u128 {
        0 => squared,
        df => squared / df.saturating_mul(df),
    };
    u128::BITS - quotient.leading_zeros()
}

/// The words of a text (SPEC §5 `words`): maximal runs of alphanumeric
/// characters, also split where an ASCII lowercase letter or ASCII digit
/// is followed by an ASCII uppercase letter, each lowercased character by
/// character. `_` and `-` separate words, so `github__create_issue` is
/// `github`, `create`, `issue`; `getWeatherForecast` is `get`, `weather`,
/// `forecast`; `HTTPServer` stays one word.
///
/// Held as the lowercased text with a space after each word (a word never
/// holds a space), so tokenizing a description is one pass and one
/// allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordList {
    joined: String,
}

impl WordList {
    /// Tokenizes `text`.
    pub fn of(text: &str) -> WordList {
        let mut joined = String::with_capacity(text.len() + 8);
        tokenize(text, &mut joined);
        WordList { joined }
    }

    /// The words, in text order (with repeats).
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.joined.split_terminator(' ')
    }

    /// Whether `word` is one of them (tests read lists with it).
    #[cfg(test)]
    fn contains(&self, word: &str) -> bool {
        self.iter().any(|w| w == word)
    }
}

/// Appends the words of `text` to `out`, each followed by one space.
///
/// ASCII, nearly every byte of a real catalog, is classified byte by byte
/// without decoding; any other character is decoded and lowercased as
/// SPEC §5 says (`char::is_alphanumeric`, `char::to_lowercase`).
fn tokenize(text: &str, out: &mut String) {
    /// Where the previous character left the tokenizer.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum After {
        /// Outside a word (or at the start).
        Gap,
        /// Inside a word, after an ASCII lowercase letter or ASCII digit:
        /// an ASCII uppercase letter here starts a new word (`tW`, `2W`).
        LowerOrDigit,
        /// Inside a word, after any other alphanumeric (`PS` in
        /// `HTTPServer` stays together).
        Other,
    }
    let mut after = After::Gap;
    let mut at = 0;
    while let Some(&byte) = text.as_bytes().get(at) {
        if byte.is_ascii() {
            at += 1;
            if byte.is_ascii_lowercase() || byte.is_ascii_digit() {
                out.push(char::from(byte));
                after = After::LowerOrDigit;
            } else if byte.is_ascii_uppercase() {
                if after == After::LowerOrDigit {
                    out.push(' ');
                }
                out.push(char::from(byte.to_ascii_lowercase()));
                after = After::Other;
            } else {
                if after != After::Gap {
                    out.push(' ');
                }
                after = After::Gap;
            }
            continue;
        }
        // `at` is always on a character boundary: it moves by whole
        // ASCII bytes or whole characters.
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        at += c.len_utf8();
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
            after = After::Other;
        } else {
            if after != After::Gap {
                out.push(' ');
            }
            after = After::Gap;
        }
    }
    if after != After::Gap {
        out.push(' ');
    }
}

/// The words of `text`, sorted and distinct (see [`WordList`]).
pub fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = WordList::of(text).iter().map(str::to_string).collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// A candidate of the search (SPEC §5): a tool the run is offered (the
/// doors included) or a skill, as declared.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// The tool's minted name, or the skill's name.
    pub name: &'a str,
    /// The tool's description, or the skill's disclosure.
    pub text: &'a str,
    /// The tool's input schema, whose top-level properties are its
    /// params; `None` for a skill.
    pub schema: Option<&'a Value>,
}

/// SPEC §5 `params`: for each key of `schema.properties` (an object), in
/// order, the key and, when its value is an object with a string
/// `description`, that description.
fn params_of(schema: Option<&Value>) -> impl Iterator<Item = &str> {
    (schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object))
    .into_iter()
    .flatten()
    .flat_map(|(key, value)| {
        let description = value.get("description").and_then(Value::as_str);
        std::iter::once(key.as_str()).chain(description)
    })
}

/// Which fields of a candidate hold a stem.
const IN_NAME: u8 = 1;
const IN_TEXT: u8 = 2;
const IN_PARAMS: u8 = 4;

/// D22's hit of a stem in a candidate: 3 in the name, 1 in the text, 1 in
/// the params.
fn hit(fields: u8) -> u64 {
    3 * u64::from(fields & IN_NAME != 0)
        + u64::from(fields & IN_TEXT != 0)
        + u64::from(fields & IN_PARAMS != 0)
}

/// What a run's candidates are, for ranking: built once from their words,
/// then read by every query (SPEC §5).
#[derive(Debug)]
struct Built {
    /// `N`.
    n: usize,
    /// Each stem → the candidates whose fields hold it, and which fields:
    /// `df` is the list's length.
    stems: Lookup<String, Vec<(u32, u8)>>,
    /// Each vector word → `dfv`.
    dfv: Lookup<String, u32>,
    /// Each candidate's vector `v(c)` and `isqrt(v(c)·v(c))`.
    vectors: Vec<(Vector, i128)>,
    /// The same vectors in 32-bit components, with the largest magnitude of
    /// each, where every component fits: the fast path of [`Narrow::dot`].
    narrow: Vec<Option<Narrow>>,
}

/// A vector whose components all fit in `i32`, and the largest of their
/// magnitudes. Beside the rule, not instead of it: [`Narrow::dot`] is the
/// i128 [`dot`] of SPEC §5 exactly whenever [`Narrow::exact_with`] says the
/// i64 sum cannot overflow (128 products of at most `a·b` each), and the
/// ranking falls back to [`dot`] otherwise. Real text stays far inside it.
#[derive(Debug, Clone)]
struct Narrow {
    components: [i32; DIMENSIONS],
    largest: i64,
}

impl Narrow {
    fn of(vector: &Vector) -> Option<Narrow> {
        let mut components = [0i32; DIMENSIONS];
        let mut largest = 0i64;
        for (to, &from) in components.iter_mut().zip(vector) {
            *to = i32::try_from(from).ok()?;
            largest = largest.max(from.abs());
        }
        Some(Narrow {
            components,
            largest,
        })
    }

    /// Whether the i64 sum of the products with `other` is exact.
    fn exact_with(&self, other: &Narrow) -> bool {
        i128::from(self.largest) * i128::from(other.largest) * DIMENSIONS as i128
            <= i128::from(i64::MAX)
    }

    /// `a·b` in i64 lanes (which the compiler vectorizes); exact under
    /// [`Narrow::exact_with`].
    fn dot(&self, other: &Narrow) -> i64 {
        (self.components.iter().zip(&other.components))
            .map(|(x, y)| i64::from(*x) * i64::from(*y))
            .sum()
    }
}

impl Built {
    fn of(candidates: &[Candidate<'_>]) -> Built {
        let n = candidates.len();
        let mut ids: BTreeMap<String, u32> = BTreeMap::new();
        let mut words: Vec<String> = Vec::new();
        let mut stems: Lookup<String, Vec<(u32, u8)>> = Lookup::new();
        // Each candidate's vector words, as (word id, occurrences).
        let mut counted: Vec<Vec<(u32, i64)>> = Vec::with_capacity(n);
        let mut list = String::new();
        for (id, candidate) in (0u32..).zip(candidates) {
            let mut held: BTreeMap<u32, i64> = BTreeMap::new();
            let mut fields: BTreeMap<String, u8> = BTreeMap::new();
            let params = params_of(candidate.schema);
            #[cfg(feature = "mutants")]
            let params = params.filter(|_| !crate::mutant::no_params());
            let parts = [(candidate.name, IN_NAME), (candidate.text, IN_TEXT)]
                .into_iter()
                .chain(params.map(|text| (text, IN_PARAMS)));
            for (text, field) in parts {
                list.clear();
                tokenize(text, &mut list);
                for word in list.split_terminator(' ') {
                    let stemmed = stem_of(word);
                    match fields.get_mut(stemmed.as_ref()) {
                        Some(mask) => *mask |= field,
                        None => {
                            fields.insert(stemmed.into_owned(), field);
                        }
                    }
                    if is_stopword(word) {
                        continue;
                    }
                    let word_id = match ids.get(word) {
                        Some(&word_id) => word_id,
                        None => {
                            let word_id = u32::try_from(words.len()).unwrap_or(u32::MAX);
                            ids.insert(word.to_string(), word_id);
                            words.push(word.to_string());
                            word_id
                        }
                    };
                    *held.entry(word_id).or_default() += 1;
                }
            }
            for (stemmed, mask) in fields {
                stems.get_or_default(stemmed).push((id, mask));
            }
            counted.push(held.into_iter().collect());
        }
        let mut dfv = vec![0u32; words.len()];
        for held in &counted {
            for &(word_id, _) in held {
                dfv[word_id as usize] += 1;
            }
        }
        // Each distinct word is split once; its weighted rows are added
        // once per candidate, times its occurrences there.
        let weighted: Vec<(i64, Vec<u32>)> = (words.iter().zip(&dfv))
            .map(|(word, &df)| (i64::from(weight(n, df as usize)), pieces(word)))
            .collect();
        let vectors: Vec<(Vector, i128)> = counted
            .iter()
            .map(|held| {
                let mut vector = [0i64; DIMENSIONS];
                for &(word_id, times) in held {
                    let (weight, pieces) = &weighted[word_id as usize];
                    add_rows(&mut vector, pieces, weight.wrapping_mul(times));
                }
                let norm = isqrt_of(dot(&vector, &vector));
                (vector, norm)
            })
            .collect();
        let dfv = (ids.into_iter())
            .map(|(word, word_id)| (word, dfv[word_id as usize]))
            .collect();
        let narrow = vectors.iter().map(|(v, _)| Narrow::of(v)).collect();
        Built {
            n,
            stems,
            dfv,
            vectors,
            narrow,
        }
    }

    /// Every candidate's `lex(c)` and `cos(c)` for the trimmed `query`
    /// (SPEC §5), by candidate.
    fn parts(&self, query: &str) -> Vec<(u64, i128)> {
        let n = self.n;
        let mut query_words: Vec<&str> = Vec::new();
        let mut list = String::new();
        tokenize(query, &mut list);
        for word in list.split_terminator(' ') {
            if !is_stopword(word) && !query_words.contains(&word) {
                query_words.push(word);
            }
        }
        // Keywords: the distinct stems with df > 0.
        let mut lex = vec![0u64; n];
        let mut seen: Vec<Cow<'_, str>> = Vec::new();
        for word in &query_words {
            let stemmed = stem_of(word);
            if seen.contains(&stemmed) {
                continue;
            }
            if let Some(holders) = self.stems.get(stemmed.as_ref()) {
                let weight = u64::from(weight(n, holders.len()));
                #[cfg(feature = "mutants")]
                let weight = crate::mutant::weight(weight);
                for &(id, fields) in holders {
                    lex[id as usize] += weight * hit(fields);
                }
            }
            seen.push(stemmed);
        }
        // Vectors: the query's, weighed by the candidates' dfv.
        let mut query_vector = [0i64; DIMENSIONS];
        for word in &query_words {
            let df = self.dfv.get(*word).copied().unwrap_or(0);
            add_rows(
                &mut query_vector,
                &pieces(word),
                i64::from(weight(n, df as usize)),
            );
        }
        let query_norm = isqrt_of(dot(&query_vector, &query_vector));
        let query_narrow = Narrow::of(&query_vector);
        (lex.into_iter().zip(&self.vectors).zip(&self.narrow))
            .map(|((lex, (vector, norm)), narrow)| {
                let product = match (&query_narrow, narrow) {
                    (Some(q), Some(c)) if q.exact_with(c) => i128::from(q.dot(c)),
                    _ => dot(&query_vector, vector),
                };
                (lex, cosine(product, query_norm, *norm))
            })
            .collect()
    }

    /// SPEC §5's fusion of [`Built::parts`]: `⌊1024·lex/L⌋ + 2·cos`.
    fn scores(&self, query: &str) -> Vec<i128> {
        let parts = self.parts(query);
        let most = parts.iter().map(|(lex, _)| *lex).max().unwrap_or(0);
        (parts.into_iter())
            .map(|(lex, cos)| {
                // 0 when L = 0.
                let keyword = (1024 * lex).checked_div(most).map_or(0, i128::from);
                keyword + 2 * cos
            })
            .collect()
    }
}

/// SPEC §5 `cos(c)`: `⌊1024 · (q·c) / (nq · nc)⌋` of the dot product
/// `q·c`, floored also when it is negative; 0 when either norm is.
fn cosine(product: i128, query_norm: i128, norm: i128) -> i128 {
    if query_norm <= 0 || norm <= 0 {
        return 0;
    }
    #[cfg(feature = "mutants")]
    if crate::mutant::no_vectors() {
        return 0;
    }
    let scaled = product.wrapping_mul(1024);
    let divisor = query_norm.wrapping_mul(norm).max(1);
    #[cfg(feature = "mutants")]
    if crate::mutant::truncating_division() {
        return scaled / divisor;
    }
    floor_div(scaled, divisor)
}

/// `⌊a / b⌋` for `b > 0`: the floor, not Rust's truncating `/`.
pub fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

/// The dot product of two vectors, in signed 128-bit integers (wrapping:
/// no sum of real text comes near the bound).
pub fn dot(a: &Vector, b: &Vector) -> i128 {
    (a.iter().zip(b)).fold(0i128, |sum, (x, y)| {
        sum.wrapping_add(i128::from(*x).wrapping_mul(i128::from(*y)))
    })
}

/// SPEC §5 `isqrt`: the largest `r` with `r² ≤ x`.
pub fn isqrt(x: u128) -> u128 {
    x.isqrt()
}

fn isqrt_of(x: i128) -> i128 {
    i128::try_from(isqrt(x.max(0).unsigned_abs())).unwrap_or(i128::MAX)
}

/// `stem(w)`, through the library's mutant hook.
fn stem_of(word: &str) -> Cow<'_, str> {
    #[cfg(feature = "mutants")]
    if crate::mutant::no_stem() {
        return Cow::Borrowed(word);
    }
    stem(word)
}

/// The search of one started run over its candidates (SPEC §5, contract
/// version 3).
///
/// Making it tokenizes, stems and splits every candidate's words and sums
/// their vectors; a run makes it at its first ranked query, so admission
/// and runs that never search pay nothing. What it builds is a pure
/// function of the candidates, so it is remembered per process by their
/// content ([`SearchIndex::new`]): sessions that share a catalog, and a
/// harness's re-replays, build it once.
#[derive(Clone, Debug)]
pub struct SearchIndex {
    built: Arc<Built>,
}

impl SearchIndex {
    /// The search over `candidates`, in their order (a rank is a place in
    /// it).
    pub fn new<'a>(candidates: impl IntoIterator<Item = Candidate<'a>>) -> SearchIndex {
        let candidates: Vec<Candidate<'a>> = candidates.into_iter().collect();
        SearchIndex {
            built: built(&candidates),
        }
    }

    /// The number of candidates, `N`.
    pub fn len(&self) -> usize {
        self.built.n
    }

    /// Whether there is no candidate.
    pub fn is_empty(&self) -> bool {
        self.built.n == 0
    }

    /// Each candidate's `score(c)` for the trimmed `query`, in candidate
    /// order (SPEC §5; the tests read it).
    pub fn scores(&self, query: &str) -> Vec<i128> {
        self.built.scores(query)
    }

    /// Each candidate's `lex(c)` and `cos(c)` for the trimmed `query`, in
    /// candidate order: the two signals before they are fused.
    pub fn parts(&self, query: &str) -> Vec<(u64, i128)> {
        self.built.parts(query)
    }

    /// SPEC §5's ranking of the trimmed `query`: the places of the first
    /// `DESCRIBE_HITS` candidates with a score above 0, by score
    /// descending, then name (`name_of` a place) in byte order.
    pub fn rank<'a>(&self, query: &str, name_of: impl Fn(usize) -> &'a str) -> Vec<usize> {
        let mut hits: Vec<(i128, &str, usize)> = (self.scores(query).into_iter().enumerate())
            .filter(|&(_, score)| score > 0)
            .map(|(at, score)| (score, name_of(at), at))
            .collect();
        let order = |a: &(i128, &str, usize), b: &(i128, &str, usize)| {
            (b.0.cmp(&a.0))
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
                .then_with(|| a.2.cmp(&b.2))
        };
        // The order is total, so the first DESCRIBE_HITS selected and then
        // sorted are the first DESCRIBE_HITS of the whole sorted list.
        if hits.len() > DESCRIBE_HITS {
            hits.select_nth_unstable_by(DESCRIBE_HITS - 1, order);
            hits.truncate(DESCRIBE_HITS);
        }
        hits.sort_unstable_by(order);
        hits.into_iter().map(|(_, _, at)| at).collect()
    }
}

/// The [`Built`] search of `candidates`, remembered per process by their
/// content. The key is the content itself, every field length-framed (the
/// bytes are copied once, which costs less than hashing them), so a hit is
/// the same candidates in the same order, found by comparing bytes: no
/// hash, no collision. Bounded: past `LIMIT` candidates or `KEY_LIMIT`
/// bytes of keys held it starts over. A planted mutant changes what is
/// built, so under one the memo is neither read nor written.
fn built(candidates: &[Candidate<'_>]) -> Arc<Built> {
    const LIMIT: usize = 1 << 15;
    const KEY_LIMIT: usize = 1 << 24;
    /// The memo and the bytes of its keys.
    type Memo = (BTreeMap<Box<[u8]>, Arc<Built>>, usize);
    static MEMO: Mutex<Memo> = Mutex::new((BTreeMap::new(), 0));
    #[cfg(feature = "mutants")]
    if crate::mutant::any() {
        return Arc::new(Built::of(candidates));
    }
    let mut key = Vec::with_capacity(candidates.len() * 512);
    let field = |key: &mut Vec<u8>, bytes: &[u8]| {
        key.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        key.extend_from_slice(bytes);
    };
    for candidate in candidates {
        field(&mut key, candidate.name.as_bytes());
        field(&mut key, candidate.text.as_bytes());
        // A skill (no schema) apart from a tool without params.
        field(&mut key, &[u8::from(candidate.schema.is_some())]);
        for part in params_of(candidate.schema) {
            field(&mut key, part.as_bytes());
        }
        // The params' end: no field is `u64::MAX` bytes long.
        key.extend_from_slice(&u64::MAX.to_le_bytes());
    }
    if let Some(found) = MEMO
        .lock()
        .ok()
        .and_then(|memo| memo.0.get(&key[..]).cloned())
    {
        return found;
    }
    let made = Arc::new(Built::of(candidates));
    if let Ok(mut memo) = MEMO.lock() {
        let (map, key_bytes) = &mut *memo;
        let held: usize = map.values().map(|b| b.n).sum();
        if held + made.n > LIMIT || *key_bytes + key.len() > KEY_LIMIT {
            map.clear();
            *key_bytes = 0;
        }
        *key_bytes += key.len();
        map.insert(key.into_boxed_slice(), Arc::clone(&made));
    }
    made
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn words_split_on_separators_and_lowercase() {
        assert_eq!(
            words("github__create_issue Créer-ISSUE 42x issue"),
            ["42x", "create", "créer", "github", "issue"]
        );
        assert!(words("").is_empty());
        assert!(words("__--  ..").is_empty());
        assert!(WordList::of("a-b").contains("b"));
        assert!(!WordList::of("ab").contains("b"));
    }

    #[test]
    fn camel_case_splits_after_a_lowercase_letter_or_digit_only() {
        assert_eq!(
            WordList::of("getWeatherForecast HTTPServer v2API x9y ÀB aÉ")
                .iter()
                .collect::<Vec<_>>(),
            [
                "get",
                "weather",
                "forecast",
                "httpserver",
                "v2",
                "api",
                "x9y",
                "àb",
                "aé"
            ]
        );
    }

    #[test]
    fn stopwords_are_sorted_distinct_and_dropped_from_queries() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stopword("the") && is_stopword("your") && is_stopword("a"));
        assert!(!is_stopword("issue") && !is_stopword("The"));
        let (index, names) = indexed(&[("the_tool", "the")]);
        assert!(ranked(&index, "the", &names).is_empty());
        assert_eq!(ranked(&index, "the tool", &names), ["the_tool"]);
    }

    #[test]
    fn weight_is_the_bit_length_of_the_squared_ratio() {
        // ⌊16/9⌋ = 1 → 1; ⌊16/4⌋ = 4 → 3; ⌊16/1⌋ = 16 → 5; ⌊10⁶/1⌋ → 20.
        assert_eq!(weight(3, 3), 1);
        assert_eq!(weight(3, 2), 3);
        assert_eq!(weight(3, 1), 5);
        assert_eq!(weight(999, 1), 20);
        // df = 0: the bit length of (N+1)² = 16 → 5; of 10⁶ → 20.
        assert_eq!(weight(3, 0), 5);
        assert_eq!(weight(999, 0), 20);
        assert_eq!(weight(0, 0), 1);
        assert_eq!(weight(usize::MAX, 1), 128);
        assert_eq!(weight(usize::MAX, 0), 128);
    }

    #[test]
    fn lowercasing_can_lengthen_a_word() {
        // 'İ' lowercases to "i̇" (two chars); the combining dot is part of the
        // word because the run it came from was alphanumeric.
        assert_eq!(words("İx"), ["i\u{307}x"]);
    }

    fn indexed<'a>(caps: &[(&'a str, &'a str)]) -> (SearchIndex, Vec<&'a str>) {
        let index = SearchIndex::new(caps.iter().map(|(name, text)| Candidate {
            name,
            text,
            schema: None,
        }));
        (index, caps.iter().map(|(n, _)| *n).collect())
    }

    fn ranked<'a>(index: &SearchIndex, query: &str, names: &[&'a str]) -> Vec<&'a str> {
        (index.rank(query, |at| names[at]).into_iter())
            .map(|at| names[at])
            .collect()
    }

    /// The keyword half alone: the candidates with `lex > 0`, by `lex`
    /// descending, then name.
    fn by_keyword<'a>(index: &SearchIndex, query: &str, names: &[&'a str]) -> Vec<&'a str> {
        let mut hits: Vec<(u64, &str)> = (index.parts(query).into_iter().zip(names))
            .filter(|((lex, _), _)| *lex > 0)
            .map(|((lex, _), name)| (lex, *name))
            .collect();
        hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        hits.into_iter().map(|(_, name)| name).collect()
    }

    #[test]
    fn name_hits_outweigh_text_hits_and_ties_go_by_name() {
        // N = 3, `issue` in all three: weight ⌊16/9⌋ = 1 → 1. lex:
        // c_issue 3 + 1, b_issue 3, a_other 1; L = 4: 1024, 768, 256.
        let (index, names) = indexed(&[
            ("b_issue", "x"),
            ("a_other", "an issue"),
            ("c_issue", "issue"),
        ]);
        assert_eq!(
            by_keyword(&index, "issue issue", &names),
            ["c_issue", "b_issue", "a_other"]
        );
        assert!(by_keyword(&index, "nothing", &names).is_empty());
        // Equal fields, equal scores: by name in byte order.
        // `b` and `B` have the same words, so the same lex and cosine.
        let (index, names) = indexed(&[("b", "same words"), ("B", "same words")]);
        let scores = index.scores("words");
        assert_eq!(scores[0], scores[1]);
        assert_eq!(ranked(&index, "words", &names), ["B", "b"]);
    }

    #[test]
    fn stems_match_other_forms_of_a_word() {
        // `organizing` and `organize` both stem to `organiz`.
        let (index, names) = indexed(&[("organize_files", "x"), ("other", "y")]);
        assert_eq!(by_keyword(&index, "organizing", &names), ["organize_files"]);
        #[cfg(feature = "mutants")]
        crate::mutant::with(crate::mutant::Mutant::NoStem, || {
            let (index, names) = indexed(&[("organize_files", "x"), ("other", "y")]);
            assert!(by_keyword(&index, "organizing", &names).is_empty());
        });
    }

    #[test]
    fn params_are_a_field_of_their_own() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "timezone": {"type": "string", "description": "An IANA zone"},
                "flag": true
            }
        });
        let candidates = [
            Candidate {
                name: "now",
                text: "Current time.",
                schema: Some(&schema),
            },
            Candidate {
                name: "other",
                text: "x",
                schema: None,
            },
        ];
        let names = ["now", "other"];
        let index = SearchIndex::new(candidates);
        // N = 2, df(timezon) = 1: weight ⌊9/1⌋ → 4, a params hit 1.
        assert_eq!(by_keyword(&index, "timezones", &names), ["now"]);
        assert_eq!(by_keyword(&index, "iana", &names), ["now"]);
        // A key whose value is not an object is a key still; `true` is not
        // a description.
        assert_eq!(by_keyword(&index, "flag", &names), ["now"]);
        #[cfg(feature = "mutants")]
        crate::mutant::with(crate::mutant::Mutant::NoParams, || {
            let index = SearchIndex::new(candidates);
            assert!(by_keyword(&index, "timezone", &names).is_empty());
        });
    }

    #[test]
    fn the_cosine_is_floored_even_when_negative() {
        assert_eq!(floor_div(-1, 1024), -1);
        assert_eq!(floor_div(-1024, 1024), -1);
        assert_eq!(floor_div(-1025, 1024), -2);
        assert_eq!(floor_div(1025, 1024), 1);
        assert_eq!(floor_div(0, 7), 0);
        // Truncation would give 0 for the first.
        assert_eq!(-1 / 1024, 0);
        let q: Vector = std::array::from_fn(|i| if i == 0 { 3 } else { 0 });
        let c: Vector = std::array::from_fn(|i| {
            if i == 0 {
                -1
            } else if i == 1 {
                5
            } else {
                0
            }
        });
        // q·c = -3, nq = 3, nc = isqrt(26) = 5: ⌊-3072 / 15⌋ = -205 (not -204).
        assert_eq!(cosine(dot(&q, &c), 3, 5), -205);
        #[cfg(feature = "mutants")]
        crate::mutant::with(crate::mutant::Mutant::TruncatingDivision, || {
            assert_eq!(cosine(dot(&q, &c), 3, 5), -204);
        });
        assert_eq!(cosine(dot(&q, &c), 0, 5), 0);
        assert_eq!(cosine(dot(&q, &c), 3, 0), 0);
        // The narrow fast path gives the same product.
        let (nq, nc) = (Narrow::of(&q).unwrap(), Narrow::of(&c).unwrap());
        assert!(nq.exact_with(&nc));
        assert_eq!(i128::from(nq.dot(&nc)), dot(&q, &c));
    }

    /// The narrow dot product is the i128 one wherever it claims to be
    /// exact, and claims it only where the i64 sum cannot overflow: checked
    /// on random vectors at every magnitude up to `i32`'s edge.
    #[test]
    fn the_narrow_dot_is_the_wide_one_where_it_is_exact() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let (mut exact, mut refused) = (0, 0);
        for round in 0..4000u32 {
            let bits = 1 + round % 33;
            let mut draw = || {
                let v: Vector = std::array::from_fn(|_| {
                    let r = (next() >> (64 - bits)) as i64;
                    if next() & 1 == 0 { r } else { -r }
                });
                v
            };
            let (a, b) = (draw(), draw());
            let wide = dot(&a, &b);
            match (Narrow::of(&a), Narrow::of(&b)) {
                (Some(x), Some(y)) if x.exact_with(&y) => {
                    assert_eq!(i128::from(x.dot(&y)), wide);
                    exact += 1;
                }
                (Some(x), Some(y)) => {
                    // Refused only when the bound could be passed.
                    assert!(x.largest as i128 * y.largest as i128 * 128 > i64::MAX as i128);
                    refused += 1;
                }
                _ => assert!(a.iter().chain(&b).any(|c| i32::try_from(*c).is_err())),
            }
        }
        assert!(exact > 1000 && refused > 100, "{exact} {refused}");
    }

    #[test]
    fn isqrt_is_the_largest_root() {
        for (x, r) in [
            (0, 0),
            (1, 1),
            (3, 1),
            (4, 2),
            (26, 5),
            (u128::MAX, u128::from(u64::MAX)),
        ] {
            assert_eq!(isqrt(x), r, "{x}");
        }
    }

    #[test]
    fn equal_candidates_share_one_build() {
        let (first, _) = indexed(&[("memo_a", "shared text"), ("memo_b", "more")]);
        let (second, _) = indexed(&[("memo_a", "shared text"), ("memo_b", "more")]);
        assert!(Arc::ptr_eq(&first.built, &second.built));
        let (other, _) = indexed(&[("memo_a", "shared text"), ("memo_b", "more!")]);
        assert!(!Arc::ptr_eq(&first.built, &other.built));
        // A field boundary moved is other content.
        let (moved, _) = indexed(&[("memo_a", "shared tex"), ("tmemo_b", "more")]);
        assert!(!Arc::ptr_eq(&first.built, &moved.built));
        // A tool without params is not a skill, and a param moved from one
        // tool to the next is other content.
        let tools = |a: &Value, b: &Value| {
            SearchIndex::new([
                Candidate {
                    name: "memo_c",
                    text: "t",
                    schema: Some(a),
                },
                Candidate {
                    name: "memo_d",
                    text: "t",
                    schema: Some(b),
                },
            ])
        };
        let (none, one) = (json!({}), json!({"properties": {"repo": {}}}));
        let bare = tools(&none, &none);
        let skills = SearchIndex::new(["memo_c", "memo_d"].map(|name| Candidate {
            name,
            text: "t",
            schema: None,
        }));
        assert!(!Arc::ptr_eq(&bare.built, &skills.built));
        assert!(!Arc::ptr_eq(
            &tools(&one, &none).built,
            &tools(&none, &one).built
        ));
        assert!(Arc::ptr_eq(
            &tools(&one, &none).built,
            &tools(&one, &none).built
        ));
    }

    #[test]
    fn a_word_no_candidate_holds_still_has_a_vector() {
        // No stem is shared, so lex is 0 for both, L = 0; the cosine alone
        // can rank, and does for a word with pieces.
        let (index, names) = indexed(&[
            ("get_elevation", "Elevation of a point."),
            ("send_mail", "Sends mail."),
        ]);
        let scores = index.scores("altitude");
        assert!(scores.iter().any(|s| *s != 0), "{scores:?}");
        assert!(by_keyword(&index, "altitude", &names).is_empty());
    }
}
