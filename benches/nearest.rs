//! N1: the nearest-name search of `call.unknown` (SPEC §6
//! check 3) — the library's (`rapidfuzz`'s bit-parallel distance, one
//! comparator per name, cut off at the third best) against hand-written and
//! `strsim` searches, side by side in one criterion run, on a 10,000-tool
//! realistic catalog.
//!
//! Four sides, each answering the same eight unknown names and asserted to
//! agree before anything is timed:
//! - `library`: the real door, `Run::call` of an unknown name (refused
//!   `call.unknown`), for scale;
//! - `own`: the hand-written search `src/call.rs` had first: reused
//!   rows, ASCII fast path, candidates skipped when their length alone puts
//!   them past the third best;
//! - `strsim_bounded`: the same loop and skip, distances by
//!   `strsim::levenshtein` — what `src/call.rs` did next (docs/decisions.md,
//!   "`call.unknown` uses `strsim` for the distance, and keeps the length
//!   bound", superseded by "`call.unknown` measures distances with
//!   `rapidfuzz`, cut off at the third best");
//! - `strsim`: every distance by `strsim::levenshtein`, no skip.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use disclose::{Catalog, Mode, NEAREST_NAMES, Refusal, Run, ToolCall};

#[path = "support/allocator.rs"]
mod allocator;
#[path = "support/realistic.rs"]
mod realistic;

fn started(n: usize) -> Run {
    let mut catalog = Catalog::new();
    for decl in realistic::decls(n, 2) {
        assert!(catalog.admit_tool(&decl).is_ok(), "{} refused", decl.name);
    }
    catalog.start(Mode::Work)
}

/// The best three by (distance, name), given a distance and whether to
/// skip by length.
fn nearest<'a>(
    names: &[&'a str],
    asked: &str,
    skip: bool,
    mut distance: impl FnMut(&str, &str) -> usize,
) -> Vec<&'a str> {
    let asked_len = asked.chars().count();
    let mut best: Vec<(usize, &str)> = Vec::with_capacity(NEAREST_NAMES + 1);
    for &candidate in names {
        let floor = asked_len.abs_diff(candidate.len());
        if skip && best.len() == NEAREST_NAMES && best.last().is_some_and(|(d, _)| floor > *d) {
            continue;
        }
        let d = distance(asked, candidate);
        let at = best.partition_point(|(e, n)| (*e, n.as_bytes()) <= (d, candidate.as_bytes()));
        best.insert(at, (d, candidate));
        best.truncate(NEAREST_NAMES);
    }
    best.into_iter().map(|(_, n)| n).collect()
}

/// The distance `src/call.rs` first computed by hand, kept here
/// as the other side of the comparison.
#[derive(Default)]
struct Rows {
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Rows {
    fn levenshtein(&mut self, a: &[char], b: &str) -> usize {
        if b.is_ascii() {
            self.distance(a, b.bytes().map(char::from), b.len())
        } else {
            self.distance(a, b.chars(), b.chars().count())
        }
    }

    fn distance(
        &mut self,
        a: &[char],
        b: impl Iterator<Item = char> + Clone,
        b_len: usize,
    ) -> usize {
        self.prev.clear();
        self.prev.extend(0..=b_len);
        self.cur.clear();
        self.cur.resize(b_len + 1, 0);
        for (i, ca) in a.iter().enumerate() {
            self.cur[0] = i + 1;
            for (j, cb) in b.clone().enumerate() {
                let substitute = self.prev[j] + usize::from(*ca != cb);
                self.cur[j + 1] = substitute.min(self.prev[j + 1] + 1).min(self.cur[j] + 1);
            }
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        self.prev[b_len]
    }
}

fn own<'a>(names: &[&'a str], asked: &str, rows: &mut Rows) -> Vec<&'a str> {
    let chars: Vec<char> = asked.chars().collect();
    nearest(names, asked, true, |_, b| rows.levenshtein(&chars, b))
}

fn refused_nearest(run: &Run, asked: &str) -> Vec<String> {
    let call = ToolCall {
        id: "c".into(),
        name: asked.into(),
        args: serde_json::json!({}),
    };
    match run.call(&call) {
        Err(Refusal::Unknown { nearest, .. }) => nearest,
        other => panic!("{asked}: {other:?}"),
    }
}

fn nearest_names(c: &mut Criterion) {
    let run = started(10_000);
    let names: Vec<&str> = run
        .offered_tools()
        .map(|t| t.name())
        .filter(|n| *n != "call")
        .collect();
    // Typos of real names (a letter dropped, two swapped, a wrong origin),
    // and names like nothing in the catalog, short and long.
    let typo = |i: usize| {
        let name = names[i * 997 % names.len()];
        let mut chars: Vec<char> = name.chars().collect();
        chars.remove(chars.len() / 2);
        chars.into_iter().collect::<String>()
    };
    let swapped = {
        let mut chars: Vec<char> = names[4242 % names.len()].chars().collect();
        chars.swap(1, 2);
        chars.into_iter().collect::<String>()
    };
    let queries: Vec<String> = vec![
        typo(1),
        typo(2),
        typo(3),
        swapped,
        format!("gitlab__{}", names[77].split("__").nth(1).unwrap_or("x")),
        "deploy_service".into(),
        "x".into(),
        "reconcile_all_the_billing_accounts_for_the_quarter_and_report".into(),
    ];
    let mut rows = Rows::default();
    for q in &queries {
        let library = refused_nearest(&run, q);
        assert_eq!(own(&names, q, &mut rows), library, "{q}");
        assert_eq!(
            nearest(&names, q, true, strsim::levenshtein),
            library,
            "{q}"
        );
        assert_eq!(
            nearest(&names, q, false, strsim::levenshtein),
            library,
            "{q}"
        );
    }
    let mut group = c.benchmark_group("nearest");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("library", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(refused_nearest(&run, q));
            }
        })
    });
    group.bench_function("own", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(own(&names, q, &mut rows));
            }
        })
    });
    group.bench_function("strsim_bounded", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(nearest(&names, q, true, strsim::levenshtein));
            }
        })
    });
    group.bench_function("strsim", |b| {
        b.iter(|| {
            for q in &queries {
                black_box(nearest(&names, q, false, strsim::levenshtein));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, nearest_names);
criterion_main!(benches);
