//! The harness's one way to touch files it does not own: read only regular
//! files, with a size cap where a file is compared rather than replayed;
//! inside the golden tree, never through a symbolic link; and write a
//! golden by renaming a complete temporary file over it, so a failure or a
//! kill leaves the old golden or the new one, never a cut one.
//!
//! `docs/decisions.md` ("Bless writes and deletes only its own goldens",
//! "Transcript and golden limit") says why each rule is what it is.

use std::fmt;
use std::fs::{self, File, Metadata};
use std::io::{self, Read as _, Write as _};
use std::path::{Component, Path, PathBuf};

use disclose_replay::replay::TRANSCRIPT_MAX_BYTES;
use disclose_replay::transcript::MAGIC;

/// The largest golden read: no transcript within [`TRANSCRIPT_MAX_BYTES`]
/// can equal a longer one, so a longer file is refused unread.
pub const GOLDEN_MAX_BYTES: u64 = TRANSCRIPT_MAX_BYTES as u64;

/// Why a file was not read, written or deleted. `Display` is the message
/// after the path (`"golden/a.txt": is a FIFO, not a regular file`).
#[derive(Debug)]
pub enum FileError {
    /// The file does not exist.
    Missing,
    /// It exists but is not a regular file.
    NotRegular(&'static str),
    /// It is longer than the limit for what it is.
    TooLarge { limit: u64, what: &'static str },
    /// A symbolic link inside the golden tree (this path or a directory on
    /// the way to it).
    Link(PathBuf),
    /// What the operating system said.
    Io(io::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Missing => f.write_str("does not exist"),
            FileError::NotRegular(kind) => write!(f, "is {kind}, not a regular file"),
            FileError::TooLarge { limit, what } => {
                write!(f, "is larger than {limit} bytes, the limit for {what}")
            }
            FileError::Link(link) => write!(
                f,
                "\"{}\" is a symbolic link; nothing in the golden tree is read, written or deleted through a link",
                link.display()
            ),
            FileError::Io(e) => write!(f, "{}", io_text(e)),
        }
    }
}

impl From<io::Error> for FileError {
    fn from(e: io::Error) -> FileError {
        if e.kind() == io::ErrorKind::NotFound {
            FileError::Missing
        } else {
            FileError::Io(e)
        }
    }
}

/// An I/O error's text once: `permission denied (os error 13)` rather than
/// the same error repeated by each wrapper of it.
pub fn io_text(e: &io::Error) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

/// A walk's error in words, once: a loop, a link to nothing, or what the
/// operating system said.
pub fn walk_error_text(error: &walkdir::Error) -> String {
    if let Some(ancestor) = error.loop_ancestor() {
        return format!(
            "is a link back to \"{}\" (a loop); not followed",
            ancestor.display()
        );
    }
    let io = error.io_error().map_or_else(|| error.to_string(), io_text);
    let dangling = error.path().is_some_and(|path| {
        fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) && fs::metadata(path).is_err()
    });
    if dangling {
        format!("is a link to nothing ({io})")
    } else {
        io
    }
}

/// What a file that is not a regular file is, in words.
pub fn kind_of(meta: &Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    if kind.is_symlink() {
        return Some("a symbolic link");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return Some("a FIFO");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a file")
}

/// Reads `path` (following links) when it is a regular file of at most
/// `limit` bytes. The type is checked before opening, so a FIFO is never
/// opened (which would wait for a writer), and again on the open file.
pub fn read_regular(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, FileError> {
    if let Some(kind) = kind_of(&fs::metadata(path)?) {
        return Err(FileError::NotRegular(kind));
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = kind_of(&meta) {
        return Err(FileError::NotRegular(kind));
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge { limit, what });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The length can grow between the stat and the read: never past the cap.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { limit, what });
    }
    Ok(bytes)
}

/// Whether `path` is a regular file (not a link) whose first line is the
/// §12 transcript header.
pub fn is_transcript(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file()) && starts_as_transcript(path)
}

/// Whether the file at `path` starts with the §12 transcript header (reads
/// at most that many bytes; the caller has checked what the file is).
pub fn starts_as_transcript(path: &Path) -> bool {
    let mut head = Vec::with_capacity(MAGIC.len());
    File::open(path)
        .and_then(|f| f.take(MAGIC.len() as u64).read_to_end(&mut head))
        .is_ok()
        && head == MAGIC.as_bytes()
}

