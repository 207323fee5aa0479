//! Command line syntax (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Declarative validation for Kubernetes-style APIs: validate manifests against Kubernetes'
/// built-in kinds, CustomResourceDefinitions, OpenAPI documents or Go API types carrying
/// `+k8s:` tags, lint those tags, check CustomResourceDefinitions as the API server
/// checks their creation, print the tag catalog and explain the rules of a type or field.
#[derive(Debug, Parser)]
#[command(name = "kdv", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    /// What to do.
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate YAML/JSON manifests as the API server would: each document against the schema
    /// its apiVersion and kind select, among Go types (--types), CRDs (--crd), OpenAPI
    /// documents (--schema) and Kubernetes' built-in kinds (embedded).
    ///
    /// Exit status: 0 all documents valid, 1 some invalid, 2 usage or input error (unreadable
    /// or malformed file, unknown kind, broken types or schemas).
    Validate(ValidateArgs),
    /// Report tag misuse and parse errors in a Go package (--types), or what the API server
    /// says about creating CustomResourceDefinitions (--crd), with file:line:col.
    ///
    /// Exit status: 0 no errors (warnings only fail with --deny warnings), 1 errors, 2 the
    /// package or a CRD file cannot be read.
    Lint(LintArgs),
    /// Compile and evaluate a CEL expression as Kubernetes runs a CRD validation rule
    /// (Kubernetes' environment and libraries, `self`/`oldSelf` bound to documents, the
    /// per-call cost limit); prints the value, its type, the runtime cost and the static cost
    /// estimate.
    ///
    /// Exit status: 0 true (or a non-boolean value), 1 false or a runtime error, 2 the
    /// expression does not compile or an input cannot be read.
    Cel(CelArgs),
    /// Print the OpenAPI v3 schema that publishes a Go type's `+k8s:` rules (KEP-4153: value
    /// validations as OpenAPI keywords, the rest as `x-kubernetes-validations` CEL rules), or
    /// with --crd a whole CustomResourceDefinition for it. Rules a schema cannot carry
    /// (custom validation, options not fixed with --option, ...) are listed as warnings on
    /// stderr.
    ///
    /// Exit status: 0 printed, 2 the types cannot be loaded, have errors, or the type is
    /// unknown.
    Schema(SchemaArgs),
    /// Print the `+k8s:` tag catalog generated from kdv's registry (markdown, or
    /// validation-gen's `--docs` JSON with --format json), or with --types the effective
    /// rules of a package's types: per type and field, each rule in words with its tag and
    /// file:line.
    ///
    /// Exit status: 0 printed, 2 the types cannot be loaded or have errors.
    Docs(DocsArgs),
    /// Explain the effective rules of a type or field: of Go/Rust types with `+k8s:` tags
    /// (--types DIR|FILE.rs TYPE [FIELD.PATH]) or of a CRD's schema (--crd FILE|DIR KIND
    /// [FIELD.PATH]). Each rule with the tag or schema keyword and the file:line it comes
    /// from, its lifecycle (alpha, beta, stable), how it ratchets on update, and what a
    /// published schema carries for it. FIELD.PATH is a JSON path such as `spec.replicas`;
    /// list items and map values are `[*]` (or `[]`): `spec.ports[*].port`.
    ///
    /// Exit status: 0 printed, 2 unknown type, kind or field (with the nearest names),
    /// unreadable input, or types with errors.
    Explain(ExplainArgs),
    /// Print a shell completion script generated from these command definitions, for
    /// example `kdv completions bash > /etc/bash_completion.d/kdv`.
    ///
    /// Exit status: 0 printed.
    Completions(CompletionsArgs),
    /// Print kdv's man page (roff) generated from these command definitions, or with --dir
    /// write one page per command (`kdv.1`, `kdv-validate.1`, ...) into a directory.
    ///
    /// Exit status: 0 written, 2 the directory cannot be written.
    Man(ManArgs),
    /// Serve a validating admission webhook: AdmissionReviews (v1, v1beta1) POSTed to
    /// /validate are answered with the verdicts `kdv validate` gives, a denial in the shape
    /// the API server returns for an invalid object; /healthz, /readyz and /metrics on the
    /// same listener. Rules reload on SIGHUP and when their files change; SIGTERM drains and
    /// exits 0. Logs are JSON lines on stderr.
    ///
    /// Exit status: 0 after a graceful shutdown, 2 a usage error or unusable rules,
    /// certificate or address.
    Serve(ServeArgs),
    /// Language server: kdv's checks in the editor, over the Language Server Protocol on
    /// standard input and output.
    ///
    /// CRD files get `kdv lint --crd`'s findings, their CEL rules' parse and type errors at
    /// the offending token inside the rule, hover (the type of `self`, the estimated cost and
    /// its share of the budget) and completion of `self.` fields; manifests get `kdv
    /// validate`'s findings (built-in kinds of the release, CRDs of the workspace, unknown
    /// fields); Go and Rust files get `kdv lint`'s findings for their `+k8s:` tags, hover
    /// on a tag (its catalog entry) and completion of tag names. Settings come from the
    /// client's `initializationOptions` (docs/editors.md).
    ///
    /// Exit status: 0 after the client's `shutdown` and `exit`, 1 an `exit` without
    /// `shutdown`, 2 a protocol error. With --check: 0 nothing found, 1 an error found, 2
    /// the file cannot be read.
    Lsp(LspArgs),
}

