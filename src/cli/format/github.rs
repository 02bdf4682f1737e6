//! GitHub Actions' workflow commands on stdout, as the reports of `check`
//! and `check --impl` write them (`--annotations github`): one
//! `::error file=F,line=L,col=C,title=T::message` a failing case, escaped as
//! GitHub's toolkit escapes them; the file placed relative to the
//! workspace, where GitHub looks for it; at most [`ERRORS_SHOWN`] of them,
//! as GitHub shows no more a step; and the human report after them with
//! command processing stopped, so that no text of a session, a golden or
//! an implementation in it is read as a command.
//!
//! It decides nothing: the reports say what each annotation is about, and
//! `term` decides whether there are any.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// GitHub shows this many error annotations a step, and drops the rest.
pub const ERRORS_SHOWN: usize = 10;

/// An annotation's message is kept within this many bytes (whole lines,
/// and a note of what was left out: the log has it all).
const MESSAGE_MAX: usize = 4096;

/// One failing case, placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    /// The file, as the report names it (placed by [`Workspace::place`]).
    pub file: String,
    /// Its 1-based line, when the failure is about one.
    pub line: Option<usize>,
    /// Its 1-based column, when known.
    pub column: Option<usize>,
    /// The title, one line.
    pub title: String,
    /// The message, any number of lines.
    pub message: String,
}

/// Where files are, for GitHub: its workspace (`GITHUB_WORKSPACE`), and the
/// directory the paths of a report are relative to.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    root: Option<PathBuf>,
    cwd: Option<PathBuf>,
}

impl Workspace {
    /// This process's: `GITHUB_WORKSPACE` and the current directory.
    pub fn from_env() -> Workspace {
        Workspace {
            root: std::env::var_os("GITHUB_WORKSPACE")
                .filter(|root| !root.is_empty())
                .map(PathBuf::from),
            cwd: std::env::current_dir().ok(),
        }
    }

    /// `path` relative to the workspace, with `/` between its parts, when it
    /// lies inside it (GitHub places an annotation by a path from the
    /// repository's root, whichever directory `check` ran in); otherwise as
    /// given.
    pub fn place(&self, path: &str) -> String {
        let (Some(root), Some(cwd)) = (&self.root, &self.cwd) else {
            return path.to_string();
        };
        let full = lexical(&cwd.join(path));
        let inside = |root: &Path| {
            full.strip_prefix(lexical(root)).ok().map(|rel| {
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/")
            })
        };
        inside(root)
            // A workspace named through a link: the current directory is
            // always the resolved one.
            .or_else(|| inside(&std::fs::canonicalize(root).ok()?))
            .filter(|rel| !rel.is_empty())
            .unwrap_or_else(|| path.to_string())
    }
}

/// `path` with `.` dropped and each `..` taking its parent away, without
/// asking the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The annotations as workflow commands, in order: the first
/// [`ERRORS_SHOWN`], then a notice saying how many more there are.
pub fn commands(annotations: &[Annotation], workspace: &Workspace) -> String {
    let mut out = String::new();
    for annotation in annotations.iter().take(ERRORS_SHOWN) {
        let _ = write!(
            out,
            "::error file={}",
            property(&workspace.place(&annotation.file))
        );
        if let Some(line) = annotation.line {
            let _ = write!(out, ",line={line}");
        }
        if let Some(column) = annotation.column {
            let _ = write!(out, ",col={column}");
        }
        let _ = writeln!(
            out,
            ",title={}::{}",
            property(&annotation.title),
            data(&within(&annotation.message, MESSAGE_MAX))
        );
    }
    let more = annotations.len().saturating_sub(ERRORS_SHOWN);
    if more > 0 {
        let _ = writeln!(
            out,
            "::notice title={}::{}",
            property("disclose: more failures"),
            data(&format!(
                "{more} more failing cases are not annotated (GitHub shows {ERRORS_SHOWN} error annotations a step); the log lists every one"
            ))
        );
    }
    out
}

/// What stdout carries under `--annotations github`: the annotations, then
/// the human report `human`, [`guarded`].
pub fn stdout(annotations: &[Annotation], human: &str) -> String {
    let mut out = commands(annotations, &Workspace::from_env());
    out.push_str(&guarded(human));
    out
}

/// `report` (a human report, its closing line last) as stdout carries it
/// after annotations: workflow commands stopped from its first line until
/// just before its closing line, which stays the last line printed (SPEC
/// §14). The token that resumes them is the report's own BLAKE3 digest,
/// which no text inside it can hold.
pub fn guarded(report: &str) -> String {
    let body_end = report
        .trim_end_matches('\n')
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let (body, closing) = report.split_at(body_end);
    let token = blake3::hash(report.as_bytes()).to_hex();
    format!("::stop-commands::{token}\n{body}::{token}::\n{closing}")
}

