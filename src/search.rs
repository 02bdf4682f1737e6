//! Keyword search for `describe` (SPEC §5, contract version 2): the seed's
//! D22 weights (a name hit 3, a text hit 1), each multiplied by how rare
//! the word is among this run's candidates, in integers only.
//!
//! A started run gathers its candidates the first time a keyword query
//! needs them, so runs that never search never pay for it, and admission
//! never tokenizes; a candidate is tokenized, once, only when a query word
//! may be among its words ([`Words`]). Its first [`SCAN_QUERIES`] queries are
//! answered by scanning every candidate's words for each query word (a
//! query has a handful), which gives `df` and the hits at once; after
//! that the run builds an inverted index from word to the candidates that
//! hold it, so a query touches only the candidates that share one of its
//! words. Both give the same scores in the same order; the index is worth
//! building only for a run asked many queries (docs/decisions.md).
//!
//! The search is per run: its candidates are what that run is offered (a
//! child's are fewer than its parent's), so `N` and every `df` are too.

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use memchr::memmem;

use crate::DESCRIBE_HITS;

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

/// SPEC §5: `weight(w)`, the bit length of `⌊(N+1)² / df²⌋` in unsigned
/// 128-bit integers: `⌊2·log₂((N+1)/df)⌋ + 1`, at least 1 while
/// `df ≤ N`. A word in every candidate weighs 1 (from N = 3 on: with
/// fewer candidates it weighs 2 or 3); a word in one of 1,000 weighs 20.
///
/// `df` is at least 1 for every word that reaches it (a word in no
/// candidate is dropped from the query); 0 is treated as 1 rather than
/// dividing by zero.
pub fn weight(candidates: usize, df: usize) -> u32 {
    let above = candidates as u128 + 1;
    let df = df.max(1) as u128;
    // (N+1)² overflows only at N + 1 = 2^64 candidates, which no run can
    // hold; saturating keeps even that from panicking.
    let quotient = above.saturating_mul(above) / df.saturating_mul(df);
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

/// A candidate's words, split by where they score: its name's (a hit
/// weighs 3) and its description's or disclosure's (a hit weighs 1).
///
/// Tokenized on first need. Until then a candidate keeps its name and text
/// as declared and, when they are ASCII, lowercased: each ASCII word is a
/// run of that lowercased text, so a query word it does not hold is in none
/// of the candidate's words, and most candidates are never tokenized for a
/// query (a run asks a few words of ~50 candidates, most of which hold none
/// of them). Unicode lowercasing can change bytes, so a candidate with any
/// other character is tokenized for every word.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// The name, the text, then (when both are ASCII) the two lowercased,
    /// in one allocation.
    declared: String,
    /// Where the name ends in `declared`.
    name_len: usize,
    /// Where the text ends in `declared`; the lowercased copy, when there
    /// is one, follows.
    text_end: usize,
    tokens: OnceLock<Tokens>,
}

/// A candidate's words held as one string, ` name words | text words `: a
/// space before and after every word, and `|` (never in a word) between
/// the two parts. Whether the candidate holds a word is then whether the
/// string holds the word padded with spaces ([`Needle`]), one substring
/// search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tokens {
    joined: String,
    /// Where the name's words end: at the `|`.
    name_end: usize,
}

impl Words {
    /// A candidate's name and description, to be tokenized when a query
    /// needs them.
    pub fn of(name: &str, text: &str) -> Words {
        let ascii = name.is_ascii() && text.is_ascii();
        let mut declared = String::with_capacity(2 * (name.len() + text.len()));
        declared.push_str(name);
        declared.push_str(text);
        if ascii {
            declared.push_str(name);
            declared.push_str(text);
            if let Some(lowered) = declared.get_mut(name.len() + text.len()..) {
                lowered.make_ascii_lowercase();
            }
        }
        Words {
            declared,
            name_len: name.len(),
            text_end: name.len() + text.len(),
            tokens: OnceLock::new(),
        }
    }