/// Arguments of `kdv lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Prints the diagnostics the server would publish for FILE (one per line,
    /// `FILE:LINE:COL: severity: message`, LSP's 0-based positions made 1-based) and exits,
    /// for scripts and bug reports.
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,
    /// The Kubernetes release whose built-in kinds and CEL environment are used (default:
    /// the newest embedded). The client's `initializationOptions.kubernetesVersion`
    /// overrides it.
    #[arg(long, value_name = "VERSION")]
    pub k8s_version: Option<String>,
    /// Folders searched for CRD files whose kinds manifests are validated against
    /// (repeatable; default: the workspace folders).
    #[arg(long = "crd-folder", value_name = "DIR")]
    pub crd_folders: Vec<PathBuf>,
    /// A Go package folder or Rust file whose kinds manifests are validated against, as
    /// `kdv validate --types`. The client's `initializationOptions.types` overrides it.
    #[arg(long, value_name = "DIR")]
    pub types: Option<PathBuf>,
}

/// Arguments of `kdv completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `kdv man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write `kdv.1` and one `kdv-COMMAND.1` per subcommand into this directory (created if
    /// missing) instead of printing kdv's page.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The command definitions as the binary parses them: [`Cli`] with the long version text
/// naming the embedded Kubernetes releases (`kdv --version`), so help, completions and man
/// pages all describe the same command.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    // clap's builder takes `&'static str` (its `string` feature is off): the text is built
    // once per process.
    static LONG_VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    Cli::command().long_version(LONG_VERSION.get_or_init(long_version).as_str())
}

/// `kdv --version`: the crate version, then the Kubernetes releases whose built-in kinds are
/// embedded and the default of `--k8s-version`.
pub fn long_version() -> String {
    format!(
        "{}\nembedded Kubernetes releases: {} (default --k8s-version {})",
        env!("CARGO_PKG_VERSION"),
        kdv_k8s_openapi::versions().join(", "),
        kdv_k8s_openapi::latest_version()
    )
}

/// Arguments of `kdv serve`.
#[derive(Debug, Args, Clone)]
pub struct ServeArgs {
    /// Where the rules come from and the release they follow, as for `kdv validate`.
    #[command(flatten)]
    pub rules: RulesArgs,

    /// A CRD not yet installed: each request of its kinds is also validated against it
    /// (with ratcheting on updates); what it would reject is reported as warnings
    /// (`candidate: ...`), in the metric kdv_candidate_rejections_total and in a log line.
    /// The live verdict is unaffected. Repeatable.
    #[arg(long = "candidate-crd", value_name = "FILE|DIR")]
    pub candidate_crds: Vec<PathBuf>,

    /// Address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8443")]
    pub listen: std::net::SocketAddr,

    /// PEM certificate chain (re-read when it changes).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// PEM private key (re-read when it changes).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Serve plain HTTP (no --tls-cert/--tls-key): for tests, and behind a mesh that
    /// terminates TLS. The API server calls webhooks over HTTPS only.
    #[arg(long, conflicts_with_all = ["tls_cert", "tls_key"])]
    pub insecure_http: bool,

    /// enforce: deny invalid objects; warn: allow them with each error as a warning; audit:
    /// allow them, with an audit annotation and a metric.
    #[arg(long, value_enum, default_value_t = ServeMode::Enforce)]
    pub mode: ServeMode,

    /// How a request kdv cannot judge (timeout, panic, rules not loaded) is answered.
    #[arg(long, value_enum, default_value_t = FailureModeArg::Allow)]
    pub failure_mode: FailureModeArg,

    /// Per-request deadline (`9s`, `500ms`), below the API server's webhook timeout (at most
    /// 10s).
    #[arg(long, value_name = "DURATION", default_value = "9s", value_parser = parse_duration)]
    pub timeout: std::time::Duration,

    /// Largest request body; suffixes as --max-size of `kdv validate`. Default 7Mi.
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub max_body: Option<usize>,

    /// Deny objects of kinds no rule source has (default: allow them, as a webhook that
    /// matches more kinds than it has rules for should).
    #[arg(long)]
    pub fail_unknown: bool,

    /// Also serve the playground: a page at /playground where a pasted manifest is judged
    /// by these rules, each error at its line and column (no authentication: for local use
    /// or a trusted network, e.g. `kdv serve --insecure-http --playground`).
    #[arg(long)]
    pub playground: bool,

    /// Also serve /metrics, /healthz and /readyz over plain HTTP on this address (for a
    /// scraper or probes that do not speak the webhook's TLS); they stay on --listen too.
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<std::net::SocketAddr>,

    /// How often the rule files and the certificate are checked for changes.
    #[arg(long, value_name = "DURATION", default_value = "3s", value_parser = parse_duration, hide = true)]
    pub poll_interval: std::time::Duration,
}

/// `--mode` of `kdv serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ServeMode {
    /// Deny.
    Enforce,
    /// Allow with warnings.
    Warn,
    /// Allow with audit annotations.
    Audit,
}

