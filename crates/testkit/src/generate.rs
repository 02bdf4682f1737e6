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
    use disclose::Mode;
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

    /// Drawn sessions name every provider (and none), and write
    /// effect and approval words absent, as the class, and unknown — the
    /// words SPEC §1 fails closed — not only the mapped ones.
    #[test]
    fn drawn_sessions_name_providers_and_spell_words_as_declared() {
        let texts: Vec<String> = (0..2000)
            .map(|seed| draw::session_plan(&mut draw::Rng::new(seed)).to_text())
            .collect();
        let seen = |needle: &str| texts.iter().any(|t| t.contains(needle));
        for needle in [
            "{\"op\":\"tool_defs\"}",
            "\"provider\":\"anthropic\"",
            "\"provider\":\"openai_chat\"",
            "\"provider\":\"openai_responses\"",
            "\"effect\":\"Read\"",
            "\"effect\":\"write\"",
            "\"effect\":\"\"",
            "\"effect\":\"irreversible\"",
            "\"effect\":\"read\"",
            "\"approval\":\"Never\"",
            "\"approval\":\"sometimes\"",
            "\"approval\":\"never\"",
        ] {
            assert!(seen(needle), "no drawn session holds {needle}");
        }
        let tool_lines = texts
            .iter()
            .flat_map(|t| t.lines())
            .filter(|l| l.contains("\"op\":\"tool\""));
        let (mut no_effect, mut no_approval) = (0, 0);
        for line in tool_lines {
            no_effect += usize::from(!line.contains("\"effect\":"));
            no_approval += usize::from(!line.contains("\"approval\":"));
        }
        assert!(no_effect > 0 && no_approval > 0);
        // A plan with spelling 0 writes the mapped words only.
        let mut plan = draw::session_plan(&mut draw::Rng::new(3));
        plan.spelling = 0;
        assert!(
            plan.to_text()
                .lines()
                .filter(|l| l.contains("\"op\":\"tool\""))
                .all(|l| l.contains("\"effect\":") && l.contains("\"approval\":"))
        );
    }

    /// What a shrink step may only lower: counts, switches, text lengths.
    fn measure(plan: &SessionPlan) -> Vec<usize> {
        let decls = || plan.decls.iter();
        vec![
            plan.requests.len(),
            plan.decls.len(),
            decls()
                .map(|d| match d {
                    Decl::Bulk { count, .. } => *count,
                    _ => 0,
                })
                .sum(),
            usize::from(plan.dev.is_some()),
            usize::from(plan.profile.is_some()),
            usize::from(plan.fault.is_some()),
            usize::from(plan.layout.crlf || plan.layout.blank_after.is_some() || !plan.layout.final_newline),
            usize::from(plan.spelling != 0),
            usize::from(plan.shuffle != 0),
            decls()
                .map(|d| d.clone().text_mut().map_or(0, |t| t.chars().count()))
                .sum(),
            plan.requests
                .iter()
                .filter(|r| matches!(r, Request::Call(c) if matches!(&c.args, ArgsPlan::Given(a) if *a != json!({}))))
                .count(),
        ]
    }

    /// Every shrink candidate lowers at least one part of the measure and
    /// raises none, so the descent ends.
    #[test]
    fn every_shrink_candidate_is_smaller_somewhere_and_larger_nowhere() {
        for seed in 0..300 {
            let plan = draw::session_plan(&mut draw::Rng::new(seed));
            let before = measure(&plan);
            for candidate in plan.shrunk() {
                let after = measure(&candidate);
                assert!(
                    after.iter().zip(&before).all(|(a, b)| a <= b) && after != before,
                    "seed {seed}: {before:?} -> {after:?}"
                );
            }
        }
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
