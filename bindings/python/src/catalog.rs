//! `Catalog` and `Recorder`: admission, and the start of a run.
//!
//! Every lock here is taken with the GIL released (`Python::detach`), and
//! only then may the recorder's sink take the GIL back to write: a thread
//! never waits for a lock while it holds the GIL, so two Python threads
//! cannot deadlock on a catalog, a recorder or a run (docs/python.md).

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use disclose::{Approval, CarriedSkill, Effect, Mode, Profile, Refusal, ShelfSkill, ToolDecl};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{admission_error, ended, input_error, recording_error};
use crate::json;
use crate::run::{Run, Started};

/// Takes a lock that a panic elsewhere may have poisoned: the library
/// leaves its values whole on every path, so the value is still good.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A tool declaration from the host's arguments.
pub fn tool_decl(
    origin: String,
    name: String,
    description: String,
    input_schema: &Bound<'_, PyAny>,
    effect: &str,
    approval: &str,
) -> PyResult<ToolDecl> {
    let schema = json::from_python(input_schema, "input_schema")?;
    Ok(ToolDecl::new(origin, name, description, Arc::new(schema))
        .with_effect(Effect::from_declared(Some(effect)))
        .with_approval(Approval::from_declared(Some(approval))))
}

/// A tool declaration from any object with `ToolDecl`'s attributes.
pub fn decl_of(decl: &Bound<'_, PyAny>) -> PyResult<ToolDecl> {
    let text = |field: &str| -> PyResult<String> { decl.getattr(field)?.extract() };
    tool_decl(
        text("origin")?,
        text("name")?,
        text("description")?,
        &decl.getattr("input_schema")?,
        &text("effect")?,
        &text("approval")?,
    )
}

/// The mode and profile of `start`, from their words.
pub fn mode_of(mode: &str, profile: Option<&str>) -> PyResult<(Mode, Option<Profile>)> {
    let mode = Mode::parse(mode)
        .ok_or_else(|| input_error(format!("mode must be \"chat\" or \"work\", not {mode:?}")))?;
    let profile = profile
        .map(|word| {
            Profile::parse(word).ok_or_else(|| {
                input_error(format!(
                    "profile must be \"scout\" or \"writer\" (or None), not {word:?}"
                ))
            })
        })
        .transpose()?;
    Ok((mode, profile))
}

/// An admitted tool, as the catalog holds it.
#[pyclass(module = "disclose._native", frozen, get_all)]
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

