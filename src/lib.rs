//! `disclose`: a deterministic, progressive-disclosure tool catalog for LLM
//! agents, and the pure core of the harness that replays recorded sessions
//! through it.
//!
//! A few core tools are always in the request's tool list; every other
//! admitted tool or skill appears only as one line of a dormant index capped
//! at [`DORMANT_INDEX_CEILING`] bytes, reached through `describe` and `call`.
//! The contract is `SPEC.md`; section numbers in comments refer to it.
//!
//! ```
//! use disclose::{Catalog, Mode, ToolCall, ToolDecl};
//! use serde_json::json;
//!
//! let mut catalog = Catalog::new();
//! let decl = ToolDecl {
//!     origin: "github".into(),
//!     name: "create_issue".into(),
//!     description: "Open an issue. Needs a title.".into(),
//!     input_schema: json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}).into(),
//!     effect: Some("reversible".into()),
//!     approval: None,
//! };
//! assert_eq!(catalog.admit_tool(&decl).map(|t| t.name().to_string()), Ok("github__create_issue".into()));
//!
//! let run = catalog.start(Mode::Work);
//! assert!(run.render().ends_with("- github__create_issue: Open an issue.\n"));
//!
//! let call = ToolCall {
//!     id: "c1".into(),
//!     name: "call".into(),
//!     args: json!({"name": "github__create_issue", "args": {}}),
//! };
//! let refusal = run.call(&call).unwrap_err();
//! assert_eq!(refusal.code(), "call.misfit");
//! assert_eq!(refusal.to_string(), r#"args for "github__create_issue" do not fit its input schema: missing required "title""#);
//! ```
//!
//! The library does no I/O and reads no clock, randomness or environment:
//! [`session`] parses bytes, [`replay`] turns a parsed session into a
//! transcript, and [`invariants`] checks SPEC §13 on it. Files, terminals and
//! exit codes belong to the CLI.
#![deny(missing_docs)]

pub mod call;
pub mod canonical;
pub mod catalog;
pub mod declaration;
pub mod dormant;
pub mod fit;
pub mod fuzzing;
pub mod generate;
pub mod golden;
pub mod hint;
pub mod invariants;
pub mod mode;
pub mod naming;
pub mod recall;
pub mod refusal;
pub mod replay;
pub mod run;
pub mod search;
pub mod session;
pub mod transcript;

pub use call::ToolCall;
pub use catalog::{AdmittedTool, Catalog, Door, Skill};
pub use declaration::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
pub use dormant::{Entry, Packed, Shown, pack};
pub use fit::{FitPlan, Violation, fit};
pub use mode::{Mode, Profile, core_tools, in_some_core, mode_admits};
pub use refusal::{Class, Refusal, VocabEntry, vocabulary, vocabulary_text};
pub use run::{Run, SkillPin, ToolDef};

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
        effect: Some("read".to_string()),
        approval: Some("never".to_string()),
    }
}
