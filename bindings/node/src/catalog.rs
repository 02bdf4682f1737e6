//! `Catalog` and `Recorder`: admission, and the start of a run.
//!
//! Node runs JavaScript on one thread per environment, and the addon never
//! calls back into JavaScript while it holds a run: the state sits in plain
//! cells, and a `Worker` that wants a catalog builds its own.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use disclose::{Approval, CarriedSkill, Effect, Mode, Profile, Refusal, ShelfSkill, ToolDecl};
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::errors::{code, fail, refused_admission};
use crate::json;
use crate::run::{Run, Started};

/// A tool to admit: what `admitTool` and `admit` take, and what the
/// importers return.
#[napi(object)]
pub struct ToolInput<'a> {
    /// Who declared it (an MCP server's name, a package…).
    pub origin: String,
    /// Its name as the origin declared it.
    pub name: String,
    /// Its full guide text; the first sentence is its hint.
    pub description: String,
    /// Its JSON Schema: a JSON text (kept to the byte), or an object
    /// (`JSON.stringify`'d).
    #[napi(ts_type = "string | object")]
    pub input_schema: Unknown<'a>,
    /// `"read"`, `"idempotent-write"`, `"reversible"` or
    /// `"irreversible"` (the default, and what any other word counts as).
    pub effect: Option<String>,
    /// `"required"` (the default, and what any other word counts as) or
    /// `"never"`.
    pub approval: Option<String>,
}

/// A declaration as the importers return it: `admit` takes it as is.
#[napi(object)]
pub struct ToolDeclaration {
    pub origin: String,
    pub name: String,
    pub description: String,
    /// The input schema's canonical JSON text.
    pub input_schema: String,
    pub effect: String,
    pub approval: String,
}

/// A shelf skill to admit: its card lives at `address`.
#[napi(object)]
pub struct ShelfSkillInput {
    pub name: String,
    /// The one line it is disclosed by.
    pub disclosure: String,
    pub address: String,
    /// Its BLAKE3, 64 lowercase hex, if declared.
    pub hash: Option<String>,
    /// The package directory it came in.
    pub package: Option<String>,
}

/// A carried skill to admit: its card is `body`.
#[napi(object)]
pub struct CarriedSkillInput {
    pub name: String,
    /// The one line it is disclosed by.
    pub disclosure: String,
    pub body: String,
    /// Its BLAKE3, 64 lowercase hex; checked against the body if given.
    pub hash: Option<String>,
    /// The package directory it came in.
    pub package: Option<String>,
}

/// `start`'s options.
#[napi(object)]
pub struct StartOptions {
    /// `"scout"` or `"writer"`: a child's run.
    pub profile: Option<String>,
}

/// An admitted tool, as the catalog holds it.
#[napi(object)]
pub struct Tool {
    /// The minted name the model calls.
    pub name: String,
    /// The declaring origin.
    pub origin: String,
    /// The name as the origin declared it.
    pub raw_name: String,
    /// The full guide text.
    pub description: String,
    /// Its hint: the first sentence, as the dormant index shows it.
    pub hint: String,
    /// The effective effect class.
    pub effect: String,
    /// The effective approval.
    pub approval: String,
    /// The descriptor digest, 64 lowercase hex.
    pub digest: String,
    /// The input schema's canonical JSON text.
    pub input_schema_json: String,
}

impl Tool {
    pub fn of(tool: &disclose::AdmittedTool) -> Tool {
        Tool {
            name: tool.name().to_owned(),
            origin: tool.origin().to_owned(),
            raw_name: tool.raw_name().to_owned(),
            description: tool.description().to_owned(),
            hint: tool.hint().to_owned(),
            effect: tool.effect().as_str().to_owned(),
            approval: tool.approval().as_str().to_owned(),
            digest: tool.digest().to_owned(),
            input_schema_json: tool.schema_text().to_owned(),
        }
    }
}

