//! A started run (SPEC §3–§5, §7–§8): the frozen catalog and what it answers.
//!
//! Everything a run shows is fixed at [`Catalog::start`]: the resident tool
//! list, the dormant lines and the search index are built once, so `render`
//! and `tool_defs` are byte-identical for the run's life and a mode switch
//! moves only the gate. A child run is built from the same catalog and sees
//! only what its profile offers, everywhere.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::canonical::write_string;
use crate::catalog::{AdmittedTool, Catalog, Door, Skill};
use crate::declaration::{CarriedSkill, ShelfSkill, ToolDecl};
use crate::dormant::{DormantLine, write_index};
use crate::mode::{Mode, Profile, RESIDENT_ORDER};
use crate::naming::mint;
use crate::refusal::{QueryReason, Refusal};
use crate::search::{Candidate, SearchIndex};
use crate::{QUERY_MAX_BYTES, naming};

/// One resident tool's definition, as the request's tool list carries it.
///
/// Read-only: its canonical line is written once from the admitted tool, so
/// every getter answers from the same admission (no field can be edited
/// into disagreeing with the bytes).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDef {
    name: String,
    description: String,
    input_schema: Arc<Value>,
    /// The canonical line, written once from the admitted schema's text.
    line: String,
    /// Where the canonical input schema stands in `line`.
    schema_at: std::ops::Range<usize>,
}

impl ToolDef {
    /// The definition of a tool whose input schema's canonical text is
    /// `schema_text`.
    pub(crate) fn new(
        name: &str,
        description: &str,
        input_schema: &Arc<Value>,
        schema_text: &str,
    ) -> ToolDef {
        let description = description.trim();
        let mut line =
            String::with_capacity(schema_text.len() + description.len() + name.len() + 40);
        line.push_str("{\"description\":");
        write_string(&mut line, description);
        line.push_str(",\"input_schema\":");
        let schema_at = line.len()..line.len() + schema_text.len();
        line.push_str(schema_text);
        line.push_str(",\"name\":");
        write_string(&mut line, name);
        line.push('}');
        ToolDef {
            name: name.to_string(),
            description: description.to_string(),
            input_schema: Arc::clone(input_schema),
            line,
            schema_at,
        }
    }

    /// The minted name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description, trimmed.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The input schema.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// `{"description":…,"input_schema":…,"name":…}` in canonical JSON: the
    /// Anthropic shape, and the `tool_defs` line of SPEC §11.
    pub fn canonical(&self) -> &str {
        &self.line
    }

    /// The input schema in canonical JSON (SPEC §10).
    pub fn schema_text(&self) -> &str {
        self.line.get(self.schema_at.clone()).unwrap_or_default()
    }
}

/// A skill's pinned hash: which card this run got, and what bytes it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillPin {
    /// The skill's name.
    pub name: String,
    /// BLAKE3, 64 lowercase hex.
    pub hash: String,
}

/// A started run. The catalog is frozen: every admission is `admit.frozen`.
#[derive(Clone, Debug)]
pub struct Run {
    generation: u64,
    dev_line: Option<String>,
    /// Every admitted tool, sorted by minted name (the catalog's order).
    #[expect(
        clippy::vec_box,
        reason = "the catalog's boxes, moved in as they are: no tool is copied"
    )]
    tools: Vec<Box<AdmittedTool>>,
    /// Every skill, sorted by name.
    skills: Vec<Skill>,
    start_mode: Mode,
    pub(crate) mode: Mode,
    pub(crate) profile: Option<Profile>,
    tool_defs: Vec<ToolDef>,
    dormant: Vec<DormantLine>,
    /// The ranked search and its candidates, built the first time a
    /// ranked query needs them.
    search: OnceLock<(SearchIndex, Vec<Member>)>,
}