/// A message as GitHub reads one: `%`, CR and LF escaped.
fn data(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c => out.push(c),
        }
    }
    out
}

/// A property's value as GitHub reads one: as [`data`], and `:` and `,`.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `text`'s whole lines within `max` bytes, then how many lines were left
/// out; a first line longer than `max` is cut at a character boundary.
fn within(text: &str, max: usize) -> String {
    let text = text.trim_end_matches('\n');
    if text.len() <= max {
        return text.to_string();
    }
    let mut out = String::new();
    let mut lines = text.lines();
    let mut left = 0;
    for line in lines.by_ref() {
        if out.len() + line.len() + 1 > max {
            if out.is_empty() {
                let mut cut = max.min(line.len());
                while !line.is_char_boundary(cut) {
                    cut -= 1;
                }
                out.push_str(&line[..cut]);
                out.push_str("…\n");
            } else {
                left += 1;
            }
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    left += lines.count();
    if left > 0 {
        let _ = write!(out, "… {left} more lines in the log");
    }
    out.trim_end_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(file: &str, line: Option<usize>, column: Option<usize>, message: &str) -> Annotation {
        Annotation {
            file: file.into(),
            line,
            column,
            title: "disclose check: a, b: c".into(),
            message: message.into(),
        }
    }

    #[test]
    fn properties_and_messages_are_escaped_as_githubs_toolkit_escapes_them() {
        let out = commands(
            &[one(
                "corpora/a,b:c%d.jsonl",
                Some(3),
                Some(7),
                "100% off\r\nline two: a, b\n",
            )],
            &Workspace::default(),
        );
        assert_eq!(
            out,
            "::error file=corpora/a%2Cb%3Ac%25d.jsonl,line=3,col=7,title=disclose check%3A a%2C b%3A c::100%25 off%0D%0Aline two: a, b\n"
        );
        let no_line = commands(&[one("f", None, None, "m")], &Workspace::default());
        assert_eq!(
            no_line,
            "::error file=f,title=disclose check%3A a%2C b%3A c::m\n"
        );
    }

    #[test]
    fn past_what_github_shows_a_notice_counts_the_rest() {
        let many: Vec<Annotation> = (1..=13)
            .map(|n| one(&format!("s{n}"), Some(n), None, "m"))
            .collect();
        let out = commands(&many, &Workspace::default());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), ERRORS_SHOWN + 1);
        assert!(lines[9].starts_with("::error file=s10,line=10,"), "{out}");
        assert_eq!(
            lines[10],
            "::notice title=disclose%3A more failures::3 more failing cases are not annotated (GitHub shows 10 error annotations a step); the log lists every one"
        );
    }

    #[test]
    fn a_file_is_placed_relative_to_the_workspace() {
        let at = |root: &str, cwd: &str, path: &str| {
            Workspace {
                root: Some(root.into()),
                cwd: Some(cwd.into()),
            }
            .place(path)
        };
        assert_eq!(at("/w", "/w/sub", "corpora/a.jsonl"), "sub/corpora/a.jsonl");
        assert_eq!(at("/w", "/w", "./corpora/../c/a.jsonl"), "c/a.jsonl");
        assert_eq!(
            at("/w", "/elsewhere", "/w/corpora/a.jsonl"),
            "corpora/a.jsonl"
        );
        assert_eq!(at("/w", "/elsewhere", "corpora/a.jsonl"), "corpora/a.jsonl");
        let outside = Workspace {
            root: None,
            cwd: Some("/w".into()),
        };
        assert_eq!(outside.place("corpora/a.jsonl"), "corpora/a.jsonl");
    }

    #[test]
    fn a_long_message_keeps_whole_lines_and_says_how_many_it_left_out() {
        let text = "first\nsecond\nthird\nfourth\n";
        assert_eq!(within(text, 100), "first\nsecond\nthird\nfourth");
        assert_eq!(within(text, 14), "first\nsecond\n… 2 more lines in the log");
        assert_eq!(within("ééé\nx", 3), "é…\n… 1 more lines in the log");
    }

    #[test]
    fn the_guarded_report_keeps_its_closing_line_last() {
        let report = "FAIL  a\n  ::error::injected\n\n0 passed, 1 failed\n";
        let token = blake3::hash(report.as_bytes()).to_hex();
        assert_eq!(
            guarded(report),
            format!(
                "::stop-commands::{token}\nFAIL  a\n  ::error::injected\n\n::{token}::\n0 passed, 1 failed\n"
            )
        );
    }
}
