//! Recording a live run as a session (SPEC §11): the ops of the format
//! ([`OpKind`]) and their lines, the inverse of `disclose-replay`'s
//! session reader.
//!
//! The recorder's contract (what it writes, when, and what a failed write
//! does) is on [`Recorder`].

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};

use crate::answer::Answer;
use crate::call::ToolCall;
use crate::canonical::{write_string, write_value};
use crate::catalog::{AdmittedTool, Catalog, Skill};
use crate::declaration::{CarriedSkill, ShelfSkill, ToolDecl};
use crate::mode::{Mode, Profile};
use crate::provider::{Provider, ToolList};
use crate::refusal::Refusal;
use crate::run::{Run, SkillPin};

/// The session format the recorder writes (SPEC §11 `format`).
pub const FORMAT: u64 = 1;

/// The ops of SPEC §11 (the header holds only `about`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum OpKind {
    /// Declare a tool; `admitted: false` never reaches the catalog.
    Tool {
        /// The declaration; its effect and approval words are mapped, an
        /// absent or unknown one failing closed (SPEC §1).
        decl: ToolDecl,
        /// Whether the building admitted it.
        admitted: bool,
    },
    /// Admit a skill through the shelf door.
    Skill(ShelfSkill),
    /// Admit a skill through the carried door.
    CarriedSkill(CarriedSkill),
    /// Set the dev line (before `start` only).
    Dev {
        /// The line's text.
        text: String,
    },
    /// Start the run, perhaps as a child.
    Start {
        /// The run-start mode.
        mode: Mode,
        /// The child profile, if any.
        profile: Option<Profile>,
    },
    /// Print `render()`.
    Render,
    /// Print the tool list in a provider's shape.
    ToolDefs {
        /// Whose shape (`anthropic` when the op names none).
        provider: Provider,
    },
    /// Ask `describe`.
    Describe {
        /// The query.
        name: String,
    },
    /// A model's tool call.
    Call(ToolCall),
    /// Switch the effective mode.
    SwitchMode {
        /// The new mode.
        mode: Mode,
    },
    /// Ask `expand`.
    Expand {
        /// The name.
        name: String,
    },
    /// Print the skill pins.
    Pins,
    /// Print the descriptor digests.
    Digests,
}

impl OpKind {
    /// The op's name as written in the session.
    pub fn name(&self) -> &'static str {
        match self {
            OpKind::Tool { .. } => "tool",
            OpKind::Skill(_) => "skill",
            OpKind::CarriedSkill(_) => "carried_skill",
            OpKind::Dev { .. } => "dev",
            OpKind::Start { .. } => "start",
            OpKind::Render => "render",
            OpKind::ToolDefs { .. } => "tool_defs",
            OpKind::Describe { .. } => "describe",
            OpKind::Call(_) => "call",
            OpKind::SwitchMode { .. } => "switch_mode",
            OpKind::Expand { .. } => "expand",
            OpKind::Pins => "pins",
            OpKind::Digests => "digests",
        }
    }
}

/// Why a recording is incomplete.
#[derive(Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// Writing (or flushing) a line failed. The file holds every line before
    /// it, and perhaps a cut copy of this one; nothing after it is written.
    Write {
        /// The 1-based line that failed.
        line: usize,
        /// That line's op.
        op: &'static str,
        /// The writer's error.
        source: io::Error,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Write { line, op, source } => write!(
                f,
                "failed to record line {line} (op \"{op}\"): {source}; the recording stops before it"
            ),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Write { source, .. } => Some(source),
        }
    }
}

/// The host's writer, the next line's number, and the first failure.
#[derive(Debug)]
struct Lines<W: Write> {
    out: W,
    line: usize,
    error: Option<RecordError>,
}

impl<W: Write> Lines<W> {
    /// Writes one whole line and flushes it; after a failure, nothing.
    fn write(&mut self, op: &'static str, text: &str) {
        if self.error.is_some() {
            return;
        }
        self.line += 1;
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        if let Err(source) = written {
            self.error = Some(RecordError::Write {
                line: self.line,
                op,
                source,
            });
        }
    }

    fn op(&mut self, kind: &OpKind) {
        self.write(kind.name(), &op_line(kind));
    }

