//! A process's output streams, read on threads of their own: stdout cut
//! into lines (a line past [`LINE_MAX`] dropped as it is read, never held
//! whole), stderr kept as its last [`STDERR_TAIL`] lines. It does not
//! parse what it reads: [`super::Process::receive`] does.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{ChildStderr, ChildStdout};
use std::sync::Mutex;
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::{KEPT_MAX, Offending};

/// The last this many lines of stderr are shown with a problem.
pub const STDERR_TAIL: usize = 20;
/// Longer stderr lines are cut to this many bytes.
const STDERR_LINE_MAX: usize = 1000;
/// A stdout line longer than this is a protocol violation, not an answer.
pub const LINE_MAX: usize = 256 * 1024 * 1024;

/// What the reader and the exit watcher tell [`super::Process::receive`].
pub(super) enum ReaderEvent {
    /// A line, without its `\n`.
    Text(Vec<u8>),
    /// A line longer than [`LINE_MAX`]: its first bytes.
    TooLong(Offending),
    /// stdout closed.
    End,
    /// stdout could not be read.
    Failed(String),
    /// The process exited (it is not reaped yet, so its group can still
    /// be killed safely).
    Exited,
}

pub(super) fn read_lines(stdout: ChildStdout, lines: &Sender<(ReaderEvent, Instant)>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let line = match next_line(&mut reader, LINE_MAX) {
            Ok(line) => line,
            Err(e) => ReaderEvent::Failed(e.to_string()),
        };
        let last = matches!(
            line,
            ReaderEvent::End | ReaderEvent::TooLong(_) | ReaderEvent::Failed(_)
        );
        if lines.send((line, Instant::now())).is_err() || last {
            return;
        }
    }
}

/// The next line of `reader`, without its `\n` (the last one may lack
/// it); [`ReaderEvent::TooLong`] as soon as it holds more than `max` bytes, so it
/// never takes more than `max` bytes of memory (a doubling `Vec` would
/// take twice that for the byte past the limit).
fn next_line(reader: &mut impl BufRead, max: usize) -> std::io::Result<ReaderEvent> {
    let mut line = Vec::new();
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(if line.is_empty() {
                ReaderEvent::End
            } else {
                ReaderEvent::Text(line)
            });
        }
        let (take, ended) = match memchr::memchr(b'\n', buf) {
            Some(at) => (at, true),
            None => (buf.len(), false),
        };
        if line.len() + take > max {
            // Only the first bytes are kept, and the count read so far.
            let mut start = Offending::of(&line);
            let more = KEPT_MAX.saturating_sub(start.head.len()).min(take);
            start.head.extend_from_slice(&buf[..more]);
            start.len += take;
            return Ok(ReaderEvent::TooLong(start));
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(ended));
        if ended {
            return Ok(ReaderEvent::Text(line));
        }
    }
}

pub(super) fn collect_stderr(stderr: ChildStderr, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = u64::try_from(STDERR_LINE_MAX).unwrap_or(u64::MAX);
        match (&mut reader).take(limit).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let ended = line.last() == Some(&b'\n');
        if ended {
            line.pop();
        }
        let text = String::from_utf8_lossy(&line).into_owned();
        if let Ok(mut tail) = tail.lock() {
            if tail.len() == STDERR_TAIL {
                tail.pop_front();
            }
            tail.push_back(if ended { text } else { format!("{text}…") });
        }
        if !ended && line.len() >= STDERR_LINE_MAX && skip_line(&mut reader).is_err() {
            return;
        }
    }
}

/// Skips to just past the next `\n` without keeping what it skips.
fn skip_line(reader: &mut impl std::io::BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(at) = buf.iter().position(|b| *b == b'\n') {
            reader.consume(at + 1);
            return Ok(());
        }
        let n = buf.len();
        reader.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], max: usize) -> Vec<String> {
        let mut reader = std::io::BufReader::with_capacity(3, text);
        let mut out = Vec::new();
        loop {
            match next_line(&mut reader, max).expect("a slice reads") {
                ReaderEvent::Text(line) => out.push(String::from_utf8_lossy(&line).into_owned()),
                ReaderEvent::TooLong(start) => {
                    out.push(format!(
                        "too long: {} of {}",
                        String::from_utf8_lossy(&start.head),
                        start.len
                    ));
                    return out;
                }
                ReaderEvent::End => return out,
                ReaderEvent::Failed(why) => panic!("{why}"),
                ReaderEvent::Exited => panic!("no process here"),
            }
        }
    }

    #[test]
    fn a_line_is_cut_as_soon_as_it_passes_the_limit() {
        assert_eq!(lines(b"ab\n\ncdef\nlast", 4), ["ab", "", "cdef", "last"]);
        assert_eq!(
            lines(b"abcd\nabcde\nnever", 4),
            ["abcd", "too long: abcde of 5"]
        );
        assert_eq!(lines(b"", 4), Vec::<String>::new());
        assert_eq!(lines(b"abcdefgh", 4), ["too long: abcdef of 6"]);
    }
}
