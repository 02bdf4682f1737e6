//! `disclose import`: a provider's tool list in, session lines out.
//!
//! Reads an MCP `tools/list` result, an OpenAI `tools` array or an Anthropic
//! tool list, and writes a session (SPEC §11) that declares every tool under
//! the origin the user names, starts the run, and prints `render` and
//! `tool_defs`, so `disclose replay` shows what the catalog makes of it.
//!
//! It imports declarations as they are: a tool without a description, with a
//! `.` in its name or with a broken schema is written as declared, and the
//! replay shows the catalog's refusal. It does not fix, drop or rename tools,
//! and it never runs the catalog itself (the session is checked to parse).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use disclose::Effect;
use disclose::canonical::{write_string, write_value};
use disclose::naming::origin_is_valid;
use serde_json::{Map, Value};

use super::{Exit, emit};

/// `disclose import`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Several sources append into one session: give KIND FILE pairs and one --origin per pair, in the same order:\n  disclose import mcp github.json --origin github mcp linear.json --origin linear"
)]
pub struct ImportArgs {
    /// KIND FILE, repeated: KIND is `mcp`, `openai` or `anthropic`; FILE is a
    /// path, or `-` for stdin.
    #[arg(value_names = ["KIND", "FILE"], required = true, num_args = 2..)]
    pub sources: Vec<PathBuf>,
    /// The origin of each KIND FILE pair, in order (lowercase letters, digits
    /// and inner hyphens).
    #[arg(long, value_name = "NAME", required = true)]
    pub origin: Vec<String>,
    /// The run-start mode written into the session's `start`.
    #[arg(long, default_value = "chat", value_parser = ["chat", "work"])]
    pub mode: String,
}

/// The tool-list dialects `import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// MCP `tools/list`: `{name, description?, inputSchema, annotations?}`.
    Mcp,
    /// OpenAI: `{type: "function", function: {name, description, parameters}}`.
    OpenAi,
    /// Anthropic: `{name, description, input_schema}`.
    Anthropic,
}

impl Kind {
    fn parse(word: &Path) -> Option<Kind> {
        match word.to_str()? {
            "mcp" => Some(Kind::Mcp),
            "openai" => Some(Kind::OpenAi),
            "anthropic" => Some(Kind::Anthropic),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Kind::Mcp => "mcp",
            Kind::OpenAi => "openai",
            Kind::Anthropic => "anthropic",
        }
    }
}

/// One resolved KIND FILE --origin triple.
struct Source<'a> {
    kind: Kind,
    file: &'a Path,
    origin: &'a str,
}

impl Source<'_> {
    fn is_stdin(&self) -> bool {
        self.file == Path::new("-")
    }

    /// How errors and the header name the file.
    fn label(&self) -> String {
        if self.is_stdin() {
            "stdin".to_string()
        } else {
            self.file.display().to_string()
        }
    }
}

/// One tool as it will be declared.
struct Imported {
    name: String,
    description: String,
    input_schema: Value,
    effect: Effect,
}

/// Runs `disclose import`.
pub fn run(args: &ImportArgs) -> Result<Exit> {
    let sources = resolve(args)?;
    let mut out = header(&sources);
    for source in &sources {
        let label = source.label();
        let tools = read(source, &label).with_context(|| label.clone())?;
        for tool in &tools {
            warn_about(&label, tool);
            out.push_str(&tool_line(source.origin, tool));
        }
    }
    out.push_str(&format!(
        "{{\"op\":\"start\",\"mode\":\"{}\"}}\n",
        args.mode
    ));
    out.push_str("{\"op\":\"render\"}\n{\"op\":\"tool_defs\"}\n");
    // What we print must be a session the harness accepts; a failure here is
    // a bug in this module, reported rather than printed.
    if let Err(error) = disclose::session::parse(out.as_bytes()) {
        bail!("the imported session does not parse ({error}); this is a bug in disclose import");
    }
    emit(&out)?;
    Ok(Exit::Pass)
}

