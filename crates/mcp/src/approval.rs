//! Approval: the host enforces it, the catalog only records it.
//!
//! A call to a tool whose approval is `required` is put to the user through
//! MCP elicitation: a form with one choice, `decision`, whose answers are
//! "allow once", "allow for this session" and "decline". This module writes
//! the question and reads the answer, and the texts given when the user
//! declines or the client cannot be asked; whether and how the question is
//! sent (an `elicitation/create` request, or a 2026-07-28 `input_required`
//! result) is the gateway's.

use disclose::internals::canonical::canonical;
use rmcp::model::ElicitRequestParams;
use serde_json::{Value, json};

use crate::session::Allowance;
use crate::shared::UpstreamTool;

/// The key of the approval question among a call's input requests.
pub const KEY: &str = "approval";
/// The answer that runs this call only.
pub const ONCE: &str = "allow once";
/// The answer that runs this tool unasked until the session ends, while
/// its descriptor digest stays the one the user allowed.
pub const SESSION: &str = "allow for this session";
/// The answer that refuses the call.
pub const DECLINE: &str = "decline";

/// The longest canonical args shown in the question; longer ones are cut
/// (with a note) so a client's dialog stays readable.
const ARGS_SHOWN: usize = 2000;

/// What the user decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Run this call.
    Once,
    /// Run this call and every later call of this tool, at this digest.
    Session,
    /// Do not run it; the word says how (`declined`, `cancelled`, …).
    Declined(&'static str),
}

/// The question: the minted tool, its effect and the canonical args.
pub fn question(minted: &str, route: &UpstreamTool, args: &Value) -> String {
    let mut shown = canonical(args);
    if shown.len() > ARGS_SHOWN {
        let mut cut = ARGS_SHOWN;
        while !shown.is_char_boundary(cut) {
            cut -= 1;
        }
        shown.truncate(cut);
        shown.push_str("… (cut)");
    }
    format!(
        "Allow {minted} to run?\nserver: {origin}; tool: {raw}; effect: {effect}\nargs: {shown}",
        origin = route.origin,
        raw = route.raw_name,
        effect = route.effect,
    )
}

/// The elicitation request for one call. "Allow for this session" is
/// offered only where a session can remember it.
pub fn request(
    minted: &str,
    route: &UpstreamTool,
    args: &Value,
    allowance: Allowance,
) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question(minted, route, args),
        requested_schema: schema(allowance),
    }
}

/// A flat schema of one string choice (MCP elicitation allows primitives
/// only).
fn schema(allowance: Allowance) -> rmcp::model::ElicitationSchema {
    let answers = match allowance {
        Allowance::Remembered => json!([ONCE, SESSION, DECLINE]),
        Allowance::OnceOnly => json!([ONCE, DECLINE]),
    };
    let value = json!({
        "type": "object",
        "properties": {
            "decision": {
                "type": "string",
                "title": "Decision",
                "enum": answers,
            }
        },
        "required": ["decision"],
    });
    // The schema is ours and fixed: a test holds that it reads.
    serde_json::from_value(value)
        .unwrap_or_else(|_| rmcp::model::ElicitationSchema::new(Default::default()))
}

/// The decision an elicitation result (`{action, content?}`) gives; anything
/// else than an accepted allow is a decline. (A session allowance given
/// where none was offered runs the call once: `Session::allow` keeps
/// nothing there.)
pub fn decide(answer: Option<&Value>) -> Decision {
    let Some(answer) = answer else {
        return Decision::Declined("not answered");
    };
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => {}
        Some("decline") => return Decision::Declined("declined"),
        Some("cancel") => return Decision::Declined("cancelled"),
        _ => return Decision::Declined("not answered"),
    }
    match answer
        .get("content")
        .and_then(|c| c.get("decision"))
        .and_then(Value::as_str)
    {
        Some(ONCE) => Decision::Once,
        Some(SESSION) => Decision::Session,
        Some(DECLINE) => Decision::Declined("declined"),
        _ => Decision::Declined("not answered"),
    }
}

/// The tool result when the user did not allow the call.
pub fn declined(minted: &str, how: &str) -> String {
    format!("disclose: the user {how} the call of \"{minted}\"; it was not run\n")
}

/// The tool result when the client cannot be asked.
pub fn cannot_ask(minted: &str, route: &UpstreamTool) -> String {
    format!(
        "disclose: \"{minted}\" needs a user's approval (effect {effect}), and this client cannot be asked: it did not declare the elicitation capability. It was not run. To allow it, set \"approval\": \"never\" on server \"{origin}\" in the gateway's config, or start the gateway with --dangerously-allow-all (every tool of every server then runs unasked)\n",
        effect = route.effect,
        origin = route.origin,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schema_reads() {
        let answers = |allowance| {
            serde_json::to_value(schema(allowance)).expect("serializes")["properties"]["decision"]
                ["enum"]
                .clone()
        };
        assert_eq!(
            answers(Allowance::Remembered),
            json!([ONCE, SESSION, DECLINE])
        );
        assert_eq!(answers(Allowance::OnceOnly), json!([ONCE, DECLINE]));
    }

    #[test]
    fn only_an_accepted_allow_runs() {
        let cases = [
            (
                json!({"action": "accept", "content": {"decision": ONCE}}),
                Decision::Once,
            ),
            (
                json!({"action": "accept", "content": {"decision": SESSION}}),
                Decision::Session,
            ),
            (
                json!({"action": "accept", "content": {"decision": DECLINE}}),
                Decision::Declined("declined"),
            ),
            (
                json!({"action": "accept", "content": {}}),
                Decision::Declined("not answered"),
            ),
            (
                json!({"action": "accept"}),
                Decision::Declined("not answered"),
            ),
            (json!({"action": "decline"}), Decision::Declined("declined")),
            (json!({"action": "cancel"}), Decision::Declined("cancelled")),
            (json!("accept"), Decision::Declined("not answered")),
        ];
        for (answer, decision) in cases {
            assert_eq!(decide(Some(&answer)), decision, "{answer}");
        }
        assert_eq!(decide(None), Decision::Declined("not answered"));
    }
}
