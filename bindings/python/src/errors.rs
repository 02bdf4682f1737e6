//! The host's mistakes, raised as the package's exceptions
//! (`disclose/_errors.py`): each derives from `DiscloseError` and from the
//! built-in that fits. Refusals are never raised: they are answers.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// One of the classes of `disclose._errors`, imported once.
fn raise(
    class: &'static PyOnceLock<Py<PyType>>,
    name: &str,
    args: impl for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>>,
) -> PyErr {
    Python::attach(|py| {
        let made = class
            .import(py, "disclose._errors", name)
            .and_then(|class| class.call1(args(py)?));
        match made {
            Ok(error) => PyErr::from_value(error),
            Err(error) => error,
        }
    })
}

macro_rules! error_class {
    ($cell:ident, $name:literal) => {
        static $cell: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    };
}

error_class!(INPUT, "InputError");
error_class!(ADMISSION, "AdmissionError");
error_class!(ENDED, "RunEndedError");
error_class!(RECORDING, "RecordingError");
error_class!(TOOL_LIST, "ToolListError");

/// A value the library cannot take: a word that is not a mode, args that
/// are not JSON (`InputError`, a `ValueError`).
pub fn input_error(message: String) -> PyErr {
    raise(&INPUT, "InputError", |py| (message,).into_pyobject(py))
}

/// A refused admission (`AdmissionError`, a `ValueError` with `.code`,
/// `.kind` and `.text`, the lines a transcript prints).
pub fn admission_error(refusal: &disclose::Refusal) -> PyErr {
    let (message, code, kind, text) = (
        refusal.to_string(),
        refusal.code(),
        refusal.class().as_str(),
        refusal.to_lines(),
    );
    raise(&ADMISSION, "AdmissionError", |py| {
        (message, code, kind, text).into_pyobject(py)
    })
}

/// A catalog, recorder or run used after it started or ended
/// (`RunEndedError`, a `RuntimeError`).
pub fn ended(message: &str) -> PyErr {
    raise(&ENDED, "RunEndedError", |py| (message,).into_pyobject(py))
}

/// A recording that could not be written (`RecordingError`, an `OSError`).
pub fn recording_error(message: String) -> PyErr {
    raise(&RECORDING, "RecordingError", |py| {
        (message,).into_pyobject(py)
    })
}

/// A tool list that cannot be imported (`ToolListError`, a `ValueError`).
pub fn tool_list_error(message: String) -> PyErr {
    raise(&TOOL_LIST, "ToolListError", |py| {
        (message,).into_pyobject(py)
    })
}
