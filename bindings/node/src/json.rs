//! JSON between JavaScript and the library, with every number's bytes kept
//! where the caller gives text.
//!
//! Args cross as JSON text, both ways: `answer` takes the model's argument
//! text and reads it with the harness's strict reader (the one that reads
//! session lines), so `18446744073709551615`, `-0` and `1.0` reach the
//! library exactly as a session would give them, and `JSON.parse` never
//! touches them. Where the API also takes an object (an input schema, a
//! tool list), the object is `JSON.stringify`'d first, so it means exactly
//! what JavaScript would send. Back to JavaScript, `parseArgs` (`to_js`)
//! makes integers past 2^53 `BigInt`s rather than round them.

use napi::bindgen_prelude::*;
use napi::sys;
use serde_json::Value;

use crate::errors::{code, fail};

/// A JSON text, read strictly; `what` names it in the message.
pub fn parse(env: &Env, text: &str, what: &str) -> Result<Value> {
    disclose_replay::json::parse(text).map_err(|error| {
        fail(
            env,
            code::INPUT,
            format!("{what} is not a JSON text: {error}"),
        )
    })
}

/// A string read as a JSON text, or any other value as `JSON.stringify`
/// writes it.
pub fn from_js(env: &Env, value: Unknown<'_>, what: &str) -> Result<Value> {
    if value.get_type()? == ValueType::String {
        // SAFETY: the value was just seen to be a string.
        let text: String = unsafe { value.cast()? };
        return parse(env, &text, what);
    }
    let json: napi::JSON = env.get_global()?.get_named_property_unchecked("JSON")?;
    let text: Either<String, Undefined> = json
        .get_named_property::<Function<Unknown, Either<String, Undefined>>>("stringify")?
        .apply(json, value)
        .map_err(|error| {
            // JSON.stringify threw (a BigInt, a cycle): that exception is
            // pending, and ours replaces it.
            let mut pending = std::ptr::null_mut();
            // SAFETY: the live environment of this call, and an out slot.
            unsafe { sys::napi_get_and_clear_last_exception(env.raw(), &mut pending) };
            let mut text = std::ptr::null_mut();
            // SAFETY: as above; a null exception coerces to no text.
            let thrown = unsafe {
                (!pending.is_null()
                    && sys::napi_coerce_to_string(env.raw(), pending, &mut text)
                        == sys::Status::napi_ok)
                    .then(|| String::from_napi_value(env.raw(), text).ok())
                    .flatten()
            };
            let thrown = thrown.unwrap_or(error.reason);
            fail(
                env,
                code::INPUT,
                format!("{what} cannot be written as JSON: {thrown}"),
            )
        })?;
    match text {
        Either::A(text) => parse(env, &text, what),
        Either::B(()) => Err(fail(
            env,
            code::INPUT,
            format!(
                "{what} is not JSON (a string of JSON text, or an object JSON.stringify writes)"
            ),
        )),
    }
}

/// The largest integer a JavaScript number holds exactly.
const SAFE: u64 = (1 << 53) - 1;

/// A library value as JavaScript's: objects, arrays, strings, booleans,
/// `null`, numbers, and `BigInt` for an integer past 2^53 - 1.
pub struct Js<'value>(pub &'value Value);

impl ToNapiValue for Js<'_> {
    unsafe fn to_napi_value(env: sys::napi_env, js: Self) -> Result<sys::napi_value> {
        // SAFETY (every call below): `env` is the live environment napi
        // handed the caller, as `to_napi_value` requires.
        unsafe {
            match js.0 {
                Value::Null => Null::to_napi_value(env, Null),
                Value::Bool(flag) => bool::to_napi_value(env, *flag),
                Value::Number(number) => match (number.as_i64(), number.as_u64()) {
                    (_, Some(large)) if large > SAFE => {
                        BigInt::to_napi_value(env, BigInt::from(large))
                    }
                    (Some(small), _) if small.unsigned_abs() > SAFE => {
                        BigInt::to_napi_value(env, BigInt::from(small))
                    }
                    _ => f64::to_napi_value(env, number.as_f64().unwrap_or(f64::NAN)),
                },
                Value::String(text) => <&str>::to_napi_value(env, text),
                Value::Array(items) => {
                    let array =
                        ptr_out(|out| sys::napi_create_array_with_length(env, items.len(), out))?;
                    for (index, item) in items.iter().enumerate() {
                        let item = Js::to_napi_value(env, Js(item))?;
                        check_status!(sys::napi_set_element(env, array, index as u32, item))?;
                    }
                    Ok(array)
                }
                Value::Object(object) => {
                    let target = ptr_out(|out| sys::napi_create_object(env, out))?;
                    for (key, item) in object {
                        let key = <&str>::to_napi_value(env, key)?;
                        let item = Js::to_napi_value(env, Js(item))?;
                        // An own data property, as JSON.parse makes: a key
                        // `__proto__` must not set the prototype.
                        define(env, target, key, item)?;
                    }
                    Ok(target)
                }
            }
        }
    }
}

/// The value an out-parameter call of N-API makes.
unsafe fn ptr_out(
    make: impl FnOnce(*mut sys::napi_value) -> sys::napi_status,
) -> Result<sys::napi_value> {
    let mut value = std::ptr::null_mut();
    check_status!(make(&mut value))?;
    Ok(value)
}

/// `Object.defineProperty(target, key, {value, writable, enumerable,
/// configurable})`.
unsafe fn define(
    env: sys::napi_env,
    target: sys::napi_value,
    key: sys::napi_value,
    value: sys::napi_value,
) -> Result<()> {
    let property = sys::napi_property_descriptor {
        utf8name: std::ptr::null(),
        name: key,
        method: None,
        getter: None,
        setter: None,
        value,
        attributes: sys::PropertyAttributes::writable
            | sys::PropertyAttributes::enumerable
            | sys::PropertyAttributes::configurable,
        data: std::ptr::null_mut(),
    };
    // SAFETY: one descriptor, alive for the call.
    check_status!(unsafe { sys::napi_define_properties(env, target, 1, &property) })
}
