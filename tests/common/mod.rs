//! What every end-to-end test of the binary needs: run `disclose` with
//! arguments and read its output. Each `tests/cli_*.rs` uses part of it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the built `disclose` with `args`, outside CI (so `CI` set around
/// `cargo test` changes nothing a test asserts).
pub fn disclose(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_disclose"))
        .args(args)
        .env_remove("CI")
        .output()
        .expect("the binary runs")
}

/// Its standard output, as UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Its standard error, as UTF-8.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// Writes `text` to `root/rel`, creating the directories on the way, and
/// gives the file's path as an argument for `disclose`.
pub fn write(root: &std::path::Path, rel: &str, text: &str) -> String {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a file has a parent"))
        .expect("the directories are created");
    std::fs::write(&path, text).expect("the file is written");
    path.display().to_string()
}
