//! The run the gateway serves: every upstream's tools admitted through the
//! library, in a stable order, and the run started.
//!
//! Upstreams are admitted by origin (byte order), each one's tools in the
//! order its `tools/list` gave them, so the same servers give the same run
//! whichever answered first. A tool the server's `"tools"` filter leaves
//! out is never offered ([`filtered`]). Each tool goes through
//! `disclose::import::mcp` (annotations to effects, as documented there),
//! takes the approval its server's `approval` rule gives it, and is offered to the `Recorder` whatever it is: a refusal
//! (a normalization collision, a bad schema, a name past 64 characters)
//! stays in the recording and is logged. The run starts in `work` mode, or
//! as a `scout`/`writer` child (SPEC §8).

use std::collections::BTreeMap;

use disclose::{Catalog, Mode, Profile, Provider, RecordedRun, Recorder, ToolDecl};
use serde_json::Value;

use crate::log;
use crate::policy::{ApprovalRule, ToolFilter};
use crate::recording::Out;
use crate::secrets::Secrets;
use crate::shared::UpstreamTool;

/// The run the gateway serves, started and recorded.
pub struct StartedRun {
    /// The run.
    pub run: RecordedRun<Out>,
    /// Where each offered upstream tool goes.
    pub routes: BTreeMap<String, UpstreamTool>,
    /// `tools_for(Provider::Mcp)`, parsed: the `tools/list` answer.
    pub tools: Value,
    /// `render()`: the `instructions`.
    pub render: String,
    /// Each declaration admission refused, as one line for stderr.
    pub refused: Vec<String>,
}

/// One upstream's tools, as it listed them.
pub struct Listed<'a> {
    /// Its origin.
    pub origin: &'a str,
    /// Its config's `approval`.
    pub approval: &'a ApprovalRule,
    /// Its `tools/list`, each tool a JSON object.
    pub tools: &'a [Value],
}

/// The tools of `tools` that `filter` admits, and how many it left out.
pub fn filtered(tools: &[Value], filter: &ToolFilter) -> (Vec<Value>, usize) {
    let kept: Vec<Value> = tools
        .iter()
        .filter(|tool| filter.admits(tool.get("name").and_then(Value::as_str)))
        .cloned()
        .collect();
    let left_out = tools.len() - kept.len();
    (kept, left_out)
}

/// The declarations of one upstream's tools. A tool the import cannot read
/// (no usable name) is logged and left out: there is nothing to declare.
pub fn declarations(origin: &str, approval: &ApprovalRule, tools: &[Value]) -> Vec<ToolDecl> {
    let mut decls = Vec::with_capacity(tools.len());
    for (index, tool) in tools.iter().enumerate() {
        decls.extend(declare(origin, approval, index, tool));
    }
    decls
}

/// The declaration of the `index`th tool an upstream listed, if the import
/// can read it (it is logged otherwise).
fn declare(origin: &str, approval: &ApprovalRule, index: usize, tool: &Value) -> Vec<ToolDecl> {
    let one = Value::Array(vec![tool.clone()]);
    match disclose::import::mcp(one.to_string(), origin) {
        Ok(imported) => imported
            .tools
            .into_iter()
            .map(|decl| {
                let approval = approval.for_tool(&decl.name, decl.effect);
                decl.with_approval(approval)
            })
            .collect(),
        Err(error) => {
            log(&format!(
                "{origin}: tool #{} cannot be declared: {error}",
                index + 1
            ));
            Vec::new()
        }
    }
}

/// One declaration of the snapshot: offered for admission, or withheld
/// because what the server listed holds a config secret. A withheld one is
/// recorded redacted, as not admitted (`admitted: false`), and never
/// reaches a run: a redaction never changes a tool's name or what it does.
struct Offered {
    decl: ToolDecl,
    withheld: bool,
}

/// The one upstream snapshot every run of the gateway starts from: every
/// declaration, in admission order, and the profile. Read once when the
/// gateway starts; each session admits the same declarations into its own
/// run, so every session's catalog is the same, byte for byte.
pub struct Snapshot {
    decls: Vec<Offered>,
    profile: Option<Profile>,
}

