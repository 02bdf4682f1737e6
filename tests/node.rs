//! The npm package (`bindings/node`) end to end, from `cargo test`:
//! `script/node-install` builds the addon with napi-rs, packs it and
//! installs the tarballs (the main package and this machine's platform
//! package, as npm lays them out) into an empty project (a failed install
//! fails the test, it never skips it); then its `node --test` suite,
//! `check --impl` through the installed package's conformance adapter,
//! `npx disclose check` and `npx disclose-catalog check` with no cargo on
//! `PATH`, the installed layout, and the README's TypeScript examples
//! (the package's own and one per adapter) through `tsc --strict`, run as
//! written.
//!
//! Unix only: `script/node-install` is a bash script.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn dest() -> PathBuf {
    std::env::var_os("DISCLOSE_NODE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/node"))
}

/// The empty project with the packed package installed (once per process).
fn project() -> &'static Path {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let output = Command::new("bash")
            .arg(root().join("script/node-install"))
            .output()
            .expect("cannot run script/node-install");
        assert!(
            output.status.success(),
            "script/node-install failed ({}); the Node tests need it:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        dest().join("project")
    })
}

fn passed(what: &str, output: Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{text}",
        output.status
    );
    text
}

/// The directory holding `node`, to make a `PATH` with nothing else.
fn node_dir() -> PathBuf {
    let output = Command::new("node")
        .args(["-p", "process.execPath"])
        .output()
        .expect("node is not installed (20 or later)");
    let path = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
    path.parent().expect("node's directory").to_path_buf()
}

#[test]
fn node_test_suite_passes() {
    project();
    let output = Command::new("node")
        .args(["--test", "--test-reporter=dot"])
        .arg("test/")
        .current_dir(root().join("bindings/node"))
        .env("DISCLOSE_BIN", env!("CARGO_BIN_EXE_disclose"))
        .output()
        .expect("cannot run node");
    passed("node --test bindings/node/test/", output);
}

#[test]
fn the_corpus_passes_through_the_installed_package() {
    let adapter = project().join("node_modules/disclose-catalog/conformance.mjs");
    let output = Command::new(env!("CARGO_BIN_EXE_disclose"))
        .args(["check", "--impl"])
        .arg(format!("node {}", adapter.display()))
        .current_dir(root())
        .output()
        .expect("cannot run disclose");
    let text = passed("check --impl through the Node adapter", output);
    assert!(
        text.contains("disclose (Node): 150 passed, 0 failed"),
        "{text}"
    );
}

#[test]
fn npx_disclose_check_needs_no_cargo() {
    let bin = project().join("node_modules/.bin/disclose");
    let run = |program: &Path| {
        Command::new(program)
            .arg("check")
            .current_dir(root())
            .env("PATH", node_dir())
            .env_remove("CARGO")
            .output()
            .expect("cannot run disclose")
    };
    let rust = run(Path::new(env!("CARGO_BIN_EXE_disclose")));
    // The package's command under both its names (`npx disclose-catalog`
    // needs no `--package`).
    for name in ["disclose", "disclose-catalog"] {
        let node = run(&project().join("node_modules/.bin").join(name));
        let text = passed(&format!("npx {name} check"), node.clone());
        assert!(text.contains("151 passed, 0 failed"), "{text}");
        assert_eq!(node.status.code(), rust.status.code());
        assert_eq!(
            String::from_utf8_lossy(&node.stdout),
            String::from_utf8_lossy(&rust.stdout)
        );
    }
    for (args, code) in [
        (&["--version"][..], 0),
        (&["nope"][..], 2),
        (&["check", "/nonexistent"][..], 2),
    ] {
        let node = Command::new(&bin)
            .args(args)
            .env("PATH", node_dir())
            .output()
            .unwrap();
        let rust = Command::new(env!("CARGO_BIN_EXE_disclose"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(node.status.code(), Some(code), "{args:?}");
        assert_eq!(node.status.code(), rust.status.code(), "{args:?}");
        assert_eq!(node.stdout, rust.stdout, "{args:?}");
        assert_eq!(node.stderr, rust.stderr, "{args:?}");
    }
}

/// The main package carries no addon (its platform package does) and every
/// package ships the licences and the contract data's NOTICE.
#[test]
fn the_installed_packages_carry_the_licences_and_one_addon() {
    let modules = project().join("node_modules");
    let main = modules.join("disclose-catalog");
    let platform = modules.join("disclose-catalog-linux-x64-gnu");
    let addons = |dir: &Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("an installed package")
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".node"))
            .collect()
    };
    assert_eq!(addons(&main), Vec::<String>::new());
    assert_eq!(addons(&platform), ["disclose.linux-x64-gnu.node"]);
    for dir in [&main, &platform] {
        for (file, root_file) in [
            ("LICENSE-MIT", "LICENSE-MIT"),
            ("LICENSE-APACHE", "LICENSE-APACHE"),
            ("contract4/NOTICE", "crates/disclose/contract4/NOTICE"),
            (
                "contract4/LICENSE-Apache-2.0",
                "crates/disclose/contract4/LICENSE-Apache-2.0",
            ),
        ] {
            let shipped = std::fs::read(dir.join(file))
                .unwrap_or_else(|_| panic!("{} has no {file}", dir.display()));
            assert_eq!(
                shipped,
                std::fs::read(root().join(root_file)).unwrap(),
                "{file}"
            );
        }
    }
    let json = std::fs::read_to_string(platform.join("package.json")).unwrap();
    for field in [r#""os": ["#, r#""cpu": ["#, r#""libc": ["#] {
        assert!(json.contains(field), "{field} in {json}");
    }
}

