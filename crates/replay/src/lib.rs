//! `disclose-replay`: the pure core of the harness. A recorded session is
//! read ([`session`], through the one strict JSON reader, [`json`]),
//! driven through the catalog ([`replay`]), encoded as a length-framed
//! transcript ([`transcript`]), and judged: against its golden
//! ([`golden`]) and against SPEC §13's invariants ([`invariants`]).
//! [`recall`] measures findability through `describe`'s ranking.
//!
//! Like the library it builds on, it does no I/O and reads no clock,
//! randomness or environment: it takes bytes and returns values. Files,
//! terminals and exit codes belong to the `disclose` binary.
#![deny(missing_docs)]

pub mod golden;
pub mod invariants;
pub mod json;
pub mod recall;
pub mod replay;
pub mod session;
pub mod transcript;