/// `--failure-mode` of `kdv serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailureModeArg {
    /// Allow, with a warning.
    Allow,
    /// Deny.
    Deny,
}

/// `9s`, `500ms`, `2m`, or seconds without a unit.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (e.g. 9s, 500ms)"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" => value,
        "m" => value * 60.0,
        _ => return Err(format!("{text:?}: unit must be ms, s or m")),
    };
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 3600.0 {
        return Err(format!("{text:?}: must be more than 0 and at most 1h"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Arguments of `kdv docs`.
#[derive(Debug, Args)]
pub struct DocsArgs {
    /// Output format: markdown (the catalog, docs/tags.md), or json (validation-gen's
    /// `--docs` output shape; with --types, one JSON document of the rules).
    #[arg(long, short = 'o', alias = "output", value_enum, default_value_t = DocsFormat::Markdown)]
    pub format: DocsFormat,

    /// Document the effective rules of this Go package (directory) or Rust file instead of
    /// the tag catalog.
    #[arg(long, value_name = "DIR|FILE.rs")]
    pub types: Option<PathBuf>,

    /// With --types: which types are roots (their type-level rules are not ratcheted).
    #[arg(long, value_enum, value_name = "SELECTION", default_value_t = RootsArg::Package, requires = "types")]
    pub roots: RootsArg,
}

/// `kdv docs --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocsFormat {
    /// Markdown.
    Markdown,
    /// JSON.
    Json,
}

/// Arguments of `kdv explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Directory of a Go package, or a Rust file, whose `+k8s:` tags define TYPE. Without
    /// --types and --crd, KIND is a built-in kind of the release (--k8s-version): its
    /// published OpenAPI checks and its declarative rules.
    #[arg(long, value_name = "DIR|FILE.rs", conflicts_with = "crds")]
    pub types: Option<PathBuf>,

    /// CustomResourceDefinitions (YAML or JSON; a directory is searched recursively for
    /// *.yaml, *.yml, *.json) among which KIND is looked up. Repeatable.
    #[arg(long = "crd", value_name = "FILE|DIR")]
    pub crds: Vec<PathBuf>,

    /// With --crd: the version of the kind whose schema is explained (default: the storage
    /// version); for a built-in kind, its apiVersion (`apps/v1`, `v1`; default: the group's
    /// preferred version).
    #[arg(long = "api-version", value_name = "VERSION", conflicts_with = "types")]
    pub api_version: Option<String>,

    /// For a built-in kind: the Kubernetes release (1.N; default: the newest embedded).
    #[arg(long, value_name = "1.N", conflicts_with_all = ["types", "crds"])]
    pub k8s_version: Option<String>,

    /// With --types: which types are roots (their type-level rules are not ratcheted).
    #[arg(long, value_enum, value_name = "SELECTION", default_value_t = RootsArg::Package, conflicts_with = "crds")]
    pub roots: RootsArg,

    /// The type (--types: a name the package declares, or `pkg/path.Name`) or the kind
    /// (--crd: `Kind`, or `Kind.group`).
    #[arg(value_name = "TYPE|KIND")]
    pub name: String,

    /// A field below it: a JSON path such as `spec.replicas`, `spec.ports[*].port` (`[]`
    /// works as `[*]`).
    #[arg(value_name = "FIELD.PATH")]
    pub path: Option<String>,

    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = ExplainFormat::Text)]
    pub output: ExplainFormat,
}

/// Output format of `kdv explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// The subject, then each rule: source and file:line:col, then its rule, lifecycle,
    /// ratcheting and what is published, one per line.
    Text,
    /// One JSON object: `subject`, `value_type`, `rules` (each with `path`, `source`,
    /// `location` (null when unknown), `rule`, `lifecycle`, `ratcheting`, `published`).
    Json,
}

/// Arguments of `kdv schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Directory of the Go package.
    #[arg(long, value_name = "DIR")]
    pub types: PathBuf,

    /// The type: a name the package declares, or `pkg/path.Name`.
    #[arg(value_name = "TYPE")]
    pub type_name: String,

    /// Print a CustomResourceDefinition (apiextensions.k8s.io/v1) for the type: group from
    /// the package's +groupName, version from the package, plural = lowercase kind + s.
    #[arg(long)]
    pub crd: bool,

    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = SchemaFormat::Json)]
    pub output: SchemaFormat,

    /// Fix a validation option for the schema: rules under `+k8s:ifEnabled(NAME)` /
    /// `+k8s:ifDisabled(NAME)` and enum exclusions are published as they apply with that
    /// value (`NAME` enabled, `NAME=false`); rules under options not given are left out and
    /// listed. Repeatable.
    #[arg(long = "option", value_name = "NAME[=true|false]", value_parser = parse_option)]
    pub options: Vec<(String, bool)>,

    /// Publish the rules as they apply to requests for this subresource (`status`,
    /// `/resize`; `/` is the main resource): fixes `+k8s:ifSubresource` /
    /// `+k8s:ifNotSubresource` (kdv extensions), whose rules are otherwise left out and
    /// listed.
    #[arg(long, value_name = "PATH", value_parser = parse_subresource_path)]
    pub subresource: Option<String>,

    /// With --crd: the API group (default: the package's +groupName).
    #[arg(long, requires = "crd")]
    pub group: Option<String>,

    /// With --crd: the version (default: the package's name, e.g. v1).
    #[arg(long = "api-version", value_name = "VERSION", requires = "crd")]
    pub api_version: Option<String>,

    /// With --crd: the plural resource name (default: lowercase kind + s).
    #[arg(long, requires = "crd")]
    pub plural: Option<String>,

    /// With --crd: a cluster-scoped resource (default: namespaced).
    #[arg(long, requires = "crd")]
    pub cluster_scoped: bool,

    /// With --crd: enable the status subresource (when the type has a status field).
    #[arg(long, requires = "crd")]
    pub status_subresource: bool,

    /// Which types of the package are root types (only the group name is taken from them).
    #[arg(long, value_enum, value_name = "SELECTION", default_value_t = RootsArg::Package)]
    pub roots: RootsArg,
}

