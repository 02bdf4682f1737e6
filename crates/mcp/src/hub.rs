//! What the upstreams tell the sessions, beside the answers to their
//! requests: the merged lists of prompts, resources and templates (and
//! their changes), resource updates for the sessions subscribed to them,
//! and the URIs of `resource_link`s a tool result pointed at.
//!
//! The hub is shared by every upstream (whose handlers report to it) and
//! every session (which reads the lists and joins the broadcasts). A
//! `list_changed` reaches every live session; a `resources/updated`
//! reaches only the sessions subscribed to that URI on that upstream.
//! Sessionless (2026-07-28) requests over HTTP receive no notifications:
//! that revision delivers them on `subscriptions/listen`, which the
//! gateway does not serve.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use rmcp::model::{ContentBlock, ResourceUpdatedNotificationParam};
use rmcp::{Peer, RoleServer};

use crate::listing::{Listing, Lists, Own};
use crate::session::lock;

/// The most `resource_link` URIs remembered, oldest forgotten first.
const LINKS: usize = 4096;

/// Which of the lists changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The prompts.
    pub prompts: bool,
    /// The resources or templates.
    pub resources: bool,
}

/// The hub.
pub struct Hub {
    own: Own,
    /// Origins in config order.
    order: Vec<String>,
    listings: Mutex<BTreeMap<String, Listing>>,
    lists: Mutex<Arc<Lists>>,
    /// Live sessions that can be notified, by the gateway's number.
    sessions: Mutex<BTreeMap<u64, Peer<RoleServer>>>,
    /// Subscribed URIs: upstream and URI → the sessions subscribed.
    subscribed: Mutex<BTreeMap<(String, String), BTreeSet<u64>>>,
    /// `resource_link` URIs a tool result gave, with its upstream.
    links: Mutex<(BTreeMap<String, String>, VecDeque<String>)>,
}

impl Hub {
    /// A hub of no listing yet, over upstreams in `order`.
    pub fn new(own: Own, order: Vec<String>) -> Hub {
        let lists = Lists::merge(0, &own, &order, &BTreeMap::new());
        Hub {
            own,
            order,
            listings: Mutex::new(BTreeMap::new()),
            lists: Mutex::new(Arc::new(lists)),
            sessions: Mutex::new(BTreeMap::new()),
            subscribed: Mutex::new(BTreeMap::new()),
            links: Mutex::new((BTreeMap::new(), VecDeque::new())),
        }
    }

    /// The lists as they are now.
    pub fn lists(&self) -> Arc<Lists> {
        Arc::clone(&lock(&self.lists))
    }

    /// Sets `origin`'s listing, or only its prompts or only its resources
    /// and templates (`None` keeps what it had), and merges the lists again
    /// when it changed; says which changed.
    pub fn update(
        &self,
        origin: &str,
        prompts: Option<Vec<serde_json::Value>>,
        resources: Option<(Vec<serde_json::Value>, Vec<serde_json::Value>)>,
    ) -> Changed {
        let mut listings = lock(&self.listings);
        let listing = listings.entry(origin.to_string()).or_default();
        let mut changed = Changed::default();
        if let Some(prompts) = prompts
            && prompts != listing.prompts
        {
            listing.prompts = prompts;
            changed.prompts = true;
        }
        if let Some((resources, templates)) = resources
            && (resources != listing.resources || templates != listing.templates)
        {
            listing.resources = resources;
            listing.templates = templates;
            changed.resources = true;
        }
        if changed != Changed::default() {
            let mut lists = lock(&self.lists);
            let generation = lists.generation() + 1;
            *lists = Arc::new(Lists::merge(generation, &self.own, &self.order, &listings));
        }
        changed
    }