impl Run {
    pub(crate) fn new(catalog: Catalog, mode: Mode, profile: Option<Profile>) -> Run {
        let offered =
            |tool: &AdmittedTool| profile.is_none_or(|p| p.offers(tool.effect(), tool.approval()));
        let tool_defs: Vec<ToolDef> = RESIDENT_ORDER
            .iter()
            .filter_map(|name| catalog.tools.get(*name))
            .filter(|tool| offered(tool))
            .map(|tool| tool.tool_def())
            .collect();
        let mut dormant = Vec::new();
        for tool in catalog.tools.values().filter(|t| offered(t)) {
            if !RESIDENT_ORDER.contains(&tool.name()) {
                dormant.push(DormantLine::tool(tool.name(), tool.hint()));
            }
        }
        for skill in catalog.skills.values() {
            dormant.push(DormantLine::skill(skill.name(), skill.hint()));
        }
        Run {
            generation: catalog.generation(),
            dev_line: catalog.dev_line,
            tools: catalog.tools.into_values().collect(),
            skills: catalog.skills.into_values().collect(),
            start_mode: mode,
            mode,
            profile,
            tool_defs,
            dormant,
            search: OnceLock::new(),
        }
    }

    /// The mode the run started in (the one `render` prints).
    pub fn start_mode(&self) -> Mode {
        self.start_mode
    }
    /// The effective mode (the one the gate reads).
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// The child profile, when this is a child run.
    pub fn profile(&self) -> Option<Profile> {
        self.profile
    }
    /// The catalog generation at start.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Refused: the run has started (SPEC §2 check 1).
    pub fn admit_tool(&self, decl: &ToolDecl) -> Refusal {
        Refusal::Frozen {
            name: mint(&decl.origin, &decl.name),
        }
    }
    /// Refused: the run has started (SPEC §2 check 1).
    pub fn admit_skill(&self, decl: &ShelfSkill) -> Refusal {
        Refusal::Frozen {
            name: decl.name.clone(),
        }
    }
    /// Refused: the run has started (SPEC §2 check 1).
    pub fn admit_carried_skill(&self, decl: &CarriedSkill) -> Refusal {
        Refusal::Frozen {
            name: decl.name.clone(),
        }
    }

    /// Switches the effective mode. Only the gate moves; the returned line
    /// is appended to the next message.
    pub fn switch_mode(&mut self, mode: Mode) -> String {
        self.mode = mode;
        format!("policy: mode is now {mode}\n")
    }

    /// A tool this run is offered, by minted name.
    pub fn tool(&self, name: &str) -> Option<&AdmittedTool> {
        self.admitted_tool(name).filter(|t| self.offers(t))
    }

    /// A tool the parent catalog admitted, offered to this run or not.
    pub fn admitted_tool(&self, name: &str) -> Option<&AdmittedTool> {
        let at = self.tools.binary_search_by(|t| t.name().cmp(name)).ok()?;
        self.tools.get(at).map(|tool| &**tool)
    }

    /// A skill, by name (skills stay visible to children).
    pub fn skill(&self, name: &str) -> Option<&Skill> {
        let at = self.skills.binary_search_by(|s| s.name().cmp(name)).ok()?;
        self.skills.get(at)
    }

    /// The tools this run is offered, by minted name.
    pub fn offered_tools(&self) -> impl Iterator<Item = &AdmittedTool> {
        self.tools
            .iter()
            .map(|tool| &**tool)
            .filter(|t| self.offers(t))
    }

    pub(crate) fn offers(&self, tool: &AdmittedTool) -> bool {
        self.profile
            .is_none_or(|p| p.offers(tool.effect(), tool.approval()))
    }

    /// Whether `name` is in this run's tool list.
    pub fn is_resident(&self, name: &str) -> bool {
        self.tool_defs.iter().any(|d| d.name() == name)
    }

    /// The request's tool list: the offered resident tools, in the fixed
    /// order. Never changes during the run.
    pub fn tool_defs(&self) -> &[ToolDef] {
        &self.tool_defs
    }

    /// The catalog part of the resident prompt segment (SPEC §4).
    pub fn render(&self) -> String {
        let mut out = format!("## Capabilities\nmode: {}\n", self.start_mode);
        if let Some(dev) = &self.dev_line {
            out.push_str("dev: ");
            out.push_str(dev);
            out.push('\n');
        }
        write_index(&mut out, &self.dormant);
        out
    }

