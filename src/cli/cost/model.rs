//! The cost model of SPEC §15: what one session's requests carry in their
//! cached prefix (tool list + `render`) under three strategies, on the same
//! declarations and the same requests.
//!
//! - **dormant** (this design): the resident `tool_defs` plus `render()`,
//!   identical in every request.
//! - **eager**: every tool the run is offered (SPEC §15: "every admitted
//!   tool", the `describe` and `call` doors included) in the tool list;
//!   `render()` without its tool lines, so only skills stay listed, all
//!   hinted.
//! - **deferred** (seed 003 `load_tools`): the dormant prefix, plus each
//!   dormant tool's definition appended to the tool list from the request
//!   after the session first describes it by exact name or calls it. Each
//!   append changes the prefix: one cache invalidation.
//!
//! Requests: the opening request, then one per `describe` or `call` op (its
//! answer goes back in the next request). Bytes in messages (guides, call
//! results) are not prefix bytes and are not counted here; the describe
//! answers are reported beside the totals so the comparison stays honest.
//! Pure: no I/O.

use std::collections::BTreeSet;

use disclose::internals::dormant::INDEX_HEADER;
use disclose::{CALL, DESCRIBE, DORMANT_INDEX_CEILING, Run};
use disclose_replay::invariants::index_of;
use disclose_replay::replay::Replay;
use disclose_replay::session::{OpKind, Session};

/// One strategy's prefix bytes, request by request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    /// Prefix bytes of each request, in order (never empty).
    pub per_request: Vec<usize>,
    /// How many times the prefix changed after the first request.
    pub invalidations: usize,
}

impl Strategy {
    fn constant(bytes: usize, requests: usize) -> Strategy {
        Strategy {
            per_request: vec![bytes; requests],
            invalidations: 0,
        }
    }

    /// The first request's bytes.
    pub fn first(&self) -> usize {
        self.per_request.first().copied().unwrap_or(0)
    }

    /// The last request's bytes.
    pub fn last(&self) -> usize {
        self.per_request.last().copied().unwrap_or(0)
    }

    /// The bytes over every request.
    pub fn total(&self) -> usize {
        self.per_request.iter().sum()
    }
}

/// What one started session costs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionCost {
    /// The opening request plus one per `describe`/`call`.
    pub requests: usize,
    /// The resident `tool_defs`, one canonical definition per line.
    pub tool_defs_bytes: usize,
    /// `render()`.
    pub render_bytes: usize,
    /// The dormant index inside `render()`.
    pub index_bytes: usize,
    /// `DORMANT_INDEX_CEILING` less the index.
    pub headroom: usize,
    /// The bytes `describe` answered with (sent in messages, not the prefix).
    pub describe_answer_bytes: usize,
    /// This design.
    pub dormant: Strategy,
    /// Every offered tool in the tool list.
    pub eager: Strategy,
    /// Definitions appended when first loaded.
    pub deferred: Strategy,
}

/// A canonical definition as one line of the tool list.
fn def_bytes(run: &Run, name: &str) -> usize {
    run.tool(name)
        .map_or(0, |tool| tool.tool_def().canonical().len() + 1)
}

/// The costs of `session` as `replayed`; `None` when it never starts a run.
pub fn cost(session: &Session, replayed: &Replay) -> Option<SessionCost> {
    let run = replayed.run.as_ref()?;
    let tool_defs_bytes: usize = run
        .tool_defs()
        .iter()
        .map(|d| d.canonical().len() + 1)
        .sum();
    let render = run.render();
    let index_bytes = index_of(&render).len();

    // The tool the session reaches with each request op, if it is a dormant
    // tool this run is offered.
    let loads: Vec<Option<&str>> = session
        .ops()
        .iter()
        .filter_map(|op| match &op.kind {
            OpKind::Describe { name } => Some(Some(name.trim())),
            OpKind::Call(call) if call.name == CALL => {
                Some(call.args.get("name").and_then(|n| n.as_str()))
            }
            OpKind::Call(call) => Some(Some(call.name.as_str())),
            _ => None,
        })
        .map(|target| target.filter(|t| run.tool(t).is_some() && !run.is_resident(t)))
        .collect();
    let requests = 1 + loads.len();

    let dormant_bytes = tool_defs_bytes + render.len();
    let mut deferred = Strategy {
        per_request: vec![dormant_bytes],
        invalidations: 0,
    };
    let mut loaded = BTreeSet::new();
    let mut bytes = dormant_bytes;
    for target in loads {
        if let Some(name) = target
            && loaded.insert(name)
        {
            bytes += def_bytes(run, name);
            deferred.invalidations += 1;
        }
        deferred.per_request.push(bytes);
    }

    let eager_tools: usize = run
        .offered_tools()
        .map(|t| t.tool_def().canonical().len() + 1)
        .sum();
    let skills: usize = run
        .dormant_lines()
        .iter()
        .filter(|line| run.tool(line.name()).is_none())
        .filter_map(|line| run.skill(line.name()))
        .map(|skill| format!("- skill {}: {}\n", skill.name(), skill.hint()).len())
        .sum();
    let skill_section = if skills > 0 {
        INDEX_HEADER.len() + skills
    } else {
        0
    };
    let eager_bytes = eager_tools + render.len().saturating_sub(index_bytes) + skill_section;

    Some(SessionCost {
        requests,
        tool_defs_bytes,
        render_bytes: render.len(),
        index_bytes,
        headroom: DORMANT_INDEX_CEILING.saturating_sub(index_bytes),
        describe_answer_bytes: replayed
            .steps
            .iter()
            .filter(|s| s.op == DESCRIBE)
            .map(|s| s.output.len())
            .sum(),
        dormant: Strategy::constant(dormant_bytes, requests),
        eager: Strategy::constant(eager_bytes, requests),
        deferred,
    })
}
