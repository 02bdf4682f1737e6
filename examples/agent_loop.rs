//! An agent runtime's loop on `disclose`, from MCP servers to a recorded
//! session: `cargo run --example agent_loop [SESSION]`.
//!
//! 1. Imports two MCP `tools/list` results shipped beside this file
//!    (`examples/mcp/filesystem.json`, `examples/mcp/github.json`) and admits
//!    them with the host's own tools and a skill, recording as it goes.
//! 2. Starts the run and prints the Anthropic request's `tools` array and
//!    system segment: the cached prefix, the same bytes for every request.
//! 3. Feeds a scripted model's tool calls through `Run::answer` and prints
//!    what the model is told, or what the host would execute; one call does
//!    not fit its schema, one names a dormant tool by its bare name, and the
//!    host's `read` serves a skill card through `expand`.
//! 4. Records the run to SESSION (default: `agent_loop.jsonl` in the
//!    system's temporary directory), then parses and replays that file
//!    with the library and shows that every byte the model saw, and every
//!    call the host ran, comes back identical.
//!
//! The library does no I/O: this file reads the server lists, owns the
//! session file and prints. `tests/examples.rs` runs [`run`].

use std::error::Error;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use disclose::internals::canonical::canonical;
use disclose::{
    Answer, Approval, Effect, Mode, Provider, Recorder, ShelfSkill, ToolCall, ToolDecl,
};
use disclose_replay::replay::{Outcome, replay};
use disclose_replay::session;
use serde_json::{Value, json};

fn main() -> Result<(), Box<dyn Error>> {
    let session = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("agent_loop.jsonl"));
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    run(&examples, &session, &mut std::io::stdout().lock())
}

/// What the live run gave, in order: a request's bytes, a tool result the
/// model was given, or a call the host was asked to run.
#[derive(Debug, PartialEq)]
enum Given {
    Bytes(String),
    ToHost(ToolCall),
}

/// The whole loop, printing to `out` and recording to `session`.
pub fn run(examples: &Path, session: &Path, out: &mut impl Write) -> Result<(), Box<dyn Error>> {
    let file = BufWriter::new(File::create(session)?);
    let mut recorder = Recorder::new(
        file,
        "examples/agent_loop.rs: two MCP servers and a scripted model, recorded as it ran",
    );

    // 1. The building admits the host's tools, both servers' tools and a skill.
    writeln!(out, "== admitted")?;
    for decl in host_tools() {
        let answer = recorder.admit_tool(&decl).map(|t| t.name().to_string());
        writeln!(out, "{}", answer.unwrap_or_else(|r| r.to_lines()))?;
    }
    for (origin, file) in [("fs", "mcp/filesystem.json"), ("github", "mcp/github.json")] {
        let list = std::fs::read(examples.join(file))?;
        for decl in disclose::import::mcp(&list, origin)?.tools {
            let answer = recorder
                .admit_tool(&decl)
                .map(|t| format!("{} ({})", t.name(), t.effect()));
            writeln!(out, "{}", answer.unwrap_or_else(|r| r.to_lines()))?;
        }
    }
    let skill = ShelfSkill {
        name: "release-checklist".into(),
        disclosure: "The steps to cut a release: changelog, version bump, tag, publish.".into(),
        address: "skills/release-checklist/SKILL.md".into(),
        hash: None,
        package: None,
    };
    if let Err(refusal) = recorder.admit_skill(&skill) {
        write!(out, "{}", refusal.to_lines())?;
    }

    // 2. The run starts; every request carries the same tools and segment.
    let mut run = recorder.start(Mode::Chat);
    let mut given = Vec::new();
    let tools = run.tools_for(Provider::Anthropic);
    let system = run.render();
    writeln!(
        out,
        "\n== the Anthropic request's tools ({} bytes)",
        tools.as_bytes().len()
    )?;
    writeln!(out, "{}", tools.as_str())?;
    writeln!(out, "\n== its system segment ({} bytes)", system.len())?;
    write!(out, "{system}")?;
    given.push(Given::Bytes(tools.lines()));
    given.push(Given::Bytes(system));

    // 3. The model's tool calls, in the order it made them.
    writeln!(out, "\n== the model's tool calls")?;
    for (step, call) in script().into_iter().enumerate() {
        if step == 7 {
            // The user lets the agent work: only the gate moves.
            let line = run.switch_mode(Mode::Work);
            write!(out, "(host) {line}")?;
            given.push(Given::Bytes(line));
        }
        writeln!(out, "{} {} {}", call.id, call.name, canonical(&call.args))?;
        match run.answer(&call) {
            Answer::Run(to_run) if to_run.name == "read" && is_skill(&run, &to_run) => {
                // The host's `read`: a skill name is served by the catalog.
                let name = to_run.args["path"].as_str().unwrap_or_default().to_string();
                given.push(Given::ToHost(to_run));
                let card = run.expand(&name).unwrap_or_else(|r| r.to_lines());
                write!(out, "  read serves the skill: {card}")?;
                given.push(Given::Bytes(card));
            }
            Answer::Run(to_run) => {
                writeln!(
                    out,
                    "  host executes: {} {}",
                    to_run.name,
                    canonical(&to_run.args)
                )?;
                given.push(Given::ToHost(to_run));
            }
            answer => {
                let text = answer.text().unwrap_or_default();
                for line in text.lines() {
                    writeln!(out, "  model is told: {line}")?;
                }
                given.push(Given::Bytes(text));
            }
        }
    }

    // 4. The recording, parsed and replayed by the library.
    let mut file = run.finish()?;
    file.flush()?;
    drop(file);
    let bytes = std::fs::read(session)?;
    let parsed = session::parse(&bytes)?;
    let replayed = replay(&parsed);
    let again: Vec<Given> = replayed
        .steps
        .iter()
        .filter(|s| !matches!(s.op, "tool" | "skill" | "start"))
        .map(|s| match &s.outcome {
            Outcome::Routed(call) => Given::ToHost(call.clone()),
            _ => Given::Bytes(s.output.clone()),
        })
        .collect();
    writeln!(
        out,
        "\n== recorded {} ops to {}",
        parsed.ops().len(),
        session.display()
    )?;
    if again != given {
        return Err("the replay differs from the live run".into());
    }
    writeln!(
        out,
        "replayed with the library: {} answers and requests, every byte identical",
        given.len()
    )?;
    Ok(())
}

