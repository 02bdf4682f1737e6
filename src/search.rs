//! Keyword search for `describe` (SPEC §5, contract version 2): the seed's
//! D22 weights (a name hit 3, a text hit 1), each multiplied by how rare
//! the word is among this run's candidates, in integers only.
//!
//! A started run tokenizes every candidate once, into compact word lists,
//! and builds an inverted index from word to the candidates that hold it —
//! the first time a keyword query needs it, so runs that never search never
//! pay for it, and admission never tokenizes. A query then touches only the
//! candidates that share one of its words: the same postings give each
//! word's `df` and its hits, so no query re-scans every description.
//!
//! The index is per run: its candidates are what that run is offered (a
//! child's are fewer than its parent's), so `N` and every `df` are too.

use std::collections::BTreeMap;

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
/// `df ≤ N`. A word in every candidate weighs 1; a word in one of 1,000
/// weighs 20.
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
/// Held as the lowercased text with one space between words (a word never
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
        // The previous character, while inside a run of alphanumerics.
        let mut previous: Option<char> = None;
        for c in text.chars() {
            if !c.is_alphanumeric() {
                if previous.is_some() {
                    joined.push(' ');
                }
                previous = None;
                continue;
            }
            // The camelCase boundary: `tW` and `2W`, never `PS` (HTTPServer).
            if previous.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                && c.is_ascii_uppercase()
            {
                joined.push(' ');
            }
            if c.is_ascii() {
                joined.push(c.to_ascii_lowercase());
            } else {
                joined.extend(c.to_lowercase());
            }
            previous = Some(c);
        }
        WordList { joined }
    }

    /// The words, in text order (with repeats).
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.joined.split_terminator(' ')
    }

    /// Whether `word` is one of them.
    pub fn contains(&self, word: &str) -> bool {
        self.iter().any(|w| w == word)
    }
}

/// The words of `text`, sorted and distinct (see [`WordList`]).
pub fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = WordList::of(text).iter().map(str::to_string).collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// A candidate's words, split by where they score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Words of the name (a hit weighs 3).
    pub name: WordList,
    /// Words of the description or disclosure (a hit weighs 1).
    pub text: WordList,
}

impl Words {
    /// Tokenizes a candidate's name and description.
    pub fn of(name: &str, text: &str) -> Words {
        Words {
            name: WordList::of(name),
            text: WordList::of(text),
        }
    }

    /// D22's hit for `word`: 3 in the name, plus 1 in the text; 0 when it
    /// holds the word in neither.
    fn hit(&self, word: &str) -> u64 {
        3 * u64::from(self.name.contains(word)) + u64::from(self.text.contains(word))
    }
}

/// The inverted index of a started run over its candidates (SPEC §5): the
/// hash of each word → the candidates that hold it.
///
/// Postings are one sorted vector of `(word hash, candidate)`, built with
/// one allocation instead of a string per word; a hash only nominates a
/// candidate, and the candidate's own word lists decide, so a collision
/// can cost time but never change a `df` or a score.
#[derive(Clone, Debug)]
pub struct SearchIndex<M> {
    members: Vec<(M, Words)>,
    postings: Vec<(u64, u32)>,
}

impl<M: Copy> SearchIndex<M> {
    /// Tokenizes and indexes the run's candidates, each with its name and
    /// its description or disclosure. They are all of `N`.
    pub fn new<'t>(members: impl IntoIterator<Item = (M, &'t str, &'t str)>) -> SearchIndex<M> {
        let mut index = SearchIndex {
            members: Vec::new(),
            postings: Vec::new(),
        };
        for (member, name, text) in members {
            let id = u32::try_from(index.members.len()).unwrap_or(u32::MAX);
            let words = Words::of(name, text);
            for word in words.name.iter().chain(words.text.iter()) {
                index.postings.push((word_hash(word), id));
            }
            index.members.push((member, words));
        }
        index.postings.sort_unstable();
        index.postings.dedup();
        index
    }

    /// The best `DESCRIBE_HITS` candidates for `query` (SPEC §5): each
    /// distinct query word that is not a stopword and that some candidate
    /// holds adds `weight(N, df) · (3·[in name] + 1·[in text])`; score 0 is
    /// no hit; order is score descending, then name in byte order.
    /// `name_of` gives a candidate's name.
    pub fn rank<'a>(&self, query: &str, name_of: impl Fn(M) -> &'a str) -> Vec<M> {
        let candidates = self.members.len();
        let mut scores: BTreeMap<u32, u64> = BTreeMap::new();
        let mut holders: Vec<(u32, u64)> = Vec::new();
        for word in words(query) {
            if is_stopword(&word) {
                continue;
            }
            holders.clear();
            let hash = word_hash(&word);
            let start = self.postings.partition_point(|p| p.0 < hash);
            for &(_, id) in self.postings[start..].iter().take_while(|p| p.0 == hash) {
                let Some((_, words)) = self.members.get(id as usize) else {
                    continue;
                };
                let hit = words.hit(&word);
                if hit > 0 {
                    holders.push((id, hit));
                }
            }
            // `df` is the number of holders; a word in no candidate has
            // none and adds nothing.
            let weight = u64::from(weight(candidates, holders.len()));
            #[cfg(any(test, feature = "mutants"))]
            let weight = crate::mutant::weight(weight);
            for &(id, hit) in &holders {
                *scores.entry(id).or_default() += weight * hit;
            }
        }
        let mut hits: Vec<(u64, &str, M)> = scores
            .into_iter()
            .filter_map(|(id, score)| {
                let (member, _) = *self.members.get(id as usize)?;
                Some((score, name_of(member), member))
            })
            .collect();
        hits.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.as_bytes().cmp(b.1.as_bytes()))
        });
        hits.into_iter()
            .take(DESCRIBE_HITS)
            .map(|(_, _, member)| member)
            .collect()
    }
}

/// A fixed hash of a word (std's SipHash with its fixed keys). It never
/// reaches output: it only nominates candidates, which are then checked.
fn word_hash(word: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    word.hash(&mut hasher);
    hasher.finish()
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

    #[test]
    fn name_hits_outweigh_description_hits_and_ties_go_by_name() {
        let caps = [
            ("b_issue", "x"),
            ("a_other", "an issue"),
            ("c_issue", "issue"),
        ];
        let index = SearchIndex::new(caps.iter().enumerate().map(|(i, (n, t))| (i, *n, *t)));
        let name_of = |i: usize| caps[i].0;
        let names = |hits: Vec<usize>| hits.into_iter().map(name_of).collect::<Vec<_>>();
        assert_eq!(
            names(index.rank("issue issue", name_of)),
            ["c_issue", "b_issue", "a_other"]
        );
        assert!(index.rank("nothing", name_of).is_empty());
    }
}
