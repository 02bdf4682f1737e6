//! The reader: the one judge of an op line (SPEC §11), and the writer of
//! every message about one.
//!
//! A line is parsed strictly into a JSON object (`crate::json`), its op
//! found in the table (`super::ops`), its fields checked against the op's
//! row (required ones in the row's order, then the first unknown one in
//! byte order), each field's type and word checked, and the op built; any
//! failure is one [`SessionError`] at the line and the column of the field
//! at fault. This is the rule; `super::typed` is its fast path for lines
//! that are well formed, and the tests hold the two equal. It does not own
//! the session's order of ops (`super::parse`) or the table.

use std::sync::Arc;

use serde_json::{Map, Value};

use disclose::internals::fit::type_name;
use disclose::{
    Approval, CarriedSkill, Effect, Mode, Profile, Provider, ShelfSkill, ToolCall, ToolDecl,
};

use super::ops::{self, OP_NAMES, OPS, Row, Tag};
use super::{FORMAT, OpKind, SessionError};

/// One non-blank line, parsed as a JSON object.
pub(super) struct LineReader<'a> {
    raw: &'a str,
    line: usize,
    map: Map<String, Value>,
}

impl<'a> LineReader<'a> {
    pub(super) fn new(raw: &'a str, line: usize) -> Result<LineReader<'a>, SessionError> {
        let value = crate::json::parse(raw).map_err(|e| SessionError {
            line,
            column: e.column,
            message: format!("invalid JSON: {}", e.message),
        })?;
        let Value::Object(map) = value else {
            return Err(SessionError {
                line,
                column: first_column(raw),
                message: format!(
                    "an op line must be a JSON object, not {}",
                    type_name(&value)
                ),
            });
        };
        Ok(LineReader { raw, line, map })
    }

    pub(super) fn error_at_start(&self, message: String) -> SessionError {
        SessionError {
            line: self.line,
            column: first_column(self.raw),
            message,
        }
    }

    /// A header after the first line.
    fn header_elsewhere(&self) -> SessionError {
        self.error_at_key("op", "the header may only be the first line".to_string())
    }

    fn error_at_key(&self, key: &str, message: String) -> SessionError {
        SessionError {
            line: self.line,
            column: key_column(self.raw, key).unwrap_or_else(|| first_column(self.raw)),
            message,
        }
    }

    /// The row of the line's op.
    pub(super) fn op(&self) -> Result<&'static Row, SessionError> {
        match self.map.get("op") {
            None => Err(self.error_at_start("the line has no \"op\" field".to_string())),
            Some(Value::String(op)) => ops::named(op).ok_or_else(|| {
                self.error_at_key(
                    "op",
                    format!("unknown op \"{op}\"; the ops are {}", OP_NAMES.join(", ")),
                )
            }),
            Some(other) => Err(self.error_at_key(
                "op",
                format!("field \"op\" must be a string, not {}", type_name(other)),
            )),
        }
    }

    /// Checks the op's field names: every required one present, none unknown.
    fn check_fields(
        &self,
        op: &str,
        required: &[&str],
        optional: &[&str],
    ) -> Result<(), SessionError> {
        for key in required {
            if !self.map.contains_key(*key) {
                return Err(self.error_at_start(format!("op \"{op}\" is missing field \"{key}\"")));
            }
        }
        let unknown = |key: &&String| {
            *key != "op" && !required.contains(&key.as_str()) && !optional.contains(&key.as_str())
        };
        // The first unknown key in byte order is the one reported; a line
        // without one (nearly every line) is checked without sorting.
        match self.map.keys().filter(unknown).min() {
            Some(key) => Err(self.error_at_key(key, format!("op \"{op}\" has no field \"{key}\""))),
            None => Ok(()),
        }
    }

