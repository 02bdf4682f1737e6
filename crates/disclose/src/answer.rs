//! `Run::answer`: the one entry point for a model's tool call.
//!
//! It is the library's convenience over the §6 door ([`Run::call`]:
//! `resolve_call`, direct calls, the gate) and `describe` (§5): a call that
//! reaches `describe`, directly or through `call`, is answered here with the
//! guide text; any other call that passes comes back as the call the host
//! runs. It changes nothing in the contract: a session's `call` op keeps its
//! §11 meaning, and the recorder ([`crate::Recorder`]) writes the op whose
//! replay gives the model the same answer.

use serde_json::Value;

use crate::call::ToolCall;
use crate::record::OpKind;
use crate::refusal::Refusal;
use crate::run::Run;
use crate::{CALL, DESCRIBE};

/// What to do with a model's tool call ([`Run::answer`]).
///
/// `read` stays the host's tool. When the model gives `read` a skill's name,
/// the host serves the card with [`Run::expand`]:
///
/// ```
/// use disclose_catalog::{Answer, Catalog, Mode, ShelfSkill, ToolCall, ToolDecl};
/// use serde_json::json;
///
/// let mut catalog = Catalog::new();
/// let read = ToolDecl::new("host", "read", "Read a file or a skill card.", json!({"type": "object"}));
/// assert!(catalog.admit_tool(&read).is_ok());
/// let skill = ShelfSkill {
///     name: "release".into(),
///     disclosure: "How to cut a release.".into(),
///     address: "skills/release/SKILL.md".into(),
///     hash: None,
///     package: None,
/// };
/// assert!(catalog.admit_skill(&skill).is_ok());
/// let run = catalog.start(Mode::Chat);
///
/// let call = ToolCall { id: "c1".into(), name: "read".into(), args: json!({"path": "release"}) };
/// let Answer::Run(to_run) = run.answer(&call) else { panic!("read is resident") };
/// // The host's `read`: a skill name is served from the catalog, anything
/// // else from the file system.
/// let path = to_run.args["path"].as_str().unwrap_or_default();
/// let text = match run.skill(path) {
///     Some(_) => run.expand(path).unwrap_or_else(|refusal| refusal.to_lines()),
///     None => format!("(the host reads the file {path})"),
/// };
/// assert_eq!(text, "skill release lives at skills/release/SKILL.md\n");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Answer {
    /// `describe`, called directly or through `call`, answered by the
    /// catalog (SPEC §5): give the model this text as the tool result.
    Text(String),
    /// The call the host executes: resolved, fitted and gated (SPEC §6).
    Run(ToolCall),
    /// Refused (SPEC §9): give the model [`Refusal::to_lines`].
    Refused(Refusal),
}

impl Answer {
    /// What the model is given when this answer is text or a refusal; `None`
    /// when the host runs the call and its result is the answer.
    pub fn text(&self) -> Option<String> {
        match self {
            Answer::Text(text) => Some(text.clone()),
            Answer::Refused(refusal) => Some(refusal.to_lines()),
            Answer::Run(_) => None,
        }
    }
}

impl Run {
    /// Answers a model's tool call.
    ///
    /// - a call that reaches `describe` (directly, or routed through `call`)
    ///   → [`Answer::Text`] with the §5 text, or the `describe.query`
    ///   refusal;
    /// - any other call that passes the door (§6) and the gate (§3) →
    ///   [`Answer::Run`];
    /// - otherwise → [`Answer::Refused`].
    ///
    /// `describe` called directly with args that do not fit its own schema
    /// (`{"name": string}`, nothing else) is refused `call.misfit`, exactly
    /// as the same args routed through `call` are.
    ///
    /// `read` stays the host's tool: [`Answer`]'s docs show a host serving a
    /// skill name given to `read` with [`Run::expand`].
    pub fn answer(&self, call: &ToolCall) -> Answer {
        self.answered(call).0
    }

    /// The answer, and the session op whose replay gives the model the same
    /// bytes (and the host the same call).
    pub(crate) fn answer_and_op(&self, call: &ToolCall) -> (Answer, OpKind) {
        let (answer, op) = self.answered(call);
        (answer, op.unwrap_or_else(|| OpKind::Call(call.clone())))
    }

    /// The answer, and its op when that is not the call as made (`None`):
    /// [`Run::answer`] drops the op, so the call is copied only for a
    /// recording.
    fn answered(&self, call: &ToolCall) -> (Answer, Option<OpKind>) {
        let routed = match self.call(call) {
            Ok(routed) => routed,
            Err(refusal) => return (Answer::Refused(refusal), None),
        };
        if routed.name != DESCRIBE {
            return (Answer::Run(routed), None);
        }
        // A direct call passes the door unfitted (SPEC §6); describe's own
        // args are the catalog's business, so they are fitted here. The op
        // that replays the same refusal is the same args routed through
        // `call`, which `resolve_call` fits.
        if call.name == DESCRIBE
            && let Some(refusal) = self.describe_misfit(&routed.args)
        {
            let through_call = ToolCall {
                id: call.id.clone(),
                name: CALL.to_string(),
                args: serde_json::json!({"name": DESCRIBE, "args": call.args.clone()}),
            };
            return (Answer::Refused(refusal), Some(OpKind::Call(through_call)));
        }
        let query = routed
            .args
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let answer = match self.describe(&query) {
            Ok(text) => Answer::Text(text),
            Err(refusal) => Answer::Refused(refusal),
        };
        (answer, Some(OpKind::Describe { name: query }))
    }

    /// `call.misfit` when `args` do not fit `describe`'s schema.
    fn describe_misfit(&self, args: &Value) -> Option<Refusal> {
        let tool = self.admitted_tool(DESCRIBE)?;
        let violations = tool.fit_plan().check(tool.input_schema(), args).err()?;
        Some(Refusal::Misfit {
            name: DESCRIBE.to_string(),
            violations,
            schema: tool.schema_text().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Catalog, Mode};
    use serde_json::json;

    fn call(name: &str, args: Value) -> ToolCall {
        ToolCall {
            id: "c".into(),
            name: name.into(),
            args,
        }
    }

    #[test]
    fn describe_direct_and_through_call_give_the_same_text() {
        let run = Catalog::new().start(Mode::Chat);
        let direct = run.answer(&call("describe", json!({"name": "call"})));
        let routed = run.answer(&call(
            "call",
            json!({"name": "describe", "args": {"name": "call"}}),
        ));
        assert_eq!(direct, routed);
        assert!(
            matches!(&direct, Answer::Text(t) if t.starts_with("tool call\nstanding: resident"))
        );
    }

    #[test]
    fn describe_misfit_is_the_same_refusal_both_ways() {
        let run = Catalog::new().start(Mode::Chat);
        for args in [
            json!({}),
            json!({"name": 3}),
            json!("x"),
            json!({"name": "a", "b": 1}),
        ] {
            let direct = run.answer(&call("describe", args.clone()));
            let routed = run.answer(&call("call", json!({"name": "describe", "args": args})));
            assert_eq!(direct, routed, "{args}");
            assert!(matches!(&direct, Answer::Refused(r) if r.code() == "call.misfit"));
        }
    }
}
