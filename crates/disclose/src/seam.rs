//! The seam: the rules a test may swap for deliberately broken ones, each
//! called through here at its call sites, never from inside a rule.
//!
//! In a build without the `mutants` feature (every release build, and
//! `cargo test`), each function here *is* the rule: a `use` of it, so the
//! shipped code calls the rule directly and pays nothing. With the feature
//! (hidden, never default, additive: it adds `internals::seam` and
//! nothing else), each function looks at what this thread has planted
//! ([`plant`]) and calls the planted function, with the same arguments,
//! instead of the rule. The broken rules are the test kit's
//! (`disclose_testkit::mutants`), written apart from the library: each
//! takes its inputs as arguments and calls nothing of the library's.
//!
//! A seam sits only on a path evaluated per call (admission, render,
//! `fit`, ranking); values the process keeps (the doors, the schema facts,
//! the search memo, the remembered descriptor digests) are computed by the
//! rules themselves, and the search memo and the digests are passed by
//! while anything is planted, so a planted rule never outlives its scope.
//! What the seam does not own: any rule, any memo, the list of mutants
//! (the test kit's).

#[cfg(not(feature = "mutants"))]
pub(crate) use real::*;

#[cfg(feature = "mutants")]
pub(crate) use planted::*;

/// The rules themselves (a build without the `mutants` feature).
#[cfg(not(feature = "mutants"))]
mod real {
    pub(crate) use crate::catalog::remembered_digest as descriptor_digest;
    pub(crate) use crate::dormant::room_for;
    pub(crate) use crate::fit::is_integral;
    pub(crate) use crate::hint::hint;
    pub(crate) use crate::search::built;
    pub(crate) use crate::search::properties;
    pub(crate) use crate::search::words;
    pub(crate) use crate::search::{cosine, fuse, pieces, saturates, split_cjk, weight};
    pub(crate) use crate::stem::stem;
}

/// The rules, or what this thread planted instead (the `mutants` feature).
#[cfg(feature = "mutants")]
pub mod planted {
    use std::borrow::Cow;
    use std::cell::Cell;
    use std::sync::Arc;

    use serde_json::{Map, Number, Value};

    use crate::search::{Built, Candidate, Lexicon};

    /// SPEC §5's source of a candidate's params, given its schema.
    pub type Properties = fn(Option<&Value>) -> Option<&Map<String, Value>>;

    /// SPEC §5's fused score, given `lex(c)`, `L`, `cos(c)`, `|Qv|` and
    /// `|Q|`.
    pub type Fuse = fn(u64, u64, i128, usize, usize) -> i128;

