//! The harness: everything that touches paths, files, terminals and exit
//! codes. It uses only the library's public API.

pub mod args;
pub mod check;
mod check_report_diff;
mod conformance;
mod corpus;
mod cost;
mod diff;
mod files;
mod format;
mod fuzz;
mod import;
pub mod invocation;
mod recall;
mod replay;
mod term;

use std::process::ExitCode;

use anyhow::Result;

use args::{Cli, Command};

/// The documented exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Everything passed.
    Pass = 0,
    /// A failure: mismatch, broken invariant, malformed session, difference.
    Fail = 1,
    /// A usage or I/O error.
    Usage = 2,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

/// Runs a parsed command line; `invoked_as` is how the command was
/// invoked, for the hints that repeat it ([`invocation`]).
pub fn run(cli: Cli, invoked_as: &str) -> Result<Exit> {
    match cli.command {
        Command::Check(args) => check::run(&args, invoked_as),
        Command::Diff(args) => diff::run(&args),
        Command::Fuzz(args) => fuzz::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Cost(args) => cost::run(&args),
        Command::Recall(args) => recall::run(&args),
        #[cfg(all(feature = "mcp", unix))]
        Command::Mcp(args) => Ok(match disclose_mcp::run(args) {
            0 => Exit::Pass,
            1 => Exit::Fail,
            _ => Exit::Usage,
        }),
        #[cfg(not(all(feature = "mcp", unix)))]
        Command::Mcp(_) => {
            eprintln!("{NO_GATEWAY}");
            Ok(Exit::Usage)
        }
        Command::Replay(args) => replay::run(&args),
        Command::Serve => conformance::serve::run(),
        Command::DiffReport(args) => check_report_diff::run(&args),
        Command::Vocab => {
            emit(&disclose::vocabulary_text())?;
            Ok(Exit::Pass)
        }
    }
}

/// What `disclose mcp` says in a build without the gateway: one built
/// without the feature, or one for a platform the gateway does not run on.
#[cfg(not(feature = "mcp"))]
const NO_GATEWAY: &str = "disclose: this build has no gateway: it was built without the cargo feature `mcp` (--no-default-features), which leaves `disclose mcp` out\n\
     hint: build it with the default features to have it: cargo install --locked --path .";
#[cfg(all(feature = "mcp", not(unix)))]
const NO_GATEWAY: &str = "disclose: this build has no gateway: `disclose mcp` needs Unix (it runs each server in a process group of its own and keeps tokens as files only its owner can read); every other command works here\n\
     hint: run the gateway on Linux or macOS, or on Windows under WSL";

/// Writes a human report to stdout, after the annotations of what failed
/// (`failures`) when they are asked for.
pub fn emit_report(
    human: &str,
    annotations: term::Annotations,
    failures: impl FnOnce() -> Vec<format::github::Annotation>,
) -> Result<()> {
    match annotations {
        term::Annotations::Github => emit(&format::github::stdout(&failures(), human)),
        term::Annotations::None => emit(human),
    }
}

/// Writes `text` to stdout. A closed pipe (`disclose replay x | head`) is
/// not an error: the reader has what it wanted.
pub fn emit(text: &str) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
