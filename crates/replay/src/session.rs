//! The recorded-session format (SPEC §11): JSON Lines in, typed ops out.
//!
//! Parsing never panics and never half-succeeds: a session is either every op
//! typed and in a legal order, or one [`SessionError`] with the line, column
//! and a plain message. The typed reader here is the one judge of a line
//! and writes the messages; `corpora/session.schema.json`, shipped for other
//! implementations, says the same, which the tests check line shape by line
//! shape and line by line of the corpus (`tests::the_shipped_schema_agrees_*`),
//! so the replay does not validate each line a second time. This module
//! reads bytes, not files.

use std::collections::LinkedList;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use disclose::Provider;
use disclose::ToolCall;
use disclose::internals::fit::type_name;
use disclose::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
use disclose::{Mode, Profile};

mod typed;

/// The JSON Schema for one op line, as shipped in `corpora/`.
pub const SESSION_SCHEMA: &str = include_str!("../../../corpora/session.schema.json");

pub use disclose::internals::record::{FORMAT, OpKind};

/// A parsed, well-formed session.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    about: String,
    ops: Vec<Op>,
}

impl Session {
    /// Why the session exists (the header's `about`).
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The ops after the header, in file order. Only [`parse`] builds a
    /// session, so queries always follow the one `start`.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }
}

/// One op and the 1-based line it stands on.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    /// The op's line in the session file.
    pub line: usize,
    /// What it does.
    pub kind: OpKind,
}

/// Whether the op needs a started run.
fn is_query(kind: &OpKind) -> bool {
    !matches!(
        kind,
        OpKind::Tool { .. }
            | OpKind::Skill(_)
            | OpKind::CarriedSkill(_)
            | OpKind::Dev { .. }
            | OpKind::Start { .. }
    )
}

/// Every op name, header first.
pub const OP_NAMES: [&str; 14] = [
    "session",
    "tool",
    "skill",
    "carried_skill",
    "dev",
    "start",
    "render",
    "tool_defs",
    "describe",
    "call",
    "switch_mode",
    "expand",
    "pins",
    "digests",
];

/// The fields each op after the header takes besides `op` (SPEC §11, and
/// `corpora/session.schema.json`): `(op, required, optional)`, the required
/// ones in the order a missing one is reported. The one list both the
/// reader and its fast path (`typed`) read.
const OP_FIELDS: [(&str, &[&str], &[&str]); 13] = [
    (
        "tool",
        &["origin", "name", "description", "input_schema"],
        &["effect", "approval", "admitted"],
    ),
    (
        "skill",
        &["name", "disclosure", "address"],
        &["hash", "package"],
    ),
    (
        "carried_skill",
        &["name", "disclosure", "body"],
        &["hash", "package"],
    ),
    ("dev", &["text"], &[]),
    ("start", &["mode"], &["profile"]),
    ("render", &[], &[]),
    ("tool_defs", &[], &["provider"]),
    ("describe", &["name"], &[]),
    ("call", &["id", "name", "args"], &[]),
    ("switch_mode", &["mode"], &[]),
    ("expand", &["name"], &[]),
    ("pins", &[], &[]),
    ("digests", &[], &[]),
];

/// Why a session is malformed, and where (1-based line and byte column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionError {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column.
    pub column: usize,
    /// A plain message.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SessionError {}

