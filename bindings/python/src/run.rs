//! `Run`: a started run, plain or recorded, and its answers.
//!
//! A plain run is shared behind a read-write lock: `answer`, `describe`
//! and the other queries take it for reading, with the GIL released, so
//! threads answer at once; `switch_mode` takes it for writing. A recorded
//! run takes it for writing on every op, since every op is a line of the
//! file, in the order they were answered.

use std::sync::{PoisonError, RwLock};

use disclose::internals::canonical::canonical;
use disclose::{
    Answer, CarriedSkill, Provider, RecordedRun, Refusal, ShelfSkill, ToolCall, ToolDecl, ToolList,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

use crate::admission_methods;
use crate::catalog::{Admits, Sink, Skill, Tool, tool_decl};
use crate::errors::{admission_error, ended, input_error, recording_error};
use crate::json;

/// What a started run is.
pub enum Started {
    Plain(disclose::Run),
    Recorded(RecordedRun<Sink>),
    Ended,
}

/// A started run (`disclose.Run`): its tool list never changes.
#[pyclass(module = "disclose._native", frozen)]
pub struct Run {
    started: RwLock<Started>,
}

const ENDED: &str = "this run has finished; start a new catalog for a new run";

fn provider_of(word: &str) -> PyResult<Provider> {
    Provider::parse(word).ok_or_else(|| {
        input_error(format!(
            "provider must be \"anthropic\", \"openai_chat\", \"openai_responses\" or \"mcp\", not {word:?}"
        ))
    })
}

/// The lines of a refusal, or the text: what the model reads.
fn lines(answer: Result<String, Refusal>) -> String {
    answer.unwrap_or_else(|refusal| refusal.to_lines())
}

impl Run {
    pub fn new(started: Started) -> Run {
        Run {
            started: RwLock::new(started),
        }
    }

    /// Runs `plain` on a plain run under the read lock, or `recorded` on a
    /// recorded one under the write lock; the GIL is released for both.
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        plain: impl Send + FnOnce(&disclose::Run) -> R,
        recorded: impl Send + FnOnce(&mut RecordedRun<Sink>) -> R,
    ) -> PyResult<R> {
        py.detach(|| {
            {
                let started = self.started.read().unwrap_or_else(PoisonError::into_inner);
                match &*started {
                    Started::Plain(run) => return Some(plain(run)),
                    Started::Ended => return None,
                    Started::Recorded(_) => {}
                }
            }
            let mut started = self.started.write().unwrap_or_else(PoisonError::into_inner);
            match &mut *started {
                Started::Recorded(run) => Some(recorded(run)),
                Started::Plain(run) => Some(plain(run)),
                Started::Ended => None,
            }
        })
        .ok_or_else(|| ended(ENDED))
    }

    /// Reads the run without recording anything (the queries that are not
    /// ops: `tool`, `skill`, `mode`…).
    fn read<R: Send>(
        &self,
        py: Python<'_>,
        read: impl Send + Sync + Fn(&disclose::Run) -> R,
    ) -> PyResult<R> {
        self.with(py, &read, |recorded| read(recorded.run()))
    }

    /// Ends the run; a recorded run's file is finished.
    pub fn finish_run(&self, py: Python<'_>) -> PyResult<()> {
        let started = py.detach(|| {
            std::mem::replace(
                &mut *self.started.write().unwrap_or_else(PoisonError::into_inner),
                Started::Ended,
            )
        });
        match started {
            Started::Recorded(run) => py
                .detach(|| run.finish())
                .map(drop)
                .map_err(|error| recording_error(error.to_string())),
            Started::Plain(_) | Started::Ended => Ok(()),
        }
    }

    fn tool_list(&self, py: Python<'_>, provider: &str) -> PyResult<ToolList> {
        let provider = provider_of(provider)?;
        self.with(
            py,
            |run| run.tools_for(provider),
            |run| run.tools_for(provider),
        )
    }

    fn call_of(id: String, name: String, args: &Bound<'_, PyAny>) -> PyResult<ToolCall> {
        Ok(ToolCall {
            id,
            name,
            args: json::from_python(args, "args")?,
        })
    }

    /// The admission doors of a started run (`admission_methods!`): each
    /// is refused `admit.frozen`, and a recorded run records the attempt.
    fn open<R: Send>(
        &self,
        py: Python<'_>,
        admit: impl Send + FnOnce(&mut dyn Admits) -> Result<R, Refusal>,
    ) -> PyResult<R> {
        let result = py.detach(|| {
            match &mut *self.started.write().unwrap_or_else(PoisonError::into_inner) {
                Started::Plain(run) => Some(admit(&mut Frozen(run))),
                Started::Recorded(run) => Some(admit(run)),
                Started::Ended => None,
            }
        });
        match result {
            None => Err(ended(ENDED)),
            Some(admitted) => admitted.map_err(|refusal| admission_error(&refusal)),
        }
    }
}

