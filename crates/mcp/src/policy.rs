//! Per-tool control from the config: which of a server's tools are
//! admitted (`"tools": {"allow": [...], "deny": [...]}`) and which are put
//! to the user (`"approval"`: `"required"`, `"never"`, `"writes"`, or
//! `{"default": ..., "never": [...], "required": [...]}`).
//!
//! Both are read over the server's own tool name, with globs of `*` (any
//! run of characters, none included) and `?` (one character); nothing
//! else is special. Deny wins over allow, and `required` over `never`.

use std::fmt;

use disclose::{Approval, Effect};

/// A glob over a tool's raw name: `*` any run, `?` one character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob(String);

impl Glob {
    /// The glob `pattern`.
    pub fn new(pattern: impl Into<String>) -> Glob {
        Glob(pattern.into())
    }

    /// Whether `name` matches, in time linear in both lengths times the
    /// stars' backtracking (one position per star, the classic two-pointer
    /// walk), never exponential.
    pub fn matches(&self, name: &str) -> bool {
        let pattern: Vec<char> = self.0.chars().collect();
        let name: Vec<char> = name.chars().collect();
        let (mut p, mut n) = (0, 0);
        // The last star seen, and where in `name` its run ends so far.
        let mut star: Option<(usize, usize)> = None;
        while n < name.len() {
            match pattern.get(p) {
                Some('*') => {
                    star = Some((p, n));
                    p += 1;
                }
                Some('?') => {
                    p += 1;
                    n += 1;
                }
                Some(c) if *c == name[n] => {
                    p += 1;
                    n += 1;
                }
                _ => match star {
                    // The star takes one more character, and matching
                    // starts again after it.
                    Some((at, end)) => {
                        star = Some((at, end + 1));
                        p = at + 1;
                        n = end + 1;
                    }
                    None => return false,
                },
            }
        }
        pattern[p..].iter().all(|c| *c == '*')
    }
}

impl fmt::Display for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn any(globs: &[Glob], name: &str) -> bool {
    globs.iter().any(|glob| glob.matches(name))
}

/// `"tools"`: which of a server's tools are admitted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolFilter {
    /// `allow`: when given, only tools matching one of these.
    pub allow: Option<Vec<Glob>>,
    /// `deny`: never tools matching one of these (deny wins).
    pub deny: Vec<Glob>,
}

impl ToolFilter {
    /// Whether the filter leaves every tool in.
    pub fn is_open(&self) -> bool {
        self.allow.is_none() && self.deny.is_empty()
    }

    /// Whether the tool named `name` (its raw name) is admitted; a tool
    /// without a name is admitted only where nothing is filtered.
    pub fn admits(&self, name: Option<&str>) -> bool {
        let Some(name) = name else {
            return self.is_open();
        };
        if any(&self.deny, name) {
            return false;
        }
        self.allow.as_ref().is_none_or(|allow| any(allow, name))
    }
}

/// What a server's tools are asked by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AskPolicy {
    /// Every call is put to the user (the fail-closed default).
    #[default]
    Required,
    /// No call is.
    Never,
    /// Only calls of tools whose effect is not `read`, as `import mcp`
    /// maps the server's annotations.
    Writes,
}

impl AskPolicy {
    /// The config's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            AskPolicy::Required => "required",
            AskPolicy::Never => "never",
            AskPolicy::Writes => "writes",
        }
    }

    /// The word's meaning.
    pub fn from_word(word: &str) -> Option<AskPolicy> {
        match word {
            "required" => Some(AskPolicy::Required),
            "never" => Some(AskPolicy::Never),
            "writes" => Some(AskPolicy::Writes),
            _ => None,
        }
    }
}

/// `"approval"`: a server's default, with per-tool exceptions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApprovalRule {
    /// What a tool matching no exception gets.
    pub default: AskPolicy,
    /// Tools never asked (unless `required` names them too).
    pub never: Vec<Glob>,
    /// Tools always asked.
    pub required: Vec<Glob>,
}

impl ApprovalRule {
    /// The rule of a bare word.
    pub fn of(default: AskPolicy) -> ApprovalRule {
        ApprovalRule {
            default,
            ..ApprovalRule::default()
        }
    }

