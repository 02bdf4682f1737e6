//! The text of every JSON report: `--json` of `check`, `check --impl`,
//! `diff`, `recall` and `cost`. Each report builds its `Value` explicitly;
//! this is only how it is written.

use serde_json::Value;

/// `value` pretty-printed (two-space indent) with a final newline. Keys come
/// in byte order: `serde_json`'s map is a `BTreeMap` while its
/// `preserve_order` feature is off, which the reports' pinned bytes hold.
pub fn pretty(value: &Value) -> String {
    format!("{value:#}\n")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_are_sorted_and_the_text_ends_with_a_newline() {
        assert_eq!(
            pretty(&json!({"b": [1], "a": null})),
            "{\n  \"a\": null,\n  \"b\": [\n    1\n  ]\n}\n"
        );
    }
}
