//! Regressions found by validating real manifests nobody here wrote (install bundles and
//! examples of public projects) with zero flags: each fixture is written in the style of the
//! real documents that a kdv release rejected although the API server accepts them.

mod common;
use common::kdv;

const DIR: &str = "crates/kdv-cli/tests/fixtures/realworld";

fn file(name: &str) -> String {
    format!("{DIR}/{name}")
}

#[test]
fn rbac_names_are_path_segments() {
    let run = kdv(&["validate", &file("rbac-system-names.yaml")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn each_kind_has_its_strategys_name_rule() {
    let f = file("names-per-kind.yaml");
    let dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let common = [
        format!("{f}:6:9: metadata.name: Invalid value: \"team.example\": must not contain dots"),
        format!("{f}:11:9: metadata.name: Invalid value: \"example/reader\": may not contain '/'"),
    ];
    let configmap =
        format!("{f}:28:9: metadata.name: Invalid value: \"system:example\": {subdomain}");
    // 1.36: RelaxedServiceNameValidation is on, `8080-web` is an RFC 1123 label. The
    // releases are named: the gate is locked on from 1.37, and the default moves.
    let run = kdv(&["validate", "--k8s-version", "1.36", &f]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let want = [common[0].clone(), common[1].clone(), configmap.clone()];
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), want);
    // 1.35 (and the gate off at 1.36): an RFC 1035 label must start with a letter.
    let service = format!("{f}:17:9: metadata.name: Invalid value: \"8080-web\": {dns1035}");
    let want = [common[0].clone(), common[1].clone(), service, configmap];
    for args in [
        &["validate", "--k8s-version", "1.35", &f][..],
        &[
            "validate",
            "--k8s-version",
            "1.36",
            "--feature-gates",
            "RelaxedServiceNameValidation=false",
            &f,
        ][..],
    ] {
        let run = kdv(args);
        assert_eq!(run.code, 1, "{}", run.transcript());
        assert_eq!(run.stdout.lines().collect::<Vec<_>>(), want);
    }
}

#[test]
fn repeated_container_ports_and_env_are_accepted() {
    let f = file("duplicate-container-ports.yaml");
    let run = kdv(&["validate", &f]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    // Only the pod whose volumes repeat a name is refused.
    assert_eq!(
        run.stdout,
        format!("{f}:51:7: spec.volumes[1]: Duplicate value: {{\"name\":\"cache\"}}\n")
    );
}

#[test]
fn the_items_of_a_list_are_validated_as_kubectl_sends_them() {
    let run = kdv(&["validate", &file("lists.yaml")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("4 documents, 4 valid, 0 invalid, 1 empty document skipped"),
        "{}",
        run.transcript()
    );
    let f = file("list-invalid-item.yaml");
    let json = kdv(&["validate", "-o", "json", &f]);
    assert_eq!(json.code, 1, "{}", json.transcript());
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let docs = report["documents"].as_array().expect("documents");
    let seen: Vec<_> = docs
        .iter()
        .map(|d| {
            (
                d["document"].as_u64(),
                d["line"].as_u64(),
                d["valid"].as_bool(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (Some(0), Some(5), Some(true)),
            (Some(0), Some(10), Some(false))
        ]
    );
    let error = &docs[1]["errors"][0];
    assert_eq!(error["field"], "metadata.name");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(13), Some(13))
    );
}
