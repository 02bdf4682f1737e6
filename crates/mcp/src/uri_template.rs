//! Whether a URI is one an RFC 6570 URI template expands to: how
//! `resources/read` finds the upstream whose resource template covers a
//! URI it never listed.
//!
//! RFC 6570 defines expansion only; matching is its inverse, read from what
//! each operator may expand to (every level: `{var}`, `{+var}`, `{#var}`,
//! `{.var}`, `{/var}`, `{;var}`, `{?var}`, `{&var}`, lists, the explode
//! modifier and prefixes):
//!
//! - `{var}`: one or more unreserved characters (letters, digits, `-._~`),
//!   percent-encodings and `,` (a list), never `/`, `?` or `#`;
//! - `{+var}`: one or more of any character;
//! - `{#var}`: nothing, or `#` and any characters;
//! - `{.var}`, `{/var}`, `{;var}`, `{?var}`, `{&var}`: nothing, or the
//!   operator's character and unreserved characters, percent-encodings and
//!   the operator's separators (`,` and the operator itself; `=` and `&`
//!   for the named ones).
//!
//! Matching walks the template once over the set of positions the URI can
//! be at after each part, so it costs the template's parts times the
//! URI's length, whatever either holds.

/// A parsed URI template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// Text that must appear as it is.
    Literal(String),
    /// An expression, by its operator (`'\0'` for none).
    Expression(char),
}

impl UriTemplate {
    /// The template `text`, or `None` when its braces do not pair or an
    /// expression has an unknown operator or no variable.
    pub fn parse(text: &str) -> Option<UriTemplate> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_string()));
            }
            let after = &rest[open + 1..];
            let close = after.find('}')?;
            let inner = &after[..close];
            if inner.contains('{') {
                return None;
            }
            let (operator, variables) = match inner.chars().next()? {
                c @ ('+' | '#' | '.' | '/' | ';' | '?' | '&') => (c, &inner[1..]),
                _ => ('\0', inner),
            };
            let names_ok = variables.split(',').all(|spec| {
                let name = spec.trim_end_matches('*');
                let name = name.split_once(':').map_or(name, |(name, _)| name);
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%')
            });
            if !names_ok {
                return None;
            }
            parts.push(Part::Expression(operator));
            rest = &after[close + 1..];
        }
        if rest.contains('}') {
            return None;
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_string()));
        }
        Some(UriTemplate { parts })
    }

    /// Whether some values of its variables expand it to `uri`.
    pub fn matches(&self, uri: &str) -> bool {
        let bytes = uri.as_bytes();
        let len = bytes.len();
        // `at[i]`: the URI's first `i` bytes are matched by the parts so far.
        let mut at = vec![false; len + 1];
        at[0] = true;
        for part in &self.parts {
            let mut next = vec![false; len + 1];
            match part {
                Part::Literal(text) => {
                    for i in (0..=len).filter(|i| at[*i]) {
                        if bytes[i..].starts_with(text.as_bytes()) {
                            next[i + text.len()] = true;
                        }
                    }
                }
                Part::Expression(operator) => {
                    // From each reachable position, the expression covers a
                    // run of the bytes it may expand to: every end within
                    // the run is reachable. A run is marked once, from its
                    // leftmost start, since every later start's run ends
                    // at the same place.
                    let mut covered = 0;
                    for i in (0..=len).filter(|i| at[*i]) {
                        let (first, may) = shape(*operator);
                        let mut j = i;
                        if let Some(first) = first {
                            // Nothing at all is a match too.
                            next[i] = true;
                            if bytes.get(i) != Some(&first) {
                                continue;
                            }
                            j += 1;
                            next[j] = true;
                        }
                        let start = j.max(covered);
                        let mut end = start;
                        while end < len && may(bytes[end]) {
                            end += 1;
                        }
                        // `{var}` and `{+var}` take one byte at least.
                        let from = if first.is_none() { j + 1 } else { j };
                        for reached in next.iter_mut().take(end + 1).skip(from.max(start)) {
                            *reached = true;
                        }
                        covered = covered.max(end);
                    }
                }
            }
            at = next;
        }
        at[len]
    }
}

