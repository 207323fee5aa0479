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
    let path = match source {
        Source::File(p) => p.clone(),
        Source::Stdin => PathBuf::from(file_name::STDIN),
    };
    let mut at = Vec::new();
    for e in &linted.unreadable {
        found.unreadable += 1;
        found.diagnostics.push(Diagnostic {
            severity: Severity::Error,
            message: e.message.clone(),
            span: None,
        });
        at.push((e.line, e.column));
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
                span: None,
            });
            at.push((f.line, f.column));
        }
    }
    let first = found.diagnostics.len() - at.len();
    for (i, span) in spans(&text, &path, &at).into_iter().enumerate() {
        found.diagnostics[first + i].span = span;
    }
}

/// The spans of the 1-based (line, character column) positions `at` in `text`. Columns are
/// counted in characters, spans in bytes: the positions are taken in order, so each line is
/// read once whatever the number of findings on it (a one-line JSON CRD with thousands of
/// them), and each span keeps only a window of a long line (`SourceSpan::in_line`).
fn spans(text: &str, path: &std::path::Path, at: &[(u64, u64)]) -> Vec<Option<SourceSpan>> {
    let mut order: Vec<usize> = (0..at.len()).collect();
    order.sort_by_key(|&i| at[i]);
    let mut out = vec![None; at.len()];
    let lines: Vec<&str> = text.lines().collect();
    // The line being read: its number, text, and how far into it the cursor is (bytes,
    // characters).
    let mut current: Option<(u64, &str, usize, usize)> = None;
    for i in order {
        let (line, column) = at[i];
        if current.is_none_or(|(n, ..)| n != line) {
            current = usize::try_from(line)
                .ok()
                .and_then(|l| lines.get(l.checked_sub(1)?))
                .map(|t| (line, t.trim_end_matches('\r'), 0, 0));
        }
        let Some((n, line_text, byte, chars)) = current.as_mut() else {
            // No such line.
            continue;
        };
        let want = usize::try_from(column)
            .unwrap_or(usize::MAX)
            .saturating_sub(1);
        for c in line_text[*byte..].chars() {
            if *chars >= want {
                break;
            }
            *byte += c.len_utf8();
            *chars += 1;
        }
        let len = u32::try_from(token_len(&line_text[*byte..])).unwrap_or(u32::MAX);
        out[i] = u32::try_from(*n).ok().and_then(|n| {
            SourceSpan::in_line(path.to_path_buf(), n, line_text, *byte, *chars, len)
        });
    }
    out
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
    fn item_02_spans_on_a_long_line_keep_a_window_of_it() {
        // One line of 4,000 values, findings at each (out of order), then a short line.
        let values: Vec<String> = (0..4000).map(|i| format!("\"é{i:04}\"")).collect();
        let text = format!("[{}]\nnext: x\n", values.join(","));
        let mut at: Vec<(u64, u64)> = (0..4000u64).rev().map(|i| (1, 2 + i * 8)).collect();
        at.extend([(2, 7), (9, 1), (0, 1), (1, 1_000_000)]);
        let spans = spans(&text, std::path::Path::new("f.yaml"), &at);
        let line = text.lines().next().unwrap_or_default();
        for (i, span) in spans.iter().take(4000).enumerate() {
            let span = span.as_ref().expect("span");
            // Bounded by the snippet's window, not by the 36 KB line.
            assert!(span.line_text.len() < 1000, "{}", span.line_text.len());
            let start = (span.col - 1) as usize;
            assert_eq!(&line[start..start + 8], values[3999 - i], "{span:?}");
            assert_eq!(span.len, 8);
            assert_eq!(span.char_column(span.col as usize), at[i].1);
        }
        let next = spans[4000].as_ref().expect("line 2");
        assert_eq!(
            (next.line, next.col, next.len, next.line_text.as_str()),
            (2, 7, 1, "next: x")
        );
        assert!(spans[4001].is_none() && spans[4002].is_none());
        // A column past the end points just after the line.
        let past = spans[4003].as_ref().expect("past the end");
        assert_eq!(past.col as usize, line.len() + 1);
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