/// The ```ts blocks of the README's "Use it from TypeScript", in order.
fn readme_examples() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme
        .split("## Use it from TypeScript")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("README has \"Use it from TypeScript\"");
    section
        .split("```ts\n")
        .skip(1)
        .map(|rest| format!("{}\n", rest.split("\n```").next().unwrap_or(rest)))
        .collect()
}

#[test]
fn the_readme_examples_type_check_strict_and_run() {
    let examples = readme_examples();
    // The package's own, then one per adapter (the AI SDK, LangChain.js),
    // each with what it prints.
    let expected = [
        "true true ran github__create_issue with {\"title\":\"Flaky\"}",
        "opened Flaky Opened it.",
        "opened Flaky Opened it.",
    ];
    assert_eq!(examples.len(), expected.len(), "{examples:?}");
    let work = project().join("readme");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("package.json"), "{\"type\":\"module\"}\n").unwrap();
    let files: Vec<String> = (1..=examples.len())
        .map(|n| format!("example{n}.ts"))
        .collect();
    for (file, example) in files.iter().zip(&examples) {
        std::fs::write(work.join(file), example).unwrap();
    }
    let tsc = root().join("bindings/node/node_modules/typescript/bin/tsc");
    let output = Command::new("node")
        .arg(tsc)
        .args([
            "--strict",
            "--module",
            "nodenext",
            "--target",
            "es2022",
            // What the frameworks' own types need: `Symbol.asyncDispose`
            // (LangChain.js), `HeadersInit` and `FileList` (the AI SDK).
            "--lib",
            "es2022,esnext.disposable,dom",
            "--skipLibCheck",
            "false",
        ])
        .args(&files)
        .current_dir(&work)
        .output()
        .expect("cannot run tsc");
    passed("tsc --strict on the README's examples", output);
    for (file, expected) in files.iter().zip(expected) {
        let output = Command::new("node")
            .arg(file.replace(".ts", ".js"))
            .current_dir(&work)
            .output()
            .expect("cannot run node");
        let text = passed(&format!("the README's {file}"), output);
        assert!(text.contains(expected), "{file}: {text}");
    }
    let session = std::fs::read_to_string(work.join("session.jsonl")).unwrap();
    assert!(session.contains("a first run"), "{session}");
}

#[test]
fn the_committed_bindings_are_what_napi_generates() {
    // script/node-install ran `napi build`, which writes them again.
    project();
    let output = Command::new("git")
        .args([
            "diff",
            "--exit-code",
            "--",
            "bindings/node/binding.js",
            "bindings/node/index.d.ts",
        ])
        .current_dir(root())
        .output()
        .expect("cannot run git");
    passed(
        "the generated binding.js and index.d.ts, against the committed ones (commit what napi build wrote)",
        output,
    );
}
