//! The deployment files of `kdv serve` (`deploy/`) and the image (`Dockerfile`): every
//! manifest validated by the built `kdv` (built-in kinds embedded, cert-manager's kinds from
//! its trimmed CRDs in `testdata/cert-manager/`), the example CRDs of the ConfigMap linted,
//! the files wired to each other (names, ports, mounts, certificate), and what can be checked
//! of the Dockerfile without a container runtime: the build command, the non-root user and
//! the entrypoint. The image itself is not built here (no container runtime on these
//! machines).

mod common;
use common::{kdv, root};
use kdv_test_support::Scratch;

use serde_json::Value;

const DEPLOY: &str = "deploy";

/// The YAML files of `deploy/`, sorted, as paths relative to the repository root.
fn deploy_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join(DEPLOY))
        .expect("deploy/ exists")
        .map(|e| {
            e.expect("directory entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name")
        })
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
        .collect();
    files.sort();
    files
}

/// Every YAML document of a `deploy/` file.
fn documents(file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join(DEPLOY).join(file)).expect("readable");
    serde_saphyr::from_multiple::<Value>(&text).expect("YAML")
}

/// The one document of `file` with this kind.
fn object(file: &str, kind: &str) -> Value {
    let mut found: Vec<Value> = documents(file)
        .into_iter()
        .filter(|d| d["kind"] == kind)
        .collect();
    assert_eq!(found.len(), 1, "one {kind} in {file}");
    found.remove(0)
}

#[test]
fn every_deploy_manifest_is_valid() {
    // kustomization.yaml is kustomize's build input, not an API object: no API server (and
    // no schema kdv has) validates it. It is checked here instead: it must list every other
    // file, so that what is validated is what `kubectl apply -k deploy/` applies.
    let kustomization = object("kustomization.yaml", "Kustomization");
    let mut listed: Vec<String> = kustomization["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .map(|r| r.as_str().expect("a file name").to_owned())
        .collect();
    listed.sort();
    let manifests: Vec<String> = deploy_files()
        .into_iter()
        .filter(|f| f != "kustomization.yaml")
        .collect();
    assert_eq!(
        listed, manifests,
        "kustomization.yaml lists every manifest of deploy/"
    );
    println!("skipped 1 file: deploy/kustomization.yaml (kustomize's input, not an API object)");

    let mut args = vec!["validate", "-o", "json", "--crd", "testdata/cert-manager"];
    let paths: Vec<String> = manifests.iter().map(|f| format!("{DEPLOY}/{f}")).collect();
    args.extend(paths.iter().map(String::as_str));
    let run = kdv(&args);
    let report: Value = serde_json::from_str(&run.stdout).expect("JSON output");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let summary = &report["summary"];
    assert_eq!(summary["invalid"], 0, "{}", run.stdout);
    assert_eq!(summary["inputErrors"], 0, "{}", run.stdout);
    let mut kinds: Vec<&str> = report["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| d["type"].as_str().expect("type"))
        .collect();
    kinds.sort_unstable();
    assert_eq!(
        kinds,
        [
            "admissionregistration.k8s.io/v1.ValidatingWebhookConfiguration",
            "apps/v1.Deployment",
            "cert-manager.io/v1.Certificate",
            "cert-manager.io/v1.Issuer",
            "policy/v1.PodDisruptionBudget",
            "v1.ConfigMap",
            "v1.Namespace",
            "v1.Service",
            "v1.ServiceAccount",
        ],
        "{}",
        run.stdout
    );
    assert_eq!(summary["documents"], 9);
    assert_eq!(summary["valid"], 9);
}

#[test]
fn the_crds_of_the_configmap_pass_lint() {
    let config_map = object("configmap-crds.yaml", "ConfigMap");
    let data = config_map["data"].as_object().expect("data");
    assert!(!data.is_empty());
    let scratch = Scratch::new("deploy-crds");
    let dir = scratch.path();
    for (key, text) in data {
        std::fs::write(dir.join(key), text.as_str().expect("text")).expect("written");
    }
    let run = kdv(&["lint", "--crd", dir.to_str().expect("UTF-8 path")]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stderr.contains(": 1 CRD, no findings"),
        "{}",
        run.transcript()
    );
}

/// The value after `flag` in a container's args.
fn flag<'a>(args: &'a [Value], flag: &str) -> &'a str {
    let at = args.iter().position(|a| a == flag);
    let at = at.unwrap_or_else(|| panic!("{flag} in the container's args"));
    args[at + 1].as_str().expect("a string")
}

