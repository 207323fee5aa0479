//! Runs upstream's validation-gen conformance suite against kdv when
//! `KDV_UPSTREAM_CODEGEN` names a kubernetes/code-generator checkout: the harness reads every
//! test file and finds the cases, and the floor holds (no case fails and none is skipped; a
//! newer upstream may add cases, 932 at code-generator `eec8939e`).

use kdv_conformance::{Outcome, RunOptions, run_validation_gen};

#[test]
fn validation_gen_suite() {
    let Some(root) = std::env::var_os("KDV_UPSTREAM_CODEGEN") else {
        println!("skipped: KDV_UPSTREAM_CODEGEN not set");
        return;
    };
    let report = run_validation_gen(root.as_ref(), &RunOptions::default());
    let verbose = std::env::var_os("KDV_CONFORMANCE_VERBOSE").is_some();
    print!("{}", report.render_text(verbose));
    if !verbose {
        println!("failure causes:");
        for c in report.causes().iter().take(25) {
            println!(
                "  {:5}  [{}] {}  (e.g. {})",
                c.count,
                c.kind.label(),
                c.cause,
                c.examples.join(", ")
            );
        }
    }
    for p in &report.packages {
        for n in &p.notes {
            println!("note: {}: {n}", p.name);
        }
    }
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    // 115 doc_test.go + 2 validation_test.go.
    assert!(
        report.test_files >= 117,
        "read {} test files",
        report.test_files
    );
    let static_cases: usize = report
        .packages
        .iter()
        .flat_map(|p| &p.cases)
        .filter(|c| !c.id.contains("validate-false.json") && !c.id.ends_with("#coverage"))
        .count();
    assert!(static_cases >= 776, "found {static_cases} cases");
    // The harness never panics: a panicking package shows up as a `#harness` case.
    let panicked: Vec<&str> = report
        .packages
        .iter()
        .flat_map(|p| &p.cases)
        .filter(|c| c.id.ends_with("#harness") && matches!(c.outcome, Outcome::Failed(_)))
        .map(|c| c.id.as_str())
        .collect();
    assert!(panicked.is_empty(), "harness panicked in {panicked:?}");
    let (passed, failed, skipped) = report.totals();
    assert_eq!(
        (failed, skipped),
        (0, 0),
        "{passed} passed: the floor is no failed and no skipped case (KDV_CONFORMANCE_VERBOSE=1 \
         lists them)"
    );
}

/// The two upstream coverage tests pass with the emissions lowering attaches and fail with
/// deliberately wrong ones (validateFalse declared at element paths).
#[test]
fn coverage_cases_depend_on_the_emission_table() {
    use kdv_rules::Emission;
    use kdv_rules::emissions::attached;
    let Some(root) = std::env::var_os("KDV_UPSTREAM_CODEGEN") else {
        println!("skipped: KDV_UPSTREAM_CODEGEN not set");
        return;
    };
    fn wrong(v: &kdv_rules::Validation) -> Vec<Emission> {
        match v.check {
            kdv_rules::Check::Fixed { pass: false, .. } => vec![Emission::at_element(
                kdv_runtime::ErrorType::Invalid,
                "validateFalse",
            )],
            _ => attached(v),
        }
    }
    for package in ["elide_no_validations", "tags/opaque"] {
        for (table, passes) in [
            (None, true),
            (
                Some(wrong as fn(&kdv_rules::Validation) -> Vec<Emission>),
                false,
            ),
        ] {
            let options = RunOptions {
                package_filter: Some(package.to_string()),
                emission_table: table,
            };
            let report = run_validation_gen(root.as_ref(), &options);
            let id = format!("{package}#coverage");
            let case = report
                .packages
                .iter()
                .flat_map(|p| &p.cases)
                .find(|c| c.id == id)
                .unwrap_or_else(|| panic!("no case {id}"));
            assert_eq!(
                matches!(case.outcome, Outcome::Passed),
                passes,
                "{id}: {:?}",
                case.outcome
            );
        }
    }
}
