//! Tool lists in, declarations out: an MCP `tools/list` result ([`mcp`]),
//! an OpenAI `tools` array ([`openai`]) or an Anthropic tool list
//! ([`anthropic`]) becomes [`ToolDecl`]s under the origin the host names.
//!
//! Declarations are imported as they are: a tool without a description,
//! with a `.` in its name or with a broken schema comes out as declared, and
//! admission shows the catalog's refusal (`admit.disclosure`, `admit.name`,
//! `admit.schema`). Nothing is fixed, dropped or renamed; only a list that is
//! not JSON, has the wrong shape, or holds a tool without a usable name is
//! an [`ImportError`]. The origin is not checked here: admission checks it
//! (`admit.origin`).
//!
//! Effect and approval fail closed (SPEC §1): approval is always
//! `required`, since no list format carries it, and only MCP annotations
//! move a tool's effect away from `irreversible` (see [`mcp_effect`]).
//!
//! ```
//! use disclose_catalog::{Catalog, Effect};
//!
//! let list = r#"{"tools": [{"name": "read_file", "description": "Read a file.",
//!     "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]}"#;
//! let imported = disclose_catalog::import::mcp(list, "fs").expect("a tools/list result");
//! assert_eq!(imported.tools[0].effect, Effect::Read);
//!
//! let mut catalog = Catalog::new();
//! let admitted = catalog.admit_tool(&imported.tools[0]).map(|t| t.name().to_string());
//! assert_eq!(admitted, Ok("fs__read_file".to_string()));
//! ```

use std::fmt;

use serde_json::{Map, Value, json};

use crate::declaration::{Approval, Effect, ToolDecl};

/// What an import gives: the declarations, in list order, and the entries
/// it skipped.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Imported {
    /// One declaration per tool of the list, in order.
    pub tools: Vec<ToolDecl>,
    /// Entries that declare no function to import (OpenAI built-ins such
    /// as `web_search_preview`).
    pub skipped: Vec<Skipped>,
}

/// An entry of a tool list that is not a function definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its 1-based position in the list.
    pub at: usize,
    /// Its `type`.
    pub kind: String,
}

/// Why a tool list could not be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportError {
    /// The bytes are not JSON.
    NotJson {
        /// The parser's message.
        message: String,
    },
    /// The JSON is not a tool list of this format.
    Shape {
        /// What the format expects.
        expected: &'static str,
    },
    /// One tool of the list cannot be read.
    Tool {
        /// Its 1-based position in the list.
        at: usize,
        /// What is wrong with it.
        problem: String,
    },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NotJson { message } => write!(f, "is not JSON: {message}"),
            ImportError::Shape { expected } => write!(f, "is not {expected}"),
            ImportError::Tool { at, problem } => write!(f, "tool #{at} {problem}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// The tool-list formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Mcp,
    OpenAi,
    Anthropic,
}

/// An MCP `tools/list` result: `{"tools": [...]}`, a whole JSON-RPC
/// response (`result.tools`), or a bare array of
/// `{name, description?, inputSchema, annotations?}`.
pub fn mcp(list: impl AsRef<[u8]>, origin: &str) -> Result<Imported, ImportError> {
    import(list.as_ref(), origin, Format::Mcp)
}

/// An OpenAI `tools` array (or `{"tools": [...]}`), Chat Completions'
/// nested `{type: "function", function: {...}}` or Responses' flat
/// `{type: "function", name, ...}`. An omitted `parameters` is a function
/// without arguments, `{"type":"object","properties":{}}`, as OpenAI
/// documents it; built-in tools (any other `type`) are [`Imported::skipped`].
pub fn openai(list: impl AsRef<[u8]>, origin: &str) -> Result<Imported, ImportError> {
    import(list.as_ref(), origin, Format::OpenAi)
}

/// An Anthropic tool list (or `{"tools": [...]}`) of
/// `{name, description, input_schema}`.
pub fn anthropic(list: impl AsRef<[u8]>, origin: &str) -> Result<Imported, ImportError> {
    import(list.as_ref(), origin, Format::Anthropic)
}

fn import(bytes: &[u8], origin: &str, format: Format) -> Result<Imported, ImportError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| ImportError::NotJson {
        message: e.to_string(),
    })?;
    let items = tool_array(&value, format)?;
    let mut imported = Imported {
        tools: Vec::with_capacity(items.len()),
        skipped: Vec::new(),
    };
    for (index, item) in items.iter().enumerate() {
        let at = index + 1;
        let Value::Object(item) = item else {
            return Err(problem(at, "is not an object".to_string()));
        };
        let tool = match format {
            Format::Mcp => mcp_tool(item, at, origin)?,
            Format::Anthropic => anthropic_tool(item, at, origin)?,
            Format::OpenAi => match openai_tool(item, at, origin)? {
                Ok(tool) => tool,
                Err(skipped) => {
                    imported.skipped.push(skipped);
                    continue;
                }
            },
        };
        imported.tools.push(tool);
    }
    Ok(imported)
}

