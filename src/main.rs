//! The `disclose` CLI: glue between the library and files, terminals and
//! exit codes. Parsing arguments is one stage (clap, validation only); each
//! command then runs on a resolved config and returns an [`cli::Exit`].
//!
//! Exit status, stable and documented: 0 pass, 1 failure (a golden mismatch,
//! a broken invariant, a malformed session, a difference), 2 usage or I/O.

mod cli;

// The harness allocates and frees many small values per op (parsed lines,
// transcript blocks, refusals); mimalloc keeps them off glibc's slower
// paths (docs/decisions.md, "The `disclose` binary allocates with
// mimalloc"). The library leaves the choice to its embedder.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _};

fn main() -> ExitCode {
    // `disclose --version` names the contract too (SPEC §17).
    let version = format!(
        "{} (contract {})",
        env!("CARGO_PKG_VERSION"),
        disclose::CONTRACT_VERSION
    );
    let parsed = cli::args::Cli::command()
        // Built once per process; clap takes a `&'static str`.
        .version(&*version.leak())
        .try_get_matches()
        .and_then(|matches| cli::args::Cli::from_arg_matches(&matches));
    let args = match parsed {
        Ok(args) => args,
        Err(error) => {
            let code = if error.use_stderr() {
                cli::Exit::Usage
            } else {
                cli::Exit::Pass
            };
            let _ = error.print();
            return code.into();
        }
    };
    match cli::run(args) {
        Ok(exit) => exit.into(),
        Err(error) => {
            eprintln!("disclose: {error:#}");
            cli::Exit::Usage.into()
        }
    }
}
