//! `kdv`: validate Kubernetes-style manifests as the API server would — against Kubernetes'
//! built-in kinds (embedded), CustomResourceDefinitions, OpenAPI documents, or Go API types
//! carrying `+k8s:` tags — lint those tags, check CRDs as the API server checks their
//! creation, document the tag catalog, and explain the rules of a type, field or CRD kind.
//! This crate does the product's terminal IO and reads its input files (manifests,
//! CRDs, OpenAPI documents, `kdv cel` documents); `kdv-go` reads the Go packages,
//! `kdv-openapi` turns CRDs and OpenAPI documents into schemas (and checks CRDs),
//! `kdv-k8s-openapi` holds the embedded ones.
//!
//! # Where schemas come from
//!
//! A document's `apiVersion` and `kind` pick its schema, looked up in this order
//! (`commands::sources`): the Go types of `--types` (or the Rust types of a `--types FILE.rs`,
//! read by `kdv-rust-model` as the derive reads them; a kind the package declares is theirs,
//! as a root or as an error saying how to select it; `--type` takes every document), the
//! CRDs of `--crd FILE|DIR`, the OpenAPI v3 documents of `--schema DIR` (`api/v1.json`,
//! `apis/<group>/<version>.json`), and Kubernetes' built-in kinds of `--k8s-version` (the
//! newest embedded release by default), which are a source when neither `--types` nor
//! `--schema` is given, or when `--k8s-version` is. A kind no source has is an input error
//! naming what was loaded (exit status 2). Each schema is compiled once, on first use, and
//! shared by the worker threads; an embedded or `--schema` document is decompressed and
//! parsed only when one of its kinds is needed. CRD, OpenAPI and built-in kinds go through
//! the API server's pipeline for a custom resource (`kdv_openapi::Resource::validate`),
//! CEL rules (`x-kubernetes-validations`) included: compiled once per kind and evaluated by
//! every worker.
//!
//! # How manifests are read
//!
//! Reading and parsing is `kdv-manifest`'s job; this crate finds the files, reads them with a
//! size cap and reports what it finds.
//!
//! - A PATH is a file, a directory (walked recursively for `*.yaml`, `*.yml`, `*.json` in
//!   sorted order, skipping hidden entries) or `-` for standard input. The walk takes
//!   regular files (symlinks to them included) and follows symlinks to directories, each
//!   directory once, at most 64 levels deep; a FIFO, device or socket found in a walk is an
//!   input error and is not opened. Named on the command line, a FIFO is read like `-`; a
//!   device or socket (`/dev/zero`) is an input error.
//! - `.json` files hold exactly one JSON value. Everything else, standard input included, is
//!   a YAML stream of documents separated by `---`; JSON is valid YAML, so a JSON document
//!   there is read too.
//! - Sizes: `--max-size` (default 3 MiB, the API server's request body limit) caps each
//!   document; a file or stream is read up to 256 MiB (or `--max-size`, if larger), a `.json`
//!   file up to `--max-size`. Larger is an input error; reads never go past the cap.
//! - Values are what the API server receives: scalars resolve as kubectl resolves them
//!   (sigs.k8s.io/yaml, YAML 1.1): unquoted `yes`/`no`/`on`/`off`/`y`/`n` (any of their
//!   usual capitalisations) are booleans and `0755` is octal; quote them to get strings.
//!   Unlike kubectl, mapping *keys* keep their spelling (`on:` is the key `"on"`). YAML
//!   floats are converted as `YAMLToJSON` writes them, so `5.0`, `1e1`, `-0.0` are the
//!   integers 5, 10, 0 (integer fields take them) while JSON `5.0` or `1e1` stay floats
//!   (integer fields reject them, as Go's decoder does; JSON `-0` is 0).
//! - A key given twice in one mapping or object is an error, as in kubectl's strict mode.
//! - Limits against hostile input: 128 levels of nesting, 10,000 aliases and 100,000 events
//!   copied or replayed for anchors per document (alias bombs), 100,000 documents per
//!   stream. Past them the document (or the rest of the stream) is an input error; nothing
//!   is silently cut.
//! - Documents are numbered by position in the stream, counting empty ones (`#2` is always
//!   the third document as written). Empty and `null` documents are skipped and counted in the
//!   summary. A document that cannot be read (malformed, a duplicate key, invalid UTF-8,
//!   too large) is an input error; the stream's other documents are still validated.
//! - Malformed input is reported as `file:line:col: error: message`; the other
//!   documents and files are still validated, and the exit status is 2. So is a directory
//!   with no manifests in it, and a run that found nothing to validate (empty files, empty
//!   standard input), which also prints a warning.
//!
//! # Output
//!
//! - `-o text` (default): one line per field error on stdout, `FILE:LINE:COL: error`:
//!   where the failing field is written (for a missing field, the object that lacks it; for
//!   an error about a map key, the key), then the error as Kubernetes prints it, at most 100
//!   a document; input errors (`FILE:LINE:COL: error: ...`), warnings
//!   (`FILE:LINE:COL: warning: ...`) and the summary on stderr: every line parses as
//!   `%f:%l:%c:%m`. Positions are found by walking a document's text again, only for documents
//!   with findings (`commands::check`). `-o json`: one JSON document on stdout for every run
//!   that got past argument parsing, failures included (`error` set, exit status unchanged);
//!   errors carry `line` and `column`. `-o sarif` (`validate`, `lint`): a SARIF 2.1.0 log for
//!   code scanning. See `output/`.
//! - Unknown fields (keys the schema does not declare) are reported as the API server's
//!   strict field validation reports them, `unknown field "spec.spce"`: by default as
//!   errors of their document, listed before its field errors (the document is invalid and
//!   validation still runs); `--unknown-fields=warn` prints them as warnings on stderr (in
//!   `-o json`, in the document's `warnings`); `--unknown-fields=ignore` skips the check.
//! - File names are printed as values are: a name with `#`, `:`, spaces, quotes or
//!   unprintable or non-UTF-8 bytes is Go-quoted in text (`"a b.yaml":3:5#0: ...`), exact in
//!   JSON, a percent-encoded URI in SARIF (`file_name`).
//! - Files are validated in parallel (`-j N`, default: all cores), output in input order.
//!   On a terminal, a run longer than a second shows a progress bar on stderr; `--quiet`
//!   drops the bar, the summary and warnings (errors stay).
//!
//! # Go types and updates
//!
//! - With `--types`, a document is validated as the root type named by its `apiVersion` and
//!   `kind`, or as `--type NAME` for all of them (a bare name is the `--types` package's own
//!   type). A kind no source has is an input error (exit status 2); when the package declares
//!   the kind but
//!   does not select it as a root (its `doc.go`, or an opt-out with
//!   `+k8s:validation-gen=false`), the error says so and how to select it: `--roots
//!   typemeta` (every type with `TypeMeta`, as the API server validates kubernetes/api
//!   kinds) or `--type`. Type selection lives in `commands::select`.
//! - `--subresource` is checked before manifests are read: its syntax, and that the type (or
//!   some root) has that subresource.
//! - UPDATEs (`commands::old`): `--old PATH` (a file, a directory or `-`) pairs each document
//!   with the old object of the same identity (apiVersion group, kind, namespace, name)
//!   found under PATH; `--old-ref REV` with the one in the same file at git revision REV
//!   (`git cat-file`; a PATH outside a git work tree or an unknown REV is a usage error). A
//!   document without an old object is a CREATE; several candidates are an input error; an
//!   old object in another version is not compared (CREATE, with a warning). Without those
//!   options, `x.old.yaml` next to `x.yaml` in a directory is the old revision of `x`, paired
//!   by position (same apiVersion and kind), and is not validated on its own; pairing by
//!   position needs every document: if one of either revision cannot be read, that pair of
//!   files is not validated. (Documents are otherwise validated one at a time as they are
//!   parsed, so memory holds one parsed document, plus the old objects.) CRD, OpenAPI and
//!   built-in kinds are updated with the API server's validation ratcheting.
//! - If the Go types have errors (`kdv lint` shows them), nothing is validated: rules would
//!   be missing silently. A `--crd` or `--schema` that cannot be read stops the run the same
//!   way, and so does a CRD the API server would not create (`kdv lint --crd` lists its
//!   errors where they are written).
//!
//! # `kdv schema`
//!
//! `kdv schema --types DIR TYPE [--crd] [-o json|yaml]` (`commands::schema`) prints the
//! OpenAPI v3 schema `kdv-schema` emits for a Go type's rules, or a whole
//! CustomResourceDefinition (`--crd`, with `--group`, `--api-version`, `--plural`,
//! `--cluster-scoped`, `--status-subresource`); rules a schema cannot carry are warnings on
//! stderr (`warning: FILE:LINE:COL: PATH: TAG: why`). `--option NAME[=false]` fixes an
//! option so its rules are published as they apply with that value.
//!
//! # `kdv docs` and `kdv explain`
//!
//! `kdv docs` (`commands::docs`) prints the tag catalog generated from `kdv_rules::catalog`
//! (markdown: `docs/tags.md`, kept fresh by `tests/docs.rs`; `--format json`: validation-gen's
//! `--docs` JSON shape); with `--types`, a package's rules per type and field.
//! `kdv explain --types DIR TYPE [FIELD.PATH]` (`commands::explain`) shows the effective rules
//! of a type or field from the rule IR: the tag and its `file:line:col` (the IR's spans), its
//! lifecycle (alpha/beta marks), its ratcheting, what `kdv-schema` publishes for it;
//! `--crd FILE|DIR KIND [FIELD.PATH]` (`commands::explain_crd`) the keywords and CEL rules of
//! a CRD's schema at the lines `kdv_manifest` locates. Paths are JSON paths, items `[*]`.
//! Unknown names are usage errors listing the nearest names (exit status 2).
//!
//! # `kdv lint --crd`
//!
//! `kdv lint --crd FILE|DIR...` (`commands::lint_crd`) checks CustomResourceDefinitions as
//! the API server checks their creation (`kdv_openapi::crd_validation`: decoding and strict
//! unknown fields, `ValidateCustomResourceDefinition`, the creation warnings), with the
//! server's messages at the file:line:col of the schema node, rendered as `kdv lint --types`
//! renders its findings (text, JSON, SARIF). Errors (unknown fields included) exit 1,
//! warnings only with `--deny warnings`, unreadable input 2. `--k8s-version 1.N` picks the
//! release of the CRD rules (default: the newest embedded release, as for every command). CEL
//! rules are compiled, their cost estimated and they are run on the schema's defaults as the API
//! server does.
//!
//! # `kdv completions`, `kdv man`, `kdv --version`
//!
//! `commands::packaging` generates shell completions (clap_complete) and man pages
//! (clap_mangen) from `cli::command()`, the definitions `main` parses with, which also
//! carry the long version text naming the embedded Kubernetes releases.
//!
//! # `kdv serve`
//!
//! `kdv serve` (`commands::serve`) is the validating admission webhook: `kdv-serve` is the
//! server and the AdmissionReview protocol; this crate loads the rules exactly as `kdv
//! validate` does and judges each request's object with `validate`'s checks. It runs on a
//! tokio runtime of its own, and logs JSON lines on stderr (so it is dispatched before
//! `run` locks stderr).
//!
//! # Layout
//!
//! - `cli`: the clap definitions (`cli::command()`); `main` dispatches to `commands/`.
//! - `commands/`: one module per command (`validate`, `lint`, `lint_crd`, `cel`, `schema`,
//!   `docs`, `explain` with `explain_types`, `explain_crd`, `explain_builtin` and the
//!   `Explanation` both build in `explanation`, `packaging`, `serve`, `lsp/`), and the steps they
//!   share: `release` (`--k8s-version`/`--emulated-version` and the gates: one release knob,
//!   decision 0063), `sources` (schema sources and their order, 0023; `SourceArgs`), `select`
//!   (Go roots and `--type`, `--roots`, `--subresource`), `check` (a document through
//!   `kdv-eval` or `kdv-openapi`, both for a built-in kind (0061), unknown fields, positions;
//!   errors of declarative rules the release and gates shadow are warnings, 0052), `options`
//!   (validation options from gates and `--option`, 0064), `old` (UPDATE pairing: `--old` read
//!   once before the jobs, `--old-ref` per file through one `git cat-file --batch` per
//!   repository behind a mutex the workers share, the revision resolved to a commit once;
//!   0072), `jobs` (the rayon runner, 0015, 0073), `custom` (the warning that
//!   `+k8s:customValidation` is skipped); `commands::for_each_crd_file` reads `--crd` paths
//!   for `kdv lint --crd` and `kdv explain --crd`.
//! - `input/`: the lazy walk (`Planner`, `plan`) and capped reads (`read`); `output/`: the report
//!   model and one writer per format (`text`, `json`, `sarif`, 0016) plus the progress bar;
//!   `file_name`: names in each format; `error`: `CliError` and exit statuses.
//! - `commands/lsp/` (decision 0146; editor set-up in `docs/editors.md`): `transport` (bounded
//!   framing), `text` (UTF-16 positions, incremental edits), `analysis` (a file's kind,
//!   diagnostics, hover and completion as pure functions of its text; `kdv lsp --check` prints
//!   them), `crd` (CEL errors inside rules, `self` types and costs), `tags` (the catalog in Go
//!   and Rust comments); one diagnostics worker publishes only current versions.
//! - `commands/serve.rs` loads the sources as `validate` does (`SourceArgs`, `Release`,
//!   `load_types`) and implements `kdv_serve::Judge` with `check::check_document` and
//!   `validate::check_resource_document` (`ResourceChecks`), decision 0091; it logs JSON lines
//!   with tracing-subscriber.
//!
//! The binary allocates with mimalloc (decision 0067). It does not contain the conformance
//! harness (`kdv-conformance`, decision 0010).

