//! SPEC §5 `stem`: the Snowball English ("Porter2") stemmer as published
//! with Snowball 3 (the `snowballstemmer` 3.1.1 answers), written from the
//! algorithm's Snowball source (`algorithms/english.sbl`), step by step and
//! in its order. Snowball 3 differs from 2 in four places, all here: more
//! fixed R1 prefixes (`past`, `univers`, `later`, `emerg`, `organ`,
//! `inter`), `past` counted as a short syllable, `-ogist` → `-og`, and
//! step 1b keeping a double letter after a lone `a`/`e`/`o` (`added` →
//! `add`), turning `Cying` into `Cie` and leaving `inning`-like words.
//!
//! Only a word made of the ASCII letters `a`–`z` is stemmed; any other word
//! is its own stem. No crate was used: the Rust stemmer crates implement an
//! older Snowball, which stems some words differently (`added` is `add`
//! here, `ad` there); `contract4/stems.tsv` pins this one on 34,128 words
//! (docs/decisions.md).
//!
//! The word is worked on as bytes. A `y` that acts as a consonant is held
//! as `Y` (the prelude) and turned back at the end, as the algorithm does.

use std::borrow::Cow;

/// The stem of `word` (SPEC §5): Porter2 (Snowball 3) for a word of the
/// ASCII letters `a`–`z` only; any other word unchanged.
pub fn stem(word: &str) -> Cow<'_, str> {
    if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return Cow::Borrowed(word);
    }
    if let Some(special) = exception1(word) {
        return Cow::Borrowed(special);
    }
    if word.len() < 3 {
        return Cow::Borrowed(word);
    }
    let mut stemmer = Stemmer::new(word.as_bytes());
    stemmer.run();
    let out = stemmer.finish();
    if out == word {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(out)
    }
}

/// Whole words the algorithm answers by a table, before anything else.
fn exception1(word: &str) -> Option<&'static str> {
    Some(match word {
        "skis" => "ski",
        "skies" => "sky",
        "idly" => "idl",
        "gently" => "gentl",
        "ugly" => "ugli",
        "early" => "earli",
        "only" => "onli",
        "singly" => "singl",
        "sky" => "sky",
        "news" => "news",
        "howe" => "howe",
        "atlas" => "atlas",
        "cosmos" => "cosmos",
        "bias" => "bias",
        "andes" => "andes",
        _ => return None,
    })
}

/// Words whose R1 starts after a fixed prefix, not after the first
/// vowel–non-vowel pair (`generate`, `communism`, `organize`, …).
const R1_PREFIXES: [&[u8]; 9] = [
    b"gener", b"commun", b"arsen", b"past", b"univers", b"later", b"emerg", b"organ", b"inter",
];

/// Words whose `-ing` step 1b leaves (`inning`, not `inn`).
const ING_KEPT: [&[u8]; 6] = [b"inn", b"out", b"cann", b"herr", b"earr", b"even"];

