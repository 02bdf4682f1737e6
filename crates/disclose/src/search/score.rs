//! SPEC §5's ranking as the spec reads it: what a run's candidates are to
//! it ([`Built`]: the stems of each field, `df` over stems and `dfv` over
//! vector words, each candidate's vector and norm), and for a query each
//! candidate's `lex(c)`, `cos(c)` and fused `score(c)`; the integer
//! formulas `weight`, `hit`, `isqrt`, the floored cosine.
//!
//! It owns the arithmetic; it does not own the words (`words`), the order
//! of the answer (`SearchIndex::rank`), or the two speed-ups fenced beside
//! it: the narrow dot product (`narrow::product`, the one place a dot product
//! is asked) and the per-process memo of [`Built`] (`memo`). The rules a test
//! may plant broken (`weight`, `stem`, `params`' source, the cosine) are
//! called through `crate::seam`, which in a build without the `mutants`
//! feature is each rule itself.

use std::sync::Arc;

use multiversion::multiversion;

use super::Candidate;
use super::lexicon::{Lexicon, Word, number};
use super::narrow::{self, Form};
use super::words::params_of;
use crate::contract4::{DIMENSIONS, Vector};
use crate::lookup::Lookup;
use crate::seam;

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

/// Which fields of a candidate hold a stem.
const IN_NAME: u8 = 1;
const IN_TEXT: u8 = 2;
const IN_PARAMS: u8 = 4;

/// D22's hit of a stem in a candidate: 3 in the name, 1 in the text, 2 in
/// the params (contract 4).
fn hit(fields: u8) -> u64 {
    3 * u64::from(fields & IN_NAME != 0)
        + u64::from(fields & IN_TEXT != 0)
        + 2 * u64::from(fields & IN_PARAMS != 0)
}

/// A stem of one build: the lexicon's number for it, how many candidates
/// hold it (its `df`), and the last candidate that held it with that
/// candidate's entry in the build's list of holdings.
struct StemHeld {
    known: u32,
    df: u32,
    last: Option<(u32, u32)>,
}

/// A vector word of one build: the lexicon's number for it, its `dfv`, and
/// the last candidate that held it with that candidate's slot for it.
struct VectorWord {
    known: u32,
    dfv: u32,
    last: Option<(u32, u32)>,
}

/// What a run's candidates are, for ranking: built once from their words,
/// then read by every query (SPEC §5).
#[derive(Debug)]
pub(crate) struct Built {
    /// `N`.
    pub(super) n: usize,
    /// Each stem → its range of `holders`: `df` is the range's length.
    /// The texts are the lexicon's, shared.
    stems: Lookup<Arc<str>, (u32, u32)>,
    /// Every stem's holders, stem after stem: the candidates whose fields
    /// hold it, in candidate order, and which fields. One list, not one
    /// per stem: a build allocates it once.
    holders: Vec<(u32, u8)>,
    /// Each vector word → `dfv`.
    dfv: Lookup<Arc<str>, u32>,
    /// Each candidate's vector `v(c)`, held in 32-bit components where they
    /// fit (`narrow`), and `isqrt(v(c)·v(c))`.
    vectors: Vec<(Form, i128)>,
}