impl Snapshot {
    /// The declarations of every upstream's tools, by origin (as `listed`
    /// comes), each server's in its own order. A tool whose listing holds
    /// one of `secrets` anywhere (its name, description, schemas,
    /// annotations) is withheld, and stderr names the server, the tool and
    /// where the config holds the secret, never its value.
    pub fn new(listed: &[Listed<'_>], profile: Option<Profile>, secrets: &Secrets) -> Snapshot {
        let mut decls = Vec::new();
        for upstream in listed {
            let (origin, approval) = (upstream.origin, upstream.approval);
            for (index, tool) in upstream.tools.iter().enumerate() {
                let Some(place) = secrets.found_in(tool) else {
                    let offered = declare(origin, approval, index, tool);
                    decls.extend(offered.into_iter().map(|decl| Offered {
                        decl,
                        withheld: false,
                    }));
                    continue;
                };
                // stderr scrubs the name too, should it be the secret.
                let name = tool
                    .get("name")
                    .map_or("(no name)".into(), Value::to_string);
                log(&format!(
                    "{origin}: tool #{} {name} is left out: its declaration holds the value of {place}, a secret (the recording keeps the declaration, redacted)",
                    index + 1
                ));
                let mut redacted = tool.clone();
                secrets.scrub_value(&mut redacted);
                let withheld = declare(origin, approval, index, &redacted);
                decls.extend(withheld.into_iter().map(|decl| Offered {
                    decl,
                    withheld: true,
                }));
            }
        }
        Snapshot { decls, profile }
    }

    /// Admits every declaration, starts the run and records its render and
    /// tool list.
    pub fn start(&self, mut recorder: Recorder<Out>) -> StartedRun {
        let mut routes = BTreeMap::new();
        let mut refused = Vec::new();
        for Offered { decl, withheld } in &self.decls {
            if *withheld {
                recorder.unadmitted_tool(decl);
                continue;
            }
            match recorder.admit_tool(decl) {
                Ok(tool) => {
                    routes.insert(
                        tool.name().to_string(),
                        UpstreamTool {
                            origin: tool.origin().to_string(),
                            raw_name: tool.raw_name().to_string(),
                            digest: tool.digest().to_string(),
                            effect: tool.effect(),
                            approval: tool.approval(),
                        },
                    );
                }
                Err(refusal) => refused.push(format!(
                    "{}: {}",
                    decl.origin,
                    refusal.to_lines().trim_end().replace('\n', " ")
                )),
            }
        }
        let mut run = match self.profile {
            None => recorder.start(Mode::Work),
            Some(profile) => recorder.start_child(Mode::Work, profile),
        };
        // A child offers fewer tools (SPEC §8): only those are routed.
        routes.retain(|name, _| run.run().offered_tools().any(|t| t.name() == name));
        let render = run.render();
        let list = run.tools_for(Provider::Mcp);
        let tools = list.value().clone();
        StartedRun {
            run,
            routes,
            tools,
            render,
            refused,
        }
    }
}

/// The descriptor digest (SPEC §2) of each of an upstream's tools that the
/// catalog would admit alone, by minted name: what a restarted server is
/// compared with.
pub fn digests(origin: &str, tools: &[Value]) -> BTreeMap<String, String> {
    let mut digests = BTreeMap::new();
    for decl in declarations(origin, &ApprovalRule::default(), tools) {
        let mut scratch = Catalog::new();
        if let Ok(tool) = scratch.admit_tool(&decl) {
            digests.insert(tool.name().to_string(), tool.digest().to_string());
        }
    }
    digests
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refused_tools_are_recorded_and_never_routed() {
        let tools = [
            json!({"name": "search_a", "description": "Search A.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}),
            json!({"name": "Search-A", "description": "Search again.", "inputSchema": {"type": "object"}}),
            json!({"name": "bad", "description": "Bad schema.", "inputSchema": {"type": "Number"}}),
            json!({"description": "No name."}),
        ];
        let listed = [Listed {
            origin: "srv",
            approval: &ApprovalRule::of(crate::policy::AskPolicy::Never),
            tools: &tools,
        }];
        let file = tempfile::tempfile().expect("a temporary file");
        let mut reader = file.try_clone().expect("a second handle");
        let recorder = Recorder::new(Out::File(file), "test");
        let started = Snapshot::new(&listed, None, &Secrets::default()).start(recorder);
        let mut session = String::new();
        std::io::Seek::rewind(&mut reader).expect("rewind");
        std::io::Read::read_to_string(&mut reader, &mut session).expect("read back");
        let parsed = disclose_replay::session::parse(session.as_bytes()).expect("parses");
        let outputs: Vec<String> = disclose_replay::replay::replay(&parsed)
            .steps
            .iter()
            .filter(|s| s.op == "tool")
            .map(|s| s.output.clone())
            .collect();
        assert_eq!(
            outputs.len(),
            3,
            "every declaration as offered: {outputs:?}"
        );
        assert_eq!(started.refused.len(), 2, "{:?}", started.refused);
        assert!(
            outputs[1].starts_with("refused E_INVALID_ARGS admit.collision: "),
            "{}",
            outputs[1]
        );
        assert!(
            outputs[2].starts_with("refused E_INVALID_ARGS admit.schema: "),
            "{}",
            outputs[2]
        );
        let routed: Vec<&str> = started.routes.keys().map(String::as_str).collect();
        assert_eq!(routed, ["srv__search_a"]);
        let route = &started.routes["srv__search_a"];
        assert_eq!(
            (route.raw_name.as_str(), route.effect, route.approval),
            (
                "search_a",
                disclose::Effect::Read,
                disclose::Approval::Never
            )
        );
        assert!(
            started.render.contains("- srv__search_a: Search A.\n"),
            "{}",
            started.render
        );
        assert_eq!(
            digests("srv", &tools).keys().collect::<Vec<_>>(),
            ["srv__Search-A", "srv__search_a"]
        );
    }
}
