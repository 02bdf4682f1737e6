//! P1 (issue 5): replaying a realistic session — `session::parse` (typed
//! reader plus the shipped JSON Schema on every line) and `replay::replay` —
//! vs only parsing its lines into `serde_json::Value`, on the same bytes in
//! the same run. `script/bench` divides the two medians.
//!
//! No timing is asserted here; the targets live in `script/bench`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use disclose::{replay, session};
use serde_json::Value;

#[path = "support/realistic.rs"]
mod realistic;

/// Sixteen generated sessions, so one odd shape does not decide the ratio.
fn corpus() -> Vec<Vec<u8>> {
    (0..16)
        .map(|seed| realistic::session(seed).into_bytes())
        .collect()
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

fn p1_replay(c: &mut Criterion) {
    let sessions = corpus();
    for bytes in &sessions {
        // Every generated session is well formed: a parse error would make
        // the replay side look cheap.
        assert!(
            session::parse(bytes).is_ok(),
            "a generated session is malformed"
        );
    }
    let mut group = c.benchmark_group("P1_replay");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("replay", |b| {
        b.iter(|| {
            sessions
                .iter()
                .map(|s| replay_session(black_box(s)))
                .sum::<usize>()
        })
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            sessions
                .iter()
                .map(|s| parse_lines(black_box(s)))
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, p1_replay);
criterion_main!(benches);
