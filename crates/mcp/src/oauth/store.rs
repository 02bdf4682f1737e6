//! Sign-ins on disk: one file for each server URL, holding the issuer and
//! resource its tokens are for, the client the gateway registered as, and
//! the tokens themselves.
//!
//! The directory is `--token-dir DIR`, else `$XDG_STATE_HOME/disclose`,
//! else `~/.local/state/disclose` (created 0700). Each file is
//! `oauth-HOST-DIGEST.json` (DIGEST: the first 16 hex digits of the URL's
//! SHA-256), written whole to a temporary file of mode 0600 and renamed
//! over the old one, so a reader sees the old file or the new one, never
//! half of either. A file that is not a regular file of this user with
//! mode 0600 (or narrower) is refused, with a message saying how to mend
//! it: tokens are secrets. Refreshes of one file, by any number of
//! gateways, take turns under an advisory lock beside it
//! (`oauth-HOST-DIGEST.lock`), so a rotated refresh token is never used
//! twice.
//!
//! [`FileStore`] is rmcp's `CredentialStore` over one file: it reads the
//! file at every load (a `login` run while the gateway serves is used at
//! the next request), keeps the record's other fields when it saves, and
//! teaches `secrets` every token it writes.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use oauth2::TokenResponse as _;
use rmcp::transport::auth::{
    AuthError, AuthorizationMetadata, CredentialRefreshGuard, CredentialStore, StoredCredentials,
};
use serde::{Deserialize, Serialize};
use sha2::Digest as _;

/// The largest token file read (a sign-in is a few KiB).
const MAX_FILE: u64 = 1 << 20;

/// The directory of sign-ins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenDir(PathBuf);

/// How the gateway is known to the authorization server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Registration {
    /// The config's `client_id` (its secret stays in the config).
    Preregistered,
    /// A Client ID Metadata Document's URL is the client id.
    MetadataDocument,
    /// Dynamic client registration (RFC 7591) at the first sign-in.
    Dynamic,
}

/// The client the gateway signs in as.
#[derive(Clone, Serialize, Deserialize)]
pub struct Registered {
    /// Its client id.
    pub id: String,
    /// The secret dynamic registration issued, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// How it was registered.
    pub registration: Registration,
    /// The loopback redirect URI it was registered with.
    pub redirect_uri: String,
    /// The scopes it was registered for (dynamic registration), which some
    /// servers hold its requests to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// One server's sign-in, as its file holds it.
#[derive(Clone, Serialize, Deserialize)]
pub struct Record {
    /// The config key it was signed in as (for `logout` and `auth-status`
    /// without a config).
    pub origin: String,
    /// The server's URL, as the config gives it.
    pub url: String,
    /// The protected resource its tokens are for (RFC 8707).
    pub resource: String,
    /// The authorization server's issuer.
    #[serde(default)]
    pub issuer: Option<String>,
    /// The authorization server's metadata, as discovered at sign-in.
    pub metadata: AuthorizationMetadata,
    /// The client.
    pub client: Registered,
    /// The tokens, as rmcp keeps them; `None` once they stopped working.
    #[serde(default)]
    pub credentials: Option<StoredCredentials>,
    /// Scopes a 403 asked for since: the next sign-in asks for them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub required_scopes: Vec<String>,
    /// Why the tokens were dropped, when they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_out: Option<String>,
}

impl Record {
    /// The stored tokens, when there are any to use.
    pub fn credentials(&self) -> Option<&StoredCredentials> {
        self.credentials
            .as_ref()
            .filter(|credentials| credentials.token_response.is_some())
    }

    /// When the access token expires (seconds since the epoch), if it says.
    pub fn expires_at(&self) -> Option<u64> {
        let credentials = self.credentials()?;
        let lifetime = credentials.token_response.as_ref()?.expires_in()?;
        Some(credentials.token_received_at? + lifetime.as_secs())
    }

