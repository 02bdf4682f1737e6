//! What every session of the gateway shares, whatever transport serves
//! it: the one upstream snapshot (each session's run starts from it), the
//! routes from minted names to upstream tools, the fixed answers
//! (`tools/list`, the `initialize` info and its `instructions`), the
//! upstreams themselves, the hub of their prompts and resources, and the
//! tools refused since an upstream restarted with another descriptor (a
//! fact about the upstream, so every session refuses them). It opens sessions (`SessionRun`), and holds the one
//! sessionless run of 2026-07-28 requests over HTTP.
//!
//! Nothing here belongs to one session: a session's run, recording,
//! allowances and approval rounds are its `SessionRun`'s.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use disclose::{Approval, Recorder};
use rmcp::model::{
    ClientRequest, ListToolsResult, ServerCapabilities, ServerConfig, UnsubscribeRequestParams,
};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};

use crate::catalog::{Snapshot, StartedRun};
use crate::hub::Hub;
use crate::recording::{self, Out};
use crate::session::{Allowance, Opened, SessionRun, lock};
use crate::upstream::Upstream;

/// Where a minted tool goes, and what it was when the run started.
#[derive(Clone, Debug)]
pub struct UpstreamTool {
    /// The upstream's origin.
    pub origin: String,
    /// The tool's raw name upstream.
    pub raw_name: String,
    /// Its descriptor digest at start (SPEC §2).
    pub digest: String,
    /// Its effect, as admitted.
    pub effect: disclose::Effect,
    /// Its approval, as admitted.
    pub approval: Approval,
}

/// How the gateway treats approvals and upstream calls.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How long an upstream `tools/call` may take.
    pub call_timeout: Duration,
    /// `--dangerously-allow-all`: no call is put to the user.
    pub allow_all: bool,
}

/// What every session of the gateway shares: the snapshot, the routes,
/// the fixed answers and the upstreams.
pub struct Shared {
    snapshot: Snapshot,
    /// The recording header's `about`.
    about: String,
    /// `--record DIR`.
    record: Option<PathBuf>,
    /// Where each minted tool goes.
    pub(crate) routes: BTreeMap<String, UpstreamTool>,
    /// The started upstreams, by origin.
    pub(crate) upstreams: BTreeMap<String, Arc<Upstream>>,
    /// Their prompts, resources and notifications.
    pub(crate) hub: Arc<Hub>,
    /// Tools whose upstream restarted with a different descriptor:
    /// minted name → the refusal text. A fact about the upstream, so every
    /// session refuses them.
    pub(crate) changed: Mutex<BTreeMap<String, String>>,
    /// The `tools/list` answer, built once: the run's tool list is fixed.
    pub(crate) list: ListToolsResult,
    /// What `initialize` and `server/discover` say, built once (rmcp asks
    /// for it on many requests).
    pub(crate) info: ServerConfig,
    /// The dormant index.
    pub(crate) render: String,
    /// Approvals and timeouts.
    pub(crate) options: Options,
    next_serial: AtomicU64,
    /// Set when any session's recording could not be written.
    record_failed: Arc<AtomicBool>,
    /// The run of 2026-07-28 requests over HTTP, and when it last answered.
    sessionless: Mutex<Option<(Arc<SessionRun>, Instant)>>,
}

/// What the gateway's shared part is built from.
pub struct Parts {
    /// The upstream snapshot.
    pub snapshot: Snapshot,
    /// The first session's run, started from it; its routes, tool list
    /// and render are every session's.
    pub first_run: StartedRun,
    /// The recording header's `about`.
    pub about: String,
    /// `--record DIR`.
    pub record: Option<PathBuf>,
    /// The started upstreams, by origin.
    pub upstreams: BTreeMap<String, Arc<Upstream>>,
    /// Their prompts, resources and notifications.
    pub hub: Arc<Hub>,
    /// What the upstreams declared, as far as the gateway passes it on:
    /// whether any lists changes of its prompts or resources, takes
    /// subscriptions, or completes arguments.
    pub forwards: Forwards,
    /// Approvals and timeouts.
    pub options: Options,
}

