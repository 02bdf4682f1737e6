//! Host-minted, origin-bound names (SPEC §2, seed 000).
//!
//! The host mints every name; a model or a server never supplies one. This
//! module owns the patterns, the minting rule and the normalization key that
//! makes `search-a`, `Search_A` and `search_a` one name to a provider.

/// The origin of the build's own tools, whose raw names are kept.
pub const HOST_ORIGIN: &str = "host";

/// Whether `origin` matches `^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$`: no `_`,
/// so the `__` of a minted name is unambiguous.
pub fn origin_is_valid(origin: &str) -> bool {
    let bytes = origin.as_bytes();
    let edge = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let inner = |b: &u8| edge(b) || *b == b'-';
    match bytes {
        [] => false,
        [only] => edge(only),
        [first, middle @ .., last] => {
            bytes.len() <= 32 && edge(first) && edge(last) && middle.iter().all(inner)
        }
    }
}

/// Whether a minted name matches `^[A-Za-z0-9_-]{1,64}$` (the provider rule).
pub fn name_is_valid(name: &str) -> bool {
    (1..=crate::NAME_MAX_BYTES).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The minted name of a tool: `host` tools keep their raw name, any other
/// origin's tool is `<origin>__<raw name>`.
pub fn mint(origin: &str, raw_name: &str) -> String {
    if origin == HOST_ORIGIN {
        raw_name.to_string()
    } else {
        [origin, "__", raw_name].concat()
    }
}

/// The provider normalization key: ASCII letters lowercased, `-` as `_`.
pub fn normalization_key(name: &str) -> String {
    // Byte by byte: both changes are of ASCII bytes, which are never part
    // of a multibyte character (decoding each char was 2.6% of a `check`).
    let mut key = name.to_ascii_lowercase();
    if key.contains('-') {
        key = key.replace('-', "_");
    }
    key
}

/// A control character in the spec's sense: U+0000–U+001F or U+007F.
pub fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_pattern_boundaries() {
        for good in ["host", "a", "9", "a-b", "github", &"a".repeat(32)] {
            assert!(origin_is_valid(good), "{good:?}");
        }
        for bad in ["", "-a", "a-", "A", "a_b", "a b", &"a".repeat(33), "é"] {
            assert!(!origin_is_valid(bad), "{bad:?}");
        }
    }

    #[test]
    fn name_pattern_boundaries() {
        assert!(name_is_valid(&"n".repeat(64)));
        assert!(!name_is_valid(&"n".repeat(65)));
        assert!(!name_is_valid(""));
        assert!(!name_is_valid("a.b"));
        assert!(!name_is_valid("é"));
    }

    #[test]
    fn minting_and_keys() {
        assert_eq!(mint("host", "read"), "read");
        assert_eq!(mint("alpha", "search"), "alpha__search");
        let key = normalization_key("search_a");
        assert_eq!(normalization_key("search-a"), key);
        assert_eq!(normalization_key("Search_A"), key);
        // Only ASCII letters and `-` change; any other character stays.
        assert_eq!(normalization_key("Ünï-CÖDE_é-"), "Ünï_cÖde_é_");
    }
}