    fn finish(self) -> Result<W, RecordError> {
        match self.error {
            Some(error) => Err(error),
            None => Ok(self.out),
        }
    }
}

/// A catalog being built, recorded: stands where a [`Catalog`] would.
///
/// A [`Recorder`] stands where a [`Catalog`] would, and the [`RecordedRun`]
/// it starts stands where a [`Run`] would: the same methods, the same
/// answers, and each call also writes the op line whose replay gives the
/// same bytes — the header, every declaration as offered (refused ones and
/// `admitted: false` ones too), `dev`, `start`, each request's `render` and
/// `tool_defs`, each model tool call as the op that replays what
/// [`Run::answer`] gave the model, `switch_mode`, `expand`, `pins` and
/// `digests`. `disclose check` accepts the file unchanged.
///
/// The library does no I/O of its own: lines go to the [`Write`] the host
/// hands over, one whole line per `write_all`, flushed after each op so the
/// file is complete up to the last op even if the process dies. Recording
/// never stops the run: when a write fails, the error is kept
/// ([`RecordedRun::error`], [`RecordedRun::finish`]), nothing more is
/// written, and the file holds the ops before the failure, perhaps followed
/// by one cut line, which the parser rejects (a cut op line is never valid
/// JSON: it lacks its closing `}`).
///
/// ```
/// use disclose_catalog::{Answer, Mode, Provider, Recorder, ToolCall, ToolDecl};
/// use serde_json::json;
///
/// let mut recorder = Recorder::new(Vec::new(), "a recorded run");
/// let decl = ToolDecl::new("github", "create_issue", "Open an issue.", json!({"type": "object"}));
/// assert!(recorder.admit_tool(&decl).is_ok());
/// let mut run = recorder.start(Mode::Work);
/// let _tools = run.tools_for(Provider::Anthropic);
/// let _system = run.render();
/// let call = ToolCall { id: "c1".into(), name: "describe".into(), args: json!({"name": "issue"}) };
/// assert!(matches!(run.answer(&call), Answer::Text(_)));
/// let bytes = run.finish().expect("a Vec never fails");
///
/// // The header, the tool, start, tool_defs, render and the describe.
/// let text = String::from_utf8(bytes).expect("a recording is UTF-8");
/// assert_eq!(text.lines().count(), 6);
/// assert!(text.starts_with(r#"{"op":"session","format":1,"about":"a recorded run"}"#));
/// ```
#[derive(Debug)]
pub struct Recorder<W: Write> {
    catalog: Catalog,
    lines: Lines<W>,
}

impl<W: Write> Recorder<W> {
    /// An empty catalog whose session goes to `out`, starting with the
    /// header `{"op":"session","format":1,"about":…}`.
    pub fn new(out: W, about: &str) -> Recorder<W> {
        let mut lines = Lines {
            out,
            line: 0,
            error: None,
        };
        lines.write("session", &header_line(about));
        Recorder {
            catalog: Catalog::new(),
            lines,
        }
    }

    /// The catalog so far.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// [`Catalog::admit_tool`], recorded whatever the answer.
    pub fn admit_tool(&mut self, decl: &ToolDecl) -> Result<&AdmittedTool, Refusal> {
        self.lines.op(&tool_op(decl, true));
        self.catalog.admit_tool(decl)
    }

    /// Records a tool the building did not admit (`admitted: false`): it
    /// never reaches the catalog (SPEC §0), and costs nothing.
    pub fn unadmitted_tool(&mut self, decl: &ToolDecl) {
        self.lines.op(&tool_op(decl, false));
    }

    /// [`Catalog::admit_skill`], recorded whatever the answer.
    pub fn admit_skill(&mut self, decl: &ShelfSkill) -> Result<&Skill, Refusal> {
        self.lines.op(&OpKind::Skill(decl.clone()));
        self.catalog.admit_skill(decl)
    }

    /// [`Catalog::admit_carried_skill`], recorded whatever the answer.
    pub fn admit_carried_skill(&mut self, decl: &CarriedSkill) -> Result<&Skill, Refusal> {
        self.lines.op(&OpKind::CarriedSkill(decl.clone()));
        self.catalog.admit_carried_skill(decl)
    }

