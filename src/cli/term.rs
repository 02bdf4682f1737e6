//! The terminal, decided in one place for every command: whether this is a
//! CI run, whether failures are also printed as GitHub's annotations,
//! whether status words are coloured, and whether a progress bar is drawn.
//!
//! Annotations are printed under GitHub Actions (`GITHUB_ACTIONS=true`)
//! unless `--annotations none` says otherwise, and anywhere with
//! `--annotations github`.
//!
//! Colour needs stdout to be a terminal, `NO_COLOR` unset (or empty, per
//! no-color.org) and `CI` unset. A progress bar draws on stderr, needs
//! stderr to be a terminal and `CI` unset, and only appears when the caller
//! says the run is long enough to need one: short runs finish before it
//! would help.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressStyle};

/// Whether an environment variable is set to something (an empty value
/// counts as unset, as no-color.org says for `NO_COLOR`).
pub fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Whether this is a CI run: `CI` set to anything, even to nothing (SPEC
/// §14 says "set"; an empty `CI=` in a pipeline is still a pipeline).
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some()
}

/// Whether failures are also printed as CI annotations on stdout, and in
/// whose format (`check --annotations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Annotations {
    /// GitHub Actions' workflow commands (`::error file=…,line=…::…`): the
    /// default under GitHub Actions.
    Github,
    /// None: the default elsewhere.
    None,
}

impl Annotations {
    /// As asked; otherwise GitHub's under GitHub Actions, and none
    /// elsewhere.
    pub fn resolve(asked: Option<Annotations>) -> Annotations {
        asked.unwrap_or_else(|| {
            if std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| v == "true") {
                Annotations::Github
            } else {
                Annotations::None
            }
        })
    }
}

/// Whether a person is watching stderr: a terminal, outside CI.
fn watched() -> bool {
    std::io::stderr().is_terminal() && !in_ci()
}

/// How status words are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// ANSI red and green.
    Colour,
    /// No escapes.
    Plain,
}

impl Paint {
    /// Colour on a terminal outside CI unless `NO_COLOR` says otherwise.
    pub fn detect() -> Paint {
        if std::io::stdout().is_terminal() && !env_set("NO_COLOR") && !in_ci() {
            Paint::Colour
        } else {
            Paint::Plain
        }
    }

    /// `word` in green.
    pub fn good(self, word: &str) -> String {
        self.paint("32", word)
    }

    /// `word` in red.
    pub fn bad(self, word: &str) -> String {
        self.paint("31", word)
    }

    fn paint(self, colour: &str, word: &str) -> String {
        match self {
            Paint::Colour => format!("\x1b[{colour}m{word}\x1b[0m"),
            Paint::Plain => word.to_string(),
        }
    }
}

/// A progress bar on stderr, or nothing.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar counting `len` items of `unit` (`sessions`) when a person is
    /// watching stderr and `long` says the run needs one; otherwise nothing.
    pub fn bar(len: u64, unit: &str, long: bool) -> Progress {
        Progress::styled(
            long,
            || ProgressBar::new(len),
            &format!("{{bar:40}} {{pos}}/{{len}} {unit} {{elapsed}}"),
        )
    }

    /// A spinner counting items of `unit` with no known end (a timed run),
    /// under the same conditions as [`Progress::bar`].
    pub fn spinner(unit: &str, long: bool) -> Progress {
        Progress::styled(
            long,
            ProgressBar::new_spinner,
            &format!("{{spinner}} {{pos}} {unit} {{elapsed}}"),
        )
    }

    fn styled(long: bool, make: impl FnOnce() -> ProgressBar, template: &str) -> Progress {
        if !long || !watched() {
            return Progress(None);
        }
        let bar = make();
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// One more item done.
    pub fn step(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// `done` items done so far.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(done);
        }
    }

    /// Removes the bar before the report is printed.
    pub fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_wraps_status_words_only_when_asked() {
        assert_eq!(Paint::Plain.bad("FAIL"), "FAIL");
        assert_eq!(Paint::Colour.bad("FAIL"), "\x1b[31mFAIL\x1b[0m");
        assert_eq!(Paint::Colour.good("pass"), "\x1b[32mpass\x1b[0m");
    }
}
