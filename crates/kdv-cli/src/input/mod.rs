//! Finding manifest files, reading them with size limits, and turning their documents into
//! JSON values (through `kdv-manifest`), with the location of every document and problem.

mod discover;
mod read;

pub use discover::{Job, Planner, Source, plan};
pub use read::{ReadLimits, Stream};

use std::fmt;

use kdv_manifest::Position;

/// A problem with an input (unreadable file, malformed YAML/JSON, a document that cannot be
/// matched to a type). Rendered as `file:line:col: message`, or with less location when it
/// is not known; text output adds `error: ` before the message (`file:line:col: error: ...`,
/// the form compilers print and editors' error formats parse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file as the user named it (`<stdin>` for standard input).
    pub file: String,
    /// Index of the document in its stream, when the problem belongs to one document.
    pub document: Option<usize>,
    /// 1-based line, when known.
    pub line: Option<u64>,
    /// 1-based column (characters), when known.
    pub column: Option<u64>,
    /// What is wrong, without the location.
    pub message: String,
}

impl InputError {
    /// A problem with a whole file (no position).
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> InputError {
        InputError {
            file: file.into(),
            document: None,
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// A problem at a position in a file.
    #[cfg(test)]
    pub fn at(
        file: impl Into<String>,
        line: u64,
        column: u64,
        message: impl Into<String>,
    ) -> InputError {
        InputError {
            file: file.into(),
            document: None,
            line: Some(line),
            column: Some(column),
            message: message.into(),
        }
    }

    /// A problem with one document, at `position`.
    pub fn document(
        file: impl Into<String>,
        document: usize,
        position: Position,
        message: impl Into<String>,
    ) -> InputError {
        InputError {
            file: file.into(),
            document: Some(document),
            line: Some(position.line),
            column: Some(position.column),
            message: message.into(),
        }
    }
}

impl InputError {
    /// Where the problem is: `file:line:col`, `file:line` or `file`.
    pub fn location(&self) -> String {
        let mut text = self.file.clone();
        if let Some(line) = self.line {
            text.push_str(&format!(":{line}"));
            if let Some(column) = self.column {
                text.push_str(&format!(":{column}"));
            }
        }
        text
    }
}

/// `file:line:col: message`. The document's index is not part of it: lines count from the
/// start of the file, so the position names the document already (JSON and SARIF carry the
/// index).
impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location(), self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_with_as_much_location_as_known() {
        assert_eq!(
            InputError::at("a.yaml", 3, 7, "bad").to_string(),
            "a.yaml:3:7: bad"
        );
        assert_eq!(InputError::file("a.yaml", "bad").to_string(), "a.yaml: bad");
        assert_eq!(
            InputError::document("a.yaml", 2, Position { line: 9, column: 7 }, "unknown kind")
                .to_string(),
            "a.yaml:9:7: unknown kind"
        );
    }
}
