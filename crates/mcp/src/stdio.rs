//! The gateway over stdio: one session, the client that launched it.
//!
//! Its run is the one started with the gateway; it ends when the client
//! closes stdin (or a signal arrives). stdin and stdout are read and
//! written as epoll-driven pipes when they are pipes (docs/decisions.md),
//! else through rmcp's stdio. Nothing but JSON-RPC is written to stdout.

use std::path::PathBuf;
use std::sync::Arc;

use disclose::RecordedRun;
use rmcp::ServiceExt;

use crate::gateway::Gateway;
use crate::recording::Out;
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
    let gateway = Gateway::bound(shared, session);
    let served = tokio::select! {
        served = serve_until_closed(gateway) => served,
        () = signalled => Ok(()),
    };
    served.map_err(|error| format!("serving over stdio failed: {error}"))
}

async fn serve_until_closed(gateway: Gateway) -> Result<(), String> {
    let served = match pipes() {
        Some(pipes) => gateway.serve(pipes).await,
        None => gateway.serve(rmcp::transport::stdio()).await,
    };
    match served {
        Ok(service) => {
            let _ = service.waiting().await;
            Ok(())
        }
        // The client went away before initialize: nothing was served.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(error) => Err(error.to_string()),
    }
}

/// stdin and stdout as epoll-driven pipes, when both are pipes (as a
/// client that launches the gateway makes them): tokio's own stdin and
/// stdout go through a blocking thread for every read and write, which
/// costs each message a hand-off (docs/decisions.md). `None` otherwise
/// (a file, a terminal), and rmcp's stdio is used.
fn pipes() -> Option<(
    tokio::net::unix::pipe::Receiver,
    tokio::net::unix::pipe::Sender,
)> {
    use std::os::fd::AsFd;
    let stdin = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let stdout = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let receiver = tokio::net::unix::pipe::Receiver::from_owned_fd(stdin).ok()?;
    let sender = tokio::net::unix::pipe::Sender::from_owned_fd(stdout).ok()?;
    Some((receiver, sender))
}