    /// Every secret it holds, with where it comes from (never its value).
    pub fn secrets(&self) -> Vec<(String, String)> {
        let mut found = Vec::new();
        if let Some(tokens) = self.credentials().and_then(|c| c.token_response.as_ref()) {
            found.push((
                tokens.access_token().secret().clone(),
                format!("the access token of {}", self.origin),
            ));
            if let Some(refresh) = tokens.refresh_token() {
                found.push((
                    refresh.secret().clone(),
                    format!("the refresh token of {}", self.origin),
                ));
            }
        }
        if let Some(secret) = &self.client.secret {
            found.push((
                secret.clone(),
                format!("the client secret of {}", self.origin),
            ));
        }
        found
    }
}

static TEMPORARY: AtomicU64 = AtomicU64::new(0);

impl TokenDir {
    /// `given` (`--token-dir`), else `$XDG_STATE_HOME/disclose`, else
    /// `$HOME/.local/state/disclose`; `var` reads the environment.
    pub fn resolve(
        given: Option<&Path>,
        var: &dyn Fn(&str) -> Option<String>,
    ) -> Result<TokenDir, String> {
        if let Some(dir) = given {
            return Ok(TokenDir(dir.to_path_buf()));
        }
        // The XDG rule: a relative value is ignored.
        if let Some(state) = var("XDG_STATE_HOME").filter(|v| v.starts_with('/')) {
            return Ok(TokenDir(Path::new(&state).join("disclose")));
        }
        match var("HOME").filter(|v| v.starts_with('/')) {
            Some(home) => Ok(TokenDir(Path::new(&home).join(".local/state/disclose"))),
            None => Err(
                "neither XDG_STATE_HOME nor HOME is set to an absolute path: say where sign-ins are kept with --token-dir DIR".into(),
            ),
        }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The file of the server at `url`.
    pub fn file_for(&self, url: &str) -> PathBuf {
        self.0.join(format!("{}.json", stem(url)))
    }

    fn lock_for(&self, url: &str) -> PathBuf {
        self.0.join(format!("{}.lock", stem(url)))
    }

    /// The sign-in of the server at `url`, if there is one.
    pub fn read(&self, url: &str) -> Result<Option<Record>, String> {
        read(&self.file_for(url))
    }

    /// Every sign-in in the directory, by file name.
    pub fn all(&self) -> Result<Vec<(PathBuf, Record)>, String> {
        let entries = match std::fs::read_dir(&self.0) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(format!("{}: cannot be read: {error}", self.0.display())),
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| {
                path.file_name()
                    .and_then(|name| name.to_str())
                    .is_some_and(|name| name.starts_with("oauth-") && name.ends_with(".json"))
            })
            .collect();
        files.sort();
        let mut records = Vec::with_capacity(files.len());
        for file in files {
            if let Some(record) = read(&file)? {
                records.push((file, record));
            }
        }
        Ok(records)
    }

    /// Writes `record` in place of the server's file (mode 0600, whole or
    /// not at all); its tokens become secrets.
    pub fn write(&self, record: &Record) -> Result<PathBuf, String> {
        crate::secrets::learn(record.secrets());
        let file = self.file_for(&record.url);
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.0)
            .map_err(|e| format!("{}: cannot be created: {e}", self.0.display()))?;
        let text = serde_json::to_vec_pretty(record)
            .map_err(|e| format!("{}: cannot be written: {e}", file.display()))?;
        let temporary = self.0.join(format!(
            ".{}.{}.{}.tmp",
            stem(&record.url),
            std::process::id(),
            TEMPORARY.fetch_add(1, Ordering::Relaxed)
        ));
        let written = (|| -> std::io::Result<()> {
            let mut out = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&temporary)?;
            out.write_all(&text)?;
            out.write_all(b"\n")?;
            out.sync_all()?;
            std::fs::rename(&temporary, &file)?;
            // The rename itself survives a crash once the directory is synced.
            File::open(&self.0)?.sync_all()
        })();
        if let Err(error) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(format!("{}: cannot be written: {error}", file.display()));
        }
        Ok(file)
    }

    /// Removes the server's file; `false` when there was none.
    pub fn remove(&self, url: &str) -> Result<bool, String> {
        let file = self.file_for(url);
        let _ = std::fs::remove_file(self.lock_for(url));
        match std::fs::remove_file(&file) {
            Ok(()) => Ok(true),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(error) => Err(format!("{}: cannot be removed: {error}", file.display())),
        }
    }

    /// Takes the server's lock (waiting for another holder), on a blocking
    /// thread; it is held until the guard is dropped.
    pub async fn lock(&self, url: &str) -> Result<Locked, String> {
        let path = self.lock_for(url);
        let dir = self.0.clone();
        let taken = tokio::task::spawn_blocking(move || -> std::io::Result<File> {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(&dir)?;
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&path)?;
            // SAFETY: flock on a descriptor this function owns.
            let locked =
                unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&file), libc::LOCK_EX) };
            if locked != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(file)
        })
        .await;
        match taken {
            Ok(Ok(file)) => Ok(Locked(file)),
            Ok(Err(error)) => Err(format!(
                "{}: cannot be locked: {error}",
                self.lock_for(url).display()
            )),
            Err(error) => Err(format!("the lock could not be taken: {error}")),
        }
    }
}