    /// The candidate's words, tokenized on the first call.
    fn tokens(&self) -> &Tokens {
        self.tokens.get_or_init(|| {
            let name = self.declared.get(..self.name_len).unwrap_or_default();
            let text = (self.declared.get(self.name_len..self.text_end)).unwrap_or_default();
            let mut joined = String::with_capacity(name.len() + text.len() + 8);
            joined.push(' ');
            tokenize(name, &mut joined);
            let name_end = joined.len();
            joined.push_str("| ");
            tokenize(text, &mut joined);
            Tokens { joined, name_end }
        })
    }

    /// The name and the text lowercased, when they are ASCII.
    fn lowered(&self) -> Option<&str> {
        (self.declared.len() > self.text_end)
            .then(|| self.declared.get(self.text_end..).unwrap_or_default())
    }

    /// The words of the name, in order (with repeats; tests read them).
    #[cfg(test)]
    fn name(&self) -> impl Iterator<Item = &str> {
        self.part(..self.tokens().name_end)
    }

    /// The words of the text, in order (with repeats; tests read them).
    #[cfg(test)]
    fn text(&self) -> impl Iterator<Item = &str> {
        self.part(self.tokens().name_end + 1..)
    }

    #[cfg(test)]
    fn part(
        &self,
        range: impl std::slice::SliceIndex<str, Output = str>,
    ) -> impl Iterator<Item = &str> {
        (self.tokens().joined.get(range).unwrap_or_default())
            .split(' ')
            .filter(|word| !word.is_empty())
    }

    /// D22's hit for a word: 3 in the name, plus 1 in the text; 0 when it
    /// holds the word in neither.
    fn hit(&self, word: &Needle) -> u64 {
        // Most candidates hold a given word nowhere: when the lowercased
        // text says so, nothing is tokenized.
        if let Some(lowered) = self.lowered()
            && word.bare.find(lowered.as_bytes()).is_none()
        {
            return 0;
        }
        let tokens = self.tokens();
        let joined = tokens.joined.as_bytes();
        // A match never spans the name and the text (`|` is in no word),
        // and the first match is in the name exactly when the name holds
        // the word.
        match word.padded.find(joined) {
            None => 0,
            Some(first) if first < tokens.name_end => {
                let text = joined.get(tokens.name_end..).unwrap_or_default();
                3 + u64::from(word.padded.find(text).is_some())
            }
            Some(_) => 1,
        }
    }
}

/// A query word, and its searchers, built once per query word and used on
/// every candidate (`memchr`'s `memmem`): the word alone, for a candidate's
/// lowercased text, and padded with a space on each side, for its
/// [`Tokens`] (which hold the word exactly when they hold it padded).
struct Needle {
    word: String,
    bare: memmem::Finder<'static>,
    padded: memmem::Finder<'static>,
}

impl Needle {
    fn of(word: &str) -> Needle {
        Needle {
            bare: memmem::Finder::new(word.as_bytes()).into_owned(),
            padded: memmem::Finder::new(format!(" {word} ").as_bytes()).into_owned(),
            word: word.to_string(),
        }
    }

    fn word(&self) -> &str {
        &self.word
    }
}

/// The keyword search of a started run over its candidates (SPEC §5).
///
/// Every candidate is kept with its lowercased text when the search is
/// made, and tokenized once, when a query word may be among its words
/// ([`Words`]). A query is answered one of two ways, with the same scores
/// and the same order:
///
/// - **by scan** ([`SearchIndex::rank_by_scan`]): each query word is
///   looked up in every candidate's word lists, which gives its `df` and
///   its hits at once. Nothing is built, so a run asked a few keyword
///   queries (the usual agent run: ~50 candidates, 3–4 queries) pays only
///   for tokenizing the candidates its words may be in.
/// - **by the inverted index** ([`SearchIndex::rank_by_index`]): the hash
///   of each word → the candidates that hold it, built the first time it is
///   used (by [`SearchIndex::rank`], on query `SCAN_QUERIES + 1`), so a
///   query touches only the candidates that share one of its words.
///
/// [`SearchIndex::rank`] scans the first [`SCAN_QUERIES`] queries and then
/// builds the index: building costs about as much as that many scans
/// (docs/decisions.md), so no run pays much more than twice the cheaper
/// of the two, whatever its size and however often it is asked.
#[derive(Debug)]
pub struct SearchIndex<M> {
    members: Vec<(M, Words)>,
    /// Sorted `word hash << 32 | candidate`, one `u64` a posting, built
    /// with one allocation instead of a string per word; a hash only
    /// nominates a candidate, and the candidate's own words decide, so a
    /// collision can cost time but never change a `df` or a score.
    postings: OnceLock<Vec<u64>>,
    /// How many keyword queries [`SearchIndex::rank`] has answered.
    asked: AtomicUsize,
}

