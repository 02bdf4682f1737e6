//! Fixed workloads for instruction-count profiles (docs/performance.md,
//! "How to measure"):
//! `valgrind --tool=callgrind target/release/examples/profile WORKLOAD N`.
//!
//! Criterion's timings move with the machine's load; callgrind's
//! instruction counts (Ir) do not, so every development measurement in
//! `docs/performance-log.md` is one of these workloads under callgrind. Each
//! does the work of one side of a `script/bench` target N times, in one
//! thread, on the same generated inputs as the benches
//! (`benches/support/realistic.rs`):
//!
//! - `p1-replay`: `session::parse` + `replay::replay` of N salted sessions
//!   (every schema new to the process, as in P1);
//! - `p1-gen`: generating the N salted sessions only, the part of every
//!   `p1-*` count that is not the work measured (subtract it);
//! - `p1-parse`: every line of the same N salted sessions into a `Value`
//!   (P1's floor);
//! - `p1-check`: what `check` does to each of N salted sessions besides I/O:
//!   parse, replay, encode the transcript, and the invariants;
//! - `p5-gen` / `p5-check`: the same for unsalted sessions, each from its
//!   own seed, as in P5's generated corpus (schemas recur across sessions);
//! - `p4-fit` / `p4-jsonschema`: N rounds of the 64 `fit` cases, through
//!   the compiled `FitPlan` or a compiled validator (both compiled first).
//!
//! It prints a checksum so nothing is optimized away.

use std::process::ExitCode;

use disclose::internals::fit::FitPlan;
use disclose_replay::{invariants, replay, session, transcript};
use serde_json::Value;

#[path = "../benches/support/allocator.rs"]
mod allocator;
#[path = "../benches/support/realistic.rs"]
mod realistic;

fn sessions(n: u64) -> Vec<String> {
    (0..n)
        .map(|i| realistic::salted_session(&realistic::session(i % 16), i))
        .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(workload), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse().ok())) else {
        eprintln!(
            "usage: profile p1-gen|p1-replay|p1-parse|p1-check|p5-gen|p5-check|p4-fit|p4-jsonschema N"
        );
        return ExitCode::from(2);
    };
    let sum: usize = match workload.as_str() {
        "p1-replay" => sessions(n)
            .iter()
            .map(|s| match session::parse(s.as_bytes()) {
                Ok(parsed) => replay::replay(&parsed).steps.len(),
                Err(_) => 0,
            })
            .sum(),
        // Generating the inputs alone: subtracted from the others.
        "p1-gen" => sessions(n).iter().map(String::len).sum(),
        "p1-parse" => sessions(n)
            .iter()
            .flat_map(|s| s.split('\n'))
            .filter(|line| !line.trim_matches([' ', '\t', '\r']).is_empty())
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .count(),
        "p1-check" => sessions(n)
            .iter()
            .map(|s| match session::parse(s.as_bytes()) {
                Ok(parsed) => {
                    let replayed = replay::replay(&parsed);
                    let text = transcript::encode(&replayed.steps);
                    text.len() + invariants::check(&parsed, &replayed).len()
                }
                Err(_) => 0,
            })
            .sum(),
        // P5's corpus: unsalted sessions, each its own seed, so schemas recur
        // across sessions as a real corpus's servers do.
        "p5-gen" => (0..n).map(|i| realistic::session(i).len()).sum(),
        "p5-check" => (0..n)
            .map(|i| {
                let text = realistic::session(i);
                match session::parse(text.as_bytes()) {
                    Ok(parsed) => {
                        let replayed = replay::replay(&parsed);
                        let out = transcript::encode(&replayed.steps);
                        out.len() + invariants::check(&parsed, &replayed).len()
                    }
                    Err(_) => 0,
                }
            })
            .sum(),
        "p4-fit" | "p4-jsonschema" => {
            let cases = realistic::fit_cases(64, 4);
            if workload == "p4-fit" {
                let plans: Vec<FitPlan> = cases.iter().map(|(s, _)| FitPlan::new(s)).collect();
                (0..n)
                    .map(|_| {
                        cases
                            .iter()
                            .zip(&plans)
                            .filter(|((_, args), plan)| plan.fits(std::hint::black_box(args)))
                            .count()
                    })
                    .sum()
            } else {
                let validators: Vec<jsonschema::Validator> = cases
                    .iter()
                    .filter_map(|(s, _)| jsonschema::draft202012::new(s).ok())
                    .collect();
                (0..n)
                    .map(|_| {
                        cases
                            .iter()
                            .zip(&validators)
                            .filter(|((_, args), v)| v.is_valid(std::hint::black_box(args)))
                            .count()
                    })
                    .sum()
            }
        }
        other => {
            eprintln!("profile: no workload \"{other}\"");
            return ExitCode::from(2);
        }
    };
    println!("{sum}");
    ExitCode::SUCCESS
}
