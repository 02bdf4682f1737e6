//! `disclose import`: a provider's tool list in, session lines out.
//!
//! Glue over [`disclose::import`] and [`disclose::record`]: reads each file
//! (or stdin), imports its tool list under the origin the user names, and
//! writes a session (SPEC §11) that declares every tool, starts the run, and
//! prints `render` and `tool_defs`, so `disclose replay` shows what the
//! catalog makes of it. Warnings about declarations the catalog will refuse,
//! and about skipped built-ins, go to stderr; the catalog itself never runs
//! here (the session is checked to parse).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use disclose::ToolDecl;
use disclose::import::{self, Imported};
use disclose::internals::naming::origin_is_valid;
use disclose::internals::record::{header_line, op_line};
use disclose_replay::session::OpKind;

use super::{Exit, emit};

/// `disclose import`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Several sources append into one session: give KIND FILE pairs and one --origin per pair, in the same order:\n  disclose import mcp github.json --origin github mcp linear.json --origin linear"
)]
pub struct ImportArgs {
    /// KIND FILE, repeated: KIND is `mcp`, `openai` or `anthropic`; FILE is a
    /// path, or `-` for stdin.
    #[arg(value_names = ["KIND", "FILE"], required = true, num_args = 2..)]
    pub sources: Vec<PathBuf>,
    /// The origin of each KIND FILE pair, in order (lowercase letters, digits
    /// and inner hyphens).
    #[arg(long, value_name = "NAME", required = true)]
    pub origin: Vec<String>,
    /// The run-start mode written into the session's `start`.
    #[arg(long, default_value = "chat", value_parser = ["chat", "work"])]
    pub mode: String,
}

/// The tool-list dialects `import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ImportFormat {
    /// MCP `tools/list`: `{name, description?, inputSchema, annotations?}`.
    Mcp,
    /// OpenAI: `{type: "function", function: {name, description, parameters}}`.
    OpenAi,
    /// Anthropic: `{name, description, input_schema}`.
    Anthropic,
}

impl ImportFormat {
    fn parse(word: &Path) -> Option<ImportFormat> {
        match word.to_str()? {
            "mcp" => Some(ImportFormat::Mcp),
            "openai" => Some(ImportFormat::OpenAi),
            "anthropic" => Some(ImportFormat::Anthropic),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Mcp => "mcp",
            ImportFormat::OpenAi => "openai",
            ImportFormat::Anthropic => "anthropic",
        }
    }
}

/// One resolved KIND FILE --origin triple.
struct Source<'a> {
    kind: ImportFormat,
    file: &'a Path,
    origin: &'a str,
}

impl Source<'_> {
    fn is_stdin(&self) -> bool {
        self.file == Path::new("-")
    }

    /// How errors and the header name the file.
    fn label(&self) -> String {
        if self.is_stdin() {
            "stdin".to_string()
        } else {
            self.file.display().to_string()
        }
    }
}

/// Runs `disclose import`.
pub fn run(args: &ImportArgs) -> Result<Exit> {
    let sources = resolve(args)?;
    let mut out = header(&sources);
    for source in &sources {
        let label = source.label();
        let imported = read(source).with_context(|| label.clone())?;
        for skipped in &imported.skipped {
            eprintln!(
                "disclose: {label}: skipped tool #{}: type \"{}\" is a built-in, not a function",
                skipped.at, skipped.kind
            );
        }
        for decl in &imported.tools {
            warn_about(&label, decl);
            out.push_str(&op_line(&OpKind::Tool {
                decl: decl.clone(),
                admitted: true,
            }));
        }
    }
    out.push_str(&format!(
        "{{\"op\":\"start\",\"mode\":\"{}\"}}\n",
        args.mode
    ));
    out.push_str("{\"op\":\"render\"}\n{\"op\":\"tool_defs\"}\n");
    // What we print must be a session the harness accepts; a failure here is
    // a bug in the library's import or recorder, reported rather than printed.
    if let Err(error) = disclose_replay::session::parse(out.as_bytes()) {
        bail!("the imported session does not parse ({error}); this is a bug in disclose import");
    }
    emit(&out)?;
    Ok(Exit::Pass)
}

/// Pairs `KIND FILE` positionals with the `--origin` values, in order.
fn resolve(args: &ImportArgs) -> Result<Vec<Source<'_>>> {
    let pairs = args.sources.chunks(2);
    if !args.sources.len().is_multiple_of(2) || pairs.len() != args.origin.len() {
        bail!(
            "give KIND FILE pairs and one --origin per pair, in the same order (got {} positional values and {} --origin)",
            args.sources.len(),
            args.origin.len()
        );
    }
    let mut sources = Vec::new();
    for (pair, origin) in pairs.zip(&args.origin) {
        let [kind, file] = pair else {
            bail!("give KIND FILE pairs");
        };
        let Some(kind) = ImportFormat::parse(kind) else {
            bail!(
                "\"{}\" is not a kind of tool list; use mcp, openai or anthropic (before FILE)",
                kind.display()
            );
        };
        if !origin_is_valid(origin) {
            bail!(
                "--origin \"{origin}\" is not 1 to 32 lowercase letters, digits and inner hyphens"
            );
        }
        sources.push(Source { kind, file, origin });
    }
    Ok(sources)
}

fn header(sources: &[Source<'_>]) -> String {
    let about = sources
        .iter()
        .map(|s| format!("{} {} as origin {}", s.kind.as_str(), s.label(), s.origin))
        .collect::<Vec<_>>()
        .join("; ");
    header_line(&format!("imported by disclose import: {about}"))
}

/// Declarations the catalog will refuse are imported as they are; say so
/// now, on stderr, so the user is not surprised by the replay.
fn warn_about(label: &str, decl: &ToolDecl) {
    if decl.description.trim().is_empty() {
        eprintln!(
            "disclose: {label}: tool \"{}\" has no description; the catalog will refuse it (admit.disclosure)",
            decl.name
        );
    }
    if !decl.input_schema.is_object() {
        eprintln!(
            "disclose: {label}: tool \"{}\" has no input schema object; the catalog will refuse it (admit.schema)",
            decl.name
        );
    }
}

/// The source's bytes, through the library's importer for its kind.
fn read(source: &Source<'_>) -> Result<Imported> {
    let mut bytes = Vec::new();
    if source.is_stdin() {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("failed to read stdin")?;
    } else {
        bytes = std::fs::read(source.file).context("failed to read the file")?;
    }
    let imported = match source.kind {
        ImportFormat::Mcp => import::mcp(&bytes, source.origin),
        ImportFormat::OpenAi => import::openai(&bytes, source.origin),
        ImportFormat::Anthropic => import::anthropic(&bytes, source.origin),
    };
    Ok(imported?)
}