impl Built {
    /// What the rule reads of `candidates`, each planted rule (`seam`)
    /// applied: stems, fields, vector words, `df`, `dfv`, vectors. Each
    /// word's stem and pieces come from the thread's lexicon (`seam::words`),
    /// and the counting is over the lexicon's numbers for words and stems.
    pub(crate) fn of(candidates: &[Candidate<'_>]) -> Built {
        seam::words(|lexicon| Built::with(candidates, lexicon))
    }

    fn with(candidates: &[Candidate<'_>], lexicon: &mut Lexicon) -> Built {
        let n = candidates.len();
        lexicon.begin();
        // This build's stems (by the lexicon's number, slotted by the
        // lexicon), and every (stem, candidate, fields) holding in
        // candidate order: a stem's last holding is the candidate being
        // read, if it holds the stem yet.
        let mut stems: Vec<StemHeld> = Vec::new();
        let mut holdings: Vec<(u32, u32, u8)> = Vec::new();
        // This build's vector words (likewise): `dfv`, and where the
        // candidate being read counts it, if it does yet.
        let mut words: Vec<VectorWord> = Vec::new();
        // Each candidate's vector words, as (this build's word,
        // occurrences): candidate `c`'s are `held[ends[c - 1]..ends[c]]`.
        let mut held: Vec<(u32, i64)> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(n);
        for (id, candidate) in (0u32..).zip(candidates) {
            let params = params_of(seam::properties(candidate.schema));
            let parts = [(candidate.name, IN_NAME), (candidate.text, IN_TEXT)]
                .into_iter()
                .chain(params.map(|text| (text, IN_PARAMS)));
            for (text, field) in parts {
                let text = lexicon.text(text);
                for index in 0..lexicon.numbers(text).len() {
                    let known = lexicon.numbers(text)[index];
                    let facts = lexicon.word(known);
                    let (stem, stop) = (facts.stem, facts.stop);
                    let at = lexicon.stem_slot(stem, || {
                        stems.push(StemHeld {
                            known: stem,
                            df: 0,
                            last: None,
                        });
                        number(stems.len() - 1)
                    });
                    let stem = &mut stems[at as usize];
                    match stem.last {
                        Some((holder, entry)) if holder == id => {
                            holdings[entry as usize].2 |= field
                        }
                        _ => {
                            stem.last = Some((id, number(holdings.len())));
                            stem.df += 1;
                            holdings.push((at, id, field));
                        }
                    }
                    if stop {
                        continue;
                    }
                    let at = lexicon.word_slot(known, || {
                        words.push(VectorWord {
                            known,
                            dfv: 0,
                            last: None,
                        });
                        number(words.len() - 1)
                    });
                    let word = &mut words[at as usize];
                    match word.last {
                        Some((holder, slot)) if holder == id => held[slot as usize].1 += 1,
                        _ => {
                            word.last = Some((id, number(held.len())));
                            word.dfv += 1;
                            held.push((at, 1));
                        }
                    }
                }
            }
            ends.push(held.len());
        }
        // Each distinct word is weighed once; its vector is added once per
        // candidate, times its occurrences there.
        let weights: Vec<i64> = (words.iter())
            .map(|word| i64::from(seam::weight(n, word.dfv as usize)))
            .collect();
        // Allocated once (a vector is half a KiB, and a growing list of
        // them copies itself at each step).
        let mut vectors: Vec<(Form, i128)> = Vec::with_capacity(n);
        let mut start = 0;
        for &end in &ends {
            let form = vector_of(&held[start..end], |at| {
                let word = &words[at as usize];
                (lexicon.word(word.known), weights[at as usize])
            });
            let norm = isqrt_of(narrow::product(&form, &form));
            vectors.push((form, norm));
            start = end;
        }
        let dfv = (words.iter())
            .map(|word| (Arc::clone(&lexicon.word(word.known).text), word.dfv))
            .collect();
        // The holdings grouped by stem (a counting sort, which keeps each
        // stem's in candidate order).
        let mut starts: Vec<u32> = Vec::with_capacity(stems.len());
        let mut stem_ranges = Lookup::with_capacity(stems.len());
        let mut end = 0u32;
        for stem in &stems {
            starts.push(end);
            stem_ranges.insert(
                Arc::clone(lexicon.stem_text(stem.known)),
                (end, end + stem.df),
            );
            end += stem.df;
        }
        let mut holders = vec![(0u32, 0u8); holdings.len()];
        for (stem, id, fields) in holdings {
            let start = &mut starts[stem as usize];
            holders[*start as usize] = (id, fields);
            *start += 1;
        }
        Built {
            n,
            stems: stem_ranges,
            holders,
            dfv,
            vectors,
        }
    }

    /// Every candidate's `lex(c)` and `cos(c)` for the trimmed `query`
    /// (SPEC §5), by candidate. Each query word's stem and vector are the
    /// thread's lexicon's (`seam::words`), as a build's are.
    pub(super) fn parts(&self, query: &str) -> Vec<(u64, i128)> {
        seam::words(|lexicon| self.parts_with(query, lexicon))
    }

    fn parts_with(&self, query: &str, lexicon: &mut Lexicon) -> Vec<(u64, i128)> {
        let n = self.n;
        // The query's distinct words that are no stopword, by the
        // lexicon's numbers, in order.
        let mut query_words: Vec<u32> = Vec::new();
        let text = lexicon.text(query);
        for &known in lexicon.numbers(text) {
            if !lexicon.word(known).stop && !query_words.contains(&known) {
                query_words.push(known);
            }
        }
        // Keywords: the distinct stems with df > 0.
        let mut lex = vec![0u64; n];
        let mut seen: Vec<u32> = Vec::new();
        for &known in &query_words {
            let stem = lexicon.word(known).stem;
            if seen.contains(&stem) {
                continue;
            }
            if let Some(&(start, end)) = self.stems.get(lexicon.stem_text(stem).as_ref()) {
                let holders = &self.holders[start as usize..end as usize];
                let weight = u64::from(seam::weight(n, holders.len()));
                for &(id, fields) in holders {
                    lex[id as usize] += weight * hit(fields);
                }
            }
            seen.push(stem);
        }
        // Vectors: the query's, weighed by the candidates' dfv.
        let mut query_vector = [0i64; DIMENSIONS];
        for &known in &query_words {
            let word = lexicon.word(known);
            let df = self.dfv.get(word.text.as_ref()).copied().unwrap_or(0);
            word.add_to(&mut query_vector, i64::from(seam::weight(n, df as usize)));
        }
        let query = Form::of(&query_vector);
        let query_norm = isqrt_of(narrow::product(&query, &query));
        (lex.into_iter().zip(&self.vectors))
            .map(|(lex, (vector, norm))| {
                let product = narrow::product(&query, vector);
                (lex, seam::cosine(product, query_norm, *norm))
            })
            .collect()
    }

    /// SPEC §5's fusion of [`Built::parts`]: `⌊1024·lex/L⌋ + 3·cos`.
    pub(super) fn scores(&self, query: &str) -> Vec<i128> {
        let parts = self.parts(query);
        let most = parts.iter().map(|(lex, _)| *lex).max().unwrap_or(0);
        (parts.into_iter())
            .map(|(lex, cos)| {
                // 0 when L = 0.
                let keyword = (1024 * lex).checked_div(most).map_or(0, i128::from);
                keyword + 3 * cos
            })
            .collect()
    }
}

/// A candidate's vector `v(c)`: the sum, over its vector words, of each
/// word's vector × its weight × its occurrences, as the word's `facts`
/// and weight give them. Summed in 32-bit lanes when every multiple fits
/// `i16` and the sum of their magnitudes × the words' reach fits `i32`
/// (then no partial sum can leave `i32`, and the lanes are exact), in the
/// rule's wrapping 64-bit ones otherwise. Compiled also for the wider
/// lanes of AVX2 and SSE4.1, picked at run time where the processor has
/// them (the same sums, fewer instructions: `narrow` says so of the dot).
#[multiversion(targets("x86_64+avx2", "x86_64+sse4.1"))]
fn vector_of<'a>(held: &[(u32, i64)], facts: impl Fn(u32) -> (&'a Word, i64)) -> Form {
    let mut bound = 0i128;
    let mut narrow = true;
    for &(at, times) in held {
        let (word, weight) = facts(at);
        let times = i128::from(weight) * i128::from(times);
        narrow &= i16::try_from(times).is_ok();
        bound = bound.saturating_add(times.abs().saturating_mul(i128::from(word.reach())));
    }
    if narrow && bound <= i128::from(i32::MAX) {
        let mut vector = [0i32; DIMENSIONS];
        for &(at, times) in held {
            let (word, weight) = facts(at);
            // Fits i16: checked above.
            let times = i16::try_from(weight * times).unwrap_or(0);
            word.add_narrow(&mut vector, times);
        }
        return Form::narrow(vector);
    }
    let mut vector = [0i64; DIMENSIONS];
    for &(at, times) in held {
        let (word, weight) = facts(at);
        word.add_to(&mut vector, weight.wrapping_mul(times));
    }
    Form::of(&vector)
}

