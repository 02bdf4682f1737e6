//! Keyword search for `describe` (SPEC §5, seed 001 D22).
//!
//! A started run tokenizes every capability once, into compact sorted word
//! lists, and builds an inverted index from word to the capabilities that
//! hold it — the first time a keyword query needs it, so runs that never
//! search never pay for it. A query then touches only the capabilities that
//! share one of its words instead of re-scanning every description.

use std::collections::BTreeMap;

use crate::DESCRIBE_HITS;

/// The words of a text: maximal runs of alphanumeric characters,
/// lowercased. `_` and `-` separate words, so `github__create_issue` is
/// `github`, `create`, `issue`.
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
        let mut joined = String::with_capacity(text.len());
        let mut in_word = false;
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                joined.push(c.to_ascii_lowercase());
            } else if !c.is_ascii() && c.is_alphanumeric() {
                joined.extend(c.to_lowercase());
            } else {
                if in_word {
                    joined.push(' ');
                }
                in_word = false;
                continue;
            }
            in_word = true;
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

/// A capability's words, split by where they score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Words of the name (a hit scores 3).
    pub name: WordList,
    /// Words of the description or disclosure (a hit scores 1).
    pub text: WordList,
}

impl Words {
    /// Tokenizes a capability's name and description.
    pub fn of(name: &str, text: &str) -> Words {
        Words {
            name: WordList::of(name),
            text: WordList::of(text),
        }
    }
}

/// The inverted index of a started run: the hash of each word → the
/// capabilities that hold it.
///
/// Postings are one sorted vector of `(word hash, member)`, built with one
/// allocation instead of a string per word; a hash only nominates a
/// candidate, and the candidate's own word lists decide, so a collision
/// can cost time but never change a score.
#[derive(Clone, Debug)]
pub struct SearchIndex<M> {
    members: Vec<(M, Words)>,
    postings: Vec<(u64, u32)>,
}

impl<M: Copy> SearchIndex<M> {
    /// Tokenizes and indexes `members`, each with its name and its
    /// description or disclosure.
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

    /// The best `DESCRIBE_HITS` members for `query`: score (3 per distinct
    /// query word in the name, 1 per word in the text) descending, then
    /// name in byte order; score 0 is no hit. `name_of` gives a member's
    /// name.
    pub fn rank<'a>(&self, query: &str, name_of: impl Fn(M) -> &'a str) -> Vec<M> {
        let mut scores: BTreeMap<u32, u32> = BTreeMap::new();
        for word in words(query) {
            let word = word.as_str();
            let hash = word_hash(word);
            let start = self.postings.partition_point(|p| p.0 < hash);
            for &(_, id) in self.postings[start..].iter().take_while(|p| p.0 == hash) {
                let Some((_, words)) = self.members.get(id as usize) else {
                    continue;
                };
                let score =
                    3 * u32::from(words.name.contains(word)) + u32::from(words.text.contains(word));
                if score > 0 {
                    *scores.entry(id).or_default() += score;
                }
            }
        }
        let mut hits: Vec<(u32, &str, M)> = scores
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
