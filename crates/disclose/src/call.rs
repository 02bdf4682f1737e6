//! The `call` door (SPEC §6, seed 001 §8-61): `resolve_call`, the one place
//! a call through `call` is unwrapped, and the door every call passes —
//! direct calls, the child profile (§8) and the mode gate (§3).

use serde_json::Value;

use crate::CALL;
use crate::NEAREST_NAMES;
use crate::mode::mode_admits;
use crate::nearest::Asked;
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
        // One prepared asked name for every candidate (`crate::nearest`:
        // exact either way, its cost per candidate bounded whatever the
        // asked name's length). Once NEAREST_NAMES are held, a candidate is
        // only worth its distance if that is at most the last one's (a tie
        // may still win by name), so the comparison is told that cutoff and
        // gives up on a farther candidate early (`None`).
        let asked = Asked::new(name);
        // The best NEAREST_NAMES so far, sorted by (distance, name).
        let mut best: Vec<(usize, &str)> = Vec::with_capacity(NEAREST_NAMES + 1);
        for tool in self.offered_tools().filter(|t| t.name() != CALL) {
            let candidate = tool.name();
            let cutoff = best.get(NEAREST_NAMES - 1).map(|&(cutoff, _)| cutoff);
            let Some(distance) = asked.distance(candidate, cutoff) else {
                continue;
            };
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
    mod properties {
        use proptest::prelude::*;
        use serde_json::json;

        use crate::{CALL, Catalog, Mode, NEAREST_NAMES, Refusal, ToolCall, ToolDecl};

        /// SPEC §6 check 3 by its letter: every offered name but `call`,
        /// its Levenshtein distance over chars by the textbook table, sorted
        /// by (distance, name), the first NEAREST_NAMES.
        fn nearest_by_the_letter(offered: &[&str], asked: &str) -> Vec<String> {
            let asked: Vec<char> = asked.chars().collect();
            let distance = |name: &str| {
                let name: Vec<char> = name.chars().collect();
                let mut row: Vec<usize> = (0..=name.len()).collect();
                for (i, a) in asked.iter().enumerate() {
                    let mut next = vec![i + 1];
                    for (j, b) in name.iter().enumerate() {
                        let cost = row[j] + usize::from(a != b);
                        next.push(cost.min(row[j + 1] + 1).min(next[j] + 1));
                    }
                    row = next;
                }
                row[name.len()]
            };
            let mut all: Vec<(usize, &str)> = offered
                .iter()
                .filter(|n| **n != CALL)
                .map(|n| (distance(n), *n))
                .collect();
            all.sort_by(|a, b| (a.0, a.1.as_bytes()).cmp(&(b.0, b.1.as_bytes())));
            all.into_iter()
                .take(NEAREST_NAMES)
                .map(|(_, n)| n.to_string())
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            /// The cutoff only skips work: the nearest names are the ones
            /// the letter of §6 gives, for ASCII and non-ASCII asked names,
            /// names longer than 64 chars, and catalogs of many near ties.
            #[test]
            fn nearest_names_are_the_letter_of_section_6(
                names in proptest::collection::vec("[a-d_]{1,9}", 0..40),
                asked in "[a-dé_ ]{0,12}|[a-d]{60,80}|[a-dé_]{4097,4200}",
            ) {
                let mut catalog = Catalog::new();
                for name in &names {
                    // Collisions and duplicates are refused; that is fine.
                    let _ = catalog.admit_tool(&ToolDecl::new("host", name.as_str(), "d", json!({})));
                }
                let run = catalog.start(Mode::Work);
                let offered: Vec<&str> = run.offered_tools().map(|t| t.name()).collect();
                prop_assume!(!offered.contains(&asked.as_str()));
                let call = ToolCall { id: "c".into(), name: asked.clone(), args: json!({}) };
                let Err(Refusal::Unknown { nearest, .. }) = run.call(&call) else {
                    return Err(TestCaseError::fail(format!("{asked} is not call.unknown")));
                };
                prop_assert_eq!(nearest, nearest_by_the_letter(&offered, &asked));
            }
        }
    }
}
