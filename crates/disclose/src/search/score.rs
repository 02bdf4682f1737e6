//! SPEC §5's ranking as the spec reads it (contract 5): what a run's
//! candidates are to it ([`Built`]: the stems of each field with how often
//! each is in a candidate's bag, each bag's length and their total, `df`
//! over stems and `dfv` over vector words, each candidate's vector and
//! norm), and for a query each candidate's `lex(c)`, `cos(c)` and fused
//! `score(c)`; the integer formulas `weight`, `part` (a whole word by
//! presence, a CJK stem by its saturated occurrences, `saturation`),
//! `isqrt`, the floored cosine and `fuse`.
//!
//! It owns the arithmetic; it does not own the words (`words`), the order
//! of the answer (`SearchIndex::rank`), or the two speed-ups fenced beside
//! it: the narrow dot product (`narrow::product`, the one place a dot product
//! is asked) and the per-process memo of [`Built`] (`memo`). The rules a test
//! may plant broken (`weight`, `stem`, `params`' source, `pieces`, which
//! stems saturate, the cosine, the fusion) are called through
//! `crate::seam`, which in a build without the `mutants` feature is each
//! rule itself.

use std::sync::Arc;

use multiversion::multiversion;

use super::Candidate;
use super::lexicon::{Lexicon, Word, number};
use super::narrow::{self, Form};
use super::words::{is_cjk_word, params_of};
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

/// SPEC §5 `part(t, c)` of a stem that is not a CJK word: D22's hit, 3 in
/// the name, 1 in the text, 2 in the params (contract 4), scaled by 1024
/// (contract 5).
fn presence(fields: u8) -> u64 {
    1024 * (3 * u64::from(fields & IN_NAME != 0)
        + u64::from(fields & IN_TEXT != 0)
        + 2 * u64::from(fields & IN_PARAMS != 0))
}

/// SPEC §5 `part(t, c)` of a CJK stem (contract 5): 3072 for a name hit,
/// plus `sat(t, c)`, its occurrences in the candidate's bag saturated.
fn occurrences(fields: u8, tf: u32, len: u32, total: u64, candidates: usize) -> u64 {
    3072 * u64::from(fields & IN_NAME != 0) + saturation(tf, len, total, candidates)
}

/// SPEC §5 `sat(t, c)` (contract 5): 0 when `tf` = 0, else
/// `⌊22528·tf·total / (10·tf·total + 3·total + 9·len·N)⌋`, 1024 times
/// BM25's saturation `tf·(k₁+1) / (tf + k₁·(1 − b + b·len/avg))` with
/// `k₁ = 6/5`, `b = 3/4` and `avg = total/N`, in unsigned 128-bit
/// integers (a bag's length and the total are counts of words a process
/// holds, far below 2⁴⁸, so no product nears 2¹²⁸). Below 22528/10: at
/// most 2252.
pub fn saturation(tf: u32, len: u32, total: u64, candidates: usize) -> u64 {
    if tf == 0 {
        return 0;
    }
    let (tf, len, total) = (u128::from(tf), u128::from(len), u128::from(total));
    let above = 22528 * tf * total;
    let below = 10 * tf * total + 3 * total + 9 * len * candidates as u128;
    // `below` ≥ 10 when `tf` ≥ 1 (the candidate's bag holds the stem, so
    // `total` ≥ 1), and the quotient is below 2253.
    u64::try_from(above / below.max(1)).unwrap_or(u64::MAX)
}

/// SPEC §5's fused score (contract 5): `⌊1024·lex/L⌋ + ⌊3·cos·|Qv|/|Q|⌋`,
/// the cosine counted in proportion to the query words that have a vector
/// (`with_vector` of `words`). The first term is 0 when `L` = 0, the
/// second when `Q` is empty; both are floors, also of a negative quotient.
pub fn fuse(lex: u64, most: u64, cos: i128, with_vector: usize, words: usize) -> i128 {
    let keyword = (1024 * i128::from(lex))
        .checked_div(i128::from(most))
        .unwrap_or(0);
    let cosine = match words {
        0 => 0,
        words => floor_div(3 * cos * with_vector as i128, words as i128),
    };
    keyword + cosine
}

