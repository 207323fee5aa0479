//! Upstream's declarative-validation cases of built-in kinds, as manifests: each file of
//! `fixtures/builtin-cases/<release>/<resource>/` transcribes one case of a
//! `declarative_validation_test.go` of kubernetes/kubernetes (its README names them) and says
//! in its header what `kdv validate` prints for it with no flag but the release (and the
//! case's own `# args:`, such as `--subresource status`): `# error: <line>:<col>: ...`
//! lines on standard output, `# warning: ...` lines (shadowed declarative errors) on standard
//! error, in order. A case with an `x.old.yaml` sibling is an UPDATE. The files of one
//! release and one argument list run as one `kdv` process.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{kdv, root};

const DIR: &str = "crates/kdv-cli/tests/fixtures/builtin-cases";

/// One case: its file (from the repository root), extra arguments and expected lines.
#[derive(Debug, Default)]
struct Case {
    file: String,
    args: Vec<String>,
    errors: Vec<String>,
    warnings: Vec<String>,
}

/// Reads the expectations in a case's leading comment lines.
fn read_case(file: &str) -> Case {
    let text = std::fs::read_to_string(root().join(file)).expect("case file is readable");
    let mut case = Case {
        file: file.to_string(),
        ..Case::default()
    };
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        if let Some(args) = line.strip_prefix("# args: ") {
            case.args = args.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("# error: ") {
            case.errors.push(format!("{file}:{rest}"));
        } else if let Some(rest) = line.strip_prefix("# warning: ") {
            let (at, message) = rest.split_once(": ").unwrap_or((rest, ""));
            case.warnings
                .push(format!("{file}:{at}: warning: {message}"));
        }
    }
    case
}

/// Every case, by release, sorted by path.
fn cases() -> BTreeMap<String, Vec<Case>> {
    let mut by_release = BTreeMap::new();
    let base = root().join(DIR);
    for release in sorted_dirs(&base) {
        let mut cases = Vec::new();
        for resource in sorted_dirs(&base.join(&release)) {
            let dir = base.join(&release).join(&resource);
            let mut files: Vec<String> = std::fs::read_dir(&dir)
                .expect("resource directory")
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".yaml") && !n.ends_with(".old.yaml"))
                .collect();
            files.sort();
            for name in files {
                cases.push(read_case(&format!("{DIR}/{release}/{resource}/{name}")));
            }
        }
        by_release.insert(release, cases);
    }
    by_release
}

fn sorted_dirs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("directory")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn upstream_cases_of_built_in_kinds() {
    let all = cases();
    let resources: std::collections::BTreeSet<&str> = all
        .values()
        .flatten()
        .filter_map(|c| c.file.split('/').nth_back(1))
        .collect();
    assert!(resources.len() >= 10, "resources: {resources:?}");
    let default = kdv_k8s_openapi::latest_version();
    let mut failures = Vec::new();
    let mut total = 0;
    for (release, cases) in &all {
        assert!(
            kdv_k8s_openapi::versions().contains(&release.as_str()),
            "{release} is not an embedded release"
        );
        // One process per release and argument list.
        let mut groups: BTreeMap<&[String], Vec<&Case>> = BTreeMap::new();
        for case in cases {
            groups.entry(&case.args).or_default().push(case);
        }
        for (args, group) in groups {
            total += group.len();
            let mut argv: Vec<&str> = vec!["validate"];
            // Zero flags for the default release.
            if release != default {
                argv.extend(["--k8s-version", release]);
            }
            argv.extend(args.iter().map(String::as_str));
            argv.extend(group.iter().map(|c| c.file.as_str()));
            let run = kdv(&argv);
            let invalid = group.iter().filter(|c| !c.errors.is_empty()).count();
            let expected_code = i32::from(invalid > 0);
            if run.code != expected_code {
                failures.push(format!(
                    "{release} {args:?}: exit {} (expected {expected_code})\n{}",
                    run.code,
                    run.transcript()
                ));
            }
            let summary = format!(
                "{} document{}, {} valid, {invalid} invalid",
                group.len(),
                if group.len() == 1 { "" } else { "s" },
                group.len() - invalid
            );
            let mut stderr: Vec<&str> = run.stderr.lines().collect();
            if stderr.last() == Some(&summary.as_str()) {
                stderr.pop();
            } else {
                failures.push(format!("{release} {args:?}: no summary {summary:?}"));
            }
            for case in &group {
                let prefix = format!("{}:", case.file);
                let errors: Vec<&str> = run
                    .stdout
                    .lines()
                    .filter(|l| l.starts_with(&prefix))
                    .collect();
                // Every stderr line of the file: its warnings (an input error would differ).
                let warnings: Vec<&str> = stderr
                    .iter()
                    .copied()
                    .filter(|l| l.starts_with(&prefix))
                    .collect();
                if errors != case.errors || warnings != case.warnings {
                    failures.push(format!(
                        "{}:\n  expected errors {:#?}\n  got {errors:#?}\n  expected warnings {:#?}\n  got {warnings:#?}",
                        case.file, case.errors, case.warnings
                    ));
                }
            }
            // Nothing else: no line of a file outside the group, no run-wide warning.
            let files: Vec<String> = group.iter().map(|c| format!("{}:", c.file)).collect();
            let ours = |l: &str| files.iter().any(|f| l.starts_with(f.as_str()));
            for line in run.stdout.lines().chain(stderr.iter().copied()) {
                if !ours(line) {
                    failures.push(format!("{release} {args:?}: unexpected line {line:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
