//! Text output: one line per field error on standard output,
//! `<file>:<line>:<col>: <error>`, where `<file>` is the file's text form
//! (`crate::file_name`: quoted when it holds `#`, `:`, spaces, quotes or unprintable
//! characters), `<line>:<col>` is where the failing field is written (a missing field: the
//! object that lacks it; an error about a map key: the key), and `<error>` reads exactly as
//! Kubernetes prints a `field.Error`. Unknown fields reported as errors come first in their
//! document, `unknown field "spec.spce"` as the API server words them. Warnings
//! (`<file>:<line>:<col>: warning: ...`), input errors (`<file>:<line>:<col>: error: ...`)
//! and the summary go to standard error. Every located line reads `file:line:col: message`,
//! the form editors' quickfix lists (`%f:%l:%c:%m`) and CI problem matchers parse; the
//! document's index is not printed (lines count from the start of the file, so the position
//! names the document; JSON and SARIF carry the index).

use std::io::{self, Write};
use std::path::PathBuf;

use kdv_model::{Diagnostic, clip_message};

use super::{DocumentResult, Report};
use crate::file_name;

/// How many errors (unknown fields included) text output prints for one document; a line
/// counts the rest. JSON and SARIF list them all.
pub const ERRORS_SHOWN: usize = 100;

/// Writes the unknown fields and field errors of `documents`, one line each, at most
/// [`ERRORS_SHOWN`] a document and then a line counting the others.
pub fn write_document_errors(documents: &[DocumentResult], out: &mut dyn Write) -> io::Result<()> {
    for doc in documents {
        let unknown = doc.unknown_fields.iter().take(ERRORS_SHOWN);
        for f in unknown {
            let message = clip_message(&f.message);
            writeln!(out, "{}:{}: {message}", doc.file, f.position)?;
        }
        let left = ERRORS_SHOWN.saturating_sub(doc.unknown_fields.len());
        for e in doc.errors.iter().take(left) {
            let at = doc.position(e);
            let error = e.error.to_string();
            writeln!(out, "{}:{at}: {}", doc.file, clip_message(&error))?;
        }
        let total = doc.unknown_fields.len() + doc.errors.len();
        if total > ERRORS_SHOWN {
            writeln!(
                out,
                "{}:{}:{}: {} more errors in this document (text output shows the first {ERRORS_SHOWN}; -o json lists all)",
                doc.file,
                doc.line,
                doc.column,
                total - ERRORS_SHOWN
            )?;
        }
    }
    Ok(())
}

/// Writes what goes to standard error after the run: the documents' warnings unless
/// `quiet`, each input error as `error: ...`, then the summary unless `quiet`.
pub fn write_footer(report: &Report, quiet: bool, err: &mut dyn Write) -> io::Result<()> {
    for doc in report.documents.iter().filter(|_| !quiet) {
        for r in &doc.shadowed {
            let file = &doc.file;
            let at = match (r.line, r.column) {
                (Some(line), Some(column)) => format!("{line}:{column}"),
                _ => format!("{}:{}", doc.line, doc.column),
            };
            let why = super::shadowed_reason(&r.error, report.minor);
            let error = r.error.to_string();
            writeln!(
                err,
                "{file}:{at}: warning: {} ({why})",
                clip_message(&error)
            )?;
        }
        for f in &doc.warnings {
            let (file, at) = (&doc.file, f.position);
            writeln!(err, "{file}:{at}: warning: {}", clip_message(&f.message))?;
        }
    }
    for e in &report.input_errors {
        writeln!(err, "{}: error: {}", e.location(), clip_message(&e.message))?;
    }
    if !quiet {
        writeln!(err, "{}", report.summary())?;
    }
    Ok(())
}

/// The whole text output of a report at once: errors on `out`, input errors and the summary
/// on `err`.
#[cfg(test)]
pub fn write_text(report: &Report, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
    write_document_errors(&report.documents, out)?;
    write_footer(report, false, err)
}