/// How many keyword queries a run answers by scan before it builds its
/// inverted index (see [`SearchIndex`]).
pub const SCAN_QUERIES: usize = 8;

impl<M: Clone> Clone for SearchIndex<M> {
    fn clone(&self) -> SearchIndex<M> {
        SearchIndex {
            members: self.members.clone(),
            postings: self.postings.clone(),
            asked: AtomicUsize::new(self.asked.load(Ordering::Relaxed)),
        }
    }
}

impl<M: Copy> SearchIndex<M> {
    /// Tokenizes the run's candidates, each with its name and its
    /// description or disclosure. They are all of `N`.
    pub fn new<'t>(members: impl IntoIterator<Item = (M, &'t str, &'t str)>) -> SearchIndex<M> {
        SearchIndex {
            members: (members.into_iter())
                .map(|(member, name, text)| (member, Words::of(name, text)))
                .collect(),
            postings: OnceLock::new(),
            asked: AtomicUsize::new(0),
        }
    }

    /// The best `DESCRIBE_HITS` candidates for `query` (SPEC §5): each
    /// distinct query word that is not a stopword and that some candidate
    /// holds adds `weight(N, df) · (3·[in name] + 1·[in text])`; score 0 is
    /// no hit; order is score descending, then name in byte order.
    /// `name_of` gives a candidate's name.
    ///
    /// By scan for the first [`SCAN_QUERIES`] queries, then by the index;
    /// the answer is the same either way.
    pub fn rank<'a>(&self, query: &str, name_of: impl Fn(M) -> &'a str) -> Vec<M> {
        if self.asked.fetch_add(1, Ordering::Relaxed) < SCAN_QUERIES {
            self.rank_by_scan(query, name_of)
        } else {
            self.rank_by_index(query, name_of)
        }
    }

    /// [`SearchIndex::rank`], by looking each query word up in every
    /// candidate's words.
    pub fn rank_by_scan<'a>(&self, query: &str, name_of: impl Fn(M) -> &'a str) -> Vec<M> {
        let mut scores = vec![0u64; self.members.len()];
        let mut holders: Vec<(usize, u64)> = Vec::new();
        for word in query_words(query) {
            holders.clear();
            for (id, (_, words)) in self.members.iter().enumerate() {
                let hit = words.hit(&word);
                if hit > 0 {
                    holders.push((id, hit));
                }
            }
            let weight = u64::from(weight(self.members.len(), holders.len()));
            #[cfg(any(test, feature = "mutants"))]
            let weight = crate::mutant::weight(weight);
            for &(id, hit) in &holders {
                scores[id] += weight * hit;
            }
        }
        self.best(scores.into_iter().enumerate(), name_of)
    }

    /// [`SearchIndex::rank`], through the inverted index (built by the
    /// first call).
    pub fn rank_by_index<'a>(&self, query: &str, name_of: impl Fn(M) -> &'a str) -> Vec<M> {
        let postings = self.postings.get_or_init(|| self.postings());
        let mut scores: BTreeMap<usize, u64> = BTreeMap::new();
        let mut holders: Vec<(usize, u64)> = Vec::new();
        for word in query_words(query) {
            holders.clear();
            let hash = word_hash(word.word());
            let start = postings.partition_point(|p| p >> 32 < hash);
            for id in (postings[start..].iter())
                .take_while(|p| *p >> 32 == hash)
                .map(|p| *p as u32)
            {
                let Some((_, words)) = self.members.get(id as usize) else {
                    continue;
                };
                let hit = words.hit(&word);
                if hit > 0 {
                    holders.push((id as usize, hit));
                }
            }
            // `df` is the number of holders; a word in no candidate has
            // none and adds nothing.
            let weight = u64::from(weight(self.members.len(), holders.len()));
            #[cfg(any(test, feature = "mutants"))]
            let weight = crate::mutant::weight(weight);
            for &(id, hit) in &holders {
                *scores.entry(id).or_default() += weight * hit;
            }
        }
        self.best(scores.into_iter(), name_of)
    }

    /// The postings of every candidate's words, hashed in one pass over
    /// each candidate's string ([`word_hash`] byte by byte, a word ending
    /// at its space).
    fn postings(&self) -> Vec<u64> {
        let mut postings = Vec::new();
        for (id, (_, words)) in self.members.iter().enumerate() {
            let id = u64::from(u32::try_from(id).unwrap_or(u32::MAX));
            let mut hash = WORD_HASH_SEED;
            let mut inside = false;
            for &byte in words.tokens().joined.as_bytes() {
                if byte == b' ' || byte == b'|' {
                    if inside {
                        postings.push(u64::from(hash) << 32 | id);
                    }
                    hash = WORD_HASH_SEED;
                    inside = false;
                } else {
                    hash = word_hash_step(hash, byte);
                    inside = true;
                }
            }
        }
        postings.sort_unstable();
        postings.dedup();
        postings
    }

    /// The first `DESCRIBE_HITS` of the candidates that scored: score
    /// descending, then name in byte order (names are distinct; the
    /// candidate's place breaks a tie that cannot happen, so both paths
    /// agree even then).
    fn best<'a>(
        &self,
        scores: impl Iterator<Item = (usize, u64)>,
        name_of: impl Fn(M) -> &'a str,
    ) -> Vec<M> {
        let mut hits: Vec<(u64, &str, usize, M)> = scores
            .filter(|&(_, score)| score > 0)
            .filter_map(|(id, score)| {
                let (member, _) = *self.members.get(id)?;
                Some((score, name_of(member), id, member))
            })
            .collect();
        hits.sort_unstable_by(|a, b| {
            (b.0.cmp(&a.0))
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
                .then_with(|| a.2.cmp(&b.2))
        });
        hits.into_iter()
            .take(DESCRIBE_HITS)
            .map(|(_, _, _, member)| member)
            .collect()
    }
}

