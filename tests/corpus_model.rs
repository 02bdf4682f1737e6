//! Every shipped session, and so every blessed `describe` answer, agrees
//! with the fuzzer's reference model of SPEC §4–§5 (`disclose_testkit::model`,
//! written apart from the library): a golden blessed from a wrong ranking
//! fails here, not only against itself.

use disclose_testkit::fuzzing::{Expect, check_text};

#[test]
fn every_corpus_session_agrees_with_the_reference_model() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut stack = vec![root];
    let mut sessions = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("corpora/ reads") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                sessions.push(path);
            }
        }
    }
    sessions.sort();
    let mut ranked = 0;
    let mut failures = Vec::new();
    for path in &sessions {
        let text = std::fs::read_to_string(path).expect("a session reads");
        // Malformed sessions are pinned by their goldens; the model speaks
        // about well-formed ones.
        if disclose_replay::session::parse(text.as_bytes()).is_err() {
            continue;
        }
        match check_text(&text, Expect::WellFormed, 1) {
            Ok(tally) => ranked += tally.ranked,
            Err(finding) => failures.push(format!("{}: {finding:?}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        sessions.len() > 100 && ranked > 80,
        "{} sessions, {ranked} ranked answers",
        sessions.len()
    );
}
