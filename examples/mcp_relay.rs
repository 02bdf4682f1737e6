//! The floor of the gateway's G1 (docs/performance.md): a stdio relay that
//! starts an MCP server and copies bytes between its own stdin/stdout and the
//! server's, both ways, with poll(2), parsing nothing. Whatever a call costs
//! through it over a direct call is what any process in the middle pays
//! (two more pipes, two more wake-ups); `script/bench-mcp` reports every
//! gateway's added latency as a multiple of this one's.
//!
//! Usage: `mcp_relay [--busy-ns N] COMMAND [ARG...]` (the server's stderr is
//! passed through; the relay exits when the server's stdout closes, with the
//! server's status). With `--busy-ns N` it spins N nanoseconds on each read
//! before writing what it read: a relay doing that much work a line, which
//! `script/bench-mcp` prints beside G1 to show what a few microseconds of
//! work cost in its set-ups.

use std::io::{ErrorKind, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).peekable();
    let busy = if args.next_if(|arg| arg == "--busy-ns").is_some() {
        match args.next().and_then(|n| n.to_str()?.parse().ok()) {
            Some(ns) => Some(Duration::from_nanos(ns)),
            None => {
                eprintln!("mcp_relay: --busy-ns takes a whole number of nanoseconds");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let Some(program) = args.next() else {
        eprintln!("usage: mcp_relay [--busy-ns N] COMMAND [ARG...]");
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
                    let sent = to_server.as_mut().map(|w| w.write_all(&buf[..n]));
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
                    if client_out
                        .write_all(&buf[..n])
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
fn spin(busy: Option<Duration>) {
    if let Some(busy) = busy {
        let start = Instant::now();
        while start.elapsed() < busy {
            std::hint::spin_loop();
        }
    }
}
