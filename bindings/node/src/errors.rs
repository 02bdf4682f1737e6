//! `DiscloseError`: the one class of the host's mistakes, with a `code`.
//!
//! The class is JavaScript's own (`class DiscloseError extends Error`),
//! made once per Node environment when the addon loads, exported, and kept
//! in the environment's instance data, so every error the addon throws is
//! an `instanceof DiscloseError` with the stack of the call that failed.
//! Refusals are never thrown: they are answers (`run.rs`).

use disclose::Refusal;
use napi::bindgen_prelude::*;

/// A refused admission, by its refusal's code (`admit.name_taken`…).
/// The other codes name the host's mistake:
pub mod code {
    /// An argument the API does not take: not JSON, a mode that is not a
    /// mode, a provider that is not a provider…
    pub const INPUT: &str = "input";
    /// A catalog, recorder or run used after it started or finished.
    pub const ENDED: &str = "ended";
    /// A recording that could not be created or written.
    pub const RECORDING: &str = "recording";
    /// A tool list an importer cannot read.
    pub const TOOL_LIST: &str = "tool_list";
}

/// The class, as a script: `code` and, for a refused admission, the
/// refusal's `refusalKind` and `text` (what the model would read).
const CLASS: &str = r#"(class DiscloseError extends Error {
  constructor(message, code, refusalKind, text) {
    super(message);
    Object.defineProperty(this, "name", { value: "DiscloseError", configurable: true, writable: true });
    this.code = code;
    if (refusalKind !== undefined) {
      this.refusalKind = refusalKind;
      this.text = text;
    }
  }
})"#;

/// The constructor's arguments: message, code, and a refused admission's
/// class and lines.
type Args = FnArgs<(String, String, Option<String>, Option<String>)>;

/// What the addon keeps per environment.
struct Shared {
    class: FunctionRef<Args, ()>,
}

/// Makes the class, keeps it, and returns it for the exports.
pub fn install(env: &Env) -> Result<Function<'_, Args, ()>> {
    let class: Function<Args, ()> = env.run_script(CLASS)?;
    let shared = Shared {
        class: class.create_ref()?,
    };
    // The reference dies with the environment itself: nothing to release.
    env.set_instance_data(shared, (), |context| std::mem::forget(context.value))?;
    Ok(class)
}

/// A `DiscloseError` to throw (a plain `Error` with the same `code`, should
/// the class be gone).
fn error(env: &Env, message: String, code: &str, refusal: Option<&Refusal>) -> Error {
    let made = env
        .get_instance_data::<Shared>()
        .ok()
        .flatten()
        .and_then(|shared| {
            let class = shared.class.borrow_back(env).ok()?;
            let args = (
                message.clone(),
                code.to_owned(),
                refusal.map(|refusal| refusal.class().as_str().to_owned()),
                refusal.map(Refusal::to_lines),
            );
            class.new_instance(args.into()).ok()
        });
    match made {
        Some(instance) => Error::from(instance),
        None => Error::new(Status::GenericFailure, message),
    }
}

/// The host's mistake, with its code (`code::*`).
pub fn fail(env: &Env, code: &str, message: impl Into<String>) -> Error {
    error(env, message.into(), code, None)
}

/// A refused admission: its code is the refusal's.
pub fn refused_admission(env: &Env, refusal: &Refusal) -> Error {
    let message = format!("admission refused: {}", refusal.to_lines().trim_end());
    error(env, message, refusal.code(), Some(refusal))
}
