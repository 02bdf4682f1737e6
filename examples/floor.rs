//! The P5 floor (docs/performance.md): the least any `check` must do. It reads every
//! session under DIR and its golden under GDIR, and parses each session's
//! lines into `serde_json::Value`, in one thread:
//! `cargo run --release --example floor -- DIR GDIR`.
//!
//! `script/bench` times `disclose check DIR --golden GDIR` against this.

use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;
use walkdir::WalkDir;

#[path = "../benches/support/allocator.rs"]
mod allocator;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(golden)) = (args.first(), args.get(1)) else {
        eprintln!("usage: floor DIR GDIR");
        return ExitCode::from(2);
    };
    let (dir, golden) = (Path::new(dir), Path::new(golden));
    let mut paths: Vec<_> = WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "jsonl"))
        .map(|e| e.into_path())
        .collect();
    paths.sort();
    let (mut sessions, mut lines, mut golden_bytes) = (0usize, 0usize, 0usize);
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("floor: failed to read \"{}\"", path.display());
            return ExitCode::from(2);
        };
        let text = std::str::from_utf8(&bytes).unwrap_or_default();
        for line in text.split('\n') {
            if !line.trim_matches([' ', '\t', '\r']).is_empty()
                && serde_json::from_str::<Value>(line).is_ok()
            {
                lines += 1;
            }
        }
        let rel = path.strip_prefix(dir).unwrap_or(path).with_extension("txt");
        golden_bytes += std::fs::read(golden.join(rel)).map_or(0, |g| g.len());
        sessions += 1;
    }
    println!("{sessions} sessions, {lines} lines, {golden_bytes} golden bytes");
    ExitCode::SUCCESS
}
