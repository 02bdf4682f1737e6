//! `run` and its three answers (`outputs`, `skipped`, `errored`): the
//! harness writes `run` and reads an answer; `serve` writes the answer. Both
//! lines are written by hand, never as a `Value` first. Whether an answer
//! passes its case is the runner's to judge.

use serde_json::Value;

use super::{MessageKind, object, push_string};

/// `{"cmd":"run","case":…,"ops":[…]}`, each op given as the JSON text of
/// one object (a session line, which already is one).
pub fn run_message(case: &str, ops: &[&str]) -> String {
    let mut out =
        String::with_capacity(32 + case.len() + ops.iter().map(|o| o.len() + 1).sum::<usize>());
    out.push_str(r#"{"cmd":"run","case":"#);
    push_string(&mut out, case);
    out.push_str(r#","ops":["#);
    for (i, op) in ops.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(op);
    }
    out.push_str("]}");
    out
}

/// What an implementation answered to `run`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseAnswer {
    /// One output per op.
    Outputs(Vec<String>),
    /// Not run, and why.
    Skipped(String),
    /// Could not be run, and why.
    Errored(String),
}

impl CaseAnswer {
    /// The schema an answer of this kind must match.
    #[cfg(test)]
    pub fn kind(&self) -> MessageKind {
        match self {
            CaseAnswer::Outputs(_) => MessageKind::Outputs,
            CaseAnswer::Skipped(_) => MessageKind::Skipped,
            CaseAnswer::Errored(_) => MessageKind::Errored,
        }
    }

    /// The answer for `case` as one message line (the tests read it).
    #[cfg(test)]
    pub fn to_line(&self, case: &str) -> String {
        let mut out = String::new();
        self.write_line(case, &mut out);
        out
    }

    /// The answer for `case` as one message line, appended to `out` (a
    /// server reuses one buffer for every answer).
    ///
    /// Written straight out, not built as a `Value` first (a copy of every
    /// output): the bytes are those of `json!({"case": …, <key>: …})`,
    /// keys in that order, each string escaped by serde_json.
    pub fn write_line(&self, case: &str, out: &mut String) {
        out.reserve(
            24 + case.len()
                + match self {
                    CaseAnswer::Outputs(outputs) => outputs.iter().map(|o| o.len() + 3).sum(),
                    CaseAnswer::Skipped(why) | CaseAnswer::Errored(why) => why.len(),
                },
        );
        out.push_str(r#"{"case":"#);
        push_string(out, case);
        match self {
            CaseAnswer::Outputs(outputs) => {
                out.push_str(r#","outputs":["#);
                for (i, output) in outputs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_string(out, output);
                }
                out.push(']');
            }
            CaseAnswer::Skipped(why) => {
                out.push_str(r#","skipped":"#);
                push_string(out, why);
            }
            CaseAnswer::Errored(why) => {
                out.push_str(r#","errored":"#);
                push_string(out, why);
            }
        }
        out.push('}');
    }
}

/// Which of the three answers a message claims to be, by its keys; `None`
/// when it is none of them.
pub fn answer_kind(message: &Value) -> Option<MessageKind> {
    let map = message.as_object()?;
    [
        ("outputs", MessageKind::Outputs),
        ("skipped", MessageKind::Skipped),
        ("errored", MessageKind::Errored),
    ]
    .into_iter()
    .find(|(key, _)| map.contains_key(*key))
    .map(|(_, kind)| kind)
}

/// Reads an answer to `run`: its `case` and what it says. Exactly one of
/// `outputs`, `skipped` and `errored` must be there.
pub fn read_answer(message: &Value) -> Result<(String, CaseAnswer), String> {
    let map = object(message, "an answer")?;
    let case = match map.get("case") {
        Some(Value::String(case)) => case.clone(),
        Some(_) => return Err("\"case\" must be a string".into()),
        None => return Err("an answer needs \"case\"".into()),
    };
    let present: Vec<&str> = ["outputs", "skipped", "errored"]
        .into_iter()
        .filter(|k| map.contains_key(*k))
        .collect();
    let answer = match present.as_slice() {
        ["outputs"] => {
            let list = map
                .get("outputs")
                .and_then(Value::as_array)
                .ok_or("\"outputs\" must be a list of strings")?;
            let outputs = list
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<String>>>()
                .ok_or("\"outputs\" must be a list of strings")?;
            CaseAnswer::Outputs(outputs)
        }
        [key @ ("skipped" | "errored")] => {
            let why = map
                .get(*key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| format!("\"{key}\" must be a non-empty string"))?
                .to_string();
            if *key == "skipped" {
                CaseAnswer::Skipped(why)
            } else {
                CaseAnswer::Errored(why)
            }
        }
        [] => {
            return Err(
                "it is not one of the three answers: it has none of \"outputs\", \"skipped\", \"errored\"".into(),
            );
        }
        _ => {
            return Err(format!(
                "it is not one of the three answers: it has {}",
                present
                    .iter()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
        }
    };
    Ok((case, answer))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_answer_line_is_exactly_the_compact_json_of_its_object() {
        // Quotes, backslashes, control bytes, U+2028 and non-ASCII: the
        // hand-written line must be the bytes serde_json writes for the
        // same object, keys sorted ("case" first).
        let tricky = "q\"b\\n\n\r\t\u{0}\u{1f}\u{7f} \u{2028} é 🦀";
        let case = "s/\"c\"\u{2028}";
        assert_eq!(
            CaseAnswer::Outputs(vec![tricky.into(), String::new(), "x\n".into()]).to_line(case),
            json!({"case": case, "outputs": [tricky, "", "x\n"]}).to_string()
        );
        assert_eq!(
            CaseAnswer::Outputs(Vec::new()).to_line(case),
            json!({"case": case, "outputs": []}).to_string()
        );
        assert_eq!(
            CaseAnswer::Skipped(tricky.into()).to_line(case),
            json!({"case": case, "skipped": tricky}).to_string()
        );
        assert_eq!(
            CaseAnswer::Errored(tricky.into()).to_line(case),
            json!({"case": case, "errored": tricky}).to_string()
        );
    }

    #[test]
    fn an_answer_must_be_exactly_one_of_the_three() {
        let none = json!({"case":"x","result":"ok"});
        assert!(
            read_answer(&none)
                .unwrap_err()
                .contains("not one of the three answers")
        );
        let two = json!({"case":"x","outputs":[],"skipped":"y"});
        assert_eq!(
            read_answer(&two).unwrap_err(),
            "it is not one of the three answers: it has \"outputs\" and \"skipped\""
        );
        assert!(
            read_answer(&json!({"outputs":[]}))
                .unwrap_err()
                .contains("\"case\"")
        );
        assert!(read_answer(&json!([1])).is_err());
        assert!(read_answer(&json!({"case":"x","outputs":["a",2]})).is_err());
    }
}
