//! The suite: every document of every `testcases/manifests/*.yaml` (`.yml`) file, each
//! judged against the `metav1.Status` in its leading comment.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::pipeline::{Backend, validate_document};
use super::split::{expectation, is_empty_document, yaml_documents};
use super::status::Status;

/// Runner settings.
#[derive(Clone, Debug, Default)]
pub struct SuiteOptions {
    /// Only manifest files whose name contains this.
    pub file_filter: Option<String>,
}

/// The verdict on one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// kdv's status equals the expected one.
    Passed,
    /// It differs.
    Failed,
    /// Not judged, for this reason.
    Skipped(&'static str),
}

/// One document of one manifest file.
#[derive(Clone, Debug)]
pub struct Case {
    /// `error_quantity.yaml#0`: the file name and the document's index in it.
    pub name: String,
    /// The expected status.
    pub expected: Status,
    /// kdv's status.
    pub actual: Status,
    /// The verdict.
    pub verdict: Verdict,
}

/// The results of a run.
#[derive(Clone, Debug, Default)]
pub struct SuiteReport {
    /// Every document, in file and document order.
    pub cases: Vec<Case>,
    /// Files that could not be read or split, or whose expectations do not parse: each
    /// counts as one failed case.
    pub file_errors: Vec<(String, String)>,
}

/// The data set could not be read.
#[derive(Debug)]
pub struct DataError(pub String);

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataError {}

/// Runs the manifests of `data` (the kubectl-validate data set: `testcases/manifests/`)
/// through `backend`.
pub fn run_suite(
    data: &Path,
    backend: &dyn Backend,
    options: &SuiteOptions,
) -> Result<SuiteReport, DataError> {
    let manifests = data.join("testcases/manifests");
    let entries = std::fs::read_dir(&manifests)
        .map_err(|e| DataError(format!("{}: {e}", manifests.display())))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| DataError(format!("{}: {e}", manifests.display())))?
            .path();
        let yaml = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase())
            .is_some_and(|e| e == "yaml" || e == "yml");
        if yaml && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut report = SuiteReport::default();
    for file in files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if options
            .file_filter
            .as_deref()
            .is_some_and(|f| !name.contains(f))
        {
            continue;
        }
        if let Err(e) = run_file(&file, &name, backend, &mut report) {
            report.file_errors.push((name, e));
        }
    }
    Ok(report)
}

fn run_file(
    file: &Path,
    name: &str,
    backend: &dyn Backend,
    report: &mut SuiteReport,
) -> Result<(), String> {
    let text = std::fs::read(file).map_err(|e| e.to_string())?;
    let documents = yaml_documents(&text).map_err(|e| e.to_string())?;
    let mut cases = Vec::new();
    for (index, document) in documents.iter().enumerate() {
        let expected = expectation(document)?;
        let actual = if is_empty_document(document) {
            Status::success()
        } else {
            validate_document(backend, document).status
        };
        let verdict = if actual == expected {
            Verdict::Passed
        } else {
            Verdict::Failed
        };
        cases.push(Case {
            name: format!("{name}#{index}"),
            expected,
            actual,
            verdict,
        });
    }
    report.cases.extend(cases);
    Ok(())
}

impl SuiteReport {
    /// `(passed, failed, skipped)`; a file error counts as one failure.
    pub fn totals(&self) -> (usize, usize, usize) {
        let mut totals = (0, self.file_errors.len(), 0);
        for case in &self.cases {
            match case.verdict {
                Verdict::Passed => totals.0 += 1,
                Verdict::Failed => totals.1 += 1,
                Verdict::Skipped(_) => totals.2 += 1,
            }
        }
        totals
    }

    /// The names of the cases with this verdict.
    pub fn names(&self, verdict: &Verdict) -> Vec<&str> {
        self.cases
            .iter()
            .filter(|c| &c.verdict == verdict)
            .map(|c| c.name.as_str())
            .collect()
    }

    /// The report: one line per file, the skipped cases under their reason, every failure
    /// with the expected and the actual status, and the closing line `N passed, N failed,
    /// N skipped`. Every failure is always shown in full, so `_verbose` (the cel-spec
    /// report's switch, taken for symmetry) changes nothing.
    pub fn render(&self, _verbose: bool) -> String {
        let mut out = String::new();
        let mut per_file: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
        for case in &self.cases {
            let file = case.name.split('#').next().unwrap_or_default();
            let counts = per_file.entry(file).or_default();
            match case.verdict {
                Verdict::Passed => counts.0 += 1,
                Verdict::Failed => counts.1 += 1,
                Verdict::Skipped(_) => counts.2 += 1,
            }
        }
        for (file, (p, f, s)) in &per_file {
            let _ = writeln!(out, "{file:<48} {p} passed, {f} failed, {s} skipped");
        }
        for (file, error) in &self.file_errors {
            let _ = writeln!(out, "{file:<48} error: {error}");
        }
        let mut reasons: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        for case in &self.cases {
            if let Verdict::Skipped(reason) = case.verdict {
                reasons.entry(reason).or_default().push(case);
            }
        }
        for (reason, cases) in &reasons {
            let _ = writeln!(out, "\nskipped, {reason}: {}", cases.len());
            for case in cases {
                let _ = writeln!(out, "  {}", case.name);
            }
        }
        let failures: Vec<&Case> = self
            .cases
            .iter()
            .filter(|c| c.verdict == Verdict::Failed)
            .collect();
        if !failures.is_empty() {
            let _ = writeln!(out, "\nfailures:");
            for case in failures {
                let _ = writeln!(out, "  {}", case.name);
                let _ = writeln!(out, "    expected: {}", case.expected.to_json());
                let _ = writeln!(out, "    kdv:      {}", case.actual.to_json());
            }
        }
        let (passed, failed, skipped) = self.totals();
        let _ = writeln!(out, "\n{passed} passed, {failed} failed, {skipped} skipped");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl_validate::pipeline::{Lookup, Validated};
    use serde_json::Value;

    /// Knows every kind and finds nothing wrong.
    struct AcceptAll;

    impl Backend for AcceptAll {
        fn lookup(&self, _: &str, _: &str, _: &str) -> Lookup {
            Lookup::Found { namespaced: true }
        }
        fn validate(&self, _: &str, _: &str, _: &str, _: &Value) -> Validated {
            Validated::default()
        }
        fn validate_crd(&self, _: &Value) -> Option<Validated> {
            Some(Validated::default())
        }
    }

    #[test]
    fn documents_and_the_report() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubectl-validate");
        let report = run_suite(&data, &AcceptAll, &SuiteOptions::default()).unwrap();
        assert_eq!(report.cases.len(), 36);
        assert!(report.file_errors.is_empty());
        let (passed, failed, skipped) = report.totals();
        // Accepting everything: the success documents pass, and so does the duplicate-key
        // case, which fails before validation.
        assert_eq!((passed, failed, skipped), (15, 21, 0));
        assert!(
            report
                .names(&Verdict::Passed)
                .contains(&"error_multiple_fields.yaml#0")
        );
        let text = report.render(false);
        assert!(
            text.ends_with("\n15 passed, 21 failed, 0 skipped\n"),
            "{text}"
        );
        assert!(!text.contains("skipped, "), "{text}");
        assert!(
            text.contains("  error_quantity.yaml#0\n    expected: {"),
            "{text}"
        );
        let filtered = run_suite(
            &data,
            &AcceptAll,
            &SuiteOptions {
                file_filter: Some("quantity".into()),
            },
        )
        .unwrap();
        assert_eq!(filtered.totals(), (0, 1, 0));
    }
}
