//! The `disclose` binary: the command (`disclose_cli::main`, src/lib.rs)
//! with its allocator and the allocator's settings.

// The harness allocates and frees many small values per op (parsed lines,
// transcript blocks, refusals); mimalloc keeps them off glibc's slower
// paths (docs/decisions.md, "The `disclose` binary allocates with
// mimalloc"). The library leaves the choice to its embedder.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use disclose_cli::Workload;

/// mimalloc's `mi_option_purge_delay` (index 15 of `mi_option_e` in
/// mimalloc.h, v2 and v3; the sys crate names no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The purge delay, in ms, of a process judged by its peak memory.
const PURGE_DELAY_MS: std::ffi::c_long = 1;

/// The allocator's settings for a process that frees in bursts on several
/// threads and is judged by its peak memory (`check`, the gateway): freed
/// memory goes back to the system after 1 ms rather than 10, so peak RSS
/// follows what is live, not what was freed in the last burst, while a
/// page freed and needed again within the millisecond is not returned and
/// faulted back in (docs/decisions.md, "check's allocator returns what it
/// frees within a millisecond"). `fuzz`, judged by its speed alone, keeps
/// mimalloc's delay: returning pages at once cost it 13% of its CPU in
/// `madvise` and page faults. An explicit `MIMALLOC_PURGE_DELAY` in the
/// environment still wins.
fn settle_allocator(workload: Workload) {
    if workload != Workload::Fuzz && std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: `mi_option_set` stores one value in mimalloc's option
        // table; the option exists in the vendored mimalloc (v2 and v3)
        // and is read afresh each time a purge is scheduled.
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS) };
    }
}

fn main() -> ExitCode {
    disclose_cli::main(std::env::args_os(), settle_allocator).into()
}
