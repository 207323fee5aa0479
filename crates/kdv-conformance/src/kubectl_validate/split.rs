//! How kubectl-validate and its test cut a manifest file into documents and read each
//! document's expected result:
//!
//! - [`yaml_documents`]: apimachinery's `yaml.YAMLReader` (`pkg/util/yaml/decoder.go`) as
//!   kubectl-validate's `utils.SplitYamlDocuments` drives it;
//! - [`is_empty_document`]: kubectl-validate's `utils.IsEmptyYamlDocument`;
//! - [`expectation`]: the leading comment block of a document, as `pkg/cmd/validate_test.go`
//!   reads it, parsed into a [`Status`].

use super::status::Status;

/// A document line that is not a valid separator (`---` followed by something other than
/// spaces or a comment): apimachinery's `YAMLSyntaxError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeparatorError(pub String);

impl std::fmt::Display for SeparatorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid Yaml document separator: {}", self.0)
    }
}

/// The documents of a YAML stream as `YAMLReader` returns them, until the first empty one
/// (where `SplitYamlDocuments` stops):
/// - lines are read as `bufio.Reader.ReadLine` reads them (`\n` or `\r\n` ends a line) and
///   each is kept with a `\n`;
/// - a line beginning with `---` is a separator when the rest of it, trimmed, is empty or
///   starts with `#` (otherwise the whole stream is an error); it ends the current document
///   when that is non-empty and is dropped, and it starts the next document (kept in it)
///   when nothing has been collected yet;
/// - at the end, a non-empty buffer is the last document.
pub fn yaml_documents(stream: &[u8]) -> Result<Vec<Vec<u8>>, SeparatorError> {
    let mut documents = Vec::new();
    let mut buffer: Vec<u8> = Vec::new();
    let mut lines = lines(stream);
    loop {
        // `None`: ReadLine's io.EOF, which comes with an empty line.
        let line = lines.next();
        let text: &[u8] = line.unwrap_or(b"");
        if text.starts_with(b"---") {
            let rest = String::from_utf8_lossy(&text[3..]);
            let trimmed = rest.trim();
            if !trimmed.is_empty() && !trimmed.starts_with('#') {
                return Err(SeparatorError(trimmed.to_string()));
            }
            if !buffer.is_empty() {
                documents.push(std::mem::take(&mut buffer));
                continue;
            }
        }
        let Some(text) = line else {
            if !buffer.is_empty() {
                documents.push(std::mem::take(&mut buffer));
            }
            break;
        };
        buffer.extend_from_slice(text);
        buffer.push(b'\n');
    }
    Ok(documents)
}

/// The lines of `stream` as `bufio.Reader.ReadLine` returns them: without their `\n` or
/// `\r\n`; a final line without a newline is a line too.
fn lines(stream: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = stream;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        Some(line.strip_suffix(b"\r").unwrap_or(line))
    })
}

/// kubectl-validate's `IsEmptyYamlDocument`: every line, trimmed, is empty, a comment or
/// `---`.
pub fn is_empty_document(document: &[u8]) -> bool {
    String::from_utf8_lossy(document).split('\n').all(|line| {
        let line = line.trim();
        line.is_empty() || line.starts_with('#') || line == "---"
    })
}

/// The expected result of one document, as the upstream test reads it: `Success` for an
/// empty document; otherwise the leading comment block (blank lines before it skipped, each
/// line without its first character, joined with `\n`, up to the first line that does not
/// start with `#`) parsed as JSON into a [`Status`].
pub fn expectation(document: &[u8]) -> Result<Status, String> {
    if is_empty_document(document) {
        return Ok(Status::success());
    }
    let text = String::from_utf8_lossy(document);
    let mut comment = String::new();
    for line in text.split('\n') {
        if comment.is_empty() && line.trim().is_empty() {
            continue;
        }
        let Some(rest) = line.strip_prefix('#') else {
            break;
        };
        // As upstream: the separator depends on what was collected, not on the line count
        // (a bare `#` first line adds nothing).
        if !comment.is_empty() {
            comment.push('\n');
        }
        comment.push_str(rest);
    }
    let json: serde_json::Value = serde_json::from_str(&comment)
        .map_err(|e| format!("error parsing leading expectation comment: {e}"))?;
    Status::from_json(&json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        yaml_documents(s.as_bytes())
            .unwrap()
            .into_iter()
            .map(|d| String::from_utf8(d).unwrap())
            .collect()
    }

    #[test]
    fn separators_end_non_empty_documents() {
        assert_eq!(split("a: 1\n---\nb: 2\n"), ["a: 1\n", "b: 2\n"]);
        // A final line without a newline gets one.
        assert_eq!(split("a: 1\n---\nb: 2"), ["a: 1\n", "b: 2\n"]);
        // Comments and spaces may follow the marker.
        assert_eq!(split("a: 1\n--- # c\nb: 2\n---   \n"), ["a: 1\n", "b: 2\n"]);
        // \r\n line ends become \n.
        assert_eq!(split("a: 1\r\n---\r\nb: 2\r\n"), ["a: 1\n", "b: 2\n"]);
    }

    #[test]
    fn a_leading_separator_is_kept_in_the_next_document() {
        assert_eq!(split("---\na: 1\n"), ["---\na: 1\n"]);
        assert_eq!(split("---\n---\na: 1\n"), ["---\n", "a: 1\n"]);
        // A file holding only `---` (upstream's empty.yaml) is one document.
        assert_eq!(split("---"), ["---\n"]);
        assert_eq!(split(""), Vec::<String>::new());
        assert_eq!(split("\n"), ["\n"]);
    }

    #[test]
    fn comment_only_documents_are_documents() {
        assert_eq!(
            split("a: 1\n---\n# just a comment\n---\n# c\n\n# d"),
            ["a: 1\n", "# just a comment\n", "# c\n\n# d\n"]
        );
    }

    #[test]
    fn bad_separators() {
        assert_eq!(
            yaml_documents(b"a: 1\n--- |\n  x\n"),
            Err(SeparatorError("|".to_string()))
        );
        assert_eq!(
            yaml_documents(b"----\n").unwrap_err().to_string(),
            "invalid Yaml document separator: -"
        );
        // `...` and indented markers are content.
        assert_eq!(split("a: 1\n...\n ---\n"), ["a: 1\n...\n ---\n"]);
    }

    #[test]
    fn empty_documents() {
        assert!(is_empty_document(b"---\n"));
        assert!(is_empty_document(b"  # c\n\n---\n"));
        assert!(!is_empty_document(b"# c\na: 1\n"));
        assert!(!is_empty_document(b"--- # c\n"));
    }

    #[test]
    fn expectations() {
        assert_eq!(expectation(b"# c\n").unwrap(), Status::success());
        let doc = b"\n\n# {\n#   \"status\": \"Failure\",\n#   \"code\": 422\n# }\n# not json\napiVersion: v1\n";
        let e = expectation(doc);
        assert!(
            e.is_err(),
            "the block runs up to the first non-comment line: {e:?}"
        );
        let doc = b"\n# {\n#   \"status\": \"Failure\",\n#   \"code\": 422\n# }\n\n# not json\napiVersion: v1\n";
        let status = expectation(doc).unwrap();
        assert_eq!((status.status.as_str(), status.code), ("Failure", 422));
        assert!(expectation(b"apiVersion: v1\n").is_err());
    }
}
