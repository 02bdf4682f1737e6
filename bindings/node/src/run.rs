//! `Run`: a started run, plain or recorded, and its answers.

use std::cell::RefCell;
use std::rc::Rc;

use disclose::internals::canonical::canonical;
use disclose::{
    Answer as Answered, CarriedSkill, Provider, RecordedRun, Refusal, ShelfSkill, ToolCall,
    ToolDecl, ToolList,
};
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::admission_methods;
use crate::catalog::{Admits, Skill, Tool, ToolInput, mode_of, tool_decl};
use crate::errors::{code, fail, refused_admission};
use crate::json;

/// What a started run is.
pub enum Started {
    Plain(disclose::Run),
    Recorded(RecordedRun<std::fs::File>),
    Ended,
}

/// An answer to the model's tool call: `kind` says which.
#[napi(discriminant = "kind", discriminant_case = "lowercase")]
pub enum Answer {
    /// What the model reads: `describe`'s answer, or a refusal's lines
    /// where the model is to read them.
    Text { text: String },
    /// A resolved, fitted and gated call for the host to run; `argsJson`
    /// is the exact canonical bytes of its args.
    Execute {
        id: String,
        name: String,
        args_json: String,
    },
    /// A refusal of the sealed vocabulary: `code` (`call.unknown`…), its
    /// class as `refusalKind`, and `text`, the lines the model reads.
    Refused {
        code: String,
        refusal_kind: String,
        text: String,
    },
}

/// A skill's pin.
#[napi(object)]
pub struct Pin {
    pub name: String,
    /// BLAKE3, 64 lowercase hex.
    pub hash: String,
}

/// A started run: its tool list never changes.
#[napi]
pub struct Run {
    started: Rc<RefCell<Started>>,
}

const ENDED: &str = "this run has finished; start a new catalog for a new run";

fn provider_of(env: &Env, word: &str) -> Result<Provider> {
    Provider::parse(word).ok_or_else(|| {
        fail(
            env,
            code::INPUT,
            format!(
                "provider must be \"anthropic\", \"openai_chat\", \"openai_responses\" or \"mcp\", not {word:?}"
            ),
        )
    })
}

/// The lines of a refusal, or the text: what the model reads.
fn lines(answer: std::result::Result<String, Refusal>) -> String {
    answer.unwrap_or_else(|refusal| refusal.to_lines())
}

fn refused(refusal: &Refusal) -> Answer {
    Answer::Refused {
        code: refusal.code().to_owned(),
        refusal_kind: refusal.class().as_str().to_owned(),
        text: refusal.to_lines(),
    }
}

fn execute(call: &ToolCall) -> Answer {
    Answer::Execute {
        id: call.id.clone(),
        name: call.name.clone(),
        args_json: canonical(&call.args),
    }
}

/// Ends a run; a recorded run's file is finished.
pub fn finish(env: &Env, started: &RefCell<Started>) -> Result<()> {
    match std::mem::replace(&mut *started.borrow_mut(), Started::Ended) {
        Started::Recorded(run) => run
            .finish()
            .map(drop)
            .map_err(|error| fail(env, code::RECORDING, error.to_string())),
        Started::Plain(_) | Started::Ended => Ok(()),
    }
}

impl Run {
    pub fn new(started: Started) -> Run {
        Run::shared(Rc::new(RefCell::new(started)))
    }

    /// A run whose state its recorder shares (to finish the file).
    pub fn shared(started: Rc<RefCell<Started>>) -> Run {
        Run { started }
    }

    /// Runs `plain` on a plain run, or `recorded` on a recorded one.
    fn with<R>(
        &self,
        env: &Env,
        plain: impl FnOnce(&disclose::Run) -> R,
        recorded: impl FnOnce(&mut RecordedRun<std::fs::File>) -> R,
    ) -> Result<R> {
        match &mut *self.started.borrow_mut() {
            Started::Plain(run) => Ok(plain(run)),
            Started::Recorded(run) => Ok(recorded(run)),
            Started::Ended => Err(fail(env, code::ENDED, ENDED)),
        }
    }

    /// Reads the run without recording anything (the queries that are not
    /// ops: `tool`, `skill`, `mode`…).
    fn read<R>(&self, env: &Env, read: impl Fn(&disclose::Run) -> R) -> Result<R> {
        self.with(env, &read, |recorded| read(recorded.run()))
    }

    fn tool_list(&self, env: &Env, provider: Option<String>) -> Result<ToolList> {
        let provider = provider_of(env, provider.as_deref().unwrap_or("anthropic"))?;
        self.with(
            env,
            |run| run.tools_for(provider),
            |run| run.tools_for(provider),
        )
    }

