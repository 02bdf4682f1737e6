//! `disclose check`: the CI gate (SPEC §13–§14). Replays every session of
//! the corpus, compares each transcript byte for byte with its golden,
//! checks invariants I1–I8, finds orphan goldens, compares the vocabulary,
//! and reports.
//!
//! Sessions run in parallel (rayon); each is read, replayed once, compared
//! and checked, and only a small [`Case`] survives it, so memory stays flat
//! as the corpus grows while the report still lists cases in path order.
//! Blessing (`--bless` or `DISCLOSE_BLESS=1`) writes goldens and deletes
//! orphans, never for a malformed session and never when `CI` is set.

mod partition;
mod report;
mod session;
mod strays;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use super::conformance::runner::{self, MatrixConfig};
use super::corpus::{self, Corpus, SessionFile};
use super::files::{FileError, GoldenTree};
use super::format::markdown::Whole;
use super::format::{json, write_file};
use super::term::{self, Annotations, Paint, Progress};
use super::{Exit, emit_report};
use report::{Case, CaseFailure, CaseStatus, CheckReport, FailureKind};
use session::check_session;
use strays::{entry_case, orphan_case, strays, vocabulary_case};

pub use partition::Partition;

/// The vocabulary golden's name under the golden directory (SPEC §9).
const VOCABULARY: &str = "vocabulary";
const DEFAULT_CORPUS: &str = "corpora";
/// A run with more sessions than this shows a progress bar on a terminal.
const PROGRESS_OVER: usize = 300;
const DEFAULT_GOLDEN: &str = "golden";

/// `disclose check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The corpus directory.
    #[arg(default_value = DEFAULT_CORPUS)]
    pub dir: PathBuf,
    /// The golden directory.
    #[arg(long, default_value = DEFAULT_GOLDEN)]
    pub golden: PathBuf,
    /// Write goldens from the replays and delete orphans (also
    /// DISCLOSE_BLESS=1); ignored when CI is set.
    #[arg(long)]
    pub bless: bool,
    /// Write a JSON report to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write a JUnit XML report to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a Markdown summary (for a CI step summary) to FILE; with
    /// --impl, the matrix. Kept under GitHub's 1 MiB limit: past it, the
    /// last rows are left out, and it says where the whole report is.
    #[arg(long, visible_alias = "markdown", value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Also print each failing case on stdout as an annotation of its file
    /// and line: `github` (workflow commands; the default when
    /// GITHUB_ACTIONS=true) or `none`.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub annotations: Option<Annotations>,
    /// Check only this machine's share: `hash:K/N`, 1 <= K <= N.
    #[arg(long, value_name = "hash:K/N")]
    pub partition: Option<String>,
    /// Run the corpus through another implementation over the protocol of
    /// docs/protocol.md instead of this library: CMD is split like a shell
    /// would split it and run without one. Repeatable: a matrix.
    #[arg(long = "impl", value_name = "CMD", conflicts_with = "bless")]
    pub impls: Vec<String>,
    /// With --impl: the expectations (JSON Lines) of the n-th --impl, in
    /// the same order; one per --impl when given.
    #[arg(long, value_name = "FILE", requires = "impls")]
    pub expect: Vec<PathBuf>,
    /// With --impl: seconds one case (or the hello) may take [default: 10].
    #[arg(long, value_name = "SECONDS", requires = "impls")]
    pub timeout: Option<f64>,
    /// With --impl: check every message, both ways, against the protocol's
    /// JSON Schemas.
    #[arg(long, requires = "impls")]
    pub validate_protocol: bool,
}

/// What happens to goldens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goldens {
    /// Compared, never written.
    Compare,
    /// Written from the replays; orphans deleted.
    Bless,
}

/// The resolved command line.
struct Config {
    dir: PathBuf,
    golden: PathBuf,
    tree: GoldenTree,
    goldens: Goldens,
    partition: Option<Partition>,
    bless_command: String,
}

