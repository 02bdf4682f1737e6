//! The `provider` field of `tool_defs` through the binary: a misspelled
//! provider makes the session malformed (SPEC §11), reported as
//! `path:line:column: message`, never defaulted to `anthropic`.

mod common;

use common::{disclose, stderr, stdout};

const MISSPELLED: &str = "tests/fixtures/providers/misspelled_provider.jsonl";

const MESSAGE: &str = "4:19: field \"provider\" of op \"tool_defs\" must be \"anthropic\", \"openai_chat\", \"openai_responses\" or \"mcp\", not \"openai-chat\"";

#[test]
fn replay_reports_a_misspelled_provider_at_its_key() {
    let output = disclose(&["replay", MISSPELLED]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "", "no transcript for a malformed session");
    assert_eq!(stderr(&output), format!("{MISSPELLED}:{MESSAGE}\n"));
}

#[test]
fn check_counts_a_misspelled_provider_as_an_error() {
    let goldens = tempfile::tempdir().expect("a temporary directory");
    let golden = goldens.path().display().to_string();
    let output = disclose(&["check", "tests/fixtures/providers", "--golden", &golden]);
    assert_eq!(output.status.code(), Some(1));
    let out = stdout(&output);
    assert!(out.contains(&format!("{MISSPELLED}:{MESSAGE}\n")), "{out}");
    assert!(out.contains("ERROR misspelled_provider"), "{out}");
}