#[test]
fn the_files_are_wired_to_each_other() {
    let namespace = object("namespace.yaml", "Namespace");
    let ns = namespace["metadata"]["name"].as_str().expect("name");
    let account = object("serviceaccount.yaml", "ServiceAccount");
    let deployment = object("deployment.yaml", "Deployment");
    let service = object("service.yaml", "Service");
    let pdb = object("pdb.yaml", "PodDisruptionBudget");
    let certificate = object("certificate.yaml", "Certificate");
    let issuer = object("certificate.yaml", "Issuer");
    let config_map = object("configmap-crds.yaml", "ConfigMap");
    let webhooks = object("webhook.yaml", "ValidatingWebhookConfiguration");
    for o in [
        &account,
        &deployment,
        &service,
        &pdb,
        &certificate,
        &issuer,
        &config_map,
    ] {
        assert_eq!(o["metadata"]["namespace"], ns, "{}", o["kind"]);
    }

    // The Deployment: two replicas, non-root, read-only, probes over HTTPS.
    let spec = &deployment["spec"];
    assert_eq!(spec["replicas"], 2);
    let pod = &spec["template"]["spec"];
    assert_eq!(pod["serviceAccountName"], account["metadata"]["name"]);
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    let labels = &spec["template"]["metadata"]["labels"];
    for (key, value) in spec["selector"]["matchLabels"]
        .as_object()
        .expect("selector")
    {
        assert_eq!(&labels[key], value);
        assert_eq!(&service["spec"]["selector"][key], value);
        assert_eq!(&pdb["spec"]["selector"]["matchLabels"][key], value);
    }
    assert_eq!(pdb["spec"]["minAvailable"], 1);
    let containers = pod["containers"].as_array().expect("containers");
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    let security = &c["securityContext"];
    assert_eq!(security["runAsUser"], 65532);
    assert_eq!(security["runAsGroup"], 65532);
    assert_eq!(security["runAsNonRoot"], true);
    assert_eq!(security["readOnlyRootFilesystem"], true);
    assert_eq!(security["allowPrivilegeEscalation"], false);
    assert_eq!(security["capabilities"]["drop"], serde_json::json!(["ALL"]));
    assert_eq!(security["seccompProfile"]["type"], "RuntimeDefault");
    for (probe, path) in [("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")] {
        assert_eq!(c[probe]["httpGet"]["path"], path);
        assert_eq!(c[probe]["httpGet"]["scheme"], "HTTPS");
        assert_eq!(c[probe]["httpGet"]["port"], "https");
    }
    assert!(c["resources"]["requests"]["cpu"].is_string());
    assert!(c["resources"]["requests"]["memory"].is_string());
    assert!(c["resources"]["limits"]["memory"].is_string());
    let port = &c["ports"][0];
    assert_eq!(
        (&port["name"], &port["containerPort"]),
        (&"https".into(), &8443.into())
    );

    // Its args name files under the read-only mounts of the certificate's secret and of the
    // CRD ConfigMap.
    let args = c["args"].as_array().expect("args");
    assert_eq!(args[0], "serve");
    assert!(flag(args, "--listen").ends_with(":8443"));
    let mount_of = |volume: &str| -> String {
        let mounts = c["volumeMounts"].as_array().expect("volumeMounts");
        let mount = mounts
            .iter()
            .find(|m| m["name"] == volume)
            .expect("mounted");
        assert_eq!(mount["readOnly"], true, "{volume} is mounted read-only");
        mount["mountPath"].as_str().expect("mountPath").to_owned()
    };
    let volume = |name: &str| -> Value {
        let volumes = pod["volumes"].as_array().expect("volumes");
        volumes
            .iter()
            .find(|v| v["name"] == name)
            .expect("volume")
            .clone()
    };
    let tls = mount_of("tls");
    assert_eq!(flag(args, "--tls-cert"), format!("{tls}/tls.crt"));
    assert_eq!(flag(args, "--tls-key"), format!("{tls}/tls.key"));
    assert_eq!(
        volume("tls")["secret"]["secretName"],
        certificate["spec"]["secretName"]
    );
    assert_eq!(flag(args, "--crd"), mount_of("crds"));
    assert_eq!(
        volume("crds")["configMap"]["name"],
        config_map["metadata"]["name"]
    );

    // The Service sends 443 to the container's port; the certificate names the Service.
    let service_port = &service["spec"]["ports"][0];
    assert_eq!(service_port["port"], 443);
    assert_eq!(service_port["targetPort"], "https");
    let svc = service["metadata"]["name"].as_str().expect("name");
    let dns_names = certificate["spec"]["dnsNames"]
        .as_array()
        .expect("dnsNames");
    assert!(dns_names.contains(&format!("{svc}.{ns}.svc").into()));
    assert_eq!(
        certificate["spec"]["issuerRef"]["name"],
        issuer["metadata"]["name"]
    );
    assert_eq!(certificate["spec"]["issuerRef"]["kind"], "Issuer");

    // The webhook: v1 reviews, no side effects, Ignore, Equivalent, 10 s, the Service's
    // /validate, the CA injected from the Certificate, and never for kube-system, its own
    // namespace or its own account.
    assert_eq!(webhooks["apiVersion"], "admissionregistration.k8s.io/v1");
    let inject = &webhooks["metadata"]["annotations"]["cert-manager.io/inject-ca-from"];
    assert_eq!(
        *inject,
        format!("{ns}/{}", certificate["metadata"]["name"].as_str().unwrap())
    );
    let hooks = webhooks["webhooks"].as_array().expect("webhooks");
    assert_eq!(hooks.len(), 1);
    let hook = &hooks[0];
    assert_eq!(hook["admissionReviewVersions"], serde_json::json!(["v1"]));
    assert_eq!(hook["sideEffects"], "None");
    assert_eq!(hook["failurePolicy"], "Ignore");
    assert_eq!(hook["matchPolicy"], "Equivalent");
    assert_eq!(hook["timeoutSeconds"], 10);
    let target = &hook["clientConfig"]["service"];
    assert_eq!(
        (&target["namespace"], &target["name"]),
        (&ns.into(), &svc.into())
    );
    assert_eq!(
        (&target["path"], &target["port"]),
        (&"/validate".into(), &443.into())
    );
    let conditions: Vec<&str> = hook["matchConditions"]
        .as_array()
        .expect("matchConditions")
        .iter()
        .map(|c| c["expression"].as_str().expect("expression"))
        .collect();
    let account_name = account["metadata"]["name"].as_str().expect("name");
    for expected in [
        r#"request.namespace != "kube-system""#.to_owned(),
        format!(r#"request.namespace != "{ns}""#),
        format!(r#"request.userInfo.username != "system:serviceaccount:{ns}:{account_name}""#),
    ] {
        assert!(
            conditions.contains(&expected.as_str()),
            "{expected} in {conditions:?}"
        );
    }
}

/// Whether this build of `kdv` has `kdv serve` (issue 23's webhook, built on its own branch).
fn has_serve() -> bool {
    let run = kdv(&["help", "serve"]);
    if run.code != 0 {
        println!("skipped: this kdv has no `serve` subcommand; its flags are not checked");
    }
    run.code == 0
}

/// `kdv serve ARGS --help`: clap rejects an unknown flag or a bad value met before `--help`,
/// so this checks the arguments without starting a server.
fn serve_accepts(args: &[&str]) {
    let mut with_help = args.to_vec();
    with_help.push("--help");
    let run = kdv(&with_help);
    assert_eq!(run.code, 0, "kdv {}: {}", args.join(" "), run.stderr);
}

#[test]
fn kdv_serve_accepts_the_deployments_and_the_images_arguments() {
    if !has_serve() {
        return;
    }
    let deployment = object("deployment.yaml", "Deployment");
    let args: Vec<&str> = deployment["spec"]["template"]["spec"]["containers"][0]["args"]
        .as_array()
        .expect("args")
        .iter()
        .map(|a| a.as_str().expect("a string"))
        .collect();
    serve_accepts(&args);
    let cmd = dockerfile()
        .into_iter()
        .rfind(|(op, _)| op == "CMD")
        .expect("CMD")
        .1;
    let cmd: Vec<String> = serde_json::from_str(&cmd).expect("exec form");
    serve_accepts(&cmd.iter().map(String::as_str).collect::<Vec<_>>());
}

/// The Dockerfile's instructions (continuation lines joined, comments dropped) as
/// (INSTRUCTION, arguments), in order.
fn dockerfile() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("Dockerfile")).expect("Dockerfile");
    let mut instructions = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || (current.is_empty() && trimmed.is_empty()) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(trimmed);
                let (op, rest) = current.split_once(char::is_whitespace).expect("arguments");
                instructions.push((op.to_ascii_uppercase(), rest.trim().to_owned()));
                current.clear();
            }
        }
    }
    instructions
}

