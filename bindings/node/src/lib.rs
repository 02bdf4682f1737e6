//! The native addon of the `disclose` npm package: the catalog for Node.
//!
//! It is a thin layer over the library (`crates/disclose`): admission
//! (`catalog`), runs and answers (`run`) keep the library's bytes, args
//! cross as JSON text so their numbers keep their bytes (`json`), the
//! host's mistakes throw `DiscloseError` (`errors`), and `cli` is the
//! `disclose` command itself, run in process (`bin/disclose.js`). The
//! package's `index.js` and `index.d.ts` are generated from this crate by
//! `napi build` (`script/node-install`).

mod catalog;
mod errors;
mod json;
mod run;

use disclose::import;
use napi::bindgen_prelude::*;
use napi_derive::napi;

use crate::catalog::ToolDeclaration;
use crate::errors::{code, fail};

/// The contract version this build follows (SPEC §17).
#[napi]
pub const CONTRACT_VERSION: u32 = disclose::CONTRACT_VERSION;

/// Exports `DiscloseError`, the class of every error the addon throws.
#[napi(module_exports)]
pub fn init(mut exports: Object, env: Env) -> Result<()> {
    let class = errors::install(&env)?;
    exports.set("DiscloseError", class)
}

/// Runs the `disclose` command with `argv` and returns its exit status: the
/// Rust binary's bytes and codes. `argv[0]` is the command as a person
/// types it to run it again (`disclose`, `npx disclose-catalog`), which the
/// bless command repeats. It writes to the process's own standard output
/// and error.
#[napi]
pub fn cli(argv: Vec<String>) -> u32 {
    u32::from(disclose_cli::host_main(argv.into_iter().map(Into::into), |_| {}) as u8)
}

/// The declarations of a tool list, for `Catalog.admit`.
fn imported(
    env: &Env,
    list: std::result::Result<import::Imported, import::ImportError>,
) -> Result<Vec<ToolDeclaration>> {
    let imported =
        list.map_err(|error| fail(env, code::TOOL_LIST, format!("the tool list {error}")))?;
    Ok(imported
        .tools
        .iter()
        .map(|decl| ToolDeclaration {
            origin: decl.origin.clone(),
            name: decl.name.clone(),
            description: decl.description.clone(),
            input_schema: disclose::internals::canonical::canonical(&decl.input_schema),
            effect: decl.effect.as_str().to_owned(),
            approval: decl.approval.as_str().to_owned(),
        })
        .collect())
}

/// An MCP `tools/list` result (or a bare `tools` array) as declarations.
#[napi]
pub fn import_mcp(env: Env, json_text: String, origin: String) -> Result<Vec<ToolDeclaration>> {
    imported(&env, import::mcp(&json_text, &origin))
}

/// An OpenAI `tools` array as declarations (built-in tools are skipped).
#[napi]
pub fn import_openai(env: Env, json_text: String, origin: String) -> Result<Vec<ToolDeclaration>> {
    imported(&env, import::openai(&json_text, &origin))
}

/// An Anthropic tool list as declarations.
#[napi]
pub fn import_anthropic(
    env: Env,
    json_text: String,
    origin: String,
) -> Result<Vec<ToolDeclaration>> {
    imported(&env, import::anthropic(&json_text, &origin))
}

/// The canonical JSON text (SPEC §10) of a JSON text, or of a value as
/// `JSON.stringify` writes it.
#[napi]
pub fn canonical_json(
    env: Env,
    #[napi(ts_arg_type = "string | unknown")] value: Unknown<'_>,
) -> Result<String> {
    Ok(disclose::internals::canonical::canonical(&json::from_js(
        &env, value, "value",
    )?))
}

/// A JSON text (such as an `execute` answer's `argsJson`) as JavaScript
/// values, for a host that wants objects: integers past 2^53 - 1 become
/// `BigInt`s, never rounded. What is lost is each number's spelling
/// (`1.0` reads as `1`, `1e2` as `100`), which the text itself keeps.
#[napi(ts_return_type = "unknown")]
pub fn parse_args<'env>(env: &'env Env, args_json: String) -> Result<Unknown<'env>> {
    let value = json::parse(env, &args_json, "argsJson")?;
    json::Js(&value).into_unknown(env)
}

/// The sealed refusal vocabulary, as `disclose vocab` prints it.
#[napi]
pub fn vocabulary() -> String {
    disclose::vocabulary_text()
}