/// An admitted skill.
#[napi(object)]
pub struct Skill {
    pub name: String,
    /// `"shelf"` or `"carried"`.
    pub door: String,
    /// The one line it is disclosed by.
    pub disclosure: String,
    /// Its hint, as the dormant index shows it.
    pub hint: String,
    /// Its BLAKE3, 64 lowercase hex: declared (shelf) or of the body
    /// (carried); absent for a shelf skill declared without one.
    pub hash: Option<String>,
    /// The package directory it came in, if any.
    pub package: Option<String>,
}

impl Skill {
    pub fn of(skill: &disclose::Skill) -> Skill {
        Skill {
            name: skill.name().to_owned(),
            door: match skill.door() {
                disclose::Door::Shelf { .. } => "shelf",
                _ => "carried",
            }
            .to_owned(),
            disclosure: skill.disclosure().to_owned(),
            hint: skill.hint().to_owned(),
            hash: skill.hash().map(str::to_owned),
            package: skill.package().map(str::to_owned),
        }
    }
}

/// A tool declaration from the host's object.
pub fn tool_decl(env: &Env, input: ToolInput<'_>) -> Result<ToolDecl> {
    let schema = json::from_js(env, input.input_schema, "inputSchema")?;
    Ok(ToolDecl::new(
        input.origin,
        input.name,
        input.description,
        Arc::new(schema),
    )
    .with_effect(Effect::from_declared(Some(
        input.effect.as_deref().unwrap_or("irreversible"),
    )))
    .with_approval(Approval::from_declared(Some(
        input.approval.as_deref().unwrap_or("required"),
    ))))
}

pub fn shelf_skill(input: ShelfSkillInput) -> ShelfSkill {
    ShelfSkill {
        name: input.name,
        disclosure: input.disclosure,
        address: input.address,
        hash: input.hash,
        package: input.package,
    }
}

pub fn carried_skill(input: CarriedSkillInput) -> CarriedSkill {
    CarriedSkill {
        name: input.name,
        disclosure: input.disclosure,
        body: input.body,
        hash: input.hash,
        package: input.package,
    }
}

/// The mode of `start` and `switchMode`, from its word.
pub fn mode_of(env: &Env, mode: &str) -> Result<Mode> {
    Mode::parse(mode).ok_or_else(|| {
        fail(
            env,
            code::INPUT,
            format!("mode must be \"chat\" or \"work\", not {mode:?}"),
        )
    })
}

fn profile_of(env: &Env, options: Option<StartOptions>) -> Result<Option<Profile>> {
    options
        .and_then(|options| options.profile)
        .map(|word| {
            Profile::parse(&word).ok_or_else(|| {
                fail(
                    env,
                    code::INPUT,
                    format!("profile must be \"scout\" or \"writer\" (or absent), not {word:?}"),
                )
            })
        })
        .transpose()
}

/// What admission asks of a catalog, a recorder and a started run alike.
pub trait Admits {
    fn tool_named(&mut self, decl: &ToolDecl) -> std::result::Result<String, Refusal>;
    fn skill_named(&mut self, decl: &ShelfSkill) -> std::result::Result<String, Refusal>;
    fn carried_named(&mut self, decl: &CarriedSkill) -> std::result::Result<String, Refusal>;
}

