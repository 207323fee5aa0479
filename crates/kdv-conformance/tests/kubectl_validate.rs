//! Runs kubectl-validate's test cases (the project's `testdata/kubectl-validate`) against
//! kdv and prints the report. The data is part of the repository: if it cannot be read, the
//! test fails.
//!
//! Every case must pass, none is skipped: every case listed in [`PASSING`] (the list only
//! grows; a new case that passes must be added).

use std::path::Path;

use kdv_conformance::kubectl_validate::backend::OpenApiBackend;
use kdv_conformance::kubectl_validate::suite::{SuiteOptions, Verdict, run_suite};

/// The documents in the data (`testdata/kubectl-validate/README.md`: 36 in 31 files).
const DOCUMENTS: usize = 36;

/// Cases that pass; never remove one.
const PASSING: &[&str] = &[
    "apiservice.yaml#0",
    "configmap.yaml#0",
    "deployment_with_strategy.yaml#0",
    "empty.yaml#0",
    "empty_secret.yaml#0",
    "empty_with_document.yaml#0",
    "error_array_instead_of_map.yaml#0",
    "error_cel_basic.yaml#0",
    "error_cel_basic_multiple.yaml#0",
    "error_crd_typo.yaml#0",
    "error_enum_invalid.yaml#0",
    "error_indentation.yaml#0",
    "error_invalid_kind.yaml#0",
    "error_invalid_label.yaml#0",
    "error_invalid_name.yaml#0",
    "error_invalid_protocol_type.yaml#0",
    "error_map_instead_of_array.yaml#0",
    "error_missing_image.yaml#0",
    "error_missing_name.yaml#0",
    "error_misspelled_key.yaml#0",
    "error_multiple_fields.yaml#0",
    "error_multiple_resources_all_invalid.yaml#0",
    "error_multiple_resources_all_invalid.yaml#1",
    "error_multiple_resources_one_invalid.yaml#0",
    "error_multiple_resources_one_invalid.yaml#1",
    "error_name_exceeds_max_length.yaml#0",
    "error_quantity.yaml#0",
    "error_x_list_map_default.yaml#0",
    "error_x_list_map_duplicate_key.yaml#0",
    "jobset.yaml#0",
    "multiple_resources.yaml#0",
    "multiple_resources.yaml#1",
    "multiple_resources_only_comments.yaml#0",
    "multiple_resources_only_comments.yaml#1",
    "multiple_resources_only_comments.yaml#2",
    "x_list_map_nonduplicate_key.yaml#0",
];

#[test]
fn kubectl_validate_conformance() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/kubectl-validate");
    let crd_dir = data.join("testcases/crds");
    let backend = OpenApiBackend::new(&[&crd_dir], Some(&data.join("schema-patches/1.23")))
        .unwrap_or_else(|e| panic!("loading the schemas: {e}"));
    let report = run_suite(&data, &backend, &SuiteOptions::default())
        .unwrap_or_else(|e| panic!("reading the test cases: {e}"));
    println!("{}", report.render(true));
    assert!(report.file_errors.is_empty(), "{:?}", report.file_errors);
    assert_eq!(report.cases.len(), DOCUMENTS, "documents read");
    let passed = report.names(&Verdict::Passed);
    let regressed: Vec<&&str> = PASSING.iter().filter(|c| !passed.contains(c)).collect();
    assert!(
        regressed.is_empty(),
        "cases that passed before fail now: {regressed:?}"
    );
    let new: Vec<&&str> = passed.iter().filter(|c| !PASSING.contains(c)).collect();
    assert!(
        new.is_empty(),
        "cases that pass now: add them to PASSING: {new:?}"
    );
    assert_eq!(
        report.totals(),
        (DOCUMENTS, 0, 0),
        "every case passes, none skipped"
    );
}