/// `kdv schema --output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaFormat {
    /// JSON, indented.
    Json,
    /// YAML (block style, strings double-quoted).
    Yaml,
}

/// Arguments of `kdv cel`.
#[derive(Debug, Args)]
pub struct CelArgs {
    /// The expression, e.g. `self.replicas <= self.maxReplicas`.
    pub expression: String,

    /// YAML or JSON file whose first document is `self` (`-` for standard input).
    #[arg(long = "self", value_name = "FILE")]
    pub self_file: Option<String>,

    /// YAML or JSON file whose first document is `oldSelf` (transition rules).
    #[arg(long = "old-self", value_name = "FILE")]
    pub old_self: Option<String>,

    /// Runtime cost limit of the evaluation (Kubernetes' per-call limit by default).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    pub cost_limit: u64,

    /// The Kubernetes release (1.N) whose CEL environment compiles the expression: which
    /// libraries, macros and settings it has (default: the newest release modelled).
    #[arg(long, value_name = "VERSION")]
    pub k8s_version: Option<String>,

    /// Which of the release's environments: `stored` (rules already in a CRD, as objects are
    /// validated) or `new` (what a CRD create or update may add: the libraries of the release
    /// before).
    #[arg(long, value_enum, value_name = "TYPE", default_value_t = CelEnvArg::Stored)]
    pub env: CelEnvArg,

    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = CelOutput::Text)]
    pub output: CelOutput,
}

/// The CEL environment type of `kdv cel --env` (upstream's environment types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CelEnvArg {
    /// StoredExpressions: every library of the release.
    Stored,
    /// NewExpressions: the libraries of the release's compatibility version (the release
    /// before).
    New,
}

/// Output format of `kdv cel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CelOutput {
    /// The value, its type and the costs, one per line.
    Text,
    /// One JSON object, also when the expression does not compile or an input is unreadable.
    Json,
}

/// Output format of `kdv validate` and `kdv lint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// One line per error (`<file>:<line>:<col>: <error>`; lint: each finding
    /// with a caret); input errors, warnings and the summary on stderr.
    Text,
    /// One JSON object on stdout, also when the run fails (`error` is set then).
    Json,
    /// A SARIF 2.1.0 log on stdout, for code-scanning annotations.
    Sarif,
}

/// The rule sources and the release, shared by `kdv validate` and `kdv serve`.
#[derive(Debug, Args, Clone)]
pub struct RulesArgs {
    /// Directory of a Go package that declares types with `+k8s:` tags (`types.go`,
    /// `doc.go`), or a Rust file of such types (as `#[derive(Validate)]` reads it; its
    /// version is the file's name, e.g. `v1.rs`); its kinds are chosen first. Without
    /// --types and --schema, Kubernetes' built-in kinds are a source (embedded; see
    /// --k8s-version).
    #[arg(long, value_name = "DIR")]
    pub types: Option<PathBuf>,

    /// CustomResourceDefinitions (YAML or JSON; a directory is searched recursively for
    /// *.yaml, *.yml, *.json; for `kdv validate`, `-` reads standard input unless the
    /// manifests do); documents that are not CRDs are ignored. Repeatable. Every version a
    /// CRD lists is a source, after the --types kinds.
    #[arg(long = "crd", value_name = "FILE|DIR")]
    pub crds: Vec<PathBuf>,

    /// Directory of OpenAPI v3 documents laid out as the API server serves them under
    /// /openapi/v3: `api/v1.json`, `apis/<group>/<version>.json` (what `kubectl get --raw
    /// /openapi/v3/apis/apps/v1` prints). A source after the CRDs; replaces the built-in
    /// kinds unless --k8s-version is given.
    #[arg(long, value_name = "DIR")]
    pub schema: Option<PathBuf>,

    /// The Kubernetes release everything release-specific follows (1.N, one of the embedded
    /// releases; default: the newest): the built-in kinds (its OpenAPI documents and its
    /// kubernetes/api declarative `+k8s:` rules), the feature gates' defaults and stages, the
    /// CEL environment of CRD rules. Giving it adds the built-in kinds also with --types or
    /// --schema.
    #[arg(long, value_name = "1.N")]
    pub k8s_version: Option<String>,

