//! Arbitrary bytes through the session parser, then replay and the SPEC §13
//! invariants: nothing may panic, a malformed session must say where (a
//! repeated key at its quote), and a well-formed one must keep I1–I8.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    match disclose_replay::session::parse(bytes) {
        Err(error) => {
            assert!(error.line >= 1 && error.column >= 1, "{error}");
            // A key given twice is reported at the second key's opening
            // quote (docs/decisions.md, "A JSON key given twice is malformed").
            if error.message.contains("duplicate key") {
                let line = bytes.split(|b| *b == b'\n').nth(error.line - 1);
                let at = line.and_then(|line| line.get(error.column - 1));
                assert_eq!(at, Some(&b'"'), "{error}");
            }
        }
        Ok(session) => {
            // Bounded as the harness bounds it: a session may not make a
            // transcript past the limit (a repeated large guide).
            let limit = disclose_replay::replay::TRANSCRIPT_MAX_BYTES;
            let Ok(replayed) = disclose_replay::replay::replay_within(&session, limit) else {
                return;
            };
            let breaches = disclose_replay::invariants::check(&session, &replayed);
            assert!(breaches.is_empty(), "{breaches:?}");
        }
    }
});
