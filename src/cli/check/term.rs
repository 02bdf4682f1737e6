//! The terminal: colour for status words and a progress bar for long runs,
//! both only for a person at a terminal, never in CI.
//!
//! Colour needs stdout to be a terminal, `NO_COLOR` unset (or empty, per
//! no-color.org) and `CI` unset. The progress bar draws on stderr, needs
//! stderr to be a terminal and `CI` unset, and only appears for more than
//! [`PROGRESS_OVER`] cases: shorter runs finish before it would help.

use std::io::IsTerminal as _;

use indicatif::{ProgressBar, ProgressStyle};

/// A run with more cases than this shows a progress bar on a terminal.
pub const PROGRESS_OVER: usize = 300;

/// Whether an environment variable is set to something (an empty value
/// counts as unset, as no-color.org says for `NO_COLOR`).
pub fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// Whether this is a CI run (`CI` set).
pub fn in_ci() -> bool {
    env_set("CI")
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
    /// A bar for `len` cases when a person is watching stderr and the run is
    /// long enough; otherwise nothing.
    pub fn start(len: usize) -> Progress {
        if len <= PROGRESS_OVER || !std::io::stderr().is_terminal() || in_ci() {
            return Progress(None);
        }
        let bar = ProgressBar::new(u64::try_from(len).unwrap_or(u64::MAX));
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} sessions {elapsed}") {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    /// One more case done.
    pub fn step(&self) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
        }
    }

    /// Removes the bar before the report is printed.
    pub fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }
}