/// SPEC §5's query words, before `df`: the distinct words of `query`
/// that are not stopwords. (A word no candidate holds has `df` 0, no
/// holder, and adds nothing.)
fn query_words(query: &str) -> impl Iterator<Item = Needle> {
    (words(query).into_iter())
        .filter(|word| !is_stopword(word))
        .map(|word| Needle::of(&word))
}

/// A fixed 32-bit hash of a word (FNV-1a over its bytes). It never
/// reaches output: it only nominates candidates, which are then checked.
fn word_hash(word: &str) -> u64 {
    u64::from(word.bytes().fold(WORD_HASH_SEED, word_hash_step))
}

/// FNV-1a's 32-bit offset basis.
const WORD_HASH_SEED: u32 = 0x811c_9dc5;

/// One byte of FNV-1a (32-bit prime).
fn word_hash_step(hash: u32, byte: u8) -> u32 {
    (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let caps = [("the_tool", "the")];
        let index = SearchIndex::new(caps.iter().enumerate().map(|(i, (n, t))| (i, *n, *t)));
        assert!(index.rank("the", |i: usize| caps[i].0).is_empty());
        assert_eq!(index.rank("the tool", |i: usize| caps[i].0), [0]);
    }

    #[test]
    fn weight_is_the_bit_length_of_the_squared_ratio() {
        // ⌊16/9⌋ = 1 → 1; ⌊16/4⌋ = 4 → 3; ⌊16/1⌋ = 16 → 5; ⌊10⁶/1⌋ → 20.
        assert_eq!(weight(3, 3), 1);
        assert_eq!(weight(3, 2), 3);
        assert_eq!(weight(3, 1), 5);
        assert_eq!(weight(999, 1), 20);
        assert_eq!(weight(3, 0), weight(3, 1));
        assert_eq!(weight(usize::MAX, 1), 128);
    }

    #[test]
    fn lowercasing_can_lengthen_a_word() {
        // 'İ' lowercases to "i̇" (two chars); the combining dot is part of the
        // word because the run it came from was alphanumeric.
        assert_eq!(words("İx"), ["i\u{307}x"]);
    }

    /// Both paths, and `rank` whichever it takes, on one catalog.
    fn every_path<'a>(index: &SearchIndex<usize>, query: &str, names: &[&'a str]) -> Vec<&'a str> {
        let name_of = |i: usize| names[i];
        let by_scan = index.rank_by_scan(query, name_of);
        assert_eq!(index.rank_by_index(query, name_of), by_scan, "{query:?}");
        assert_eq!(index.rank(query, name_of), by_scan, "{query:?}");
        by_scan.into_iter().map(name_of).collect()
    }

    fn indexed<'a>(caps: &[(&'a str, &'a str)]) -> (SearchIndex<usize>, Vec<&'a str>) {
        let index = SearchIndex::new(caps.iter().enumerate().map(|(i, (n, t))| (i, *n, *t)));
        (index, caps.iter().map(|(n, _)| *n).collect())
    }

    #[test]
    fn name_hits_outweigh_description_hits_and_ties_go_by_name() {
        // N = 3, `issue` in all three: weight ⌊16/9⌋ = 1 → 1. Scores:
        // c_issue 3 + 1, b_issue 3, a_other 1.
        let (index, names) = indexed(&[
            ("b_issue", "x"),
            ("a_other", "an issue"),
            ("c_issue", "issue"),
        ]);
        assert_eq!(
            every_path(&index, "issue issue", &names),
            ["c_issue", "b_issue", "a_other"]
        );
        assert!(every_path(&index, "nothing", &names).is_empty());
    }

    #[test]
    fn a_word_hash_collision_changes_no_df_and_no_hit() {
        // FNV-1a's 32 bits collide on these two words: the index nominates
        // x1 for `liquid`, and the check of its words must turn it away.
        assert_eq!(word_hash("liquid"), word_hash("costarring"));
        // N = 3. liquid: df 1 (x1 holds only `costarring`), weight
        // bit_length(⌊16/1⌋) = 5; soap: df 1, weight 5. x0 5 and x2 5, tied
        // by name; counting x1 would make liquid's df 2 (weight 3) and put
        // x2 first.
        let (index, names) = indexed(&[("x0", "liquid"), ("x1", "costarring"), ("x2", "soap")]);
        assert_eq!(every_path(&index, "liquid soap", &names), ["x0", "x2"]);
        assert_eq!(every_path(&index, "costarring", &names), ["x1"]);
    }

    #[test]
    fn a_word_is_held_whole_never_as_part_of_another() {
        // `issue` is in none of these but as a piece of a longer word, or
        // split from one by the camelCase rule in the query only.
        let (index, names) = indexed(&[
            ("issues", "reissue issue2 tissue"),
            ("other", "myIssue get_issue"),
            ("third", "ISSUE"),
        ]);
        // `myIssue` is `my`, `issue`; `get_issue` holds `issue`; ISSUE
        // lowercases. df(issue) = 2 of N = 3: weight ⌊16/4⌋ = 4 → 3.
        assert_eq!(every_path(&index, "issue", &names), ["other", "third"]);
        assert_eq!(every_path(&index, "issues tissue", &names), ["issues"]);
        // The `|` between name and text is never a word.
        assert!(every_path(&index, "|", &names).is_empty());
        assert_eq!(
            every_path(&index, "issue|other", &names),
            ["other", "third"]
        );
    }

    #[test]
    fn rank_scans_until_the_index_pays_for_itself() {
        let (index, names) = indexed(&[("create_issue", "a"), ("list_issues", "b")]);
        let name_of = |i: usize| names[i];
        for _ in 0..SCAN_QUERIES {
            assert_eq!(index.rank("create", name_of), [0]);
            assert!(index.postings.get().is_none(), "built while scanning");
        }
        assert_eq!(index.rank("create", name_of), [0]);
        assert!(index.postings.get().is_some(), "never built");
        // A clone keeps the count and the index.
        let copy = index.clone();
        assert!(copy.postings.get().is_some());
        assert_eq!(copy.rank("issues", name_of), [1]);
        // Forcing a path builds or skips the index regardless of the count.
        let (fresh, _) = indexed(&[("create_issue", "a")]);
        assert_eq!(fresh.rank_by_scan("create", |_| "create_issue"), [0]);
        assert!(fresh.postings.get().is_none());
        assert_eq!(fresh.rank_by_index("create", |_| "create_issue"), [0]);
        assert!(fresh.postings.get().is_some());
    }

    #[test]
    fn words_of_a_candidate_keep_name_and_text_apart() {
        let words = Words::of("getIssue", "Open an issue-tracker; ÀB");
        assert_eq!(words.name().collect::<Vec<_>>(), ["get", "issue"]);
        assert_eq!(
            words.text().collect::<Vec<_>>(),
            ["open", "an", "issue", "tracker", "àb"]
        );
        assert_eq!(words.hit(&Needle::of("issue")), 4);
        assert_eq!(words.hit(&Needle::of("get")), 3);
        assert_eq!(words.hit(&Needle::of("tracker")), 1);
        assert_eq!(words.hit(&Needle::of("issues")), 0);
        let empty = Words::of("", "");
        assert_eq!(empty.name().count() + empty.text().count(), 0);
        assert_eq!(empty.hit(&Needle::of("a")), 0);
    }

    #[test]
    fn an_ascii_candidate_is_tokenized_only_for_a_word_its_text_may_hold() {
        let words = Words::of("github__getIssue", "Get an issue by its number.");
        // "pull" is in no run of the lowercased text: nothing is tokenized.
        // "mber" is (in "number"): the candidate is tokenized, and its
        // words say no.
        assert_eq!(words.hit(&Needle::of("pull")), 0);
        assert!(words.tokens.get().is_none(), "no word, no tokenizing");
        assert_eq!(words.hit(&Needle::of("mber")), 0);
        assert!(words.tokens.get().is_some());
        // camelCase: `Issue` is the word `issue`, in the name and the text.
        let words = Words::of("github__getIssue", "Get an issue by its number.");
        assert_eq!(words.hit(&Needle::of("issue")), 4);
        // Not ASCII: tokenized for any word (lowercasing `À` is not ASCII's).
        let words = Words::of("Àpi", "x");
        assert_eq!(words.hit(&Needle::of("àpi")), 3);
    }

    /// Generated catalogs and queries need proptest, which the library
    /// alone (`default-features = false`) does not build with.
    #[cfg(feature = "testkit")]
    mod properties {
        use proptest::prelude::*;

        use super::*;

        /// Words with everything the tokenizer treats specially: camelCase,
        /// separators, digits, case, non-ASCII, stopwords, prefixes of others.
        const VOCABULARY: [&str; 24] = [
            "issue",
            "issues",
            "Issue",
            "getIssue",
            "list_issues",
            "create-issue",
            "HTTPServer",
            "httpserver",
            "v2API",
            "the",
            "a",
            "to",
            "Über",
            "über",
            "İx",
            "send",
            "message",
            "slack",
            "SLACK",
            "x9y",
            "pull",
            "Request",
            "requests",
            "42",
        ];

        fn phrase(max: usize) -> impl Strategy<Value = String> {
            let separator = proptest::sample::select(&[" ", "_", "-", "", ". ", "|"][..]);
            proptest::collection::vec(
                (proptest::sample::select(&VOCABULARY[..]), separator),
                0..=max,
            )
            .prop_map(|parts| parts.into_iter().map(|(w, s)| format!("{w}{s}")).collect())
        }

        proptest! {
            /// The scan and the index rank every query of every catalog alike,
            /// however many of each the run has answered.
            #[test]
            fn scan_and_index_rank_alike(
                caps in proptest::collection::vec((phrase(3), phrase(8)), 0..40),
                queries in proptest::collection::vec(phrase(4), 1..12),
            ) {
                let (index, names) = indexed(
                    &caps.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect::<Vec<_>>(),
                );
                // Names are not distinct here, as they are in a run: a tie of
                // score and name falls back to the candidate's place on both.
                let name_of = |i: usize| names[i];
                for query in &queries {
                    let by_scan = index.rank_by_scan(query, name_of);
                    prop_assert!(by_scan.len() <= DESCRIBE_HITS);
                    prop_assert_eq!(&index.rank_by_index(query, name_of), &by_scan, "{:?}", query);
                    prop_assert_eq!(&index.rank(query, name_of), &by_scan, "{:?}", query);
                }
            }
        }
    }
}
