//! `disclose mcp login`, `logout` and `auth-status`: the commands a user
//! signs in and out with, and reads the state of each sign-in (never a
//! token). Diagnostics go to stderr as `disclose: …`; `auth-status`
//! writes its lines to stdout.
//!
//! Exit status: 0 done; 1 a sign-in the server, its authorization server
//! or the browser refused, or that timed out; 2 a usage, config or
//! token-file error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::login::{Failed, SignInTarget, login};
use super::store::{Record, TokenDir};
use crate::config::{Config, Server, Transport, redact_url};
use crate::log;

/// The commands of sign-in.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum Account {
    /// Sign in to an HTTP server of the config (OAuth in your browser) and
    /// keep its tokens for the gateway.
    Login(LoginArgs),
    /// Forget a server's sign-in (its tokens and client).
    Logout(LogoutArgs),
    /// Each OAuth server's sign-in: signed in (until when) or needs one;
    /// never a token.
    AuthStatus(StatusArgs),
}

/// `disclose mcp login`.
#[derive(Clone, Debug, clap::Args)]
pub struct LoginArgs {
    /// The server: its key in the config's `mcpServers`.
    #[arg(value_name = "ORIGIN")]
    pub origin: String,
    /// The `mcpServers` JSON that names it.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Where sign-ins are kept (default: $XDG_STATE_HOME/disclose, else
    /// ~/.local/state/disclose).
    #[arg(long, value_name = "DIR")]
    pub token_dir: Option<PathBuf>,
    /// Seconds to wait for the browser to come back.
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = crate::seconds)]
    pub timeout: Duration,
}

/// `disclose mcp logout`.
#[derive(Clone, Debug, clap::Args)]
pub struct LogoutArgs {
    /// The server: its key in the config, or (without --config) the key it
    /// was signed in under.
    #[arg(value_name = "ORIGIN")]
    pub origin: String,
    /// The `mcpServers` JSON that names it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where sign-ins are kept.
    #[arg(long, value_name = "DIR")]
    pub token_dir: Option<PathBuf>,
}

/// `disclose mcp auth-status`.
#[derive(Clone, Debug, clap::Args)]
pub struct StatusArgs {
    /// List this config's HTTP servers that sign in (else every stored
    /// sign-in).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Where sign-ins are kept.
    #[arg(long, value_name = "DIR")]
    pub token_dir: Option<PathBuf>,
}

/// Runs one command; its exit status.
pub async fn run(command: Account) -> u8 {
    let done = match command {
        Account::Login(args) => sign_in(args).await,
        Account::Logout(args) => sign_out(args),
        Account::AuthStatus(args) => status(args),
    };
    match done {
        Ok(()) => 0,
        Err(Failed::Refused(message)) => {
            log(&message);
            1
        }
        Err(Failed::Local(message)) => {
            log(&message);
            2
        }
    }
}

/// The token directory, and the context that names commands in messages.
fn context(config: Option<&Path>, token_dir: Option<&Path>) -> Result<super::Context, Failed> {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let tokens = TokenDir::resolve(token_dir.map(absolute).as_deref(), &|name| {
        std::env::var(name).ok()
    })
    .map_err(Failed::Local)?;
    Ok(super::Context {
        tokens,
        config: config.map(absolute).unwrap_or_default(),
        token_dir_given: token_dir.is_some(),
    })
}

/// Reads a config, its secrets installed.
fn read_config(path: &Path) -> Result<Config, Failed> {
    let file = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| Failed::Local(format!("{file}: cannot be read: {e}")))?;
    let env = |name: &str| std::env::var(name).ok();
    let config =
        crate::config::parse(&file, &bytes, &env).map_err(|e| Failed::Local(e.to_string()))?;
    crate::secrets::install(crate::secrets::Secrets::of(&config, None));
    Ok(config)
}

/// The config's HTTP server `origin`.
fn http_server<'a>(config: &'a Config, origin: &str, file: &Path) -> Result<&'a Server, Failed> {
    let server = config.servers.get(origin).ok_or_else(|| {
        let known: Vec<&str> = config.servers.keys().map(String::as_str).collect();
        Failed::Local(format!(
            "{}: has no server \"{origin}\" (its servers: {})",
            file.display(),
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ))
    })?;
    match &server.transport {
        Transport::Http { .. } => Ok(server),
        Transport::Stdio { .. } => Err(Failed::Local(format!(
            "{}: mcpServers.{origin} is a stdio server; only an HTTP server signs in with OAuth",
            file.display()
        ))),
    }
}