/// SPEC §5 (contract 5): whether a stem's keyword part counts its
/// occurrences, saturated (a CJK word, whose stem is itself), rather
/// than its presence in each field.
pub(crate) fn saturates(stem: &str) -> bool {
    is_cjk_word(stem)
}

/// A candidate holding a stem: which candidate, in which of its fields,
/// and how often the stem is in its bag (`tf(t, c)`: its text and params
/// words that are not stopwords).
#[derive(Clone, Copy, Debug, Default)]
struct Holder {
    id: u32,
    fields: u8,
    tf: u32,
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
    /// hold it, in candidate order, which fields, and how often. One list,
    /// not one per stem: a build allocates it once.
    holders: Vec<Holder>,
    /// Each candidate's `len(c)`, the length of its bag, and `total`,
    /// their sum.
    lens: Vec<u32>,
    total: u64,
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
        let mut holdings: Vec<(u32, Holder)> = Vec::new();
        // This build's vector words (likewise): `dfv`, and where the
        // candidate being read counts it, if it does yet.
        let mut words: Vec<VectorWord> = Vec::new();
        // Each candidate's vector words, as (this build's word,
        // occurrences): candidate `c`'s are `held[ends[c - 1]..ends[c]]`.
        let mut held: Vec<(u32, i64)> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(n);
        let mut lens: Vec<u32> = Vec::with_capacity(n);
        for (id, candidate) in (0u32..).zip(candidates) {
            let mut len = 0u32;
            let params = params_of(seam::properties(candidate.schema));
            let parts = [(candidate.name, IN_NAME), (candidate.text, IN_TEXT)]
                .into_iter()
                .chain(params.map(|text| (text, IN_PARAMS)));
            for (text, field) in parts {
                let in_bag = field != IN_NAME;
                let text = lexicon.text(text);
                for index in 0..lexicon.numbers(text).len() {
                    let known = lexicon.numbers(text)[index];
                    let facts = lexicon.word(known);
                    let (stem, stop, vector) = (facts.stem, facts.stop, facts.has_vector());
                    // A text or params word that is no stopword is in the
                    // candidate's bag.
                    let bagged = u32::from(in_bag && !stop);
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
                            let holding = &mut holdings[entry as usize].1;
                            holding.fields |= field;
                            holding.tf += bagged;
                        }
                        _ => {
                            stem.last = Some((id, number(holdings.len())));
                            stem.df += 1;
                            let holder = Holder {
                                id,
                                fields: field,
                                tf: bagged,
                            };
                            holdings.push((at, holder));
                        }
                    }
                    len += bagged;
                    // A stopword is no vector word; a word without pieces
                    // (a CJK word among them) adds nothing to any vector,
                    // and its `dfv` weighs nothing, so it is not counted.
                    if stop || !vector {
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
            lens.push(len);
        }
        let total = lens.iter().map(|&len| u64::from(len)).sum();
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
        let mut holders = vec![Holder::default(); holdings.len()];
        for (stem, holder) in holdings {
            let start = &mut starts[stem as usize];
            holders[*start as usize] = holder;
            *start += 1;
        }
        Built {
            n,
            stems: stem_ranges,
            holders,
            lens,
            total,
            dfv,
            vectors,
        }
    }

    /// Every candidate's `lex(c)` and `cos(c)` for the trimmed `query`
    /// (SPEC §5), by candidate, and how many query words have a vector.
    /// Each query word's stem and vector are the thread's lexicon's
    /// (`seam::words`), as a build's are.
    pub(super) fn parts(&self, query: &str) -> Signals {
        seam::words(|lexicon| self.parts_with(query, lexicon))
    }

