//! Type selection: which type `--type NAME` means, which types are roots (`--roots`), what
//! `kdv validate` says when a kind exists but is not selected or its package opts out, and
//! `--subresource` checked before any manifest is read.
//!
//! The fixture module `fixtures/roots` reproduces kubernetes/api's shapes (see its README);
//! with `KDV_UPSTREAM_API` naming a kubernetes/api checkout the same runs happen on it, and
//! without it those tests print that they skipped.

use std::path::PathBuf;

mod common;
use common::kdv;

const ROOTS: &str = "crates/kdv-cli/tests/fixtures/roots";

fn pkg(name: &str) -> String {
    format!("{ROOTS}/{name}")
}

fn manifest(name: &str) -> String {
    format!("{ROOTS}/manifests/{name}")
}

const TOO_MANY: &str = "spec.devices.requests: Too many: 40: must have at most 32 items";

#[test]
fn item_01_bare_type_name_is_the_package_own_type() {
    // core/v1 (imported) declares a ResourceClaim too; before, --type picked it (the first
    // package in import-path order) and the 40 requests passed.
    let claim = manifest("claim-40-requests.yaml");
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--type",
        "ResourceClaim",
        &claim,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, format!("{claim}:8:7: {TOO_MANY}\n"));

    // A qualified name names any loaded type.
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--type",
        "example.com/roots/core/v1.ResourceClaim",
        "-o",
        "json",
        &claim,
    ]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        report["documents"][0]["type"],
        "example.com/roots/core/v1.ResourceClaim",
        "{}",
        run.transcript()
    );
}

#[test]
fn item_01_ambiguous_bare_type_name_lists_the_candidates() {
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--type",
        "Condition",
        &manifest("claim-40-requests.yaml"),
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        format!(
            "error: --type Condition: {} does not declare Condition, but several loaded packages do: \
             example.com/roots/core/v1.Condition, example.com/roots/other/v1.Condition, \
             k8s.io/apimachinery/pkg/apis/meta/v1.Condition; name one as pkg/path.Condition\n",
            pkg("resource/v1")
        )
    );
}

#[test]
fn item_02_kind_that_is_not_a_root_says_how_to_select_it() {
    let claim = manifest("claim-40-requests.yaml");
    let run = kdv(&["validate", "--types", &pkg("resource/v1"), &claim]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(&format!(
            "{claim}:2:7: error: kind \"ResourceClaim\" of apiVersion \"resource.example.com/v1\" \
             is declared in example.com/roots/resource/v1 but is not a root type: the package selects its \
             roots with +k8s:validation-gen=TypesWithSuffix=DeviceAttribute at doc.go:8:24; pass --roots \
             typemeta to validate every kind with TypeMeta"
        )),
        "{}",
        run.transcript()
    );
    assert!(run.stderr.contains("or --type ResourceClaim\n"));
}

#[test]
fn item_02_roots_typemeta_validates_every_kind() {
    let claim = manifest("claim-40-requests.yaml");
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "typemeta",
        &claim,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, format!("{claim}:8:7: {TOO_MANY}\n"));
    // `all` selects every type, so the kind is found as well.
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "all",
        &claim,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "bogus",
        &claim,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
}

#[test]
fn item_03_package_that_opts_out_lints_cleanly_and_validate_says_so() {
    let run = kdv(&["lint", "--types", &pkg("extensions/v1beta1")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.stdout, "");

    let deployment = manifest("deployment.yaml");
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("extensions/v1beta1"),
        &deployment,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "is declared in example.com/roots/extensions/v1beta1 but is not a root type: the package \
             opts out of declarative validation (+k8s:validation-gen=false at doc.go:5:24), so none of \
             its kinds is selected; to validate its kinds anyway, pass --roots typemeta (every kind \
             with TypeMeta), or --type Deployment\n"
        ),
        "{}",
        run.transcript()
    );
    // The group comes from the package's GroupName constant (no +groupName in its doc.go).
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("extensions/v1beta1"),
        "--roots",
        "typemeta",
        &deployment,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!(
            "{deployment}:6:13: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n"
        )
    );
}