    /// The API server's name for --k8s-version: the release whose rules, gates and kinds
    /// apply (the same knob; giving both with different releases is an error).
    #[arg(long, value_name = "1.N")]
    pub emulated_version: Option<String>,

    /// Which types of the --types package are root types (kinds a document's apiVersion and
    /// kind select): as its doc.go says, every type with TypeMeta, or every type.
    #[arg(long, value_enum, value_name = "SELECTION", default_value_t = RootsArg::Package, requires = "types")]
    pub roots: RootsArg,

    /// Define a validation option of the declarative rules (`+k8s:ifEnabled`/`+k8s:ifDisabled`
    /// and enum exclusions): `NAME` (enabled) or `NAME=false`. Repeatable. An option that is
    /// not given takes the value of the feature gate of that name at the release
    /// (--feature-gates, else its default); an option that is neither is disabled, with a
    /// warning.
    #[arg(long = "option", value_name = "NAME[=true|false]", value_parser = parse_option)]
    pub options: Vec<(String, bool)>,

    /// Feature gates, as the API server's --feature-gates (`NAME=BOOL,...`; every gate of the
    /// release, at its defaults and stages). They decide which declarative rules are
    /// enforced as that release's server enforces them — 1.33-1.35: `DeclarativeValidation`
    /// (off: no declarative errors), `DeclarativeValidationTakeover` (on: every declarative
    /// error is enforced); from 1.36: `DeclarativeValidationBeta` (`+k8s:beta` rules);
    /// `+k8s:alpha` rules are shadowed — and the validation options named after gates.
    /// Errors of shadowed declarative rules are printed as warnings, not errors.
    #[arg(long, value_name = "NAME=BOOL,...")]
    pub feature_gates: Option<String>,
}

/// Arguments of `kdv validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Where the rules come from and the release they follow.
    #[command(flatten)]
    pub rules: RulesArgs,

    /// Validate every document as this Go type (`Name` or `pkg/path.Name`) instead of
    /// choosing its schema by apiVersion and kind. A bare `Name` is the type the package in
    /// --types declares; `pkg/path.Name` names a type of any loaded package.
    #[arg(long = "type", value_name = "NAME", requires = "types")]
    pub type_name: Option<String>,

    /// Validate as UPDATEs: each document against the old object with the same identity
    /// (apiVersion group, kind, namespace, name) among the documents of this file, directory
    /// or `-`; a document with none is a CREATE.
    #[arg(long, value_name = "PATH", conflicts_with = "old_ref")]
    pub old: Option<String>,

    /// Validate as UPDATEs against git revision REV (a commit, branch, tag, `HEAD~1`): each
    /// document against the object with the same identity in its file at REV (`git show
    /// REV:<path>`); a file or object absent at REV is a CREATE. Needs the PATHs inside git
    /// work trees and `git` on the PATH.
    #[arg(long, value_name = "REV")]
    pub old_ref: Option<String>,

    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,

    /// Validate a request to this subresource (`status`, `scale`; `/status` alike) instead of
    /// the main resource: an UPDATE (with --old or --old-ref), as the API server handles it.
    #[arg(long, value_name = "PATH")]
    pub subresource: Option<String>,

    /// What to do with fields the schema does not have (misspelled or unknown keys): report
    /// them as errors of their document, as the API server's strict field validation does
    /// (`error`), print them as warnings (`warn`), or skip the check (`ignore`).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = UnknownFields::Error)]
    pub unknown_fields: UnknownFields,

    /// Largest document accepted, in bytes; suffixes Ki, Mi, Gi (KiB, MiB, GiB) and k, M, G
    /// (KB, MB, GB). Default: 3Mi, the API server's request body limit. A file or stream
    /// is read up to 256Mi (or this size, if larger).
    #[arg(long, value_name = "BYTES", value_parser = parse_size)]
    pub max_size: Option<usize>,

    /// Validate up to N files at a time (default: the number of cores). Output is in input
    /// order whatever N is.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub jobs: Option<u32>,

    /// Print no summary, no warnings and no progress bar on stderr; errors are still
    /// printed.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Manifest files or directories (searched recursively for *.yaml, *.yml, *.json);
    /// `-` reads standard input. `x.old.yaml` next to `x.yaml` makes `x` an UPDATE.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

/// `--unknown-fields`: how fields the types do not declare are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum UnknownFields {
    /// An error of the document (it is invalid), as the API server's strict validation.
    Error,
    /// A warning on standard error (and in JSON output); the document may still be valid.
    Warn,
    /// Not checked.
    Ignore,
}

