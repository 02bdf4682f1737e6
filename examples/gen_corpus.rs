//! Writes a large corpus of realistic sessions for the P5 bench
//! (docs/performance.md):
//! `cargo run --release --example gen_corpus -- DIR N [SEED]`.
//!
//! Sessions are `DIR/batch-<k>/run-<i>.jsonl`, 1,000 to a directory, each a
//! pure function of `SEED + i` (see `benches/support/realistic.rs`), so two
//! machines generate the same bytes. Never commit the output: generate it
//! under `target/`.

use std::path::PathBuf;
use std::process::ExitCode;

#[path = "../benches/support/realistic.rs"]
mod realistic;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(count)) = (args.first(), args.get(1)) else {
        eprintln!("usage: gen_corpus DIR N [SEED]");
        return ExitCode::from(2);
    };
    let Ok(count) = count.parse::<u64>() else {
        eprintln!("gen_corpus: N must be a number, not \"{count}\"");
        return ExitCode::from(2);
    };
    let seed = match args.get(2).map(|s| s.parse::<u64>()) {
        None => 5,
        Some(Ok(seed)) => seed,
        Some(Err(_)) => {
            eprintln!("gen_corpus: SEED must be a number");
            return ExitCode::from(2);
        }
    };
    let root = PathBuf::from(dir);
    let mut bytes = 0usize;
    for i in 0..count {
        let batch = root.join(format!("batch-{:03}", i / 1000));
        if i % 1000 == 0
            && let Err(e) = std::fs::create_dir_all(&batch)
        {
            eprintln!("gen_corpus: failed to create \"{}\": {e}", batch.display());
            return ExitCode::from(2);
        }
        let text = realistic::session(seed.wrapping_add(i));
        bytes += text.len();
        let path = batch.join(format!("run-{i:06}.jsonl"));
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("gen_corpus: failed to write \"{}\": {e}", path.display());
            return ExitCode::from(2);
        }
    }
    eprintln!(
        "gen_corpus: wrote {count} sessions ({} MiB) to \"{}\"",
        bytes >> 20,
        root.display()
    );
    ExitCode::SUCCESS
}
