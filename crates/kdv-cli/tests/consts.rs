//! Constants evaluated across packages as Go does: `kdv validate` on an enum whose members
//! are conversions of another package's constants (`AddressType(v1.IPv4Protocol)`, as
//! kubernetes/api's `discovery/v1` declares them). The fixture module `fixtures/consts`
//! reproduces the shape (see its README); with `KDV_UPSTREAM_API` naming a kubernetes/api
//! checkout the same manifests run on its `discovery/v1`, and without it that test prints that
//! it skipped.

use std::path::PathBuf;

mod common;
use common::kdv;

const CONSTS: &str = "crates/kdv-cli/tests/fixtures/consts";

fn manifest(name: &str) -> String {
    format!("{CONSTS}/manifests/{name}")
}

#[test]
fn enum_members_from_imported_constants_are_accepted() {
    // Before, `AddressType(v1.IPv4Protocol)` stayed unevaluated and only "FQDN" was allowed.
    let slice = manifest("endpointslice-ipv4.yaml");
    let types = format!("{CONSTS}/discovery/v1");
    let run = kdv(&["validate", "--types", &types, "--roots", "typemeta", &slice]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.stdout, "");
}

#[test]
fn enum_errors_list_members_from_imported_constants() {
    let slice = manifest("endpointslice-ipv5.yaml");
    let types = format!("{CONSTS}/discovery/v1");
    let run = kdv(&["validate", "--types", &types, "--roots", "typemeta", &slice]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!(
            "{slice}:5:14: addressType: Unsupported value: \"IPv5\": supported values: \"FQDN\", \"IPv4\", \"IPv6\"\n"
        )
    );
}

#[test]
fn upstream_endpoint_slice_address_types() {
    let Some(api) = std::env::var_os("KDV_UPSTREAM_API").filter(|d| !d.is_empty()) else {
        println!("skipped: KDV_UPSTREAM_API not set");
        return;
    };
    let types = PathBuf::from(api).join("discovery/v1");
    let types = types.to_str().expect("UTF-8 path");
    // Releases before 1.36 do not declare `+k8s:enum` here; 1.36 declares it alpha (its
    // errors are warnings), later releases beta (enforced with DeclarativeValidationBeta).
    let args = |m: &str| {
        [
            "validate",
            "--types",
            types,
            "--roots",
            "typemeta",
            "--feature-gates",
            "DeclarativeValidationBeta=true",
        ]
        .into_iter()
        .map(String::from)
        .chain([manifest(m)])
        .collect::<Vec<String>>()
    };
    let run_of = |m: &str| {
        let args = args(m);
        kdv(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let valid = run_of("endpointslice-ipv4.yaml");
    assert_eq!(valid.code, 0, "{}", valid.transcript());
    assert!(
        !valid.transcript().contains("Unsupported value"),
        "{}",
        valid.transcript()
    );
    let invalid = run_of("endpointslice-ipv5.yaml");
    let error =
        "addressType: Unsupported value: \"IPv5\": supported values: \"FQDN\", \"IPv4\", \"IPv6\"";
    let transcript = invalid.transcript();
    let reported: Vec<&str> = transcript
        .lines()
        .filter(|l| l.contains("Unsupported value"))
        .collect();
    let source = std::fs::read_to_string(PathBuf::from(types).join("types.go")).expect("types.go");
    let declared = source.lines().any(|l| l.trim_end().ends_with("+k8s:enum"));
    assert_eq!(reported.len(), usize::from(declared), "{transcript}");
    for line in reported {
        assert!(line.contains(error), "{transcript}");
    }
}