/// A server's file lock, released when dropped (its descriptor closes).
pub struct Locked(#[allow(dead_code)] File);

/// `oauth-HOST-DIGEST`: the host (and port) for a person reading the
/// directory, the digest of the whole URL for uniqueness.
fn stem(url: &str) -> String {
    let host: String = url::Url::parse(url)
        .ok()
        .and_then(|url| {
            let host = url.host_str()?.to_ascii_lowercase();
            Some(match url.port() {
                Some(port) => format!("{host}_{port}"),
                None => host,
            })
        })
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    let digest = sha2::Sha256::digest(url.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("oauth-{host}-{hex}")
}

/// A token file, when it exists; refused unless it is a regular file of
/// this user that no one else may read or write.
pub fn read(file: &Path) -> Result<Option<Record>, String> {
    let shown = file.display();
    let opened = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK)
        .open(file);
    let opened = match opened {
        Ok(opened) => opened,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) if error.raw_os_error() == Some(libc::ELOOP) => {
            return Err(format!(
                "{shown}: is a symbolic link; a token file must be a regular file: refused"
            ));
        }
        Err(error) => return Err(format!("{shown}: cannot be read: {error}")),
    };
    let meta = opened
        .metadata()
        .map_err(|e| format!("{shown}: cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{shown}: is not a regular file; a token file must be one: refused"
        ));
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "{shown}: has mode {mode:04o}, so others may read its tokens; a token file must be 0600: refused (chmod 600 {shown}, or sign in again)"
        ));
    }
    // SAFETY: geteuid only reads the process's effective user id.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(format!(
            "{shown}: belongs to user {}, not to this one ({me}): refused",
            meta.uid()
        ));
    }
    let mut text = Vec::new();
    opened
        .take(MAX_FILE + 1)
        .read_to_end(&mut text)
        .map_err(|e| format!("{shown}: cannot be read: {e}"))?;
    if text.len() as u64 > MAX_FILE {
        return Err(format!(
            "{shown}: is larger than {MAX_FILE} bytes; a token file is a few KiB: refused"
        ));
    }
    serde_json::from_slice(&text)
        .map(Some)
        .map_err(|e| format!("{shown}: is not a sign-in this gateway wrote ({e}); sign in again"))
}

/// rmcp's credential store over one server's file.
pub struct FileStore {
    dir: TokenDir,
    url: String,
}

impl FileStore {
    /// The store of the server at `url`.
    pub fn new(dir: TokenDir, url: &str) -> FileStore {
        FileStore {
            dir,
            url: url.to_string(),
        }
    }

    fn record(&self) -> Result<Record, AuthError> {
        match self.dir.read(&self.url) {
            Ok(Some(record)) => Ok(record),
            Ok(None) => Err(AuthError::AuthorizationRequired),
            Err(message) => Err(AuthError::CredentialStoreError(message)),
        }
    }

    fn write(&self, record: &Record) -> Result<(), AuthError> {
        self.dir
            .write(record)
            .map(drop)
            .map_err(AuthError::CredentialStoreError)
    }
}