mod cli;
mod commands;
mod error;
mod file_name;
mod input;
mod output;

use std::io::Write;
use std::process::ExitCode;

use clap::FromArgMatches;

use crate::cli::{Cli, Command};

/// mimalloc as the allocator (decision, ARCHITECTURE.md): validating a manifest builds and
/// drops its JSON tree, and glibc's malloc and free were a fifth of the instructions.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
use crate::error::CliError;

/// Stack size of the thread that does the work: YAML deserialisation and validation recurse
/// once per nesting level (both bounded), and debug builds use large frames.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

fn main() -> ExitCode {
    let parsed = cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap: 0 for --help/--version, 2 for usage errors.
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let worker = std::thread::Builder::new()
        .name("kdv".into())
        .stack_size(WORKER_STACK_BYTES)
        .spawn(move || run(&cli));
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(CliError::Usage(
                "internal error: the validation thread panicked".into(),
            ))
        }),
        Err(e) => Err(CliError::Output(e)),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // Output cut short by a closed pipe (`kdv ... | head`) is not worth a message.
        Err(CliError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(2),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: &Cli) -> Result<u8, CliError> {
    // The server logs from many threads: it must not find stderr locked by this one.
    if let Command::Serve(args) = &cli.command {
        return commands::serve::run(args);
    }
    // The language server owns standard input and output.
    if let Command::Lsp(args) = &cli.command {
        return commands::lsp::run(args);
    }
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
    let code = match &cli.command {
        Command::Validate(args) => commands::validate::run(args, &mut out, &mut err),
        Command::Lint(args) => commands::lint::run(args, &mut out, &mut err),
        Command::Cel(args) => commands::cel::run(args, &mut out, &mut err),
        Command::Schema(args) => commands::schema::run(args, &mut out, &mut err),
        Command::Docs(args) => commands::docs::run(args, &mut out, &mut err),
        Command::Explain(args) => commands::explain::run(args, &mut out, &mut err),
        Command::Completions(args) => commands::packaging::completions(args, &mut out),
        Command::Man(args) => commands::packaging::man(args, &mut out),
        Command::Serve(args) => commands::serve::run(args),
        Command::Lsp(args) => commands::lsp::run(args),
    };
    out.flush()?;
    code
}
