//! The `disclose` CLI: glue between the library and files, terminals and
//! exit codes. Parsing arguments is one stage (clap, validation only); each
//! command then runs on a resolved config and returns an [`cli::Exit`].
//!
//! Exit status, stable and documented: 0 pass, 1 failure (a golden mismatch,
//! a broken invariant, a malformed session, a difference), 2 usage or I/O.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::args::Cli::try_parse() {
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