/// The algorithm's vowels (`v`); a consonant `y` is held as `Y`, not one.
fn is_v(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

/// `v_WXY`: the vowels and `w`, `x`, `Y`.
fn is_v_wxy(b: u8) -> bool {
    is_v(b) || matches!(b, b'w' | b'x' | b'Y')
}

/// The letters that may stand before a `li` step 2 deletes.
fn is_valid_li(b: u8) -> bool {
    matches!(
        b,
        b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't'
    )
}

/// A word being stemmed, and its regions R1 and R2 (where they start).
struct Stemmer {
    w: Vec<u8>,
    p1: usize,
    p2: usize,
    y_found: bool,
}

impl Stemmer {
    fn new(word: &[u8]) -> Stemmer {
        Stemmer {
            w: word.to_vec(),
            p1: 0,
            p2: 0,
            y_found: false,
        }
    }

    fn run(&mut self) {
        self.prelude();
        self.mark_regions();
        self.step_1a();
        self.step_1b();
        self.step_1c();
        self.step_2();
        self.step_3();
        self.step_4();
        self.step_5();
    }

    fn finish(mut self) -> String {
        if self.y_found {
            for b in &mut self.w {
                if *b == b'Y' {
                    *b = b'y';
                }
            }
        }
        String::from_utf8_lossy(&self.w).into_owned()
    }

    /// A leading `y`, and every `y` after a vowel, is a consonant: `Y`.
    fn prelude(&mut self) {
        if self.w.first() == Some(&b'y') {
            self.w[0] = b'Y';
            self.y_found = true;
        }
        for i in 1..self.w.len() {
            if self.w[i] == b'y' && is_v(self.w[i - 1]) {
                self.w[i] = b'Y';
                self.y_found = true;
            }
        }
    }

    /// The end of the first vowel–non-vowel pair at or after `from`, or
    /// the word's length when there is none (`gopast v gopast non-v`).
    fn past_vowel_consonant(&self, from: usize) -> Option<usize> {
        let vowel = (from..self.w.len()).find(|&i| is_v(self.w[i]))?;
        let consonant = (vowel + 1..self.w.len()).find(|&i| !is_v(self.w[i]))?;
        Some(consonant + 1)
    }

    fn mark_regions(&mut self) {
        let len = self.w.len();
        self.p1 = len;
        self.p2 = len;
        let prefixed = (R1_PREFIXES.into_iter())
            .find(|p| self.w.starts_with(p))
            .map(<[u8]>::len);
        let Some(p1) = prefixed.or_else(|| self.past_vowel_consonant(0)) else {
            return;
        };
        self.p1 = p1;
        if let Some(p2) = self.past_vowel_consonant(p1) {
            self.p2 = p2;
        }
    }

    /// The longest of `suffixes` the word ends with.
    fn longest_suffix(&self, suffixes: &[&'static [u8]]) -> Option<&'static [u8]> {
        (suffixes.iter())
            .filter(|s| self.w.ends_with(s))
            .max_by_key(|s| s.len())
            .copied()
    }

    /// Replaces the last `len` bytes with `by`.
    fn replace_end(&mut self, len: usize, by: &[u8]) {
        let keep = self.w.len() - len;
        self.w.truncate(keep);
        self.w.extend_from_slice(by);
    }

    /// Whether the part before `at` holds a vowel (`gopast v`, backwards).
    fn vowel_before(&self, at: usize) -> bool {
        self.w[..at].iter().any(|&b| is_v(b))
    }

    /// `shortv` with the cursor at `at`: the word up to `at` ends in a
    /// non-vowel other than `w`, `x`, `Y` after a vowel after a non-vowel,
    /// or is a vowel and a non-vowel alone, or ends in `past`.
    fn shortv(&self, at: usize) -> bool {
        let w = &self.w;
        if w[..at].ends_with(b"past") {
            return true;
        }
        if at >= 3 && !is_v_wxy(w[at - 1]) && is_v(w[at - 2]) && !is_v(w[at - 3]) {
            return true;
        }
        at == 2 && !is_v(w[1]) && is_v(w[0])
    }

    fn step_1a(&mut self) {
        let Some(suffix) = self.longest_suffix(&[b"sses", b"ied", b"ies", b"s", b"us", b"ss"])
        else {
            return;
        };
        let start = self.w.len() - suffix.len();
        match suffix {
            b"sses" => self.replace_end(4, b"ss"),
            b"ied" | b"ies" => {
                if start >= 2 {
                    self.replace_end(3, b"i");
                } else {
                    self.replace_end(3, b"ie");
                }
            }
            // `next gopast v`: a vowel before the letter before the `s`.
            b"s" if start >= 1 && self.vowel_before(start - 1) => self.replace_end(1, b""),
            _ => {}
        }
    }

    fn step_1b(&mut self) {
        let Some(suffix) =
            self.longest_suffix(&[b"eed", b"eedly", b"ed", b"edly", b"ing", b"ingly"])
        else {
            return;
        };
        let start = self.w.len() - suffix.len();
        let before = &self.w[..start];
        if suffix.starts_with(b"ee") {
            let kept = [&b"proc"[..], b"exc", b"succ"].contains(&before);
            if !kept && self.p1 <= start {
                self.replace_end(suffix.len(), b"ee");
            }
            return;
        }
        if suffix == b"ing" {
            // `dying` → `die`: a non-vowel alone before `ying`.
            if before.len() == 2 && before[1] == b'y' && !is_v(before[0]) {
                self.replace_end(4, b"ie");
                return;
            }
            if ING_KEPT.contains(&before) {
                return;
            }
        }
        if !self.vowel_before(start) {
            return;
        }
        self.w.truncate(start);
        let end = self.w.len();
        let ends = |s: &[u8]| self.w.ends_with(s);
        if ends(b"at") || ends(b"bl") || ends(b"iz") {
            self.w.push(b'e');
            return;
        }
        let doubles: [&[u8]; 9] = [
            b"bb", b"dd", b"ff", b"gg", b"mm", b"nn", b"pp", b"rr", b"tt",
        ];
        if doubles.iter().any(|d| ends(d)) {
            // Not when the word is one of `a`, `e`, `o` and the double.
            let alone = end == 3 && matches!(self.w[0], b'a' | b'e' | b'o');
            if !alone {
                self.w.pop();
            }
            return;
        }
        if self.p1 == end && self.shortv(end) {
            self.w.push(b'e');
        }
    }

    fn step_1c(&mut self) {
        let len = self.w.len();
        if len >= 3 && matches!(self.w[len - 1], b'y' | b'Y') && !is_v(self.w[len - 2]) {
            self.w[len - 1] = b'i';
        }
    }

    fn step_2(&mut self) {
        const SUFFIXES: [&[u8]; 25] = [
            b"ogist", b"tional", b"enci", b"anci", b"abli", b"entli", b"izer", b"ization",
            b"ational", b"ation", b"ator", b"alism", b"aliti", b"alli", b"fulness", b"ousli",
            b"ousness", b"iveness", b"iviti", b"biliti", b"bli", b"ogi", b"fulli", b"lessli",
            b"li",
        ];
        let Some(suffix) = self.longest_suffix(&SUFFIXES) else {
            return;
        };
        let len = suffix.len();
        let start = self.w.len() - len;
        if start < self.p1 {
            return;
        }
        let by: &[u8] = match suffix {
            b"tional" => b"tion",
            b"enci" => b"ence",
            b"anci" => b"ance",
            b"abli" => b"able",
            b"entli" => b"ent",
            b"izer" | b"ization" => b"ize",
            b"ational" | b"ation" | b"ator" => b"ate",
            b"alism" | b"aliti" | b"alli" => b"al",
            b"fulness" | b"fulli" => b"ful",
            b"ousli" | b"ousness" => b"ous",
            b"iveness" | b"iviti" => b"ive",
            b"biliti" | b"bli" => b"ble",
            b"ogist" => b"og",
            b"lessli" => b"less",
            b"ogi" => {
                if start >= 1 && self.w[start - 1] == b'l' {
                    self.replace_end(len, b"og");
                }
                return;
            }
            _ => {
                // `li`
                if start >= 1 && is_valid_li(self.w[start - 1]) {
                    self.replace_end(len, b"");
                }
                return;
            }
        };
        self.replace_end(len, by);
    }

    fn step_3(&mut self) {
        const SUFFIXES: [&[u8]; 9] = [
            b"tional", b"ational", b"alize", b"icate", b"iciti", b"ical", b"ful", b"ness", b"ative",
        ];
        let Some(suffix) = self.longest_suffix(&SUFFIXES) else {
            return;
        };
        let len = suffix.len();
        let start = self.w.len() - len;
        if start < self.p1 {
            return;
        }
        match suffix {
            b"tional" => self.replace_end(len, b"tion"),
            b"ational" => self.replace_end(len, b"ate"),
            b"alize" => self.replace_end(len, b"al"),
            b"icate" | b"iciti" | b"ical" => self.replace_end(len, b"ic"),
            b"ful" | b"ness" => self.replace_end(len, b""),
            _ => {
                // `ative`, in R2 only.
                if start >= self.p2 {
                    self.replace_end(len, b"");
                }
            }
        }
    }

    fn step_4(&mut self) {
        const SUFFIXES: [&[u8]; 18] = [
            b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ment",
            b"ent", b"ism", b"ate", b"iti", b"ous", b"ive", b"ize", b"ion",
        ];
        let Some(suffix) = self.longest_suffix(&SUFFIXES) else {
            return;
        };
        let len = suffix.len();
        let start = self.w.len() - len;
        if start < self.p2 {
            return;
        }
        if suffix == b"ion" {
            if start >= 1 && matches!(self.w[start - 1], b's' | b't') {
                self.replace_end(len, b"");
            }
        } else {
            self.replace_end(len, b"");
        }
    }

    fn step_5(&mut self) {
        let len = self.w.len();
        match self.w.last() {
            Some(b'e') => {
                let at = len - 1;
                if at >= self.p2 || (at >= self.p1 && !self.shortv(at)) {
                    self.w.pop();
                }
            }
            Some(b'l') => {
                let at = len - 1;
                if at >= self.p2 && at >= 1 && self.w[at - 1] == b'l' {
                    self.w.pop();
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowball_3_stems_a_few_words() {
        for (word, want) in [
            ("added", "add"),
            ("organizing", "organiz"),
            ("organize", "organiz"),
            ("organ", "organ"),
            ("dying", "die"),
            ("pasting", "paste"),
            ("biologist", "biolog"),
            ("international", "internat"),
            ("proceed", "proceed"),
            ("hoping", "hope"),
            ("hopping", "hop"),
            ("generously", "generous"),
            ("skies", "sky"),
            ("innings", "inning"),
            ("cries", "cri"),
            ("ties", "tie"),
            ("gas", "gas"),
            ("gaps", "gap"),
            ("Added", "Added"),
            ("café", "café"),
            ("a1", "a1"),
            ("", ""),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
    }
}
