//! A speed-up of SPEC §5's words, fenced beside the rule: what depends on
//! one word alone (whether it is a stopword, its stem, the sum of its
//! WordPiece pieces' rows), found once per thread and kept for every later
//! build, and what depends on one text alone (its words, in order).
//!
//! Catalogs rarely repeat across the sessions of a corpus (each recording
//! admits its own mix of servers), so the memo of whole builds seldom
//! hits; their tools' names, descriptions and parameters repeat far more,
//! and their words more still. A build asks the lexicon for each text it
//! reads and gets numbers standing for its words, and each word's facts by
//! its number. It then counts `df` and `dfv` over numbers, not texts, in
//! slots the lexicon keeps beside each word and stem for the build under
//! way ([`Lexicon::begin`]), not in tables of its own. A query's words are
//! read the same way: their stems and summed rows, found once per thread.
//!
//! It is bounded ([`BOUND`] bytes of words, stems, rows and texts): past
//! it, the lexicon starts over, between two builds, never inside one (so
//! the numbers a build holds stay valid until it ends, and one build costs
//! at most its own words and texts). What is planted (`crate::seam`) is never
//! remembered: a build with a planted stem gets a fresh lexicon of its own
//! through `seam::words`.

use std::cell::RefCell;
use std::sync::Arc;

use super::words::{is_stopword, tokenize};
use crate::contract4::{DIMENSIONS, Vector, add_rows};
use crate::lookup::Lookup;
use crate::seam;

/// The most bytes of words, stems, rows and texts a thread's lexicon
/// keeps between builds.
const BOUND: usize = 4 << 20;

/// The sum of a word's pieces' rows. Each row's components are in
/// −128..=127 and a word has at most `PIECES_MAX_CHARS` = 100 pieces, so
/// every sum fits in `i16` exactly.
type Row = [i16; DIMENSIONS];

/// What SPEC §5 reads of one word.
#[derive(Debug)]
pub(crate) struct Word {
    /// The word itself (shared with the builds that count it).
    pub(crate) text: Arc<str>,
    /// The number of its stem (`Lexicon::stem_text`).
    pub(crate) stem: u32,
    /// Whether it is one of the 75 stopwords (no vector word).
    pub(crate) stop: bool,
    /// The sum of its pieces' rows; `None` for a stopword or a word
    /// without pieces (a CJK word among them: its vector is zero).
    row: Option<Box<Row>>,
    /// The largest magnitude of a component of `row` (0 without one).
    reach: i64,
}

impl Word {
    /// Adds `times` × the word's vector to `into`: what [`add_rows`] adds
    /// for its pieces, one row instead of one per piece (wrapping
    /// multiplication distributes over the exact `i16` sum).
    #[inline]
    pub(crate) fn add_to(&self, into: &mut Vector, times: i64) {
        if let Some(row) = &self.row {
            for (to, &from) in into.iter_mut().zip(row.iter()) {
                *to = to.wrapping_add(times.wrapping_mul(i64::from(from)));
            }
        }
    }

    /// Adds `times` × the word's vector to `into` in 32-bit lanes: what
    /// [`Word::add_to`] adds, exactly, while no component leaves `i32`
    /// (which [`Word::reach`] lets the caller prove first).
    #[inline]
    pub(crate) fn add_narrow(&self, into: &mut [i32; DIMENSIONS], times: i16) {
        if let Some(row) = &self.row {
            for (to, &from) in into.iter_mut().zip(row.iter()) {
                *to = to.wrapping_add(i32::from(from) * i32::from(times));
            }
        }
    }

    /// The largest magnitude of a component of the word's vector.
    pub(crate) fn reach(&self) -> i64 {
        self.reach
    }

    /// Whether the word has a vector: it is no stopword and its pieces
    /// (SPEC §5, none for a CJK word) are not empty.
    pub(crate) fn has_vector(&self) -> bool {
        self.row.is_some()
    }
}

/// The sum of the rows of `pieces`, by the rule's [`add_rows`]; `None`
/// when there are none.
fn row_of(pieces: &[u32]) -> Option<Box<Row>> {
    if pieces.is_empty() {
        return None;
    }
    let mut sum: Vector = [0; DIMENSIONS];
    add_rows(&mut sum, pieces, 1);
    // Never saturates (see `Row`).
    Some(Box::new(sum.map(|c| {
        i16::try_from(c).unwrap_or(if c < 0 { i16::MIN } else { i16::MAX })
    })))
}

/// A range of [`Lexicon::read`]'s word numbers: one text's words.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Text {
    start: u32,
    end: u32,
}

/// A build's slot for a word or stem: the build it was made in (its
/// [`Lexicon::begin`]'s number), and the slot.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    build: u32,
    at: u32,
}

