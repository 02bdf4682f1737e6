//! Admission (SPEC §1–§2): the catalog while it is being built.
//!
//! [`Catalog`] is the only place an admitted capability is made, and it is a
//! pure function of its declarations: checks in the spec's order, names in
//! ordered maps, no clock, randomness, environment or I/O. Starting the run
//! consumes it ([`Catalog::start`]) and yields a [`crate::Run`], whose
//! admission methods can only answer `admit.frozen`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::canonical::write_string;
use crate::declaration::{Approval, CarriedSkill, Effect, ShelfSkill, ToolDecl};
use crate::facts::{SchemaFacts, schema_facts};
use crate::fit::plan::FitPlan;
use crate::hint::hint;
use crate::lookup::Lookup;
use crate::mode::{Mode, Profile};
use crate::naming::{is_control, mint, name_is_valid, normalization_key, origin_is_valid};
use crate::refusal::{HashReason, Kind, Refusal, SchemaReason};
use crate::run::{Run, ToolDef};
use crate::{CALL, DESCRIBE};

/// An admitted tool. Only admission builds one.
#[derive(Clone, Debug)]
pub struct AdmittedTool {
    name: String,
    origin: String,
    raw_name: String,
    description: String,
    input_schema: Arc<Value>,
    /// The canonical schema text and the compiled `fit`, shared by every
    /// tool (in every run of the process) that declares an equal schema;
    /// the plan is compiled when a call first needs it (most tools of a
    /// run are never called).
    schema_text: Arc<str>,
    fit_plan: Arc<OnceLock<FitPlan>>,
    effect: Effect,
    approval: Approval,
    digest: String,
    hint: String,
}

/// SPEC §2's descriptor digest: BLAKE3 of the canonical descriptor array
/// `pinned`, 64 lowercase hex.
pub(crate) fn descriptor_digest(pinned: &str) -> String {
    blake3::hash(pinned.as_bytes()).to_hex().as_str().to_owned()
}

/// [`descriptor_digest`], remembered per process. Recordings admit the
/// same servers' tools session after session, and a harness admits each
/// again for SPEC §13 I3, I4 and I7; the digest is a pure function of the
/// descriptor, found here by its text (hashed and compared, a fraction of
/// the BLAKE3 it saves). Bounded: past `LIMIT` descriptors or `BYTES` of
/// their texts it starts over, and a descriptor longer than `LONGEST` is
/// never kept (its hashing would cost what BLAKE3 does). The seam calls it
/// for the rule only while nothing is planted, so no planted digest is
/// ever remembered.
pub(crate) fn remembered_digest(pinned: &str) -> String {
    const LIMIT: usize = 1 << 10;
    const BYTES: usize = 1 << 20;
    const LONGEST: usize = 16 << 10;
    /// Digests by descriptor text, and the bytes of the texts held.
    static MEMO: Mutex<(Lookup<Box<str>, String>, usize)> = Mutex::new((Lookup::new(), 0));
    if pinned.len() > LONGEST {
        return descriptor_digest(pinned);
    }
    let seen = (MEMO.lock().ok()).and_then(|memo| memo.0.get(pinned).cloned());
    if let Some(digest) = seen {
        return digest;
    }
    let digest = descriptor_digest(pinned);
    if let Ok(mut memo) = MEMO.lock() {
        let (digests, bytes) = &mut *memo;
        if digests.len() >= LIMIT || *bytes + pinned.len() > BYTES {
            digests.clear();
            *bytes = 0;
        }
        *bytes += pinned.len();
        digests.insert(pinned.into(), digest.clone());
    }
    digest
}

/// The rules admission derives a tool's hint and digest with.
struct Derive {
    hint: fn(&str) -> String,
    digest: fn(&str) -> String,
}

/// The rules themselves: for the doors, which the process keeps.
const RULES: Derive = Derive {
    hint,
    digest: descriptor_digest,
};

/// The rules through the seam, where a test may have planted a broken
/// one: for every admission (in a build without the `mutants` feature,
/// the rules themselves).
const SEAM: Derive = Derive {
    hint: crate::seam::hint,
    digest: crate::seam::descriptor_digest,
};