/// A diagnostic of the Go types as text (`file:line:col: severity: message`, then the source
/// line with a caret), its file name in text form.
pub fn diagnostic(d: &Diagnostic) -> String {
    match &d.span {
        Some(span) => {
            let shown = file_name::display(&span.path);
            if shown.as_bytes() == span.path.as_os_str().as_encoded_bytes() {
                return d.to_string();
            }
            let mut d = d.clone();
            if let Some(span) = &mut d.span {
                span.path = PathBuf::from(shown);
            }
            d.to_string()
        }
        None => d.to_string(),
    }
}

/// The first line of [`diagnostic`]: `file:line:col: severity: message`.
pub fn diagnostic_headline(d: &Diagnostic) -> String {
    let level = super::severity_name(d.severity);
    match &d.span {
        Some(s) => format!(
            "{}:{}:{}: {level}: {}",
            file_name::display(&s.path),
            s.line,
            s.col,
            d.message
        ),
        None => format!("{level}: {}", d.message),
    }
}

/// How many other positions of a repeated finding are listed.
const REPEATS_LISTED: usize = 5;

/// Writes diagnostics separated by blank lines (each renders over several lines); findings
/// with the same severity and message print once, with a note counting the repeats and
/// listing where the first few are.
pub fn write_diagnostics<'d>(
    out: &mut dyn Write,
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> io::Result<()> {
    let all: Vec<Diagnostic> = diagnostics.into_iter().cloned().collect();
    for g in kdv_rules::lint::group(all) {
        writeln!(out, "{}", diagnostic(&g.first))?;
        if !g.others.is_empty() {
            let listed: Vec<String> = g
                .others
                .iter()
                .take(REPEATS_LISTED)
                .map(|s| match s {
                    Some(s) => format!("{}:{}:{}", file_name::display(&s.path), s.line, s.col),
                    None => "(no position)".to_string(),
                })
                .collect();
            let more = g.others.len().saturating_sub(REPEATS_LISTED);
            write!(
                out,
                "  = note: reported {} times; also at {}",
                g.others.len() + 1,
                listed.join(", ")
            )?;
            if more > 0 {
                write!(out, " and {more} more")?;
            }
            writeln!(out)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::tests::sample;
    use super::*;

    #[test]
    fn text_lists_errors_then_summary() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        write_text(&sample(), &mut out, &mut err).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "m/bad.yaml:9:3: unknown field \"spec.spce\"\n\
             m/bad.yaml:4:13: spec.replicas: Invalid value: 0: must be greater than or equal to 1\n\
             m/bad.yaml:3:9: metadata.name: Required value\n\
             m/bad.yaml:1:1: metadata.name: Too long: may not be more than 10 bytes\n"
        );
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "m/good.yaml:10:1: warning: unknown field \"x\"\n\
             m/broken.yaml:3:2: error: did not find expected key\n\
             2 documents, 1 valid, 1 invalid, 1 empty document skipped, 1 input error\n"
        );
    }

    #[test]
    fn item_16_diagnostics_name_files_escaped() {
        let d = Diagnostic::error(
            "bad tag",
            Some(kdv_model::SourceSpan {
                path: "api/x\ny.go".into(),
                line: 3,
                col: 2,
                len: 1,
                line_text: "\tx".into(),
                text_start: kdv_model::TextStart::default(),
            }),
        );
        let text = diagnostic(&d);
        assert!(
            text.starts_with("\"api/x\\ny.go\":3:2: error: bad tag\n"),
            "{text}"
        );
        assert_eq!(
            diagnostic_headline(&d),
            "\"api/x\\ny.go\":3:2: error: bad tag"
        );
    }

    #[test]
    fn quiet_footer_keeps_errors_only() {
        let mut err = Vec::new();
        write_footer(&sample(), true, &mut err).unwrap();
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "m/broken.yaml:3:2: error: did not find expected key\n"
        );
    }
}
