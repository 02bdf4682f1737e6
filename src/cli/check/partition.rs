//! `--partition hash:K/N`: which share of the corpus this machine checks.
//!
//! A case belongs to exactly one of N shares, decided by BLAKE3 of its name
//! (the relative path without extension: `admission/frozen` for
//! `corpora/admission/frozen.jsonl` and for an orphan
//! `golden/admission/frozen.txt` alike). BLAKE3, not a randomized hasher, so
//! the split is the same on every machine and in every release, and adding a
//! session never moves another (as nextest's `hash:` partitions).

use std::fmt;

/// One share of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    /// 1-based share.
    k: u64,
    /// How many shares.
    n: u64,
}

impl Partition {
    /// Parses `hash:K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Partition, String> {
        let usage = || format!("--partition takes hash:K/N with 1 <= K <= N, not \"{text}\"");
        let (k, n) = text
            .strip_prefix("hash:")
            .and_then(|rest| rest.split_once('/'))
            .ok_or_else(usage)?;
        let (Ok(k), Ok(n)) = (k.parse::<u64>(), n.parse::<u64>()) else {
            return Err(usage());
        };
        if k == 0 || k > n {
            return Err(usage());
        }
        Ok(Partition { k, n })
    }

    /// Whether the case named `name` is in this share.
    pub fn holds(&self, name: &str) -> bool {
        share(name, self.n) == self.k
    }

    /// Whether this is the first share (the one that checks the vocabulary).
    pub fn is_first(&self) -> bool {
        self.k == 1
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hash:{}/{}", self.k, self.n)
    }
}

/// The 1-based share of N that `name` falls in.
fn share(name: &str, n: u64) -> u64 {
    let hash = blake3::hash(name.as_bytes());
    let first = hash
        .as_bytes()
        .first_chunk::<8>()
        .copied()
        .unwrap_or_default();
    u64::from_le_bytes(first) % n.max(1) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Partition::parse("hash:2/3"), Ok(Partition { k: 2, n: 3 }));
        assert_eq!(
            Partition::parse("hash:1/1").map(|p| p.to_string()),
            Ok("hash:1/1".into())
        );
        for bad in [
            "hash:0/3",
            "hash:4/3",
            "hash:1/0",
            "count:1/2",
            "hash:1",
            "hash:a/2",
            "hash:-1/2",
            "",
        ] {
            assert!(Partition::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_name_is_in_exactly_one_share() {
        let names: Vec<String> = (0..200).map(|i| format!("suite/case_{i}")).collect();
        let shares: Vec<Partition> = (1..=4).map(|k| Partition { k, n: 4 }).collect();
        for name in &names {
            assert_eq!(shares.iter().filter(|p| p.holds(name)).count(), 1, "{name}");
        }
        // Not everything lands in one share.
        for p in &shares {
            assert!(names.iter().any(|n| p.holds(n)), "share {p} is empty");
        }
    }

    #[test]
    fn the_split_is_blake3_of_the_name() {
        // BLAKE3 of no bytes is the published vector af1349b9f5f9a1a6…, so
        // its first eight bytes as a little-endian u64 are
        // 0xa6a1f9f5b94913af: share 2 of 2, 2 of 3, 4 of 5.
        for (k, n) in [(2, 2), (2, 3), (4, 5)] {
            for other in (1..=n).filter(|o| *o != k) {
                assert!(!Partition { k: other, n }.holds(""), "{other}/{n}");
            }
            assert!(Partition { k, n }.holds(""), "{k}/{n}");
        }
    }
}
