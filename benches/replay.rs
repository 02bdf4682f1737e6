//! P1 (docs/performance.md): replaying a realistic session — `session::parse` (the
//! typed reader of every line) and `replay::replay` —
//! vs only parsing its lines into `serde_json::Value`, on the same bytes in
//! the same run. `script/bench` divides the two medians.
//!
//! No timing is asserted here; the targets live in `script/bench`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use disclose_replay::{replay, session};
use serde_json::Value;

#[path = "support/allocator.rs"]
mod allocator;
#[path = "support/realistic.rs"]
mod realistic;

/// Sixteen generated sessions, so one odd shape does not decide the ratio.
fn corpus() -> Vec<String> {
    (0..16).map(realistic::session).collect()
}

/// The floor: every non-blank line into a `Value`, nothing else.
fn parse_lines(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    text.split('\n')
        .filter(|line| !line.trim_matches([' ', '\t', '\r']).is_empty())
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .count()
}

fn replay_session(bytes: &[u8]) -> usize {
    match session::parse(bytes) {
        Ok(parsed) => replay::replay(&parsed).steps.len(),
        Err(_) => 0,
    }
}

/// Each iteration gets sessions whose schemas carry a fresh salt, one per
/// session, so no process-wide memo (the library keeps one for meta-schema
/// verdicts) serves a repeat, within an iteration or across them: the
/// replay side pays for sessions it has never seen.
fn salted(sessions: &[String]) -> Vec<Vec<u8>> {
    static SALT: AtomicU64 = AtomicU64::new(0);
    sessions
        .iter()
        .map(|s| realistic::salted_session(s, SALT.fetch_add(1, Ordering::Relaxed)).into_bytes())
        .collect()
}

fn p1_replay(c: &mut Criterion) {
    let sessions = corpus();
    for bytes in salted(&sessions) {
        // Every generated session is well formed: a parse error would make
        // the replay side look cheap.
        assert!(
            session::parse(&bytes).is_ok(),
            "a generated session is malformed"
        );
    }
    let warm: Vec<Vec<u8>> = sessions.iter().map(|s| s.clone().into_bytes()).collect();
    let mut group = c.benchmark_group("P1_replay");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    // Inputs are returned, so they are dropped outside the timing.
    group.bench_function("replay", |b| {
        b.iter_batched(
            || salted(&sessions),
            |input| {
                let steps: usize = input.iter().map(|s| replay_session(s)).sum();
                (steps, input)
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("parse", |b| {
        b.iter_batched(
            || salted(&sessions),
            |input| {
                let lines: usize = input.iter().map(|s| parse_lines(s)).sum();
                (lines, input)
            },
            BatchSize::SmallInput,
        )
    });
    // Informational: the same sessions again and again, as `check` sees
    // schemas that recur across a corpus.
    group.bench_function("replay_warm", |b| {
        b.iter(|| {
            warm.iter()
                .map(|s| replay_session(black_box(s)))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, p1_replay);
criterion_main!(benches);
