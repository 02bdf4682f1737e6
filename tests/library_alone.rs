//! The library alone: a scratch crate outside the repository that depends on
//! `disclose-catalog` (the library's registry name), with its defaults, has none of the harness's crates
//! in its tree (docs/decisions.md, "The library an embedder adds is its own
//! crate"). Runs `cargo tree` offline, pinned by a copy of the repository's
//! `Cargo.lock`, so it needs no network and builds nothing; `.ci/run` builds,
//! lints and tests the library alone (`-p disclose-catalog`).

use std::path::Path;
use std::process::Command;

/// Crates only the harness (the `disclose` binary), the test kit or the
/// gateway (`disclose-mcp`: the async stack) may bring. `jsonschema` is the
/// reference implementation of SPEC §2 check 6, which the library checks
/// itself: the fuzzer holds `fit` against it (feature `oracle`).
const HARNESS_ONLY: [&str; 12] = [
    "anyhow",
    "clap",
    "hyper",
    "indicatif",
    "jsonschema",
    "proptest",
    "quick-junit",
    "rayon",
    "rmcp",
    "similar",
    "tokio",
    "walkdir",
];

/// The gateway's async stack (feature `mcp`) and the fuzzer's full
/// validator (feature `oracle`): in the binary's default build, never in
/// the gate alone (`--no-default-features`).
const NOT_IN_THE_GATE: [&str; 6] = ["hyper", "jsonschema", "reqwest", "rmcp", "rustls", "tokio"];

/// `cargo tree -e normal` of a scratch crate depending on the workspace's
/// crate in `folder` as `name` (its default features, unless `defaults` is
/// false): one `name version` per distinct crate, sorted.
fn scratch_tree(name: &str, folder: &str, defaults: bool, extra: &[&str]) -> Vec<String> {
    let repo = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let manifest = format!(
        "[package]\nname = \"scratch\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{name} = {{ path = {path:?}, default-features = {defaults} }}\n\n[workspace]\n",
        path = Path::new(repo).join(folder)
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).expect("write the manifest");
    std::fs::create_dir(dir.path().join("src")).expect("create src");
    std::fs::write(dir.path().join("src/lib.rs"), "").expect("write src/lib.rs");
    std::fs::copy(
        Path::new(repo).join("Cargo.lock"),
        dir.path().join("Cargo.lock"),
    )
    .expect("copy Cargo.lock");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["tree", "-e", "normal", "--prefix", "none", "--offline"])
        .args(extra)
        .current_dir(dir.path())
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut crates: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            Some(format!("{} {}", words.next()?, words.next()?))
        })
        .filter(|id| !id.starts_with("scratch "))
        .collect();
    crates.sort();
    crates.dedup();
    crates
}

fn names(crates: &[String]) -> Vec<&str> {
    crates
        .iter()
        .filter_map(|id| id.split(' ').next())
        .collect()
}

#[test]
fn the_library_alone_brings_no_harness_crate() {
    let alone = scratch_tree("disclose-catalog", "crates/disclose", true, &[]);
    let alone_names = names(&alone);
    for harness in HARNESS_ONLY {
        assert!(
            !alone_names.contains(&harness),
            "{harness} is in the library's tree: {alone:#?}"
        );
    }
    let direct = scratch_tree(
        "disclose-catalog",
        "crates/disclose",
        true,
        &["--depth", "2"],
    );
    let mut direct: Vec<&str> = names(&direct)
        .into_iter()
        .filter(|name| !["disclose-catalog", "scratch"].contains(name))
        .collect();
    direct.sort_unstable();
    direct.dedup();
    // Depth 2 from the scratch crate is disclose's own dependencies:
    // rapidfuzz is `call.unknown`'s edit distance, foldhash the hasher of
    // the tables that are only looked up (src/lookup.rs), zmij the
    // canonical writer's float formatting,
    // multiversion the search's two vector loops compiled for AVX2 and
    // SSE4.1 beside the baseline (docs/decisions.md).
    assert_eq!(
        direct,
        [
            "blake3",
            "foldhash",
            "multiversion",
            "rapidfuzz",
            "serde_json",
            "zmij"
        ]
    );

    // The same check sees the harness's crates where they are, so it can
    // fail: the binary's package brings every one of them.
    let whole = scratch_tree("disclose-cli", ".", true, &[]);
    let whole_names = names(&whole);
    for harness in HARNESS_ONLY {
        assert!(
            whole_names.contains(&harness),
            "{harness} is not in the harness's tree"
        );
    }
    assert!(alone.len() < whole.len());
}

/// `disclose-replay`, which a runtime replaying its own recordings adds,
/// validates nothing against a schema: `jsonschema` is only its tests'.
#[test]
fn the_replay_core_brings_no_validator() {
    let replay = scratch_tree("disclose-replay", "crates/replay", true, &[]);
    let replay_names = names(&replay);
    assert!(replay_names.contains(&"disclose-catalog") && replay_names.contains(&"similar"));
    assert!(
        !replay_names.contains(&"jsonschema"),
        "jsonschema is in disclose-replay's tree: {replay:#?}"
    );
}

#[test]
fn the_gate_alone_brings_no_gateway_crate_and_no_validator() {
    let gate = scratch_tree("disclose-cli", ".", false, &[]);
    let gate_names = names(&gate);
    for left_out in NOT_IN_THE_GATE {
        assert!(
            !gate_names.contains(&left_out),
            "{left_out} is in the gate's tree: {gate:#?}"
        );
    }
    // It is still the harness (clap, rayon…), and the default build has
    // the whole stack, so the check can fail.
    assert!(gate_names.contains(&"clap") && gate_names.contains(&"rayon"));
    let whole = scratch_tree("disclose-cli", ".", true, &[]);
    let whole_names = names(&whole);
    for left_out in NOT_IN_THE_GATE {
        assert!(
            whole_names.contains(&left_out),
            "{left_out} is not in the default build's tree"
        );
    }
}
