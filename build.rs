//! Links the gateway's hot code together: on x86_64 Linux, with rustc's
//! own linker, a release build of `disclose` is linked with
//! `link/hot-symbols.txt` (made by `script/hot-symbols`) as its symbol
//! order, so the code one call runs through lies in a few pages
//! (docs/decisions.md, *The gateway's hot code is linked together*).
//! Every other build is linked as cargo links it (`link/order.rs`).

#[path = "link/order.rs"]
mod order;

use std::env::var;

fn main() {
    println!("cargo:rerun-if-changed=link/hot-symbols.txt");
    println!("cargo:rerun-if-changed=link/order.rs");
    let Ok(dir) = var("CARGO_MANIFEST_DIR") else {
        return;
    };
    let path = format!("{dir}/link/hot-symbols.txt");
    let rustc = var("RUSTC")
        .ok()
        .and_then(|rustc| std::process::Command::new(rustc).arg("-vV").output().ok())
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
        .unwrap_or_default();
    let release = rustc
        .lines()
        .find_map(|line| line.strip_prefix("release: "))
        .unwrap_or("");
    let build = order::Build {
        target: &var("TARGET").unwrap_or_default(),
        profile: &var("PROFILE").unwrap_or_default(),
        rustc: release,
        rustflags: &var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default(),
        linker_set: var("RUSTC_LINKER").is_ok(),
        gateway: var("CARGO_FEATURE_MCP").is_ok(),
        order: &path,
    };
    // A checkout without the list (or a copy that lost it) links as cargo
    // links, too.
    if order::applies(&build) && std::path::Path::new(&path).is_file() {
        println!("cargo:rustc-link-arg-bin=disclose=-Wl,--symbol-ordering-file={path}");
        // A symbol the order names and this build lacks (an older list, a
        // newer dependency) is skipped, quietly.
        println!("cargo:rustc-link-arg-bin=disclose=-Wl,--no-warn-symbol-ordering");
    }
}