/// A plain run's catalog, frozen: every admission is refused.
struct Frozen<'run>(&'run disclose::Run);

impl Admits for Frozen<'_> {
    fn tool_named(&mut self, decl: &ToolDecl) -> Result<String, Refusal> {
        Err(self.0.admit_tool(decl))
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> Result<String, Refusal> {
        Err(self.0.admit_skill(decl))
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> Result<String, Refusal> {
        Err(self.0.admit_carried_skill(decl))
    }
}

/// A recorded run's catalog, frozen: every admission is recorded, then
/// refused.
impl Admits for RecordedRun<Sink> {
    fn tool_named(&mut self, decl: &ToolDecl) -> Result<String, Refusal> {
        Err(self.admit_tool(decl))
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> Result<String, Refusal> {
        Err(self.admit_skill(decl))
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> Result<String, Refusal> {
        Err(self.admit_carried_skill(decl))
    }
}

admission_methods!(Run, open);

/// The package's answer classes (`disclose._types`), imported once.
static TEXT: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static EXECUTE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static REFUSED: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn refused<'py>(py: Python<'py>, refusal: &Refusal) -> PyResult<Bound<'py, PyAny>> {
    REFUSED.import(py, "disclose._types", "Refused")?.call1((
        refusal.code(),
        refusal.class().as_str(),
        refusal.to_lines(),
    ))
}

fn execute<'py>(py: Python<'py>, call: &ToolCall) -> PyResult<Bound<'py, PyAny>> {
    EXECUTE.import(py, "disclose._types", "Execute")?.call1((
        &call.id,
        &call.name,
        json::to_python(py, &call.args)?,
        canonical(&call.args),
    ))
}

fn answer_of<'py>(py: Python<'py>, answer: &Answer) -> PyResult<Bound<'py, PyAny>> {
    match answer {
        Answer::Text(text) => TEXT.import(py, "disclose._types", "Text")?.call1((text,)),
        Answer::Run(call) => execute(py, call),
        Answer::Refused(refusal) => refused(py, refusal),
        // `Answer` is non-exhaustive; every variant the library has is above.
        _ => Err(input_error("an answer this package does not know".into())),
    }
}