#[pymethods]
impl Tool {
    fn __repr__(&self) -> String {
        format!(
            "Tool(name={:?}, effect={:?}, approval={:?}, digest={:?})",
            self.name, self.effect, self.approval, self.digest
        )
    }
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
#[pyclass(module = "disclose._native", frozen, get_all)]
pub struct Skill {
    /// Its name.
    pub name: String,
    /// `"shelf"` or `"carried"`.
    pub door: String,
    /// The one line it is disclosed by.
    pub disclosure: String,
    /// Its hint, as the dormant index shows it.
    pub hint: String,
    /// Its BLAKE3, 64 lowercase hex: declared (shelf) or of the body
    /// (carried); `None` for a shelf skill declared without one.
    pub hash: Option<String>,
    /// The package directory it came in, if any.
    pub package: Option<String>,
}

#[pymethods]
impl Skill {
    fn __repr__(&self) -> String {
        format!(
            "Skill(name={:?}, door={:?}, hash={:?})",
            self.name, self.door, self.hash
        )
    }
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

/// What admission asks of a catalog, a recorder and a started run alike.
pub trait Admits {
    fn tool_named(&mut self, decl: &ToolDecl) -> Result<String, Refusal>;
    fn skill_named(&mut self, decl: &ShelfSkill) -> Result<String, Refusal>;
    fn carried_named(&mut self, decl: &CarriedSkill) -> Result<String, Refusal>;
}

impl Admits for disclose::Catalog {
    fn tool_named(&mut self, decl: &ToolDecl) -> Result<String, Refusal> {
        self.admit_tool(decl).map(|tool| tool.name().to_owned())
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> Result<String, Refusal> {
        self.admit_skill(decl).map(|skill| skill.name().to_owned())
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> Result<String, Refusal> {
        self.admit_carried_skill(decl)
            .map(|skill| skill.name().to_owned())
    }
}

impl Admits for disclose::Recorder<Sink> {
    fn tool_named(&mut self, decl: &ToolDecl) -> Result<String, Refusal> {
        self.admit_tool(decl).map(|tool| tool.name().to_owned())
    }
    fn skill_named(&mut self, decl: &ShelfSkill) -> Result<String, Refusal> {
        self.admit_skill(decl).map(|skill| skill.name().to_owned())
    }
    fn carried_named(&mut self, decl: &CarriedSkill) -> Result<String, Refusal> {
        self.admit_carried_skill(decl)
            .map(|skill| skill.name().to_owned())
    }
}

/// Where a recording goes: a file the package opened, or a Python file
/// object the host handed over (text or binary).
pub enum Sink {
    File(std::fs::File),
    Python { file: Py<PyAny>, text: bool },
}

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            Sink::File(file) => file.write(bytes),
            Sink::Python { file, text } => Python::attach(|py| {
                let file = file.bind(py);
                let written = if *text {
                    let line = std::str::from_utf8(bytes)
                        .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
                    file.call_method1("write", (PyString::new(py, line),))
                } else {
                    file.call_method1("write", (pyo3::types::PyBytes::new(py, bytes),))
                };
                written.map(|_| bytes.len()).map_err(io::Error::other)
            }),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::File(file) => file.flush(),
            Sink::Python { file, .. } => Python::attach(|py| {
                file.bind(py)
                    .call_method0("flush")
                    .map(drop)
                    .map_err(io::Error::other)
            }),
        }
    }
}

impl Sink {
    /// A path (`str` or `os.PathLike`) is created, or truncated; anything
    /// else must have `write`, and is written `str` lines when it is an
    /// `io.TextIOBase`, else `bytes`.
    fn of(target: &Bound<'_, PyAny>) -> PyResult<Sink> {
        let py = target.py();
        let os = py.import("os")?;
        let is_path =
            target.is_instance_of::<PyString>() || target.is_instance(&os.getattr("PathLike")?)?;
        if is_path {
            let path: std::path::PathBuf = target.extract()?;
            return std::fs::File::create(&path)
                .map(Sink::File)
                .map_err(|error| {
                    recording_error(format!("cannot create {}: {error}", path.display()))
                });
        }
        if !target.hasattr("write")? {
            return Err(input_error(format!(
                "a Recorder writes to a path or a file object, not to {}",
                target.repr()?
            )));
        }
        let text = target.is_instance(&py.import("io")?.getattr("TextIOBase")?)?;
        Ok(Sink::Python {
            file: target.clone().unbind(),
            text,
        })
    }
}

/// The four admission methods as `Catalog`, `Recorder` and `Run` share
/// them, over the type's `$open` door: a refused admission raises.
#[macro_export]
macro_rules! admission_methods {
    ($type:ident, $open:ident) => {
        #[pymethods]
        impl $type {
            /// Admits a tool; returns its minted name.
            #[pyo3(signature = (origin, name, description, input_schema, *, effect = "irreversible", approval = "required"))]
            fn admit_tool(
                &self,
                py: Python<'_>,
                origin: String,
                name: String,
                description: String,
                input_schema: &Bound<'_, PyAny>,
                effect: &str,
                approval: &str,
            ) -> PyResult<String> {
                let decl = $crate::catalog::tool_decl(origin, name, description, input_schema, effect, approval)?;
                self.$open(py, move |building| building.tool_named(&decl))
            }

            /// Admits a `ToolDecl` (as the importers return); returns its
            /// minted name.
            fn admit(&self, py: Python<'_>, decl: &Bound<'_, PyAny>) -> PyResult<String> {
                let decl = $crate::catalog::decl_of(decl)?;
                self.$open(py, move |building| building.tool_named(&decl))
            }

            /// Admits a shelf skill (its card lives at `address`).
            #[pyo3(signature = (name, disclosure, address, *, hash = None, package = None))]
            fn admit_skill(
                &self,
                py: Python<'_>,
                name: String,
                disclosure: String,
                address: String,
                hash: Option<String>,
                package: Option<String>,
            ) -> PyResult<String> {
                let decl = disclose::ShelfSkill { name, disclosure, address, hash, package };
                self.$open(py, move |building| building.skill_named(&decl))
            }

            /// Admits a carried skill (its card is `body`).
            #[pyo3(signature = (name, disclosure, body, *, hash = None, package = None))]
            fn admit_carried_skill(
                &self,
                py: Python<'_>,
                name: String,
                disclosure: String,
                body: String,
                hash: Option<String>,
                package: Option<String>,
            ) -> PyResult<String> {
                let decl = disclose::CarriedSkill { name, disclosure, body, hash, package };
                self.$open(py, move |building| building.carried_named(&decl))
            }
        }
    };
}

/// A catalog being built (`disclose.Catalog`).
#[pyclass(module = "disclose._native", frozen)]
pub struct Catalog {
    building: Mutex<Option<disclose::Catalog>>,
}

const CATALOG_STARTED: &str = "this catalog has started its run; admit before start (the run itself refuses admissions: admit.frozen)";

impl Catalog {
    fn open<R: Send>(
        &self,
        py: Python<'_>,
        admit: impl Send + FnOnce(&mut disclose::Catalog) -> Result<R, Refusal>,
    ) -> PyResult<R> {
        let result = py.detach(|| lock(&self.building).as_mut().map(admit));
        match result {
            None => Err(ended(CATALOG_STARTED)),
            Some(admitted) => admitted.map_err(|refusal| admission_error(&refusal)),
        }
    }