    fn call_of(env: &Env, id: String, name: String, args_json: &str) -> Result<ToolCall> {
        Ok(ToolCall {
            id,
            name,
            args: json::parse(env, args_json, "argsJson")?,
        })
    }

    /// The admission doors of a started run (`admission_methods!`): each
    /// is refused `admit.frozen`, and a recorded run records the attempt.
    fn open<R>(
        &mut self,
        env: &Env,
        admit: impl FnOnce(&mut dyn Admits) -> std::result::Result<R, Refusal>,
    ) -> Result<R> {
        let admitted = match &mut *self.started.borrow_mut() {
            Started::Plain(run) => admit(&mut Frozen(run)),
            Started::Recorded(run) => admit(&mut RecordedAdmits(run)),
            Started::Ended => return Err(fail(env, code::ENDED, ENDED)),
        };
        admitted.map_err(|refusal| refused_admission(env, &refusal))
    }
}

/// A plain run's catalog, frozen: every admission is refused.
struct Frozen<'run>(&'run disclose::Run);

impl Admits for Frozen<'_> {
    fn tool_named(&mut self, decl: &ToolDecl) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_tool(decl))
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_skill(decl))
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_carried_skill(decl))
    }
}

/// A recorded run's catalog, frozen: every admission is recorded, then
/// refused.
struct RecordedAdmits<'run>(&'run mut RecordedRun<std::fs::File>);

impl Admits for RecordedAdmits<'_> {
    fn tool_named(&mut self, decl: &ToolDecl) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_tool(decl))
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_skill(decl))
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> std::result::Result<String, Refusal> {
        Err(self.0.admit_carried_skill(decl))
    }
}

admission_methods!(Run, open);

#[napi]
impl Run {
    /// The system segment: the resident guide and the dormant index.
    #[napi]
    pub fn render(&self, env: Env) -> Result<String> {
        self.with(&env, disclose::Run::render, RecordedRun::render)
    }