#[async_trait::async_trait]
impl CredentialStore for FileStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        match self.record() {
            Ok(record) => Ok(record.credentials().cloned()),
            Err(AuthError::AuthorizationRequired) => Ok(None),
            Err(error) => Err(error),
        }
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let mut record = self.record()?;
        record.credentials = Some(credentials);
        record.signed_out = None;
        self.write(&record)
    }

    async fn clear(&self) -> Result<(), AuthError> {
        let mut record = match self.record() {
            Ok(record) => record,
            Err(AuthError::AuthorizationRequired) => return Ok(()),
            Err(error) => return Err(error),
        };
        record.credentials = None;
        self.write(&record)
    }

    /// The server refused the refresh token: the tokens are dropped (a
    /// `login` is needed), unless another gateway refreshed them since.
    async fn on_refresh_token_rejected(
        &self,
        credentials: &StoredCredentials,
    ) -> Result<(), AuthError> {
        let mut record = self.record()?;
        let refresh = |c: &StoredCredentials| {
            c.token_response
                .as_ref()
                .and_then(|t| t.refresh_token().map(|r| r.secret().clone()))
        };
        if record.credentials().map(refresh) != Some(refresh(credentials)) {
            return Ok(());
        }
        record.credentials = None;
        record.signed_out = Some("the authorization server refused its refresh token".into());
        self.write(&record)
    }

    async fn acquire_refresh_guard(&self) -> Result<Option<CredentialRefreshGuard>, AuthError> {
        let locked = self
            .dir
            .lock(&self.url)
            .await
            .map_err(AuthError::CredentialStoreError)?;
        Ok(Some(CredentialRefreshGuard::new(locked)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn record(url: &str) -> Record {
        let tokens = serde_json::from_value(serde_json::json!({
            "access_token": "access-token-1234",
            "refresh_token": "refresh-token-1234",
            "token_type": "Bearer",
            "expires_in": 3600,
        }))
        .expect("a token response");
        let mut metadata = AuthorizationMetadata::default();
        metadata.authorization_endpoint = "https://auth.example.com/authorize".into();
        metadata.token_endpoint = "https://auth.example.com/token".into();
        Record {
            origin: "notes".into(),
            url: url.into(),
            resource: url.into(),
            issuer: Some("https://auth.example.com".into()),
            metadata,
            client: Registered {
                id: "client-1".into(),
                secret: Some("client-secret-1234".into()),
                registration: Registration::Dynamic,
                redirect_uri: "http://127.0.0.1:5555/callback".into(),
                scopes: Vec::new(),
            },
            credentials: Some(
                StoredCredentials::new("client-1".into(), Some(tokens), vec![], Some(1_000))
                    .with_issuer(Some("https://auth.example.com".into())),
            ),
            required_scopes: Vec::new(),
            signed_out: None,
        }
    }

    #[test]
    fn the_directory_is_the_flag_else_xdg_state_else_home() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let given = TokenDir::resolve(Some(Path::new("/t")), &env(&[("HOME", "/h")]));
        assert_eq!(given, Ok(TokenDir("/t".into())));
        let xdg = TokenDir::resolve(None, &env(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")]));
        assert_eq!(xdg, Ok(TokenDir("/s/disclose".into())));
        let relative = TokenDir::resolve(None, &env(&[("XDG_STATE_HOME", "s"), ("HOME", "/h")]));
        assert_eq!(relative, Ok(TokenDir("/h/.local/state/disclose".into())));
        assert!(TokenDir::resolve(None, &env(&[])).is_err());
    }

    #[test]
    fn a_file_is_named_by_host_and_digest_and_never_by_a_query() {
        let dir = TokenDir("/t".into());
        let a = dir.file_for("https://mcp.example.com/mcp?key=s3cret");
        let name = a.file_name().and_then(|n| n.to_str()).expect("a name");
        assert!(name.starts_with("oauth-mcp.example.com-"), "{name}");
        assert!(!name.contains("s3cret"), "{name}");
        assert_ne!(a, dir.file_for("https://mcp.example.com/other"));
        let port = dir.file_for("http://127.0.0.1:8080/mcp");
        assert!(port.display().to_string().contains("oauth-127.0.0.1_8080-"));
    }

    #[test]
    fn a_record_is_written_0600_and_read_back_and_wider_modes_are_refused() {
        let temp = tempfile::tempdir().expect("a directory");
        let dir = TokenDir(temp.path().join("state/disclose"));
        let url = "https://mcp.example.com/mcp";
        let file = dir.write(&record(url)).expect("written");
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir_mode = std::fs::metadata(dir.path())
            .expect("meta")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(dir_mode, 0o700);
        let back = dir.read(url).expect("read").expect("there");
        assert_eq!(back.client.id, "client-1");
        assert_eq!(back.expires_at(), Some(4_600));
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let refused = dir.read(url).err().expect("refused");
        assert!(refused.contains("has mode 0644"), "{refused}");
        assert!(refused.contains("chmod 600"), "{refused}");
        assert!(!refused.contains("access-token"), "{refused}");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        assert!(dir.remove(url).expect("removed"));
        assert!(dir.read(url).expect("read").is_none());
        assert!(!dir.remove(url).expect("nothing to remove"));
    }

    #[test]
    fn links_and_strangers_are_refused() {
        let temp = tempfile::tempdir().expect("a directory");
        let dir = TokenDir(temp.path().to_path_buf());
        let url = "https://mcp.example.com/mcp";
        let real = temp.path().join("elsewhere.json");
        std::fs::write(&real, "{}").expect("written");
        std::os::unix::fs::symlink(&real, dir.file_for(url)).expect("a link");
        let refused = dir.read(url).err().expect("refused");
        assert!(refused.contains("symbolic link"), "{refused}");
        std::fs::remove_file(dir.file_for(url)).expect("unlinked");
        std::fs::write(dir.file_for(url), "not json").expect("written");
        std::fs::set_permissions(dir.file_for(url), std::fs::Permissions::from_mode(0o600))
            .expect("chmod");
        let refused = dir.read(url).err().expect("refused");
        assert!(refused.contains("sign in again"), "{refused}");
    }

    #[tokio::test]
    async fn the_store_keeps_the_record_and_drops_refused_tokens_once() {
        let temp = tempfile::tempdir().expect("a directory");
        let dir = TokenDir(temp.path().to_path_buf());
        let url = "https://mcp.example.com/mcp";
        dir.write(&record(url)).expect("written");
        let store = FileStore::new(dir.clone(), url);
        let loaded = store.load().await.expect("loaded").expect("tokens");
        assert_eq!(loaded.client_id, "client-1");
        // Another gateway refreshed meanwhile: its tokens stay.
        let mut newer = record(url);
        let tokens = serde_json::from_value(serde_json::json!({
            "access_token": "access-token-5678",
            "refresh_token": "refresh-token-5678",
            "token_type": "Bearer",
        }))
        .expect("tokens");
        newer.credentials = Some(StoredCredentials::new(
            "client-1".into(),
            Some(tokens),
            vec![],
            None,
        ));
        dir.write(&newer).expect("written");
        store
            .on_refresh_token_rejected(&loaded)
            .await
            .expect("handled");
        assert!(store.load().await.expect("loaded").is_some());
        // Its own refresh token refused: the tokens go, the client stays.
        let current = store.load().await.expect("loaded").expect("tokens");
        store
            .on_refresh_token_rejected(&current)
            .await
            .expect("handled");
        assert!(store.load().await.expect("loaded").is_none());
        let after = dir.read(url).expect("read").expect("there");
        assert_eq!(after.client.id, "client-1");
        assert!(after.signed_out.is_some());
        // A save (a refresh, or a sign-in) brings them back.
        store.save(current).await.expect("saved");
        let back = dir.read(url).expect("read").expect("there");
        assert!(back.signed_out.is_none() && back.credentials().is_some());
        let guard = store.acquire_refresh_guard().await.expect("locked");
        assert!(guard.is_some());
    }
}
