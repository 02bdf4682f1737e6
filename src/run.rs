//! A started run (SPEC §3–§5, §7–§8): the frozen catalog and what it answers.
//!
//! Everything a run shows is fixed at [`Catalog::start`]: the resident tool
//! list, the dormant lines and the search index are built once, so `render`
//! and `tool_defs` are byte-identical for the run's life and a mode switch
//! moves only the gate. A child run is built from the same catalog and sees
//! only what its profile offers, everywhere.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::canonical::write_string;
use crate::catalog::{AdmittedTool, Catalog, Door, Skill};
use crate::declaration::{CarriedSkill, ShelfSkill, ToolDecl};
use crate::dormant::{DormantLine, write_index};
use crate::mode::{Mode, Profile, RESIDENT_ORDER};
use crate::naming::mint;
use crate::refusal::{QueryReason, Refusal};
use crate::search::SearchIndex;
use crate::{QUERY_MAX_BYTES, naming};

/// One resident tool's definition, as the request's tool list carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDef {
    /// The minted name.
    pub name: String,
    /// The description, trimmed.
    pub description: String,
    /// The input schema.
    pub input_schema: Value,
}

impl ToolDef {
    /// `{"description":…,"input_schema":…,"name":…}` in canonical JSON.
    pub fn canonical(&self) -> String {
        let mut out = String::from("{\"description\":");
        write_string(&mut out, &self.description);
        out.push_str(",\"input_schema\":");
        crate::canonical::write_value(&mut out, &self.input_schema);
        out.push_str(",\"name\":");
        write_string(&mut out, &self.name);
        out.push('}');
        out
    }
}

/// A skill's pinned hash: which card this run got, and what bytes it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillPin {
    /// The skill's name.
    pub name: String,
    /// BLAKE3, 64 lowercase hex.
    pub hash: String,
}

/// A started run. The catalog is frozen: every admission is `admit.frozen`.
#[derive(Clone, Debug)]
pub struct Run {
    pub(crate) catalog: Catalog,
    start_mode: Mode,
    pub(crate) mode: Mode,
    pub(crate) profile: Option<Profile>,
    tool_defs: Vec<ToolDef>,
    dormant: Vec<DormantLine>,
    search: SearchIndex,
}

impl Run {
    pub(crate) fn new(catalog: Catalog, mode: Mode, profile: Option<Profile>) -> Run {
        let offered =
            |tool: &AdmittedTool| profile.is_none_or(|p| p.offers(tool.effect(), tool.approval()));
        let tool_defs: Vec<ToolDef> = RESIDENT_ORDER
            .iter()
            .filter_map(|name| catalog.tools.get(*name))
            .filter(|tool| offered(tool))
            .map(AdmittedTool::tool_def)
            .collect();
        let mut dormant = Vec::new();
        let mut search = SearchIndex::default();
        for tool in catalog.tools.values().filter(|t| offered(t)) {
            if !RESIDENT_ORDER.contains(&tool.name()) {
                dormant.push(DormantLine::tool(tool.name(), tool.hint()));
            }
            search.add(
                tool.name(),
                format!("- {}: {}\n", tool.name(), tool.hint()),
                tool.words(),
            );
        }
        for skill in catalog.skills.values() {
            dormant.push(DormantLine::skill(skill.name(), skill.hint()));
            search.add(
                skill.name(),
                format!("- skill {}: {}\n", skill.name(), skill.hint()),
                skill.words(),
            );
        }
        Run {
            catalog,
            start_mode: mode,
            mode,
            profile,
            tool_defs,
            dormant,
            search,
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
        self.catalog.generation()
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
        self.catalog.tools.get(name).filter(|t| self.offers(t))
    }

    /// A tool the parent catalog admitted, offered to this run or not.
    pub fn admitted_tool(&self, name: &str) -> Option<&AdmittedTool> {
        self.catalog.tools.get(name)
    }

    /// A skill, by name (skills stay visible to children).
    pub fn skill(&self, name: &str) -> Option<&Skill> {
        self.catalog.skills.get(name)
    }

    /// The tools this run is offered, by minted name.
    pub fn offered_tools(&self) -> impl Iterator<Item = &AdmittedTool> {
        self.catalog.tools.values().filter(|t| self.offers(t))
    }

    pub(crate) fn offers(&self, tool: &AdmittedTool) -> bool {
        self.profile
            .is_none_or(|p| p.offers(tool.effect(), tool.approval()))
    }

    /// Whether `name` is in this run's tool list.
    pub fn is_resident(&self, name: &str) -> bool {
        self.tool_defs.iter().any(|d| d.name == name)
    }

    /// The request's tool list: the offered resident tools, in the fixed
    /// order. Never changes during the run.
    pub fn tool_defs(&self) -> &[ToolDef] {
        &self.tool_defs
    }

    /// The catalog part of the resident prompt segment (SPEC §4).
    pub fn render(&self) -> String {
        let mut out = format!("## Capabilities\nmode: {}\n", self.start_mode);
        if let Some(dev) = &self.catalog.dev_line {
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

    /// The dormant capabilities, in the index's stable order.
    pub fn dormant_lines(&self) -> &[DormantLine] {
        &self.dormant
    }

    /// `describe`: the full guide on an exact name, else a keyword ranking
    /// (SPEC §5).
    pub fn describe(&self, query: &str) -> Result<String, Refusal> {
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
            return Ok(self.tool_guide(tool));
        }
        if let Some(skill) = self.skill(query) {
            return Ok(format!(
                "skill {}\n{}\nuse: read \"{}\" for the whole card\n",
                skill.name(),
                skill.disclosure().trim(),
                skill.name()
            ));
        }
        let hits = self.search.rank(query);
        if hits.is_empty() {
            return Ok(format!(
                "no capability is named \"{query}\", and no keyword matched\n"
            ));
        }
        let mut out = format!("no capability is named \"{query}\"; closest by keyword:\n");
        hits.into_iter().for_each(|line| out.push_str(line));
        Ok(out)
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
        self.catalog
            .skills
            .values()
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