    /// Tells every live session what changed.
    pub fn announce(&self, changed: Changed) {
        if changed == Changed::default() {
            return;
        }
        let peers: Vec<Peer<RoleServer>> = lock(&self.sessions).values().cloned().collect();
        for peer in peers {
            tokio::spawn(async move {
                if changed.prompts {
                    let _ = peer.notify_prompt_list_changed().await;
                }
                if changed.resources {
                    let _ = peer.notify_resource_list_changed().await;
                }
            });
        }
    }

    /// A session that can be notified, from now until [`Hub::leave`].
    pub fn join(&self, session: u64, peer: Peer<RoleServer>) {
        lock(&self.sessions).insert(session, peer);
    }

    /// A session ended: it is notified no more, and each URI only it was
    /// subscribed to is given, with its upstream, to be unsubscribed.
    pub fn leave(&self, session: u64) -> Vec<(String, String)> {
        lock(&self.sessions).remove(&session);
        let mut subscribed = lock(&self.subscribed);
        let mut last = Vec::new();
        subscribed.retain(|key, sessions| {
            if sessions.remove(&session) && sessions.is_empty() {
                last.push(key.clone());
            }
            !sessions.is_empty()
        });
        last
    }

    /// `session` subscribes to `uri` on `origin`; `true` when it is the
    /// first, and the upstream is to be told.
    pub fn subscribe(&self, session: u64, origin: &str, uri: &str) -> bool {
        let mut subscribed = lock(&self.subscribed);
        let sessions = subscribed
            .entry((origin.to_string(), uri.to_string()))
            .or_default();
        let first = sessions.is_empty();
        sessions.insert(session);
        first
    }

    /// `session` unsubscribes from `uri` on `origin`; `true` when it was
    /// the last, and the upstream is to be told.
    pub fn unsubscribe(&self, session: u64, origin: &str, uri: &str) -> bool {
        let mut subscribed = lock(&self.subscribed);
        let key = (origin.to_string(), uri.to_string());
        let Some(sessions) = subscribed.get_mut(&key) else {
            return false;
        };
        let was = sessions.remove(&session);
        if sessions.is_empty() {
            subscribed.remove(&key);
            return was;
        }
        false
    }

    /// `origin` says `uri` was updated: each session subscribed to it
    /// there is told, and no other.
    pub fn updated(&self, origin: &str, params: ResourceUpdatedNotificationParam) {
        let key = (origin.to_string(), params.uri.clone());
        let Some(sessions) = lock(&self.subscribed).get(&key).cloned() else {
            return;
        };
        let peers: Vec<Peer<RoleServer>> = {
            let live = lock(&self.sessions);
            sessions
                .iter()
                .filter_map(|s| live.get(s).cloned())
                .collect()
        };
        for peer in peers {
            let params = ResourceUpdatedNotificationParam::new(params.uri.clone());
            tokio::spawn(async move {
                let _ = peer.notify_resource_updated(params).await;
            });
        }
    }

    /// Remembers the URI of each `resource_link` in `content`, from
    /// `origin`: its server can be asked to read it.
    pub fn remember_links(&self, origin: &str, content: &[ContentBlock]) {
        let mut uris = content.iter().filter_map(|block| match block {
            ContentBlock::ResourceLink(link) => Some(link.uri.clone()),
            _ => None,
        });
        let Some(first) = uris.next() else {
            return;
        };
        let mut links = lock(&self.links);
        let (owners, age) = &mut *links;
        for uri in std::iter::once(first).chain(uris) {
            if owners.insert(uri.clone(), origin.to_string()).is_none() {
                age.push_back(uri);
            }
            while age.len() > LINKS {
                if let Some(old) = age.pop_front() {
                    owners.remove(&old);
                }
            }
        }
    }

    /// The upstream that serves `uri`: the one that listed it, else the
    /// first whose template matches it, else the one whose tool result
    /// linked to it.
    pub fn resource_owner(&self, uri: &str) -> Option<String> {
        if let Some(origin) = self.lists().resource_owner(uri) {
            return Some(origin.to_string());
        }
        lock(&self.links).0.get(uri).cloned()
    }
}
