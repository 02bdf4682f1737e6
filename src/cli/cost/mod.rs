//! `disclose cost FILE|DIR`: the request bytes each session pays under the
//! dormant, eager and deferred strategies (SPEC §15), and the totals.
//!
//! This module owns reading, parallel replay and the two reports (human and
//! `--json`); the model itself is [`model`]. It does not compare against
//! goldens or check invariants: that is `check`.

mod model;

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use disclose_replay::replay::{TRANSCRIPT_MAX_BYTES, TooLarge, replay_within};
use rayon::prelude::*;
use serde_json::{Value, json};

use super::corpus::{self, Loaded, Malformed};
use super::format::json;
use super::{Exit, emit};
use model::{SessionCost, Strategy};

/// `disclose cost`.
#[derive(Debug, clap::Args)]
pub struct CostArgs {
    /// A session file, or a corpus directory (every `**/*.jsonl`).
    pub path: PathBuf,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// What became of one session file.
enum FileCost {
    Costed(String, SessionCost),
    NotStarted(String),
    Malformed(Malformed),
    /// Its transcript passes the limit of one.
    TooLarge(PathBuf, TooLarge),
}

/// Runs `disclose cost`.
pub fn run(args: &CostArgs) -> Result<Exit> {
    let mut unreadable = 0;
    let files: Vec<(String, PathBuf)> = if args.path.is_dir() {
        let corpus = corpus::discover(&args.path)?;
        for entry in &corpus.unreadable {
            eprintln!("disclose: {entry}");
        }
        unreadable = corpus.unreadable.len();
        corpus
            .files
            .into_iter()
            .map(|f| (f.name().to_string(), f.path))
            .collect()
    } else {
        vec![(args.path.display().to_string(), args.path.clone())]
    };
    let outcomes = files
        .par_iter()
        .map(|(name, path)| {
            Ok(match corpus::load(path)? {
                Loaded::Malformed(malformed) => FileCost::Malformed(malformed),
                Loaded::Session(session) => match replay_within(&session, TRANSCRIPT_MAX_BYTES) {
                    Err(too_large) => FileCost::TooLarge(path.clone(), too_large),
                    Ok(replayed) => match model::cost(&session, &replayed) {
                        Some(cost) => FileCost::Costed(name.clone(), cost),
                        None => FileCost::NotStarted(name.clone()),
                    },
                },
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut malformed = 0;
    for outcome in &outcomes {
        match outcome {
            FileCost::Malformed(m) => eprintln!("{m}"),
            FileCost::TooLarge(path, why) => eprintln!("{}: {why}", path.display()),
            _ => continue,
        }
        malformed += 1;
    }
    if args.json {
        emit(&json::pretty(&report_json(&outcomes)))?;
    } else {
        emit(&report_text(&outcomes))?;
    }
    Ok(if unreadable > 0 {
        Exit::Usage
    } else if malformed > 0 {
        Exit::Fail
    } else {
        Exit::Pass
    })
}

/// Sums over the costed sessions.
#[derive(Default)]
struct CostTotals {
    sessions: usize,
    not_started: usize,
    malformed: usize,
    requests: usize,
    dormant: usize,
    eager: usize,
    deferred: usize,
    deferred_invalidations: usize,
}

fn totals(outcomes: &[FileCost]) -> CostTotals {
    let mut t = CostTotals::default();
    for outcome in outcomes {
        match outcome {
            FileCost::Costed(_, c) => {
                t.sessions += 1;
                t.requests += c.requests;
                t.dormant += c.dormant.total();
                t.eager += c.eager.total();
                t.deferred += c.deferred.total();
                t.deferred_invalidations += c.deferred.invalidations;
            }
            FileCost::NotStarted(_) => t.not_started += 1,
            // Not costed either: counted with the malformed sessions.
            FileCost::Malformed(_) | FileCost::TooLarge(..) => t.malformed += 1,
        }
    }
    t
}

/// How much smaller `dormant` is than `other`, in percent of `other`, to one
/// decimal; `None` when `other` is zero.
fn saving(dormant: usize, other: usize) -> Option<f64> {
    if other == 0 {
        return None;
    }
    // Bytes stay far below 2^52, so the conversions are exact.
    let percent = (other as f64 - dormant as f64) * 100.0 / other as f64;
    Some((percent * 10.0).round() / 10.0)
}

fn saving_text(dormant: usize, other: usize) -> String {
    match saving(dormant, other) {
        None => String::new(),
        Some(p) if p >= 0.0 => format!("   dormant saves {p:.1}%"),
        Some(p) => format!("   dormant costs {:.1}% more", -p),
    }
}

fn strategy_line(out: &mut String, label: &str, s: &Strategy) {
    let per_request = if s.first() == s.last() {
        format!("{} B/request", s.first())
    } else {
        format!("{} B first, {} B last", s.first(), s.last())
    };
    let _ = writeln!(
        out,
        "  {label:<9} {per_request:<28} total {:>9} B   {} prefix invalidation{}",
        s.total(),
        s.invalidations,
        if s.invalidations == 1 { "" } else { "s" }
    );
}

fn report_text(outcomes: &[FileCost]) -> String {
    let mut out = String::new();
    for outcome in outcomes {
        match outcome {
            FileCost::Costed(name, c) => {
                let _ = writeln!(
                    out,
                    "{name}: {} request{}",
                    c.requests,
                    if c.requests == 1 { "" } else { "s" }
                );
                let _ = writeln!(
                    out,
                    "  prefix: tool_defs {} B + render {} B; dormant index {} B (headroom {} B); describe answers {} B in messages",
                    c.tool_defs_bytes,
                    c.render_bytes,
                    c.index_bytes,
                    c.headroom,
                    c.describe_answer_bytes
                );
                strategy_line(&mut out, "dormant", &c.dormant);
                strategy_line(&mut out, "eager", &c.eager);
                strategy_line(&mut out, "deferred", &c.deferred);
            }
            FileCost::NotStarted(name) => {
                let _ = writeln!(out, "{name}: not costed: the session never starts a run");
            }
            FileCost::Malformed(_) | FileCost::TooLarge(..) => {}
        }
    }
    let t = totals(outcomes);
    let _ = writeln!(
        out,
        "{} session{} costed, {} requests ({} malformed, {} never started)",
        t.sessions,
        if t.sessions == 1 { "" } else { "s" },
        t.requests,
        t.malformed,
        t.not_started
    );
    let _ = writeln!(out, "  dormant   total {:>10} B", t.dormant);
    let _ = writeln!(
        out,
        "  eager     total {:>10} B{}",
        t.eager,
        saving_text(t.dormant, t.eager)
    );
    let _ = writeln!(
        out,
        "  deferred  total {:>10} B{}   ({} prefix invalidations)",
        t.deferred,
        saving_text(t.dormant, t.deferred),
        t.deferred_invalidations
    );
    out
}

fn strategy_json(s: &Strategy) -> Value {
    json!({
        "per_request": s.per_request,
        "first": s.first(),
        "last": s.last(),
        "total": s.total(),
        "invalidations": s.invalidations,
    })
}

fn report_json(outcomes: &[FileCost]) -> Value {
    let mut sessions = Vec::new();
    let mut not_started = Vec::new();
    let mut malformed = Vec::new();
    for outcome in outcomes {
        match outcome {
            FileCost::Costed(name, c) => sessions.push(json!({
                "session": name,
                "requests": c.requests,
                "tool_defs_bytes": c.tool_defs_bytes,
                "render_bytes": c.render_bytes,
                "index_bytes": c.index_bytes,
                "index_headroom": c.headroom,
                "describe_answer_bytes": c.describe_answer_bytes,
                "dormant": strategy_json(&c.dormant),
                "eager": strategy_json(&c.eager),
                "deferred": strategy_json(&c.deferred),
            })),
            FileCost::NotStarted(name) => not_started.push(json!(name)),
            FileCost::Malformed(m) => malformed.push(json!({
                "path": m.path.display().to_string(),
                "line": m.error.line,
                "column": m.error.column,
                "message": m.error.message,
            })),
            FileCost::TooLarge(path, why) => malformed.push(json!({
                "path": path.display().to_string(),
                "line": why.line,
                "column": null,
                "message": why.to_string(),
            })),
        }
    }
    let t = totals(outcomes);
    json!({
        "sessions": sessions,
        "not_started": not_started,
        "malformed": malformed,
        "totals": {
            "sessions": t.sessions,
            "requests": t.requests,
            "dormant": t.dormant,
            "eager": t.eager,
            "deferred": t.deferred,
            "deferred_invalidations": t.deferred_invalidations,
        },
        "saving_percent": {
            "vs_eager": saving(t.dormant, t.eager),
            "vs_deferred": saving(t.dormant, t.deferred),
        },
    })
}
