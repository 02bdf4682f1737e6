//! `disclose-mcp`: the gateway alone, until the workspace split makes it
//! `disclose mcp` (the root binary then calls [`disclose_mcp::run`] from
//! one subcommand).

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let args = match disclose_mcp::Args::try_parse() {
        Ok(args) => args,
        Err(error) => {
            let code = if error.use_stderr() { 2 } else { 0 };
            let _ = error.print();
            return ExitCode::from(code);
        }
    };
    ExitCode::from(disclose_mcp::run(args))
}
