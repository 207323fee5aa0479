//! Runs the cel-spec conformance suite (the project's `testdata/cel-spec`) against kdv-cel
//! and prints the table. The data is part of the repository: if it cannot be read, the test
//! fails.

use std::path::Path;

use kdv_conformance::cel_spec::{RunOptions, run_cel_spec};

/// Passing tests required; raised as the implementation grows (never lowered).
const MIN_PASSED: usize = 1637;
/// Test files and tests in the data (`testdata/cel-spec/INDEX.tsv`).
const FILES: usize = 30;
const TESTS: usize = 2456;

#[test]
fn cel_spec_conformance() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/cel-spec");
    let report = run_cel_spec(&data, &RunOptions::default())
        .unwrap_or_else(|e| panic!("reading the cel-spec data: {e}"));
    let verbose = std::env::var_os("KDV_CEL_SPEC_VERBOSE").is_some();
    println!("{}", report.render(verbose));
    let (passed, failed, skipped) = report.totals();
    assert_eq!(report.files.len(), FILES, "test files read");
    assert_eq!(passed + failed + skipped, TESTS, "tests counted");
    assert!(
        passed >= MIN_PASSED,
        "{passed} passed, expected at least {MIN_PASSED}"
    );
    assert_eq!(failed, 0, "{}", report.render(true));
    // Every skip is counted under its reason.
    assert_eq!(report.skip_reasons.values().sum::<usize>(), skipped);
}
