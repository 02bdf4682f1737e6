//! The report as GitHub annotations (`--annotations github`, the default
//! under GitHub Actions): one per case that did not pass, in report order,
//! on its file — the session, or the golden of an orphan or the vocabulary
//! — at the line of its first differing op (a mismatch's first differing
//! block), or else of its first failure that has one, and at a malformed
//! session's line and column. The message holds every failure of the case,
//! the diff, and the bless command where blessing resolves it.

use std::fmt::Write as _;

use super::{Case, CaseFailure, CaseKind, CaseStatus, CheckReport, FailureKind, where_and_what};
use crate::cli::format::github::Annotation;

impl CheckReport {
    /// One annotation per case that did not pass, in report order.
    pub fn annotations(&self) -> Vec<Annotation> {
        self.cases
            .iter()
            .filter(|case| case.status() != CaseStatus::Pass)
            .filter_map(|case| self.annotation(case))
            .collect()
    }

    fn annotation(&self, case: &Case) -> Option<Annotation> {
        let placed = case
            .failures
            .iter()
            .find(|f| f.kind == FailureKind::Mismatch)
            .or_else(|| case.failures.iter().find(|f| f.line.is_some()))
            .or_else(|| case.failures.first())?;
        let mut message = String::new();
        for failure in &case.failures {
            let _ = writeln!(message, "{}", said(case, failure));
        }
        if let Some(diff) = &placed.diff {
            message.push_str(diff);
        }
        if case.failures.iter().any(|f| f.kind.wants_bless_command()) {
            let _ = writeln!(message, "to bless: {}", self.bless_command);
        }
        Some(Annotation {
            file: case.path.clone(),
            line: placed.line,
            column: placed.column,
            title: format!("disclose check: {}", title(case, placed.kind)),
            message,
        })
    }
}

/// A failure in words, without the place the annotation already gives: a
/// malformed session's message loses its `path:line:column: ` prefix.
fn said(case: &Case, failure: &CaseFailure) -> String {
    if let (FailureKind::Malformed, Some(line), Some(column)) =
        (failure.kind, failure.line, failure.column)
    {
        let place = format!("{}:{line}:{column}: ", case.path);
        if let Some(rest) = failure.message.strip_prefix(&place) {
            return rest.to_string();
        }
    }
    where_and_what(failure)
}

/// What went wrong, as an annotation's title.
fn title(case: &Case, kind: FailureKind) -> String {
    match kind {
        FailureKind::Mismatch if case.kind == CaseKind::Vocabulary => {
            "the vocabulary differs from its golden".into()
        }
        FailureKind::Mismatch => "the transcript differs from its golden".into(),
        FailureKind::NoGolden => "no golden".into(),
        FailureKind::Orphan => "a golden with no session".into(),
        FailureKind::Invariant(id) => format!("invariant {id} broken"),
        FailureKind::ReservedName => "a session named as the vocabulary".into(),
        FailureKind::Malformed => "malformed session".into(),
        FailureKind::Io => "a file that cannot be used".into(),
        FailureKind::Limit => "the transcript passes the limit".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::every_kind;
    use crate::cli::format::github::{Workspace, commands};

    #[test]
    fn every_kind_as_annotations() {
        let report = every_kind();
        insta::assert_snapshot!(commands(&report.annotations(), &Workspace::default()), @r#"
        ::error file=corpora/a/hint|cut.jsonl,line=4,title=disclose check%3A the transcript differs from its golden::line 4 (render): the transcript differs from "golden/a/hint|cut.txt"%0A--- golden%0A+++ replay%0A@@ -1,2 +1,2 @@%0A === 4 render 10%0A-- x: a␉b%0A+- x: a b·%0Ato bless: BLESS
        ::error file=corpora/b/malformed.jsonl,line=2,col=1,title=disclose check%3A malformed session::op "render" needs a started run
        ::error file=corpora/b/huge.jsonl,line=7,title=disclose check%3A the transcript passes the limit::line 7 (tool_defs): the transcript would pass 64 MiB
        ::error file=corpora/vocabulary.jsonl,title=disclose check%3A a session named as the vocabulary::its golden would be "golden/vocabulary.txt"
        ::error file=corpora/modes/switch.jsonl,line=9,title=disclose check%3A invariant I7 broken::I7 line 9 (render): the prefix bytes differ | on the re-replay
        ::error file=corpora/c/new.jsonl,title=disclose check%3A no golden::no golden "golden/c/new.txt"; bless it with `BLESS`
        ::error file=golden/c/gone.txt,title=disclose check%3A a golden with no session::no session "corpora/c/gone.jsonl" has this golden; blessing deletes it%0Ato bless: BLESS
        ::error file=corpora/c/loop,title=disclose check%3A a file that cannot be used::"corpora/c/loop": a link loop
        ::error file=golden/vocabulary.txt,title=disclose check%3A the vocabulary differs from its golden::`disclose vocab` differs from "golden/vocabulary.txt"%0A--- golden%0A+++ vocab%0A@@ -1 +1 @@%0A-E_A%0A+E_B%0Ato bless: BLESS
        "#);
    }
}
