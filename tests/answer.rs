//! `Run::answer` through the public API: one entry point for every model
//! tool call, answering `describe` in the catalog and handing every other
//! passing call to the host resolved, fitted and gated.

use disclose::{
    Answer, Approval, Catalog, Effect, Mode, Profile, Refusal, Run, ToolCall, ToolDecl,
};
use serde_json::{Value, json};

fn call(name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: "toolu_01".into(),
        name: name.into(),
        args,
    }
}

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    let decls = [
        ToolDecl::new(
            "host",
            "read",
            "Read a file.",
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        )
        .with_effect(Effect::Read)
        .with_approval(Approval::Never),
        ToolDecl::new("host", "exec", "Run a command.", json!({"type": "object"})),
        ToolDecl::new(
            "github",
            "create_issue",
            "Open an issue. Needs a title.",
            json!({"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"], "additionalProperties": false}),
        ),
    ];
    for decl in &decls {
        assert!(catalog.admit_tool(decl).is_ok(), "{}", decl.name);
    }
    catalog
}

fn refused(answer: Answer) -> Refusal {
    match answer {
        Answer::Refused(refusal) => refusal,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn describe_is_answered_in_the_catalog_directly_or_through_call() {
    let run = catalog().start(Mode::Work);
    let guide = run.describe("github__create_issue").expect("an exact name");
    assert_eq!(
        run.answer(&call("describe", json!({"name": "github__create_issue"}))),
        Answer::Text(guide.clone())
    );
    assert_eq!(
        run.answer(&call(
            "call",
            json!({"name": "describe", "args": {"name": "github__create_issue"}})
        )),
        Answer::Text(guide.clone())
    );
    assert!(
        guide.starts_with("tool github__create_issue\nstanding: dormant;"),
        "{guide}"
    );
    let keywords = run.answer(&call("describe", json!({"name": "open an issue"})));
    // The ranked answer is the run's own `describe` (SPEC §5, held to the
    // spec by tests/ranking.rs), its best hit the tool that shares words.
    assert_eq!(keywords.text(), run.describe("open an issue").ok());
    assert!(
        keywords.text().is_some_and(|t| t.starts_with(
            "no capability is named \"open an issue\"; closest matches:\n- github__create_issue: Open an issue.\n"
        )),
        "{keywords:?}"
    );
    let empty = refused(run.answer(&call("describe", json!({"name": "  "}))));
    assert_eq!(empty.code(), "describe.query");
}

/// Args that do not fit `describe`'s own schema are `call.misfit`, as the
/// same args through `call` are: a vocabulary refusal, never a panic.
#[test]
fn describe_args_that_do_not_fit_its_schema_are_a_misfit() {
    let run = catalog().start(Mode::Chat);
    let schema = r#"{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"type":"object"}"#;
    for (args, violations) in [
        (json!({}), r#"missing required "name""#),
        (json!({"name": 3}), r#""name" is integer, expected string"#),
        (
            json!({"query": "x"}),
            r#"missing required "name"; unexpected "query""#,
        ),
        (json!(["name"]), "args is array, not an object"),
        (json!(null), "args is null, not an object"),
    ] {
        let refusal = refused(run.answer(&call("describe", args.clone())));
        assert_eq!(
            refusal.to_lines(),
            format!(
                "refused E_INVALID_ARGS call.misfit: args for \"describe\" do not fit its input schema: {violations}\nschema: {schema}\n"
            ),
            "{args}"
        );
        let through = run.answer(&call("call", json!({"name": "describe", "args": args})));
        assert_eq!(through, Answer::Refused(refusal));
    }
}

#[test]
fn other_calls_come_back_resolved_fitted_and_gated() {
    let run = catalog().start(Mode::Chat);
    // A resident tool called directly: passed through unchanged.
    let read = call("read", json!({"path": "src/lib.rs"}));
    assert_eq!(run.answer(&read), Answer::Run(read.clone()));
    // A dormant tool through `call`: routed, keeping the id.
    assert_eq!(
        run.answer(&call(
            "call",
            json!({"name": "github__create_issue", "args": {"title": "Bug"}})
        )),
        Answer::Run(call("github__create_issue", json!({"title": "Bug"})))
    );
    // The same tool with args that do not fit, or by its bare name.
    let misfit = refused(run.answer(&call(
        "call",
        json!({"name": "github__create_issue", "args": {"body": "x"}}),
    )));
    assert_eq!(
        misfit.to_string(),
        r#"args for "github__create_issue" do not fit its input schema: missing required "title"; unexpected "body""#
    );
    let bare = refused(run.answer(&call("github__create_issue", json!({"title": "Bug"}))));
    assert_eq!(
        bare.to_string(),
        r#""github__create_issue" is dormant; run it through call"#
    );
    // The gate, and a name nothing holds.
    assert_eq!(
        refused(run.answer(&call("exec", json!({})))).code(),
        "gate.mode"
    );
    assert_eq!(
        refused(run.answer(&call("create_issue", json!({})))).to_string(),
        r#"no admitted tool is named "create_issue"; nearest: github__create_issue, describe, read"#
    );
}

#[test]
fn a_child_is_answered_within_its_profile() {
    let run = catalog().start_child(Mode::Work, Profile::Scout);
    let refusal = refused(run.answer(&call(
        "call",
        json!({"name": "github__create_issue", "args": {"title": "Bug"}}),
    )));
    assert_eq!(refusal.code(), "approval.child_unattended");
    let guide = run.answer(&call("describe", json!({"name": "github__create_issue"})));
    let text = guide.text().unwrap_or_default();
    assert!(
        text.starts_with("no capability is named \"github__create_issue\"")
            && !text.contains("- github__create_issue:"),
        "a child's describe does not show what it is not offered: {text}"
    );
}

/// `answer` agrees with `call` on everything but `describe`.
#[test]
fn answer_agrees_with_the_door() {
    let run: Run = catalog().start(Mode::Work);
    for (name, args) in [
        ("read", json!({"path": "a"})),
        ("read", json!("not an object")),
        ("exec", json!({})),
        ("call", json!({"name": "call", "args": {}})),
        ("call", json!([1])),
        ("call", json!({"name": "nope", "args": {}})),
        ("nope", json!(null)),
    ] {
        let asked = call(name, args);
        let expected = match run.call(&asked) {
            Ok(routed) => Answer::Run(routed),
            Err(refusal) => Answer::Refused(refusal),
        };
        assert_eq!(run.answer(&asked), expected, "{name}");
    }
}

#[test]
fn a_refusal_is_a_std_error() {
    fn gated(run: &Run) -> Result<ToolCall, Box<dyn std::error::Error + Send + Sync>> {
        Ok(run.call(&call("exec", json!({})))?)
    }
    let run = catalog().start(Mode::Chat);
    let error = gated(&run).expect_err("exec is gated in chat");
    assert_eq!(error.to_string(), r#""exec" does not run in chat mode"#);
    assert!(error.downcast_ref::<Refusal>().is_some());
}
