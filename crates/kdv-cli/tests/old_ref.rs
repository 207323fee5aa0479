//! `kdv validate --old-ref REV`: each manifest's previous revision comes from git, so
//! UPDATE rules and validation ratcheting are checked on a pull request. The tests build a
//! git repository in a temporary directory (git must be installed: it is in CI, and these
//! tests fail rather than skip without it).

mod common;

use common::{git, kdv_in, root};
use kdv_test_support::Scratch;

/// cert-manager's CRDs (kubectl-validate's copy), with the Certificate's `commonName`
/// tightened to the 64 characters its description asks for: a schema change that makes
/// existing objects invalid.
fn tightened_cert_manager_crds() -> String {
    let crds = std::fs::read_to_string(
        root().join("testdata/kubectl-validate/testcases/crds/cert-manager.crds.yaml"),
    )
    .expect("cert-manager CRDs");
    let key = "                commonName:\n";
    let description = "                  description: 'CommonName is a common name to be used on the Certificate.";
    let field = format!("{key}{description}");
    assert!(crds.contains(&field), "the Certificate's commonName");
    crds.replacen(
        &field,
        &format!("{key}                  maxLength: 64\n{description}"),
        1,
    )
}

const LONG_NAME: &str = "a-common-name-that-is-much-longer-than-sixty-four-characters.example.com";

fn certificate(name: &str, common_name: &str, duration: &str) -> String {
    format!(
        "apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: {name}
  namespace: shop
spec:
  secretName: {name}-tls
  commonName: {common_name}
  duration: {duration}
  issuerRef:
    name: letsencrypt
    kind: ClusterIssuer
"
    )
}

fn config_map(mode: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  mode: {mode}\n"
    )
}

/// A repository with two commits: the manifests as they were (valid under the old CRD,
/// which had no maxLength), then the pull request's changes.
fn repository(name: &str) -> Scratch {
    let repo = Scratch::new(name);
    git(repo.path(), &["init", "-q"]);
    repo.write("crds/cert-manager.crds.yaml", tightened_cert_manager_crds());
    repo.write(
        "deploy/unrelated.yaml",
        certificate("unrelated", LONG_NAME, "2160h"),
    );
    repo.write(
        "deploy/renamed.yaml",
        certificate("renamed", LONG_NAME, "2160h"),
    );
    repo.write("deploy/settings.yaml", config_map("production"));
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "stored objects"]);
    // An unrelated field changes: the too-long commonName is ratcheted.
    repo.write(
        "deploy/unrelated.yaml",
        certificate("unrelated", LONG_NAME, "4320h"),
    );
    // The offending field changes, to another too-long value: reported.
    let longer = format!("x{LONG_NAME}");
    repo.write(
        "deploy/renamed.yaml",
        certificate("renamed", &longer, "2160h"),
    );
    // A new file (absent at HEAD~1): a CREATE, so reported too.
    repo.write("deploy/new.yaml", certificate("new", LONG_NAME, "2160h"));
    // A built-in kind: UPDATE through the OpenAPI pipeline.
    repo.write("deploy/settings.yaml", config_map("[production]"));
    git(repo.path(), &["add", "."]);
    git(repo.path(), &["commit", "-q", "-m", "pull request"]);
    repo
}

#[test]
fn old_ref_takes_old_revisions_from_git_and_ratchets() {
    let repo = repository("ratchets");
    let run = kdv_in(
        repo.path(),
        &["validate", "--crd", "crds", "--old-ref", "HEAD~1", "deploy"],
    );
    insta::assert_snapshot!("old_ref_text", run.transcript());
    assert_eq!(run.code, 1);

    let run = kdv_in(
        repo.path(),
        &[
            "validate",
            "--crd",
            "crds",
            "--old-ref",
            "HEAD~1",
            "-o",
            "json",
            "deploy",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let summary: Vec<(String, String, serde_json::Value, bool)> = json["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap_or_default().to_string(),
                d["operation"].as_str().unwrap_or_default().to_string(),
                d["oldFile"].clone(),
                d["valid"].as_bool().unwrap_or_default(),
            )
        })
        .collect();
    let old = |f: &str| serde_json::Value::from(format!("HEAD~1:deploy/{f}"));
    assert_eq!(
        summary,
        [
            (
                "deploy/new.yaml".into(),
                "CREATE".into(),
                serde_json::Value::Null,
                false
            ),
            (
                "deploy/renamed.yaml".into(),
                "UPDATE".into(),
                old("renamed.yaml"),
                false
            ),
            (
                "deploy/settings.yaml".into(),
                "UPDATE".into(),
                old("settings.yaml"),
                false
            ),
            (
                "deploy/unrelated.yaml".into(),
                "UPDATE".into(),
                old("unrelated.yaml"),
                true
            ),
        ]
    );

    // Against the pull request's own revision nothing changed: everything is ratcheted,
    // and the new file is an UPDATE of itself.
    let run = kdv_in(
        repo.path(),
        &["validate", "--crd", "crds", "--old-ref", "HEAD", "deploy"],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());

    // A file named from another directory is found in its repository.
    let run = kdv_in(
        &root(),
        &[
            "validate",
            "--crd",
            &repo.path().join("crds").display().to_string(),
            "--old-ref",
            "HEAD~1",
            &repo
                .path()
                .join("deploy/unrelated.yaml")
                .display()
                .to_string(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
}

#[test]
fn old_ref_usage_errors() {
    let repo = repository("usage");
    let run = kdv_in(
        repo.path(),
        &["validate", "--old-ref", "no-such-branch", "deploy"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.starts_with(
            "error: --old-ref no-such-branch: no such commit in the git repository at "
        ),
        "{}",
        run.transcript()
    );

    let outside = Scratch::new("outside");
    outside.write("settings.yaml", config_map("production"));
    let run = kdv_in(
        outside.path(),
        &["validate", "--old-ref", "HEAD", "settings.yaml"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert_eq!(
        run.stderr,
        "error: --old-ref HEAD: settings.yaml is not inside a git work tree\n"
    );

    let run = kdv_in(repo.path(), &["validate", "--old-ref", "HEAD", "-"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("standard input (`-`) has none"),
        "{}",
        run.stderr
    );

    let run = kdv_in(
        repo.path(),
        &["validate", "--old-ref", "HEAD", "--old", "deploy", "deploy"],
    );
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("the argument '--old-ref <REV>' cannot be used with '--old <PATH>'"),
        "{}",
        run.stderr
    );
}