    fn building<R: Send>(
        &self,
        py: Python<'_>,
        read: impl Send + FnOnce(&mut disclose::Catalog) -> R,
    ) -> PyResult<R> {
        py.detach(|| lock(&self.building).as_mut().map(read))
            .ok_or_else(|| ended(CATALOG_STARTED))
    }
}

admission_methods!(Catalog, open);

#[pymethods]
impl Catalog {
    #[new]
    fn new() -> Catalog {
        Catalog {
            building: Mutex::new(Some(disclose::Catalog::new())),
        }
    }

    /// Sets the dev line (`dev` op): before `start` only.
    fn set_dev_line(&self, py: Python<'_>, text: String) -> PyResult<()> {
        self.building(py, move |catalog| catalog.set_dev_line(&text))
    }

    /// The admitted tool of that minted name, if any.
    fn tool(&self, py: Python<'_>, name: String) -> PyResult<Option<Tool>> {
        self.building(py, move |catalog| catalog.tool(&name).map(Tool::of))
    }

    /// The admitted skill of that name, if any.
    fn skill(&self, py: Python<'_>, name: String) -> PyResult<Option<Skill>> {
        self.building(py, move |catalog| catalog.skill(&name).map(Skill::of))
    }

    /// The catalog's generation (SPEC §2.3): one more per admission.
    #[getter]
    fn generation(&self, py: Python<'_>) -> PyResult<u64> {
        self.building(py, |catalog| catalog.generation())
    }