#[test]
fn item_15_subresource_is_checked_before_reading_manifests() {
    let missing = manifest("no-such-file.yaml");
    // A path that is not a subresource name: a usage error, the manifest is never opened.
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--subresource",
        "../../x",
        &missing,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "error: --subresource ../../x: \"..\" is not a subresource name (expected a path such as status, /status or /x/y)\n"
    );
    // A subresource the type does not have: the ones it has are listed.
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "typemeta",
        "--type",
        "ResourceClaim",
        "--subresource",
        "scale",
        &missing,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "error: --subresource /scale: example.com/roots/resource/v1.ResourceClaim has no subresource /scale (it has: /, /status)\n"
    );
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "typemeta",
        "--subresource",
        "resize",
        &missing,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "error: --subresource /resize: no root type has this subresource (ClaimScale has /scale; ResourceClaim has /, /status)\n"
    );
    // A type that is only a subresource is not validated as the main resource.
    let scale = manifest("claim-scale.yaml");
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "typemeta",
        &scale,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            ":2:7: error: example.com/roots/resource/v1.ClaimScale is validated only as a subresource (/scale), not as the main resource; pass --subresource /scale\n"
        ),
        "{}",
        run.transcript()
    );
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--roots",
        "typemeta",
        "--subresource",
        "/scale",
        &scale,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(
        run.stdout,
        format!("{scale}:3:11: replicas: Invalid value: -1: must be greater than or equal to 0\n")
    );
    // Not a root: no subresources at all.
    let run = kdv(&[
        "validate",
        "--types",
        &pkg("resource/v1"),
        "--type",
        "ResourceClaim",
        "--subresource",
        "status",
        &missing,
    ]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains(
            "is not a root type, and only root types (kinds) are validated per subresource"
        ),
        "{}",
        run.transcript()
    );
    // The status subresource of a kind that has one validates the whole object.
    let claim = manifest("claim-40-requests.yaml");
    for path in ["status", "/status"] {
        let run = kdv(&[
            "validate",
            "--types",
            &pkg("resource/v1"),
            "--roots",
            "typemeta",
            "--subresource",
            path,
            &claim,
        ]);
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert_eq!(run.stdout, format!("{claim}:8:7: {TOO_MANY}\n"));
    }
}

/// The kubernetes/api checkout named by `KDV_UPSTREAM_API`, if any.
fn upstream_api() -> Option<PathBuf> {
    match std::env::var_os("KDV_UPSTREAM_API") {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => {
            println!("skipped: KDV_UPSTREAM_API not set");
            None
        }
    }
}

#[test]
fn item_02_upstream_resource_claim_with_40_requests() {
    let Some(api) = upstream_api() else {
        return;
    };
    let types = api.join("resource/v1");
    let types = types.to_str().expect("UTF-8 path");
    let claim = manifest("upstream-resourceclaim-40-requests.yaml");
    let expected = format!("{claim}:8:7: {TOO_MANY}\n");
    let run = kdv(&["validate", "--types", types, "--roots", "typemeta", &claim]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, expected);
    let run = kdv(&[
        "validate",
        "--types",
        types,
        "--type",
        "ResourceClaim",
        &claim,
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, expected);
    // kubernetes/api packages carry no +k8s:validation-gen tag: their TypeMeta types are the
    // roots without --roots (issue 20).
    let run = kdv(&["validate", "--types", types, &claim]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout, expected);
}

#[test]
fn item_03_upstream_extensions_opt_out_lints_cleanly() {
    let Some(api) = upstream_api() else {
        return;
    };
    let types = api.join("extensions/v1beta1");
    let run = kdv(&["lint", "--types", types.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}
