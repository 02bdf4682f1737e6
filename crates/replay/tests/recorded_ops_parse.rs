//! A recording is a session: every op line the library's recorder writes
//! (`disclose::record`) parses back to the same op.

use disclose::internals::record::{OpKind, header_line, op_line};
use disclose::{CarriedSkill, Mode, Profile, Provider, ShelfSkill, ToolCall, ToolDecl};
use disclose_replay::session::parse;
use serde_json::json;

#[test]
fn op_lines_parse_back_to_the_same_ops() {
    let decl = ToolDecl::new(
        "a",
        "t\n\"x\"",
        "D.",
        json!({"type": "object", "b": [1, 2.5]}),
    );
    let kinds = [
        OpKind::Tool {
            decl: decl.clone(),
            admitted: false,
        },
        OpKind::Tool {
            decl: decl.clone(),
            admitted: true,
        },
        OpKind::Skill(ShelfSkill {
            name: "s".into(),
            disclosure: "d".into(),
            address: "é".into(),
            hash: Some("h".into()),
            package: None,
        }),
        OpKind::CarriedSkill(CarriedSkill {
            name: "c".into(),
            disclosure: "d".into(),
            body: "b\u{7}".into(),
            hash: None,
            package: Some("p".into()),
        }),
        OpKind::Dev { text: "x".into() },
        OpKind::Start {
            mode: Mode::Work,
            profile: Some(Profile::Scout),
        },
        OpKind::Render,
        OpKind::ToolDefs {
            provider: Provider::OpenAiResponses,
        },
        OpKind::Describe { name: " q ".into() },
        OpKind::Call(ToolCall {
            id: "1".into(),
            name: "call".into(),
            args: json!([null, {"z": 1, "a": "\u{0}"}]),
        }),
        OpKind::SwitchMode { mode: Mode::Chat },
        OpKind::Expand { name: "s".into() },
        OpKind::Pins,
        OpKind::Digests,
    ];
    let mut text = header_line("about \"it\"");
    for kind in &kinds {
        text.push_str(&op_line(kind));
    }
    let session = parse(text.as_bytes()).expect("recorded lines parse");
    assert_eq!(session.about(), "about \"it\"");
    let parsed: Vec<&OpKind> = session.ops().iter().map(|op| &op.kind).collect();
    assert_eq!(parsed, kinds.iter().collect::<Vec<_>>());
    assert_eq!(
        op_line(&kinds[0]),
        "{\"op\":\"tool\",\"origin\":\"a\",\"name\":\"t\\n\\\"x\\\"\",\"description\":\"D.\",\"input_schema\":{\"b\":[1,2.5],\"type\":\"object\"},\"effect\":\"irreversible\",\"approval\":\"required\",\"admitted\":false}\n"
    );
}
