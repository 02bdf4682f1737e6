//! The floor of the gateway's G1 (docs/performance.md): a stdio relay that
//! starts an MCP server and copies bytes between its own stdin/stdout and the
//! server's, both ways, with poll(2), parsing nothing. Whatever a call costs
//! through it over a direct call is what any process in the middle pays
//! (two more pipes, two more wake-ups); `script/bench-mcp` reports every
//! gateway's added latency as a multiple of this one's.
//!
//! Usage: `mcp_relay [--busy-ns N] [--parse] COMMAND [ARG...]` (the server's
//! stderr is passed through; the relay exits when the server's stdout
//! closes, with the server's status). `script/bench-mcp` prints two kinds
//! of relay beside G1, to show what a little work a line costs in its
//! set-ups:
//! - with `--busy-ns N` it spins N nanoseconds on each read before writing
//!   what it read;
//! - with `--parse` it reads each whole line as JSON (`serde_json::Value`)
//!   and writes it again, compact: the least any process that reads its
//!   messages does (a line that is no JSON is written as it came).

use std::process::ExitCode;
#[cfg(unix)]
use std::{
    io::{ErrorKind, Read, Write},
    os::fd::AsRawFd,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// The relay waits with poll(2), which Windows has not for pipes; G1 is
/// measured on Linux.
#[cfg(not(unix))]
fn main() -> ExitCode {
    eprintln!("mcp_relay: Unix only (it waits on pipes with poll(2))");
    ExitCode::from(2)
}

#[cfg(unix)]
fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).peekable();
    let (mut busy, mut parse) = (None, false);
    loop {
        if args.next_if(|arg| arg == "--busy-ns").is_some() {
            match args.next().and_then(|n| n.to_str()?.parse().ok()) {
                Some(ns) => busy = Some(Duration::from_nanos(ns)),
                None => {
                    eprintln!("mcp_relay: --busy-ns takes a whole number of nanoseconds");
                    return ExitCode::from(2);
                }
            }
        } else if args.next_if(|arg| arg == "--parse").is_some() {
            parse = true;
        } else {
            break;
        }
    }
    let Some(program) = args.next() else {
        eprintln!("usage: mcp_relay [--busy-ns N] [--parse] COMMAND [ARG...]");
        return ExitCode::from(2);
    };
    let mut child = match Command::new(&program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            eprintln!("mcp_relay: {}: {e}", program.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    let mut to_server = child.stdin.take();
    let mut from_server = child.stdout.take().expect("piped stdout");
    let mut client_in = std::io::stdin().lock();
    let mut client_out = std::io::stdout().lock();
    // Larger than std's stdin buffer, so each read goes straight to read(2).
    let mut buf = vec![0u8; 64 * 1024];
    // With --parse: each direction's line read so far, and what is written.
    let (mut to_server_line, mut to_client_line, mut out) = (Vec::new(), Vec::new(), Vec::new());
    let mut fds = [
        libc::pollfd {
            fd: client_in.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: from_server.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    loop {
        // SAFETY: `fds` is a valid array of two pollfd for the whole call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, -1) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if fds[0].revents != 0 {
            match client_in.read(&mut buf) {
                Ok(n) if n > 0 => {
                    spin(busy);
                    let read = lines(parse, &mut to_server_line, &buf[..n], &mut out);
                    let sent = to_server.as_mut().map(|w| w.write_all(read));
                    if !matches!(sent, Some(Ok(()))) {
                        break;
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                // The client is gone: close the server's stdin and stop
                // watching ours (poll ignores a negative fd).
                _ => {
                    to_server = None;
                    fds[0].fd = -1;
                }
            }
        }
        if fds[1].revents != 0 {
            match from_server.read(&mut buf) {
                Ok(n) if n > 0 => {
                    spin(busy);
                    let read = lines(parse, &mut to_client_line, &buf[..n], &mut out);
                    if client_out
                        .write_all(read)
                        .and_then(|()| client_out.flush())
                        .is_err()
                    {
                        break;
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                _ => break,
            }
        }
    }
    drop(to_server);
    match child.wait() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

/// Spins for `busy`, if any: work a line, without a system call.
#[cfg(unix)]
fn spin(busy: Option<Duration>) {
    if let Some(busy) = busy {
        let start = Instant::now();
        while start.elapsed() < busy {
            std::hint::spin_loop();
        }
    }
}

/// What to write of `read`: itself, or with `parse`, each line it ends
/// (after what `line` holds of it) read as JSON and written again; the
/// rest of the last line waits in `line`.
#[cfg(unix)]
fn lines<'a>(parse: bool, line: &mut Vec<u8>, read: &'a [u8], out: &'a mut Vec<u8>) -> &'a [u8] {
    if !parse {
        return read;
    }
    out.clear();
    let mut rest = read;
    while let Some(end) = memchr::memchr(b'\n', rest) {
        line.extend_from_slice(&rest[..end]);
        rest = &rest[end + 1..];
        let again = serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .and_then(|value| serde_json::to_vec(&value).ok());
        out.extend_from_slice(again.as_deref().unwrap_or(line));
        out.push(b'\n');
        line.clear();
    }
    line.extend_from_slice(rest);
    out
}
