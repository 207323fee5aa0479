//! The result of a conformance run: per-package case outcomes, failure causes, and the text
//! rendering.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Why a case failed, coarsely: who has to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FailureKind {
    /// The harness could not interpret the test (an unsupported Go construct or API).
    Harness,
    /// kdv-rules reported errors compiling the package (typically a tag it does not
    /// implement yet) and the case then failed.
    Compile,
    /// The package uses tags kdv recognises but does not implement yet, and the case
    /// failed.
    NotImplemented,
    /// The type the test validates is not a registered root in kdv, but upstream's scheme
    /// validates it.
    NotRegistered,
    /// kdv produced different errors than upstream expects.
    Mismatch,
    /// kdv-rules or kdv-eval panicked.
    Panic,
}

impl FailureKind {
    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            FailureKind::Harness => "harness cannot interpret",
            FailureKind::Compile => "kdv-rules compile errors",
            FailureKind::NotImplemented => "kdv tag not implemented",
            FailureKind::NotRegistered => "kdv: type not registered",
            FailureKind::Mismatch => "kdv semantic mismatch",
            FailureKind::Panic => "kdv panicked",
        }
    }
}

/// A failed case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFailure {
    pub kind: FailureKind,
    /// A grouping key for the failure cause (e.g. `missing FieldValueInvalid origin=union`).
    pub cause: String,
    /// Human explanation.
    pub reason: String,
    /// What upstream expects, rendered.
    pub expected: String,
    /// What kdv produced, rendered.
    pub got: String,
    /// The validated input as kdv saw it (operation, JSON of the new and old objects),
    /// when the case reached kdv.
    pub input: String,
}

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    Failed(CaseFailure),
    Skipped(String),
}

/// One case: `package/TestFunction#k` (k-th case executed in the function, 1-based), or
/// `package/validate-false.json#<type>` for fixture cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseResult {
    pub id: String,
    /// Line of the `st.Value(...)` call in the test file (0 for fixture cases).
    pub line: u32,
    /// Whether kdv validated anything for the case (false when the value's type is not
    /// registered, so the case passed or failed without consulting kdv).
    pub validated: bool,
    pub outcome: Outcome,
}

/// The results of one fixture package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageReport {
    /// Path relative to `output_tests`, e.g. `tags/minimum`.
    pub name: String,
    pub cases: Vec<CaseResult>,
    /// Error diagnostics kdv-rules reported for the package.
    pub compile_errors: Vec<String>,
    /// Tags the package uses that kdv does not implement yet.
    pub unimplemented_tags: Vec<String>,
    /// Observations that are not test cases (e.g. kdv registers other root types than
    /// upstream's generated `RegisterValidations`).
    pub notes: Vec<String>,
}

impl PackageReport {
    /// Number of cases with the given outcome kind.
    fn count(&self, f: impl Fn(&Outcome) -> bool) -> usize {
        self.cases.iter().filter(|c| f(&c.outcome)).count()
    }

    /// Passed cases.
    pub fn passed(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Passed))
    }

    /// Failed cases.
    pub fn failed(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Failed(_)))
    }

    /// Skipped cases.
    pub fn skipped(&self) -> usize {
        self.count(|o| matches!(o, Outcome::Skipped(_)))
    }
}

/// A failure cause with its count and a few example case ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CauseSummary {
    pub kind: FailureKind,
    pub cause: String,
    pub count: usize,
    pub examples: Vec<String>,
}

/// The result of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub packages: Vec<PackageReport>,
    /// Test files the harness read (doc_test.go / validation_test.go).
    pub test_files: usize,
    /// Problems with the run itself (e.g. the output_tests directory is missing).
    pub errors: Vec<String>,
}

impl Report {
    /// Total (passed, failed, skipped).
    pub fn totals(&self) -> (usize, usize, usize) {
        self.packages.iter().fold((0, 0, 0), |(p, f, s), r| {
            (p + r.passed(), f + r.failed(), s + r.skipped())
        })
    }

    /// Total number of cases.
    pub fn case_count(&self) -> usize {
        self.packages.iter().map(|p| p.cases.len()).sum()
    }

    /// Failure causes, most frequent first.
    pub fn causes(&self) -> Vec<CauseSummary> {
        let mut by: BTreeMap<(FailureKind, String), (usize, Vec<String>)> = BTreeMap::new();
        for p in &self.packages {
            for c in &p.cases {
                if let Outcome::Failed(f) = &c.outcome {
                    let e = by.entry((f.kind, f.cause.clone())).or_default();
                    e.0 += 1;
                    if e.1.len() < 3 {
                        e.1.push(c.id.clone());
                    }
                }
            }
        }
        let mut out: Vec<CauseSummary> = by
            .into_iter()
            .map(|((kind, cause), (count, examples))| CauseSummary {
                kind,
                cause,
                count,
                examples,
            })
            .collect();
        out.sort_by(|a, b| b.count.cmp(&a.count).then(a.cause.cmp(&b.cause)));
        out
    }