impl Admits for disclose::Catalog {
    fn tool_named(&mut self, decl: &ToolDecl) -> std::result::Result<String, Refusal> {
        self.admit_tool(decl).map(|tool| tool.name().to_owned())
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> std::result::Result<String, Refusal> {
        self.admit_skill(decl).map(|skill| skill.name().to_owned())
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> std::result::Result<String, Refusal> {
        self.admit_carried_skill(decl)
            .map(|skill| skill.name().to_owned())
    }
}

impl Admits for disclose::Recorder<std::fs::File> {
    fn tool_named(&mut self, decl: &ToolDecl) -> std::result::Result<String, Refusal> {
        self.admit_tool(decl).map(|tool| tool.name().to_owned())
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> std::result::Result<String, Refusal> {
        self.admit_skill(decl).map(|skill| skill.name().to_owned())
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> std::result::Result<String, Refusal> {
        self.admit_carried_skill(decl)
            .map(|skill| skill.name().to_owned())
    }
}

/// The four admission methods as `Catalog`, `Recorder` and `Run` share
/// them, over the type's `$open` door: a refused admission throws a
/// `DiscloseError` whose `code` is the refusal's.
#[macro_export]
macro_rules! admission_methods {
    ($type:ident, $open:ident) => {
        #[napi]
        impl $type {
            /// Admits a tool; returns its minted name.
            #[napi]
            pub fn admit_tool(
                &mut self,
                env: Env,
                decl: $crate::catalog::ToolInput<'_>,
            ) -> Result<String> {
                let decl = $crate::catalog::tool_decl(&env, decl)?;
                self.$open(&env, |building| building.tool_named(&decl))
            }

            /// Admits a declaration (as the importers return it); returns
            /// its minted name.
            #[napi]
            pub fn admit(
                &mut self,
                env: Env,
                decl: $crate::catalog::ToolInput<'_>,
            ) -> Result<String> {
                self.admit_tool(env, decl)
            }

            /// Admits a shelf skill; returns its name.
            #[napi]
            pub fn admit_skill(
                &mut self,
                env: Env,
                skill: $crate::catalog::ShelfSkillInput,
            ) -> Result<String> {
                let decl = $crate::catalog::shelf_skill(skill);
                self.$open(&env, |building| building.skill_named(&decl))
            }

            /// Admits a carried skill; returns its name.
            #[napi]
            pub fn admit_carried_skill(
                &mut self,
                env: Env,
                skill: $crate::catalog::CarriedSkillInput,
            ) -> Result<String> {
                let decl = $crate::catalog::carried_skill(skill);
                self.$open(&env, |building| building.carried_named(&decl))
            }
        }
    };
}

/// A catalog being built. Admit its tools and skills, then `start` its
/// run.
#[napi]
pub struct Catalog {
    building: Option<disclose::Catalog>,
}

const CATALOG_STARTED: &str = "this catalog has started its run; admit before start (the run itself refuses admissions: admit.frozen)";

impl Catalog {
    fn open<R>(
        &mut self,
        env: &Env,
        admit: impl FnOnce(&mut disclose::Catalog) -> std::result::Result<R, Refusal>,
    ) -> Result<R> {
        let catalog = self.building(env)?;
        admit(catalog).map_err(|refusal| refused_admission(env, &refusal))
    }

    fn building(&mut self, env: &Env) -> Result<&mut disclose::Catalog> {
        self.building
            .as_mut()
            .ok_or_else(|| fail(env, code::ENDED, CATALOG_STARTED))
    }
}

admission_methods!(Catalog, open);

#[napi]
impl Catalog {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Catalog {
        Catalog {
            building: Some(disclose::Catalog::new()),
        }
    }

    /// Sets the dev line (the `dev` op): before `start` only.
    #[napi]
    pub fn set_dev_line(&mut self, env: Env, text: String) -> Result<()> {
        self.building(&env)?.set_dev_line(&text);
        Ok(())
    }

    /// The admitted tool of that minted name, or `null`.
    #[napi]
    pub fn tool(&mut self, env: Env, name: String) -> Result<Option<Tool>> {
        Ok(self.building(&env)?.tool(&name).map(Tool::of))
    }

    /// The admitted skill of that name, or `null`.
    #[napi]
    pub fn skill(&mut self, env: Env, name: String) -> Result<Option<Skill>> {
        Ok(self.building(&env)?.skill(&name).map(Skill::of))
    }

    /// The catalog's generation (SPEC §2.3): one more per admission.
    #[napi(getter)]
    pub fn generation(&mut self, env: Env) -> Result<i64> {
        Ok(self.building(&env)?.generation() as i64)
    }

    /// Freezes the catalog and starts its run. `mode` is `"chat"` or
    /// `"work"`; `profile` (`"scout"` or `"writer"`) starts a child's run.
    #[napi]
    pub fn start(&mut self, env: Env, mode: String, options: Option<StartOptions>) -> Result<Run> {
        let mode = mode_of(&env, &mode)?;
        let profile = profile_of(&env, options)?;
        let catalog = self.building.take().ok_or_else(|| {
            fail(
                &env,
                code::ENDED,
                "this catalog has already started its run",
            )
        })?;
        let run = match profile {
            None => catalog.start(mode),
            Some(profile) => catalog.start_child(mode, profile),
        };
        Ok(Run::new(Started::Plain(run)))
    }
}

/// `Recorder`'s options.
#[napi(object)]
pub struct RecorderOptions {
    /// The header line's `about`.
    pub about: Option<String>,
}

/// Where a recorder stands.
enum Recording {
    Open(disclose::Recorder<std::fs::File>),
    Started(Rc<RefCell<Started>>),
    Finished,
}

/// A catalog being built, recorded as a session that `disclose check`
/// replays byte for byte.
#[napi]
pub struct Recorder {
    state: Recording,
}

const RECORDER_STARTED: &str = "this recorder has started its run; admit before start (the run records refused admissions itself)";

impl Recorder {
    fn open<R>(
        &mut self,
        env: &Env,
        admit: impl FnOnce(&mut disclose::Recorder<std::fs::File>) -> std::result::Result<R, Refusal>,
    ) -> Result<R> {
        let Recording::Open(recorder) = &mut self.state else {
            return Err(fail(env, code::ENDED, RECORDER_STARTED));
        };
        admit(recorder).map_err(|refusal| refused_admission(env, &refusal))
    }
}

admission_methods!(Recorder, open);

#[napi]
impl Recorder {
    /// A recorder whose session goes to the file at `path` (created, or
    /// truncated), starting with the header line.
    #[napi(constructor)]
    pub fn new(env: Env, path: String, options: Option<RecorderOptions>) -> Result<Recorder> {
        let about = options
            .and_then(|options| options.about)
            .unwrap_or_else(|| "a run recorded by the disclose npm package".to_owned());
        let file = std::fs::File::create(&path).map_err(|error| {
            fail(
                &env,
                code::RECORDING,
                format!("cannot create {path}: {error}"),
            )
        })?;
        let recorder = disclose::Recorder::new(file, &about);
        if let Some(error) = recorder.error() {
            return Err(fail(
                &env,
                code::RECORDING,
                format!("cannot write {path}: {error}"),
            ));
        }
        Ok(Recorder {
            state: Recording::Open(recorder),
        })
    }

    /// Records a tool the host did not admit (`admitted: false`): it never
    /// reaches the catalog.
    #[napi]
    pub fn unadmitted_tool(&mut self, env: Env, decl: ToolInput<'_>) -> Result<()> {
        let decl = tool_decl(&env, decl)?;
        self.open(&env, |recorder| {
            recorder.unadmitted_tool(&decl);
            Ok(())
        })
    }

    /// Sets the dev line, recorded.
    #[napi]
    pub fn set_dev_line(&mut self, env: Env, text: String) -> Result<()> {
        self.open(&env, |recorder| {
            recorder.set_dev_line(&text);
            Ok(())
        })
    }

    /// Starts the recorded run: its every answer is recorded as given.
    #[napi]
    pub fn start(&mut self, env: Env, mode: String, options: Option<StartOptions>) -> Result<Run> {
        let mode = mode_of(&env, &mode)?;
        let profile = profile_of(&env, options)?;
        let Recording::Open(recorder) = std::mem::replace(&mut self.state, Recording::Finished)
        else {
            return Err(fail(
                &env,
                code::ENDED,
                "this recorder has already started its run, or finished",
            ));
        };
        let run = match profile {
            None => recorder.start(mode),
            Some(profile) => recorder.start_child(mode, profile),
        };
        let started = Rc::new(RefCell::new(Started::Recorded(run)));
        self.state = Recording::Started(Rc::clone(&started));
        Ok(Run::shared(started))
    }

    /// Ends the recording: the run's, if it started. Throws (`recording`)
    /// if a line could not be written.
    #[napi]
    pub fn finish(&mut self, env: Env) -> Result<()> {
        match std::mem::replace(&mut self.state, Recording::Finished) {
            Recording::Open(recorder) => recorder
                .finish()
                .map(drop)
                .map_err(|error| fail(&env, code::RECORDING, error.to_string())),
            Recording::Started(started) => crate::run::finish(&env, &started),
            Recording::Finished => Ok(()),
        }
    }
}