impl AdmittedTool {
    fn new(decl: &ToolDecl, name: String, facts: &SchemaFacts, derive: &Derive) -> AdmittedTool {
        let schema_text = &facts.text;
        let (effect, approval) = (decl.effect, decl.approval);
        // SPEC §2: BLAKE3(canonical(["disclose.tool/1", origin, raw name,
        // input_schema, effect])), written around the schema's canonical
        // text rather than by copying the schema into a new array.
        let mut pinned = String::with_capacity(schema_text.len() + 64);
        pinned.push_str("[\"disclose.tool/1\",");
        write_string(&mut pinned, &decl.origin);
        pinned.push(',');
        write_string(&mut pinned, &decl.name);
        pinned.push(',');
        pinned.push_str(schema_text);
        pinned.push(',');
        write_string(&mut pinned, effect.as_str());
        pinned.push(']');
        AdmittedTool {
            hint: (derive.hint)(&decl.description),
            digest: (derive.digest)(&pinned),
            fit_plan: Arc::clone(&facts.plan),
            schema_text: Arc::clone(schema_text),
            name,
            origin: decl.origin.clone(),
            raw_name: decl.name.clone(),
            description: decl.description.clone(),
            input_schema: Arc::clone(&decl.input_schema),
            effect,
            approval,
        }
    }

    /// Whether this tool was admitted from a declaration identical to
    /// `decl` (the same allocation of the schema, or an equal schema).
    fn was_declared_as(&self, decl: &ToolDecl) -> bool {
        self.origin == decl.origin
            && self.raw_name == decl.name
            && self.description == decl.description
            && self.effect == decl.effect
            && self.approval == decl.approval
            && (Arc::ptr_eq(&self.input_schema, &decl.input_schema)
                || self.input_schema == decl.input_schema)
    }

    /// The minted name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The declaring origin.
    pub fn origin(&self) -> &str {
        &self.origin
    }
    /// The raw name as the origin declared it.
    pub fn raw_name(&self) -> &str {
        &self.raw_name
    }
    /// The description as declared.
    pub fn description(&self) -> &str {
        &self.description
    }
    /// The input schema.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }
    /// The canonical input schema.
    pub fn schema_text(&self) -> &str {
        &self.schema_text
    }
    /// The args check compiled from the input schema, on first use.
    pub(crate) fn fit_plan(&self) -> &FitPlan {
        self.fit_plan
            .get_or_init(|| FitPlan::new(&self.input_schema))
    }
    /// The effective effect, after failing closed.
    pub fn effect(&self) -> Effect {
        self.effect
    }
    /// The effective approval, after failing closed.
    pub fn approval(&self) -> Approval {
        self.approval
    }
    /// The descriptor digest: 64 lowercase hex (SPEC §2).
    pub fn digest(&self) -> &str {
        &self.digest
    }
    /// The hint (SPEC §4).
    pub fn hint(&self) -> &str {
        &self.hint
    }
    /// The tool's definition as a request's tool list would carry it.
    pub fn tool_def(&self) -> ToolDef {
        ToolDef::new(
            &self.name,
            &self.description,
            &self.input_schema,
            &self.schema_text,
        )
    }
}

/// How a skill came in (seed 001 §8-11): two doors, not a flag.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Door {
    /// `admit_skill`: the card lives at an address the host's `read` opens.
    Shelf {
        /// Where the card lives.
        address: String,
    },
    /// `admit_carried_skill`: the catalog holds the card's body.
    Carried {
        /// The card's text.
        body: String,
    },
}

/// An admitted skill. Only admission builds one.
#[derive(Clone, Debug)]
pub struct Skill {
    name: String,
    disclosure: String,
    door: Door,
    hash: Option<String>,
    package: Option<String>,
    hint: String,
}

impl Skill {
    /// The skill's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The disclosure as declared.
    pub fn disclosure(&self) -> &str {
        &self.disclosure
    }
    /// The door it came through.
    pub fn door(&self) -> &Door {
        &self.door
    }
    /// The pinned hash: declared for a shelf skill, BLAKE3 of the body for a
    /// carried one.
    pub fn hash(&self) -> Option<&str> {
        self.hash.as_deref()
    }
    /// The package directory, if any.
    pub fn package(&self) -> Option<&str> {
        self.package.as_deref()
    }
    /// The hint (SPEC §4).
    pub fn hint(&self) -> &str {
        &self.hint
    }
}

/// The catalog while the building assembles it: admission is open.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// Boxed: a B-tree node shifts its values on every insert, and an
    /// admitted tool is some 200 bytes (issue 26: the shifts were 2.5% of
    /// a `check`).
    pub(crate) tools: BTreeMap<String, Box<AdmittedTool>>,
    pub(crate) skills: BTreeMap<String, Skill>,
    /// Normalization key → the admitted name that holds it.
    keys: BTreeMap<String, String>,
    generation: u64,
    pub(crate) dev_line: Option<String>,
}

