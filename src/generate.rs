//! Generators of adversarial inputs: proptest
//! [`Strategy`](proptest::strategy::Strategy)s for the property tests
//! (`tests/properties.rs`), and [`draw`], the same generators (same tables,
//! same weights) drawn straight from a seeded RNG for `disclose fuzz`.
//!
//! Every strategy draws only from the runner's RNG, so a seed fixes the
//! value; and every one is built from proptest combinators, so a failing
//! value shrinks (`disclose fuzz` shrinks a failing plan through
//! [`SessionPlan::shrunk`] instead). Whole sessions are generated as a [`SessionPlan`] — typed,
//! so shrinking removes declarations and requests — and written as the JSONL
//! text of SPEC §11 by [`SessionPlan::to_text`], with at most one deliberate
//! [`Fault`] whose line the plan knows.
//!
//! What it aims at: multibyte, combining and control characters, blank and
//! very long text, hints at the 77/80/81-byte boundaries, names that collide
//! only after normalization or sit at 64/65 bytes, invalid origins and
//! schemas, args that fit or miss, and catalogs large enough to end the
//! index in `+N more`. It checks nothing: that is [`crate::fuzzing`]'s and
//! the tests' business.

mod decl;
pub mod draw;
mod requests;
mod schema;
mod session;
mod text;

pub use decl::{Decl, Declared, carried_skill, catalog_decls, decl, shelf_skill, tool_decl};
pub use requests::{request, session_plan};
pub use schema::{
    KEYS, TYPES, args, fitting_args, json_value, object_schema, schema, schema_and_args,
};
pub use session::{
    ArgsPlan, CallPlan, Fault, FaultPlan, Layout, Query, Request, Route, SessionPlan, Target,
};
pub use text::{boundary_text, description, long_text, origin, raw_name, text};

#[cfg(test)]
mod tests {
    use super::text::variant;
    use super::*;
    use crate::mode::Mode;
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::RngAlgorithm;
    use proptest::test_runner::{Config, TestRng, TestRunner};
    use serde_json::json;

    fn runner(seed: u8) -> TestRunner {
        TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
        )
    }

    #[test]
    fn same_seed_same_session() {
        let draw = |seed| {
            let mut runner = runner(seed);
            (0..20)
                .map(|_| {
                    session_plan()
                        .new_tree(&mut runner)
                        .unwrap()
                        .current()
                        .to_text()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }

    #[test]
    fn variants_differ_only_in_case_or_separator() {
        assert_eq!(variant("search_a", 0, true), "search-a");
        assert_eq!(variant("search_a", 1, false), "Search_a");
        assert_eq!(variant("search_a", 2, true), "SEARCH-A");
    }

    #[test]
    fn fitting_args_cover_required_keys_with_declared_types() {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": ["string", "null"]}},
            "required": ["n", "s", "q"],
        });
        assert_eq!(
            fitting_args(&schema, 0),
            json!({"n": 1.0, "s": "s", "q": "s"})
        );
        assert_eq!(
            fitting_args(&schema, 3),
            json!({"n": 3, "s": null, "q": "s"})
        );
    }

    #[test]
    fn a_fault_is_placed_on_the_line_the_plan_says() {
        let plan = SessionPlan {
            about: "t".into(),
            decls: vec![],
            dev: None,
            mode: Mode::Chat,
            profile: None,
            requests: vec![Request::Render],
            fault: Some(FaultPlan {
                fault: Fault::QueryBeforeStart,
                at: 0,
            }),
            layout: Layout {
                crlf: false,
                blank_after: Some(0),
                final_newline: true,
            },
            shuffle: 0,
            spelling: 0,
        };
        assert_eq!(
            plan.render(),
            (
                "{\"about\":\"t\",\"format\":1,\"op\":\"session\"}\n \t\n{\"op\":\"render\"}\n{\"mode\":\"chat\",\"op\":\"start\"}\n{\"op\":\"render\"}\n".to_string(),
                Some(3)
            )
        );
    }
}
