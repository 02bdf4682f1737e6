//! `disclose-catalog`: a deterministic, progressive-disclosure tool catalog
//! for LLM agents, and the pure core of the harness that replays recorded
//! sessions through it.
//!
//! An embedder adds the crate by its registry name, and names it in code as
//! `disclose_catalog`:
//!
//! ```toml
//! [dependencies]
//! disclose-catalog = "0.1"
//! ```
//!
//! (`disclose = { package = "disclose-catalog", version = "0.1" }` keeps the
//! shorter path `disclose::`, as this repository's own crates do. The
//! registry's `disclose` is another project's.)
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
//! use disclose_catalog::{Answer, Catalog, Effect, Mode, Provider, ToolCall, ToolDecl};
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
//! a [`Recorder`] writes to the `Write` its host hands it. Reading and
//! replaying sessions, transcripts and SPEC §13's invariants are the
//! harness's (the `disclose-replay` crate); files, terminals and exit codes
//! belong to the `disclose` binary.
//!
//! # Features
//!
//! None by default, and none an embedder needs. `mutants` (hidden, for the
//! test kit only) lets a test plant a deliberately broken rule through one
//! seam; a build without it calls each rule directly.
#![deny(missing_docs)]

mod answer;
mod call;
mod canonical;
mod catalog;
mod contract4;
mod declaration;
mod dormant;
mod facts;
mod fit;
mod hint;
pub mod import;
mod lookup;
mod metaschema;
mod mode;
mod naming;
mod nearest;
mod provider;
mod record;
mod refusal;
mod run;
mod seam;
mod search;
mod stem;
#[cfg(test)]
mod test_words;

pub use answer::Answer;
pub use call::ToolCall;
pub use catalog::{AdmittedTool, Catalog, Door, Skill};
pub use declaration::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
pub use fit::Violation;
pub use mode::{Mode, Profile};
pub use provider::{Provider, ToolList};
pub use record::{RecordError, RecordedRun, Recorder};
pub use refusal::{
    Class, Code, HashReason, Kind, QueryReason, Refusal, SchemaReason, ShapeReason, VocabEntry,
    vocabulary, vocabulary_text,
};
pub use run::{Capability, Found, Run, SkillPin, ToolDef};

/// What the harness (`disclose-replay`, the `disclose` binary), the test kit,
/// the tests and the benchmarks reach inside the rules: **not part of the
/// embedder's API**, not covered by semver, and free to change with any
/// release. Each module names the rule it exposes.
#[doc(hidden)]
pub mod internals {
    /// SPEC §10: canonical JSON, written by hand.
    pub mod canonical {
        pub use crate::canonical::{canonical, write_string, write_value};
    }
    /// Contract 4's embedded data (SPEC §16) and the WordPiece split.
    pub mod contract4 {
        pub use crate::contract4::{
            DIMENSIONS, VECTORS, VECTORS_DIGEST, Vector, WORDPIECE, WORDPIECE_DIGEST, add_rows,
            pieces,
        };
    }
    /// SPEC §4: the Lean `pack` over lengths, and the index's fixed lines.
    pub mod dormant {
        pub use crate::dormant::{DormantLine, Entry, INDEX_HEADER, Packed, Shown, pack, room_for};
    }
    /// SPEC §6: `fit` as the spec reads it, and its compiled plan.
    pub mod fit {
        pub use crate::fit::plan::FitPlan;
        pub use crate::fit::{fit, type_name};
    }
    /// SPEC §4: the hint rule.
    pub mod hint {
        pub use crate::hint::hint;
    }
    /// SPEC §2 check 6: the meta-schema verdict.
    pub mod metaschema {
        pub use crate::metaschema::is_valid;
    }
    /// SPEC §3: the resident order and each mode's core tools.
    pub mod mode {
        pub use crate::mode::{RESIDENT_ORDER, core_tools, in_some_core, mode_admits};
    }
    /// SPEC §2: origins, names, minting.
    pub mod naming {
        pub use crate::naming::{mint, name_is_valid, normalization_key, origin_is_valid};
    }
    /// SPEC §11: the session format's ops and their lines, as the recorder
    /// writes them and `disclose-replay` reads them.
    pub mod record {
        pub use crate::record::{FORMAT, OpKind, header_line, op_line};
    }
    /// SPEC §5: the ranking's parts.
    pub mod search {
        pub use crate::search::{
            Candidate, STOPWORDS, SearchIndex, Signals, dot, floor_div, fuse, isqrt, pieces,
            saturation, weight,
        };
    }
    /// SPEC §5 `stem`: Snowball 3 English.
    pub mod stem {
        pub use crate::stem::stem;
    }
    /// The one seam through which a build with the `mutants` feature
    /// plants a broken rule (the test kit's `mutants`).
    #[cfg(feature = "mutants")]
    pub mod seam {
        pub use crate::seam::planted::{Fuse, Planted, Properties, plant};
    }
}

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
pub const CONTRACT_VERSION: u32 = 5;

/// The name of the guide door.
pub const DESCRIBE: &str = "describe";
/// The name of the call door.
pub const CALL: &str = "call";

/// The build's own `describe` tool (SPEC §1).
pub(crate) fn describe_decl() -> ToolDecl {
    door(
        DESCRIBE,
        "Find a capability by exact name for its full guide, or by keywords for a ranked list.",
        r#"{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#,
    )
}

/// The build's own `call` tool (SPEC §1).
pub(crate) fn call_decl() -> ToolDecl {
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
