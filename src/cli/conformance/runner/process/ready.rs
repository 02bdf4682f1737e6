//! Waiting on an implementation's pipes (Unix): its stdin made
//! non-blocking, and one `poll(2)` over stdout, the exit watcher's pipe and
//! stdin, through rustix. Other platforms have no `poll(2)` on pipes, and
//! `check --impl` refuses to run there ([`super::NEEDS_UNIX`]); these
//! functions say so too, should anything call them. What to do with what a
//! wait found is [`super::Process`]'s.

use std::io::{self, PipeReader};
use std::process::{ChildStdin, ChildStdout};
use std::time::Duration;

/// What one wait found on one pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Elsewhere no wait finds anything.
#[cfg_attr(not(unix), allow(dead_code))]
pub enum Event {
    /// Nothing, or the pipe was not watched.
    Quiet,
    /// Readable (stdout, the exit pipe) or writable (stdin).
    Ready,
    /// Hung up or failed, and neither readable nor writable.
    Closed,
}

#[cfg(unix)]
pub use unix::*;

#[cfg(not(unix))]
pub use elsewhere::*;

#[cfg(unix)]
mod unix {
    use rustix::event::{PollFd, PollFlags, Timespec};

    use super::*;

    /// Makes `stdin` non-blocking.
    pub fn nonblocking(stdin: &ChildStdin) -> io::Result<()> {
        rustix::io::ioctl_fionbio(stdin, true).map_err(io::Error::from)
    }

    /// Waits at most `timeout` (`None`: without a limit) for `stdout` or
    /// `exit` to be readable or `stdin` writable, each watched when given:
    /// `Ok(None)` when none was in time, else what each of the three
    /// found, in that order. An interrupted wait is `ErrorKind::Interrupted`.
    pub fn wait(
        stdout: Option<&ChildStdout>,
        exit: Option<&PipeReader>,
        stdin: Option<&ChildStdin>,
        timeout: Option<Duration>,
    ) -> io::Result<Option<[Event; 3]>> {
        let mut fds = Vec::with_capacity(3);
        let mut watched = [false; 3];
        if let Some(stdout) = stdout {
            fds.push(PollFd::new(stdout, PollFlags::IN));
            watched[0] = true;
        }
        if let Some(exit) = exit {
            fds.push(PollFd::new(exit, PollFlags::IN));
            watched[1] = true;
        }
        if let Some(stdin) = stdin {
            fds.push(PollFd::new(stdin, PollFlags::OUT));
            watched[2] = true;
        }
        // A timeout past what a timespec holds is no timeout.
        let timeout = timeout.and_then(|t| Timespec::try_from(t).ok());
        if rustix::event::poll(&mut fds, timeout.as_ref())? == 0 {
            return Ok(None);
        }
        let mut found = fds.iter().map(|fd| match fd.revents() {
            r if r.intersects(PollFlags::IN | PollFlags::OUT) => Event::Ready,
            r if r.is_empty() => Event::Quiet,
            _ => Event::Closed,
        });
        Ok(Some(watched.map(|on| {
            if on {
                found.next().unwrap_or(Event::Quiet)
            } else {
                Event::Quiet
            }
        })))
    }
}

#[cfg(not(unix))]
mod elsewhere {
    use super::*;

    fn unsupported() -> io::Error {
        io::Error::new(io::ErrorKind::Unsupported, super::super::NEEDS_UNIX)
    }

    /// Not on this platform: [`super::super::NEEDS_UNIX`].
    pub fn nonblocking(_: &ChildStdin) -> io::Result<()> {
        Err(unsupported())
    }

    /// Not on this platform: [`super::super::NEEDS_UNIX`].
    pub fn wait(
        _: Option<&ChildStdout>,
        _: Option<&PipeReader>,
        _: Option<&ChildStdin>,
        _: Option<Duration>,
    ) -> io::Result<Option<[Event; 3]>> {
        Err(unsupported())
    }
}
