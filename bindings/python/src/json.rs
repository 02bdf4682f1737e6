//! JSON between Python and the library, with every number's bytes kept.
//!
//! A JSON text (`str`) is read in Rust by the harness's strict reader, the
//! one that reads session lines, so `-0`, `1.0` and an integer past 2^53
//! reach the library exactly as a session would give them, and Python's
//! `json` never touches them. A Python value is converted without a text
//! in between: `int` to an `i64` or `u64` where it fits, and otherwise
//! through its decimal digits read as JSON reads them; `float` to the same
//! `f64`. Back to Python, numbers become `int` and `float`, which hold
//! every `i64`, `u64` and `f64` exactly.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use crate::errors::input_error;

/// The deepest nesting taken, as the session reader's (127 levels).
const MAX_DEPTH: usize = disclose_replay::json::MAX_DEPTH;

/// `value` as the library's JSON value: a `str` is read as a JSON text,
/// anything else converted as a Python value. `what` names it in errors.
pub fn from_python(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    match value.cast::<PyString>() {
        Ok(text) => parse(text.to_str()?, what),
        Err(_) => convert(value, what, 1),
    }
}

/// A JSON text, read strictly.
pub fn parse(text: &str, what: &str) -> PyResult<Value> {
    disclose_replay::json::parse(text)
        .map_err(|error| input_error(format!("{what} is not a JSON text: {error}")))
}

fn convert(value: &Bound<'_, PyAny>, what: &str, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(input_error(format!(
            "{what} nests deeper than {MAX_DEPTH} levels, the limit of this library's JSON (or it holds itself)"
        )));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    // `bool` before `int`: in Python, `True` is an `int` too.
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(Value::Bool(flag.is_true()));
    }
    if let Ok(int) = value.cast::<PyInt>() {
        if let Ok(small) = int.extract::<i64>() {
            return Ok(Value::from(small));
        }
        if let Ok(large) = int.extract::<u64>() {
            return Ok(Value::from(large));
        }
        // Past u64: what JSON's reader makes of the same digits (an f64).
        let digits = int.str()?;
        return parse(digits.to_str()?, what);
    }
    if let Ok(float) = value.cast::<PyFloat>() {
        let number = float.value();
        return Number::from_f64(number)
            .map(Value::Number)
            .ok_or_else(|| input_error(format!("{what} holds {number}, which JSON cannot write")));
    }
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(Value::String(text.to_str()?.to_owned()));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut object = Map::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>() else {
                return Err(input_error(format!(
                    "{what} has a key that is not a str ({}): JSON keys are strings",
                    key.repr()?
                )));
            };
            object.insert(key.to_str()?.to_owned(), convert(&item, what, depth + 1)?);
        }
        return Ok(Value::Object(object));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        return value
            .try_iter()?
            .map(|item| convert(&item?, what, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(input_error(format!(
        "{what} holds a {}, which is not JSON (dict, list, tuple, str, int, float, bool or None)",
        value.get_type().name()?
    )))
}

/// The library's value as Python objects.
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(flag) => PyBool::new(py, *flag).to_owned().into_any(),
        Value::Number(number) => {
            if let Some(small) = number.as_i64() {
                small.into_pyobject(py)?.into_any()
            } else if let Some(large) = number.as_u64() {
                large.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, number.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(text) => PyString::new(py, text).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(object) => {
            let dict = PyDict::new(py);
            for (key, item) in object {
                dict.set_item(key, to_python(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