    /// The dormant index alone (empty when nothing is dormant).
    pub fn dormant_index(&self) -> String {
        let mut out = String::new();
        write_index(&mut out, &self.dormant);
        out
    }

    /// The dormant capabilities, in the index's stable order (the
    /// harness's cost model; not part of the embedder's API).
    #[doc(hidden)]
    pub fn dormant_lines(&self) -> &[DormantLine] {
        &self.dormant
    }

    /// `describe`: the full guide on an exact name, else a keyword ranking
    /// (SPEC §5), written out from [`Run::find`].
    pub fn describe(&self, query: &str) -> Result<String, Refusal> {
        Ok(match self.find(query)? {
            Found::Tool(tool) => self.tool_guide(tool),
            Found::Skill(skill) => format!(
                "skill {}\n{}\nuse: read \"{}\" for the whole card\n",
                skill.name(),
                skill.disclosure().trim(),
                skill.name()
            ),
            Found::Ranked(hits) if hits.is_empty() => {
                format!(
                    "no capability is named \"{}\", and nothing matched\n",
                    query.trim()
                )
            }
            Found::Ranked(hits) => {
                let mut out = format!(
                    "no capability is named \"{}\"; closest matches:\n",
                    query.trim()
                );
                for hit in hits {
                    let kind = match hit {
                        Capability::Tool(_) => "",
                        Capability::Skill(_) => "skill ",
                    };
                    // Writing to a `String` cannot fail.
                    let _ = writeln!(out, "- {kind}{}: {}", hit.name(), hit.hint());
                }
                out
            }
        })
    }