/// An expression's first character (for the operators that write one) and
/// which bytes may follow in its expansion.
fn shape(operator: char) -> (Option<u8>, fn(u8) -> bool) {
    match operator {
        '+' => (None, |_| true),
        '#' => (Some(b'#'), |_| true),
        '\0' => (None, |b| unreserved(b) || b == b','),
        '.' => (Some(b'.'), |b| unreserved(b) || b == b','),
        '/' => (Some(b'/'), |b| unreserved(b) || b == b',' || b == b'/'),
        ';' => (Some(b';'), |b| {
            unreserved(b) || matches!(b, b',' | b';' | b'=')
        }),
        '?' => (Some(b'?'), |b| {
            unreserved(b) || matches!(b, b',' | b'&' | b'=')
        }),
        _ => (Some(b'&'), |b| {
            unreserved(b) || matches!(b, b',' | b'&' | b'=')
        }),
    }
}

/// RFC 3986's unreserved characters, and `%` of a percent-encoding (every
/// other byte a simple expansion writes is percent-encoded); bytes past
/// ASCII are taken as an IRI's.
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'%') || b >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(template: &str, uri: &str) -> bool {
        UriTemplate::parse(template)
            .unwrap_or_else(|| panic!("{template:?} parses"))
            .matches(uri)
    }

    #[test]
    fn simple_expressions_match_one_segment() {
        let t = "demo://resource/dynamic/text/{resourceId}";
        assert!(matches(t, "demo://resource/dynamic/text/1"));
        assert!(matches(t, "demo://resource/dynamic/text/abc%20d"));
        assert!(!matches(t, "demo://resource/dynamic/text/"));
        assert!(!matches(t, "demo://resource/dynamic/text/1/2"));
        assert!(!matches(t, "demo://resource/dynamic/blob/1"));
        assert!(!matches(t, "demo://resource/dynamic/text/1?x"));
        assert!(matches("users/{a}/files/{b}", "users/x/files/hello-world"));
        assert!(!matches("users/{a}/files/{b}", "users/x/y/files/z"));
        assert!(matches("{a}{b}", "ab"));
        assert!(!matches("{a}{b}", "a"));
        assert!(matches("x/{list}", "x/red,green,blue"));
    }

    #[test]
    fn reserved_and_fragment_expressions_take_any_characters() {
        assert!(matches("file:///{+path}", "file:///home/me/a b.txt"));
        assert!(!matches("file:///{+path}", "file:///"));
        assert!(matches("file:///{+path}.md", "file:///docs/a.md"));
        assert!(!matches("file:///{+path}.md", "file:///docs/a.txt"));
        assert!(matches("page{#section}", "page"));
        assert!(matches("page{#section}", "page#intro/part"));
        assert!(!matches("page{#section}", "pagex"));
    }

    #[test]
    fn prefixed_operators_match_nothing_or_their_own_expansion() {
        assert!(matches("api{/path*}", "api"));
        assert!(matches("api{/path*}", "api/a/b/c"));
        assert!(!matches("api{/path*}", "api/a?b"));
        assert!(matches("search{?q,lang}", "search"));
        assert!(matches("search{?q,lang}", "search?q=cat&lang=en"));
        assert!(!matches("search{?q,lang}", "search?q=a#b"));
        assert!(matches("search{?q}{&page}", "search?q=cat&page=2"));
        assert!(matches("x{.ext}", "x.json"));
        assert!(matches("m{;a,b}", "m;a=1;b=2"));
        assert!(matches("no-expressions", "no-expressions"));
        assert!(!matches("no-expressions", "no-expressions/"));
    }

    #[test]
    fn malformed_templates_do_not_parse() {
        for bad in ["a{b", "a}b", "a{}b", "a{b{c}}", "a{!b}", "a{b c}", "{,}"] {
            assert!(UriTemplate::parse(bad).is_none(), "{bad:?}");
        }
        for good in ["{a:3}", "{a*}", "{+a,b}", "{x.y}", "{%20}"] {
            assert!(UriTemplate::parse(good).is_some(), "{good:?}");
        }
    }

    #[test]
    fn many_expressions_over_a_long_uri_are_decided() {
        // Backtracking would try every split of 10,000 bytes among 64
        // expressions; the walk over positions decides it at once.
        let template = "x".to_string() + &"{a}".repeat(64) + "!";
        let uri = "x".to_string() + &"a".repeat(10_000);
        assert!(!matches(&template, &uri));
        assert!(matches(&template, &(uri + "!")));
    }
}
