//! `hello`, its reply and `bye`: the messages that open and close a
//! conversation. The harness writes `hello` and `bye` and reads the reply;
//! `serve` writes the reply. What a reply's contract list means for a run is
//! the runner's.

use serde_json::{Value, json};

use super::{PROTOCOL, object};

/// `{"cmd":"hello","protocol":1}`.
pub fn hello_message() -> String {
    json!({"cmd": "hello", "protocol": PROTOCOL}).to_string()
}

/// `{"cmd":"bye"}`.
pub fn bye_message() -> String {
    json!({"cmd": "bye"}).to_string()
}

/// Who an implementation says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Implementation {
    /// Its name (`disclose`, `disclose-ts`).
    pub name: String,
    /// Its version.
    pub version: String,
    /// The language it is written in.
    pub language: String,
    /// Where to read about it.
    pub homepage: Option<String>,
}

/// The answer to `hello`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelloReply {
    /// Who it is.
    pub implementation: Implementation,
    /// Every contract version it follows.
    pub contract: Vec<u64>,
}

impl HelloReply {
    /// The reply as one message line.
    pub fn to_line(&self) -> String {
        let mut implementation = json!({
            "name": self.implementation.name,
            "version": self.implementation.version,
            "language": self.implementation.language,
        });
        if let (Some(homepage), Some(map)) = (
            &self.implementation.homepage,
            implementation.as_object_mut(),
        ) {
            map.insert("homepage".into(), json!(homepage));
        }
        json!({"implementation": implementation, "contract": self.contract}).to_string()
    }
}

/// Reads a hello reply. Fields the schema does not know are ignored here
/// (`--validate-protocol` refuses them).
pub fn read_hello_reply(message: &Value) -> Result<HelloReply, String> {
    let map = object(message, "a hello reply")?;
    let implementation = object(
        map.get("implementation")
            .ok_or("a hello reply needs \"implementation\"")?,
        "\"implementation\"",
    )?;
    let text = |key: &str, required: bool| -> Result<Option<String>, String> {
        match implementation.get(key) {
            Some(Value::String(s)) if !s.is_empty() => Ok(Some(s.clone())),
            None if !required => Ok(None),
            _ => Err(format!(
                "\"implementation\".\"{key}\" must be a non-empty string"
            )),
        }
    };
    let implementation = Implementation {
        name: text("name", true)?.unwrap_or_default(),
        version: text("version", true)?.unwrap_or_default(),
        language: text("language", true)?.unwrap_or_default(),
        homepage: text("homepage", false)?,
    };
    let contract = map
        .get("contract")
        .and_then(Value::as_array)
        .ok_or("a hello reply needs \"contract\", a list of contract versions")?
        .iter()
        .map(|v| {
            v.as_u64()
                .ok_or_else(|| format!("\"contract\" holds {v}, not a version number"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    Ok(HelloReply {
        implementation,
        contract,
    })
}