    /// The request's `tools`, shaped for `provider` (default
    /// `"anthropic"`), as objects.
    #[napi(ts_return_type = "Array<Record<string, unknown>>")]
    pub fn tools_for<'env>(
        &self,
        env: &'env Env,
        provider: Option<String>,
    ) -> Result<Unknown<'env>> {
        let list = self.tool_list(env, provider)?;
        json::Js(list.value()).into_unknown(env)
    }

    /// The request's `tools`, shaped for `provider`, as their exact JSON
    /// text: the array whose objects `toolDefs` pins, one per line.
    #[napi]
    pub fn tools_json(&self, env: Env, provider: Option<String>) -> Result<String> {
        Ok(self.tool_list(&env, provider)?.as_str().to_owned())
    }

    /// The `tool_defs` op's output: one object per resident tool, a line
    /// each.
    #[napi]
    pub fn tool_defs(&self, env: Env, provider: Option<String>) -> Result<String> {
        Ok(self.tool_list(&env, provider)?.lines())
    }

    /// `describe`: a capability's full guide by exact name, or a ranked
    /// list by keywords; a refusal's lines when the query is refused.
    #[napi]
    pub fn describe(&self, env: Env, text: String) -> Result<String> {
        self.with(
            &env,
            |run| lines(run.describe(&text)),
            |run| lines(run.describe(&text)),
        )
    }

    /// Answers a model's tool call: `text` (describe), `execute` (the call
    /// for the host to run) or `refused`. `argsJson` is the call's
    /// argument text as the model sent it: it is read here, so its numbers
    /// keep their bytes.
    #[napi]
    pub fn answer(&self, env: Env, id: String, name: String, args_json: String) -> Result<Answer> {
        let call = Run::call_of(&env, id, name, &args_json)?;
        let answer = self.with(&env, |run| run.answer(&call), |run| run.answer(&call))?;
        Ok(match answer {
            Answered::Text(text) => Answer::Text { text },
            Answered::Run(call) => execute(&call),
            Answered::Refused(refusal) => refused(&refusal),
            // `Answer` is non-exhaustive; every variant the library has is above.
            _ => {
                return Err(fail(
                    &env,
                    code::INPUT,
                    "an answer this package does not know",
                ));
            }
        })
    }

    /// The call door alone (SPEC §6, the session's `call` op): `execute`
    /// with the routed call (`describe` too, unanswered) or `refused`.
    #[napi]
    pub fn route(&self, env: Env, id: String, name: String, args_json: String) -> Result<Answer> {
        let call = Run::call_of(&env, id, name, &args_json)?;
        Ok(
            match self.with(&env, |run| run.call(&call), |run| run.call(&call))? {
                Ok(routed) => execute(&routed),
                Err(refusal) => refused(&refusal),
            },
        )
    }

    /// A skill's card address or body (§7); a refusal's lines when nothing
    /// admitted has that name.
    #[napi]
    pub fn expand(&self, env: Env, name: String) -> Result<String> {
        self.with(
            &env,
            |run| lines(run.expand(&name)),
            |run| lines(run.expand(&name)),
        )
    }

    /// Moves the gate to `mode`; returns the policy line for the next
    /// message. The tool list does not change.
    #[napi]
    pub fn switch_mode(&self, env: Env, mode: String) -> Result<String> {
        let mode = mode_of(&env, &mode)?;
        match &mut *self.started.borrow_mut() {
            Started::Plain(run) => Ok(run.switch_mode(mode)),
            Started::Recorded(run) => Ok(run.switch_mode(mode)),
            Started::Ended => Err(fail(&env, code::ENDED, ENDED)),
        }
    }

    /// Every skill's pin, by name.
    #[napi]
    pub fn pins(&self, env: Env) -> Result<Vec<Pin>> {
        let pins = self.with(&env, disclose::Run::skill_pins, RecordedRun::skill_pins)?;
        Ok(pins
            .into_iter()
            .map(|pin| Pin {
                name: pin.name,
                hash: pin.hash,
            })
            .collect())
    }

    /// Every admitted tool's descriptor digest, by minted name (in name
    /// order).
    #[napi(ts_return_type = "Record<string, string>")]
    pub fn digests<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        let owned = |digests: std::collections::BTreeMap<&str, &str>| -> serde_json::Value {
            digests
                .into_iter()
                .map(|(name, digest)| (name.to_owned(), digest.into()))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let digests = self.with(env, |run| owned(run.digests()), |run| owned(run.digests()))?;
        json::Js(&digests).into_unknown(env)
    }

    /// A tool this run is offered, by minted name, or `null`.
    #[napi]
    pub fn tool(&self, env: Env, name: String) -> Result<Option<Tool>> {
        self.read(&env, |run| run.tool(&name).map(Tool::of))
    }

    /// A tool the catalog admitted, offered to this run or not.
    #[napi]
    pub fn admitted_tool(&self, env: Env, name: String) -> Result<Option<Tool>> {
        self.read(&env, |run| run.admitted_tool(&name).map(Tool::of))
    }

    /// A skill, by name, or `null`.
    #[napi]
    pub fn skill(&self, env: Env, name: String) -> Result<Option<Skill>> {
        self.read(&env, |run| run.skill(&name).map(Skill::of))
    }

    /// The gate's mode now: `"chat"` or `"work"`.
    #[napi(getter)]
    pub fn mode(&self, env: Env) -> Result<&'static str> {
        self.read(&env, |run| run.mode().as_str())
    }

    /// The mode the run started in.
    #[napi(getter)]
    pub fn start_mode(&self, env: Env) -> Result<&'static str> {
        self.read(&env, |run| run.start_mode().as_str())
    }

    /// A child's profile (`"scout"`, `"writer"`), or `null`.
    #[napi(getter)]
    pub fn profile(&self, env: Env) -> Result<Option<&'static str>> {
        self.read(&env, |run| run.profile().map(disclose::Profile::as_str))
    }

    /// The catalog's generation at start.
    #[napi(getter)]
    pub fn generation(&self, env: Env) -> Result<i64> {
        self.read(&env, |run| run.generation() as i64)
    }

    /// Whether the run is being recorded.
    #[napi(getter)]
    pub fn recording(&self) -> bool {
        matches!(*self.started.borrow(), Started::Recorded(_))
    }

    /// Records a tool the host did not admit (`admitted: false`); a plain
    /// run has nothing to do.
    #[napi]
    pub fn unadmitted_tool(&self, env: Env, decl: ToolInput<'_>) -> Result<()> {
        let decl = tool_decl(&env, decl)?;
        self.with(&env, |_| (), |run| run.unadmitted_tool(&decl))
    }

    /// Ends the run; a recorded run's file is finished, and a line that
    /// could not be written throws (`recording`). Every later use throws
    /// (`ended`).
    #[napi]
    pub fn finish(&self, env: Env) -> Result<()> {
        finish(&env, &self.started)
    }
}
