//! What admission derives from an input schema alone (SPEC §2 check 6,
//! §6, §10), remembered per process: the canonical text, the meta-schema
//! verdict and the compiled `fit`.
//!
//! A speed-up beside admission, not part of it: [`schema_facts`] is the
//! one entry point, and each fact is a pure function of the schema
//! ([`SchemaFacts::of`]), so a memo hit is what a fresh computation would
//! give (`tests::a_memo_hit_is_the_fresh_facts`). It owns the memo and its
//! bounds; it does not own the checks of admission, their order, or the
//! rules it caches (`metaschema`, `fit`, `canonical`).

use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::Value;

use crate::canonical::write_value;
use crate::fit::plan::FitPlan;
use crate::lookup::Lookup;

/// What admission derives from an input schema alone: its canonical text
/// (SPEC §10), whether the draft 2020-12 meta-schema accepts it (SPEC §2
/// check 6), and its compiled `fit` — a write-once cell, filled by the
/// first call to any tool of an equal schema (a pure function of it).
#[derive(Debug)]
pub(crate) struct SchemaFacts {
    /// The canonical text (SPEC §10).
    pub(crate) text: Arc<str>,
    /// Whether the draft 2020-12 meta-schema accepts it.
    pub(crate) valid: bool,
    /// The compiled `fit`, once a call needs it.
    pub(crate) plan: Arc<OnceLock<FitPlan>>,
}

impl SchemaFacts {
    /// The facts of `schema`, whose canonical text is `text`.
    fn of(schema: &Value, text: Arc<str>) -> SchemaFacts {
        SchemaFacts {
            text,
            valid: crate::metaschema::is_valid(schema),
            plan: Arc::default(),
        }
    }
}

/// The [`SchemaFacts`] of `schema`, remembered per process by the schema's
/// content.
///
/// Catalogs admit the same server schemas run after run, and a harness
/// replays each session again for SPEC §13 I3, I4 and I7; the facts are a
/// pure function of the schema, so they are computed once per process and
/// shared. A schema seen before in the same allocation is found by its
/// address (the memo's weak pointer keeps the address from being reused);
/// any other is found by its canonical text, which a miss needs anyway, so
/// a hit is an equal schema, compared byte for byte, and nothing is hashed.
/// The memo holds texts and plans, never a schema. Bounded: past
/// [`LIMIT`] texts or [`BYTES`] of them it starts over, and it never keeps
/// a text over [`LONGEST`] (whose facts cost what reading it does).
pub(crate) fn schema_facts(schema: &Arc<Value>) -> Arc<SchemaFacts> {
    let address = Arc::as_ptr(schema) as usize;
    // While the weak pointer lives the allocation is never freed, nor
    // changed in place (`Arc::get_mut` refuses and `Arc::make_mut` moves
    // away from an allocation with weak pointers), so a schema at this
    // address is the one the entry was made for.
    let seen = (MEMO.lock().ok()).and_then(|memo| {
        memo.by_address
            .get(&address)
            .map(|(_, facts)| Arc::clone(facts))
    });
    if let Some(facts) = seen {
        return facts;
    }
    // Most tool schemas' texts fit in this at once, instead of growing
    // through eight sizes (it is copied into the shared `Arc<str>`, so the
    // room is not kept). Below the allocator's large-chunk size.
    let mut text = String::with_capacity(960);
    write_value(&mut text, schema);
    if text.len() > LONGEST {
        return Arc::new(SchemaFacts::of(schema, text.into()));
    }
    let Ok(mut memo) = MEMO.lock() else {
        return Arc::new(SchemaFacts::of(schema, text.into()));
    };
    let facts = match memo.by_text.get(text.as_str()) {
        Some(facts) => Arc::clone(facts),
        None => {
            if memo.by_text.len() >= LIMIT || memo.bytes + text.len() > BYTES {
                memo.by_text.clear();
                memo.by_address.clear();
                memo.bytes = 0;
            }
            memo.bytes += text.len();
            let facts = Arc::new(SchemaFacts::of(schema, text.into()));
            memo.by_text
                .insert(Arc::clone(&facts.text), Arc::clone(&facts));
            facts
        }
    };
    if memo.by_address.len() >= LIMIT {
        memo.by_address.clear();
    }
    memo.by_address
        .insert(address, (Arc::downgrade(schema), Arc::clone(&facts)));
    facts
}

// Recurring schemas are few (docs/decisions.md); a larger memo keeps
// megabytes of texts nobody asks for again among the replay's short-lived
// allocations.
/// The most texts the memo holds.
const LIMIT: usize = 1 << 9;
/// The most bytes of texts the memo holds.
const BYTES: usize = 4 << 20;
/// The longest text the memo keeps.
const LONGEST: usize = 256 << 10;

