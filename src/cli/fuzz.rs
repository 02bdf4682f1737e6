//! `disclose fuzz`: generate sessions from a seed, check SPEC §13 and the
//! rest of [`disclose_testkit::fuzzing`] on each, and write the first failure,
//! shrunk, as a corpus session.
//!
//! The driver is the library's; this module owns the clock (`--time`, the
//! throughput line), the terminal (a progress bar on stderr, only for a
//! person watching) and the file it writes. Everything on stdout except the
//! throughput line is a function of `--seed`, `--cases` and `--mutant`.
//! `--mutant` plants a broken rule in the library, which exists only in a
//! build with the `mutants` feature; any other build refuses the flag as a
//! usage error that says how to get one.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use disclose::vocabulary;
use disclose_testkit::fuzzing::{self, Failure, Fuzz, Tally};

use super::term::Progress;
use super::{Exit, emit};

/// `disclose fuzz`.
#[derive(Debug, clap::Args)]
pub struct FuzzArgs {
    /// Sessions to generate and check [default: 10000; no limit with --time]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub cases: Option<u64>,
    /// The seed; printed at start, so any run can be repeated [default: from the clock]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Stop after SECS seconds, whatever --cases says
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time: Option<u64>,
    /// Where the shrunk counterexample is written, as <DIR>/<check>_<seed>.jsonl
    #[arg(long, value_name = "DIR", default_value = "corpora/fuzz")]
    pub save: PathBuf,
    /// Plant a deliberately broken rule in the library for this run: the
    /// run must fail. Needs a build with `--features mutants` [possible
    /// values: marker-budget, integral-float, hint-cut, no-idf, no-stem,
    /// no-params, no-vectors, truncating-division, nondeterministic,
    /// no-cjk-split, cjk-vectors, unscaled-cosine, cjk-by-presence]
    #[arg(long, value_name = "NAME", value_parser = mutant_name)]
    pub mutant: Option<String>,
}

#[cfg(feature = "mutants")]
fn mutant_name(name: &str) -> Result<String, String> {
    use disclose_testkit::mutants::Mutant;
    match Mutant::named(name) {
        Some(_) => Ok(name.to_string()),
        None => Err(format!(
            "no mutant is named \"{name}\"; the mutants are {}",
            Mutant::ALL.map(Mutant::name).join(", ")
        )),
    }
}

#[cfg(not(feature = "mutants"))]
fn mutant_name(_: &str) -> Result<String, String> {
    Err(
        "this disclose was built without mutants; run `cargo run --features mutants -- fuzz --mutant NAME`"
            .to_string(),
    )
}

/// Runs `disclose fuzz`.
pub fn run(args: &FuzzArgs) -> Result<Exit> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let cases = match (args.cases, args.time) {
        (Some(cases), _) => cases,
        (None, Some(_)) => u64::MAX,
        (None, None) => fuzzing::DEFAULT_CASES,
    };
    #[cfg_attr(not(feature = "mutants"), allow(unused_mut))]
    let mut fuzz = Fuzz::new(seed, cases);
    #[cfg(feature = "mutants")]
    if let Some(mutant) =
        (args.mutant.as_deref()).and_then(disclose_testkit::mutants::Mutant::named)
    {
        fuzz = fuzz.planting(mutant);
    }

    let mut head = format!("disclose fuzz: seed {seed}");
    if cases != u64::MAX {
        head.push_str(&format!(", {cases} cases"));
    }
    if let Some(secs) = args.time {
        head.push_str(&format!(", at most {secs}s"));
    }
    if let Some(m) = fuzz.mutant() {
        head.push_str(&format!(", mutant {} ({})", m.name(), m.breaks()));
    }
    emit(&format!("{head}\n"))?;

    let started = Instant::now();
    // A budget past what the clock can represent is no budget.
    let deadline = args
        .time
        .and_then(|secs| started.checked_add(Duration::from_secs(secs)));
    let progress = progress(cases, args.time.is_some());
    let keep_going = |done: u64| {
        progress.set(done);
        deadline.is_none_or(|d| Instant::now() < d)
    };
    // A panic is a finding, caught and reported by the driver; the default
    // hook would print it again at every shrink step.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let report = fuzz.run(&keep_going);
    std::panic::set_hook(hook);
    progress.finish();
    let elapsed = started.elapsed();

    let checked = report
        .failure
        .as_ref()
        .map_or(report.tally.cases, |f| f.case + 1);
    let mut out = summary(&report.tally);
    let exit = match &report.failure {
        None => Exit::Pass,
        Some(failure) => {
            let path = save(&args.save, seed, failure)?;
            out.push_str(&describe_failure(
                seed,
                failure,
                &path,
                args.mutant.as_deref(),
            ));
            Exit::Fail
        }
    };
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        checked as f64 / secs
    } else {
        0.0
    };
    out.push_str(&format!(
        "{checked} cases in {secs:.2}s ({rate:.0} cases/s)\n"
    ));
    emit(&out)?;
    Ok(exit)
}