async fn sign_in(args: LoginArgs) -> Result<(), Failed> {
    let context = context(Some(&args.config), args.token_dir.as_deref())?;
    let config = read_config(&args.config)?;
    let server = http_server(&config, &args.origin, &args.config)?;
    let Transport::Http {
        url,
        headers,
        oauth,
    } = &server.transport
    else {
        return Err(Failed::Local("not an HTTP server".into()));
    };
    if headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("authorization"))
    {
        return Err(Failed::Local(format!(
            "{}: mcpServers.{} sends its own Authorization header; remove it to sign in with OAuth",
            args.config.display(),
            args.origin
        )));
    }
    let target = SignInTarget {
        origin: &args.origin,
        url,
        headers,
        settings: oauth.as_ref(),
    };
    let signed = login(&target, &context.tokens, args.timeout).await?;
    log(&format!(
        "{}: signed in{}; tokens in {}",
        args.origin,
        describe_expiry(&signed.record)
            .map(|e| format!(" ({e})"))
            .unwrap_or_default(),
        signed.file.display()
    ));
    Ok(())
}

fn sign_out(args: LogoutArgs) -> Result<(), Failed> {
    let context = context(args.config.as_deref(), args.token_dir.as_deref())?;
    let mut urls = Vec::new();
    match &args.config {
        Some(path) => {
            let config = read_config(path)?;
            let server = http_server(&config, &args.origin, path)?;
            if let Transport::Http { url, .. } = &server.transport {
                urls.push(url.clone());
            }
        }
        None => {
            let all = context.tokens.all().map_err(Failed::Local)?;
            urls.extend(
                all.into_iter()
                    .filter(|(_, record)| record.origin == args.origin)
                    .map(|(_, record)| record.url),
            );
        }
    }
    let mut removed = 0;
    for url in &urls {
        if context.tokens.remove(url).map_err(Failed::Local)? {
            removed += 1;
            log(&format!(
                "{}: signed out of {}",
                args.origin,
                redact_url(url)
            ));
        }
    }
    if removed == 0 {
        log(&format!(
            "{}: was not signed in (nothing in {})",
            args.origin,
            context.tokens.path().display()
        ));
    }
    Ok(())
}

fn status(args: StatusArgs) -> Result<(), Failed> {
    let context = context(args.config.as_deref(), args.token_dir.as_deref())?;
    let mut lines = Vec::new();
    match &args.config {
        Some(path) => {
            let config = read_config(path)?;
            for server in config.servers.values() {
                let Transport::Http {
                    url,
                    headers,
                    oauth,
                } = &server.transport
                else {
                    continue;
                };
                let own = headers
                    .iter()
                    .any(|(name, _)| name.eq_ignore_ascii_case("authorization"));
                let state = match context.tokens.read(url) {
                    Err(message) => format!("cannot use its sign-in: {message}"),
                    Ok(None) if oauth.is_none() || own => continue,
                    Ok(None) => format!(
                        "needs sign-in: run `{}`",
                        context.login_command(&server.origin)
                    ),
                    Ok(Some(record)) => state(&record, &context.login_command(&server.origin)),
                };
                lines.push(format!("{}: {state} ({})", server.origin, redact_url(url)));
            }
        }
        None => {
            for (_, record) in context.tokens.all().map_err(Failed::Local)? {
                let login = format!("disclose mcp login {} --config FILE", record.origin);
                lines.push(format!(
                    "{}: {} ({})",
                    record.origin,
                    state(&record, &login),
                    redact_url(&record.url)
                ));
            }
        }
    }
    if lines.is_empty() {
        log("no server signs in with OAuth");
    }
    let mut out = String::new();
    for line in lines {
        out.push_str(&crate::secrets::scrub(&line));
        out.push('\n');
    }
    use std::io::Write as _;
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .map_err(|e| Failed::Local(format!("stdout: {e}")))
}

/// A sign-in's state in words: signed in (until when), or what it needs.
fn state(record: &Record, login: &str) -> String {
    let Some(credentials) = record.credentials() else {
        let why = record.signed_out.as_deref().unwrap_or("it holds no tokens");
        return format!("needs sign-in ({why}): run `{login}`");
    };
    let refreshable = credentials
        .token_response
        .as_ref()
        .is_some_and(|t| oauth2::TokenResponse::refresh_token(t).is_some());
    let mut words = match describe_expiry(record) {
        Some(expiry) => format!("signed in, {expiry}"),
        None => "signed in".to_string(),
    };
    let expired = record.expires_at().is_some_and(|at| at <= now());
    if expired && !refreshable {
        words = format!("needs sign-in (its token expired and cannot be refreshed): run `{login}`");
    } else if expired {
        words.push_str("; refreshed at its next request");
    }
    if !record.required_scopes.is_empty() {
        words.push_str(&format!(
            "; asks for more access (scope \"{}\"): run `{login}`",
            record.required_scopes.join(" ")
        ));
    }
    words
}

/// "access token expires at 2026-12-03 10:15 UTC", or "… expired at …".
fn describe_expiry(record: &Record) -> Option<String> {
    let at = record.expires_at()?;
    let when = chrono::DateTime::<chrono::Utc>::from_timestamp(i64::try_from(at).ok()?, 0)?
        .format("%Y-%m-%d %H:%M:%S UTC");
    Some(if at <= now() {
        format!("access token expired at {when}")
    } else {
        format!("access token expires at {when}")
    })
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
