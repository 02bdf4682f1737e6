//! `disclose`: a deterministic, progressive-disclosure tool catalog for LLM
//! agents, and the pure core of the harness that replays recorded sessions
//! through it.
//!
//! A few core tools are always in the request's tool list; every other
//! admitted tool or skill appears only as one line of a dormant index capped
//! at [`DORMANT_INDEX_CEILING`] bytes, reached through `describe` and `call`.
//! The contract is `docs/spec.md` in the repository (contract version
//! [`CONTRACT_VERSION`]); `SPEC §N` in comments means its section N.
//!
//! A runtime builds the catalog, starts the run, sends the same tool list
//! and segment with every request, and hands each of the model's tool calls
//! to [`Run::answer`]:
//!
//! ```
//! use disclose::{Answer, Catalog, Effect, Mode, Provider, ToolCall, ToolDecl};
//! use serde_json::json;
//!
//! let mut catalog = Catalog::new();
//! let decl = ToolDecl::new(
//!     "github",
//!     "create_issue",
//!     "Open an issue. Needs a title.",
//!     json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}),
//! )
//! .with_effect(Effect::Reversible);
//! assert_eq!(catalog.admit_tool(&decl).map(|t| t.name().to_string()), Ok("github__create_issue".into()));
//!
//! let run = catalog.start(Mode::Work);
//! let tools = run.tools_for(Provider::Anthropic); // the request's `tools`, byte-stable
//! assert!(tools.as_str().starts_with(r#"[{"description":"Find a capability"#));
//! assert!(run.render().ends_with("- github__create_issue: Open an issue.\n")); // the system segment
//!
//! let call = ToolCall {
//!     id: "c1".into(),
//!     name: "call".into(),
//!     args: json!({"name": "github__create_issue", "args": {}}),
//! };
//! let Answer::Refused(refusal) = run.answer(&call) else { panic!("the args do not fit") };
//! assert_eq!(refusal.code(), "call.misfit");
//! assert_eq!(refusal.to_string(), r#"args for "github__create_issue" do not fit its input schema: missing required "title""#);
//! ```
//!
//! `examples/agent_loop.rs` is the whole loop: MCP servers in
//! ([`import`]), a scripted model through [`Run::answer`], the run recorded
//! as a session ([`Recorder`]) and replayed to the same bytes.
//!
//! The library does no I/O and reads no clock, randomness or environment:
//! [`session`] parses bytes, [`replay`] turns a parsed session into a
//! transcript, and [`invariants`] checks SPEC §13 on it. Files, terminals and
//! exit codes belong to the CLI.
//!
//! # Features
//!
//! - With `default-features = false`, the crate is the catalog and the pure
//!   session, replay, transcript, recording and import core; it depends on
//!   `serde_json`, `serde` (derive), `jsonschema`, `blake3`, `zmij`
//!   and `rapidfuzz` only.
//! - `testkit` adds `generate` (proptest strategies for declarations and
//!   whole sessions) and `fuzzing` (the driver of `disclose fuzz`).
//! - `cli` (the default) adds `testkit`, `golden` (a transcript against its
//!   golden, with a visible diff) and the `disclose` binary.
#![deny(missing_docs)]

pub mod answer;
pub mod call;
pub mod canonical;
pub mod catalog;
pub mod contract3;
pub mod declaration;
pub mod dormant;
pub mod fit;
pub mod hint;
pub mod import;
mod lookup;
mod metaschema;
pub mod mode;
#[cfg(feature = "mutants")]
#[doc(hidden)]
pub mod mutant;
pub mod naming;
mod nearest;
pub mod provider;
pub mod record;
pub mod refusal;
pub mod run;
pub mod search;
pub mod stem;

/// Internals the harness, the test kit and the tests reach: not part of the
/// embedder's API, and not covered by semver.
#[doc(hidden)]
pub mod internals {
    /// SPEC §2 check 6: the meta-schema verdict, and the walk that decides
    /// most schemas before the `jsonschema` crate is asked.
    pub mod metaschema {
        pub use crate::metaschema::{is_valid, verdict};
    }
}

pub use answer::Answer;
pub use call::ToolCall;
pub use catalog::{AdmittedTool, Catalog, Door, Skill};
pub use declaration::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
pub use dormant::{Entry, Packed, Shown, pack};
pub use fit::{FitPlan, Violation, fit};
pub use mode::{Mode, Profile, core_tools, in_some_core, mode_admits};
pub use provider::{Provider, ToolList};
pub use record::{RecordError, RecordedRun, Recorder};
pub use refusal::{Class, Refusal, VocabEntry, vocabulary, vocabulary_text};
pub use run::{Run, SkillPin, ToolDef};

// A runtime shares one catalog and its runs across threads: these must stay
// `Send + Sync`, and a change that breaks it fails to compile here.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Catalog>();
    send_sync::<Run>();
    send_sync::<Refusal>();
    send_sync::<Answer>();
    send_sync::<ToolList>();
    send_sync::<ToolDecl>();
};

/// SPEC §16: the whole dormant index (header, lines, marker) is at most this
/// many bytes.
pub const DORMANT_INDEX_CEILING: usize = 1024;
/// SPEC §16: a hint longer than this is cut.
pub const HINT_MAX_BYTES: usize = 80;
/// SPEC §16: `describe` lists at most this many keyword hits.
pub const DESCRIBE_HITS: usize = 8;
/// SPEC §16: a `describe` query longer than this is refused.
pub const QUERY_MAX_BYTES: usize = 256;
/// SPEC §16: `call.unknown` names at most this many nearest tools.
pub const NEAREST_NAMES: usize = 3;
/// SPEC §16: a minted name is 1 to this many bytes.
pub const NAME_MAX_BYTES: usize = 64;

/// The version of the contract (SPEC §17) this library implements and the
/// shipped corpus is blessed against. `disclose --version` prints it, and
/// `disclose check --impl` runs only implementations whose `hello` lists it.
pub const CONTRACT_VERSION: u32 = 3;

/// The name of the guide door.
pub const DESCRIBE: &str = "describe";
/// The name of the call door.
pub const CALL: &str = "call";

/// The build's own `describe` tool (SPEC §1).
pub fn describe_decl() -> ToolDecl {
    door(
        DESCRIBE,
        "Find a capability by exact name for its full guide, or by keywords for a ranked list.",
        r#"{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#,
    )
}

/// The build's own `call` tool (SPEC §1).
pub fn call_decl() -> ToolDecl {
    door(
        CALL,
        "Run a dormant tool by name; its args are checked against that tool's input schema first.",
        r#"{"additionalProperties":false,"properties":{"args":{"type":"object"},"name":{"type":"string"}},"required":["name","args"],"type":"object"}"#,
    )
}

fn door(name: &str, description: &str, schema: &str) -> ToolDecl {
    ToolDecl {
        origin: naming::HOST_ORIGIN.to_string(),
        name: name.to_string(),
        description: description.to_string(),
        input_schema: std::sync::Arc::new(serde_json::from_str(schema).unwrap_or_default()),
        effect: Effect::Read,
        approval: Approval::Never,
    }
}