    /// [`Catalog::set_dev_line`], recorded.
    pub fn set_dev_line(&mut self, text: &str) {
        self.lines.op(&OpKind::Dev {
            text: text.to_string(),
        });
        self.catalog.set_dev_line(text);
    }

    /// [`Catalog::start`], recorded.
    pub fn start(self, mode: Mode) -> RecordedRun<W> {
        self.start_as(mode, None)
    }

    /// [`Catalog::start_child`], recorded.
    pub fn start_child(self, mode: Mode, profile: Profile) -> RecordedRun<W> {
        self.start_as(mode, Some(profile))
    }

    fn start_as(self, mode: Mode, profile: Option<Profile>) -> RecordedRun<W> {
        let Recorder { catalog, mut lines } = self;
        lines.op(&OpKind::Start { mode, profile });
        let run = match profile {
            None => catalog.start(mode),
            Some(profile) => catalog.start_child(mode, profile),
        };
        RecordedRun { run, lines }
    }

    /// The first write that failed, if any.
    pub fn error(&self) -> Option<&RecordError> {
        self.lines.error.as_ref()
    }

    /// The writer back, or the first write that failed.
    pub fn finish(self) -> Result<W, RecordError> {
        self.lines.finish()
    }
}

/// A started run, recorded: stands where a [`Run`] would.
#[derive(Debug)]
pub struct RecordedRun<W: Write> {
    run: Run,
    lines: Lines<W>,
}

impl<W: Write> RecordedRun<W> {
    /// The run, for what is not recorded (`tool`, `skill`, `is_resident`…).
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// [`Run::render`], recorded as a `render` op.
    pub fn render(&mut self) -> String {
        self.lines.op(&OpKind::Render);
        self.run.render()
    }

    /// [`Run::tools_for`], recorded as a `tool_defs` op naming the provider.
    pub fn tools_for(&mut self, provider: Provider) -> ToolList {
        self.lines.op(&OpKind::ToolDefs { provider });
        self.run.tools_for(provider)
    }

    /// [`Run::answer`], recorded as the op whose replay gives the model the
    /// same bytes: `describe` for an answer of `describe` (the query, as the
    /// model wrote it), otherwise `call` (a direct `describe` whose args do
    /// not fit is recorded as the same args routed through `call`, which
    /// replays the same `call.misfit`).
    pub fn answer(&mut self, call: &ToolCall) -> Answer {
        let (answer, op) = self.run.answer_and_op(call);
        self.lines.op(&op);
        answer
    }

    /// [`Run::describe`], recorded.
    pub fn describe(&mut self, query: &str) -> Result<String, Refusal> {
        self.lines.op(&OpKind::Describe {
            name: query.to_string(),
        });
        self.run.describe(query)
    }

    /// [`Run::call`], recorded.
    pub fn call(&mut self, call: &ToolCall) -> Result<ToolCall, Refusal> {
        self.lines.op(&OpKind::Call(call.clone()));
        self.run.call(call)
    }

    /// [`Run::switch_mode`], recorded.
    pub fn switch_mode(&mut self, mode: Mode) -> String {
        self.lines.op(&OpKind::SwitchMode { mode });
        self.run.switch_mode(mode)
    }

    /// [`Run::expand`], recorded: how a host serves a skill name given to
    /// its `read` tool.
    pub fn expand(&mut self, name: &str) -> Result<String, Refusal> {
        self.lines.op(&OpKind::Expand {
            name: name.to_string(),
        });
        self.run.expand(name)
    }

    /// [`Run::skill_pins`], recorded as `pins`.
    pub fn skill_pins(&mut self) -> Vec<SkillPin> {
        self.lines.op(&OpKind::Pins);
        self.run.skill_pins()
    }

    /// [`Run::digests`], recorded.
    pub fn digests(&mut self) -> BTreeMap<&str, &str> {
        self.lines.op(&OpKind::Digests);
        self.run.digests()
    }

    /// [`Run::admit_tool`] (always `admit.frozen`), recorded.
    pub fn admit_tool(&mut self, decl: &ToolDecl) -> Refusal {
        self.lines.op(&tool_op(decl, true));
        self.run.admit_tool(decl)
    }