/// Pairs `KIND FILE` positionals with the `--origin` values, in order.
fn resolve(args: &ImportArgs) -> Result<Vec<Source<'_>>> {
    let pairs = args.sources.chunks(2);
    if !args.sources.len().is_multiple_of(2) || pairs.len() != args.origin.len() {
        bail!(
            "give KIND FILE pairs and one --origin per pair, in the same order (got {} positional values and {} --origin)",
            args.sources.len(),
            args.origin.len()
        );
    }
    let mut sources = Vec::new();
    for (pair, origin) in pairs.zip(&args.origin) {
        let [kind, file] = pair else {
            bail!("give KIND FILE pairs");
        };
        let Some(kind) = Kind::parse(kind) else {
            bail!(
                "\"{}\" is not a kind of tool list; use mcp, openai or anthropic (before FILE)",
                kind.display()
            );
        };
        if !origin_is_valid(origin) {
            bail!(
                "--origin \"{origin}\" is not 1 to 32 lowercase letters, digits and inner hyphens"
            );
        }
        sources.push(Source { kind, file, origin });
    }
    Ok(sources)
}

fn header(sources: &[Source<'_>]) -> String {
    let about = sources
        .iter()
        .map(|s| format!("{} {} as origin {}", s.kind.as_str(), s.label(), s.origin))
        .collect::<Vec<_>>()
        .join("; ");
    let mut line = String::from("{\"op\":\"session\",\"format\":1,\"about\":");
    write_string(&mut line, &format!("imported by disclose import: {about}"));
    line.push_str("}\n");
    line
}

/// `{"op":"tool",…}` with `op` first for people, values in canonical JSON.
fn tool_line(origin: &str, tool: &Imported) -> String {
    let mut line = String::from("{\"op\":\"tool\",\"origin\":");
    write_string(&mut line, origin);
    line.push_str(",\"name\":");
    write_string(&mut line, &tool.name);
    line.push_str(",\"description\":");
    write_string(&mut line, &tool.description);
    line.push_str(",\"input_schema\":");
    write_value(&mut line, &tool.input_schema);
    line.push_str(",\"effect\":");
    write_string(&mut line, tool.effect.as_str());
    // Approval is never imported: no list format carries it, and a human
    // approves until the building says otherwise (SPEC §1 fails closed).
    line.push_str(",\"approval\":\"required\"}\n");
    line
}

/// Declarations the catalog will refuse are imported as they are; say so
/// now, on stderr, so the user is not surprised by the replay.
fn warn_about(label: &str, tool: &Imported) {
    if tool.description.trim().is_empty() {
        eprintln!(
            "disclose: {label}: tool \"{}\" has no description; the catalog will refuse it (admit.disclosure)",
            tool.name
        );
    }
    if !tool.input_schema.is_object() {
        eprintln!(
            "disclose: {label}: tool \"{}\" has no input schema object; the catalog will refuse it (admit.schema)",
            tool.name
        );
    }
}

fn read(source: &Source<'_>, label: &str) -> Result<Vec<Imported>> {
    let mut bytes = Vec::new();
    if source.is_stdin() {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("failed to read stdin")?;
    } else {
        bytes = std::fs::read(source.file).context("failed to read the file")?;
    }
    let value: Value =
        serde_json::from_slice(&bytes).map_err(|e| anyhow::anyhow!("is not JSON: {e}"))?;
    let items = tool_array(&value, source.kind)?;
    let mut tools = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = index + 1;
        let Value::Object(item) = item else {
            bail!("tool #{at} is not an object");
        };
        let tool = match source.kind {
            Kind::Mcp => mcp_tool(item, at)?,
            Kind::Anthropic => Some(anthropic_tool(item, at)?),
            Kind::OpenAi => openai_tool(item, at, label)?,
        };
        tools.extend(tool);
    }
    Ok(tools)
}