    /// Broken rules to call instead of the library's, each `None` for the
    /// rule itself. Each takes what the rule takes.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Planted {
        /// SPEC §4: the hint of a description or disclosure.
        pub hint: Option<fn(&str) -> String>,
        /// SPEC §4: the room the packer gets for `total` dormant entries.
        pub room_for: Option<fn(usize) -> usize>,
        /// SPEC §6: whether a JSON number is integral.
        pub is_integral: Option<fn(&Number) -> bool>,
        /// SPEC §2: an admitted tool's descriptor digest, from its
        /// canonical descriptor array.
        pub descriptor_digest: Option<fn(&str) -> String>,
        /// SPEC §5: `weight(df)` among `N` candidates, as `(N, df)`.
        pub weight: Option<fn(usize, usize) -> u32>,
        /// SPEC §5: `stem(w)`.
        pub stem: Option<fn(&str) -> Cow<'_, str>>,
        /// SPEC §5: where a candidate's params come from (its schema's
        /// `properties` object), given its schema.
        pub properties: Option<Properties>,
        /// SPEC §5: `cos(c)` of a dot product and the two norms.
        pub cosine: Option<fn(i128, i128, i128) -> i128>,
        /// SPEC §5 (contract 5): one word found by the rule, lowercased,
        /// written to the string as the words it becomes, each followed
        /// by a space (a CJK segment's characters and pairs).
        pub split_cjk: Option<fn(&str, &mut String)>,
        /// SPEC §5: `pieces(w)`, as vocabulary lines (none for a CJK
        /// word, contract 5).
        pub pieces: Option<fn(&str) -> Vec<u32>>,
        /// SPEC §5 (contract 5): whether a query stem counts its
        /// saturated occurrences (a CJK word) rather than its presence.
        pub saturates: Option<fn(&str) -> bool>,
        /// SPEC §5: the fused score of `lex(c)`, `L`, `cos(c)`, `|Qv|` and
        /// `|Q|`.
        pub fuse: Option<Fuse>,
    }

    thread_local! {
        /// What this thread planted, inside [`plant`] only.
        static PLANTED: Cell<Option<Planted>> = const { Cell::new(None) };
    }

    /// Restores what was planted before when dropped, also on unwind.
    struct Restore(Option<Planted>);

    impl Drop for Restore {
        fn drop(&mut self) {
            PLANTED.with(|planted| planted.set(self.0));
        }
    }

    /// Runs `f` with `planted` in place of the rules, on this thread only:
    /// the library code `f` runs (a whole fuzz case, its re-replays
    /// included) calls the planted functions; other threads, and this one
    /// after `f`, call the rules. The library hands no work to another
    /// thread inside one call, so nothing escapes the scope.
    pub fn plant<R>(planted: Planted, f: impl FnOnce() -> R) -> R {
        let _restore = Restore(PLANTED.with(|slot| slot.replace(Some(planted))));
        f()
    }

    /// What is planted here, if anything.
    fn planted() -> Option<Planted> {
        PLANTED.with(Cell::get)
    }

    pub(crate) fn hint(text: &str) -> String {
        match planted().and_then(|p| p.hint) {
            Some(broken) => broken(text),
            None => crate::hint::hint(text),
        }
    }

    pub(crate) fn room_for(total: usize) -> usize {
        match planted().and_then(|p| p.room_for) {
            Some(broken) => broken(total),
            None => crate::dormant::room_for(total),
        }
    }

    pub(crate) fn is_integral(n: &Number) -> bool {
        match planted().and_then(|p| p.is_integral) {
            Some(broken) => broken(n),
            None => crate::fit::is_integral(n),
        }
    }

    pub(crate) fn descriptor_digest(pinned: &str) -> String {
        match planted().and_then(|p| p.descriptor_digest) {
            Some(broken) => broken(pinned),
            None => crate::catalog::remembered_digest(pinned),
        }
    }

    pub(crate) fn weight(candidates: usize, df: usize) -> u32 {
        match planted().and_then(|p| p.weight) {
            Some(broken) => broken(candidates, df),
            None => crate::search::weight(candidates, df),
        }
    }

    pub(crate) fn stem(word: &str) -> Cow<'_, str> {
        match planted().and_then(|p| p.stem) {
            Some(broken) => broken(word),
            None => crate::stem::stem(word),
        }
    }

    pub(crate) fn properties(schema: Option<&Value>) -> Option<&Map<String, Value>> {
        match planted().and_then(|p| p.properties) {
            Some(broken) => broken(schema),
            None => crate::search::properties(schema),
        }
    }

    pub(crate) fn cosine(product: i128, query_norm: i128, norm: i128) -> i128 {
        match planted().and_then(|p| p.cosine) {
            Some(broken) => broken(product, query_norm, norm),
            None => crate::search::cosine(product, query_norm, norm),
        }
    }

    pub(crate) fn split_cjk(word: &str, out: &mut String) {
        match planted().and_then(|p| p.split_cjk) {
            Some(broken) => broken(word, out),
            None => crate::search::split_cjk(word, out),
        }
    }

    pub(crate) fn pieces(word: &str) -> Vec<u32> {
        match planted().and_then(|p| p.pieces) {
            Some(broken) => broken(word),
            None => crate::search::pieces(word),
        }
    }

    pub(crate) fn saturates(stem: &str) -> bool {
        match planted().and_then(|p| p.saturates) {
            Some(broken) => broken(stem),
            None => crate::search::saturates(stem),
        }
    }

    pub(crate) fn fuse(lex: u64, most: u64, cos: i128, with_vector: usize, words: usize) -> i128 {
        match planted().and_then(|p| p.fuse) {
            Some(broken) => broken(lex, most, cos, with_vector, words),
            None => crate::search::fuse(lex, most, cos, with_vector, words),
        }
    }

    /// A run's search: remembered per process (`search::built`) while
    /// nothing is planted; built afresh, by the planted rules, while
    /// something is, so no broken build is remembered or served.
    pub(crate) fn built(candidates: &[Candidate<'_>]) -> Arc<Built> {
        match planted() {
            Some(_) => Arc::new(Built::of(candidates)),
            None => crate::search::built(candidates),
        }
    }

    /// The thread's lexicon of words (`search::words`) while nothing is
    /// planted; a fresh one, filled through the planted rules, while
    /// something is, so no broken stem is remembered.
    pub(crate) fn words<R>(f: impl FnOnce(&mut Lexicon) -> R) -> R {
        match planted() {
            Some(_) => f(&mut Lexicon::default()),
            None => crate::search::words(f),
        }
    }
}
