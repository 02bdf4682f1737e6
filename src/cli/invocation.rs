//! How the command was invoked, in the words a person types to run it
//! again: what the bless hint starts with (`disclose`, `disclose-catalog`,
//! `cargo run --release --`, `npx disclose-catalog`, `python -m disclose`).
//!
//! The binary works it out here, from cargo's environment and argv[0]; a
//! host that runs the command in process (the Python and npm packages)
//! knows better how it was started and says so itself
//! ([`crate::host_main`]). Nothing here reads the command line's meaning.

use std::ffi::{OsStr, OsString};
use std::path::Path;

/// This package's name, as cargo sets `CARGO_PKG_NAME` for the process
/// `cargo run` starts.
const PACKAGE: &str = env!("CARGO_PKG_NAME");

/// What the hint says when argv[0] names nothing usable.
const COMMAND: &str = "disclose";

/// How this binary was invoked: `cargo run [--release | --profile P] --`
/// when cargo ran this package's binary, otherwise argv[0]'s file name.
pub fn of_binary(argv0: Option<&OsStr>) -> String {
    let exe = std::env::current_exe().ok();
    detect(argv0, |name| std::env::var_os(name), exe.as_deref())
}

/// [`of_binary`] over a given environment (`var`) and executable path.
///
/// Cargo sets `CARGO` and `CARGO_PKG_NAME` for what it runs (`cargo run`,
/// and the tests of `cargo test`, which run the binary the same way), and
/// puts the executable in a directory named after the profile (`debug` for
/// `dev`). Anything else was started by name or path: argv[0]'s file name,
/// without Windows' `.exe`, shell-quoted when it needs to be. The file name
/// rather than the path, because the hint is pasted into another machine's
/// checkout, where a CI runner's install directory means nothing.
fn detect(
    argv0: Option<&OsStr>,
    var: impl Fn(&str) -> Option<OsString>,
    exe: Option<&Path>,
) -> String {
    let by_cargo =
        var("CARGO").is_some() && var("CARGO_PKG_NAME").is_some_and(|name| name == PACKAGE);
    if by_cargo {
        let profile = exe
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .and_then(OsStr::to_str);
        return match profile {
            Some("release") => "cargo run --release --".to_string(),
            // A profile's name is letters, digits, `-` and `_` (cargo's
            // rule), so it needs no quoting.
            Some(profile) if profile != "debug" && is_profile_name(profile) => {
                format!("cargo run --profile {profile} --")
            }
            _ => "cargo run --".to_string(),
        };
    }
    let name = argv0
        .and_then(|argv0| Path::new(argv0).file_name())
        .and_then(OsStr::to_str)
        .map(strip_exe)
        .filter(|name| !name.is_empty())
        .unwrap_or(COMMAND);
    shlex::try_quote(name).map_or_else(|_| COMMAND.to_string(), |quoted| quoted.into_owned())
}

/// `name` without a final `.exe` (any case), as Windows names a program.
fn strip_exe(name: &str) -> &str {
    let cut = name.len().saturating_sub(4);
    match name.get(cut..) {
        Some(ext) if ext.eq_ignore_ascii_case(".exe") => &name[..cut],
        _ => name,
    }
}

/// Whether `name` can be a cargo profile's name.
fn is_profile_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `detect` with `vars` as the whole environment.
    fn detected(argv0: &str, vars: &[(&str, &str)], exe: &str) -> String {
        let var = |name: &str| {
            vars.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| OsString::from(value))
        };
        detect(Some(OsStr::new(argv0)), var, Some(Path::new(exe)))
    }

    const CARGO: [(&str, &str); 2] = [
        ("CARGO", "/home/me/.cargo/bin/cargo"),
        ("CARGO_PKG_NAME", PACKAGE),
    ];

    #[test]
    fn cargo_run_is_named_with_its_profile() {
        let run = |exe| detected("target/release/disclose", &CARGO, exe);
        assert_eq!(run("/w/target/release/disclose"), "cargo run --release --");
        assert_eq!(run("/w/target/debug/disclose"), "cargo run --");
        assert_eq!(
            run("/w/target/x86_64-unknown-linux-musl/gate/disclose"),
            "cargo run --profile gate --"
        );
    }

    #[test]
    fn cargo_running_another_package_is_not_cargo_run_of_this_one() {
        // An xtask run by cargo that starts an installed `disclose`.
        let vars = [("CARGO", "cargo"), ("CARGO_PKG_NAME", "xtask")];
        assert_eq!(
            detected("/usr/local/bin/disclose", &vars, "/usr/local/bin/disclose"),
            "disclose"
        );
        assert_eq!(
            detected(
                "disclose",
                &[("CARGO_PKG_NAME", PACKAGE)],
                "/x/release/disclose"
            ),
            "disclose",
            "CARGO_PKG_NAME alone is not cargo"
        );
    }

    #[test]
    fn otherwise_argv0s_file_name_is_the_command() {
        let installed = |argv0| detected(argv0, &[], "/opt/bin/x");
        assert_eq!(
            installed("/home/runner/.cache/disclose/bin/disclose"),
            "disclose"
        );
        assert_eq!(installed("disclose-catalog"), "disclose-catalog");
        assert_eq!(installed("disclose.EXE"), "disclose");
        assert_eq!(installed("./my disclose"), "'my disclose'");
        assert_eq!(installed(""), "disclose");
        assert_eq!(strip_exe("disclose.exe"), "disclose");
        assert_eq!(strip_exe(".exe"), "");
        assert_eq!(strip_exe("é"), "é");
    }
}
