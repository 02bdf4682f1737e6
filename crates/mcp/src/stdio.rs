//! The gateway over stdio: one session, the client that launched it.
//!
//! Its run is the one started with the gateway; it ends when the client
//! closes stdin (or a signal arrives). stdin and stdout are read and
//! written on tokio's reactor when they are pipes or Unix sockets
//! (docs/decisions.md), else through rmcp's stdio. Nothing but JSON-RPC
//! is written to stdout.

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::Arc;

use disclose::RecordedRun;
use rmcp::ServiceExt;

use crate::gateway::Gateway;
use crate::lane::Lane;
use crate::recording::Out;
use crate::session::SessionRun;
use crate::shared::Shared;

/// Serves `run` over stdin/stdout until the client disconnects or a
/// signal arrives. `Err` says why serving failed.
pub async fn serve(
    shared: Arc<Shared>,
    run: RecordedRun<Out>,
    recorded_at: Option<PathBuf>,
) -> Result<(), String> {
    let signalled = crate::signalled();
    let session = shared.session_over(run, recorded_at);
    let gateway = Gateway::bound(shared, Arc::clone(&session));
    let served = tokio::select! {
        served = serve_until_closed(gateway, &session) => served,
        () = signalled => Ok(()),
    };
    served.map_err(|error| format!("serving over stdio failed: {error}"))
}

async fn serve_until_closed(gateway: Gateway, session: &SessionRun) -> Result<(), String> {
    let shared = Arc::clone(gateway.shared());
    let (lane, served) = match reactor_stdio() {
        Some((reader, writer)) => {
            let (lane, transport) = Lane::over(gateway.clone(), reader, writer);
            (Some(lane), gateway.serve(transport).await)
        }
        None => (None, gateway.serve(rmcp::transport::stdio()).await),
    };
    match served {
        Ok(service) => {
            shared.join(session, service.peer().clone());
            if let Some(lane) = lane {
                lane.open(service.peer().clone());
            }
            let _ = service.waiting().await;
            Ok(())
        }
        // The client went away before initialize: nothing was served.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(error.to_string()),
    }
}

/// A stream of the gateway's stdio on tokio's reactor.
type Reader = Box<dyn tokio::io::AsyncRead + Send + Unpin>;
type Writer = Box<dyn tokio::io::AsyncWrite + Send + Unpin>;

/// stdin and stdout on tokio's reactor, when each is a pipe (as Python's
/// and Rust's process APIs make them) or a Unix socket (as Node's, so
/// most MCP hosts, make them): tokio's own stdin and stdout go through a
/// blocking thread for every read and write, which costs each message a
/// hand-off (docs/decisions.md). `None` otherwise (a file, a terminal, a
/// TCP socket), and rmcp's stdio is used. Both kinds are known before
/// either stream is made non-blocking: rmcp's stdio reads and writes
/// blocking, so it must get them untouched.
fn reactor_stdio() -> Option<(Reader, Writer)> {
    use std::os::fd::AsFd;
    let stdin = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let stdout = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let (read_as, write_as) = (kind(&stdin)?, kind(&stdout)?);
    let reader: Reader = match read_as {
        Kind::Pipe => Box::new(tokio::net::unix::pipe::Receiver::from_owned_fd(stdin).ok()?),
        Kind::UnixSocket => Box::new(unix_stream(stdin)?),
    };
    let writer: Writer = match write_as {
        Kind::Pipe => Box::new(tokio::net::unix::pipe::Sender::from_owned_fd(stdout).ok()?),
        Kind::UnixSocket => Box::new(unix_stream(stdout)?),
    };
    Some((reader, writer))
}

enum Kind {
    Pipe,
    UnixSocket,
}

/// What `fd` is, when the reactor can drive it; `None` for a file, a
/// terminal or a socket of another family (std reads its address).
fn kind(fd: &OwnedFd) -> Option<Kind> {
    use std::os::unix::fs::FileTypeExt;
    let file_type = std::fs::File::from(fd.try_clone().ok()?)
        .metadata()
        .ok()?
        .file_type();
    if file_type.is_fifo() {
        Some(Kind::Pipe)
    } else if file_type.is_socket() {
        let probe = std::os::unix::net::UnixStream::from(fd.try_clone().ok()?);
        probe.local_addr().is_ok().then_some(Kind::UnixSocket)
    } else {
        None
    }
}

/// A Unix stream socket as a non-blocking tokio stream.
fn unix_stream(fd: OwnedFd) -> Option<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(stream).ok()
}