fn problem(at: usize, problem: String) -> ImportError {
    ImportError::Tool { at, problem }
}

/// The array of tools: bare, under `tools`, or (MCP) under a JSON-RPC
/// response's `result.tools`.
fn tool_array(value: &Value, format: Format) -> Result<&Vec<Value>, ImportError> {
    let found = match value {
        Value::Array(items) => Some(items),
        Value::Object(map) => match (map.get("tools"), map.get("result"), format) {
            (Some(Value::Array(items)), _, _) => Some(items),
            (None, Some(Value::Object(result)), Format::Mcp) => match result.get("tools") {
                Some(Value::Array(items)) => Some(items),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    found.ok_or(ImportError::Shape {
        expected: match format {
            Format::Mcp => {
                "an MCP tools/list result: {\"tools\": [...]}, a JSON-RPC response with result.tools, or an array of tools"
            }
            Format::OpenAi => {
                "an OpenAI tools array of {\"type\": \"function\", \"function\": {...}}, or {\"tools\": [...]}"
            }
            Format::Anthropic => {
                "an Anthropic tools array of {name, description, input_schema}, or {\"tools\": [...]}"
            }
        },
    })
}

fn name(map: &Map<String, Value>, at: usize) -> Result<String, ImportError> {
    match map.get("name") {
        Some(Value::String(name)) if !name.is_empty() => Ok(name.clone()),
        Some(Value::String(_)) => Err(problem(at, "has an empty name".to_string())),
        None | Some(Value::Null) => Err(problem(at, "has no name".to_string())),
        Some(_) => Err(problem(at, "has a name that is not a string".to_string())),
    }
}

/// A missing description imports as empty (the catalog refuses it with
/// `admit.disclosure`); a non-string one is a malformed list.
fn description(map: &Map<String, Value>, at: usize, name: &str) -> Result<String, ImportError> {
    match map.get("description") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(_) => Err(problem(
            at,
            format!("(\"{name}\") has a description that is not a string"),
        )),
    }
}

/// A missing schema imports as `null`, which the catalog refuses with
/// `admit.schema`: the defect stays visible.
fn schema(map: &Map<String, Value>, key: &str) -> Value {
    map.get(key).cloned().unwrap_or(Value::Null)
}

fn decl(
    origin: &str,
    name: String,
    description: String,
    schema: Value,
    effect: Effect,
) -> ToolDecl {
    ToolDecl::new(origin, name, description, schema)
        .with_effect(effect)
        .with_approval(Approval::Required)
}

fn mcp_tool(map: &Map<String, Value>, at: usize, origin: &str) -> Result<ToolDecl, ImportError> {
    let name = name(map, at)?;
    let description = description(map, at, &name)?;
    let effect = mcp_effect(map.get("annotations"));
    Ok(decl(
        origin,
        name,
        description,
        schema(map, "inputSchema"),
        effect,
    ))
}

/// The effect class of MCP `annotations`. They are untrusted hints with
/// worst-case defaults (`readOnlyHint` false, `destructiveHint` true,
/// `idempotentHint` false), so only an explicit boolean moves a tool away
/// from `irreversible`: `readOnlyHint: true` → `read`; else
/// `idempotentHint: true` with `destructiveHint: false` → `idempotent-write`;
/// else `destructiveHint: false` → `reversible`.
pub fn mcp_effect(annotations: Option<&Value>) -> Effect {
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

fn anthropic_tool(
    map: &Map<String, Value>,
    at: usize,
    origin: &str,
) -> Result<ToolDecl, ImportError> {
    let name = name(map, at)?;
    let description = description(map, at, &name)?;
    Ok(decl(
        origin,
        name,
        description,
        schema(map, "input_schema"),
        Effect::Irreversible,
    ))
}

/// Chat Completions nests the function (`{type, function: {…}}`); the
/// Responses API flattens it (`{type, name, …}`). Built-in tools (`type`
/// other than `function`) have no definition to import.
fn openai_tool(
    map: &Map<String, Value>,
    at: usize,
    origin: &str,
) -> Result<Result<ToolDecl, Skipped>, ImportError> {
    match map.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(kind)) if kind == "function" => {}
        Some(Value::String(kind)) => {
            return Ok(Err(Skipped {
                at,
                kind: kind.clone(),
            }));
        }
        Some(_) => return Err(problem(at, "has a type that is not a string".to_string())),
    }
    let function = match map.get("function") {
        Some(Value::Object(function)) => function,
        Some(_) => {
            return Err(problem(
                at,
                "has a function that is not an object".to_string(),
            ));
        }
        None => map,
    };
    let name = name(function, at)?;
    let description = description(function, at, &name)?;
    let schema = function
        .get("parameters")
        .cloned()
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    Ok(Ok(decl(
        origin,
        name,
        description,
        schema,
        Effect::Irreversible,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

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