/// The array of tools: bare, under `tools`, or (MCP) under a JSON-RPC
/// response's `result.tools`.
fn tool_array(value: &Value, kind: Kind) -> Result<&Vec<Value>> {
    let found = match value {
        Value::Array(items) => Some(items),
        Value::Object(map) => match (map.get("tools"), map.get("result"), kind) {
            (Some(Value::Array(items)), _, _) => Some(items),
            (None, Some(Value::Object(result)), Kind::Mcp) => match result.get("tools") {
                Some(Value::Array(items)) => Some(items),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    found.ok_or_else(|| {
        let expected = match kind {
            Kind::Mcp => {
                "an MCP tools/list result: {\"tools\": [...]}, a JSON-RPC response with result.tools, or an array of tools"
            }
            Kind::OpenAi => {
                "an OpenAI tools array of {\"type\": \"function\", \"function\": {...}}, or {\"tools\": [...]}"
            }
            Kind::Anthropic => {
                "an Anthropic tools array of {name, description, input_schema}, or {\"tools\": [...]}"
            }
        };
        anyhow::anyhow!("is not {expected}")
    })
}

fn name(map: &Map<String, Value>, at: usize) -> Result<String> {
    match map.get("name") {
        Some(Value::String(name)) if !name.is_empty() => Ok(name.clone()),
        Some(Value::String(_)) => bail!("tool #{at} has an empty name"),
        None | Some(Value::Null) => bail!("tool #{at} has no name"),
        Some(_) => bail!("tool #{at} has a name that is not a string"),
    }
}

/// A missing description imports as empty (the catalog refuses it with
/// `admit.disclosure`); a non-string one is a malformed file.
fn description(map: &Map<String, Value>, at: usize, name: &str) -> Result<String> {
    match map.get("description") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => bail!("tool #{at} (\"{name}\") has a description that is not a string"),
    }
}

/// A missing schema imports as `null`, which the catalog refuses with
/// `admit.schema`: the defect stays visible.
fn schema(map: &Map<String, Value>, key: &str) -> Value {
    map.get(key).cloned().unwrap_or(Value::Null)
}

fn mcp_tool(map: &Map<String, Value>, at: usize) -> Result<Option<Imported>> {
    let name = name(map, at)?;
    Ok(Some(Imported {
        description: description(map, at, &name)?,
        input_schema: schema(map, "inputSchema"),
        effect: mcp_effect(map.get("annotations")),
        name,
    }))
}

/// MCP annotations are untrusted hints with worst-case defaults
/// (`readOnlyHint` false, `destructiveHint` true, `idempotentHint` false);
/// only an explicit boolean moves a tool away from `irreversible`.
fn mcp_effect(annotations: Option<&Value>) -> Effect {
    let hint = |key: &str| {
        annotations
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
    };
    let not_destructive = hint("destructiveHint") == Some(false);
    if hint("readOnlyHint") == Some(true) {
        Effect::Read
    } else if hint("idempotentHint") == Some(true) && not_destructive {
        Effect::IdempotentWrite
    } else if not_destructive {
        Effect::Reversible
    } else {
        Effect::Irreversible
    }
}

fn anthropic_tool(map: &Map<String, Value>, at: usize) -> Result<Imported> {
    let name = name(map, at)?;
    Ok(Imported {
        description: description(map, at, &name)?,
        input_schema: schema(map, "input_schema"),
        effect: Effect::Irreversible,
        name,
    })
}

/// Chat Completions nests the function (`{type, function: {…}}`); the
/// Responses API flattens it (`{type, name, …}`). Built-in tools (`type`
/// other than `function`) have no definition to import and are skipped.
fn openai_tool(map: &Map<String, Value>, at: usize, label: &str) -> Result<Option<Imported>> {
    match map.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(kind)) if kind == "function" => {}
        Some(Value::String(kind)) => {
            eprintln!(
                "disclose: {label}: skipped tool #{at}: type \"{kind}\" is a built-in, not a function"
            );
            return Ok(None);
        }
        Some(_) => bail!("tool #{at} has a type that is not a string"),
    }
    let function = match map.get("function") {
        Some(Value::Object(function)) => function,
        Some(_) => bail!("tool #{at} has a function that is not an object"),
        None => map,
    };
    let name = name(function, at)?;
    // OpenAI documents an omitted `parameters` as a function that takes no
    // arguments.
    let input_schema = function
        .get("parameters")
        .cloned()
        .unwrap_or_else(|| serde_json::json!({"type": "object", "properties": {}}));
    Ok(Some(Imported {
        description: description(function, at, &name)?,
        input_schema,
        effect: Effect::Irreversible,
        name,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn annotations_map_to_effects_failing_closed() {
        let cases = [
            (json!({"readOnlyHint": true}), Effect::Read),
            (
                json!({"readOnlyHint": true, "destructiveHint": true}),
                Effect::Read,
            ),
            (
                json!({"idempotentHint": true, "destructiveHint": false}),
                Effect::IdempotentWrite,
            ),
            (json!({"idempotentHint": true}), Effect::Irreversible),
            (json!({"destructiveHint": false}), Effect::Reversible),
            (json!({"destructiveHint": true}), Effect::Irreversible),
            (json!({"readOnlyHint": "true"}), Effect::Irreversible),
            (json!({}), Effect::Irreversible),
            (json!(null), Effect::Irreversible),
        ];
        for (annotations, effect) in cases {
            assert_eq!(mcp_effect(Some(&annotations)), effect, "{annotations}");
        }
        assert_eq!(mcp_effect(None), Effect::Irreversible);
    }
}
