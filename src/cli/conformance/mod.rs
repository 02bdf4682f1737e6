//! Conformance: the protocol other implementations of the contract speak,
//! both its sides, and what is found.
//!
//! - [`protocol`]: the messages and their JSON Schemas
//!   (`docs/protocol.md`, `docs/protocol/`), read and written here only;
//! - [`serve`]: `disclose serve`, the `disclose` library behind the protocol,
//!   the reference implementation;
//! - [`runner`]: `disclose check --impl`, which prepares each case, drives
//!   each implementation's process, and judges each answer against its
//!   golden;
//! - [`expect`]: `--expect` files, what one implementation is known not to
//!   pass yet;
//! - [`report`]: the matrix they add up to, one typed model rendered by one
//!   module per format.
//!
//! It is glue, like the rest of `cli`: it touches processes, files and the
//! terminal, and uses the library and `disclose-replay` only through their
//! public API. The in-process gate (`disclose check` without `--impl`) is
//! [`crate::cli::check`]'s; this tree only shares its corpus walk, golden
//! tree and bless command.

pub mod expect;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod serve;