/// SPEC §5 `cos(c)`: `⌊1024 · (q·c) / (nq · nc)⌋` of the dot product
/// `q·c`, floored also when it is negative; 0 when either norm is.
pub(crate) fn cosine(product: i128, query_norm: i128, norm: i128) -> i128 {
    if query_norm <= 0 || norm <= 0 {
        return 0;
    }
    let scaled = product.wrapping_mul(1024);
    let divisor = query_norm.wrapping_mul(norm).max(1);
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

pub(super) fn isqrt_of(x: i128) -> i128 {
    i128::try_from(isqrt(x.max(0).unsigned_abs())).unwrap_or(i128::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract4::{add_rows, pieces};

    /// A candidate's vector in 32-bit lanes is the rule's, and the wide
    /// sum is taken wherever a multiple or the bound would leave them:
    /// each word's pieces added one by one by the rule (`add_rows`),
    /// times weight × occurrences.
    #[test]
    fn a_vector_is_the_rule_s_in_either_lanes() {
        let mut lexicon = Lexicon::default();
        let text = lexicon.text("organize timezones quickly zebra ꙮ unaffable parse");
        let known = lexicon.numbers(text).to_vec();
        let cases: [&[(u32, i64, i64)]; 4] = [
            // Narrow: small multiples.
            &[(0, 3, 1), (1, 20, 2), (2, 1, 7), (5, 12, 1)],
            // A multiple past i16: wide.
            &[(0, 3, 1), (3, 129, 1000)],
            // Multiples at i16's edge: narrow or wide, as their bound says.
            &[(0, 1, 32767), (1, 129, 254), (2, 2, 16383), (6, 1, 32767)],
            // Past i64 when multiplied: the rule wraps, and so does this.
            &[(4, 1 << 40, 1 << 30), (6, 129, 3)],
        ];
        for case in cases {
            let held: Vec<(u32, i64)> = case.iter().map(|&(at, _, times)| (at, times)).collect();
            let form = vector_of(&held, |at| {
                (
                    lexicon.word(known[at as usize]),
                    case.iter().find(|c| c.0 == at).map_or(0, |c| c.1),
                )
            });
            let mut rule = [0i64; DIMENSIONS];
            for &(at, weight, times) in case {
                let word = &lexicon.word(known[at as usize]).text;
                add_rows(&mut rule, &pieces(word), weight.wrapping_mul(times));
            }
            assert_eq!(*form.wide(), rule, "{case:?}");
            assert_eq!(narrow::product(&form, &form), dot(&rule, &rule));
        }
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
        assert_eq!(cosine(dot(&q, &c), 0, 5), 0);
        assert_eq!(cosine(dot(&q, &c), 3, 0), 0);
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
}
