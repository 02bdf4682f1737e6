//! `--expect FILE`: what one implementation is known not to do yet.
//!
//! JSON Lines, one `{"case": "<suite>/<name>", "expect": "fail"|"skip",
//! "why": "…"}` per line, blank lines skipped. A file that does not read
//! this way is a usage error (exit 2) naming `path:line:column`; whether an
//! entry still matches what the implementation does is decided per case by
//! the runner (an expected failure that passes, or an entry for a case that
//! is gone, fails the run).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// What an entry expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectKind {
    /// The case runs and fails (or errs).
    Fail,
    /// The implementation answers `skipped`.
    Skip,
}

impl fmt::Display for ExpectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExpectKind::Fail => "fail",
            ExpectKind::Skip => "skip",
        })
    }
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// What is expected.
    pub expect: ExpectKind,
    /// Why, as written.
    pub why: String,
    /// Its line in the file.
    pub line: usize,
}

/// One implementation's expectations file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectations {
    /// The file, as given.
    pub file: Option<PathBuf>,
    /// By case id.
    pub entries: BTreeMap<String, Expectation>,
}

impl Expectations {
    /// The entry for `case`, if any.
    pub fn get(&self, case: &str) -> Option<&Expectation> {
        self.entries.get(case)
    }
}

/// Reads an expectations file.
pub fn load(path: &Path) -> Result<Expectations> {
    let bytes =
        std::fs::read(path).with_context(|| format!("failed to read \"{}\"", path.display()))?;
    parse(path, &bytes)
}

fn parse(path: &Path, bytes: &[u8]) -> Result<Expectations> {
    let at = |line: usize, column: usize| format!("{}:{line}:{column}", path.display());
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        anyhow::anyhow!("{}: the file is not valid UTF-8", at(line, 1))
    })?;
    let mut entries: BTreeMap<String, Expectation> = BTreeMap::new();
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let value = disclose_replay::json::parse(raw)
            .map_err(|e| anyhow::anyhow!("{}: invalid JSON: {}", at(line, e.column), e.message))?;
        let start = raw.len() - raw.trim_start().len() + 1;
        let Value::Object(map) = value else {
            bail!(
                "{}: an expectation is an object {{\"case\":…,\"expect\":\"fail\"|\"skip\",\"why\":…}}",
                at(line, start)
            );
        };
        if let Some(key) = map
            .keys()
            .find(|k| !matches!(k.as_str(), "case" | "expect" | "why"))
        {
            bail!(
                "{}: an expectation has no field \"{key}\"; its fields are case, expect and why",
                at(line, start)
            );
        }
        let text_field = |key: &str| match map.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            _ => Err(anyhow::anyhow!(
                "{}: \"{key}\" must be a non-empty string",
                at(line, start)
            )),
        };
        let case = text_field("case")?;
        let expect = match text_field("expect")?.as_str() {
            "fail" => ExpectKind::Fail,
            "skip" => ExpectKind::Skip,
            other => bail!(
                "{}: \"expect\" is \"fail\" or \"skip\", not \"{other}\"",
                at(line, start)
            ),
        };
        let why = text_field("why")?;
        if let Some(first) = entries.get(&case) {
            bail!(
                "{}: case \"{case}\" is already expected on line {}",
                at(line, start),
                first.line
            );
        }
        entries.insert(case, Expectation { expect, why, line });
    }
    Ok(Expectations {
        file: Some(path.to_path_buf()),
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Expectations> {
        parse(Path::new("x.jsonl"), text.as_bytes())
    }

    #[test]
    fn entries_are_read_by_case() {
        let found = read(concat!(
            "{\"case\":\"a/b\",\"expect\":\"fail\",\"why\":\"hints cut bytes\"}\n",
            "\n",
            "{\"case\":\"a/c\",\"expect\":\"skip\",\"why\":\"no skills yet\"}\n",
        ))
        .unwrap();
        assert_eq!(
            found.get("a/b"),
            Some(&Expectation {
                expect: ExpectKind::Fail,
                why: "hints cut bytes".into(),
                line: 1
            })
        );
        assert_eq!(
            found.get("a/c").map(|e| (e.expect, e.line)),
            Some((ExpectKind::Skip, 3))
        );
        assert_eq!(found.entries.len(), 2);
    }

    #[test]
    fn a_bad_line_is_named_with_its_place() {
        let cases = [
            (
                "{\"case\":\"a\",\"expect\":\"pass\",\"why\":\"w\"}",
                "x.jsonl:1:1: \"expect\" is \"fail\" or \"skip\", not \"pass\"",
            ),
            (
                "  {\"case\":\"a\",\"expect\":\"fail\"}",
                "x.jsonl:1:3: \"why\" must be a non-empty string",
            ),
            (
                "{\"case\":\"a\",\"expect\":\"fail\",\"why\":\"w\",\"impl\":1}",
                "x.jsonl:1:1: an expectation has no field \"impl\"; its fields are case, expect and why",
            ),
            (
                "[1]",
                "x.jsonl:1:1: an expectation is an object {\"case\":…,\"expect\":\"fail\"|\"skip\",\"why\":…}",
            ),
            (
                "{\"case\":\"a\",\"expect\":\"fail\",\"why\":\"w\"}\n{\"case\":\"a\",\"expect\":\"skip\",\"why\":\"v\"}",
                "x.jsonl:2:1: case \"a\" is already expected on line 1",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(read(text).unwrap_err().to_string(), message, "{text}");
        }
        // A key twice is malformed, at the second key.
        assert_eq!(
            read("{\"case\":\"a\",\"case\":\"b\",\"expect\":\"fail\",\"why\":\"w\"}")
                .unwrap_err()
                .to_string(),
            "x.jsonl:1:13: invalid JSON: duplicate key \"case\": a key may appear only once in an object"
        );
        let error = read("\n{\"case\":").unwrap_err().to_string();
        assert_eq!(
            error,
            "x.jsonl:2:8: invalid JSON: EOF while parsing a value"
        );
    }
}