/// Arguments of `kdv lint`.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Directory of the Go package to lint. Repeatable: with several versions of one API
    /// group (`--types a/v1 --types a/v1beta1`, the same `+groupName`), a field whose
    /// validation tags differ between versions is reported at each (version drift; mark an
    /// intended difference with `+kdv:allow-drift` on the field or its type).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "crds",
        conflicts_with = "crds"
    )]
    pub types: Vec<PathBuf>,

    /// CustomResourceDefinitions to check as the API server checks their creation (YAML or
    /// JSON; a directory is searched recursively for *.yaml, *.yml, *.json; `-` reads
    /// standard input); documents that are not CRDs are ignored. Repeatable.
    #[arg(long = "crd", value_name = "FILE|DIR")]
    pub crds: Vec<PathBuf>,

    /// With --crd: the Kubernetes release whose CRD rules apply (1.N from 1.16; default: the
    /// newest embedded release, as every command's): which formats are recognized, the
    /// warnings of newer releases.
    #[arg(long, value_name = "VERSION", conflicts_with = "types")]
    pub k8s_version: Option<String>,

    /// Output format.
    #[arg(long, short = 'o', value_enum, default_value_t = OutputFormat::Text)]
    pub output: OutputFormat,

    /// Print no finding count on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Which types of the package are root types; upstream's lint rules check the root types
    /// and every type they reach.
    #[arg(long, value_enum, value_name = "SELECTION", default_value_t = RootsArg::Package)]
    pub roots: RootsArg,

    /// Fail (exit 1) on warnings too: `--deny warnings`.
    #[arg(long, value_enum, value_name = "LEVEL")]
    pub deny: Option<DenyArg>,

    /// With --types: the package is (or goes to) upstream Kubernetes: every kdv extension
    /// tag (`+k8s:pattern`, `+k8s:exclusiveMinimum`, `+k8s:ifSubresource`, ...), which
    /// upstream validation-gen does not have, is an error.
    #[arg(long, requires = "types")]
    pub upstream: bool,
}

/// `--roots`: which types of the --types package are roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RootsArg {
    /// As the package's doc.go selects them (`+k8s:validation-gen=...`); none when the
    /// package has no such tag or opts out with `=false`.
    Package,
    /// Every exported type with a `TypeMeta` field (not lists): every kind, as the API server
    /// selects the kinds of kubernetes/api packages (Kubernetes' internal packages say
    /// `+k8s:validation-gen=TypeMeta`).
    Typemeta,
    /// Every exported type (`+k8s:validation-gen=*`).
    All,
}

impl RootsArg {
    /// The compiler's root selection.
    pub fn roots(self) -> kdv_rules::Roots {
        match self {
            RootsArg::Package => kdv_rules::Roots::Package,
            RootsArg::Typemeta => kdv_rules::Roots::TypeMeta,
            RootsArg::All => kdv_rules::Roots::All,
        }
    }
}

/// `--deny`: which findings fail `kdv lint` besides errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    /// Warnings fail the lint too.
    Warnings,
}

/// `NAME` → (NAME, true); `NAME=true|false` → (NAME, value).
fn parse_option(text: &str) -> Result<(String, bool), String> {
    let (name, value) = match text.split_once('=') {
        None => (text, true),
        Some((name, "true")) => (name, true),
        Some((name, "false")) => (name, false),
        Some((_, other)) => {
            return Err(format!("option value must be true or false, not {other:?}"));
        }
    };
    if name.is_empty() {
        return Err("option name is empty".to_string());
    }
    Ok((name.to_string(), value))
}

/// `3145728`, `3Mi`, `3MiB`, `10M`, `512k` → bytes (binary suffixes as Kubernetes
/// quantities spell them, with or without a trailing `B`; decimal `k`/`K`, `M`, `G`).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let digits = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &text[digits.len()..];
    let factor: u64 = match suffix {
        "" | "B" => 1,
        "k" | "K" | "kB" | "KB" => 1_000,
        "M" | "MB" => 1_000_000,
        "G" | "GB" => 1_000_000_000,
        "Ki" | "KiB" => 1 << 10,
        "Mi" | "MiB" => 1 << 20,
        "Gi" | "GiB" => 1 << 30,
        _ => {
            return Err(format!(
                "unknown size suffix {suffix:?} (use Ki, Mi, Gi, k, M or G)"
            ));
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("expected a number of bytes such as 3145728 or 3Mi, not {text:?}"))?;
    let bytes = n
        .checked_mul(factor)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("{text} is too large"))?;
    if bytes == 0 {
        return Err("the size must be at least 1 byte".to_string());
    }
    Ok(bytes)
}

/// `status`, `/status`, `a/b` → path components; `/` or empty → the main resource.
/// Components must be names: not empty (`a//b`), `.` or `..`, and without `%`, `?`, `#`,
/// whitespace or control characters (a request path's segment, as the API server routes
/// subresources).
pub fn subresource_parts(path: &str) -> Result<Vec<String>, String> {
    if path.is_empty() || path == "/" {
        return Ok(Vec::new());
    }
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
    let mut parts = Vec::new();
    for part in trimmed.split('/') {
        let bad = part.is_empty()
            || part == "."
            || part == ".."
            || part.chars().any(|c| {
                c.is_whitespace() || c.is_control() || matches!(c, '%' | '?' | '#' | '\\')
            });
        if bad {
            return Err(format!(
                "--subresource {}: {} is not a subresource name (expected a path such as status, /status or /x/y)",
                quote_arg(path),
                kdv_runtime::gofmt::quote(part)
            ));
        }
        parts.push(part.to_string());
    }
    Ok(parts)
}

/// `status`, `/a/b/` → `/status`, `/a/b` (a path as `+k8s:ifSubresource` writes it).
fn parse_subresource_path(path: &str) -> Result<String, String> {
    let parts = subresource_parts(path)?;
    if parts.is_empty() {
        return Ok("/".to_string());
    }
    Ok(parts.iter().map(|p| format!("/{p}")).collect())
}