/// Parses a whole session from its bytes.
pub fn parse(bytes: &[u8]) -> Result<Session, SessionError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |p| p + 1);
        SessionError {
            line,
            column: e.valid_up_to() - line_start + 1,
            message: "the file is not valid UTF-8".to_string(),
        }
    })?;

    let mut about = None;
    // The ops are gathered in small nodes and moved into one vector of the
    // exact size at the end. A session's vector is tens of kilobytes, and
    // asking for it up front, right after the previous session freed
    // thousands of small nodes, makes glibc's malloc consolidate all of them
    // (~0.15 M instructions a session, with cache misses); asked for after
    // the parse, whose own small allocations reuse those nodes, it costs a
    // copy of the ops (docs/decisions.md).
    let mut ops = LinkedList::new();
    let mut started_at: Option<usize> = None;
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        // Blank is whitespace only, as SPEC §0.1 counts whitespace (a
        // no-break space too); JSON's own four are all a token may follow.
        if raw.trim().is_empty() {
            continue;
        }
        let fast = match about {
            Some(_) => typed::op_kind(raw),
            None => None,
        };
        let kind = match fast {
            Some(kind) => kind,
            None => {
                let reader = LineReader::new(raw, line)?;
                let op_name = reader.op()?;
                if about.is_none() {
                    if op_name != "session" {
                        return Err(reader.error_at_start(format!(
                            "the first line must be the header {{\"op\":\"session\",\"format\":1,\"about\":\"…\"}}, not op \"{op_name}\""
                        )));
                    }
                    about = Some(reader.header()?);
                    continue;
                }
                reader.op_kind(op_name)?
            }
        };
        let at_start = |message| SessionError {
            line,
            column: first_column(raw),
            message,
        };
        if is_query(&kind) && started_at.is_none() {
            return Err(at_start(format!(
                "op \"{}\" needs a started run; put {{\"op\":\"start\",\"mode\":\"chat\"}} before it",
                kind.name()
            )));
        }
        match (&kind, started_at) {
            (OpKind::Start { .. }, Some(first)) => {
                return Err(at_start(format!(
                    "the run already started on line {first}; a session has one start"
                )));
            }
            (OpKind::Dev { .. }, Some(first)) => {
                return Err(at_start(format!(
                    "op \"dev\" must come before the run starts (line {first})"
                )));
            }
            (OpKind::Start { .. }, None) => started_at = Some(line),
            _ => {}
        }
        ops.push_back(Op { line, kind });
    }
    match about {
        Some(about) => Ok(Session {
            about,
            ops: ops.into_iter().collect(),
        }),
        None => Err(SessionError {
            line: 1,
            column: 1,
            message: "the session is empty; its first line must be the header {\"op\":\"session\",\"format\":1,\"about\":\"…\"}".to_string(),
        }),
    }
}

/// One non-blank line, parsed as a JSON object.
struct LineReader<'a> {
    raw: &'a str,
    line: usize,
    map: Map<String, Value>,
}