/// Words, stems and texts by number.
#[derive(Debug, Default)]
pub(crate) struct Lexicon {
    words: Vec<Word>,
    word_ids: Lookup<Arc<str>, u32>,
    stems: Vec<Arc<str>>,
    stem_ids: Lookup<Arc<str>, u32>,
    /// Each text read → its words, as a range of `read`.
    texts: Lookup<Box<str>, Text>,
    read: Vec<u32>,
    /// The build under way (never 0, once begun), and its slots by word
    /// and by stem: a slot of another build is no slot.
    build: u32,
    word_slots: Vec<Slot>,
    stem_slots: Vec<Slot>,
    /// The tokenizer's buffer, kept between texts.
    list: String,
    /// What the tables above hold, roughly, in bytes.
    bytes: usize,
}

impl Lexicon {
    /// The words of `text` by SPEC §5's tokenizer, as numbers: found, or
    /// tokenized and numbered once ([`Lexicon::numbers`] reads them).
    pub(crate) fn text(&mut self, text: &str) -> Text {
        if let Some(&words) = self.texts.get(text) {
            return words;
        }
        let mut list = std::mem::take(&mut self.list);
        list.clear();
        tokenize(text, &mut list);
        let start = number(self.read.len());
        for word in list.split_terminator(' ') {
            let id = self.id(word);
            self.read.push(id);
        }
        self.list = list;
        let words = Text {
            start,
            end: number(self.read.len()),
        };
        self.bytes += text.len() + 4 * (words.end - words.start) as usize + 64;
        self.texts.insert(text.into(), words);
        words
    }

    /// The numbers of a text's words, in order.
    pub(crate) fn numbers(&self, text: Text) -> &[u32] {
        &self.read[text.start as usize..text.end as usize]
    }

    /// Starts a build: every slot of an earlier one is forgotten.
    pub(crate) fn begin(&mut self) {
        self.build = self.build.wrapping_add(1);
        if self.build == 0 {
            // After 2³² builds, the old marks could be taken for new ones.
            self.word_slots.fill(Slot::default());
            self.stem_slots.fill(Slot::default());
            self.build = 1;
        }
    }

    /// This build's slot for the word numbered `id`: `make`'s, the first
    /// time the build asks.
    #[inline]
    pub(crate) fn word_slot(&mut self, id: u32, make: impl FnOnce() -> u32) -> u32 {
        slot(&mut self.word_slots[id as usize], self.build, make)
    }

    /// This build's slot for the stem numbered `stem`: `make`'s, the first
    /// time the build asks.
    #[inline]
    pub(crate) fn stem_slot(&mut self, stem: u32, make: impl FnOnce() -> u32) -> u32 {
        slot(&mut self.stem_slots[stem as usize], self.build, make)
    }

    /// The number of `word`, found or made (its facts found once).
    fn id(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(word) {
            return id;
        }
        let stemmed = seam::stem(word);
        let stem = match self.stem_ids.get(stemmed.as_ref()) {
            Some(&stem) => stem,
            None => {
                let stem = number(self.stems.len());
                let text: Arc<str> = stemmed.as_ref().into();
                self.bytes += stemmed.len() + 64;
                self.stems.push(Arc::clone(&text));
                self.stem_slots.push(Slot::default());
                self.stem_ids.insert(text, stem);
                stem
            }
        };
        let stop = is_stopword(word);
        let row = if stop {
            None
        } else {
            row_of(&seam::pieces(word))
        };
        let reach = row.as_ref().map_or(0, |row| {
            row.iter().map(|c| i64::from(*c).abs()).max().unwrap_or(0)
        });
        let id = number(self.words.len());
        let text: Arc<str> = word.into();
        self.bytes += word.len() + 104 + row.as_ref().map_or(0, |_| size_of::<Row>());
        self.words.push(Word {
            text: Arc::clone(&text),
            stem,
            stop,
            row,
            reach,
        });
        self.word_slots.push(Slot::default());
        self.word_ids.insert(text, id);
        id
    }

    /// The facts of the word numbered `id`.
    pub(crate) fn word(&self, id: u32) -> &Word {
        &self.words[id as usize]
    }

    /// The stem numbered `stem` (shared with the builds that count it).
    pub(crate) fn stem_text(&self, stem: u32) -> &Arc<str> {
        &self.stems[stem as usize]
    }
}

/// The slot `kept` holds for `build`, or `make`'s, kept for it.
#[inline]
fn slot(kept: &mut Slot, build: u32, make: impl FnOnce() -> u32) -> u32 {
    if kept.build != build {
        *kept = Slot { build, at: make() };
    }
    kept.at
}

