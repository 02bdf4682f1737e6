//! The `disclose` command as a library: [`main`] parses a command line and
//! runs it, returning the documented exit status. The binary
//! (`src/main.rs`) is this plus its allocator; the Python package runs the
//! same function in process, so that `pip install disclose` gives the same
//! command, byte for byte and status for status (ARCHITECTURE.md).
//!
//! Exit status, stable and documented: 0 pass, 1 failure (a golden mismatch,
//! a broken invariant, a malformed session, a difference), 2 usage or I/O.

mod cli;

use std::ffi::OsString;
use std::sync::OnceLock;

use clap::{CommandFactory as _, FromArgMatches as _};

pub use cli::Exit;

/// What a command line asks for, as far as its host's settings go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `disclose fuzz`: judged by its speed alone.
    Fuzz,
    /// Every other command: judged by its peak memory as well.
    Other,
}

/// Parses `args` (the program name first, as `std::env::args_os` gives
/// them) and runs the command. `settle` is called once the line has
/// parsed, before the command runs: the binary sets its allocator there.
/// Hints that repeat the command (the bless command) name it as it was
/// invoked: `cargo run --release --` under cargo, otherwise argv[0]'s file
/// name (`disclose`, `disclose-catalog`).
pub fn main(args: impl IntoIterator<Item = OsString>, settle: impl FnOnce(Workload)) -> Exit {
    let args: Vec<OsString> = args.into_iter().collect();
    let invoked_as = cli::invocation::of_binary(args.first().map(OsString::as_os_str));
    run(args, &invoked_as, settle)
}

/// [`main`] for a host that runs the command in process (the Python and
/// npm packages), which knows how it was started: `args[0]` is not a path
/// but the command as a person types it to run it again (`disclose`,
/// `npx disclose-catalog`, `python -m disclose`), and hints and usage
/// lines repeat it as given.
pub fn host_main(args: impl IntoIterator<Item = OsString>, settle: impl FnOnce(Workload)) -> Exit {
    let args: Vec<OsString> = args.into_iter().collect();
    let invoked_as = args
        .first()
        .and_then(|words| words.to_str())
        .filter(|words| !words.is_empty())
        .unwrap_or("disclose")
        .to_string();
    run(args, &invoked_as, settle)
}

fn run(args: Vec<OsString>, invoked_as: &str, settle: impl FnOnce(Workload)) -> Exit {
    // `disclose --version` names the contract too (SPEC §17); clap takes a
    // `&'static str`, made once per process.
    static VERSION: OnceLock<String> = OnceLock::new();
    let version = VERSION.get_or_init(|| {
        format!(
            "{} (contract {})",
            env!("CARGO_PKG_VERSION"),
            disclose::CONTRACT_VERSION
        )
    });
    let parsed = cli::args::Cli::command()
        .version(version.as_str())
        .try_get_matches_from(args)
        .and_then(|matches| cli::args::Cli::from_arg_matches(&matches));
    let args = match parsed {
        Ok(args) => args,
        Err(error) => {
            let code = if error.use_stderr() {
                Exit::Usage
            } else {
                Exit::Pass
            };
            let _ = error.print();
            return code;
        }
    };
    settle(match args.command {
        cli::args::Command::Fuzz(_) => Workload::Fuzz,
        _ => Workload::Other,
    });
    match cli::run(args, invoked_as) {
        Ok(exit) => exit,
        Err(error) => {
            eprintln!("disclose: {error:#}");
            Exit::Usage
        }
    }
}