impl<'a> LineReader<'a> {
    fn new(raw: &'a str, line: usize) -> Result<LineReader<'a>, SessionError> {
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

    fn error_at_start(&self, message: String) -> SessionError {
        SessionError {
            line: self.line,
            column: first_column(self.raw),
            message,
        }
    }

    fn error_at_key(&self, key: &str, message: String) -> SessionError {
        SessionError {
            line: self.line,
            column: key_column(self.raw, key).unwrap_or_else(|| first_column(self.raw)),
            message,
        }
    }

    fn op(&self) -> Result<&'static str, SessionError> {
        match self.map.get("op") {
            None => Err(self.error_at_start("the line has no \"op\" field".to_string())),
            Some(Value::String(op)) => {
                OP_NAMES.iter().copied().find(|n| n == op).ok_or_else(|| {
                    self.error_at_key(
                        "op",
                        format!("unknown op \"{op}\"; the ops are {}", OP_NAMES.join(", ")),
                    )
                })
            }
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

    fn header(self) -> Result<String, SessionError> {
        self.check_fields("session", &["format", "about"], &[])?;
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

    fn op_kind(self, op: &'static str) -> Result<OpKind, SessionError> {
        let Some(&(_, required, optional)) = OP_FIELDS.iter().find(|(name, ..)| *name == op) else {
            // Only the header is an op without a row.
            return Err(
                self.error_at_key("op", "the header may only be the first line".to_string())
            );
        };
        self.check_fields(op, required, optional)?;
        let kind = match op {
            "tool" => {
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
            "skill" => OpKind::Skill(ShelfSkill {
                name: self.string(op, "name")?,
                disclosure: self.string(op, "disclosure")?,
                address: self.string(op, "address")?,
                hash: self.optional_string(op, "hash")?,
                package: self.optional_string(op, "package")?,
            }),
            "carried_skill" => OpKind::CarriedSkill(CarriedSkill {
                name: self.string(op, "name")?,
                disclosure: self.string(op, "disclosure")?,
                body: self.string(op, "body")?,
                hash: self.optional_string(op, "hash")?,
                package: self.optional_string(op, "package")?,
            }),
            "dev" => OpKind::Dev {
                text: self.string(op, "text")?,
            },
            "start" => {
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
            "describe" | "expand" => {
                // Moved in once every field is checked.
                self.str(op, "name")?;
                let name = String::new();
                if op == "describe" {
                    OpKind::Describe { name }
                } else {
                    OpKind::Expand { name }
                }
            }
            "call" => {
                self.str(op, "id")?;
                self.str(op, "name")?;
                // Moved in once every field is checked.
                OpKind::Call(ToolCall {
                    id: String::new(),
                    name: String::new(),
                    args: Value::Null,
                })
            }
            "tool_defs" => {
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
            "switch_mode" => OpKind::SwitchMode {
                mode: self.mode(op)?,
            },
            "render" => OpKind::Render,
            "pins" => OpKind::Pins,
            _ => OpKind::Digests,
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
fn first_column(raw: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;

    /// The shipped session schema, compiled once per test process.
    fn shipped_schema() -> &'static jsonschema::Validator {
        static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
        SCHEMA.get_or_init(|| {
            let root: Value = serde_json::from_str(SESSION_SCHEMA).expect("the schema is JSON");
            jsonschema::draft202012::new(&root).expect("the shipped schema compiles")
        })
    }

    fn error(text: &str) -> String {
        match parse(text.as_bytes()) {
            Ok(_) => "ok".to_string(),
            Err(e) => e.to_string(),
        }
    }

    const HEAD: &str = "{\"op\":\"session\",\"format\":1,\"about\":\"t\"}\n";

    /// Whether the typed reader accepts `raw` as a line after the header.
    fn reader_accepts(raw: &str) -> bool {
        let Ok(reader) = LineReader::new(raw, 2) else {
            return false;
        };
        match reader.op() {
            Ok("session") => reader.header().is_ok(),
            Ok(op) => reader.op_kind(op).is_ok(),
            Err(_) => false,
        }
    }

    /// The typed reader's op for `raw` as a line after the header.
    fn reader_kind(raw: &str) -> Option<OpKind> {
        let reader = LineReader::new(raw, 2).ok()?;
        let op = reader.op().ok()?;
        reader.op_kind(op).ok()
    }

    /// Wherever the fast path answers, the reader gives the same op; counts
    /// the lines the fast path answered.
    fn fast_path_agrees(lines: &[String]) -> usize {
        let mut answered = 0;
        for line in lines {
            if let Some(fast) = typed::op_kind(line) {
                assert_eq!(
                    Some(fast),
                    reader_kind(line),
                    "the fast path misreads {line}"
                );
                answered += 1;
            }
        }
        answered
    }

    fn schema_accepts(raw: &str) -> bool {
        serde_json::from_str::<Value>(raw).is_ok_and(|line| shipped_schema().is_valid(&line))
    }

    /// The replay trusts the typed reader alone, so the shipped schema must
    /// say what it says. Every op's full line, then that line without each
    /// field, with each field set to each sample value, and with an unknown
    /// field: the two verdicts must be equal, but for the one place the
    /// reader is stricter (`format` written as `1.0`, which JSON Schema's
    /// `const: 1` equates with `1`; the reader wants the integer).
    #[test]
    fn the_shipped_schema_agrees_with_the_reader_on_every_line_shape() {
        let full = [
            r#"{"op":"session","format":1,"about":"t"}"#,
            r#"{"op":"tool","origin":"host","name":"t","description":"d","input_schema":{},"effect":"read","approval":"never","admitted":true}"#,
            r#"{"op":"skill","name":"s","disclosure":"d","address":"a","hash":"h","package":"p"}"#,
            r#"{"op":"carried_skill","name":"s","disclosure":"d","body":"b","hash":"h","package":"p"}"#,
            r#"{"op":"dev","text":"x"}"#,
            r#"{"op":"start","mode":"chat","profile":"scout"}"#,
            r#"{"op":"render"}"#,
            r#"{"op":"tool_defs","provider":"openai_chat"}"#,
            r#"{"op":"describe","name":"x"}"#,
            r#"{"op":"call","id":"c","name":"x","args":{}}"#,
            r#"{"op":"switch_mode","mode":"work"}"#,
            r#"{"op":"expand","name":"x"}"#,
            r#"{"op":"pins"}"#,
            r#"{"op":"digests"}"#,
        ];
        assert_eq!(full.len(), OP_NAMES.len());
        let samples = [
            "null",
            "true",
            "false",
            "0",
            "1",
            "1.0",
            "-1",
            "1.5",
            "\"\"",
            "\"x\"",
            "\"chat\"",
            "\"work\"",
            "\"scout\"",
            "\"writer\"",
            "\"anthropic\"",
            "\"openai_chat\"",
            "\"openai_responses\"",
            "\"mcp\"",
            "\"gemini\"",
            "\"render\"",
            "\"nope\"",
            "[]",
            "[\"x\"]",
            "{}",
            "{\"type\":\"object\"}",
        ];
        // Every field of every op, with its value in that op's full line.
        let mut every_field = Map::new();
        for line in full {
            if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) {
                every_field.extend(map);
            }
        }
        let mut lines = Vec::new();
        for line in full {
            let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) else {
                panic!("{line} is an object");
            };
            lines.push(line.to_string());
            // An unknown field, and each other op's fields.
            let foreign = every_field
                .iter()
                .filter(|(key, _)| !map.contains_key(*key));
            for (key, value) in [("extra", &Value::Bool(true))]
                .into_iter()
                .chain(foreign.map(|(k, v)| (k.as_str(), v)))
            {
                let mut extra = map.clone();
                extra.insert(key.to_string(), value.clone());
                lines.push(Value::Object(extra).to_string());
            }
            for key in map.keys() {
                let mut without = map.clone();
                without.remove(key);
                lines.push(Value::Object(without).to_string());
                for sample in samples {
                    let mut with = map.clone();
                    with.insert(key.clone(), serde_json::from_str(sample).expect("a sample"));
                    lines.push(Value::Object(with).to_string());
                }
            }
        }
        // Escaped words (the shapes above are written unescaped).
        lines.extend(
            [
                r#"{"op":"rend\u0065r"}"#,
                r#"{"op":"start","mode":"\u0063hat","profile":"scou\u0074"}"#,
                r#"{"op":"tool_defs","provider":"openai\u005fchat"}"#,
                r#"{"op":"tool","origin":"host","name":"t","description":"d","input_schema":{},"effect":"re\u0061d"}"#,
            ]
            .map(String::from),
        );
        let (mut accepted, mut rejected) = (0, 0);
        for line in &lines {
            let reader = reader_accepts(line);
            let stricter = line.contains(r#""format":1.0"#);
            assert_eq!(
                schema_accepts(line),
                reader || stricter,
                "the shipped schema and the reader disagree on {line}"
            );
            if reader { accepted += 1 } else { rejected += 1 }
        }
        // Both verdicts are exercised, many times over.
        assert!(
            accepted > 60 && rejected > 300,
            "{accepted} accepted, {rejected} rejected"
        );
        // The fast path answers for every accepted line but the header's.
        let header_shapes = lines.iter().filter(|l| l.contains(r#""op":"session""#));
        let accepted_headers = header_shapes.filter(|l| reader_accepts(l)).count();
        assert_eq!(fast_path_agrees(&lines), accepted - accepted_headers);
    }

    /// Every line of every shipped session gets the same verdict from both.
    #[test]
    fn the_shipped_schema_agrees_with_the_reader_on_every_corpus_line() {
        fn sessions(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
            let entries = std::fs::read_dir(dir).expect("corpora/ is readable");
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    sessions(&path, found);
                } else if path.extension().is_some_and(|e| e == "jsonl") {
                    found.push(path);
                }
            }
        }
        let mut found = Vec::new();
        sessions(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora"),
            &mut found,
        );
        let mut lines = Vec::new();
        for path in &found {
            let text = std::fs::read_to_string(path).expect("a corpus file is UTF-8");
            for raw in text.lines().filter(|l| !l.trim().is_empty()) {
                assert_eq!(
                    reader_accepts(raw),
                    schema_accepts(raw),
                    "{}: {raw}",
                    path.display()
                );
                lines.push(raw.to_string());
            }
        }
        assert!(
            found.len() > 100 && lines.len() > 1000,
            "{} files, {} lines",
            found.len(),
            lines.len()
        );
        // Each session's header and its malformed lines are the reader's.
        let answered = fast_path_agrees(&lines);
        assert!(
            answered + 2 * found.len() > lines.len(),
            "{answered} of {} lines",
            lines.len()
        );
    }

    #[test]
    fn tool_defs_provider_is_one_of_three_words() {
        let started = format!("{HEAD}{{\"op\":\"start\",\"mode\":\"chat\"}}\n");
        let provider_of = |line: &str| {
            parse(format!("{started}{line}").as_bytes()).map(|s| match &s.ops()[1].kind {
                OpKind::ToolDefs { provider } => Some(*provider),
                _ => None,
            })
        };
        assert_eq!(
            provider_of("{\"op\":\"tool_defs\"}"),
            Ok(Some(Provider::Anthropic))
        );
        for provider in Provider::ALL {
            let line = format!("{{\"op\":\"tool_defs\",\"provider\":\"{provider}\"}}");
            assert_eq!(provider_of(&line), Ok(Some(provider)));
        }
        assert_eq!(
            error(&format!(
                "{started}{{\"op\":\"tool_defs\",\"provider\":\"openai\"}}"
            )),
            "3:19: field \"provider\" of op \"tool_defs\" must be \"anthropic\", \"openai_chat\", \"openai_responses\" or \"mcp\", not \"openai\""
        );
        // The shipped schema says the same as the typed reader.
        for provider in Provider::ALL {
            let line = serde_json::json!({"op": "tool_defs", "provider": provider.as_str()});
            assert!(shipped_schema().is_valid(&line), "{provider}");
        }
        let misspelled = serde_json::json!({"op": "tool_defs", "provider": "openai"});
        assert!(!shipped_schema().is_valid(&misspelled));
        assert_eq!(
            error(&format!(
                "{started}{{\"op\":\"tool_defs\", \"provider\":null}}"
            )),
            "3:20: field \"provider\" of op \"tool_defs\" must be a string, not null"
        );
    }

    #[test]
    fn effect_and_approval_words_fail_closed() {
        let line = |extra: &str| {
            format!(
                "{HEAD}{{\"op\":\"tool\",\"origin\":\"a\",\"name\":\"t\",\"description\":\"d\",\"input_schema\":{{}}{extra}}}"
            )
        };
        let declared =
            |extra: &str| match parse(line(extra).as_bytes()).map(|s| s.ops()[0].kind.clone()) {
                Ok(OpKind::Tool { decl, .. }) => Some((decl.effect, decl.approval)),
                _ => None,
            };
        assert_eq!(
            declared(""),
            Some((Effect::Irreversible, Approval::Required))
        );
        assert_eq!(
            declared(",\"effect\":\"Read\",\"approval\":\"Never\""),
            Some((Effect::Irreversible, Approval::Required))
        );
        assert_eq!(
            declared(",\"effect\":\"idempotent-write\",\"approval\":\"never\""),
            Some((Effect::IdempotentWrite, Approval::Never))
        );
    }

    /// A key twice anywhere in a line makes it malformed, at the second
    /// key: at the top, inside `args` or `input_schema`, on the fast path's
    /// lines and the reader's alike.
    #[test]
    fn a_repeated_key_is_malformed_at_the_second_key() {
        let started = format!("{HEAD}{{\"op\":\"start\",\"mode\":\"chat\"}}\n");
        let dup = "duplicate key \"name\": a key may appear only once in an object";
        assert_eq!(
            error(&format!(
                "{started}{{\"op\":\"describe\",\"name\":\"a\",\"name\":\"b\"}}"
            )),
            format!("3:29: invalid JSON: {dup}")
        );
        assert_eq!(
            error(&format!(
                "{started}{{\"op\":\"call\",\"id\":\"c\",\"name\":\"x\",\"args\":{{\"q\":{{\"name\":1, \"name\":2}}}}}}"
            )),
            format!("3:57: invalid JSON: {dup}")
        );
        assert_eq!(
            error(&format!(
                "{HEAD}{{\"op\":\"tool\",\"origin\":\"a\",\"name\":\"t\",\"description\":\"d\",\"input_schema\":{{\"properties\":{{\"name\":{{}},\"name\":{{}}}}}}}}"
            )),
            format!("2:96: invalid JSON: {dup}")
        );
        assert_eq!(
            error("{\"op\":\"session\",\"format\":1,\"about\":\"a\",\"about\":\"b\"}"),
            "1:40: invalid JSON: duplicate key \"about\": a key may appear only once in an object"
        );
    }

    /// SPEC §11.1 skips blank lines, and §0.1's whitespace is Unicode's:
    /// a line of no-break spaces is blank. A byte order mark is not
    /// whitespace, and is named.
    #[test]
    fn unicode_blank_lines_are_skipped_and_a_byte_order_mark_is_named() {
        let text =
            format!("{HEAD}\u{a0}\n \u{3000}\u{2028} \r\n{{\"op\":\"start\",\"mode\":\"chat\"}}\n");
        let session = parse(text.as_bytes()).expect("blank lines are skipped");
        assert_eq!(session.ops()[0].line, 4);
        assert_eq!(
            error(&format!("\u{feff}{HEAD}")),
            "1:1: invalid JSON: a UTF-8 byte order mark (U+FEFF) is not JSON; save the text without it"
        );
        assert_eq!(
            error(&format!(
                "{HEAD}\u{a0}{{\"op\":\"start\",\"mode\":\"chat\"}}"
            )),
            "2:1: invalid JSON: U+00A0 is whitespace, but not JSON whitespace: between tokens JSON allows only space, tab, line feed and carriage return"
        );
    }

    /// Arrays and objects nest at most `json::MAX_DEPTH` deep, and the
    /// error says it is our limit.
    #[test]
    fn nesting_past_the_limit_says_it_is_ours() {
        let schema = |depth: usize| {
            format!(
                "{HEAD}{{\"op\":\"tool\",\"origin\":\"a\",\"name\":\"t\",\"description\":\"d\",\"input_schema\":{}{}}}",
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            )
        };
        // The line itself is one level; the bracket past the limit is
        // named (column 71 opens the schema).
        assert_eq!(error(&schema(crate::json::MAX_DEPTH)), "ok");
        assert_eq!(
            error(&schema(crate::json::MAX_DEPTH + 1)),
            "2:197: invalid JSON: arrays and objects nested more than 127 deep; disclose reads JSON at most 127 levels deep"
        );
    }

    #[test]
    fn well_formed_session_parses() {
        let text =
            format!("{HEAD}\n{{\"op\":\"start\",\"mode\":\"chat\"}}\n{{\"op\":\"render\"}}\n");
        let session = parse(text.as_bytes()).expect("well formed");
        assert_eq!(session.about(), "t");
        assert_eq!(
            session
                .ops()
                .iter()
                .map(|o| (o.line, o.kind.name()))
                .collect::<Vec<_>>(),
            [(3, "start"), (4, "render")]
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            error(""),
            "1:1: the session is empty; its first line must be the header {\"op\":\"session\",\"format\":1,\"about\":\"…\"}"
        );
        assert_eq!(
            error(&format!("{HEAD}{{\"op\":\"render\"}}")),
            "2:1: op \"render\" needs a started run; put {\"op\":\"start\",\"mode\":\"chat\"} before it"
        );
        assert_eq!(
            error(&format!("{HEAD}{{\"op\":\"nope\"}}")),
            "2:2: unknown op \"nope\"; the ops are session, tool, skill, carried_skill, dev, start, render, tool_defs, describe, call, switch_mode, expand, pins, digests"
        );
        assert_eq!(
            error(&format!("{HEAD}{{\"op\":\"describe\"}}")),
            "2:1: op \"describe\" is missing field \"name\""
        );
        assert_eq!(
            error(&format!(
                "{HEAD}{{\"op\":\"start\",\"mode\":\"chat\"}}\n{{\"op\":\"describe\", \"name\":3}}"
            )),
            "3:19: field \"name\" of op \"describe\" must be a string, not integer"
        );
        assert_eq!(
            error(&format!("{HEAD}{{\"op\":\"start\",")),
            "2:14: invalid JSON: EOF while parsing a value"
        );
        assert_eq!(
            error("{\"op\":\"start\",\"mode\":\"chat\"}"),
            "1:1: the first line must be the header {\"op\":\"session\",\"format\":1,\"about\":\"…\"}, not op \"start\""
        );
        let twice = format!(
            "{HEAD}{{\"op\":\"start\",\"mode\":\"chat\"}}\n{{\"op\":\"start\",\"mode\":\"work\"}}"
        );
        assert_eq!(
            error(&twice),
            "3:1: the run already started on line 2; a session has one start"
        );
        let mut bad = HEAD.as_bytes().to_vec();
        bad.extend_from_slice(b"{\"op\":\"dev\",\"text\":\"a\xffb\"}");
        assert_eq!(
            parse(&bad).map_err(|e| e.to_string()),
            Err("2:22: the file is not valid UTF-8".to_string())
        );
        assert_eq!(
            error(&format!(
                "{HEAD}{{\"op\":\"dev\",\"text\":\"x\",\"extra\":1}}"
            )),
            "2:24: op \"dev\" has no field \"extra\""
        );
    }
}
