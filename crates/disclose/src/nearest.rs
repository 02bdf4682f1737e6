//! The distance behind `call.unknown`'s nearest names (SPEC §6.1 rule 3):
//! Levenshtein distance over chars, from one asked name to many offered
//! names, with a cutoff past which the exact distance does not matter.
//!
//! Two exact ways, chosen by the asked name's length. An ordinary name is
//! compared by `rapidfuzz`'s bit-parallel Levenshtein (one pattern built
//! for the asked name, `⌈n/64⌉` words a candidate char). That costs the
//! asked name's length for every offered tool, so a 1 MB name over 20,000
//! tools would cost minutes; past [`LONG_NAME`] chars the asked name is
//! indexed once (each char's positions) and each candidate, at most 64
//! bytes as every admitted name is, is aligned into it by [`Long`]'s
//! dynamic programme in `O(m² log n)`: the cost of a pair no longer grows
//! with the asked name. Before either, a candidate whose length differs from
//! the asked name's by more than the cutoff is dropped unseen (the distance
//! is at least that difference). The property tests hold each way equal to
//! the textbook table, and [`Asked`] equal to the plain comparison.

use rapidfuzz::distance::levenshtein;

/// Asked names longer than this many chars are compared by [`Long`].
/// Below it the bit-parallel comparison costs at most four words a
/// candidate char; past it that cost would grow with the asked name
/// (`n/64 · m` word steps, issue 26: 100 names of 2,000 chars over 20,000
/// tools took 32 times as long as names of 60), while the alignment's
/// (`2m² · log n`, pruned to the scores the cutoff leaves) does not.
pub(crate) const LONG_NAME: usize = 256;

/// One asked name, ready to be compared with many candidates.
pub(crate) struct Asked {
    /// The asked name's length in chars.
    len: usize,
    way: Way,
}

/// How an asked name is compared.
enum Way {
    /// An ordinary name: the bit-parallel comparator.
    Short(levenshtein::BatchComparator<char>),
    /// A name longer than [`LONG_NAME`] chars.
    Long(Long),
}

impl Asked {
    /// Prepares `name`.
    pub(crate) fn new(name: &str) -> Asked {
        let len = name.chars().count();
        let way = if len > LONG_NAME {
            Way::Long(Long::new(name))
        } else {
            Way::Short(levenshtein::BatchComparator::new(name.chars()))
        };
        Asked { len, way }
    }

    /// The distance to `candidate`, or `None` when it is past `cutoff`.
    pub(crate) fn distance(&self, candidate: &str, cutoff: Option<usize>) -> Option<usize> {
        // The length bound: every edit changes the length by at most one,
        // so the distance is at least the difference of the lengths.
        if let Some(cutoff) = cutoff
            && self.len.abs_diff(candidate.chars().count()) > cutoff
        {
            return None;
        }
        match &self.way {
            Way::Short(asked) => match cutoff {
                Some(cutoff) => {
                    let args = levenshtein::Args::default().score_cutoff(cutoff);
                    asked.distance_with_args(candidate.chars(), &args)
                }
                None => Some(asked.distance(candidate.chars())),
            },
            Way::Long(asked) => asked.distance(candidate, cutoff),
        }
    }
}

/// A long asked name `a` (`n` chars), indexed by char: every `(char,
/// position)` pair, sorted, so the next occurrence of a char at or after a
/// position is two binary searches.
pub(crate) struct Long {
    positions: Vec<(char, u32)>,
    len: usize,
}