impl Config {
    fn resolve(args: &CheckArgs, invoked_as: &str) -> Result<Config> {
        let partition = partition(args)?;
        let asked = args.bless || bless_asked(std::env::var_os("DISCLOSE_BLESS").as_deref())?;
        let goldens = if asked && term::in_ci() {
            eprintln!(
                "disclose: CI is set, so blessing is ignored; checking without writing goldens"
            );
            Goldens::Compare
        } else if asked {
            Goldens::Bless
        } else {
            Goldens::Compare
        };
        Ok(Config {
            dir: args.dir.clone(),
            golden: args.golden.clone(),
            tree: GoldenTree::new(&args.golden),
            goldens,
            partition,
            bless_command: bless_command(invoked_as, args),
        })
    }

    fn holds(&self, name: &str) -> bool {
        self.partition.is_none_or(|p| p.holds(name))
    }

    /// Whether this share reports what belongs to no session (the
    /// vocabulary, entries of the trees, non-goldens kept).
    fn first_share(&self) -> bool {
        self.partition.is_none_or(|p| p.is_first())
    }
}

/// How a person blesses this corpus, printed with every failure blessing
/// resolves: the command as it was invoked, `check --bless`, and the corpus
/// and golden directories when they are not the defaults (shell-quoted).
/// Never `--partition`: blessing is for the whole corpus.
fn bless_command(invoked_as: &str, args: &CheckArgs) -> String {
    let mut command = format!("{invoked_as} check --bless");
    if args.dir != Path::new(DEFAULT_CORPUS) {
        command.push(' ');
        command.push_str(&shell_word(&args.dir));
    }
    if args.golden != Path::new(DEFAULT_GOLDEN) {
        command.push_str(" --golden ");
        command.push_str(&shell_word(&args.golden));
    }
    command
}

/// `DISCLOSE_BLESS`, read: unset, empty, `0`, `false`, `no` and `off` are
/// off; `1`, `true`, `yes` and `on` are on (ASCII case ignored); anything
/// else is a usage error rather than a guess either way.
fn bless_asked(value: Option<&std::ffi::OsStr>) -> Result<bool> {
    let Some(value) = value else {
        return Ok(false);
    };
    let word = value.to_string_lossy().to_ascii_lowercase();
    match word.as_str() {
        "" | "0" | "false" | "no" | "off" => Ok(false),
        "1" | "true" | "yes" | "on" => Ok(true),
        _ => bail!(
            "DISCLOSE_BLESS is {:?}: say 1, true, yes or on to bless, and 0, false, no, off or nothing not to",
            value.to_string_lossy()
        ),
    }
}

/// `--partition`, parsed.
fn partition(args: &CheckArgs) -> Result<Option<Partition>> {
    args.partition
        .as_deref()
        .map(Partition::parse)
        .transpose()
        .map_err(anyhow::Error::msg)
}

