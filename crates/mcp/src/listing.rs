//! The upstreams' prompts, resources and resource templates, merged into
//! the lists the gateway serves, with where each one goes.
//!
//! Each upstream's [`Listing`] is what its `prompts/list`,
//! `resources/list` and `resources/templates/list` gave, every page read
//! (at start, when the server announces a list changed, and after a
//! restart). [`Lists`] merges them in config order behind the gateway's own
//! `index` prompt and `disclose://index` resource:
//!
//! - a prompt is named `<origin>__<name>` as a tool is minted, and one
//!   whose minted name is not a valid name or collides with an earlier one
//!   (SPEC §2's normalization key) is left out, named on stderr;
//! - a resource keeps its URI, and so does a template its `uriTemplate`;
//!   when two upstreams list one, the first in config order keeps it and
//!   stderr names the second;
//! - an entry that holds a config secret is left out (never rewritten), as
//!   a tool declaration is.
//!
//! Lists are served a page of [`PAGE`] entries at a time; a cursor names
//! the lists' generation, so a page asked after the lists changed is
//! refused (the client was told `list_changed` and lists again).

use std::collections::{BTreeMap, BTreeSet};

use rmcp::ErrorData;
use rmcp::model::{Prompt, Resource, ResourceTemplate};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::log;
use crate::uri_template::UriTemplate;

/// Entries in one page of a list the gateway serves.
pub const PAGE: usize = 500;

/// One upstream's prompts, resources and resource templates, each as the
/// JSON object it listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    /// `prompts/list`.
    pub prompts: Vec<Value>,
    /// `resources/list`.
    pub resources: Vec<Value>,
    /// `resources/templates/list`.
    pub templates: Vec<Value>,
}

/// Where a minted prompt goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptRoute {
    /// Its upstream.
    pub origin: String,
    /// Its name there.
    pub raw_name: String,
}

/// The merged lists, one generation of them.
#[derive(Debug, Default)]
pub struct Lists {
    generation: u64,
    prompts: Vec<Prompt>,
    prompt_routes: BTreeMap<String, PromptRoute>,
    resources: Vec<Resource>,
    resource_routes: BTreeMap<String, String>,
    templates: Vec<ResourceTemplate>,
    /// Each listed template, parsed, with its text and upstream.
    template_routes: Vec<(UriTemplate, String, String)>,
}

/// The gateway's own entries, first in their lists.
pub struct Own {
    /// The `index` prompt.
    pub prompt: Prompt,
    /// The `disclose://index` resource.
    pub resource: Resource,
}

impl Lists {
    /// The lists of `listings` (by origin) merged in `order`, behind `own`;
    /// what is left out is said on stderr.
    pub fn merge(
        generation: u64,
        own: &Own,
        order: &[String],
        listings: &BTreeMap<String, Listing>,
    ) -> Lists {
        let secrets = crate::secrets::installed();
        let mut lists = Lists {
            generation,
            prompts: vec![own.prompt.clone()],
            resources: vec![own.resource.clone()],
            ..Lists::default()
        };
        let mut keys = BTreeSet::new();
        lists
            .resource_routes
            .insert(own.resource.uri.clone(), String::new());
        for origin in order {
            let Some(listing) = listings.get(origin) else {
                continue;
            };
            let held = |kind: &str, index: usize, entry: &Value| match secrets.found_in(entry) {
                Some(place) => {
                    log(&format!(
                        "{origin}: {kind} #{} is left out: it holds the value of {place}, a secret",
                        index + 1
                    ));
                    true
                }
                None => false,
            };
            for (index, entry) in listing.prompts.iter().enumerate() {
                if held("prompt", index, entry) {
                    continue;
                }
                let Some(mut prompt) = read::<Prompt>(origin, "prompt", index, entry) else {
                    continue;
                };
                let raw_name = prompt.name.to_string();
                let minted = disclose::internals::naming::mint(origin, &raw_name);
                if !disclose::internals::naming::name_is_valid(&minted) {
                    log(&format!(
                        "{origin}: prompt #{} \"{raw_name}\" is left out: \"{minted}\" is not a valid name (1 to 64 of A-Z, a-z, 0-9, _ and -)",
                        index + 1
                    ));
                    continue;
                }
                let key = disclose::internals::naming::normalization_key(&minted);
                if !keys.insert(key) {
                    log(&format!(
                        "{origin}: prompt #{} \"{raw_name}\" is left out: \"{minted}\" collides with a prompt listed before it (names that differ only in case or - and _ are one name)",
                        index + 1
                    ));
                    continue;
                }
                prompt.name = minted.clone();
                lists.prompt_routes.insert(
                    minted,
                    PromptRoute {
                        origin: origin.clone(),
                        raw_name,
                    },
                );
                lists.prompts.push(prompt);
            }
            for (index, entry) in listing.resources.iter().enumerate() {
                if held("resource", index, entry) {
                    continue;
                }
                let Some(resource) = read::<Resource>(origin, "resource", index, entry) else {
                    continue;
                };
                let uri = resource.uri.clone();
                if let Some(first) = lists.resource_routes.get(&uri) {
                    log(&format!(
                        "{origin}: resource \"{uri}\" is left out: {} lists it too, first in the config",
                        holder(first)
                    ));
                    continue;
                }
                lists.resource_routes.insert(uri, origin.clone());
                lists.resources.push(resource);
            }
            for (index, entry) in listing.templates.iter().enumerate() {
                if held("resource template", index, entry) {
                    continue;
                }
                let Some(template) =
                    read::<ResourceTemplate>(origin, "resource template", index, entry)
                else {
                    continue;
                };
                let text = template.uri_template.clone();
                if let Some((_, _, first)) = lists.template_routes.iter().find(|t| t.1 == text) {
                    log(&format!(
                        "{origin}: resource template \"{text}\" is left out: {first} lists it too, first in the config"
                    ));
                    continue;
                }
                let Some(parsed) = UriTemplate::parse(&text) else {
                    log(&format!(
                        "{origin}: resource template \"{text}\" is left out: it is not an RFC 6570 URI template"
                    ));
                    continue;
                };
                lists.template_routes.push((parsed, text, origin.clone()));
                lists.templates.push(template);
            }
        }
        lists
    }