impl Default for Catalog {
    fn default() -> Self {
        Catalog::new()
    }
}

impl Catalog {
    /// An empty catalog at generation 0, holding the build's two doors,
    /// `describe` and `call`.
    pub fn new() -> Catalog {
        let mut catalog = Catalog {
            tools: BTreeMap::new(),
            skills: BTreeMap::new(),
            keys: BTreeMap::new(),
            generation: 0,
            dev_line: None,
        };
        // The doors are the same in every catalog: built once per process,
        // by the rules themselves (never through the seam: a value kept
        // for the process must not depend on what a test planted).
        static DOORS: OnceLock<[AdmittedTool; 2]> = OnceLock::new();
        let doors = DOORS.get_or_init(|| {
            [crate::describe_decl(), crate::call_decl()].map(|decl| {
                let facts = schema_facts(&decl.input_schema);
                AdmittedTool::new(&decl, decl.name.clone(), &facts, &RULES)
            })
        });
        for tool in doors {
            catalog
                .keys
                .insert(normalization_key(&tool.name), tool.name.clone());
            catalog
                .tools
                .insert(tool.name.clone(), Box::new(tool.clone()));
        }
        catalog
    }

    /// Successful admissions so far (the build's own doors are not counted).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// An admitted tool (the two doors too), by minted name.
    pub fn tool(&self, name: &str) -> Option<&AdmittedTool> {
        self.tools.get(name).map(|tool| &**tool)
    }

    /// An admitted skill, by name.
    pub fn skill(&self, name: &str) -> Option<&Skill> {
        self.skills.get(name)
    }

    /// Admits a tool under its minted name, or refuses it and changes nothing.
    pub fn admit_tool(&mut self, decl: &ToolDecl) -> Result<&AdmittedTool, Refusal> {
        let name = mint(&decl.origin, &decl.name);
        if !origin_is_valid(&decl.origin) {
            return Err(Refusal::Origin {
                origin: decl.origin.clone(),
            });
        }
        self.check_name(&name, &decl.description)?;
        if !decl.input_schema.is_object() {
            return Err(Refusal::Schema {
                name,
                reason: SchemaReason::NotObject,
            });
        }
        let facts = schema_facts(&decl.input_schema);
        if !facts.valid {
            return Err(Refusal::Schema {
                name,
                reason: SchemaReason::MetaSchema,
            });
        }
        let (key, generation) = self.check_unheld(&name)?;
        let tool = Box::new(AdmittedTool::new(decl, name.clone(), &facts, &SEAM));
        self.commit(key, generation, &name);
        Ok(self.tools.entry(name).or_insert(tool))
    }

    /// [`Catalog::admit_tool`] of a declaration identical to the one
    /// `prior` was admitted from (else a plain admission). Checks 2–6 and
    /// everything admission derives (canonical schema, digest, hint, fit
    /// plan) are pure functions of the declaration, which `prior` already
    /// passed and holds; what depends on this catalog — checks 9 and 10, the
    /// generation, the maps — is done here as for any admission. The
    /// re-replays of SPEC §13 I4 and I7 use it with the first replay's tools
    /// (`disclose-replay`'s invariants; not part of the embedder's API).
    #[doc(hidden)]
    pub fn admit_tool_as(
        &mut self,
        decl: &ToolDecl,
        prior: &AdmittedTool,
    ) -> Result<&AdmittedTool, Refusal> {
        if !prior.was_declared_as(decl) {
            return self.admit_tool(decl);
        }
        let (key, generation) = self.check_unheld(&prior.name)?;
        self.commit(key, generation, &prior.name);
        let tool = Box::new(prior.clone());
        Ok(self.tools.entry(tool.name.clone()).or_insert(tool))
    }

    /// Admits a skill from the shelf (its card lives at `address`).
    pub fn admit_skill(&mut self, decl: &ShelfSkill) -> Result<&Skill, Refusal> {
        self.check_name(&decl.name, &decl.disclosure)?;
        if let Some(given) = &decl.hash
            && !is_blake3_hex(given)
        {
            return Err(Refusal::Hash {
                name: decl.name.clone(),
                given: given.clone(),
                reason: HashReason::NotHex,
            });
        }
        let door = Door::Shelf {
            address: decl.address.clone(),
        };
        self.admit_skill_through(
            &decl.name,
            &decl.disclosure,
            door,
            decl.hash.clone(),
            &decl.package,
        )
    }