    /// Records a tool the building did not admit (`admitted: false`).
    pub fn unadmitted_tool(&mut self, decl: &ToolDecl) {
        self.lines.op(&tool_op(decl, false));
    }

    /// [`Run::admit_skill`] (always `admit.frozen`), recorded.
    pub fn admit_skill(&mut self, decl: &ShelfSkill) -> Refusal {
        self.lines.op(&OpKind::Skill(decl.clone()));
        self.run.admit_skill(decl)
    }

    /// [`Run::admit_carried_skill`] (always `admit.frozen`), recorded.
    pub fn admit_carried_skill(&mut self, decl: &CarriedSkill) -> Refusal {
        self.lines.op(&OpKind::CarriedSkill(decl.clone()));
        self.run.admit_carried_skill(decl)
    }

    /// The first write that failed, if any.
    pub fn error(&self) -> Option<&RecordError> {
        self.lines.error.as_ref()
    }

    /// The writer back, or the first write that failed.
    pub fn finish(self) -> Result<W, RecordError> {
        self.lines.finish()
    }
}

fn tool_op(decl: &ToolDecl, admitted: bool) -> OpKind {
    OpKind::Tool {
        decl: decl.clone(),
        admitted,
    }
}

/// The header line, `{"op":"session","format":1,"about":…}\n`.
pub fn header_line(about: &str) -> String {
    let mut line = format!("{{\"op\":\"session\",\"format\":{FORMAT},\"about\":");
    write_string(&mut line, about);
    line.push_str("}\n");
    line
}

/// One op as a session line (SPEC §11), `\n`-terminated: `op` first, then
/// the fields in the spec's order, values in canonical JSON (SPEC §10).
/// Optional fields are written only when set (`admitted` only when false);
/// a `tool_defs` op always names its provider.
pub fn op_line(kind: &OpKind) -> String {
    let mut line = Line::new(kind.name());
    match kind {
        OpKind::Tool { decl, admitted } => {
            line.string("origin", &decl.origin);
            line.string("name", &decl.name);
            line.string("description", &decl.description);
            line.key("input_schema");
            write_value(&mut line.0, &decl.input_schema);
            line.string("effect", decl.effect.as_str());
            line.string("approval", decl.approval.as_str());
            if !admitted {
                line.key("admitted");
                line.0.push_str("false");
            }
        }
        OpKind::Skill(skill) => {
            line.string("name", &skill.name);
            line.string("disclosure", &skill.disclosure);
            line.string("address", &skill.address);
            line.optional("hash", &skill.hash);
            line.optional("package", &skill.package);
        }
        OpKind::CarriedSkill(skill) => {
            line.string("name", &skill.name);
            line.string("disclosure", &skill.disclosure);
            line.string("body", &skill.body);
            line.optional("hash", &skill.hash);
            line.optional("package", &skill.package);
        }
        OpKind::Dev { text } => line.string("text", text),
        OpKind::Start { mode, profile } => {
            line.string("mode", mode.as_str());
            if let Some(profile) = profile {
                line.string("profile", profile.as_str());
            }
        }
        OpKind::ToolDefs { provider } => line.string("provider", provider.as_str()),
        OpKind::Describe { name } | OpKind::Expand { name } => line.string("name", name),
        OpKind::Call(call) => {
            line.string("id", &call.id);
            line.string("name", &call.name);
            line.key("args");
            write_value(&mut line.0, &call.args);
        }
        OpKind::SwitchMode { mode } => line.string("mode", mode.as_str()),
        OpKind::Render | OpKind::Pins | OpKind::Digests => {}
    }
    line.end()
}

/// An op line being written.
struct Line(String);

impl Line {
    fn new(op: &str) -> Line {
        let mut text = String::from("{\"op\":");
        write_string(&mut text, op);
        Line(text)
    }

    fn key(&mut self, key: &str) {
        self.0.push(',');
        write_string(&mut self.0, key);
        self.0.push(':');
    }

    fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        write_string(&mut self.0, value);
    }

    fn optional(&mut self, key: &str, value: &Option<String>) {
        if let Some(value) = value {
            self.string(key, value);
        }
    }

    fn end(mut self) -> String {
        self.0.push_str("}\n");
        self.0
    }
}