    /// Freezes the catalog and starts its run. `mode` is `"chat"` or
    /// `"work"`; `profile` (`"scout"` or `"writer"`) starts a child's run.
    #[pyo3(signature = (mode, *, profile = None))]
    fn start(&self, py: Python<'_>, mode: &str, profile: Option<&str>) -> PyResult<Run> {
        let (mode, profile) = mode_of(mode, profile)?;
        let catalog = py
            .detach(|| lock(&self.building).take())
            .ok_or_else(|| ended("this catalog has already started its run"))?;
        let run = match profile {
            None => catalog.start(mode),
            Some(profile) => catalog.start_child(mode, profile),
        };
        Ok(Run::new(Started::Plain(run)))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.building(py, |catalog| catalog.generation()) {
            Ok(generation) => format!("Catalog(generation={generation})"),
            Err(_) => "Catalog(started)".to_owned(),
        }
    }
}

/// Where a recorder stands.
enum Recording {
    Open(disclose::Recorder<Sink>),
    Started(Py<Run>),
    Finished,
}

/// A catalog being built, recorded as a session (`disclose.Recorder`).
#[pyclass(module = "disclose._native", frozen)]
pub struct Recorder {
    state: Mutex<Recording>,
}

impl Recorder {
    fn open<R: Send>(
        &self,
        py: Python<'_>,
        admit: impl Send + FnOnce(&mut disclose::Recorder<Sink>) -> Result<R, Refusal>,
    ) -> PyResult<R> {
        let result = py.detach(|| match &mut *lock(&self.state) {
            Recording::Open(recorder) => Some(admit(recorder)),
            _ => None,
        });
        match result {
            None => Err(ended(
                "this recorder has started its run; admit before start (the run records refused admissions itself)",
            )),
            Some(admitted) => admitted.map_err(|refusal| admission_error(&refusal)),
        }
    }
}

admission_methods!(Recorder, open);

#[pymethods]
impl Recorder {
    /// A recorder whose session goes to `target` (a path, or a file object
    /// with `write`), starting with the header line.
    #[new]
    #[pyo3(signature = (target, *, about = "a run recorded by the disclose Python package"))]
    fn new(py: Python<'_>, target: &Bound<'_, PyAny>, about: &str) -> PyResult<Recorder> {
        let sink = Sink::of(target)?;
        let recorder = py.detach(|| disclose::Recorder::new(sink, about));
        if let Some(error) = recorder.error() {
            return Err(recording_error(error.to_string()));
        }
        Ok(Recorder {
            state: Mutex::new(Recording::Open(recorder)),
        })
    }

    /// Records a tool the host did not admit (`admitted: false`): it never
    /// reaches the catalog.
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
        self.open(py, move |recorder| {
            recorder.unadmitted_tool(&decl);
            Ok(())
        })
    }

    /// Sets the dev line, recorded.
    fn set_dev_line(&self, py: Python<'_>, text: String) -> PyResult<()> {
        self.open(py, move |recorder| {
            recorder.set_dev_line(&text);
            Ok(())
        })
    }

    /// Starts the recorded run: its every answer is recorded as given.
    #[pyo3(signature = (mode, *, profile = None))]
    fn start(&self, py: Python<'_>, mode: &str, profile: Option<&str>) -> PyResult<Py<Run>> {
        let (mode, profile) = mode_of(mode, profile)?;
        let recorder = py.detach(|| {
            let mut state = lock(&self.state);
            match std::mem::replace(&mut *state, Recording::Finished) {
                Recording::Open(recorder) => Ok(recorder),
                other => {
                    *state = other;
                    Err(())
                }
            }
        });
        let Ok(recorder) = recorder else {
            return Err(ended(
                "this recorder has already started its run, or finished",
            ));
        };
        let run = py.detach(|| match profile {
            None => recorder.start(mode),
            Some(profile) => recorder.start_child(mode, profile),
        });
        let run = Py::new(py, Run::new(Started::Recorded(run)))?;
        *lock(&self.state) = Recording::Started(run.clone_ref(py));
        Ok(run)
    }

    /// Ends the recording: the run's, if it started. Raises
    /// `RecordingError` if a line could not be written.
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        let state = py.detach(|| std::mem::replace(&mut *lock(&self.state), Recording::Finished));
        match state {
            Recording::Open(recorder) => py
                .detach(|| recorder.finish())
                .map(drop)
                .map_err(|error| recording_error(error.to_string())),
            Recording::Started(run) => run.get().finish_run(py),
            Recording::Finished => Ok(()),
        }
    }

    fn __enter__(slf: Py<Recorder>) -> Py<Recorder> {
        slf
    }

    /// Finishes the file. When the block raised, its exception goes on and
    /// a recording error is not raised over it.
    fn __exit__(
        &self,
        py: Python<'_>,
        kind: Option<&Bound<'_, PyAny>>,
        _value: Option<&Bound<'_, PyAny>>,
        _traceback: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let finished = self.finish(py);
        if kind.is_none_or(|kind| kind.is_none()) {
            finished?;
        }
        Ok(false)
    }
}