#[pymethods]
impl Run {
    /// The system segment: the resident guide and the dormant index.
    fn render(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, disclose::Run::render, RecordedRun::render)
    }

    /// The request's `tools`, shaped for `provider`, as Python objects.
    #[pyo3(signature = (provider = "anthropic"))]
    fn tools_for<'py>(&self, py: Python<'py>, provider: &str) -> PyResult<Bound<'py, PyAny>> {
        json::to_python(py, self.tool_list(py, provider)?.value())
    }

    /// The request's `tools`, shaped for `provider`, as their exact JSON
    /// text: the array whose objects `tool_defs` pins, one per line.
    #[pyo3(signature = (provider = "anthropic"))]
    fn tools_json(&self, py: Python<'_>, provider: &str) -> PyResult<String> {
        Ok(self.tool_list(py, provider)?.as_str().to_owned())
    }

    /// The `tool_defs` op's output: one object per resident tool, a line each.
    #[pyo3(signature = (provider = "anthropic"))]
    fn tool_defs(&self, py: Python<'_>, provider: &str) -> PyResult<String> {
        Ok(self.tool_list(py, provider)?.lines())
    }

    /// `describe`: a capability's full guide by exact name, or a ranked
    /// list by keywords; a refusal's lines when the query is refused.
    fn describe(&self, py: Python<'_>, text: String) -> PyResult<String> {
        self.with(
            py,
            |run| lines(run.describe(&text)),
            |run| lines(run.describe(&text)),
        )
    }

    /// Answers a model's tool call: `Text` (describe), `Execute` (the
    /// call for the host to run) or `Refused`. `args` is a dict or a JSON
    /// text; a text is read here, so its numbers keep their bytes.
    fn answer<'py>(
        &self,
        py: Python<'py>,
        id: String,
        name: String,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let call = Run::call_of(id, name, args)?;
        let answer = self.with(py, |run| run.answer(&call), |run| run.answer(&call))?;
        answer_of(py, &answer)
    }

    /// The call door alone (SPEC §6, the session's `call` op): `Execute`
    /// with the routed call (`describe` too, unanswered) or `Refused`.
    fn route<'py>(
        &self,
        py: Python<'py>,
        id: String,
        name: String,
        args: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let call = Run::call_of(id, name, args)?;
        match self.with(py, |run| run.call(&call), |run| run.call(&call))? {
            Ok(routed) => execute(py, &routed),
            Err(refusal) => refused(py, &refusal),
        }
    }

    /// A skill's card address or body (§7); a refusal's lines when nothing
    /// admitted has that name.
    fn expand(&self, py: Python<'_>, name: String) -> PyResult<String> {
        self.with(
            py,
            |run| lines(run.expand(&name)),
            |run| lines(run.expand(&name)),
        )
    }

    /// Moves the gate to `mode`; returns the policy line for the next
    /// message. The tool list does not change.
    fn switch_mode(&self, py: Python<'_>, mode: &str) -> PyResult<String> {
        let (mode, _) = crate::catalog::mode_of(mode, None)?;
        py.detach(
            || match &mut *self.started.write().unwrap_or_else(PoisonError::into_inner) {
                Started::Plain(run) => Some(run.switch_mode(mode)),
                Started::Recorded(run) => Some(run.switch_mode(mode)),
                Started::Ended => None,
            },
        )
        .ok_or_else(|| ended(ENDED))
    }

    /// Every skill's pin, `(name, BLAKE3)`, by name.
    fn pins(&self, py: Python<'_>) -> PyResult<Vec<(String, String)>> {
        let pins = self.with(py, disclose::Run::skill_pins, RecordedRun::skill_pins)?;
        Ok(pins.into_iter().map(|pin| (pin.name, pin.hash)).collect())
    }

    /// Every admitted tool's descriptor digest, by minted name.
    fn digests<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let owned = |digests: std::collections::BTreeMap<&str, &str>| -> Vec<(String, String)> {
            digests
                .into_iter()
                .map(|(name, digest)| (name.to_owned(), digest.to_owned()))
                .collect()
        };
        let digests = self.with(py, |run| owned(run.digests()), |run| owned(run.digests()))?;
        let dict = PyDict::new(py);
        for (name, digest) in digests {
            dict.set_item(name, digest)?;
        }
        Ok(dict)
    }

    /// A tool this run is offered, by minted name.
    fn tool(&self, py: Python<'_>, name: String) -> PyResult<Option<Tool>> {
        self.read(py, |run| run.tool(&name).map(Tool::of))
    }

    /// A tool the catalog admitted, offered to this run or not.
    fn admitted_tool(&self, py: Python<'_>, name: String) -> PyResult<Option<Tool>> {
        self.read(py, |run| run.admitted_tool(&name).map(Tool::of))
    }

    /// A skill, by name.
    fn skill(&self, py: Python<'_>, name: String) -> PyResult<Option<Skill>> {
        self.read(py, |run| run.skill(&name).map(Skill::of))
    }

    /// The gate's mode now: `"chat"` or `"work"`.
    #[getter]
    fn mode(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |run| run.mode().as_str())
    }

    /// The mode the run started in.
    #[getter]
    fn start_mode(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |run| run.start_mode().as_str())
    }

    /// A child's profile (`"scout"`, `"writer"`), or `None`.
    #[getter]
    fn profile(&self, py: Python<'_>) -> PyResult<Option<&'static str>> {
        self.read(py, |run| run.profile().map(disclose::Profile::as_str))
    }

    /// The catalog's generation at start.
    #[getter]
    fn generation(&self, py: Python<'_>) -> PyResult<u64> {
        self.read(py, disclose::Run::generation)
    }

    /// Whether the run is being recorded.
    #[getter]
    fn recording(&self, py: Python<'_>) -> bool {
        py.detach(|| {
            matches!(
                *self.started.read().unwrap_or_else(PoisonError::into_inner),
                Started::Recorded(_)
            )
        })
    }

    /// Records a tool the host did not admit (`admitted: false`); a plain
    /// run has nothing to do.
    #[pyo3(signature = (origin, name, description, input_schema, *, effect = "irreversible", approval = "required"))]
    fn unadmitted_tool(
        &self,
        py: Python<'_>,
        origin: String,
        name: String,
        description: String,
        input_schema: &Bound<'_, PyAny>,
        effect: &str,
        approval: &str,
    ) -> PyResult<()> {
        let decl = tool_decl(origin, name, description, input_schema, effect, approval)?;
        self.with(py, |_| (), |run| run.unadmitted_tool(&decl))
    }

    /// Ends the run; a recorded run's file is finished, and a line that
    /// could not be written raises `RecordingError`. Every later use
    /// raises `RunEndedError`.
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        self.finish_run(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.read(py, |run| (run.mode().as_str(), run.generation())) {
            Ok((mode, generation)) => format!("Run(mode={mode:?}, generation={generation})"),
            Err(_) => "Run(finished)".to_owned(),
        }
    }
}
