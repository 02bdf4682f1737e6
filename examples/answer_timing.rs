//! Y1's Rust side (`script/bench-python`): `Run::answer` in process, for a
//! fitted call and for a keyword `describe`, over the catalog of one
//! shipped session. `bindings/python/bench/bench.py` times the same calls
//! through the Python package, in the same run.
//!
//! `answer_timing SESSION ROUNDS` prints one line per call kind:
//! `<kind> <nanoseconds per call, best of 5 batches>`.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use disclose::{Catalog, Mode, ToolCall};
use disclose_replay::session::{self, OpKind};
use serde_json::json;

/// The calls both sides time (the Python side writes the same).
fn calls() -> [(&'static str, ToolCall); 2] {
    [
        (
            "fitted_call",
            ToolCall {
                id: "toolu_01".into(),
                name: "call".into(),
                args: json!({"name": "sentry__get_issue_details", "args": {"organizationSlug": "acme", "issueId": "API-1K3"}}),
            },
        ),
        (
            "keyword_describe",
            ToolCall {
                id: "toolu_02".into(),
                name: "describe".into(),
                args: json!({"name": "open pull requests that target the main branch"}),
            },
        ),
    ]
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(rounds)) = (args.next(), args.next().and_then(|n| n.parse::<u32>().ok()))
    else {
        eprintln!("usage: answer_timing SESSION ROUNDS");
        return ExitCode::from(2);
    };
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("answer_timing: {path}: {error}");
            return ExitCode::from(2);
        }
    };
    let parsed = match session::parse(&text) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("answer_timing: {path}: {}", error.message);
            return ExitCode::from(2);
        }
    };
    let mut catalog = Catalog::new();
    for op in parsed.ops() {
        if let OpKind::Tool {
            decl,
            admitted: true,
        } = &op.kind
        {
            let _ = catalog.admit_tool(decl);
        }
    }
    let run = catalog.start(Mode::Work);
    for (kind, call) in calls() {
        let best = (0..5)
            .map(|_| {
                let started = Instant::now();
                for _ in 0..rounds {
                    black_box(run.answer(black_box(&call)));
                }
                started.elapsed().as_nanos() / u128::from(rounds.max(1))
            })
            .min()
            .unwrap_or_default();
        println!("{kind} {best}");
    }
    ExitCode::SUCCESS
}
