//! Provider shapes (SPEC §11, `tool_defs` with `provider`): a run's tool
//! list as the bytes a provider's request carries.
//!
//! The tool list is the head of the cached prompt prefix (tools → system →
//! messages), so a runtime must send exactly these bytes on every request of
//! the run: they are canonical JSON (SPEC §10), in `tool_defs()` order, and a
//! pure function of the run, so they are the same in every process. This
//! module writes the shapes; it does not know how a request is sent.

use std::fmt;

use serde_json::{Value, json};

use crate::canonical::write_string;
use crate::run::{Run, ToolDef};

/// Whose request shape a tool list takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// Anthropic Messages: `{"description","input_schema","name"}`; the
    /// default of a session's `tool_defs` op.
    #[default]
    Anthropic,
    /// OpenAI Chat Completions:
    /// `{"function":{"description","name","parameters"},"type":"function"}`.
    OpenAiChat,
    /// OpenAI Responses: `{"description","name","parameters","type":"function"}`.
    OpenAiResponses,
    /// MCP, an entry of a `tools/list` result:
    /// `{"description","inputSchema","name"}` (since contract 3), for a gateway
    /// that serves the run's tools over MCP.
    Mcp,
}

impl Provider {
    /// Every provider, in the order the session format lists them.
    pub const ALL: [Provider; 4] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Mcp,
    ];

    /// The word a session's `tool_defs` op uses (SPEC §11).
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai_chat",
            Provider::OpenAiResponses => "openai_responses",
            Provider::Mcp => "mcp",
        }
    }

    /// The provider a session word names; any other word is `None` (a
    /// session naming one is malformed, not defaulted).
    pub fn parse(word: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.as_str() == word)
    }

    /// One resident tool's object in this provider's shape, canonical.
    pub(crate) fn object(self, def: &ToolDef) -> String {
        if self == Provider::Anthropic {
            return def.canonical().to_string();
        }
        let schema = def.schema_text();
        let mut out =
            String::with_capacity(schema.len() + def.description().len() + def.name().len() + 64);
        if self == Provider::Mcp {
            // Keys in byte order (SPEC §10): description < inputSchema < name.
            out.push_str("{\"description\":");
            write_string(&mut out, def.description());
            out.push_str(",\"inputSchema\":");
            out.push_str(schema);
            out.push_str(",\"name\":");
            write_string(&mut out, def.name());
            out.push('}');
            return out;
        }
        // Keys in byte order (SPEC §10): description < function < name <
        // parameters < type.
        if self == Provider::OpenAiChat {
            out.push_str("{\"function\":");
        }
        out.push_str("{\"description\":");
        write_string(&mut out, def.description());
        out.push_str(",\"name\":");
        write_string(&mut out, def.name());
        out.push_str(",\"parameters\":");
        out.push_str(schema);
        if self == Provider::OpenAiChat {
            out.push_str("},\"type\":\"function\"}");
        } else {
            out.push_str(",\"type\":\"function\"}");
        }
        out
    }

    /// The same object as a JSON value.
    fn value(self, def: &ToolDef) -> Value {
        let schema = def.input_schema().clone();
        match self {
            Provider::Anthropic => json!({
                "description": def.description(),
                "input_schema": schema,
                "name": def.name(),
            }),
            Provider::OpenAiChat => json!({
                "function": {
                    "description": def.description(),
                    "name": def.name(),
                    "parameters": schema,
                },
                "type": "function",
            }),
            Provider::OpenAiResponses => json!({
                "description": def.description(),
                "name": def.name(),
                "parameters": schema,
                "type": "function",
            }),
            Provider::Mcp => json!({
                "description": def.description(),
                "inputSchema": schema,
                "name": def.name(),
            }),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A run's tool list in one provider's shape: the exact bytes of the
/// request's `tools` array, and the same array parsed.
///
/// ```
/// use disclose_catalog::{Catalog, Mode, Provider};
///
/// let run = Catalog::new().start(Mode::Chat);
/// let tools = run.tools_for(Provider::OpenAiResponses);
/// assert!(tools.as_str().starts_with(r#"[{"description":"Find a capability"#));
/// assert_eq!(tools.value()[1]["name"], "call");
/// assert_eq!(serde_json::from_str::<serde_json::Value>(tools.as_str()).ok().as_ref(), Some(tools.value()));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolList {
    provider: Provider,
    objects: Vec<String>,
    text: String,
    value: Value,
}

impl ToolList {
    /// The provider whose shape this is.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The `tools` array in canonical JSON: send these bytes.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// [`ToolList::as_str`] as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The `tools` array as a JSON value, for a request built as a value.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The `tools` array as a JSON value, owned.
    pub fn into_value(self) -> Value {
        self.value
    }

    /// Each tool's object in canonical JSON, in `tool_defs()` order.
    pub fn objects(&self) -> impl ExactSizeIterator<Item = &str> {
        self.objects.iter().map(String::as_str)
    }

    /// What a session's `tool_defs` op prints for this provider (SPEC §11):
    /// each object on its own line.
    pub fn lines(&self) -> String {
        let mut out = String::with_capacity(self.text.len() + 1);
        for object in &self.objects {
            out.push_str(object);
            out.push('\n');
        }
        out
    }
}

impl Run {
    /// The request's tool list in `provider`'s shape: the resident tools in
    /// `tool_defs()` order, descriptions trimmed. Never changes during the
    /// run, whatever the mode.
    pub fn tools_for(&self, provider: Provider) -> ToolList {
        let defs = self.tool_defs();
        let objects: Vec<String> = defs.iter().map(|def| provider.object(def)).collect();
        let mut text =
            String::with_capacity(objects.iter().map(|o| o.len() + 1).sum::<usize>() + 1);
        text.push('[');
        text.push_str(&objects.join(","));
        text.push(']');
        ToolList {
            provider,
            objects,
            text,
            value: Value::Array(defs.iter().map(|def| provider.value(def)).collect()),
        }
    }

    /// What a session's `tool_defs` op prints (SPEC §11), without building
    /// the parsed value (`disclose-replay`'s transcript; not part of the
    /// embedder's API).
    #[doc(hidden)]
    pub fn tool_defs_lines(&self, provider: Provider) -> String {
        let mut out = String::new();
        for def in self.tool_defs() {
            match provider {
                Provider::Anthropic => out.push_str(def.canonical()),
                _ => out.push_str(&provider.object(def)),
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::canonical;
    use crate::{Catalog, Mode, ToolDecl};

    fn run() -> Run {
        let mut catalog = Catalog::new();
        let read = ToolDecl::new(
            "host",
            "read",
            "  Read a file. Give \"path\".\n",
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        );
        assert!(catalog.admit_tool(&read).is_ok());
        catalog.start(Mode::Chat)
    }

    #[test]
    fn each_shape_is_canonical_and_its_value_parses_to_the_same() {
        let run = run();
        for provider in Provider::ALL {
            let tools = run.tools_for(provider);
            assert_eq!(canonical(tools.value()), tools.as_str(), "{provider}");
            assert_eq!(tools.lines(), run.tool_defs_lines(provider), "{provider}");
            assert_eq!(tools.objects().len(), 3);
        }
        assert_eq!(
            run.tools_for(Provider::OpenAiChat).objects().next(),
            Some(
                r#"{"function":{"description":"Read a file. Give \"path\".","name":"read","parameters":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}},"type":"function"}"#
            )
        );
    }

    #[test]
    fn words_round_trip_and_others_are_none() {
        for provider in Provider::ALL {
            assert_eq!(Provider::parse(provider.as_str()), Some(provider));
        }
        assert_eq!(Provider::parse("openai"), None);
        assert_eq!(Provider::parse("Anthropic"), None);
        assert_eq!(Provider::default(), Provider::Anthropic);
    }
}