/// Runs `disclose check`; `invoked_as` is how the command was invoked,
/// for the bless command.
pub fn run(args: &CheckArgs, invoked_as: &str) -> Result<Exit> {
    if !args.impls.is_empty() {
        let partition = partition(args)?;
        return runner::run(&MatrixConfig {
            dir: &args.dir,
            golden: &args.golden,
            commands: &args.impls,
            expect: &args.expect,
            timeout: args.timeout,
            validate: args.validate_protocol,
            partition,
            json: args.json.as_deref(),
            junit: args.junit.as_deref(),
            markdown: args.summary.as_deref(),
            bless_command: &bless_command(invoked_as, args),
            annotations: Annotations::resolve(args.annotations),
        });
    }
    let config = Config::resolve(args, invoked_as)?;
    let Corpus { files, unreadable } = corpus::discover(&config.dir)?;
    if files.is_empty() && unreadable.is_empty() {
        // An empty corpus checks nothing; most likely the wrong directory.
        bail!(
            "no sessions (*.jsonl) under \"{}\"; an empty corpus checks nothing",
            config.dir.display()
        );
    }
    if config.golden.exists() && !config.golden.is_dir() {
        bail!(
            "golden directory \"{}\" is not a directory",
            config.golden.display()
        );
    }
    let names: BTreeSet<&str> = files.iter().map(SessionFile::name).collect();
    let strays = strays(&config, &names);
    let mine: Vec<&SessionFile> = files.iter().filter(|f| config.holds(f.name())).collect();

    let progress = Progress::bar(mine.len() as u64, "sessions", mine.len() > PROGRESS_OVER);
    // Room for every case at once: growing the list after the sessions
    // would copy it into one twice its size, at the run's peak (a case is
    // some 130 bytes, 2.5 MiB at 20,000 sessions).
    let others = unreadable.len() + strays.orphans.len() + strays.entries.len() + 1;
    let mut cases: Vec<Case> = Vec::with_capacity(mine.len() + others);
    cases.par_extend(mine.par_iter().map(|file| {
        let case = check_session(&config, file);
        progress.step();
        case
    }));
    progress.finish();

    if config.first_share() {
        for entry in &unreadable {
            cases.push(entry_case(
                entry.rel.clone(),
                entry.path.display().to_string(),
                entry.why.clone(),
            ));
        }
    }
    let mut deleted = Vec::new();
    for orphan in &strays.orphans {
        match orphan_case(&config, orphan) {
            Some(case) => cases.push(case),
            None => deleted.push(config.tree.shown(orphan).display().to_string()),
        }
    }
    cases.extend(strays.entries);
    if config.first_share() {
        cases.push(vocabulary_case(&config));
    }

    let report = CheckReport {
        cases,
        deleted,
        kept: strays.kept,
        bless_command: config.bless_command.clone(),
        corpus: config.dir.display().to_string(),
        golden: config.golden.display().to_string(),
        partition: config.partition.map(|p| p.to_string()),
    };
    let human = report.human(Paint::detect());
    emit_report(&human, Annotations::resolve(args.annotations), || {
        report.annotations()
    })?;
    let io_failures: Vec<&CaseFailure> = report
        .cases
        .iter()
        .flat_map(|c| &c.failures)
        .filter(|f| f.kind == FailureKind::Io)
        .collect();
    for failure in &io_failures {
        eprintln!("disclose: {}", failure.message);
    }
    write_reports(args, &report)?;
    Ok(if !io_failures.is_empty() {
        Exit::Usage
    } else if report.cases.iter().all(|c| c.status() == CaseStatus::Pass) {
        Exit::Pass
    } else {
        Exit::Fail
    })
}

/// Writes the requested report files, after the human report is out; the
/// first that cannot be written is an I/O error (exit 2).
fn write_reports(args: &CheckArgs, report: &CheckReport) -> Result<()> {
    if let Some(path) = &args.json {
        write_file(path, json::pretty(&report.json()).as_bytes())?;
    }
    if let Some(path) = &args.junit {
        let xml = report
            .junit()
            .context("failed to serialize the JUnit report")?;
        write_file(path, xml.as_bytes())?;
    }
    if let Some(path) = &args.summary {
        let whole = Whole {
            json: args.json.as_deref(),
            junit: args.junit.as_deref(),
        };
        write_file(path, report.summary(&whole).as_bytes())?;
    }
    Ok(())
}

fn no_golden(config: &Config, path: &Path) -> CaseFailure {
    CaseFailure::about_the_case(
        FailureKind::NoGolden,
        format!(
            "no golden \"{}\"; bless it with `{}`",
            path.display(),
            config.bless_command
        ),
    )
}

fn io_failure(error: &anyhow::Error) -> CaseFailure {
    CaseFailure::about_the_case(FailureKind::Io, format!("{error:#}"))
}

/// `failed to <doing> "<path>": <why>`.
fn file_failure(doing: &str, path: &Path, error: &FileError) -> CaseFailure {
    CaseFailure::about_the_case(
        FailureKind::Io,
        format!("failed to {doing} \"{}\": {error}", path.display()),
    )
}

/// `path` as one shell word (quoted only when it needs to be), for a
/// command a person can paste.
fn shell_word(path: &Path) -> String {
    let text = path.display().to_string();
    // A path cannot hold NUL, the one thing `shlex` refuses to quote.
    shlex::try_quote(&text).map_or(text.clone(), |quoted| quoted.into_owned())
}