/// Facts by canonical text, and by the address of a schema they were
/// found for (with a weak pointer to it); and the bytes of the texts.
/// Hashed, not ordered: an ordered map of texts would follow a pointer to
/// a text at every comparison, a cache miss each.
struct Memo {
    by_text: Lookup<Arc<str>, Arc<SchemaFacts>>,
    by_address: Lookup<usize, (Weak<Value>, Arc<SchemaFacts>)>,
    bytes: usize,
}

static MEMO: Mutex<Memo> = Mutex::new(Memo {
    by_text: Lookup::new(),
    by_address: Lookup::new(),
    bytes: 0,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::canonical;
    use serde_json::json;

    /// An equal schema in another allocation (a later session's) is a
    /// memo hit; another schema, or the same one after its allocation is
    /// gone, gets its own facts.
    #[test]
    fn schema_facts_are_shared_by_equal_schemas_only() {
        let first: Arc<Value> = json!({"type": "object", "properties": {"q": {"type": "string"}}, "$comment": "memo test"}).into();
        let facts = schema_facts(&first);
        let again: Arc<Value> = Arc::new((*first).clone());
        assert!(Arc::ptr_eq(&schema_facts(&again), &facts));
        assert!(Arc::ptr_eq(&schema_facts(&first), &facts));
        let other: Arc<Value> = json!({"type": "object", "properties": {"q": {"type": "integer"}}, "$comment": "memo test"}).into();
        let other_facts = schema_facts(&other);
        assert!(!Arc::ptr_eq(&other_facts, &facts));
        assert_eq!(&*other_facts.text, canonical(&other));
        drop(first);
        let after: Arc<Value> = Arc::new((*again).clone());
        assert_eq!(&*schema_facts(&after).text, &*facts.text);
    }

    /// A schema whose text is over `LONGEST` is never kept, and the texts
    /// kept never pass `BYTES`, however many large schemas come.
    #[test]
    fn schema_facts_are_bounded_by_bytes() {
        let padded = |n: usize, len: usize| -> Arc<Value> {
            json!({"type": "object", "$comment": format!("{n} {}", "x".repeat(len))}).into()
        };
        let huge = padded(0, LONGEST + 1);
        let facts = schema_facts(&huge);
        assert!(facts.text.len() > LONGEST && facts.valid);
        assert!(!Arc::ptr_eq(&schema_facts(&huge), &facts));
        for n in 0..40 {
            let large = padded(n, 200 << 10);
            assert_eq!(&*schema_facts(&large).text, canonical(&large));
            let held = MEMO.lock().map_or(0, |memo| memo.bytes);
            assert!(held <= BYTES, "{held} bytes held");
        }
    }

    mod properties {
        use std::sync::Arc;

        use proptest::prelude::*;
        use serde_json::{Value, json};

        use super::super::{SchemaFacts, schema_facts};
        use crate::canonical::canonical;
        use crate::fit::plan::FitPlan;

        /// Schemas that recur (so the memo is hit, by address and by
        /// text) and differ (so it is missed), some valid, some not.
        fn schema() -> impl Strategy<Value = Value> {
            let key = prop::sample::select(vec!["a", "b", "q", "type"]);
            let ty = prop::sample::select(vec!["string", "integer", "number", "Nope"]);
            (
                prop::collection::vec((key, ty), 0..4),
                any::<bool>(),
                0u8..3,
            )
                .prop_map(|(properties, closed, minimum)| {
                    let properties: serde_json::Map<String, Value> = (properties.into_iter())
                        .map(|(k, t)| (k.to_string(), json!({ "type": t })))
                        .collect();
                    json!({
                        "type": "object",
                        "properties": properties,
                        "additionalProperties": !closed,
                        "minProperties": i64::from(minimum) - 1,
                    })
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Whatever the memo held before, the facts it hands out are
            /// the facts of the schema computed afresh: the canonical
            /// text, the meta-schema verdict and the compiled plan.
            #[test]
            fn a_memo_hit_is_the_fresh_facts(schemas in prop::collection::vec(schema(), 1..6)) {
                let schemas: Vec<Arc<Value>> = schemas.into_iter().map(Arc::new).collect();
                for schema in schemas.iter().chain(&schemas) {
                    let memo = schema_facts(schema);
                    let fresh = SchemaFacts::of(schema, canonical(schema).into());
                    prop_assert_eq!(&memo.text, &fresh.text);
                    prop_assert_eq!(memo.valid, fresh.valid);
                    let plan = memo.plan.get_or_init(|| FitPlan::new(schema));
                    prop_assert_eq!(plan, &FitPlan::new(schema));
                }
            }
        }
    }
}
