//! The rules the fuzz driver checks the library against, the spec's and
//! deliberately broken ones ([`MUTANTS`]), and the Lean `indexBytes`.

use serde_json::Value;

use crate::DORMANT_INDEX_CEILING;
use crate::dormant::{Entry, INDEX_HEADER, Packed, marker, pack, room_for};
use crate::fit::Violation;

/// Packs a whole index's entries: chooses the room and packs (SPEC §4).
pub type IndexPacker = fn(&[Entry]) -> Packed;

/// The top-level args check (SPEC §6).
pub type FitRule = fn(&Value, &Value) -> Result<(), Vec<Violation>>;

/// The rules the driver checks the catalog's behaviour against.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// How the dormant index is packed.
    pub packer: IndexPacker,
    /// How args are fitted.
    pub fit: FitRule,
}

impl Rules {
    /// The rules of the spec, as the library implements them.
    pub const SPEC: Rules = Rules {
        packer: spec_packer,
        fit: crate::fit::fit,
    };
}

/// SPEC §4: the room is the ceiling less the header and the marker for the
/// total count; then the Lean `pack`.
pub fn spec_packer(entries: &[Entry]) -> Packed {
    pack(room_for(entries.len()), entries.iter().copied())
}

/// A deliberately broken rule, to prove the fuzzer catches it.
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    /// Its name on the command line.
    pub name: &'static str,
    /// What it breaks.
    pub breaks: &'static str,
    /// The rules with the break in.
    pub rules: Rules,
}

/// Every mutant `disclose fuzz --mutant` knows.
pub const MUTANTS: [Mutant; 2] = [
    Mutant {
        name: "marker-budget",
        breaks: "the packer forgets to budget the \"+N more\" marker",
        rules: Rules {
            packer: forgets_marker_budget,
            fit: crate::fit::fit,
        },
    },
    Mutant {
        name: "integral-float",
        breaks: "fit calls 1.0 a number, not an integer",
        rules: Rules {
            packer: spec_packer,
            fit: integral_float_is_a_number,
        },
    },
];

/// The mutant named `name`.
pub fn mutant(name: &str) -> Option<&'static Mutant> {
    MUTANTS.iter().find(|m| m.name == name)
}

/// Mutant: packs into the ceiling less the header only, so a `+N more`
/// marker can push the index past 1024 bytes.
pub(super) fn forgets_marker_budget(entries: &[Entry]) -> Packed {
    pack(
        DORMANT_INDEX_CEILING - INDEX_HEADER.len(),
        entries.iter().copied(),
    )
}

/// Mutant: `fit`, except that a float with no fractional part (`1.0`) is not
/// an integer.
pub(super) fn integral_float_is_a_number(
    schema: &Value,
    args: &Value,
) -> Result<(), Vec<Violation>> {
    crate::fit::fit(schema, args)?;
    let Some(args) = args.as_object() else {
        return Ok(());
    };
    let mut violations = Vec::new();
    for (key, value) in args {
        let declared = schema
            .get("properties")
            .and_then(|p| p.get(key))
            .and_then(|p| p.get("type"));
        let types: Vec<&str> = match declared {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => continue,
        };
        let float = value.as_number().is_some_and(|n| n.is_f64());
        if float && types.contains(&"integer") && !types.contains(&"number") {
            violations.push(Violation::Type {
                key: key.clone(),
                found: "number",
                expected: types.iter().map(|t| t.to_string()).collect(),
            });
        }
    }
    if violations.is_empty() {
        Ok(())
    } else {
        Err(violations)
    }
}

/// The Lean `indexBytes` of `entries` under `packer`: header, the packed
/// lines, and the marker when some were left out; 0 when nothing is dormant.
pub fn index_bytes(packer: IndexPacker, entries: &[Entry]) -> (usize, Packed) {
    let packed = packer(entries);
    if entries.is_empty() {
        return (0, packed);
    }
    let marker_len = if packed.left == 0 {
        0
    } else {
        marker(packed.left).len()
    };
    (INDEX_HEADER.len() + packed.used + marker_len, packed)
}