    /// Which generation of the lists this is.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Where the prompt `minted` goes (`None` for the gateway's own, or an
    /// unknown one).
    pub fn prompt(&self, minted: &str) -> Option<&PromptRoute> {
        self.prompt_routes.get(minted)
    }

    /// The upstream that serves `uri`: the one that listed it, else the
    /// first (in config order) whose template matches it.
    pub fn resource_owner(&self, uri: &str) -> Option<&str> {
        if let Some(origin) = self.resource_routes.get(uri) {
            return Some(origin.as_str()).filter(|o| !o.is_empty());
        }
        self.template_routes
            .iter()
            .find(|(template, _, _)| template.matches(uri))
            .map(|(_, _, origin)| origin.as_str())
    }

    /// The upstream that owns the template (or resource) `uri`, for a
    /// completion's `ref/resource`.
    pub fn template_owner(&self, uri: &str) -> Option<&str> {
        self.template_routes
            .iter()
            .find(|(_, text, _)| text == uri)
            .map(|(_, _, origin)| origin.as_str())
            .or_else(|| self.resource_owner(uri))
    }

    /// A page of the prompts.
    pub fn prompts(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<Prompt>, Option<String>), ErrorData> {
        self.page(&self.prompts, cursor)
    }

    /// A page of the resources.
    pub fn resources(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<Resource>, Option<String>), ErrorData> {
        self.page(&self.resources, cursor)
    }

    /// A page of the resource templates.
    pub fn templates(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<ResourceTemplate>, Option<String>), ErrorData> {
        self.page(&self.templates, cursor)
    }

    /// The page of `items` that `cursor` names (the first without one), and
    /// the cursor of the next, if any.
    fn page<T: Clone>(
        &self,
        items: &[T],
        cursor: Option<&str>,
    ) -> Result<(Vec<T>, Option<String>), ErrorData> {
        let start = match cursor {
            None => 0,
            Some(cursor) => {
                let parsed = cursor
                    .split_once(':')
                    .and_then(|(g, at)| Some((g.parse::<u64>().ok()?, at.parse::<usize>().ok()?)));
                match parsed {
                    Some((generation, at))
                        if generation == self.generation && at <= items.len() =>
                    {
                        at
                    }
                    Some((generation, _)) if generation != self.generation => {
                        return Err(ErrorData::invalid_params(
                            "the list changed since this cursor was given; list again from the start",
                            None,
                        ));
                    }
                    _ => {
                        return Err(ErrorData::invalid_params(
                            format!("\"{cursor}\" is not a cursor this gateway gave"),
                            None,
                        ));
                    }
                }
            }
        };
        let end = items.len().min(start + PAGE);
        let next = (end < items.len()).then(|| format!("{}:{end}", self.generation));
        Ok((items[start..end].to_vec(), next))
    }
}

/// How a message names the holder of an entry: the gateway or an origin.
fn holder(origin: &str) -> &str {
    if origin.is_empty() {
        "the gateway's own index"
    } else {
        origin
    }
}

