//! `disclose recall` against replaying the same `describe` ops (R1 in docs/performance.md):
//! 1,000 tasks over a 500-tool catalog. Both sides start from bytes and do
//! the same admission: recall parses the catalog session and the task file,
//! starts the run and measures; the other side parses one session holding
//! the same catalog and 1,000 `describe` ops and replays it to a
//! transcript. `script/bench` divides the two medians (`R1`).
//!
//! No timing is asserted here.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use disclose::Found;
use disclose::internals::record;
use disclose_replay::recall::{self, Summary};
use disclose_replay::replay::replay;
use disclose_replay::session::{self, OpKind};
use serde_json::json;

#[path = "support/allocator.rs"]
mod allocator;
#[path = "support/realistic.rs"]
mod realistic;

const TOOLS: usize = 500;
const TASKS: usize = 1000;

/// Words a person wraps a request in (stopwords and filler).
const FRAMES: [(&str, &str); 5] = [
    ("Can you", "for me?"),
    ("Please", "now."),
    ("I need to", "in the repo."),
    ("How do I", "?"),
    ("", "quickly"),
];

/// The catalog session, the task file, and the replayed session with the
/// same queries as `describe` ops.
fn inputs() -> (String, String, String) {
    let decls = realistic::decls(TOOLS, 8);
    let mut catalog =
        String::from("{\"op\":\"session\",\"format\":1,\"about\":\"recall bench\"}\n");
    for decl in &decls {
        catalog.push_str(&record::op_line(&OpKind::Tool {
            decl: decl.clone(),
            admitted: true,
        }));
    }
    catalog.push_str("{\"op\":\"start\",\"mode\":\"chat\"}\n");
    let mut rng = realistic::Rng::new(8);
    let mut tasks = String::new();
    let mut replayed = catalog.clone();
    for _ in 0..TASKS {
        let decl = rng.pick(&decls);
        let words: Vec<&str> = decl.description.split_whitespace().collect();
        let start = rng.below(words.len());
        let asked = words[start..words.len().min(start + 1 + rng.below(4))].join(" ");
        let (before, after) = rng.pick(&FRAMES);
        let query = format!("{before} {asked} {after}").trim().to_string();
        let minted = if decl.origin == "host" {
            decl.name.clone()
        } else {
            format!("{}__{}", decl.origin, decl.name)
        };
        tasks.push_str(&format!(
            "{}\n",
            json!({"query": query, "expect": [minted]})
        ));
        replayed.push_str(&format!("{}\n", json!({"op": "describe", "name": query})));
    }
    (catalog, tasks, replayed)
}

fn measured(catalog: &str, tasks: &str) -> Summary {
    let session = session::parse(catalog.as_bytes()).expect("the catalog parses");
    let run = recall::started(&session).expect("the catalog starts");
    let (tasks, errors) = recall::parse(tasks.as_bytes());
    assert!(errors.is_empty());
    let (outcomes, errors) = recall::measure(&run, &tasks);
    assert!(errors.is_empty());
    Summary::of(&outcomes)
}

fn r1_recall(c: &mut Criterion) {
    let (catalog, tasks, replayed) = inputs();
    // Both sides must do the same work: recall ranks exactly what each
    // replayed `describe` prints.
    let session = session::parse(catalog.as_bytes()).unwrap();
    let run = recall::started(&session).unwrap();
    let (parsed, _) = recall::parse(tasks.as_bytes());
    let transcript = replay(&session::parse(replayed.as_bytes()).unwrap());
    let described: Vec<&str> = transcript
        .steps
        .iter()
        .filter(|s| s.op == "describe")
        .map(|s| s.output.as_str())
        .collect();
    assert_eq!(described.len(), TASKS);
    for (task, printed) in parsed.iter().zip(described) {
        let Ok(Found::Ranked(hits)) = run.find(&task.query) else {
            panic!("{:?} is not a keyword query", task.query);
        };
        for hit in hits {
            assert!(printed.contains(&format!("- {}: ", hit.name())));
        }
    }
    let summary = measured(&catalog, &tasks);
    eprintln!(
        "recall bench: {} tasks over {TOOLS} tools, hit@8 {:.1}%",
        summary.queries,
        summary.hit_rate(summary.hit8) * 100.0
    );
    let mut group = c.benchmark_group("R1_recall");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("recall", |b| {
        b.iter(|| black_box(measured(black_box(&catalog), black_box(&tasks))))
    });
    group.bench_function("replay", |b| {
        b.iter(|| {
            let session = session::parse(black_box(replayed.as_bytes())).unwrap();
            black_box(replay(&session).steps.len())
        })
    });
    group.finish();
}

criterion_group!(benches, r1_recall);
criterion_main!(benches);
