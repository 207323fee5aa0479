use super::*;

#[test]
fn every_package_loads_and_every_group_version_compiles_cleanly() {
    assert!(!versions().is_empty());
    for version in versions() {
        for p in packages(version) {
            let package = p.load().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(package.path, p.import_path());
            // Only tag lines are kept, at their places.
            for f in &package.files {
                assert!(
                    f.text
                        .lines()
                        .all(|l| l.trim().is_empty() || l.trim_start().starts_with("//")),
                    "{}",
                    f.path.display()
                );
            }
        }
        let release = Release::new(version).expect("a release with rules");
        let mut kinds = 0;
        for gv in release.group_versions() {
            let universe = universe(version, gv).unwrap().unwrap();
            let compiled = kdv_rules::compile_with(
                &universe,
                &CompileOptions {
                    roots: Roots::TypeMeta,
                    package: Some(release.group(gv).unwrap().unwrap().package().to_string()),
                    lint: false,
                },
            );
            let errors: Vec<String> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.severity == kdv_model::Severity::Error)
                .map(ToString::to_string)
                .collect();
            assert!(errors.is_empty(), "{version} {gv}: {errors:#?}");
            kinds += compiled.rules.roots().count();
        }
        assert!(kinds > 100, "{version}: {kinds} kinds");
    }
}

#[test]
fn served_group_versions_are_those_of_the_openapi_documents() {
    for version in versions() {
        let release = Release::new(version).unwrap();
        let documents: Vec<&str> = kdv_k8s_openapi::documents(version)
            .map(|d| d.group_version())
            .collect();
        for gv in release.group_versions() {
            assert!(
                documents.contains(&gv),
                "{version}: {gv} has no OpenAPI document"
            );
        }
    }
}

#[test]
fn kinds_resolve_by_api_version() {
    let release = Release::new(latest_version()).unwrap();
    let deployment = release.kind("apps/v1", "Deployment").unwrap().unwrap();
    assert_eq!(
        deployment
            .rules()
            .type_rules(deployment.type_id())
            .qualified_name(),
        "k8s.io/api/apps/v1.Deployment"
    );
    assert!(release.kind("apps/v1", "Nope").unwrap().is_none());
    assert!(
        release
            .kind("apiextensions.k8s.io/v1", "CustomResourceDefinition")
            .unwrap()
            .is_none()
    );
    // Compiled once, shared.
    let again = release.kind("apps/v1", "StatefulSet").unwrap().unwrap();
    assert!(Arc::ptr_eq(deployment.group(), again.group()));
    assert!(Release::new("1.20").is_none());
}