    fn parts_with(&self, query: &str, lexicon: &mut Lexicon) -> Signals {
        let n = self.n;
        // The query's distinct words that are no stopword (`Q`), by the
        // lexicon's numbers, in order, and how many have a vector (`Qv`).
        let mut query_words: Vec<u32> = Vec::new();
        let mut with_vector = 0;
        let text = lexicon.text(query);
        for &known in lexicon.numbers(text) {
            let word = lexicon.word(known);
            if !word.stop && !query_words.contains(&known) {
                query_words.push(known);
                with_vector += usize::from(word.has_vector());
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
            let stem_text = lexicon.stem_text(stem);
            if let Some(&(start, end)) = self.stems.get(stem_text.as_ref()) {
                let holders = &self.holders[start as usize..end as usize];
                let weight = u64::from(seam::weight(n, holders.len()));
                if seam::saturates(stem_text) {
                    for holder in holders {
                        let id = holder.id as usize;
                        let len = self.lens[id];
                        let part = occurrences(holder.fields, holder.tf, len, self.total, n);
                        lex[id] += weight * part;
                    }
                } else {
                    for holder in holders {
                        lex[holder.id as usize] += weight * presence(holder.fields);
                    }
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
        let signals = (lex.into_iter().zip(&self.vectors))
            .map(|(lex, (vector, norm))| {
                // A query without a vector (CJK words alone) has every
                // cosine 0: no product to take.
                if query_norm == 0 {
                    return (lex, 0);
                }
                let product = narrow::product(&query, vector);
                (lex, seam::cosine(product, query_norm, *norm))
            })
            .collect();
        Signals {
            signals,
            words: query_words.len(),
            with_vector,
        }
    }

    /// SPEC §5's fusion of [`Built::parts`] (contract 5, [`fuse`]):
    /// `⌊1024·lex/L⌋ + ⌊3·cos·|Qv|/|Q|⌋`.
    pub(super) fn scores(&self, query: &str) -> Vec<i128> {
        let parts = self.parts(query);
        let most = parts.signals.iter().map(|(lex, _)| *lex).max().unwrap_or(0);
        (parts.signals.into_iter())
            .map(|(lex, cos)| seam::fuse(lex, most, cos, parts.with_vector, parts.words))
            .collect()
    }
}

/// A query's two signals over a run's candidates (SPEC §5), before they
/// are fused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signals {
    /// Each candidate's `lex(c)` and `cos(c)`, in candidate order.
    pub signals: Vec<(u64, i128)>,
    /// `|Q|`: the query's distinct words that are not stopwords.
    pub words: usize,
    /// `|Qv|`: those of them that have a vector.
    pub with_vector: usize,
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
    fn saturation_is_bm25_s_in_integers() {
        assert_eq!(saturation(0, 10, 100, 5), 0);
        // tf 1 in a bag of average length (total / N = len): 1024 · 2.2 /
        // 2.2 = 1024; twice, 1024 · 4.4 / 3.2 = 1408.
        assert_eq!(saturation(1, 20, 100, 5), 1024);
        assert_eq!(saturation(2, 20, 100, 5), 1408);
        // A shorter bag saturates sooner, a longer one later.
        assert!(saturation(1, 5, 100, 5) > 1024 && saturation(1, 80, 100, 5) < 1024);
        // Below 22528 / 10, however often.
        assert_eq!(saturation(u32::MAX, 1, u64::from(u32::MAX), 1), 2252);
    }

    #[test]
    fn the_fusion_floors_both_terms() {
        // 1024·1/3 = 341.3 → 341; 3·(−5)·1/2 = −7.5 → −8 (not −7).
        assert_eq!(fuse(1, 3, -5, 1, 2), 341 - 8);
        assert_eq!(fuse(3, 3, 10, 2, 2), 1024 + 30);
        // L = 0, or no query word: that term is 0.
        assert_eq!(fuse(0, 0, 7, 1, 1), 21);
        assert_eq!(fuse(5, 5, 7, 0, 0), 1024);
        // A query word without a vector: the cosine counts in proportion.
        assert_eq!(fuse(0, 4, 100, 1, 3), 100);
        assert_eq!(fuse(0, 4, 100, 0, 3), 0);
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
