//! `--record DIR`: where a served session's recording goes.
//!
//! Each session is one new file in DIR, named by the gateway alone
//! (`session-<UTC time>-<pid>[-<n>].jsonl`, made with `create_new`, never
//! from anything in the config or sent by a client), written by the
//! library's `Recorder` one flushed line per op. The config's `env` and
//! `headers` values never reach it: the recording holds declarations,
//! answers and calls only.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The recording's writer: a file, or nothing when not recording.
#[derive(Debug)]
pub enum Out {
    /// `--record DIR`.
    File(File),
    /// No recording.
    Nowhere,
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Out::File(file) => file.write(buf),
            Out::Nowhere => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Out::File(file) => file.flush(),
            Out::Nowhere => Ok(()),
        }
    }
}

impl Out {
    /// Flushes the file's data to the disk.
    pub fn sync(&mut self) -> io::Result<()> {
        match self {
            Out::File(file) => file.sync_all(),
            Out::Nowhere => Ok(()),
        }
    }
}

/// Makes DIR if needed and creates a new session file in it.
pub fn create(dir: &Path) -> io::Result<(PathBuf, File)> {
    std::fs::create_dir_all(dir)?;
    let stamp = utc_stamp(SystemTime::now());
    let pid = std::process::id();
    for n in 0..1000u32 {
        let name = if n == 0 {
            format!("session-{stamp}-{pid}.jsonl")
        } else {
            format!("session-{stamp}-{pid}-{n}.jsonl")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "1000 session files of this second and process already exist",
    ))
}

/// `YYYYMMDDTHHMMSSZ` (UTC), from the civil-from-days algorithm.
fn utc_stamp(now: SystemTime) -> String {
    let secs = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}{month:02}{d:02}T{h:02}{m:02}{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn stamps_are_utc_civil_time() {
        let at = |secs| utc_stamp(SystemTime::UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "19700101T000000Z");
        assert_eq!(at(951_782_400), "20000229T000000Z");
        assert_eq!(at(1_798_761_599), "20261231T235959Z");
    }

    #[test]
    fn two_sessions_never_share_a_file() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (a, _) = create(dir.path()).expect("first");
        let (b, _) = create(dir.path()).expect("second");
        assert_ne!(a, b);
        let name = b.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert!(
            name.starts_with("session-") && name.ends_with(".jsonl"),
            "{name}"
        );
    }
}