    /// The approval of the tool `name` whose effect is `effect`.
    pub fn for_tool(&self, name: &str, effect: Effect) -> Approval {
        if any(&self.required, name) {
            return Approval::Required;
        }
        if any(&self.never, name) {
            return Approval::Never;
        }
        match self.default {
            AskPolicy::Required => Approval::Required,
            AskPolicy::Never => Approval::Never,
            AskPolicy::Writes if effect == Effect::Read => Approval::Never,
            AskPolicy::Writes => Approval::Required,
        }
    }
}

impl fmt::Display for ApprovalRule {
    /// The word alone, or `{default, never [..], required [..]}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.never.is_empty() && self.required.is_empty() {
            return f.write_str(self.default.as_str());
        }
        let list = |globs: &[Glob]| {
            globs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(
            f,
            "{} (never [{}], required [{}])",
            self.default.as_str(),
            list(&self.never),
            list(&self.required)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_stars_and_single_characters() {
        let cases = [
            ("*", "", true),
            ("*", "anything", true),
            ("", "", true),
            ("", "a", false),
            ("get_*", "get_file", true),
            ("get_*", "get_", true),
            ("get_*", "set_file", false),
            ("*_file", "read_file", true),
            ("*_file", "read_files", false),
            ("read_?ile", "read_file", true),
            ("read_?ile", "read_ile", false),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXcYYb", false),
            ("a*b*c", "abc", true),
            ("*a*a*a*a*b", &"a".repeat(40), false),
            ("*.*", "x.y", true),
            ("[ab]", "a", false),
            ("[ab]", "[ab]", true),
            ("é?", "éa", true),
            ("Get*", "get_x", false),
        ];
        for (pattern, name, matches) in cases {
            assert_eq!(
                Glob::new(pattern).matches(name),
                matches,
                "{pattern:?} on {name:?}"
            );
        }
    }

    #[test]
    fn deny_wins_and_allow_narrows() {
        let globs = |list: &[&str]| list.iter().map(|g| Glob::new(*g)).collect::<Vec<_>>();
        let filter = ToolFilter {
            allow: Some(globs(&["read_*", "list_*"])),
            deny: globs(&["*_secret"]),
        };
        assert!(filter.admits(Some("read_file")));
        assert!(!filter.admits(Some("read_secret")));
        assert!(!filter.admits(Some("write_file")));
        assert!(!filter.admits(None));
        let deny_only = ToolFilter {
            allow: None,
            deny: globs(&["delete_*"]),
        };
        assert!(deny_only.admits(Some("write_file")));
        assert!(!deny_only.admits(Some("delete_file")));
        assert!(ToolFilter::default().admits(None));
        let nothing = ToolFilter {
            allow: Some(Vec::new()),
            deny: Vec::new(),
        };
        assert!(!nothing.admits(Some("a")));
    }

    #[test]
    fn required_wins_over_never_and_writes_asks_for_all_but_reads() {
        let rule = ApprovalRule {
            default: AskPolicy::Writes,
            never: vec![Glob::new("write_*"), Glob::new("delete_tmp")],
            required: vec![Glob::new("delete_*"), Glob::new("read_secret")],
        };
        assert_eq!(rule.for_tool("read_file", Effect::Read), Approval::Never);
        assert_eq!(
            rule.for_tool("read_secret", Effect::Read),
            Approval::Required
        );
        assert_eq!(
            rule.for_tool("write_file", Effect::Irreversible),
            Approval::Never
        );
        assert_eq!(
            rule.for_tool("delete_tmp", Effect::Irreversible),
            Approval::Required
        );
        assert_eq!(
            rule.for_tool("move_file", Effect::IdempotentWrite),
            Approval::Required
        );
        for effect in [Effect::Read, Effect::Irreversible] {
            assert_eq!(
                ApprovalRule::of(AskPolicy::Required).for_tool("x", effect),
                Approval::Required
            );
            assert_eq!(
                ApprovalRule::of(AskPolicy::Never).for_tool("x", effect),
                Approval::Never
            );
        }
        assert_eq!(
            rule.to_string(),
            "writes (never [write_*, delete_tmp], required [delete_*, read_secret])"
        );
        assert_eq!(ApprovalRule::of(AskPolicy::Never).to_string(), "never");
    }
}
