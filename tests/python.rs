//! The Python package (`bindings/python`) end to end, from `cargo test`:
//! `script/python-install` builds the wheel with maturin and installs it
//! with the pinned test tools (a failed install fails the test, it never
//! skips it); then pytest, stubtest, mypy `--strict`, a fresh venv whose
//! `disclose check` runs with no cargo on `PATH`, and `check --impl`
//! through the package's conformance adapter.
//!
//! Unix only: `script/python-install` is a bash script, and a venv keeps its programs in `bin/`.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn dest() -> PathBuf {
    std::env::var_os("DISCLOSE_PYTHON_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/python"))
}

/// The test venv's `bin`, with the wheel installed (once per process).
fn venv_bin() -> &'static Path {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let output = Command::new("bash")
            .arg(root().join("script/python-install"))
            .output()
            .expect("cannot run script/python-install");
        assert!(
            output.status.success(),
            "script/python-install failed ({}); the Python tests need it:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        dest().join("venv/bin")
    })
}

/// `program` from the venv, with the venv first on `PATH` and the Rust
/// binary to compare with in `DISCLOSE_BIN`.
fn venv(program: &str) -> Command {
    let bin = venv_bin();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let mut command = Command::new(bin.join(program));
    command
        .current_dir(root())
        .env("PATH", path)
        .env("DISCLOSE_BIN", env!("CARGO_BIN_EXE_disclose"))
        .env_remove("VIRTUAL_ENV");
    command
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

#[test]
fn pytest_passes() {
    let output = venv("python")
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "bindings/python/tests",
        ])
        .output()
        .expect("pytest runs");
    let text = passed("pytest", output);
    assert!(text.contains(" passed"), "{text}");
}

#[test]
fn the_stubs_match_the_compiled_module() {
    let output = venv("python")
        .args(["-m", "mypy.stubtest", "disclose"])
        .current_dir(dest())
        .output()
        .expect("stubtest runs");
    passed("stubtest", output);
}

#[test]
fn the_examples_and_package_type_check_strictly() {
    let output = venv("python")
        .args([
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "bindings/python/examples",
        ])
        .output()
        .expect("mypy runs");
    passed("mypy --strict", output);
}

#[test]
fn check_through_the_python_adapter_passes_every_case() {
    let python = venv_bin().join("python");
    let output = Command::new(env!("CARGO_BIN_EXE_disclose"))
        .current_dir(root())
        .args(["check", "--impl"])
        .arg(format!("{} -m disclose.conformance", python.display()))
        .output()
        .expect("check --impl runs");
    let text = passed("check --impl (python)", output);
    assert!(
        text.contains("disclose (Python): 150 passed, 0 failed"),
        "{text}"
    );
}

/// `pip install` of the wheel into a fresh venv gives a `disclose` that
/// checks the shipped corpus with no cargo anywhere on `PATH`.
#[test]
fn a_fresh_venv_checks_without_cargo() {
    venv_bin();
    let fresh = dest().join("fresh");
    let _ = std::fs::remove_dir_all(&fresh);
    passed(
        "python3 -m venv",
        Command::new("python3")
            .arg("-m")
            .arg("venv")
            .arg(&fresh)
            .output()
            .expect("venv"),
    );
    let wheel = std::fs::read_dir(dest().join("wheels"))
        .expect("the wheel folder")
        .map(|entry| entry.expect("an entry").path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .expect("a wheel");
    passed(
        "pip install the wheel",
        Command::new(fresh.join("bin/python"))
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--disable-pip-version-check",
            ])
            .arg(&wheel)
            .output()
            .expect("pip runs"),
    );
    let output = Command::new(fresh.join("bin/disclose"))
        .arg("check")
        .current_dir(root())
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", fresh.join("bin").display()),
        )
        .env_remove("CARGO")
        .output()
        .expect("disclose check runs");
    let text = passed("the wheel's disclose check", output);
    assert!(text.contains("151 passed, 0 failed"), "{text}");
    let import = Command::new(fresh.join("bin/python"))
        .args(["-c", "import disclose; print(disclose.CONTRACT_VERSION)"])
        .output()
        .expect("python runs");
    assert_eq!(passed("import disclose", import).trim(), "5");
}
