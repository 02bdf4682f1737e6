//! Keyword search for `describe` (SPEC §5, seed 001 D22).
//!
//! Words are tokenized once, at admission; a started run builds an inverted
//! index from word to the capabilities that hold it, so a query touches only
//! the postings of its own words instead of re-scanning every description.

use std::collections::{BTreeMap, BTreeSet};

use crate::DESCRIBE_HITS;

/// The words of `text`: maximal runs of alphanumeric characters, lowercased.
/// `_` and `-` separate words, so `github__create_issue` is `github`,
/// `create`, `issue`.
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.chars().flat_map(char::to_lowercase).collect())
        .collect()
}

/// A capability's words, split by where they score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Words of the name (a hit scores 3).
    pub name: BTreeSet<String>,
    /// Words of the description or disclosure (a hit scores 1).
    pub text: BTreeSet<String>,
}

impl Words {
    /// Tokenizes a capability's name and description.
    pub fn of(name: &str, text: &str) -> Words {
        Words {
            name: words(name),
            text: words(text),
        }
    }
}

/// The inverted index of a started run: word → (capability, weight).
#[derive(Clone, Debug, Default)]
pub struct SearchIndex {
    /// The hit line of each capability, `- <name>: <hint>` or
    /// `- skill <name>: <hint>`, with the name it sorts by.
    lines: Vec<(String, String)>,
    postings: BTreeMap<String, Vec<(u32, u32)>>,
}

impl SearchIndex {
    /// Adds a capability; `sort_name` breaks score ties in byte order.
    pub fn add(&mut self, sort_name: &str, hit_line: String, words: &Words) {
        let id = u32::try_from(self.lines.len()).unwrap_or(u32::MAX);
        self.lines.push((sort_name.to_string(), hit_line));
        for word in words.name.union(&words.text) {
            let weight =
                3 * u32::from(words.name.contains(word)) + u32::from(words.text.contains(word));
            self.postings
                .entry(word.clone())
                .or_default()
                .push((id, weight));
        }
    }

    /// The hit lines of the best `DESCRIBE_HITS` capabilities for `query`:
    /// score descending, then name in byte order; score 0 is no hit.
    pub fn rank(&self, query: &str) -> Vec<&str> {
        let mut scores: BTreeMap<u32, u32> = BTreeMap::new();
        for word in words(query) {
            for &(id, weight) in self.postings.get(&word).into_iter().flatten() {
                *scores.entry(id).or_default() += weight;
            }
        }
        let mut hits: Vec<(u32, &(String, String))> = scores
            .into_iter()
            .filter_map(|(id, score)| Some((score, self.lines.get(id as usize)?)))
            .collect();
        hits.sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| a.1.0.as_bytes().cmp(b.1.0.as_bytes()))
        });
        hits.into_iter()
            .take(DESCRIBE_HITS)
            .map(|(_, (_, line))| line.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_separators_and_lowercase() {
        let w: Vec<String> = words("github__create_issue Créer-ISSUE 42x")
            .into_iter()
            .collect();
        assert_eq!(w, ["42x", "create", "créer", "github", "issue"]);
        assert!(words("").is_empty());
        assert!(words("__--  ..").is_empty());
    }

    #[test]
    fn name_hits_outweigh_description_hits_and_ties_go_by_name() {
        let mut index = SearchIndex::default();
        for (name, text) in [
            ("b_issue", "x"),
            ("a_other", "an issue"),
            ("c_issue", "issue"),
        ] {
            index.add(name, format!("- {name}"), &Words::of(name, text));
        }
        assert_eq!(
            index.rank("issue issue"),
            ["- c_issue", "- b_issue", "- a_other"]
        );
        assert!(index.rank("nothing").is_empty());
    }
}
