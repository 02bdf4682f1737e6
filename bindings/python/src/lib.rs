//! `disclose._native`: the catalog for Python, the compiled half of the
//! `disclose` package (its typed Python half is `python/disclose/`).
//!
//! It is a thin layer over the library (`crates/disclose`): admission,
//! runs and answers keep the library's bytes, JSON crosses with its numbers
//! kept (`json`), the host's mistakes are the package's exceptions
//! (`errors`), and `cli` is the `disclose` command itself, run in process.

// The methods take Python's keyword arguments one by one (`effect=`,
// `approval=`, `hash=`…), as the API's contract names them.
#![allow(clippy::too_many_arguments)]

mod catalog;
mod errors;
mod json;
mod run;

use disclose::import;
use pyo3::prelude::*;

use crate::errors::tool_list_error;

/// The contract version this build follows (SPEC §17).
const CONTRACT_VERSION: u32 = disclose::CONTRACT_VERSION;

/// Runs the `disclose` command with `argv` and returns its exit status: the
/// Rust binary's bytes and codes. `argv[0]` is the command as a person
/// types it to run it again (`disclose`, `uvx disclose-catalog`, `python -m
/// disclose`), which the bless command repeats.
#[pyfunction]
fn cli(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> u8 {
    py.detach(|| disclose_cli::host_main(argv, |_| {}) as u8)
}

/// The declarations of a tool list, as `disclose.ToolDecl`s.
fn imported<'py>(
    py: Python<'py>,
    list: Result<import::Imported, import::ImportError>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let imported = list.map_err(|error| tool_list_error(format!("the tool list {error}")))?;
    let class = py.import("disclose._types")?.getattr("ToolDecl")?;
    imported
        .tools
        .iter()
        .map(|decl| {
            class.call1((
                &decl.origin,
                &decl.name,
                &decl.description,
                json::to_python(py, &decl.input_schema)?,
                decl.effect.as_str(),
                decl.approval.as_str(),
            ))
        })
        .collect()
}

/// An MCP `tools/list` result (or a bare `tools` array) as declarations.
#[pyfunction]
fn import_mcp<'py>(
    py: Python<'py>,
    json_text: &str,
    origin: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    imported(py, import::mcp(json_text, origin))
}

/// An OpenAI `tools` array as declarations (built-in tools are skipped).
#[pyfunction]
fn import_openai<'py>(
    py: Python<'py>,
    json_text: &str,
    origin: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    imported(py, import::openai(json_text, origin))
}

/// An Anthropic tool list as declarations.
#[pyfunction]
fn import_anthropic<'py>(
    py: Python<'py>,
    json_text: &str,
    origin: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    imported(py, import::anthropic(json_text, origin))
}

/// The canonical JSON text (SPEC §10) of a value or of a JSON text.
#[pyfunction]
fn canonical_json(value: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(disclose::internals::canonical::canonical(
        &json::from_python(value, "value")?,
    ))
}

/// The sealed refusal vocabulary, as `disclose vocab` prints it.
#[pyfunction]
fn vocabulary() -> String {
    disclose::vocabulary_text()
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<catalog::Catalog>()?;
    module.add_class::<catalog::Recorder>()?;
    module.add_class::<catalog::Tool>()?;
    module.add_class::<catalog::Skill>()?;
    module.add_class::<run::Run>()?;
    module.add_function(wrap_pyfunction!(cli, module)?)?;
    module.add_function(wrap_pyfunction!(import_mcp, module)?)?;
    module.add_function(wrap_pyfunction!(import_openai, module)?)?;
    module.add_function(wrap_pyfunction!(import_anthropic, module)?)?;
    module.add_function(wrap_pyfunction!(canonical_json, module)?)?;
    module.add_function(wrap_pyfunction!(vocabulary, module)?)?;
    module.add("CONTRACT_VERSION", CONTRACT_VERSION)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
