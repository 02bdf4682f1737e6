//! `disclose-testkit`: what the tests and `disclose fuzz` share, kept out
//! of the library. [`generate`] holds the proptest strategies and a seeded
//! drawer of whole sessions; [`fuzzing`] the fuzz driver, its checks and
//! its reference, a readable model of SPEC §4 and §5 (`fuzzing::model`).
#![deny(missing_docs)]

pub mod fuzzing;
pub mod generate;