    /// What `describe` answers, before it is written out: the query is
    /// validated (SPEC §5, in order), then trimmed and matched as an exact
    /// name, else ranked by keyword. `disclose recall` reads the ranking
    /// from here, so it measures the very answer `describe` prints.
    pub fn find(&self, query: &str) -> Result<Found<'_>, Refusal> {
        let reason = if query.trim().is_empty() {
            Some(QueryReason::Empty)
        } else if query.len() > QUERY_MAX_BYTES {
            Some(QueryReason::TooLong)
        } else if query.chars().any(naming::is_control) {
            Some(QueryReason::Control)
        } else {
            None
        };
        if let Some(reason) = reason {
            return Err(Refusal::Query { reason });
        }
        let query = query.trim();
        if let Some(tool) = self.tool(query) {
            return Ok(Found::Tool(tool));
        }
        if let Some(skill) = self.skill(query) {
            return Ok(Found::Skill(skill));
        }
        let (index, members) = self.search_index();
        let hits = index.rank(query, |at| self.member_name(members[at]));
        Ok(Found::Ranked(
            hits.into_iter()
                .map(|at| match members[at] {
                    Member::Tool(i) => Capability::Tool(&self.tools[i]),
                    Member::Skill(i) => Capability::Skill(&self.skills[i]),
                })
                .collect(),
        ))
    }

    /// Every candidate's SPEC §5 `score(c)` for the trimmed `query`, by
    /// name in byte order: the whole ranking before `score > 0` and the
    /// first 8 cut it (the fuzzer's reference compares it in full; not part
    /// of the embedder's API).
    #[doc(hidden)]
    pub fn ranked_scores(&self, query: &str) -> Vec<(&str, i128)> {
        let (index, members) = self.search_index();
        let mut scores: Vec<(&str, i128)> = (members.iter())
            .map(|&m| self.member_name(m))
            .zip(index.scores(query.trim()))
            .collect();
        scores.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        scores
    }

    /// The run's search: its candidates are the tools it is offered (the
    /// doors included), then the skills (SPEC §5).
    fn search_index(&self) -> &(SearchIndex, Vec<Member>) {
        self.search.get_or_init(|| {
            let tools = (self.tools.iter().enumerate())
                .filter(|(_, t)| self.offers(t))
                .map(|(i, t)| {
                    let candidate = Candidate {
                        name: t.name(),
                        text: t.description(),
                        schema: Some(t.input_schema()),
                    };
                    (Member::Tool(i), candidate)
                });
            let skills = (self.skills.iter().enumerate()).map(|(i, s)| {
                let candidate = Candidate {
                    name: s.name(),
                    text: s.disclosure(),
                    schema: None,
                };
                (Member::Skill(i), candidate)
            });
            let (members, candidates): (Vec<Member>, Vec<Candidate<'_>>) =
                tools.chain(skills).unzip();
            (SearchIndex::new(candidates), members)
        })
    }

    /// A searchable capability's name.
    fn member_name(&self, member: Member) -> &str {
        match member {
            Member::Tool(i) => self.tools[i].name(),
            Member::Skill(i) => self.skills[i].name(),
        }
    }

    fn tool_guide(&self, tool: &AdmittedTool) -> String {
        let name = tool.name();
        let (standing, usage) = if self.is_resident(name) {
            ("resident", format!("use: call {name} directly\n"))
        } else {
            (
                "dormant",
                format!("use: call {{\"name\":\"{name}\",\"args\":{{...}}}}\n"),
            )
        };
        format!(
            "tool {name}\nstanding: {standing}; effect: {}; approval: {}\n{}\ninput schema: {}\n{usage}",
            tool.effect(),
            tool.approval(),
            tool.description().trim(),
            tool.schema_text(),
        )
    }

    /// `expand`: a tool's full guide, where a shelf skill lives, or a carried
    /// skill's body (SPEC §7).
    pub fn expand(&self, name: &str) -> Result<String, Refusal> {
        if let Some(tool) = self.tool(name) {
            return Ok(self.tool_guide(tool));
        }
        match self.skill(name).map(Skill::door) {
            Some(Door::Shelf { address }) => Ok(format!("skill {name} lives at {address}\n")),
            Some(Door::Carried { body }) => {
                let mut out = body.clone();
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                Ok(out)
            }
            None => Err(Refusal::ExpandUnknown {
                name: name.to_string(),
            }),
        }
    }

    /// Every skill that has a hash, by name.
    pub fn skill_pins(&self) -> Vec<SkillPin> {
        self.skills
            .iter()
            .filter_map(|s| {
                Some(SkillPin {
                    name: s.name().to_string(),
                    hash: s.hash()?.to_string(),
                })
            })
            .collect()
    }

    /// The descriptor digest of every tool this run is offered, by minted
    /// name (`describe` and `call` included).
    pub fn digests(&self) -> BTreeMap<&str, &str> {
        self.offered_tools()
            .map(|t| (t.name(), t.digest()))
            .collect()
    }
}

/// What `describe` found for a valid query (SPEC §5).
#[derive(Clone, Debug)]
pub enum Found<'r> {
    /// The trimmed query is the minted name of a tool this run is offered.
    Tool(&'r AdmittedTool),
    /// The trimmed query is a skill's name.
    Skill(&'r Skill),
    /// Keywords: at most `DESCRIBE_HITS` capabilities, best first; empty
    /// when nothing scored.
    Ranked(Vec<Capability<'r>>),
}

/// A capability `describe` can list: a tool this run is offered, or a skill.
#[derive(Clone, Copy, Debug)]
pub enum Capability<'r> {
    /// A tool.
    Tool(&'r AdmittedTool),
    /// A skill.
    Skill(&'r Skill),
}

impl<'r> Capability<'r> {
    /// Its minted name (a tool) or name (a skill).
    pub fn name(&self) -> &'r str {
        match self {
            Capability::Tool(tool) => tool.name(),
            Capability::Skill(skill) => skill.name(),
        }
    }

    /// Its hint (SPEC §4).
    pub fn hint(&self) -> &'r str {
        match self {
            Capability::Tool(tool) => tool.hint(),
            Capability::Skill(skill) => skill.hint(),
        }
    }
}

/// A capability keyword search can rank: an index into the run's tools or
/// skills.
#[derive(Clone, Copy, Debug)]
enum Member {
    Tool(usize),
    Skill(usize),
}