/// What the gateway declares of what it forwards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Forwards {
    /// Some upstream announces prompt list changes.
    pub prompts_changed: bool,
    /// Some upstream announces resource list changes.
    pub resources_changed: bool,
    /// Some upstream takes resource subscriptions.
    pub subscribe: bool,
    /// Some upstream completes arguments.
    pub completions: bool,
}

impl Shared {
    /// The shared part, and the run it was built with (the first session's,
    /// over stdio).
    pub fn new(parts: Parts) -> (Arc<Shared>, disclose::RecordedRun<Out>) {
        let StartedRun {
            run,
            routes,
            tools,
            render,
            refused: _,
        } = parts.first_run;
        // Both are our own JSON of a fixed shape (a test holds that they
        // read); the defaults are never expected.
        let list = crate::gateway::from_json(json!({ "tools": tools })).unwrap_or_default();
        let forwards = parts.forwards;
        let mut declared = json!({
            "tools": {"listChanged": false},
            "prompts": {"listChanged": forwards.prompts_changed},
            "resources": {"listChanged": forwards.resources_changed, "subscribe": forwards.subscribe},
        });
        if forwards.completions {
            declared["completions"] = json!({});
        }
        let capabilities: ServerCapabilities = serde_json::from_value(declared).unwrap_or_default();
        let info = ServerConfig::new(capabilities)
            .with_server_info(rmcp::model::Implementation::new(
                "disclose",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(render.clone());
        let shared = Shared {
            snapshot: parts.snapshot,
            about: parts.about,
            record: parts.record,
            routes,
            upstreams: parts.upstreams,
            hub: parts.hub,
            changed: Mutex::new(BTreeMap::new()),
            list,
            info,
            render,
            options: parts.options,
            next_serial: AtomicU64::new(1),
            record_failed: Arc::new(AtomicBool::new(false)),
            sessionless: Mutex::new(None),
        };
        (Arc::new(shared), run)
    }

    /// `session`, served through `peer`, is told what the upstreams announce
    /// until it ends; then every subscription only it held is ended
    /// upstream.
    pub fn join(self: &Arc<Self>, session: &SessionRun, peer: Peer<RoleServer>) {
        let serial = session.serial();
        self.hub.join(serial, peer);
        let shared = Arc::downgrade(self);
        session.on_end(move || {
            let Some(shared) = shared.upgrade() else {
                return;
            };
            let Ok(runtime) = tokio::runtime::Handle::try_current() else {
                return;
            };
            for (origin, uri) in shared.hub.leave(serial) {
                let shared = Arc::clone(&shared);
                runtime.spawn(async move { shared.unsubscribe_upstream(&origin, uri).await });
            }
        });
    }

    /// Ends the subscription to `uri` on `origin` that no session holds
    /// any more.
    async fn unsubscribe_upstream(&self, origin: &str, uri: String) {
        let Some(upstream) = self.upstreams.get(origin) else {
            return;
        };
        #[expect(
            deprecated,
            reason = "resources/unsubscribe is the handshake revisions' own"
        )]
        let request = ClientRequest::UnsubscribeRequest(rmcp::model::UnsubscribeRequest::new(
            UnsubscribeRequestParams::new(uri.clone()),
        ));
        let what = crate::upstream::What {
            method: "resources/unsubscribe",
            subject: &uri,
        };
        let never = tokio_util::sync::CancellationToken::new();
        let restarted = |tools: &[Value]| self.compare_restarted(origin, tools, "");
        let forward = crate::upstream::Forward {
            cancel: &never,
            timeout: self.options.call_timeout,
            restarted: &restarted,
            progress: None,
            asker: None,
        };
        let _ = upstream.request(request, what, forward).await;
    }

    /// The upstreams, for a clean stop.
    pub fn upstreams(&self) -> Vec<Arc<Upstream>> {
        self.upstreams.values().cloned().collect()
    }

    /// Whether a session's recording could not be written.
    pub fn record_failed(&self) -> bool {
        self.record_failed.load(Ordering::Relaxed)
    }