    /// A string field, checked and borrowed.
    fn str(&self, op: &str, key: &str) -> Result<&str, SessionError> {
        match self.map.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(self.mistyped(op, key, "a string", other)),
            None => Err(self.error_at_start(format!("op \"{op}\" is missing field \"{key}\""))),
        }
    }

    fn string(&self, op: &str, key: &str) -> Result<String, SessionError> {
        self.str(op, key).map(str::to_string)
    }

    fn optional_str(&self, op: &str, key: &str) -> Result<Option<&str>, SessionError> {
        match self.map.get(key) {
            None => Ok(None),
            Some(_) => self.str(op, key).map(Some),
        }
    }

    fn optional_string(&self, op: &str, key: &str) -> Result<Option<String>, SessionError> {
        Ok(self.optional_str(op, key)?.map(str::to_string))
    }

    fn mode(&self, op: &str) -> Result<Mode, SessionError> {
        let text = self.string(op, "mode")?;
        Mode::parse(&text).ok_or_else(|| {
            self.error_at_key(
                "mode",
                format!(
                    "field \"mode\" of op \"{op}\" must be \"chat\" or \"work\", not \"{text}\""
                ),
            )
        })
    }

    fn mistyped(&self, op: &str, key: &str, expected: &str, found: &Value) -> SessionError {
        self.error_at_key(
            key,
            format!(
                "field \"{key}\" of op \"{op}\" must be {expected}, not {}",
                type_name(found)
            ),
        )
    }

    /// The header's `about`, once its fields are checked.
    pub(super) fn header(self) -> Result<String, SessionError> {
        let header = &OPS[0];
        self.check_fields(header.name, header.required, header.optional)?;
        let format = &self.map["format"];
        if format.as_u64() != Some(FORMAT) {
            return Err(self.error_at_key(
                "format",
                format!(
                    "session format {} is not supported; this harness reads format {FORMAT}",
                    disclose::internals::canonical::canonical(format)
                ),
            ));
        }
        self.string("session", "about")
    }

    /// The op of a line after the header, once every field of its row is
    /// checked.
    pub(super) fn op_kind(self, row: &Row) -> Result<OpKind, SessionError> {
        let op = row.name;
        // The header's row is checked first: its fields are not an op's.
        if row.tag == Tag::Session {
            return Err(self.header_elsewhere());
        }
        self.check_fields(op, row.required, row.optional)?;
        let kind = match row.tag {
            Tag::Session => return Err(self.header_elsewhere()),
            Tag::Tool => {
                let admitted = match self.map.get("admitted") {
                    None => true,
                    Some(Value::Bool(b)) => *b,
                    Some(other) => {
                        return Err(self.mistyped(op, "admitted", "true or false", other));
                    }
                };
                // Checked here, in the reader's order; the strings and the
                // schema are moved in once every field is checked, not copied.
                self.str(op, "origin")?;
                self.str(op, "name")?;
                self.str(op, "description")?;
                OpKind::Tool {
                    decl: ToolDecl {
                        origin: String::new(),
                        name: String::new(),
                        description: String::new(),
                        input_schema: Arc::new(Value::Null),
                        effect: Effect::from_declared(self.optional_str(op, "effect")?),
                        approval: Approval::from_declared(self.optional_str(op, "approval")?),
                    },
                    admitted,
                }
            }
            Tag::Skill => OpKind::Skill(ShelfSkill {
                name: self.string(op, "name")?,
                disclosure: self.string(op, "disclosure")?,
                address: self.string(op, "address")?,
                hash: self.optional_string(op, "hash")?,
                package: self.optional_string(op, "package")?,
            }),
            Tag::CarriedSkill => OpKind::CarriedSkill(CarriedSkill {
                name: self.string(op, "name")?,
                disclosure: self.string(op, "disclosure")?,
                body: self.string(op, "body")?,
                hash: self.optional_string(op, "hash")?,
                package: self.optional_string(op, "package")?,
            }),
            Tag::Dev => OpKind::Dev {
                text: self.string(op, "text")?,
            },
            Tag::Start => {
                let profile = match self.optional_string(op, "profile")? {
                    None => None,
                    Some(text) => Some(Profile::parse(&text).ok_or_else(|| {
                        self.error_at_key(
                            "profile",
                            format!("field \"profile\" of op \"start\" must be \"scout\" or \"writer\", not \"{text}\""),
                        )
                    })?),
                };
                OpKind::Start {
                    mode: self.mode(op)?,
                    profile,
                }
            }
            Tag::Describe | Tag::Expand => {
                // Moved in once every field is checked.
                self.str(op, "name")?;
                let name = String::new();
                if row.tag == Tag::Describe {
                    OpKind::Describe { name }
                } else {
                    OpKind::Expand { name }
                }
            }
            Tag::Call => {
                self.str(op, "id")?;
                self.str(op, "name")?;
                // Moved in once every field is checked.
                OpKind::Call(ToolCall {
                    id: String::new(),
                    name: String::new(),
                    args: Value::Null,
                })
            }
            Tag::ToolDefs => {
                let provider = match self.optional_string(op, "provider")? {
                    None => Provider::default(),
                    Some(text) => Provider::parse(&text).ok_or_else(|| {
                        self.error_at_key(
                            "provider",
                            format!(
                                "field \"provider\" of op \"tool_defs\" must be \"anthropic\", \"openai_chat\", \"openai_responses\" or \"mcp\", not \"{text}\""
                            ),
                        )
                    })?,
                };
                OpKind::ToolDefs { provider }
            }
            Tag::SwitchMode => OpKind::SwitchMode {
                mode: self.mode(op)?,
            },
            Tag::Render => OpKind::Render,
            Tag::Pins => OpKind::Pins,
            Tag::Digests => OpKind::Digests,
        };
        let mut kind = kind;
        let mut map = self.map;
        // The fields of the frequent ops are moved out of the checked line
        // instead of copied (the reader checked that they are strings).
        let mut take = |key: &str| match map.remove(key) {
            Some(Value::String(text)) => text,
            _ => String::new(),
        };
        match &mut kind {
            OpKind::Tool { decl, .. } => {
                decl.origin = take("origin");
                decl.name = take("name");
                decl.description = take("description");
                decl.input_schema = Arc::new(map.remove("input_schema").unwrap_or_default());
            }
            OpKind::Call(call) => {
                call.id = take("id");
                call.name = take("name");
                call.args = map.remove("args").unwrap_or_default();
            }
            OpKind::Describe { name } | OpKind::Expand { name } => *name = take("name"),
            _ => {}
        }
        Ok(kind)
    }
}

/// The column of the first non-blank byte.
pub(super) fn first_column(raw: &str) -> usize {
    raw.find(|c: char| !matches!(c, ' ' | '\t' | '\r'))
        .unwrap_or(0)
        + 1
}

/// The column of a top-level key of the object on `raw` (the line is valid
/// JSON: strings and nesting can be tracked by bytes).
fn key_column(raw: &str, key: &str) -> Option<usize> {
    let bytes = raw.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    let mut expect_key = false;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => {
                depth += 1;
                expect_key = depth == 1 && bytes[i] == b'{';
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect_key = true,
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if expect_key && depth == 1 {
                    let literal = raw.get(start..=i.min(bytes.len() - 1))?;
                    if serde_json::from_str::<String>(literal).ok().as_deref() == Some(key) {
                        return Some(start + 1);
                    }
                    expect_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
