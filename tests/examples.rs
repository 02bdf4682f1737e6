//! `examples/agent_loop.rs`, run as a test: its `run` is compiled into this
//! test (the example binary's `main` only picks the paths), so the test
//! needs no second build and no path to an example binary.

#[allow(dead_code)]
#[path = "../examples/agent_loop.rs"]
mod agent_loop;

use std::path::Path;

const SHIPPED: &str = "corpora/recorded/agent_loop.jsonl";

#[test]
fn agent_loop_runs_records_and_replays_identically() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let session = dir.path().join("agent_loop.jsonl");
    let mut out = Vec::new();
    if let Err(error) = agent_loop::run(&root.join("examples"), &session, &mut out) {
        panic!("the example failed: {error}");
    }
    let out = String::from_utf8(out).expect("UTF-8");

    for line in [
        "toolu_03 call {\"args\":{\"branch\":\"fix-retry\",\"owner\":\"acme\",\"repo\":\"api\",\"title\":\"Fix the retry loop\"},\"name\":\"github__create_pull_request\"}\n  model is told: refused E_INVALID_ARGS call.misfit: args for \"github__create_pull_request\" do not fit its input schema: missing required \"head\"; missing required \"base\"\n",
        "  host executes: github__create_pull_request {\"base\":\"main\",\"head\":\"fix-retry\",\"owner\":\"acme\",\"repo\":\"api\",\"title\":\"Fix the retry loop\"}\n",
        "toolu_05 fs__read_text_file {\"path\":\"CHANGELOG.md\"}\n  model is told: refused E_INVALID_ARGS call.not_offered: \"fs__read_text_file\" is dormant; run it through call\n",
        "toolu_06 read {\"path\":\"release-checklist\"}\n  read serves the skill: skill release-checklist lives at skills/release-checklist/SKILL.md\n",
        "toolu_07 exec {\"command\":\"cargo test\"}\n  model is told: refused E_GATE_DENIED gate.mode: \"exec\" does not run in chat mode\n(host) policy: mode is now work\ntoolu_08 exec {\"command\":\"cargo test\"}\n  host executes: exec {\"command\":\"cargo test\"}\n",
        "\n== the Anthropic request's tools (1003 bytes)\n[{\"description\":\"Read a workspace file, or a skill card by its name.\"",
        "\n== its system segment (1027 bytes)\n## Capabilities\nmode: chat\nDormant (describe a name for its guide; call runs a tool):\n",
        "replayed with the library: 12 answers and requests, every byte identical\n",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }

    // The recording is shipped as a corpus session, so `disclose check`
    // replays it against its golden on every run.
    let recorded = std::fs::read(&session).expect("the session was written");
    let shipped = std::fs::read(root.join(SHIPPED)).expect("the shipped recording");
    assert!(
        recorded == shipped,
        "the example's recording differs from {SHIPPED}; if the change is meant, run\n  cargo run --example agent_loop -- {SHIPPED}\nand bless its golden"
    );
}