/// An argument as a user can read it back: Go-quoted when it holds anything unusual.
fn quote_arg(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'));
    if plain {
        arg.to_string()
    } else {
        kdv_runtime::gofmt::quote(arg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
        command().debug_assert();
    }

    #[test]
    fn options_parse() {
        assert_eq!(parse_option("Foo"), Ok(("Foo".into(), true)));
        assert_eq!(parse_option("Foo=true"), Ok(("Foo".into(), true)));
        assert_eq!(parse_option("Foo=false"), Ok(("Foo".into(), false)));
        assert!(parse_option("Foo=no").is_err());
        assert!(parse_option("=true").is_err());
        assert!(parse_option("").is_err());
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("3145728"), Ok(3 << 20));
        assert_eq!(parse_size("3Mi"), Ok(3 << 20));
        assert_eq!(parse_size("10MiB"), Ok(10 << 20));
        assert_eq!(parse_size("10M"), Ok(10_000_000));
        assert_eq!(parse_size("512k"), Ok(512_000));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("7B"), Ok(7));
        for bad in [
            "",
            "Mi",
            "3Xi",
            "-1",
            "1.5Mi",
            "0",
            "99999999999999999999Gi",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn subresources_split() {
        assert_eq!(subresource_parts("status"), Ok(vec!["status".to_string()]));
        assert_eq!(subresource_parts("/status"), Ok(vec!["status".to_string()]));
        assert_eq!(
            subresource_parts("/a/b/"),
            Ok(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(subresource_parts("/"), Ok(vec![]));
        assert_eq!(subresource_parts(""), Ok(vec![]));
    }

    #[test]
    fn item_15_subresource_paths_must_be_names() {
        for bad in [
            "../../x", "a//b", "./status", "st atus", "a%2fb", "x\ty", "//",
        ] {
            let e = subresource_parts(bad).expect_err(bad);
            assert!(e.starts_with("--subresource "), "{e}");
        }
        assert_eq!(
            subresource_parts("../../x").unwrap_err(),
            "--subresource ../../x: \"..\" is not a subresource name (expected a path such as status, /status or /x/y)"
        );
    }

    #[test]
    fn validate_arguments() {
        let cli = Cli::try_parse_from([
            "kdv", "validate", "--types", "api", "--option", "A", "--option", "B=false", "-o",
            "json", "x.yaml", "-",
        ])
        .unwrap();
        let Command::Validate(args) = cli.command else {
            panic!("expected validate")
        };
        assert_eq!(
            args.rules.options,
            vec![("A".into(), true), ("B".into(), false)]
        );
        assert_eq!(args.output, OutputFormat::Json);
        assert_eq!(args.paths, vec!["x.yaml", "-"]);
        assert_eq!(args.jobs, None);
        assert!(!args.quiet);
        assert!(Cli::try_parse_from(["kdv", "validate", "--types", "api"]).is_err());
        assert!(Cli::try_parse_from(["kdv", "validate"]).is_err());
    }

    fn validate_args(extra: &[&str]) -> Result<ValidateArgs, clap::Error> {
        let mut argv = vec!["kdv", "validate", "--types", "api"];
        argv.extend_from_slice(extra);
        argv.push("x.yaml");
        Cli::try_parse_from(argv).map(|cli| match cli.command {
            Command::Validate(args) => args,
            _ => unreachable!("parsed as validate"),
        })
    }

    #[test]
    fn item_20_sarif_output_flag() {
        let args = validate_args(&["-o", "sarif"]).unwrap();
        assert_eq!(args.output, OutputFormat::Sarif);
        let cli = Cli::try_parse_from(["kdv", "lint", "--types", "api", "--output", "sarif"]);
        assert!(
            matches!(cli.unwrap().command, Command::Lint(a) if a.output == OutputFormat::Sarif)
        );
        // kdv cel has no SARIF form.
        assert!(Cli::try_parse_from(["kdv", "cel", "1", "-o", "sarif"]).is_err());
    }

    #[test]
    fn item_19_lint_has_json_output() {
        let cli = Cli::try_parse_from(["kdv", "lint", "--types", "api", "-o", "json"]).unwrap();
        assert!(matches!(cli.command, Command::Lint(a) if a.output == OutputFormat::Json));
    }

    #[test]
    fn lint_takes_types_or_crds() {
        let cli =
            Cli::try_parse_from(["kdv", "lint", "--crd", "a.yaml", "--crd", "crds/"]).unwrap();
        let Command::Lint(args) = cli.command else {
            panic!("expected lint")
        };
        assert_eq!(args.crds, [PathBuf::from("a.yaml"), PathBuf::from("crds/")]);
        assert!(args.types.is_empty());
        assert!(Cli::try_parse_from(["kdv", "lint"]).is_err());
        let cli = Cli::try_parse_from(["kdv", "lint", "--types", "a/v1", "--types", "a/v1beta1"])
            .unwrap();
        let Command::Lint(args) = cli.command else {
            panic!("expected lint")
        };
        assert_eq!(
            args.types,
            [PathBuf::from("a/v1"), PathBuf::from("a/v1beta1")]
        );
        assert!(Cli::try_parse_from(["kdv", "lint", "--types", "api", "--crd", "a.yaml"]).is_err());
        assert!(
            Cli::try_parse_from(["kdv", "lint", "--types", "api", "--k8s-version", "1.36"])
                .is_err()
        );
        assert!(
            Cli::try_parse_from(["kdv", "lint", "--crd", "a", "--k8s-version", "1.36"]).is_ok()
        );
    }

    #[test]
    fn item_21_quiet_flag() {
        assert!(validate_args(&["--quiet"]).unwrap().quiet);
        assert!(validate_args(&["-q"]).unwrap().quiet);
        let cli = Cli::try_parse_from(["kdv", "lint", "--types", "api", "-q"]).unwrap();
        assert!(matches!(cli.command, Command::Lint(a) if a.quiet));
    }

    #[test]
    fn schema_sources() {
        let cli = Cli::try_parse_from(["kdv", "validate", "deployment.yaml"]).unwrap();
        let Command::Validate(args) = cli.command else {
            panic!("expected validate")
        };
        assert_eq!(args.rules.types, None);
        assert!(args.rules.crds.is_empty());
        assert_eq!((args.rules.schema, args.rules.k8s_version), (None, None));
        let cli = Cli::try_parse_from([
            "kdv",
            "validate",
            "--crd",
            "a.yaml",
            "--crd",
            "crds/",
            "--schema",
            "openapi",
            "--k8s-version",
            "1.35",
            "x.yaml",
        ])
        .unwrap();
        let Command::Validate(args) = cli.command else {
            panic!("expected validate")
        };
        assert_eq!(
            args.rules.crds,
            [PathBuf::from("a.yaml"), PathBuf::from("crds/")]
        );
        assert_eq!(args.rules.schema, Some(PathBuf::from("openapi")));
        assert_eq!(args.rules.k8s_version.as_deref(), Some("1.35"));
        // The Go-type options need --types; options and subresources apply to every source.
        for extra in [["--option", "A"], ["--subresource", "status"]] {
            let mut argv = vec!["kdv", "validate"];
            argv.extend(extra);
            argv.push("x.yaml");
            assert!(Cli::try_parse_from(argv).is_ok(), "{extra:?}");
        }
        for extra in [["--type", "Widget"], ["--roots", "all"]] {
            let mut argv = vec!["kdv", "validate"];
            argv.extend(extra);
            argv.push("x.yaml");
            let e = Cli::try_parse_from(argv).unwrap_err();
            assert_eq!(
                e.kind(),
                clap::error::ErrorKind::MissingRequiredArgument,
                "{extra:?}"
            );
        }
    }

    #[test]
    fn docs_and_explain_arguments() {
        let cli = Cli::try_parse_from(["kdv", "docs", "--format", "json"]).unwrap();
        assert!(
            matches!(cli.command, Command::Docs(a) if a.format == DocsFormat::Json && a.types.is_none())
        );
        assert!(Cli::try_parse_from(["kdv", "docs", "--roots", "all"]).is_err());
        let cli = Cli::try_parse_from([
            "kdv", "explain", "--types", "api", "Widget", "spec.x", "-o", "json",
        ])
        .unwrap();
        let Command::Explain(args) = cli.command else {
            panic!("expected explain")
        };
        assert_eq!(args.name, "Widget");
        assert_eq!(args.path.as_deref(), Some("spec.x"));
        assert_eq!(args.output, ExplainFormat::Json);
        let cli = Cli::try_parse_from([
            "kdv",
            "explain",
            "--crd",
            "a.yaml",
            "--crd",
            "crds/",
            "Widget",
            "--api-version",
            "v2",
        ])
        .unwrap();
        let Command::Explain(args) = cli.command else {
            panic!("expected explain")
        };
        assert_eq!(args.crds.len(), 2);
        assert_eq!(args.api_version.as_deref(), Some("v2"));
        // One source: --types, --crd, or (neither) the release's built-in kinds;
        // --api-version not with --types.
        assert!(Cli::try_parse_from(["kdv", "explain", "Widget"]).is_ok());
        assert!(
            Cli::try_parse_from([
                "kdv",
                "explain",
                "--types",
                "a",
                "--k8s-version",
                "1.35",
                "W"
            ])
            .is_err()
        );
        assert!(
            Cli::try_parse_from(["kdv", "explain", "--types", "a", "--crd", "b", "W"]).is_err()
        );
        assert!(
            Cli::try_parse_from(["kdv", "explain", "--types", "a", "--api-version", "v1", "W"])
                .is_err()
        );
        assert!(
            Cli::try_parse_from(["kdv", "explain", "--crd", "a", "--roots", "all", "W"]).is_err()
        );
    }

    #[test]
    fn item_22_jobs_flag() {
        assert_eq!(validate_args(&["--jobs", "3"]).unwrap().jobs, Some(3));
        assert_eq!(validate_args(&["-j", "1"]).unwrap().jobs, Some(1));
        assert!(validate_args(&["-j", "0"]).is_err());
        assert!(validate_args(&["-j", "many"]).is_err());
    }
}