    /// Admits a carried skill (the catalog holds its body); its pinned hash
    /// is always BLAKE3 of the body.
    pub fn admit_carried_skill(&mut self, decl: &CarriedSkill) -> Result<&Skill, Refusal> {
        self.check_name(&decl.name, &decl.disclosure)?;
        let hash = blake3::hash(decl.body.as_bytes())
            .to_hex()
            .as_str()
            .to_owned();
        if let Some(given) = &decl.hash
            && *given != hash
        {
            return Err(Refusal::Hash {
                name: decl.name.clone(),
                given: given.clone(),
                reason: HashReason::BodyMismatch,
            });
        }
        let door = Door::Carried {
            body: decl.body.clone(),
        };
        self.admit_skill_through(
            &decl.name,
            &decl.disclosure,
            door,
            Some(hash),
            &decl.package,
        )
    }

    /// Sets the build-held dev line, shown by `render` as `dev: <text>`.
    /// Control characters become spaces and the text is trimmed, so it stays
    /// one line.
    pub fn set_dev_line(&mut self, text: &str) {
        let line: String = text
            .chars()
            .map(|c| if is_control(c) { ' ' } else { c })
            .collect();
        self.dev_line = Some(line.trim().to_string());
    }

    /// Starts the run in `mode`: the catalog freezes and the tool list is
    /// fixed for the run's life.
    pub fn start(self, mode: Mode) -> Run {
        Run::new(self, mode, None)
    }

    /// Starts a child run in `mode` with `profile`: it sees only the tools
    /// the profile offers.
    pub fn start_child(self, mode: Mode, profile: Profile) -> Run {
        Run::new(self, mode, Some(profile))
    }

    /// Checks 3–5: the name's pattern, the reserved doors, the disclosure.
    fn check_name(&self, name: &str, disclosure: &str) -> Result<(), Refusal> {
        if !name_is_valid(name) {
            return Err(Refusal::Name {
                name: name.to_string(),
            });
        }
        if name == DESCRIBE || name == CALL {
            return Err(Refusal::Reserved {
                name: name.to_string(),
            });
        }
        if disclosure.trim().is_empty() {
            return Err(Refusal::Disclosure {
                name: name.to_string(),
            });
        }
        Ok(())
    }

    /// Checks 9–10 and the generation, with one lookup of the name's
    /// normalization key: an admitted name holds its own key (it was free
    /// when the name was admitted), so the key's holder is the name itself
    /// exactly when the name is taken (`admit.duplicate`), and any other
    /// holder is a collision. Returns the key and the next generation.
    fn check_unheld(&self, name: &str) -> Result<(String, u64), Refusal> {
        let key = normalization_key(name);
        if let Some(holder) = self.keys.get(&key) {
            return Err(if holder == name {
                Refusal::Duplicate {
                    name: name.to_string(),
                    holder: if self.tools.contains_key(name) {
                        Kind::Tool
                    } else {
                        Kind::Skill
                    },
                }
            } else {
                Refusal::Collision {
                    name: name.to_string(),
                    holder: holder.clone(),
                }
            });
        }
        let generation = self.generation.checked_add(1).ok_or(Refusal::Generation)?;
        Ok((key, generation))
    }

    fn commit(&mut self, key: String, generation: u64, name: &str) {
        self.generation = generation;
        self.keys.insert(key, name.to_string());
    }

    fn admit_skill_through(
        &mut self,
        name: &str,
        disclosure: &str,
        door: Door,
        hash: Option<String>,
        package: &Option<String>,
    ) -> Result<&Skill, Refusal> {
        let (key, generation) = self.check_unheld(name)?;
        self.commit(key, generation, name);
        let skill = Skill {
            name: name.to_string(),
            disclosure: disclosure.to_string(),
            door,
            hash,
            package: package.clone(),
            hint: crate::seam::hint(disclosure),
        };
        Ok(self.skills.entry(name.to_string()).or_insert(skill))
    }
}