#[test]
fn the_dockerfile_builds_kdv_and_runs_it_as_non_root() {
    println!("the image is not built: there is no container runtime on this machine");
    let instructions = dockerfile();
    let stages: Vec<usize> = (0..instructions.len())
        .filter(|&i| instructions[i].0 == "FROM")
        .collect();
    assert_eq!(stages.len(), 2, "a builder and a runtime stage");
    let (builder, runtime) = (&instructions[..stages[1]], &instructions[stages[1]..]);

    // The builder: the pinned Rust release, the release build of the CLI from the lock file.
    let from = &builder[0].1;
    assert!(from.starts_with("rust:1.95"), "{from}");
    let name = from.rsplit(' ').next().expect("stage name");
    assert!(from.to_ascii_lowercase().contains(" as "), "{from}");
    let builds: Vec<&String> = builder
        .iter()
        .filter(|(op, args)| op == "RUN" && args.contains("cargo build"))
        .map(|(_, args)| args)
        .collect();
    assert_eq!(builds.len(), 1);
    assert!(
        builds[0].contains("cargo build --release -p kdv-cli --locked"),
        "{}",
        builds[0]
    );
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        workspace.contains(r#"rust-version = "1.95""#),
        "the builder's Rust is the MSRV"
    );

    // The runtime: the binary copied from the builder, a non-root user, kdv as entrypoint,
    // `kdv serve` as default command.
    let copy = runtime
        .iter()
        .find(|(op, _)| op == "COPY")
        .expect("COPY")
        .1
        .clone();
    assert!(copy.starts_with(&format!("--from={name} ")), "{copy}");
    assert!(copy.ends_with(" /usr/local/bin/kdv"), "{copy}");
    let user = runtime
        .iter()
        .rev()
        .find(|(op, _)| op == "USER")
        .expect("USER");
    let (uid, gid) = user.1.split_once(':').expect("USER uid:gid");
    assert_eq!((uid, gid), ("65532", "65532"));
    let exec_form = |op: &str| -> Vec<String> {
        let args = &runtime.iter().find(|(o, _)| o == op).expect(op).1;
        serde_json::from_str(args).unwrap_or_else(|e| panic!("{op} in exec form: {e}"))
    };
    assert_eq!(exec_form("ENTRYPOINT"), ["/usr/local/bin/kdv"]);
    let cmd = exec_form("CMD");
    assert_eq!(cmd[0], "serve");
    // The default command listens where the Deployment's probes and Service look.
    let listen = cmd.iter().position(|a| a == "--listen").expect("--listen");
    assert!(cmd[listen + 1].ends_with(":8443"));
}

#[test]
fn the_build_context_keeps_what_the_build_reads() {
    let ignore = std::fs::read_to_string(root().join(".dockerignore")).expect(".dockerignore");
    let patterns: Vec<&str> = ignore
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // The workspace's manifests and members, and the data the build scripts embed.
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "crates/kdv-cli/src/main.rs",
        "crates/kdv-k8s-openapi/build.rs",
        "testdata/kubernetes-openapi/v1.35/api/v1.json",
        "testdata/kubernetes-api/v1.36",
        "benches/Cargo.toml",
        "examples/kube-operator/Cargo.toml",
    ] {
        assert!(root().join(needed).exists(), "{needed}");
        for p in &patterns {
            let p = p.trim_start_matches("**/");
            let excluded = needed == p || needed.starts_with(&format!("{p}/"));
            assert!(!excluded, ".dockerignore's {p} excludes {needed}");
        }
    }
}