/// Whether a routed `read` names a skill (the host reads files otherwise).
fn is_skill<W: Write>(run: &disclose::RecordedRun<W>, call: &ToolCall) -> bool {
    let path = call.args.get("path").and_then(Value::as_str);
    path.is_some_and(|p| run.run().skill(p).is_some())
}

/// The host's own tools: resident, so in every request's tool list.
fn host_tools() -> Vec<ToolDecl> {
    let path = json!({"type": "string", "description": "Workspace-relative path."});
    vec![
        ToolDecl::new(
            "host",
            "read",
            "Read a workspace file, or a skill card by its name.",
            json!({"type": "object", "properties": {"path": path}, "required": ["path"], "additionalProperties": false}),
        )
        .with_effect(Effect::Read)
        .with_approval(Approval::Never),
        ToolDecl::new(
            "host",
            "exec",
            "Run one shell command in the workspace and return its exit code and output.",
            json!({"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"], "additionalProperties": false}),
        ),
    ]
}

/// What the scripted model asks, in order.
fn script() -> Vec<ToolCall> {
    let call = |id: &str, name: &str, args: Value| ToolCall {
        id: id.to_string(),
        name: name.to_string(),
        args,
    };
    vec![
        call(
            "toolu_01",
            "describe",
            json!({"name": "open a pull request"}),
        ),
        call(
            "toolu_02",
            "describe",
            json!({"name": "github__create_pull_request"}),
        ),
        // Misfit: no head and base, and a key the schema does not have.
        call(
            "toolu_03",
            "call",
            json!({"name": "github__create_pull_request", "args": {"owner": "acme", "repo": "api", "title": "Fix the retry loop", "branch": "fix-retry"}}),
        ),
        call(
            "toolu_04",
            "call",
            json!({"name": "github__create_pull_request", "args": {"owner": "acme", "repo": "api", "title": "Fix the retry loop", "head": "fix-retry", "base": "main"}}),
        ),
        // A dormant tool by its bare name: it is not in the tool list.
        call(
            "toolu_05",
            "fs__read_text_file",
            json!({"path": "CHANGELOG.md"}),
        ),
        call("toolu_06", "read", json!({"path": "release-checklist"})),
        call("toolu_07", "exec", json!({"command": "cargo test"})),
        call("toolu_08", "exec", json!({"command": "cargo test"})),
    ]
}
