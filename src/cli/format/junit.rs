//! The one JUnit XML writer (`--junit` of `check` and `check --impl`), over
//! `quick-junit`: a report is suites of test cases, each passed, skipped,
//! failed or in error. The reports decide what each case says; this writes
//! it.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

/// One test case.
pub struct JunitCase {
    /// Its name (a case id).
    pub name: String,
    /// Its `classname` attribute.
    pub classname: String,
    /// What became of it.
    pub status: JunitStatus,
}

/// What became of a test case.
pub enum JunitStatus {
    /// It passed.
    Passed,
    /// It was skipped, and why.
    Skipped(String),
    /// It failed (`<failure>`).
    Failed(NotPassed),
    /// It could not be judged (`<error>`).
    Errored(NotPassed),
}

/// What a failed or errored case says: its `type` and `message` attributes
/// and its text.
#[derive(Default)]
pub struct NotPassed {
    /// The `type` attribute.
    pub kind: Option<String>,
    /// The `message` attribute: one line.
    pub message: Option<String>,
    /// The element's text: everything.
    pub description: Option<String>,
}

/// One test suite.
pub struct JunitSuite {
    /// Its name.
    pub name: String,
    /// Its cases, in report order.
    pub cases: Vec<JunitCase>,
}

/// The XML of a report named `name`.
pub fn write(name: &str, suites: Vec<JunitSuite>) -> Result<String, quick_junit::SerializeError> {
    let mut report = Report::new(name);
    for suite in suites {
        let mut junit_suite = TestSuite::new(suite.name);
        for case in suite.cases {
            let status = match case.status {
                JunitStatus::Passed => TestCaseStatus::success(),
                JunitStatus::Skipped(message) => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(message);
                    status
                }
                JunitStatus::Failed(not) => not_passed(NonSuccessKind::Failure, not),
                JunitStatus::Errored(not) => not_passed(NonSuccessKind::Error, not),
            };
            let mut test = TestCase::new(case.name, status);
            test.set_classname(case.classname);
            junit_suite.add_test_case(test);
        }
        report.add_test_suite(junit_suite);
    }
    report.to_string()
}

fn not_passed(kind: NonSuccessKind, not: NotPassed) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(kind);
    if let Some(message) = not.message {
        status.set_message(message);
    }
    if let Some(kind) = not.kind {
        status.set_type(kind);
    }
    if let Some(description) = not.description {
        status.set_description(description);
    }
    status
}
