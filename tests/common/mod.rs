//! What every end-to-end test of the binary needs: run `disclose` with
//! arguments and read its output. Each `tests/cli_*.rs` uses part of it.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the built `disclose` with `args`, outside CI and GitHub Actions (so
/// `CI` or `GITHUB_ACTIONS` set around `cargo test` changes nothing a test
/// asserts).
pub fn disclose(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_disclose"))
        .args(args)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
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

/// A finished `disclose` run, read as a test reads it.
pub struct Run(pub Output);

impl Run {
    /// The exit code (`None` when a signal ended it).
    pub fn code(&self) -> Option<i32> {
        self.0.status.code()
    }

    /// Standard output, as UTF-8.
    pub fn stdout(&self) -> String {
        stdout(&self.0)
    }

    /// Standard error, as UTF-8.
    pub fn stderr(&self) -> String {
        stderr(&self.0)
    }

    /// Standard output, then standard error.
    pub fn both(&self) -> String {
        format!("{}{}", self.stdout(), self.stderr())
    }

    /// The last line of standard output (empty when there is none).
    pub fn last_line(&self) -> String {
        self.stdout().lines().last().unwrap_or_default().to_string()
    }

    /// Whether standard output has exactly `line` as one of its lines.
    pub fn has_line(&self, line: &str) -> bool {
        self.stdout().lines().any(|l| l == line)
    }
}
