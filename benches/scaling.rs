//! Cost at n and at 2n for each hostile input family of the audit that
//! found costs out of proportion to the input (docs/performance-log.md,
//! "Hostile inputs scale"): the ratio of the two medians should be at most
//! 2.5 (linear, with noise). Each side parses and replays one session
//! through the library, with the harness's transcript limit; every
//! iteration salts its schemas so the process's memo of schema facts cannot
//! serve a repeat.
//!
//! - `H1_transcript`: one guide of n bytes described 1,000 times (the
//!   5 MB session that asked for 5 GB): capped by the transcript limit.
//! - `H2_long_name`: one unknown call whose name has n chars, over 5,000
//!   tools (the alignment path of `call.unknown`).
//! - `H3_names`: 100 unknown calls whose names have n chars, over 5,000
//!   tools (the bit-parallel path).
//! - `H5_names_tools`: 100 unknown calls whose names have n chars, over
//!   10·n tools (issue 26: the asked name's length once per candidate made
//!   2,000-char names over 20,000 tools cost 32 times 60-char ones).
//! - `H4_fit`: a call that fits a schema of n properties, all required.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use disclose_replay::replay::{Replay, TRANSCRIPT_MAX_BYTES, TooLarge, replay_within};
use disclose_replay::session::{self, Session};
use serde_json::{Value, json};

#[path = "support/allocator.rs"]
mod allocator;

/// A session's text: a header, then `ops`.
fn text(ops: impl IntoIterator<Item = Value>) -> String {
    let mut text = format!("{}\n", json!({"op":"session","format":1,"about":"scaling"}));
    for op in ops {
        text.push_str(&op.to_string());
        text.push('\n');
    }
    text
}

fn tools(count: usize, salt: u64) -> impl Iterator<Item = Value> {
    (0..count).map(move |i| {
        json!({"op":"tool","origin":"host","name":format!("tool_{i:04}"),"description":"T.","input_schema":{"title":salt.to_string()}})
    })
}

fn transcript(n: usize, salt: u64) -> String {
    let guide = json!({"op":"tool","origin":"host","name":"big","description":format!("Big. {}", "x".repeat(n)),"input_schema":{"title":salt.to_string()}});
    let describes = std::iter::repeat_n(json!({"op":"describe","name":"big"}), 1000);
    text(
        [guide, json!({"op":"start","mode":"work"})]
            .into_iter()
            .chain(describes),
    )
}

fn long_name(n: usize, salt: u64) -> String {
    let call = json!({"op":"call","id":"c","name":"call","args":{"name":format!("tool_00{}", "ab".repeat(n / 2)),"args":{}}});
    text(tools(5000, salt).chain([json!({"op":"start","mode":"work"}), call]))
}

fn names(n: usize, salt: u64) -> String {
    let calls = (0..100).map(|i| {
        let name = format!("tool_{i:02}{}", "ab".repeat(n / 2));
        json!({"op":"call","id":format!("c{i}"),"name":"call","args":{"name":name,"args":{}}})
    });
    text(
        tools(5000, salt)
            .chain([json!({"op":"start","mode":"work"})])
            .chain(calls),
    )
}

fn names_tools(n: usize, salt: u64) -> String {
    let calls = (0..100).map(|i| {
        let name = format!("tool_{i:02}{}", "ab".repeat(n / 2));
        json!({"op":"call","id":format!("c{i}"),"name":"call","args":{"name":name,"args":{}}})
    });
    text(
        tools(10 * n, salt)
            .chain([json!({"op":"start","mode":"work"})])
            .chain(calls),
    )
}

fn fit(n: usize, salt: u64) -> String {
    let keys: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, Value> = keys
        .iter()
        .map(|k| (k.clone(), json!({"type":"string"})))
        .collect();
    let args: serde_json::Map<String, Value> =
        keys.iter().map(|k| (k.clone(), json!("x"))).collect();
    text([
        json!({"op":"tool","origin":"host","name":"wide","description":"Wide.","input_schema":{"title":salt.to_string(),"type":"object","properties":properties,"required":keys},"effect":"read","approval":"never"}),
        json!({"op":"start","mode":"work"}),
        json!({"op":"call","id":"c","name":"call","args":{"name":"wide","args":args}}),
    ])
}

/// Parses and replays, within the harness's limit.
fn run(text: &str) -> Result<Replay, TooLarge> {
    let session: Session = session::parse(text.as_bytes()).expect("a well-formed session");
    replay_within(&session, TRANSCRIPT_MAX_BYTES)
}

/// What each family must do, checked once before it is timed (so a side
/// that is refused early cannot pass for fast).
type Expect = fn(&Result<Replay, TooLarge>) -> bool;

fn last_output(replayed: &Result<Replay, TooLarge>) -> &str {
    replayed
        .as_ref()
        .ok()
        .and_then(|r| r.steps.last())
        .map_or("", |s| s.output.as_str())
}

fn family(
    c: &mut Criterion,
    group: &str,
    n: usize,
    make: fn(usize, u64) -> String,
    expect: Expect,
) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4));
    for (side, size) in [("n", n), ("2n", 2 * n)] {
        assert!(
            expect(&run(&make(size, 0))),
            "{group}/{side} does not do its work"
        );
        let mut salt = 0u64;
        g.bench_function(side, |b| {
            b.iter_batched(
                || {
                    salt += 1;
                    make(size, salt)
                },
                |text| black_box(run(&text).is_ok()),
                BatchSize::PerIteration,
            );
        });
    }
    g.finish();
}

fn scaling(c: &mut Criterion) {
    family(c, "H1_transcript", 2_500_000, transcript, |r| {
        matches!(r, Err(TooLarge { op: "describe", .. }))
    });
    let unknown: Expect =
        |r| last_output(r).contains("call.unknown") && last_output(r).contains("nearest: tool_");
    family(c, "H2_long_name", 500_000, long_name, unknown);
    family(c, "H3_names", 2_048, names, unknown);
    family(c, "H5_names_tools", 1_000, names_tools, unknown);
    family(c, "H4_fit", 40_000, fit, |r| {
        r.as_ref()
            .is_ok_and(|r| r.steps.iter().all(|s| !s.output.contains("refused")))
    });
}

criterion_group!(benches, scaling);
criterion_main!(benches);
