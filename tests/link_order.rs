//! The gateway's symbol order (build.rs, link/): when it is passed to the
//! linker, and that the list is one the linker reads.

#[path = "../link/order.rs"]
mod order;

use order::{Build, applies};

/// A release build of the gateway on x86_64 Linux with rustc's own linker.
fn plain() -> Build<'static> {
    Build {
        target: "x86_64-unknown-linux-gnu",
        profile: "release",
        rustc: "1.95.0",
        rustflags: "",
        linker_set: false,
        gateway: true,
        order: "/src/disclose/link/hot-symbols.txt",
    }
}

/// A build's fields, for a failed assertion.
fn described(build: &Build) -> String {
    format!(
        "{} {} rustc {} rustflags {:?} linker set {} gateway {} order {}",
        build.target,
        build.profile,
        build.rustc,
        build.rustflags,
        build.linker_set,
        build.gateway,
        build.order
    )
}

#[test]
fn the_order_is_passed_to_rusts_own_linker_in_a_release_build_of_the_gateway() {
    let ordered = [
        plain(),
        Build {
            rustc: "1.90.0",
            ..plain()
        },
        Build {
            rustc: "1.96.0-nightly",
            ..plain()
        },
        Build {
            rustc: "2.0.0",
            ..plain()
        },
        Build {
            rustflags: "-Ctarget-cpu=native",
            ..plain()
        },
    ];
    for build in &ordered {
        assert!(applies(build), "{}", described(build));
    }
}

#[test]
fn any_other_build_is_linked_as_cargo_links_it() {
    let others = [
        // rustc before 1.90 links with the system's `ld`, which has no
        // `--symbol-ordering-file`; an unreadable version likewise.
        Build {
            rustc: "1.89.0",
            ..plain()
        },
        Build {
            rustc: "",
            ..plain()
        },
        Build {
            rustc: "1",
            ..plain()
        },
        Build {
            target: "aarch64-unknown-linux-gnu",
            ..plain()
        },
        Build {
            target: "x86_64-unknown-linux-musl",
            ..plain()
        },
        Build {
            target: "x86_64-apple-darwin",
            ..plain()
        },
        Build {
            profile: "debug",
            ..plain()
        },
        // The gate alone: the order names the gateway's code.
        Build {
            gateway: false,
            ..plain()
        },
        // A linker chosen by the user, or any flag about linking.
        Build {
            linker_set: true,
            ..plain()
        },
        Build {
            rustflags: "-Clinker=clang",
            ..plain()
        },
        Build {
            rustflags: "-Clink-arg=-fuse-ld=mold",
            ..plain()
        },
        Build {
            rustflags: "-Zlinker-features=-lld",
            ..plain()
        },
        Build {
            rustflags: "-Clink-self-contained=-linker",
            ..plain()
        },
        // `-Wl,` would split the path at the comma.
        Build {
            order: "/src/a,b/link/hot-symbols.txt",
            ..plain()
        },
    ];
    for build in &others {
        assert!(!applies(build), "{}", described(build));
    }
}

/// What `--symbol-ordering-file` reads: one symbol a line, none twice,
/// each a name the linker can match (Rust's mangled names, or C's).
#[test]
fn the_order_is_one_symbol_a_line_none_twice() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/link/hot-symbols.txt"))
            .expect("link/hot-symbols.txt (script/hot-symbols makes it)");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 50,
        "{} symbols: the hop runs through more",
        lines.len()
    );
    assert!(text.ends_with('\n'));
    let mut seen = std::collections::BTreeSet::new();
    for line in &lines {
        assert!(seen.insert(*line), "{line} is named twice");
        assert!(
            !line.is_empty()
                && line.bytes().all(|b| b.is_ascii_graphic())
                && !line.starts_with('#'),
            "{line:?} is no symbol"
        );
    }
    // The hop's own code is named (the client's tap), so the list is the
    // gateway's, not some other program's.
    assert!(lines.iter().any(|line| line.contains("disclose_mcp4lane")));
}
