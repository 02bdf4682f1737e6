//! The `disclose` binary's allocator (mimalloc, `src/main.rs`), for every
//! bench and measuring example (docs/decisions.md, "The `disclose` binary
//! allocates with mimalloc"): a ratio is measured with the allocator the
//! harness ships with, on both of its sides.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