impl Long {
    /// Indexes `name`.
    pub(crate) fn new(name: &str) -> Long {
        let mut positions: Vec<(char, u32)> = name
            .chars()
            .enumerate()
            .map(|(i, c)| (c, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        let len = positions.len();
        positions.sort_unstable();
        Long { positions, len }
    }

    /// The positions of `c` in the name, in order.
    fn of(&self, c: char) -> &[(char, u32)] {
        let start = self.positions.partition_point(|&(x, _)| x < c);
        let of_c = &self.positions[start..];
        &of_c[..of_c.partition_point(|&(x, _)| x == c)]
    }

    /// The first position `≥ from` among `of_c`, the positions of one char.
    fn next(of_c: &[(char, u32)], from: u32) -> Option<u32> {
        let at = of_c.partition_point(|&(_, p)| p < from);
        of_c.get(at).map(|&(_, p)| p)
    }

    /// The Levenshtein distance from the name to `b`, or `None` when it is
    /// past `cutoff`.
    ///
    /// An alignment pairs chars of `b` with chars of `a` in order; a pair is
    /// a match or a substitution, every unpaired char an insertion or a
    /// deletion. Its cost is `n + m − (2·matches + substitutions)`, so the
    /// distance is `n + m − S` for the best score `S`. `best[s]` is the
    /// fewest chars of `a` that the first `j` chars of `b` need to reach
    /// score `s` (fewer is never worse: every way on from a later position
    /// is open from an earlier one). Each char of `b` is left unpaired,
    /// paired with the next char of `a` (a substitution, or a match when
    /// equal, which the third move also finds), or matched with the next
    /// equal char of `a`.
    pub(crate) fn distance(&self, b: &str, cutoff: Option<usize>) -> Option<usize> {
        const NONE: u32 = u32::MAX;
        let b: Vec<char> = b.chars().collect();
        let (n, m) = (self.len, b.len());
        // The score needed to be within the cutoff.
        let need = cutoff.map_or(0, |c| (n + m).saturating_sub(c));
        if need > 2 * m {
            return None;
        }
        let mut best = vec![NONE; 2 * m + 1];
        let mut next = vec![NONE; 2 * m + 1];
        best[0] = 0;
        for (j, &c) in b.iter().enumerate() {
            next.fill(NONE);
            let of_c = self.of(c);
            // A score that cannot reach `need` with two a char to come is
            // dropped.
            let reachable = 2 * (m - j);
            for s in 0..=2 * j {
                let p = best[s];
                if p == NONE || s + reachable < need {
                    continue;
                }
                next[s] = next[s].min(p);
                if (p as usize) < n {
                    next[s + 1] = next[s + 1].min(p + 1);
                }
                if let Some(q) = Long::next(of_c, p) {
                    next[s + 2] = next[s + 2].min(q + 1);
                }
            }
            std::mem::swap(&mut best, &mut next);
        }
        let score = (0..=2 * m).rev().find(|&s| best[s] != NONE)?;
        let distance = n + m - score;
        match cutoff {
            Some(c) if distance > c => None,
            _ => Some(distance),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook table, over chars.
    pub(crate) fn textbook(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, x) in a.iter().enumerate() {
            let mut next = vec![i + 1];
            for (j, y) in b.iter().enumerate() {
                let cost = row[j] + usize::from(x != y);
                next.push(cost.min(row[j + 1] + 1).min(next[j] + 1));
            }
            row = next;
        }
        row[b.len()]
    }

    #[test]
    fn levenshtein_is_over_chars() {
        // SPEC §6 check 3 counts chars, not bytes: `é` is one edit from `e`.
        let distance = |a: &str, b: &str| levenshtein::distance(a.chars(), b.chars());
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("é", "e"), 1);
        assert_eq!(distance("same", "same"), 0);
        // With a cutoff, a distance past it is `None`, one at it is kept.
        let kitten = levenshtein::BatchComparator::new("kitten".chars());
        let at = |cutoff| levenshtein::Args::default().score_cutoff(cutoff);
        assert_eq!(
            kitten.distance_with_args("sitting".chars(), &at(3)),
            Some(3)
        );
        assert_eq!(kitten.distance_with_args("sitting".chars(), &at(2)), None);
    }

    #[test]
    fn long_is_the_textbook_on_known_pairs() {
        for (a, b) in [
            ("kitten", "sitting"),
            ("sitting", "kitten"),
            ("", "abc"),
            ("abc", ""),
            ("aaaa", "a"),
            ("ababababab", "bbbb"),
            ("éxyz", "e"),
            ("same", "same"),
        ] {
            assert_eq!(
                Long::new(a).distance(b, None),
                Some(textbook(a, b)),
                "{a} {b}"
            );
        }
    }

    #[test]
    fn the_cutoff_keeps_a_distance_at_it_and_drops_one_past_it() {
        let long = Long::new("kitten");
        assert_eq!(long.distance("sitting", Some(3)), Some(3));
        assert_eq!(long.distance("sitting", Some(2)), None);
        let huge = "x".repeat(10_000);
        assert_eq!(Long::new(&huge).distance("abc", Some(9_000)), None);
        // Two substitutions, one match, 9,997 deletions.
        assert_eq!(Long::new(&huge).distance("axc", None), Some(9_999));
    }

    #[test]
    fn names_past_the_threshold_are_long() {
        assert!(matches!(
            Asked::new(&"a".repeat(LONG_NAME)).way,
            Way::Short(_)
        ));
        assert!(matches!(
            Asked::new(&"é".repeat(LONG_NAME + 1)).way,
            Way::Long(_)
        ));
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::{Asked, LONG_NAME, Long};
        use super::textbook;
        use rapidfuzz::distance::levenshtein;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(1024))]

            /// The alignment is the textbook distance, with and without a
            /// cutoff, on small alphabets (many matches, many ways to
            /// align) and asked names up to ten times the candidate's length.
            #[test]
            fn long_is_the_textbook(
                a in "[abcé]{0,300}",
                b in "[abcdé_]{0,40}",
                slack in 0usize..6,
            ) {
                let exact = textbook(&a, &b);
                let long = Long::new(&a);
                prop_assert_eq!(long.distance(&b, None), Some(exact));
                prop_assert_eq!(long.distance(&b, Some(exact + slack)), Some(exact));
                if exact > 0 {
                    prop_assert_eq!(long.distance(&b, Some(exact - 1)), None);
                }
            }

            /// The fast path ([`Asked`]: the length bound, then either way
            /// by the asked name's length) against the plain one, one
            /// bit-parallel comparison with no bound, names on both sides
            /// of [`LONG_NAME`]: the same distance within any cutoff, and
            /// `None` exactly past it.
            #[test]
            fn asked_is_the_plain_comparison(
                head in "[abcé_]{0,40}",
                repeat in 0usize..(LONG_NAME / 2 + 40),
                tail in "[ab]{0,2}",
                b in "[abcdé_]{0,40}",
                cutoff in proptest::option::of(0usize..(LONG_NAME + 80)),
            ) {
                let a = format!("{head}{}{tail}", "ab".repeat(repeat));
                let plain = levenshtein::distance(a.chars(), b.chars());
                let expected = match cutoff {
                    Some(c) if plain > c => None,
                    _ => Some(plain),
                };
                prop_assert_eq!(Asked::new(&a).distance(&b, cutoff), expected);
            }
        }
    }
}