/// A seed from the clock, for runs that did not give one (it is printed).
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A bar (a spinner when the run is unbounded) for a person watching a
/// long run; see [`super::term`] for when one is drawn.
fn progress(cases: u64, timed: bool) -> Progress {
    let long = cases > fuzzing::CHUNK || timed;
    if cases == u64::MAX {
        Progress::spinner("sessions", long)
    } else {
        Progress::bar(cases, "sessions", long)
    }
}

/// What the passing cases covered: evidence that the generator reaches the
/// rules it is meant to test.
fn summary(tally: &Tally) -> String {
    let mut out = format!(
        "checked {} sessions: {} malformed (each refused on its fault's line), {} ops, {} admissions, {} routed calls, {} indexes ending in \"+N more\", {}, {} catalogs re-admitted in another order\n",
        tally.cases,
        tally.malformed,
        tally.ops,
        tally.admitted,
        tally.routed,
        tally.overflowing,
        if fuzzing::ORACLE {
            format!(
                "{} args a full validator accepted (and so did fit)",
                tally.fit_compared
            )
        } else {
            "fit not held against a full validator (built without feature `oracle`)".to_string()
        },
        tally.reordered,
    );
    let codes = vocabulary();
    let unseen: Vec<&str> = codes
        .iter()
        .map(|v| v.code)
        .filter(|code| !tally.refusals.contains_key(code))
        .collect();
    out.push_str(&format!(
        "refusal codes seen: {} of {}",
        codes.len() - unseen.len(),
        codes.len()
    ));
    if !unseen.is_empty() {
        out.push_str(&format!("; never: {}", unseen.join(", ")));
    }
    out.push('\n');
    out
}

/// Writes the minimal session as `<dir>/<check>_<seed>.jsonl`.
fn save(dir: &Path, seed: u64, failure: &Failure) -> Result<PathBuf> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("failed to create \"{}\"", dir.display()))?;
    let path = dir.join(format!("{}_{seed}.jsonl", failure.first.check));
    std::fs::write(&path, &failure.minimal)
        .with_context(|| format!("failed to write \"{}\"", path.display()))?;
    Ok(path)
}

fn lines(text: &str) -> usize {
    text.lines().count()
}

fn describe_failure(seed: u64, failure: &Failure, path: &Path, mutant: Option<&str>) -> String {
    let check = failure.first.check;
    let mutant = mutant.map_or(String::new(), |m| format!(" --mutant {m}"));
    let mut out = format!(
        "FAILED {check} ({}) on case {} of seed {seed}\n  as generated ({} lines): {}\n  shrunk in {} steps to {} lines: {}\n",
        fuzzing::statement(check),
        failure.case,
        lines(&failure.original),
        failure.first.message,
        failure.steps,
        lines(&failure.minimal),
        failure.finding.message,
    );
    out.push_str(&format!(
        "minimal session, written to {}:\n{}",
        path.display(),
        failure.minimal
    ));
    if !failure.minimal.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "reproduce: disclose fuzz --seed {seed} --cases {}{mutant}\nreplay:    disclose replay {}\n",
        failure.case + 1,
        path.display()
    ));
    out
}
