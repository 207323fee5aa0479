//! Packaging as the ecosystem expects it, exercised: `kdv completions` for every shell,
//! `kdv man` (one page, or one per command with --dir), `kdv --version` naming the embedded
//! Kubernetes releases, and the pre-commit hooks (`.pre-commit-hooks.yaml`) and GitHub Action
//! (`action.yml`) parsed and their commands run with the built `kdv` first on PATH.

mod common;
use common::{kdv, root};
use kdv_test_support::Scratch;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// PATH with the built `kdv`'s directory first, so the hooks and the action run it.
fn path_with_kdv() -> std::ffi::OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_kdv"));
    let mut dirs = vec![bin.parent().expect("binary directory").to_path_buf()];
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).expect("PATH")
}

/// `text` parsed as YAML.
fn yaml(file: &str) -> Value {
    let text = std::fs::read_to_string(root().join(file)).expect(file);
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = kdv(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        assert!(
            run.stdout.len() > 1000,
            "{shell}: {} bytes",
            run.stdout.len()
        );
        for word in ["kdv", "validate", "lint", "--crd", "completions"] {
            assert!(run.stdout.contains(word), "{shell} completes {word}");
        }
    }
    // bash is on every machine that runs these tests: the script must at least parse.
    let run = kdv(&["completions", "bash"]);
    let scratch = Scratch::new("bash");
    let dir = scratch.path();
    let script = dir.join("kdv.bash");
    std::fs::write(&script, &run.stdout).expect("written");
    let status = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .status()
        .expect("bash runs");
    assert!(status.success(), "bash -n accepts the completion script");

    let run = kdv(&["completions", "tcsh"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("possible values: bash, elvish, fish, powershell, zsh"),
        "{}",
        run.stderr
    );
}

#[test]
fn man_page_of_kdv() {
    let run = kdv(&["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        run.stdout
            .contains(&format!(".TH kdv 1  \"kdv {version}\"")),
        "{}",
        run.stdout
    );
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH DESCRIPTION",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
    ] {
        assert!(run.stdout.contains(section), "{section}");
    }
    assert!(
        run.stdout.contains("kdv\\-validate"),
        "the page lists the subcommands"
    );
}

#[test]
fn man_pages_of_every_command() {
    let scratch = Scratch::new("man");
    let dir = scratch.path();
    let out = dir.join("man1");
    let run = kdv(&["man", "--dir", out.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut pages: Vec<String> = std::fs::read_dir(&out)
        .expect("written")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .collect();
    pages.sort();
    let commands = [
        "cel",
        "completions",
        "docs",
        "explain",
        "lint",
        "lsp",
        "man",
        "schema",
        "serve",
        "validate",
    ];
    let mut expected: Vec<String> = commands.iter().map(|c| format!("kdv-{c}.1")).collect();
    expected.push("kdv.1".into());
    expected.sort();
    assert_eq!(pages, expected);
    let validate = std::fs::read_to_string(out.join("kdv-validate.1")).expect("page");
    assert!(
        validate.starts_with(".ie \\n(.g .ds Aq \\(aq"),
        "roff preamble"
    );
    assert!(validate.contains(".TH kdv-validate 1"), "{validate}");
    assert!(validate.contains("\\-\\-crd"), "options documented");

    // A path that cannot be a directory is an error naming it.
    let file = dir.join("file");
    std::fs::write(&file, "").expect("written");
    let run = kdv(&["man", "--dir", file.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("error: man --dir "),
        "{}",
        run.stderr
    );
}

#[test]
fn version_names_the_embedded_releases() {
    // The releases the build script embeds: testdata/kubernetes-openapi/v1.N.
    let mut minors: Vec<u32> = std::fs::read_dir(root().join("testdata/kubernetes-openapi"))
        .expect("data")
        .filter_map(|e| {
            let name = e.expect("entry").file_name().into_string().expect("UTF-8");
            name.strip_prefix("v1.").and_then(|m| m.parse().ok())
        })
        .collect();
    minors.sort_unstable();
    let releases: Vec<String> = minors.iter().map(|m| format!("1.{m}")).collect();
    let expected = format!(
        "kdv {}\nembedded Kubernetes releases: {} (default --k8s-version {})\n",
        env!("CARGO_PKG_VERSION"),
        releases.join(", "),
        releases.last().expect("a release")
    );
    let run = kdv(&["--version"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, expected);
    // Subcommands answer it too (with their name).
    let run = kdv(&["validate", "--version"]);
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout, expected.replacen("kdv ", "kdv-validate ", 1));
}

/// `entry` split into words as pre-commit splits it (POSIX shell quoting: `'...'`, `"..."`).
fn shell_words(entry: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = entry.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    w.push(q);
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => w.extend(chars.next()),
                        _ => w.push(q),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// A pre-commit hook of `.pre-commit-hooks.yaml`.
struct Hook {
    entry: Vec<String>,
    files: regex::Regex,
    exclude: regex::Regex,
}

impl Hook {
    fn find(id: &str) -> Hook {
        let hooks = yaml(".pre-commit-hooks.yaml");
        let hooks = hooks.as_array().expect("a list of hooks");
        let hook = hooks.iter().find(|h| h["id"] == id).expect(id);
        assert_eq!(hook["language"], "system", "{id}");
        assert!(
            hook["name"].is_string() && hook["description"].is_string(),
            "{id}"
        );
        let re = |key: &str| regex::Regex::new(hook[key].as_str().expect(key)).expect(key);
        Hook {
            entry: shell_words(hook["entry"].as_str().expect("entry")),
            files: re("files"),
            exclude: re("exclude"),
        }
    }

    /// The candidates pre-commit would pass to the hook (`files` matched, `exclude` not).
    fn select<'a>(&self, candidates: &[&'a str]) -> Vec<&'a str> {
        candidates
            .iter()
            .copied()
            .filter(|f| self.files.is_match(f) && !self.exclude.is_match(f))
            .collect()
    }

    /// Runs the hook in `dir` as pre-commit does: entry, then the user's `args`, then the
    /// files.
    fn run(&self, dir: &Path, args: &[&str], files: &[&str]) -> (i32, String) {
        let output = Command::new(&self.entry[0])
            .args(&self.entry[1..])
            .args(args)
            .args(files)
            .current_dir(dir)
            .env("PATH", path_with_kdv())
            .output()
            .expect("the hook runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        (output.status.code().unwrap_or(-1), text)
    }
}

#[test]
fn pre_commit_hooks_parse_and_list_them() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let ids: Vec<&str> = hooks
        .as_array()
        .expect("hooks")
        .iter()
        .map(|h| h["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["kdv-validate", "kdv-lint-crd"]);
}

#[test]
fn pre_commit_validate_hook() {
    let hook = Hook::find("kdv-validate");
    assert_eq!(hook.entry, ["kdv", "validate"]);
    // The files of a repository such as this one: manifests are selected, kustomize's and
    // pre-commit's own YAML and workflows are not.
    let candidates = [
        "deploy/certificate.yaml",
        "deploy/deployment.yaml",
        "deploy/kustomization.yaml",
        "deploy/webhook.yaml",
        ".pre-commit-hooks.yaml",
        ".github/workflows/ci.yml",
        "action.yml",
        "Dockerfile",
        "README.md",
        "crates/kdv-cli/tests/fixtures/manifests/malformed.json",
    ];
    let selected = hook.select(&candidates);
    assert_eq!(
        selected,
        [
            "deploy/certificate.yaml",
            "deploy/deployment.yaml",
            "deploy/webhook.yaml",
            "crates/kdv-cli/tests/fixtures/manifests/malformed.json",
        ]
    );
    let args = ["--crd", "testdata/cert-manager"];
    let (code, text) = hook.run(&root(), &args, &selected[..3]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("4 documents, 4 valid, 0 invalid"), "{text}");

    // An invalid manifest fails the hook with its position.
    let scratch = Scratch::new("validate-hook");
    let dir = scratch.path();
    std::fs::write(
        dir.join("service.yaml"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  prots: []\n",
    )
    .expect("written");
    let (code, text) = hook.run(dir, &[], &["service.yaml"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("service.yaml:6:3: unknown field \"spec.prots\""),
        "{text}"
    );
}

#[test]
fn pre_commit_lint_crd_hook() {
    let hook = Hook::find("kdv-lint-crd");
    // A kubebuilder layout: config/crd/bases/*.yaml are CRDs, the kustomize files beside
    // them are not.
    let scratch = Scratch::new("lint-crd-hook");
    let dir = scratch.path();
    let bases = dir.join("config/crd/bases");
    std::fs::create_dir_all(&bases).expect("directories");
    for crd in [
        "cert-manager.io_certificates.yaml",
        "cert-manager.io_issuers.yaml",
    ] {
        std::fs::copy(
            root().join("testdata/cert-manager").join(crd),
            bases.join(crd),
        )
        .expect("copied");
    }
    std::fs::copy(
        root().join("crates/kdv-cli/tests/fixtures/lint-crd/broken.yaml"),
        dir.join("config/crd/broken.yaml"),
    )
    .expect("copied");
    let candidates = [
        "config/crd/bases/cert-manager.io_certificates.yaml",
        "config/crd/bases/cert-manager.io_issuers.yaml",
        "config/crd/kustomization.yaml",
        "config/crd/broken.yaml",
        "config/samples/widget.yaml",
        "deploy/deployment.yaml",
    ];
    let selected = hook.select(&candidates);
    assert_eq!(selected, [candidates[0], candidates[1], candidates[3]]);

    let (code, text) = hook.run(dir, &[], &selected[..2]);
    assert_eq!(code, 0, "{text}");
    assert!(text.ends_with(": 2 CRDs, no findings\n"), "{text}");
    let (code, text) = hook.run(dir, &[], &selected);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("config/crd/broken.yaml:"), "{text}");
}

/// The action's steps.
fn action_steps() -> Vec<Value> {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    action["runs"]["steps"].as_array().expect("steps").clone()
}

fn step(steps: &[Value], name: &str) -> Value {
    steps
        .iter()
        .find(|s| s["name"] == name)
        .expect(name)
        .clone()
}

/// `${{ ... }}` expressions replaced as the runner would, from `context` (`inputs.paths`,
/// `github.action_path`, `steps.validate.outputs.exit-code`, ...).
fn expand(text: &str, context: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("}}").expect("closed expression") + start;
        let expr = rest[start + 3..end].trim();
        let value = context.get(expr);
        out.push_str(value.unwrap_or_else(|| panic!("unexpected expression {expr}")));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// Runs a `shell: bash` step's script from the repository root as the runner does (its `env`
/// expanded from `context`, GITHUB_OUTPUT and GITHUB_PATH files in `temp`), with the built
/// `kdv` first on PATH; returns the exit status and the outputs the step set.
fn run_step(
    step: &Value,
    context: &BTreeMap<String, String>,
    temp: &Path,
) -> (i32, BTreeMap<String, String>) {
    assert_eq!(step["shell"], "bash");
    let script = step["run"].as_str().expect("run");
    let outputs = temp.join("output");
    std::fs::write(&outputs, "").expect("GITHUB_OUTPUT");
    let mut command = Command::new("bash");
    command
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(root())
        .env("PATH", path_with_kdv())
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_PATH", temp.join("path"));
    for (key, value) in step["env"].as_object().into_iter().flatten() {
        command.env(key, expand(value.as_str().expect("env value"), context));
    }
    let code = command.status().expect("bash runs").code().unwrap_or(-1);
    let set = std::fs::read_to_string(&outputs).expect("GITHUB_OUTPUT");
    let set = set
        .lines()
        .map(|l| l.split_once('=').expect("name=value"))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    (code, set)
}

#[test]
fn github_action_definition() {
    let action = yaml("action.yml");
    let steps = action_steps();
    // No expression is pasted into a script (injection): inputs reach scripts as env.
    for s in &steps {
        if let Some(run) = s["run"].as_str() {
            assert!(!run.contains("${{"), "{}: {run}", s["name"]);
        }
    }
    let install = step(&steps, "Install kdv");
    let script = install["run"].as_str().expect("run");
    assert!(
        script.contains(r#"cargo install --locked --path "$KDV_SOURCE/crates/kdv-cli""#),
        "{script}"
    );
    assert_eq!(install["env"]["KDV_SOURCE"], "${{ github.action_path }}");
    assert!(root().join("crates/kdv-cli/Cargo.toml").exists());
    assert_eq!(install["if"], "inputs.install == 'cargo'");

    let upload = step(&steps, "Upload SARIF");
    let uses = upload["uses"].as_str().expect("uses");
    assert!(
        uses.starts_with("github/codeql-action/upload-sarif@v"),
        "{uses}"
    );
    assert_eq!(upload["with"]["sarif_file"], "${{ inputs.sarif-file }}");
    assert!(upload["if"].as_str().expect("if").contains("always()"));
    for input in [
        "paths",
        "args",
        "install",
        "sarif-file",
        "upload",
        "category",
        "fail-on-invalid",
    ] {
        assert!(
            action["inputs"][input]["description"].is_string(),
            "{input}"
        );
    }
}

#[test]
fn github_action_runs_kdv_and_writes_sarif() {
    let action = yaml("action.yml");
    let steps = action_steps();
    let validate = step(&steps, "Validate");
    let verdict = step(&steps, "Verdict");
    let scratch = Scratch::new("action");
    let temp = scratch.path();
    let mut context: BTreeMap<String, String> = action["inputs"]
        .as_object()
        .expect("inputs")
        .iter()
        .map(|(k, v)| {
            (
                format!("inputs.{k}"),
                v["default"].as_str().expect("default").to_owned(),
            )
        })
        .collect();
    context.insert("github.action_path".into(), root().display().to_string());
    context.insert("runner.temp".into(), temp.display().to_string());
    let sarif = temp.join("kdv.sarif");
    context.insert("inputs.sarif-file".into(), sarif.display().to_string());
    context.insert("inputs.args".into(), "--crd testdata/cert-manager".into());
    let read_sarif = || -> Value {
        serde_json::from_str(&std::fs::read_to_string(&sarif).expect("SARIF")).expect("JSON")
    };

    // Valid manifests: exit-code 0, a SARIF run without results, the verdict passes.
    let paths = "deploy/certificate.yaml deploy/webhook.yaml";
    context.insert("inputs.paths".into(), paths.into());
    let (code, outputs) = run_step(&validate, &context, temp);
    assert_eq!((code, &outputs["exit-code"][..]), (0, "0"));
    let log = read_sarif();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    context.insert(
        "steps.validate.outputs.exit-code".into(),
        outputs["exit-code"].clone(),
    );
    assert_eq!(run_step(&verdict, &context, temp).0, 0);

    // An invalid manifest: the step records exit-code 1, the SARIF log holds the error, the
    // verdict fails.
    let service = temp.join("service.yaml");
    std::fs::write(
        &service,
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  prots: []\n",
    )
    .expect("written");
    let paths = format!("deploy/pdb.yaml {}", service.display());
    context.insert("inputs.paths".into(), paths);
    let (code, outputs) = run_step(&validate, &context, temp);
    assert_eq!((code, &outputs["exit-code"][..]), (0, "1"));
    let log = read_sarif();
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{log}");
    let message = results[0]["message"]["text"].as_str().expect("message");
    assert!(message.contains("spec.prots"), "{message}");
    context.insert(
        "steps.validate.outputs.exit-code".into(),
        outputs["exit-code"].clone(),
    );
    assert_eq!(run_step(&verdict, &context, temp).0, 1);
    let _ = std::fs::remove_dir_all(temp);
}

#[test]
fn a_failed_write_is_an_output_error_not_a_panic() {
    // /dev/full fails every write (ENOSPC); it exists on Linux, where these tests run.
    let full = Path::new("/dev/full");
    if !full.exists() {
        println!("skipped: no /dev/full on this system");
        return;
    }
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["man"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_kdv"))
            .args(args)
            .stdout(std::fs::File::create(full).expect("/dev/full opens"))
            .output()
            .expect("kdv runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write output: "),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
