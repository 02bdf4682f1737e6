//! The `call` door (SPEC §6, seed 001 §8-61): `resolve_call`, the one place
//! a call through `call` is unwrapped, and the door every call passes —
//! direct calls, the child profile (§8) and the mode gate (§3).

use serde_json::Value;

use crate::CALL;
use crate::NEAREST_NAMES;
use crate::mode::mode_admits;
use crate::refusal::{Refusal, ShapeReason};
use crate::run::Run;

/// A model's tool call.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The provider's call id; a routed call keeps it.
    pub id: String,
    /// The tool the model named.
    pub name: String,
    /// The arguments, any JSON value.
    pub args: Value,
}

impl Run {
    /// Unwraps a call through `call` into the call it names, checking shape,
    /// target, the child profile and `fit` in the spec's order. Any other
    /// call passes through unchanged.
    pub fn resolve_call(&self, call: &ToolCall) -> Result<ToolCall, Refusal> {
        if call.name != CALL {
            return Ok(call.clone());
        }
        let shape = |reason| Refusal::Shape { reason };
        let Value::Object(outer) = &call.args else {
            return Err(shape(ShapeReason::NotObject));
        };
        let name = outer.get("name").ok_or(shape(ShapeReason::MissingName))?;
        let args = outer.get("args").ok_or(shape(ShapeReason::MissingArgs))?;
        let target = name.as_str().ok_or(shape(ShapeReason::NameNotString))?;
        if target == CALL {
            return Err(Refusal::Itself);
        }
        let Some(tool) = self.admitted_tool(target) else {
            return Err(self.unknown(target));
        };
        if let Some(profile) = self.profile
            && !self.offers(tool)
        {
            return Err(profile.refusal(target, tool.approval()));
        }
        if let Err(violations) = tool.fit_plan().check(tool.input_schema(), args) {
            return Err(Refusal::Misfit {
                name: target.to_string(),
                violations,
                schema: tool.schema_text().to_string(),
            });
        }
        Ok(ToolCall {
            id: call.id.clone(),
            name: target.to_string(),
            args: args.clone(),
        })
    }

    /// The whole door: a call through `call` is resolved, a direct call must
    /// name a tool of this run's tool list, and then the mode gate decides.
    pub fn call(&self, call: &ToolCall) -> Result<ToolCall, Refusal> {
        let routed = if call.name == CALL {
            self.resolve_call(call)?
        } else {
            self.direct(call)?
        };
        mode_admits(self.mode, &routed.name)?;
        Ok(routed)
    }

    fn direct(&self, call: &ToolCall) -> Result<ToolCall, Refusal> {
        if self.is_resident(&call.name) {
            return Ok(call.clone());
        }
        match (self.admitted_tool(&call.name), self.profile) {
            (Some(tool), Some(profile)) if !self.offers(tool) => {
                Err(profile.refusal(&call.name, tool.approval()))
            }
            (Some(_), _) => Err(Refusal::NotOffered {
                name: call.name.clone(),
            }),
            (None, _) => Err(self.unknown(&call.name)),
        }
    }

    /// `call.unknown`, naming the offered tools (other than `call`) nearest
    /// to `name` by Levenshtein distance over chars, ties by name.
    fn unknown(&self, name: &str) -> Refusal {
        let asked = name.chars().count();
        // The best NEAREST_NAMES so far, sorted by (distance, name); a
        // candidate whose length alone puts it farther than the last is
        // skipped without computing its distance (the distance is at least
        // the difference in length).
        let mut best: Vec<(usize, &str)> = Vec::with_capacity(NEAREST_NAMES + 1);
        for tool in self.offered_tools().filter(|t| t.name() != CALL) {
            let candidate = tool.name();
            // Minted names are ASCII (SPEC §2 check 3): bytes are chars.
            let floor = asked.abs_diff(candidate.len());
            if best.len() == NEAREST_NAMES && best.last().is_some_and(|(d, _)| floor > *d) {
                continue;
            }
            // `strsim` rather than our own: benches/nearest.rs timed both
            // side by side and ours was not faster (docs/decisions.md).
            let distance = strsim::levenshtein(name, candidate);
            let at = best
                .partition_point(|(d, n)| (*d, n.as_bytes()) <= (distance, candidate.as_bytes()));
            best.insert(at, (distance, candidate));
            best.truncate(NEAREST_NAMES);
        }
        Refusal::Unknown {
            name: name.to_string(),
            nearest: best.into_iter().map(|(_, n)| n.to_string()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn levenshtein_is_over_chars() {
        // SPEC §6 check 3 counts chars, not bytes: `é` is one edit from `e`.
        assert_eq!(strsim::levenshtein("kitten", "sitting"), 3);
        assert_eq!(strsim::levenshtein("", "abc"), 3);
        assert_eq!(strsim::levenshtein("é", "e"), 1);
        assert_eq!(strsim::levenshtein("same", "same"), 0);
    }
}