/// An entry as rmcp's type reads it; one that does not read is said on
/// stderr and left out.
fn read<T: DeserializeOwned>(origin: &str, kind: &str, index: usize, entry: &Value) -> Option<T> {
    match serde_json::from_value(entry.clone()) {
        Ok(value) => Some(value),
        Err(error) => {
            log(&format!(
                "{origin}: {kind} #{} is left out: it cannot be read ({error})",
                index + 1
            ));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn own() -> Own {
        Own {
            prompt: serde_json::from_value(json!({"name": "index"})).unwrap(),
            resource: serde_json::from_value(json!({"uri": "disclose://index", "name": "index"}))
                .unwrap(),
        }
    }

    fn lists() -> Lists {
        let mut listings = BTreeMap::new();
        listings.insert(
            "everything".to_string(),
            Listing {
                prompts: vec![
                    json!({"name": "simple-prompt"}),
                    json!({"name": "Simple_Prompt"}),
                    json!({"name": "bad name"}),
                    json!({"nameless": true}),
                ],
                resources: vec![json!({"uri": "demo://a", "name": "a"})],
                templates: vec![
                    json!({"uriTemplate": "demo://text/{id}", "name": "t"}),
                    json!({"uriTemplate": "demo://{broken", "name": "b"}),
                ],
            },
        );
        listings.insert(
            "second".to_string(),
            Listing {
                prompts: vec![json!({"name": "simple-prompt", "description": "again"})],
                resources: vec![
                    json!({"uri": "demo://a", "name": "a again"}),
                    json!({"uri": "disclose://index", "name": "mine"}),
                    json!({"uri": "note://1", "name": "n"}),
                ],
                templates: vec![
                    json!({"uriTemplate": "demo://text/{id}", "name": "again"}),
                    json!({"uriTemplate": "{+any}", "name": "all"}),
                ],
            },
        );
        // Config order: `second` first, whatever the byte order.
        Lists::merge(
            7,
            &own(),
            &["second".into(), "everything".into()],
            &listings,
        )
    }

    #[test]
    fn prompts_are_minted_and_the_first_of_a_collision_is_kept() {
        let lists = lists();
        let names: Vec<String> = lists.prompts.iter().map(|p| p.name.to_string()).collect();
        assert_eq!(
            names,
            [
                "index",
                "second__simple-prompt",
                "everything__simple-prompt"
            ]
        );
        assert_eq!(
            lists.prompt("everything__simple-prompt"),
            Some(&PromptRoute {
                origin: "everything".into(),
                raw_name: "simple-prompt".into()
            })
        );
        assert_eq!(lists.prompt("index"), None);
    }

    #[test]
    fn uris_keep_the_first_in_config_order_and_templates_route_the_rest() {
        let lists = lists();
        let uris: Vec<&str> = lists.resources.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(uris, ["disclose://index", "demo://a", "note://1"]);
        assert_eq!(lists.resource_owner("demo://a"), Some("second"));
        assert_eq!(lists.resource_owner("note://1"), Some("second"));
        // The gateway's own resource is no upstream's.
        assert_eq!(lists.resource_owner("disclose://index"), None);
        // `demo://text/{id}` is second's (first in config order), and so is
        // everything `{+any}` covers.
        assert_eq!(lists.resource_owner("demo://text/9"), Some("second"));
        assert_eq!(lists.resource_owner("other://x"), Some("second"));
        let templates: Vec<&str> = lists
            .templates
            .iter()
            .map(|t| t.uri_template.as_str())
            .collect();
        assert_eq!(templates, ["demo://text/{id}", "{+any}"]);
        assert_eq!(lists.template_owner("demo://text/{id}"), Some("second"));
    }

    #[test]
    fn pages_follow_the_generation() {
        let mut listings = BTreeMap::new();
        let prompts = (0..PAGE + 10)
            .map(|i| json!({"name": format!("p{i}")}))
            .collect();
        listings.insert(
            "a".to_string(),
            Listing {
                prompts,
                ..Listing::default()
            },
        );
        let lists = Lists::merge(3, &own(), &["a".into()], &listings);
        let (first, next) = lists.prompts(None).unwrap();
        assert_eq!(first.len(), PAGE);
        let next = next.expect("a second page");
        let (second, last) = lists.prompts(Some(&next)).unwrap();
        assert_eq!(second.len(), 11);
        assert_eq!(last, None);
        assert_eq!(second.last().unwrap().name, format!("a__p{}", PAGE + 9));
        let newer = Lists::merge(4, &own(), &["a".into()], &listings);
        assert_eq!(newer.prompts(Some(&next)).unwrap_err().code.0, -32602);
        assert_eq!(lists.prompts(Some("x")).unwrap_err().code.0, -32602);
        assert_eq!(lists.prompts(Some("3:99999")).unwrap_err().code.0, -32602);
    }
}
