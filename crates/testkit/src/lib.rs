//! `disclose-testkit`: what the tests and `disclose fuzz` share, kept out
//! of the library. [`model`] is the readable model of SPEC §4 and §5, the
//! one reference of the fuzzer and the tests; [`generate`] holds the
//! proptest strategies and a seeded drawer of whole sessions; [`fuzzing`]
//! the fuzz driver and its checks; [`mutants`] the deliberately broken
//! rules a test (or `disclose fuzz --mutant`, with the `mutants` feature)
//! plants in the library.
#![deny(missing_docs)]

pub mod fuzzing;
pub mod generate;
pub mod model;
pub mod mutants;