/// The golden tree: a root resolved once, and relative paths under it
/// reached only through real directories.
#[derive(Clone, Debug)]
pub struct GoldenTree {
    /// The directory as given, for messages.
    given: PathBuf,
    /// Where it resolves (links in the given path itself are followed once,
    /// here); the given path when it does not exist yet.
    root: PathBuf,
}

impl GoldenTree {
    /// The tree at `given`, resolved once.
    pub fn new(given: &Path) -> GoldenTree {
        GoldenTree {
            given: given.to_path_buf(),
            root: fs::canonicalize(given).unwrap_or_else(|_| given.to_path_buf()),
        }
    }

    /// The resolved root, for walking.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `rel` under the tree as the user knows it (`golden/a/b.txt`).
    pub fn shown(&self, rel: &str) -> PathBuf {
        self.given.join(rel)
    }

    /// `rel` under the resolved root, when no component of it below the
    /// root is a symbolic link; components that do not exist yet are fine.
    fn reach(&self, rel: &str) -> Result<PathBuf, FileError> {
        let mut at = self.root.clone();
        let mut shown = self.given.clone();
        for part in Path::new(rel).components() {
            let Component::Normal(part) = part else {
                // A relative path of ours never holds `..`, a root or a
                // prefix; refuse rather than leave the tree.
                return Err(FileError::Link(shown));
            };
            at.push(part);
            shown.push(part);
            match fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => return Err(FileError::Link(shown)),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                Err(e) => return Err(FileError::Io(e)),
            }
        }
        Ok(self.root.join(rel))
    }

    /// Reads the golden `rel`.
    pub fn read(&self, rel: &str) -> Result<Vec<u8>, FileError> {
        read_regular(&self.reach(rel)?, GOLDEN_MAX_BYTES, "a golden")
    }

    /// Writes `bytes` as the golden `rel` unless it already holds them;
    /// `Ok(true)` when it wrote. The bytes go to a temporary file beside
    /// the golden, are flushed to disk, and the file is renamed over the
    /// golden: a reader, a failure or a kill sees the old golden or the new
    /// one, whole. A golden that is not a regular file is refused.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<bool, FileError> {
        let path = self.reach(rel)?;
        let old = match read_regular(&path, GOLDEN_MAX_BYTES, "a golden") {
            Ok(old) if old == bytes => return Ok(false),
            Ok(_) | Err(FileError::TooLarge { .. }) => fs::metadata(&path).ok(),
            Err(FileError::Missing) => None,
            Err(e) => return Err(e),
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        // Directories created just now: check again that none is a link.
        self.reach(rel)?;
        let mut file = tempfile::Builder::new()
            .prefix(".disclose-bless-")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        file.write_all(bytes)?;
        file.as_file().sync_all()?;
        #[cfg(unix)]
        {
            // The temporary file is private (0600); a golden keeps the old
            // one's mode, or gets the ordinary 0644.
            use std::os::unix::fs::PermissionsExt as _;
            let mode = old.map_or(0o644, |m| m.permissions().mode() & 0o7777);
            fs::set_permissions(file.path(), fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = old;
        file.persist(&path).map_err(|e| FileError::Io(e.error))?;
        Ok(true)
    }

    /// Deletes the orphan `rel` (reached without a link), then the
    /// directories it leaves empty up to the root.
    pub fn remove(&self, rel: &str) -> Result<(), FileError> {
        let path = self.reach(rel)?;
        fs::remove_file(&path)?;
        let mut dir = path.parent();
        while let Some(d) = dir.filter(|d| d.starts_with(&self.root) && *d != self.root) {
            // Fails, and stops, at the first directory that is not empty.
            if fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_text_is_said_once_and_lowercase() {
        let e = io::Error::from_raw_os_error(2);
        let text = io_text(&e);
        assert!(text.starts_with("no such file"), "{text}");
        assert_eq!(text.matches("os error 2").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_on_the_way_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("shared")).unwrap();
        let tree = GoldenTree::new(dir.path());
        let err = tree.write("shared/a.txt", b"x").unwrap_err();
        assert!(matches!(err, FileError::Link(_)), "{err}");
        assert!(!outside.path().join("a.txt").exists());
        // A path that does not exist yet is reachable.
        assert!(tree.write("new/a.txt", b"x").unwrap());
        assert_eq!(fs::read(dir.path().join("new/a.txt")).unwrap(), b"x");
    }
}