/// A table's length as the next number, for the lexicon's tables and a
/// build's (none holds 2³² entries: its input would be tens of gigabytes
/// first).
pub(super) fn number(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

/// Runs `f` with this thread's lexicon, started over first if it holds
/// more than [`BOUND`] bytes.
pub(crate) fn words<R>(f: impl FnOnce(&mut Lexicon) -> R) -> R {
    thread_local! {
        static LEXICON: RefCell<Lexicon> = RefCell::new(Lexicon::default());
    }
    LEXICON.with(|lexicon| match lexicon.try_borrow_mut() {
        Ok(mut lexicon) => {
            if lexicon.bytes > BOUND {
                *lexicon = Lexicon::default();
            }
            f(&mut lexicon)
        }
        // Never reached (a build does not start another), but a fresh
        // lexicon is as right as the kept one.
        Err(_) => f(&mut Lexicon::default()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::pieces;
    use crate::stem::stem;

    #[test]
    fn a_word_s_facts_are_the_rule_s() {
        let mut lexicon = Lexicon::default();
        let words = [
            "organizing",
            "organize",
            "the",
            "timezones",
            "ꙮ",
            "unaffable",
            "organizing",
        ];
        let ids: Vec<u32> = words.iter().map(|w| lexicon.id(w)).collect();
        // The same word, the same number; another word, another.
        assert_eq!(ids[0], ids[6]);
        assert_ne!(ids[0], ids[1]);
        for (word, id) in words.iter().zip(&ids) {
            let facts = lexicon.word(*id);
            assert_eq!(&*facts.text, *word);
            assert_eq!(&**lexicon.stem_text(facts.stem), stem(word), "{word}");
            assert_eq!(facts.stop, is_stopword(word), "{word}");
            // Its vector, added any number of times, is its pieces' rows
            // added as often by the rule, one at a time.
            for times in [1, -3, 1 << 40] {
                let (mut kept, mut rule) = ([7i64; DIMENSIONS], [7i64; DIMENSIONS]);
                facts.add_to(&mut kept, times);
                if !facts.stop {
                    for piece in pieces(word) {
                        add_rows(&mut rule, &[piece], times);
                    }
                }
                assert_eq!(kept, rule, "{word} × {times}");
            }
        }
        // Two words of one stem share its number.
        assert_eq!(lexicon.word(ids[0]).stem, lexicon.word(ids[1]).stem);
        assert!(lexicon.word(ids[2]).stop);
        assert!(lexicon.word(ids[3]).row.is_some());
        assert!(lexicon.word(ids[2]).row.is_none());
    }

    /// A text's numbers are its words by the tokenizer, found once; a
    /// build's slots last that build only, also past 2³² builds.
    #[test]
    fn a_text_is_its_words_and_a_slot_lasts_one_build() {
        let mut lexicon = Lexicon::default();
        let text = "Read the FILE, then read it again: ꙮ café_2";
        let numbered = lexicon.text(text);
        let mut list = String::new();
        tokenize(text, &mut list);
        let words: Vec<&str> = list.split_terminator(' ').collect();
        let read: Vec<&str> = (lexicon.numbers(numbered).iter())
            .map(|id| &*lexicon.word(*id).text)
            .collect();
        assert_eq!(read, words);
        assert!(words.len() > 6);
        // "read" twice, one number.
        assert_eq!(lexicon.numbers(numbered)[0], lexicon.numbers(numbered)[4]);
        let (held, kept) = (lexicon.read.len(), lexicon.numbers(numbered).to_vec());
        let again = lexicon.text(text);
        assert_eq!(
            (lexicon.numbers(again), lexicon.read.len()),
            (&kept[..], held)
        );

        let (word, stem) = (kept[1], lexicon.word(kept[1]).stem);
        lexicon.begin();
        assert_eq!(lexicon.word_slot(word, || 7), 7);
        assert_eq!(lexicon.word_slot(word, || 9), 7);
        assert_eq!(lexicon.stem_slot(stem, || 3), 3);
        lexicon.begin();
        assert_eq!(lexicon.word_slot(word, || 9), 9);
        assert_eq!(lexicon.stem_slot(stem, || 4), 4);
        // The build numbers wrap: no slot of before is taken for one of now.
        lexicon.build = u32::MAX;
        lexicon.word_slots[word as usize] = Slot { build: 1, at: 5 };
        lexicon.begin();
        assert_eq!(lexicon.build, 1);
        assert_eq!(lexicon.word_slot(word, || 6), 6);
    }

    #[test]
    fn the_lexicon_starts_over_past_its_bound_between_builds() {
        let long = "a".repeat(BOUND);
        let first = words(|lexicon| {
            lexicon.id("kept");
            lexicon.id(&long);
            lexicon.bytes
        });
        assert!(first > BOUND);
        // The next build finds it started over: "kept" is made again, as
        // the first word.
        words(|lexicon| {
            assert_eq!(lexicon.words.len(), 0);
            assert_eq!(lexicon.id("kept"), 0);
        });
    }
}
