//! Modes, the resident core and the gate (SPEC §3), and child profiles (§8).
//!
//! `core_tools` is the one place that says which resident tools run in which
//! mode. The tool list is the union of every mode's core, fixed at start, so a
//! mode switch only moves the gate and never the cached prefix (seed 001 D25).

use std::fmt;

use crate::declaration::{Approval, Effect};
use crate::refusal::Refusal;

/// A run policy mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    /// Conversation: no `edit`, no `exec`.
    Chat,
    /// Work: the whole core.
    Work,
}

impl Mode {
    /// Every mode, in the spec's order.
    pub const ALL: [Mode; 2] = [Mode::Chat, Mode::Work];

    /// The mode as printed: `chat` or `work`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Chat => "chat",
            Mode::Work => "work",
        }
    }

    /// Parses `chat` or `work`.
    pub fn parse(text: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.as_str() == text)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The union of every mode's core, in the order resident tools are listed.
pub const RESIDENT_ORDER: [&str; 7] = [
    "read", "search", "status", "describe", "call", "edit", "exec",
];

/// The resident tools allowed to run in `mode`, the two doors included.
pub fn core_tools(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Chat => &RESIDENT_ORDER[..5],
        Mode::Work => &RESIDENT_ORDER[..],
    }
}

/// Whether `name` is in some mode's core (and so resident when admitted).
pub fn in_some_core(name: &str) -> bool {
    RESIDENT_ORDER.contains(&name)
}

/// The gate: a tool in some core but not in `mode`'s is refused `gate.mode`;
/// tools outside every core pass.
pub fn mode_admits(mode: Mode, name: &str) -> Result<(), Refusal> {
    if in_some_core(name) && !core_tools(mode).contains(&name) {
        return Err(Refusal::GateMode {
            name: name.to_string(),
            mode,
        });
    }
    Ok(())
}

/// The profile of a child run (SPEC §8, seed 000 "tool profile").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// Offers `read` and `idempotent-write` tools.
    Scout,
    /// Also offers `reversible` tools.
    Writer,
}

impl Profile {
    /// Every profile.
    pub const ALL: [Profile; 2] = [Profile::Scout, Profile::Writer];

    /// The profile as printed: `scout` or `writer`.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Scout => "scout",
            Profile::Writer => "writer",
        }
    }

    /// Parses `scout` or `writer`.
    pub fn parse(text: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.as_str() == text)
    }

    /// Whether this profile offers a tool with `effect` and `approval`:
    /// never one that needs a human, since no human is attached to a child.
    pub fn offers(self, effect: Effect, approval: Approval) -> bool {
        let effect_ok = match self {
            Profile::Scout => matches!(effect, Effect::Read | Effect::IdempotentWrite),
            Profile::Writer => matches!(
                effect,
                Effect::Read | Effect::IdempotentWrite | Effect::Reversible
            ),
        };
        effect_ok && approval == Approval::Never
    }

    /// The refusal for calling a tool this profile does not offer.
    pub(crate) fn refusal(self, name: &str, approval: Approval) -> Refusal {
        match approval {
            Approval::Required => Refusal::ChildUnattended {
                name: name.to_string(),
            },
            Approval::Never => Refusal::Narrowed {
                name: name.to_string(),
                profile: self,
            },
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_and_exec_are_gated_in_chat_only() {
        for name in ["edit", "exec"] {
            assert_eq!(
                mode_admits(Mode::Chat, name).map_err(|r| r.code()),
                Err("gate.mode")
            );
            assert_eq!(mode_admits(Mode::Work, name), Ok(()));
        }
        for name in ["read", "describe", "call", "github__create_issue"] {
            for mode in Mode::ALL {
                assert_eq!(mode_admits(mode, name), Ok(()));
            }
        }
    }

    #[test]
    fn union_of_cores_is_the_resident_order() {
        let mut union: Vec<&str> = Vec::new();
        for mode in Mode::ALL {
            for name in core_tools(mode) {
                if !union.contains(name) {
                    union.push(name);
                }
            }
        }
        assert_eq!(union, RESIDENT_ORDER);
    }
}
