//! `kdv lint --crd FILE|DIR`: what the API server says when each CustomResourceDefinition is
//! created (`kdv_openapi::crd_validation`: decoding, strict unknown fields, the write-time
//! checks, the warnings), each finding at the file:line:col of the schema node or field it
//! is about, rendered as `kdv lint --types` renders its findings (text with a caret, JSON,
//! SARIF).
//!
//! Exit status: 1 when a CRD would be rejected (or has unknown fields, which kubectl's
//! default strict field validation rejects), or has warnings under `--deny warnings`; 2
//! when an input cannot be read (a missing path, a file without any CRD, a document that is
//! not YAML) or the arguments do not fit; 0 otherwise.

use std::io::Write;
use std::path::PathBuf;

use kdv_model::{Diagnostic, Severity, SourceSpan};
use kdv_openapi::crd_validation::{self, LintedStream};

use crate::cli::{DenyArg, LintArgs, OutputFormat};
use crate::error::CliError;
use crate::file_name;
use crate::input::{Source, Stream};
use crate::output::{json, sarif, text};

/// What linting the `--crd` paths found.
struct Findings {
    diagnostics: Vec<Diagnostic>,
    /// CRDs checked.
    checked: usize,
    /// Documents that could not be read.
    unreadable: usize,
}

/// Prints the findings on `out` and, in text mode and unless `--quiet`, a count on `err`.
pub fn run(args: &LintArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, CliError> {
    let names: Vec<String> = args.crds.iter().map(|p| file_name::display(p)).collect();
    let found = match kubernetes_minor(args.k8s_version.as_deref())
        .and_then(|minor| findings(&args.crds, minor))
    {
        Ok(found) => found,
        Err(e) => {
            match args.output {
                OutputFormat::Text => {}
                OutputFormat::Json => json::write_lint_crds(&names, 0, &[], Some(&e), out)?,
                OutputFormat::Sarif => sarif::write_lint(&[], Some(&e), out)?,
            }
            return Err(e);
        }
    };
    let diagnostics = &found.diagnostics;
    match args.output {
        OutputFormat::Text => text::write_diagnostics(out, diagnostics)?,
        OutputFormat::Json => json::write_lint_crds(&names, found.checked, diagnostics, None, out)?,
        OutputFormat::Sarif => sarif::write_lint(diagnostics, None, out)?,
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    if !args.quiet && args.output == OutputFormat::Text {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let checked = plural(found.checked, "CRD");
        if diagnostics.is_empty() {
            writeln!(err, "{}: {checked}, no findings", names.join(", "))?;
        } else {
            writeln!(
                err,
                "{}: {checked}, {} ({}, {})",
                names.join(", "),
                plural(diagnostics.len(), "finding"),
                plural(errors, "error"),
                plural(warnings, "warning")
            )?;
        }
    }
    if found.unreadable > 0 {
        return Ok(2);
    }
    let denied = args.deny == Some(DenyArg::Warnings) && warnings > 0;
    Ok(u8::from(errors > 0 || denied))
}

/// `--k8s-version 1.N` (or `v1.N`): the minor version whose CRD rules apply.
pub(crate) fn kubernetes_minor(version: Option<&str>) -> Result<u32, CliError> {
    let Some(v) = version else {
        // The newest embedded release, as every command's default.
        return Ok(super::release::Release::choose(None, None)?.minor);
    };
    let bare = v.strip_prefix('v').unwrap_or(v);
    match bare.split_once('.') {
        Some(("1", minor)) => match minor.parse::<u32>() {
            Ok(m) if (16..1000).contains(&m) => Ok(m),
            _ => Err(CliError::Usage(format!(
                "--k8s-version {v}: expected a release 1.N from 1.16 (apiextensions.k8s.io/v1) on"
            ))),
        },
        _ => Err(CliError::Usage(format!(
            "--k8s-version {v}: expected a release such as 1.35"
        ))),
    }
}

/// Reads every file the paths name and lints the CRDs in them.
fn findings(paths: &[PathBuf], minor: u32) -> Result<Findings, CliError> {
    let mut found = Findings {
        diagnostics: Vec::new(),
        checked: 0,
        unreadable: 0,
    };
    for path in paths {
        let mut crds = 0;
        super::for_each_crd_file(path, |source, stream| {
            let linted = crd_validation::lint_crds(&stream.name, stream.bytes(), minor);
            crds += linted.crds.len();
            add(&mut found, source, &stream, &linted);
            Ok(())
        })?;
        if crds == 0 && found.unreadable == 0 {
            return Err(CliError::Schema(format!(
                "--crd {}: no CustomResourceDefinition found",
                file_name::display(path)
            )));
        }
    }
    Ok(found)
}

/// The findings of one stream as diagnostics with their source lines.
fn add(found: &mut Findings, source: &Source, stream: &Stream, linted: &LintedStream) {
    let text = String::from_utf8_lossy(stream.bytes());
    let lines: Vec<&str> = text.lines().collect();
    let path = match source {
        Source::File(p) => p.clone(),
        Source::Stdin => PathBuf::from(file_name::STDIN),
    };
    let span = |line: u64, column: u64| -> Option<SourceSpan> {
        let line_text = lines.get(usize::try_from(line).ok()?.checked_sub(1)?)?;
        let line_text = line_text.trim_end_matches('\r');
        // Columns are counted in characters; spans in bytes.
        let col = line_text
            .char_indices()
            .nth(usize::try_from(column).ok()?.saturating_sub(1))
            .map_or(line_text.len(), |(i, _)| i);
        Some(SourceSpan {
            path: path.clone(),
            line: u32::try_from(line).ok()?,
            col: u32::try_from(col + 1).ok()?,
            len: u32::try_from(token_len(&line_text[col..])).ok()?,
            line_text: line_text.to_owned(),
        })
    };
    for e in &linted.unreadable {
        found.unreadable += 1;
        found.diagnostics.push(Diagnostic {
            severity: Severity::Error,
            message: e.message.clone(),
            span: span(e.line, e.column),
        });
    }
    for crd in &linted.crds {
        found.checked += 1;
        for f in &crd.located {
            found.diagnostics.push(Diagnostic {
                severity: match f.severity {
                    crd_validation::Severity::Error => Severity::Error,
                    crd_validation::Severity::Warning => Severity::Warning,
                },
                message: f.message.clone(),
                span: span(f.line, f.column),
            });
        }
    }
}

/// The width of the YAML token a finding points at: a quoted scalar, or plain text up to
/// the next `: `, `,`, `#` comment or flow delimiter.
fn token_len(rest: &str) -> usize {
    if rest.starts_with(['{', '[']) {
        return 1;
    }
    if let Some(q @ ('"' | '\'')) = rest.chars().next() {
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            if q == '"' && c == '\\' && !escaped {
                escaped = true;
                continue;
            }
            if c == q && !escaped {
                return i + 1;
            }
            escaped = false;
        }
        return rest.len().max(1);
    }
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        let next_space = rest[i + c.len_utf8()..].starts_with([' ', '\t']) || i + 1 == rest.len();
        if matches!(c, ',' | '{' | '}' | '[' | ']' | '#') && i > 0 || c == ':' && next_space {
            end = i;
            break;
        }
    }
    rest[..end].trim_end().len().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_under_the_caret() {
        assert_eq!(token_len("type: strign"), 4);
        assert_eq!(token_len("strign"), 6);
        assert_eq!(token_len("\"a\\\"b\", x"), 6);
        assert_eq!(token_len("{a: 1}"), 1);
        assert_eq!(token_len("[a, b]"), 1);
        assert_eq!(token_len("http://x:80/y # c"), 13);
        assert_eq!(token_len(""), 1);
    }

    #[test]
    fn kubernetes_versions() {
        assert_eq!(
            kubernetes_minor(None).unwrap(),
            super::super::release::Release::choose(None, None)
                .unwrap()
                .minor
        );
        assert_eq!(kubernetes_minor(Some("1.36")).unwrap(), 36);
        assert_eq!(kubernetes_minor(Some("v1.34")).unwrap(), 34);
        assert!(kubernetes_minor(Some("2.0")).is_err());
        assert!(kubernetes_minor(Some("1.x")).is_err());
        assert!(kubernetes_minor(Some("1.15")).is_err());
    }
}
