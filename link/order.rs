//! When the `disclose` binary is linked with `link/hot-symbols.txt` as its
//! symbol order (build.rs; docs/decisions.md, *The gateway's hot code is
//! linked together*). Shared by build.rs and tests/link_order.rs.

/// What the build script is told of the build it is part of.
pub struct Build<'a> {
    /// `TARGET`.
    pub target: &'a str,
    /// `PROFILE`: `release` or `debug`.
    pub profile: &'a str,
    /// The `release:` line of `rustc -vV`, e.g. `1.95.0`.
    pub rustc: &'a str,
    /// `CARGO_ENCODED_RUSTFLAGS`, its flags split by 0x1f.
    pub rustflags: &'a str,
    /// Whether a linker is configured (`RUSTC_LINKER`).
    pub linker_set: bool,
    /// Whether the gateway is built (feature `mcp`).
    pub gateway: bool,
    /// Where the order is read from.
    pub order: &'a str,
}

/// Whether the order is passed to the linker: only to rustc's own
/// `rust-lld`, which reads `--symbol-ordering-file` (rustc 1.90 and later
/// link with it on x86_64 Linux unless told otherwise), in a release
/// build of the gateway, whose symbols the order names. Anything else
/// (another linker, one configured, any flag about linking, a path the
/// linker's `-Wl,` would split) is left as cargo builds it: the order is
/// worth a tenth of a hop, never a failed build.
pub fn applies(build: &Build) -> bool {
    build.target == "x86_64-unknown-linux-gnu"
        && build.profile == "release"
        && build.gateway
        && !build.linker_set
        && !build.rustflags.contains("link")
        && !build.order.contains(',')
        && at_least(build.rustc, 1, 90)
}

/// Whether `version` (`1.95.0`, `1.96.0-nightly`) is `major.minor` or later.
fn at_least(version: &str, major: u32, minor: u32) -> bool {
    let mut parts = version.split(['.', '-']).map(str::parse::<u32>);
    match (parts.next(), parts.next()) {
        (Some(Ok(found_major)), Some(Ok(found_minor))) => {
            (found_major, found_minor) >= (major, minor)
        }
        _ => false,
    }
}
