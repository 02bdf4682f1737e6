//! The contract-4 data (SPEC §5, §16): the bytes the repository ships are
//! the contract's, and `stem` answers every line of `stems.tsv`.

use disclose::internals::stem::stem;

/// `contract4/stems.tsv`: one `word<TAB>stem` a line, Snowball 3's answers
/// (the upstream's `contract3/stems.tsv`, which contract 4 keeps).
const STEMS: &str = include_str!("../crates/disclose/contract4/stems.tsv");

#[test]
fn stem_answers_every_line_of_stems_tsv() {
    let mut lines = 0;
    let mut wrong = Vec::new();
    for (at, line) in STEMS.lines().enumerate() {
        let (word, want) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("stems.tsv:{}: no tab", at + 1));
        lines += 1;
        let got = stem(word);
        if got != want {
            wrong.push(format!("stems.tsv:{}: {word} → {got}, want {want}", at + 1));
        }
    }
    assert_eq!(lines, 34_128, "stems.tsv has 34,128 lines (SPEC §5)");
    assert!(
        wrong.is_empty(),
        "{} of {lines} wrong:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

/// SPEC §16: the BLAKE3 digests of the two data files.
#[test]
fn the_shipped_data_has_the_contract_digests() {
    assert_eq!(
        blake3::hash(disclose::internals::contract4::WORDPIECE)
            .to_hex()
            .as_str(),
        "29a772c92cf4b7bc8f4c52d801f03d36ad8528ef964f856dadc4c4e7cb14e451"
    );
    assert_eq!(
        blake3::hash(disclose::internals::contract4::VECTORS)
            .to_hex()
            .as_str(),
        "07697cdbc37e195d966f79e90da43768a0f5127a9adfc54b4396b26bde8ece19"
    );
    assert_eq!(
        disclose::internals::contract4::WORDPIECE_DIGEST,
        blake3::hash(disclose::internals::contract4::WORDPIECE)
            .to_hex()
            .as_str()
    );
    assert_eq!(
        disclose::internals::contract4::VECTORS_DIGEST,
        blake3::hash(disclose::internals::contract4::VECTORS)
            .to_hex()
            .as_str()
    );
}

/// The licence and the notice ship beside the data (SPEC §5).
#[test]
fn notice_and_licence_ship_with_the_data() {
    let library = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/disclose");
    let root = library.join("contract4");
    let notice = std::fs::read_to_string(root.join("NOTICE")).expect("contract4/NOTICE");
    assert!(notice.contains("all-MiniLM-L6-v2"), "{notice}");
    let licence = std::fs::read_to_string(root.join("LICENSE-Apache-2.0"))
        .expect("contract4/LICENSE-Apache-2.0");
    assert!(licence.contains("Apache License"));
    // `cargo package` ships every file git tracks unless Cargo.toml says
    // otherwise: it must name no include or exclude that drops these.
    let manifest = std::fs::read_to_string(library.join("Cargo.toml")).unwrap();
    assert!(!manifest.contains("\ninclude") && !manifest.contains("\nexclude"));
}
