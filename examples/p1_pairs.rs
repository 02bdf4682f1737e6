//! P1 in pairs: `target/release/examples/p1_pairs [PAIRS]` (release,
//! `--features testkit`; `script/bench` runs it for its `P1pairs` line).
//!
//! The same two sides as `benches/replay.rs`'s P1 group — `session::parse`
//! plus `replay::replay` of 16 realistic sessions with every schema salted
//! new, against parsing their lines into `serde_json::Value` — but timed
//! back to back, pair after pair, and the ratio taken in each pair. On a
//! shared machine criterion's two groups run seconds apart and a busy
//! minute lands on one side only; here it slows both sides of a pair
//! alike, so the median of the pairs' ratios moves far less. It prints the
//! median, the quartiles and the extremes, and asserts nothing.

use std::hint::black_box;
use std::time::Instant;

use disclose_replay::{replay, session};
use serde_json::Value;

#[path = "../benches/support/allocator.rs"]
mod allocator;
#[path = "../benches/support/realistic.rs"]
mod realistic;

fn main() {
    let pairs: usize = (std::env::args().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(200)
        .max(1);
    let sessions: Vec<String> = (0..16).map(realistic::session).collect();
    let mut salt = 0u64;
    let mut salted = || {
        salt += 1;
        sessions
            .iter()
            .map(|s| realistic::salted_session(s, salt).into_bytes())
            .collect::<Vec<Vec<u8>>>()
    };
    let replay_all = |input: &[Vec<u8>]| -> usize {
        input
            .iter()
            .map(|s| match session::parse(s) {
                Ok(parsed) => replay::replay(&parsed).steps.len(),
                Err(_) => 0,
            })
            .sum()
    };
    let parse_all = |input: &[Vec<u8>]| -> usize {
        input
            .iter()
            .map(|s| {
                std::str::from_utf8(s)
                    .unwrap_or_default()
                    .split('\n')
                    .filter(|line| !line.trim_matches([' ', '\t', '\r']).is_empty())
                    .filter_map(|line| serde_json::from_str::<Value>(line).ok())
                    .count()
            })
            .sum()
    };
    // Warm up: the memos and the vocabulary.
    for _ in 0..20 {
        black_box(replay_all(&salted()));
        black_box(parse_all(&salted()));
    }
    let mut ratios = Vec::new();
    for _ in 0..pairs {
        let (a, b) = (salted(), salted());
        let t = Instant::now();
        black_box(replay_all(&a));
        let r = t.elapsed();
        let t = Instant::now();
        black_box(parse_all(&b));
        let p = t.elapsed();
        ratios.push(r.as_secs_f64() / p.as_secs_f64());
        drop((a, b));
    }
    ratios.sort_by(f64::total_cmp);
    let q = |f: f64| ratios[((ratios.len() - 1) as f64 * f) as usize];
    println!(
        "P1 pairs {}: median {:.2} (q1 {:.2}, q3 {:.2}, min {:.2}, max {:.2})",
        ratios.len(),
        q(0.5),
        q(0.25),
        q(0.75),
        ratios[0],
        ratios[ratios.len() - 1]
    );
}
