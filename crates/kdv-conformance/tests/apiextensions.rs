//! Runs apiextensions-apiserver's CEL validation tables against kdv-openapi when
//! `KDV_UPSTREAM_APIEXTENSIONS` names a k8s.io/apiextensions-apiserver checkout. The test
//! checks that the runner read every table and interpreted its rows, and that every case it
//! runs passes.

use kdv_conformance::apiextensions::{APIEXTENSIONS_ENV, Options, run_apiextensions};

/// Every table the runner knows, with the least number of cases it must find in it (the
/// counts of the checkout this was written against, less a margin for upstream edits).
const TABLES: &[(&str, usize)] = &[
    ("TestValidationExpressions", 750),
    ("TestValidationExpressionsAtSchemaLevels", 20),
    ("TestCELValidationLimit", 2),
    ("TestCELMaxRecursionDepth", 2),
    ("TestMessageExpression", 10),
    ("TestReasonAndFldPath", 4),
    ("TestRatcheting", 14),
    ("TestOptionalOldSelf", 10),
    ("TestOptionalOldSelfCheckForNull", 18),
    ("TestOptionalOldSelfIsOptionalType", 5),
    ("TestValidateFieldPath", 25),
    ("TestCelCompilation", 40),
    ("TestCostEstimation", 130),
    ("TestMetadataNameCostIsBounded", 2),
    ("TestCelCostStability", 300),
    ("TestCelEstimatedCostStability", 290),
    // pkg/apiserver/validation/ratcheting_test.go: one case per assertion.
    ("TestScalarRatcheting", 2),
    ("TestObjectScalarFieldsRatcheting", 3),
    ("TestObjectObjectFieldsRatcheting", 3),
    ("TestNumericFormatRatcheting", 3),
];

#[test]
fn apiextensions_tables() {
    let Some(root) = std::env::var_os(APIEXTENSIONS_ENV) else {
        println!("skipped: {APIEXTENSIONS_ENV} not set");
        return;
    };
    let report = run_apiextensions(root.as_ref(), &Options::default());
    let verbose = std::env::var_os("KDV_CONFORMANCE_VERBOSE").is_some();
    print!("{}", report.render(verbose));
    assert!(report.table_errors.is_empty(), "{:?}", report.table_errors);
    for (table, least) in TABLES {
        let (interpreted, all) = report.interpreted(table);
        assert!(
            all >= *least,
            "{table}: {all} cases, expected at least {least}"
        );
        // Only TestMessageExpression's rows that expect a klog line are not run and
        // TestCelCompilation's row with the test's own CEL library.
        let skippable = match *table {
            "TestMessageExpression" => 6,
            "TestCelCompilation" => 1,
            _ => 0,
        };
        assert!(
            interpreted + skippable >= all,
            "{table}: interpreted {interpreted} of {all} cases"
        );
    }
    // The goal of issue 11: TestValidationExpressions entirely interpreted (100%).
    let (interpreted, all) = report.interpreted("TestValidationExpressions");
    assert_eq!(interpreted, all);
    // Every interpreted case of every table passes (issue 11): a failure is a regression.
    for (table, _) in TABLES {
        let (_, failed, _) = report.table_totals(table);
        assert_eq!(failed, 0, "{table}: {failed} failed");
    }
}
