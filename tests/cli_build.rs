//! The binary's two builds: with the gateway and the fuzzer's full
//! validator (the default, features `mcp` and `oracle`) and the gate alone
//! (`--no-default-features`). Each build runs the half that is its own;
//! `.ci/run` tests both. A build for Windows has no gateway either, even
//! with the default features (the gateway needs Unix): CI's Windows job
//! runs that half.

mod common;

use common::{disclose, stderr, stdout};

#[cfg(all(feature = "mcp", unix))]
#[test]
fn the_default_build_has_the_gateway() {
    let help = disclose(&["--help"]);
    assert!(stdout(&help).contains("\n  mcp "), "{}", stdout(&help));
    let mcp = disclose(&["mcp", "--help"]);
    assert_eq!(mcp.status.code(), Some(0), "{}", stderr(&mcp));
    assert!(stdout(&mcp).contains("--config <FILE>"), "{}", stdout(&mcp));
}

/// Every form of `disclose mcp` gets the same answer: no gateway here,
/// and how to build one; exit 2, nothing on stdout.
#[cfg(not(feature = "mcp"))]
#[test]
fn the_gate_alone_says_it_has_no_gateway() {
    says_it_has_no_gateway(
        "disclose: this build has no gateway: it was built without the cargo feature `mcp` (--no-default-features), which leaves `disclose mcp` out\n\
         hint: build it with the default features to have it: cargo install --locked --path .\n",
    );
}

/// On Windows the default build has no gateway either, and says why and
/// where to run it.
#[cfg(all(feature = "mcp", not(unix)))]
#[test]
fn a_build_for_windows_says_the_gateway_needs_unix() {
    says_it_has_no_gateway(
        "disclose: this build has no gateway: `disclose mcp` needs Unix (it runs each server in a process group of its own and keeps tokens as files only its owner can read); every other command works here\n\
         hint: run the gateway on Linux or macOS, or on Windows under WSL\n",
    );
}

#[cfg(not(all(feature = "mcp", unix)))]
fn says_it_has_no_gateway(said: &str) {
    for args in [
        &["mcp"][..],
        &["mcp", "--help"],
        &["mcp", "--config", "servers.json", "--listen", "127.0.0.1:0"],
    ] {
        let run = disclose(args);
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&run), said, "{args:?}");
        assert_eq!(stdout(&run), "", "{args:?}");
    }
    let help = stdout(&disclose(&["--help"]));
    assert!(help.contains("\n  mcp "), "{help}");
    assert!(help.contains("Not in this build"), "{help}");
}

/// `disclose fuzz` holds `fit` against the full validator, and counts the
/// args it compared.
#[cfg(feature = "oracle")]
#[test]
fn the_default_build_fuzzes_fit_against_a_full_validator() {
    let run = disclose(&["fuzz", "--cases", "300", "--seed", "3"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = stdout(&run);
    let compared = out
        .split(", ")
        .find_map(|part| part.strip_suffix(" args a full validator accepted (and so did fit)"))
        .and_then(|n| n.parse::<u64>().ok());
    assert!(compared.is_some_and(|n| n > 0), "{out}");
}

/// Without the validator, `disclose fuzz` runs every other check and says
/// which one it left out.
#[cfg(not(feature = "oracle"))]
#[test]
fn the_gate_alone_fuzzes_and_says_fit_is_not_held_against_a_validator() {
    let run = disclose(&["fuzz", "--cases", "300", "--seed", "3"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = stdout(&run);
    assert!(
        out.contains(", fit not held against a full validator (built without feature `oracle`), "),
        "{out}"
    );
    assert!(out.contains("checked 300 sessions: "), "{out}");
}