    /// How many tools are routed to upstreams.
    pub fn routed(&self) -> usize {
        self.routes.len()
    }

    /// A session over `run` (stdio's, whose run was started with the
    /// gateway).
    pub fn session_over(
        &self,
        run: disclose::RecordedRun<Out>,
        recorded_at: Option<PathBuf>,
    ) -> Arc<SessionRun> {
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        Arc::new(SessionRun::new(Opened {
            serial,
            label: format!("session {serial}"),
            run,
            recorded_at,
            allowance: Allowance::Remembered,
            record_failed: Arc::clone(&self.record_failed),
            announce_end: false,
        }))
    }

    /// A new session: its own run from the snapshot, its own recording.
    pub fn open(&self, allowance: Allowance) -> Result<Arc<SessionRun>, String> {
        let serial = self.next_serial.fetch_add(1, Ordering::Relaxed);
        let label = match allowance {
            Allowance::Remembered => format!("session {serial}"),
            Allowance::OnceOnly => format!("sessionless run {serial}"),
        };
        let (out, recorded_at) = match &self.record {
            Some(dir) => {
                let (path, file) = recording::create(dir)
                    .map_err(|e| format!("{label}: cannot record in {}: {e}", dir.display()))?;
                (Out::File(file), Some(path))
            }
            None => (Out::Nowhere, None),
        };
        let started = self.snapshot.start(Recorder::new(out, &self.about));
        crate::log(&format!(
            "{label} started{}",
            recorded_at
                .as_ref()
                .map(|p| format!("; recording to {}", p.display()))
                .unwrap_or_default()
        ));
        Ok(Arc::new(SessionRun::new(Opened {
            serial,
            label,
            run: started.run,
            recorded_at,
            allowance,
            record_failed: Arc::clone(&self.record_failed),
            announce_end: true,
        })))
    }

    /// The sessionless run, started on its first use.
    pub fn sessionless(&self) -> Result<Arc<SessionRun>, String> {
        let mut slot = lock(&self.sessionless);
        if let Some((session, used)) = slot.as_mut() {
            *used = Instant::now();
            return Ok(Arc::clone(session));
        }
        let session = self.open(Allowance::OnceOnly)?;
        *slot = Some((Arc::clone(&session), Instant::now()));
        Ok(session)
    }

    /// Ends the sessionless run when it has not answered for `idle` (its
    /// recording closes once the calls still holding it are answered).
    pub fn end_idle_sessionless(&self, idle: Duration) {
        let mut slot = lock(&self.sessionless);
        if slot
            .as_ref()
            .is_some_and(|(_, used)| used.elapsed() >= idle)
        {
            *slot = None;
        }
    }

    /// Ends the sessionless run now (the gateway stops).
    pub fn end_sessionless(&self) {
        lock(&self.sessionless).take();
    }

    /// After a restart: each of this upstream's tools whose descriptor
    /// differs from the run's (or that is gone) is refused from now on.
    /// Gives the refusal for `minted` when it is one of them.
    pub(crate) fn compare_restarted(
        &self,
        origin: &str,
        tools: &[Value],
        minted: &str,
    ) -> Option<String> {
        let now = crate::catalog::digests(origin, tools);
        let mut changed = lock(&self.changed);
        for (name, route) in self.routes.iter().filter(|(_, r)| r.origin == origin) {
            let current = now.get(name);
            if current == Some(&route.digest) {
                changed.remove(name);
                continue;
            }
            let became = match current {
                Some(digest) => format!("digest {} became {}", short(&route.digest), short(digest)),
                None => format!("digest {} is no longer listed", short(&route.digest)),
            };
            let text = format!(
                "disclose: server \"{origin}\" restarted and \"{name}\" changed ({became}); the run's catalog does not change, so it is refused until the gateway restarts\n"
            );
            crate::log(&format!("{origin}: {name} changed on restart ({became})"));
            changed.insert(name.clone(), text);
        }
        changed.get(minted).cloned()
    }
}

fn short(digest: &str) -> &str {
    digest.get(..16).unwrap_or(digest)
}
