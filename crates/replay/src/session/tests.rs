//! The session reader's tests: the rule (`reader`) and its fast path
//! (`typed`) read every line shape the op table makes, and every corpus
//! line, the same; the shipped schema says what the reader says; and the
//! messages, line by line and column by column.

use std::sync::OnceLock;

use disclose::{Approval, Effect, Provider};
use serde_json::{Map, Value};

use super::ops::{OPS, When};
use super::reader::LineReader;
use super::*;

/// The shipped session schema (`corpora/session.schema.json`, read from
/// the workspace: the crate compiles nothing from outside its own folder),
/// compiled once per test process.
fn shipped_schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpora/session.schema.json"
        );
        let text = std::fs::read_to_string(path).expect("corpora/session.schema.json");
        let root: Value = serde_json::from_str(&text).expect("the schema is JSON");
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

/// Whether the reader accepts `raw` (the header as a first line, any
/// other op as a later one).
fn reader_accepts(raw: &str) -> bool {
    let Ok(reader) = LineReader::new(raw, 2) else {
        return false;
    };
    match reader.op() {
        Ok(row) if row.when == When::Header => reader.header().is_ok(),
        Ok(row) => reader.op_kind(row).is_ok(),
        Err(_) => false,
    }
}

/// The reader's op for `raw` as a line after the header, and where the
/// table lets it stand.
fn reader_kind(raw: &str) -> Option<(When, OpKind)> {
    let reader = LineReader::new(raw, 2).ok()?;
    let row = reader.op().ok()?;
    let when = row.when;
    reader.op_kind(row).ok().map(|kind| (when, kind))
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

/// A value each field takes in a well-formed line of its op.
fn sample(field: &str) -> Value {
    let text = match field {
        "format" => "1",
        "admitted" => "true",
        "input_schema" | "args" => "{}",
        "origin" => "\"host\"",
        "effect" => "\"read\"",
        "approval" => "\"never\"",
        "mode" => "\"chat\"",
        "profile" => "\"scout\"",
        "provider" => "\"openai_chat\"",
        _ => "\"x\"",
    };
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// Each op's line with every field of its row, from the op table.
fn full_lines() -> Vec<String> {
    (OPS.iter())
        .map(|row| {
            let mut map = Map::new();
            map.insert("op".to_string(), Value::from(row.name));
            for field in row.required.iter().chain(row.optional) {
                map.insert(field.to_string(), sample(field));
            }
            Value::Object(map).to_string()
        })
        .collect()
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
    let full = full_lines();
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
    for line in &full {
        if let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) {
            every_field.extend(map);
        }
    }
    let mut lines = Vec::new();
    for line in &full {
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
    let text = format!("{HEAD}\n{{\"op\":\"start\",\"mode\":\"chat\"}}\n{{\"op\":\"render\"}}\n");
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
