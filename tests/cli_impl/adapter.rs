//! A small implementation of the protocol, written the way a runtime's
//! adapter would be (the library replays, this file speaks the protocol),
//! that misbehaves on purpose: the misbehaving adapters of the failure-path
//! tests. It is this test binary itself, started by `disclose check --impl`
//! with [`ENV`] set, so it needs nothing installed and is never shipped.
//!
//! `ADAPTER BEHAVIOUR [CASE]`: the behaviour applies to CASE only (to every
//! case for `skip-all`, to the hello for `contract1` to `contract4`; `crash-for-good`
//! crashes on CASE and then refuses every restart; `strict` answers CASE
//! wrongly and every case only after [`STRICT_WAIT`], and exits 3 if the
//! harness sent anything more meanwhile: one run in flight). Every message
//! read is checked against its schema in `docs/protocol/`, and so is every
//! message written: a harness message that breaks its schema makes the
//! adapter exit 3, so a test sees it as a crash.

use std::io::{BufRead as _, Write as _};
use std::path::PathBuf;

use disclose_replay::replay::replay;
use disclose_replay::session;
use serde_json::{Value, json};

/// Set (to anything) when this binary is to be an adapter.
pub const ENV: &str = "DISCLOSE_TEST_ADAPTER";
/// When set, each case id received is appended to this file, one per line.
pub const LOG: &str = "DISCLOSE_TEST_ADAPTER_LOG";

/// How long `strict` holds each answer, watching stdin.
const STRICT_WAIT: std::time::Duration = std::time::Duration::from_millis(40);

/// A compiled schema of `docs/protocol/`.
pub fn schema(file: &str) -> jsonschema::Validator {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("docs/protocol")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("the schema is shipped");
    let value: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::draft202012::new(&value).expect("the schema compiles")
}

fn check(file: &str, message: &Value) {
    if let Some(error) = schema(file).iter_errors(message).next() {
        eprintln!("adapter: {message} breaks {file}: {error}");
        std::process::exit(3);
    }
}

fn say(message: &Value, file: &str) {
    check(file, message);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{message}");
    let _ = out.flush();
}

/// Runs the adapter until `bye`; never returns.
pub fn main(args: &[String]) -> ! {
    let behaviour = args.get(1).map_or("honest", String::as_str);
    let target = args.get(2).map(String::as_str);
    // Lines arrive through a thread of their own, so `strict` can see
    // whether another is already waiting while it holds an answer.
    let (lines_tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    for line in lines.iter() {
        let message: Value = match serde_json::from_str(&line) {
            Ok(message) => message,
            Err(e) => {
                eprintln!("adapter: not JSON from the harness: {e}");
                std::process::exit(3);
            }
        };
        match message["cmd"].as_str() {
            Some("hello") => {
                check("hello.schema.json", &message);
                if behaviour == "crash-for-good" && crashed_before(target) {
                    eprintln!("adapter: refusing to start again");
                    std::process::exit(7);
                }
                let contract = match behaviour {
                    "contract1" => 1,
                    "contract2" => 2,
                    "contract3" => 3,
                    "contract4" => 4,
                    _ => u64::from(disclose::CONTRACT_VERSION),
                };
                say(
                    &json!({"implementation": {"name": "adapter", "version": "0.0.1", "language": "rust"}, "contract": [contract]}),
                    "hello_reply.schema.json",
                );
            }
            Some("run") => {
                check("run.schema.json", &message);
                let case = message["case"].as_str().unwrap_or_default().to_string();
                if let Some(log) = std::env::var_os(LOG) {
                    let mut file = std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(log)
                        .expect("the log opens");
                    let _ = writeln!(file, "{case}");
                }
                let ops = message["ops"].as_array().cloned().unwrap_or_default();
                if behaviour == "strict" {
                    std::thread::sleep(STRICT_WAIT);
                    if let Ok(next) = lines.try_recv() {
                        eprintln!("adapter: {next} came before the answer to {case} was written");
                        std::process::exit(3);
                    }
                }
                answer(behaviour, target == Some(case.as_str()), &case, &ops);
            }
            Some("bye") => {
                check("bye.schema.json", &message);
                std::process::exit(0);
            }
            _ => {
                eprintln!("adapter: unknown message {message}");
                std::process::exit(3);
            }
        }
    }
    std::process::exit(0)
}

/// Whether the target case was already sent (to a process that crashed).
fn crashed_before(target: Option<&str>) -> bool {
    let sent = std::env::var_os(LOG)
        .and_then(|log| std::fs::read_to_string(log).ok())
        .unwrap_or_default();
    target.is_some_and(|t| sent.lines().any(|l| l == t))
}

fn answer(behaviour: &str, targeted: bool, case: &str, ops: &[Value]) {
    if behaviour == "skip-all" {
        say(
            &json!({"case": case, "skipped": "not yet"}),
            "skipped.schema.json",
        );
        return;
    }
    let mut outputs = outputs(ops);
    if !targeted {
        say(
            &json!({"case": case, "outputs": outputs}),
            "outputs.schema.json",
        );
        return;
    }
    match behaviour {
        "wrong" | "strict" => {
            if let Some(last) = outputs.last_mut() {
                last.insert_str(0, "wrong\t");
            }
            say(
                &json!({"case": case, "outputs": outputs}),
                "outputs.schema.json",
            );
        }
        "crash" | "crash-for-good" => {
            eprintln!("adapter: about to crash on {case}");
            std::process::exit(101);
        }
        "hang" => std::thread::sleep(std::time::Duration::from_secs(60)),
        "garbage" => {
            println!("this is not JSON\t{{");
        }
        "other-id" => say(
            &json!({"case": "other/case", "outputs": outputs}),
            "outputs.schema.json",
        ),
        "short" => {
            outputs.pop();
            say(
                &json!({"case": case, "outputs": outputs}),
                "outputs.schema.json",
            );
        }
        "extra-field" => {
            // Written without the schema check: it breaks outputs.schema.json.
            println!(
                "{}",
                json!({"case": case, "outputs": outputs, "elapsed_ms": 3})
            );
        }
        "skip" => say(
            &json!({"case": case, "skipped": "the adapter does not do this yet"}),
            "skipped.schema.json",
        ),
        "errored" => say(
            &json!({"case": case, "errored": "the adapter lost its catalog"}),
            "errored.schema.json",
        ),
        _ => say(
            &json!({"case": case, "outputs": outputs}),
            "outputs.schema.json",
        ),
    }
}

/// The library's answers, through the session format.
fn outputs(ops: &[Value]) -> Vec<String> {
    let mut text = String::from("{\"op\":\"session\",\"format\":1,\"about\":\"adapter\"}\n");
    for op in ops {
        text.push_str(&op.to_string());
        text.push('\n');
    }
    match session::parse(text.as_bytes()) {
        Ok(session) => replay(&session)
            .steps
            .into_iter()
            .map(|s| s.output)
            .collect(),
        Err(e) => {
            eprintln!("adapter: the harness sent ops that do not parse: {e}");
            std::process::exit(3);
        }
    }
}
