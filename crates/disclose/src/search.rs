//! `describe`'s ranking (SPEC §5, contract version 5): the seed's D22
//! keyword weights (a name hit 3, a params hit 2, a text hit 1) times how rare
//! the stem is among this run's candidates, over Snowball 3 stems of the
//! name, the text and the params; fused with three times the cosine of
//! fitted static int8 word vectors ([`crate::contract4`]), so a tool is found when the query
//! uses other words than it does. Chinese, Japanese and Korean text is read
//! as characters and overlapping pairs, which have no vector and count by
//! their saturated occurrences; the cosine counts in proportion to the
//! query words that have a vector. Integers only: every implementation
//! ranks identically.
//!
//! A started run makes its [`SearchIndex`] at its first ranked query: the
//! candidates' stems (an inverted index from stem to holders) and vectors
//! are built once, and each query then costs its own words plus one dot
//! product per candidate. The search is per run: its candidates are what
//! that run is offered (a child's are fewer than its parent's), so `N`,
//! every `df` and every `dfv` are too.
//!
//! This module owns the candidates and the answer's order (score
//! descending, then name, the first `DESCRIBE_HITS`). The rule is in
//! `words` (what a text is) and `score` (what it is worth); the two
//! speed-ups sit beside it, each behind one entry point and held equal to
//! the rule by a test of its own: `narrow` (the dot product in i64 lanes)
//! and `memo` (what a run builds, remembered per process). The readable
//! model of §5 that the tests and the fuzzer compare all of it with is the
//! test kit's (`disclose_testkit::model`).

use std::sync::Arc;

use serde_json::Value;

use crate::DESCRIBE_HITS;

mod lexicon;
mod memo;
mod narrow;
mod score;
mod words;

#[cfg(feature = "mutants")]
pub(crate) use lexicon::Lexicon;
pub(crate) use lexicon::words;
pub(crate) use memo::built;
pub(crate) use score::{Built, cosine, saturates};
pub use score::{Signals, dot, floor_div, fuse, isqrt, saturation, weight};
pub use words::{STOPWORDS, pieces};
pub(crate) use words::{properties, split_cjk};

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

/// The search of one started run over its candidates (SPEC §5, contract
/// version 5).
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
            built: crate::seam::built(&candidates),
        }
    }

    /// Each candidate's `score(c)` for the trimmed `query`, in candidate
    /// order (SPEC §5).
    pub fn scores(&self, query: &str) -> Vec<i128> {
        self.built.scores(query)
    }

    /// Each candidate's `lex(c)` and `cos(c)` for the trimmed `query`, in
    /// candidate order, and `|Q|` and `|Qv|`: what is fused.
    pub fn parts(&self, query: &str) -> Signals {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        let mut hits: Vec<(u64, &str)> = (index.parts(query).signals.into_iter().zip(names))
            .filter(|((lex, _), _)| *lex > 0)
            .map(|((lex, _), name)| (lex, *name))
            .collect();
        hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        hits.into_iter().map(|(_, name)| name).collect()
    }

    #[test]
    fn stopwords_are_dropped_from_queries() {
        let (index, names) = indexed(&[("the_tool", "the")]);
        assert!(ranked(&index, "the", &names).is_empty());
        assert_eq!(ranked(&index, "the tool", &names), ["the_tool"]);
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
    }

    #[test]
    fn params_are_a_field_of_their_own() {
        let schema = json!({
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
        // N = 2, df(timezon) = 1: weight ⌊9/1⌋ → 4, a params hit 2
        // (contract 4) scaled by 1024 (contract 5), so lex is 8192.
        assert_eq!(by_keyword(&index, "timezones", &names), ["now"]);
        assert_eq!(index.parts("timezones").signals[0].0, 8192);
        assert_eq!(by_keyword(&index, "iana", &names), ["now"]);
        // A key whose value is not an object is a key still; `true` is not
        // a description.
        assert_eq!(by_keyword(&index, "flag", &names), ["now"]);
    }

    #[test]
    fn the_fused_score_is_the_scaled_keyword_plus_the_cosine_in_proportion() {
        let (index, _) = indexed(&[
            ("get_elevation", "Elevation of a point."),
            ("send_mail", "Sends mail. 发送邮件"),
            ("mail_merge", "Merges mail."),
        ]);
        // |Qv| of |Q|: every word has a vector, so 3·cos as in contract 4;
        // `发送`'s four CJK words have none, so 3·cos·1/5; none has one.
        for (query, with_vector, words) in [
            ("mail", 1, 1),
            ("altitude of a hill", 2, 2),
            ("elevation mail", 2, 2),
            ("mail 发送", 1, 4),
            ("发送", 0, 3),
        ] {
            let parts = index.parts(query);
            assert_eq!((parts.with_vector, parts.words), (with_vector, words));
            let most = parts.signals.iter().map(|(lex, _)| *lex).max().unwrap_or(0);
            let want: Vec<i128> = (parts.signals.iter())
                .map(|&(lex, cos)| {
                    let keyword = (1024 * lex).checked_div(most).map_or(0, i128::from);
                    keyword + (3 * cos * with_vector as i128).div_euclid(words as i128)
                })
                .collect();
            assert_eq!(index.scores(query), want, "{query}");
            if with_vector == 0 {
                assert!(parts.signals.iter().all(|(_, cos)| *cos == 0), "{query}");
            }
        }
    }

    #[test]
    fn a_chinese_query_finds_a_chinese_description() {
        let (index, names) = indexed(&[
            ("read_file", "读取文件的全部内容"),
            ("create_event", "在日历中创建一个新的会议"),
            ("other", "Lists things."),
        ]);
        assert_eq!(ranked(&index, "读取文件", &names), ["read_file"]);
        assert_eq!(
            ranked(&index, "帮我安排一个会议", &names)[0],
            "create_event"
        );
        // A CJK stem counts its saturated occurrences: N = 3, the bags'
        // lengths 17, 23 and 2 (`lists`, `things`), total 42. `读取` is in
        // read_file's bag once, df 1, weight ⌊16/1⌋ → 5: sat is
        // ⌊22528·42 / (420 + 126 + 9·17·3)⌋ = ⌊946176 / 1005⌋ = 941.
        let parts = index.parts("读取");
        assert_eq!(parts.signals[0].0, 5 * 941 * 3);
        assert_eq!(parts.signals[1].0, 0);
    }

    #[test]
    fn a_name_hit_of_a_cjk_stem_counts_3072() {
        // `会议` in the name of the one, in the text of the other.
        let (index, _) = indexed(&[("会议助手", "安排"), ("calendar", "会议")]);
        let lex: Vec<u64> = (index.parts("会议").signals.iter())
            .map(|(lex, _)| *lex)
            .collect();
        // The query's stems are 会, 会议 and 议, each held by both: N = 2,
        // df 2, weight ⌊9/4⌋ → 2. Bags: 安排's 3 words and 会议's 3,
        // total 6; each stem once in the second: sat ⌊22528·6 / (60 + 18
        // + 9·3·2)⌋ = ⌊135168 / 132⌋ = 1024. The name holds each: 3072.
        assert_eq!(lex, [3 * 2 * 3072, 3 * 2 * 1024]);
    }
}