/// Whether `text` is 64 lowercase hex digits.
fn is_blake3_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::canonical;
    use serde_json::json;

    /// The remembered digest is the rule's, for a descriptor seen first,
    /// seen again, seen again after the memo started over (by count and by
    /// bytes), and for one too long to keep.
    #[test]
    fn a_remembered_digest_is_the_rule_s() {
        let text = |i: usize| format!("[\"disclose.tool/1\",\"memo\",\"t{i}\",{{}},\"read\"]");
        for i in 0..3000 {
            let pinned = text(i % 1500);
            assert_eq!(remembered_digest(&pinned), descriptor_digest(&pinned));
        }
        for i in 0..300 {
            let pinned = format!("{}{}", text(i % 100), " ".repeat(8 << 10));
            assert_eq!(remembered_digest(&pinned), descriptor_digest(&pinned));
        }
        let long = format!("{}{}", text(0), " ".repeat(1 << 20));
        assert_eq!(remembered_digest(&long), descriptor_digest(&long));
        // BLAKE3's published vector for "abc", asked twice (a miss, a hit).
        for _ in 0..2 {
            assert_eq!(
                remembered_digest("abc"),
                "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
            );
        }
    }

    fn tool(name: &str) -> ToolDecl {
        ToolDecl {
            origin: "alpha".into(),
            name: name.into(),
            description: "Does a thing.".into(),
            input_schema: json!({"type": "object"}).into(),
            effect: Effect::Irreversible,
            approval: Approval::Required,
        }
    }

    #[test]
    fn generation_counts_successes_and_overflow_fails_closed() {
        let mut catalog = Catalog::new();
        assert_eq!(catalog.generation(), 0);
        assert!(catalog.admit_tool(&tool("a")).is_ok());
        assert!(catalog.admit_tool(&tool("a")).is_err());
        assert_eq!(catalog.generation(), 1, "a refusal does not count");

        catalog.generation = u64::MAX;
        let refusal = catalog.admit_tool(&tool("b")).map(|_| ()).unwrap_err();
        assert_eq!(
            refusal.to_lines(),
            "refused E_INVALID_ARGS admit.generation: the catalog generation would overflow\n"
        );
        assert_eq!(catalog.generation(), u64::MAX);
        assert!(
            catalog
                .start(Mode::Work)
                .admitted_tool("alpha__b")
                .is_none(),
            "the refused tool was not admitted"
        );
    }

    #[test]
    fn digest_is_blake3_of_the_canonical_descriptor_array() {
        let mut catalog = Catalog::new();
        let decl = ToolDecl {
            input_schema: json!({"type": "object", "properties": {"q": {"type": "string"}}}).into(),
            effect: Effect::Read,
            ..tool("find")
        };
        let digest = catalog.admit_tool(&decl).map(|t| t.digest().to_string());
        let pinned = r#"["disclose.tool/1","alpha","find",{"properties":{"q":{"type":"string"}},"type":"object"},"read"]"#;
        assert_eq!(
            digest,
            Ok(blake3::hash(pinned.as_bytes()).to_hex().to_string())
        );
        let via_canonical = canonical(&json!([
            "disclose.tool/1",
            "alpha",
            "find",
            *decl.input_schema,
            "read"
        ]));
        assert_eq!(via_canonical, pinned);
    }

    #[test]
    fn a_fit_plan_is_compiled_on_first_use_and_shared_by_equal_schemas() {
        let schema = || {
            ToolDecl::new(
                "alpha",
                "lazy",
                "d",
                json!({"type": "object", "required": ["q"], "$comment": "plan test"}),
            )
        };
        let mut catalog = Catalog::new();
        let (first, second) = (
            schema(),
            ToolDecl {
                name: "lazy2".into(),
                ..schema()
            },
        );
        assert!(catalog.admit_tool(&first).is_ok() && catalog.admit_tool(&second).is_ok());
        let tool = |name: &str| catalog.tools.get(name).expect("admitted").clone();
        let (one, two) = (tool("alpha__lazy"), tool("alpha__lazy2"));
        assert!(one.fit_plan.get().is_none(), "admission compiles no plan");
        // The plan is SPEC §6's: `q` is required.
        assert!(
            one.fit_plan()
                .check(one.input_schema(), &json!({}))
                .is_err()
        );
        assert!(
            one.fit_plan()
                .check(one.input_schema(), &json!({"q": 1}))
                .is_ok()
        );
        // Compiled once, for both tools (their schemas are equal).
        assert!(std::ptr::eq(one.fit_plan(), two.fit_plan()));
    }

    #[test]
    fn collision_names_the_holder_and_fails_closed() {
        let mut catalog = Catalog::new();
        assert!(catalog.admit_tool(&tool("search-a")).is_ok());
        let refusal = catalog
            .admit_tool(&tool("Search_A"))
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            refusal.to_string(),
            "\"alpha__Search_A\" collides with \"alpha__search-a\" after provider normalization"
        );
        let skill = ShelfSkill {
            name: "Describe".into(),
            disclosure: "x".into(),
            address: "a".into(),
            hash: None,
            package: None,
        };
        let refusal = catalog.admit_skill(&skill).map(|_| ()).unwrap_err();
        assert_eq!(
            refusal.code(),
            "admit.collision",
            "the build's doors hold their keys too"
        );
    }
}