    /// Passed cases for which kdv validated nothing (the value's type is not registered).
    pub fn passed_without_validation(&self) -> Vec<&str> {
        self.packages
            .iter()
            .flat_map(|p| &p.cases)
            .filter(|c| c.outcome == Outcome::Passed && !c.validated)
            .map(|c| c.id.as_str())
            .collect()
    }

    /// Failed-case counts per [`FailureKind`].
    pub fn kinds(&self) -> BTreeMap<FailureKind, usize> {
        let mut out = BTreeMap::new();
        for p in &self.packages {
            for c in &p.cases {
                if let Outcome::Failed(f) = &c.outcome {
                    *out.entry(f.kind).or_insert(0) += 1;
                }
            }
        }
        out
    }

    /// The text rendering: one line per package `<pkg>: N passed, N failed, N skipped`, the
    /// closing totals line; `verbose` adds every failing case with expected vs got, the
    /// compile errors, and the failure causes.
    pub fn render_text(&self, verbose: bool) -> String {
        let mut out = String::new();
        for e in &self.errors {
            let _ = writeln!(out, "error: {e}");
        }
        for p in &self.packages {
            let _ = writeln!(
                out,
                "{}: {} passed, {} failed, {} skipped",
                p.name,
                p.passed(),
                p.failed(),
                p.skipped()
            );
            if verbose {
                for n in &p.notes {
                    let _ = writeln!(out, "  note: {n}");
                }
                if !p.unimplemented_tags.is_empty() {
                    let _ = writeln!(
                        out,
                        "  tags not implemented by kdv: {}",
                        p.unimplemented_tags.join(", ")
                    );
                }
                for e in &p.compile_errors {
                    let first = e.lines().next().unwrap_or("");
                    let _ = writeln!(out, "  compile error: {first}");
                }
                for c in &p.cases {
                    match &c.outcome {
                        Outcome::Failed(f) => {
                            let _ = writeln!(
                                out,
                                "  FAIL {} (line {}): [{}] {}",
                                c.id,
                                c.line,
                                f.kind.label(),
                                f.reason
                            );
                            if !f.expected.is_empty() {
                                let _ = writeln!(out, "    expected: {}", indent(&f.expected));
                            }
                            if !f.got.is_empty() {
                                let _ = writeln!(out, "    got:      {}", indent(&f.got));
                            }
                            if !f.input.is_empty() {
                                let _ = writeln!(out, "    input:    {}", indent(&f.input));
                            }
                        }
                        Outcome::Skipped(why) => {
                            let _ = writeln!(out, "  SKIP {}: {why}", c.id);
                        }
                        Outcome::Passed => {}
                    }
                }
            }
        }
        if verbose {
            let unvalidated = self.passed_without_validation();
            if !unvalidated.is_empty() {
                let _ = writeln!(
                    out,
                    "passed without kdv validating anything (value type not registered): {}",
                    unvalidated.join(", ")
                );
            }
            let causes = self.causes();
            if !causes.is_empty() {
                let _ = writeln!(out, "failure causes:");
                for c in causes {
                    let _ = writeln!(
                        out,
                        "  {:5}  [{}] {}  (e.g. {})",
                        c.count,
                        c.kind.label(),
                        c.cause,
                        c.examples.join(", ")
                    );
                }
            }
        }
        let (p, f, s) = self.totals();
        let _ = writeln!(out, "{p} passed, {f} failed, {s} skipped");
        out
    }
}

fn indent(s: &str) -> String {
    s.replace('\n', "\n              ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(cause: &str) -> Outcome {
        Outcome::Failed(CaseFailure {
            kind: FailureKind::Mismatch,
            cause: cause.into(),
            reason: "r".into(),
            expected: "e".into(),
            got: "g".into(),
            input: String::new(),
        })
    }

    #[test]
    fn renders_counts_and_totals() {
        let r = Report {
            packages: vec![PackageReport {
                name: "tags/x".into(),
                cases: vec![
                    CaseResult {
                        id: "tags/x/T#1".into(),
                        line: 3,
                        validated: true,
                        outcome: Outcome::Passed,
                    },
                    CaseResult {
                        id: "tags/x/T#2".into(),
                        line: 4,
                        validated: true,
                        outcome: failed("c"),
                    },
                    CaseResult {
                        id: "tags/x/cov".into(),
                        line: 0,
                        validated: false,
                        outcome: Outcome::Skipped("s".into()),
                    },
                ],
                compile_errors: vec![],
                unimplemented_tags: vec![],
                notes: vec![],
            }],
            test_files: 1,
            errors: vec![],
        };
        assert_eq!(
            r.render_text(false),
            "tags/x: 1 passed, 1 failed, 1 skipped\n1 passed, 1 failed, 1 skipped\n"
        );
        let v = r.render_text(true);
        assert!(v.contains("FAIL tags/x/T#2 (line 4)"));
        assert!(v.contains("expected: e"));
        assert_eq!(r.causes()[0].count, 1);
    }
}
