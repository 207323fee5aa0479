//! Reading Kubernetes manifests: a YAML stream or a JSON text → its documents, one at a
//! time, each as the JSON value the API server receives, with file positions for the
//! document, for every error, and (on request) for any field.
//!
//! - **Documents as written.** A YAML stream is cut into documents at its `---`/`...`
//!   marker lines before parsing ([`split_yaml`]), and each document is decoded and parsed
//!   on its own: a syntax error, a duplicate key, invalid UTF-8 or an oversized document
//!   breaks that document only, and the others are still read. Documents are numbered by
//!   position in the stream, empty ones included (`2` is always the third document as
//!   written). A JSON text holds one value.
//! - **Values as the API server sees them.** YAML is converted as sigs.k8s.io/yaml's
//!   `YAMLToJSON` converts it (YAML 1.1 scalars, integral floats written as integers,
//!   non-finite floats rejected); JSON number literals keep Go's distinction between
//!   integer literals (`-0` included) and the others. Keys repeated in one mapping or
//!   object are errors.
//! - **Bounded.** A document larger than [`Limits::max_document_bytes`] (by default the
//!   API server's request body limit, 3 MiB) is an error, and so is a stream with more than
//!   [`Limits::max_documents`]. Parsing budgets bound nesting (128 levels), aliases and what
//!   they expand to. Reading the bytes (and capping that) is the caller's job.
//! - **Fast where it can be, exact always.** Block-style documents of one-line scalars
//!   (what manifests almost always are) are read by a one-pass reader that builds the value
//!   directly; anything outside that subset (anchors, tags, block scalars, flow collections
//!   with content, multi-line scalars, unusual number spellings, non-ASCII text, errors of
//!   any kind) goes to serde-saphyr. Both give identical results, positions included; the
//!   fuzz target and property tests check it.
//! - **Positions.** Every error carries a 1-based line and column (in characters) of the
//!   whole stream. [`Document::locate`] finds where fields are written by walking the
//!   document's text again, so it costs nothing until a caller has something to point at.
//!
//! Documents are produced lazily ([`documents`]), so a caller that validates each document
//! before asking for the next holds one parsed document at a time.
//!
//! Modules, bottom-up: `split` (documents as written, decision 0019), `encoding` (UTF-16 with a
//! byte order mark, 0074), `number` (the float rule of `YAMLToJSON`) and `goyaml` (go-yaml v2's
//! scalar resolution), `json` and `yaml` (serde-saphyr, 0002) and `fast` (the fast reader, 0032),
//! `event` (the events both YAML readers produce, so neither imports the other) and `locate`
//! (field paths → positions, all queries of a document in one sorted walk: 0020, 0071).
//! [`Document::list_items`] gives the objects of a list document (`kind: List`,
//! `ConfigMapList`, ...) as documents located under `items[i]` (0069). [`invariants`] holds the
//! properties the `manifest_reader` fuzz target and the property tests check, `check_fast`
//! among them.

#![warn(missing_docs)]

mod encoding;
mod event;
mod fast;
mod goyaml;
#[doc(hidden)]
pub mod invariants;
mod json;
mod locate;
mod number;
mod split;
mod yaml;

use std::fmt;

use serde_json::Value;

pub use encoding::transcode_utf16;
pub use locate::{Query, Step, StepBuf, Target};
pub use number::json_number_of_float;
pub use split::{RawDocument, SplitYaml, split_yaml};
pub use yaml::{MAX_ALIAS_EVENTS, MAX_ALIASES, MAX_DEPTH};

/// The API server's default limit on a request body (`MaxRequestBodyBytes` in
/// k8s.io/apiserver `pkg/server/config.go`: 3 MiB), which one object must fit in.
pub const DEFAULT_MAX_DOCUMENT_BYTES: usize = 3 * 1024 * 1024;

/// Most documents read from one stream by default.
pub const DEFAULT_MAX_DOCUMENTS: usize = 100_000;

/// How a text is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// A YAML stream of zero or more documents (JSON text is YAML too).
    Yaml,
    /// Exactly one JSON value (or nothing but whitespace: no document).
    Json,
}

/// A 1-based line and column; columns count characters, as editors do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Limits on what one stream may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest document, in bytes of its text.
    pub max_document_bytes: usize,
    /// Most documents (empty ones included) read from one stream; the rest is not read.
    pub max_documents: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            max_documents: DEFAULT_MAX_DOCUMENTS,
        }
    }
}

/// One non-empty document, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    /// Position in the stream, counting empty documents too.
    pub index: usize,
    /// Where its content (the root node) starts.
    pub position: Position,
    /// Its value, as JSON.
    pub value: Value,
    /// Its text (markers, directives and comments around the content included).
    text: &'a str,
    /// The line its text starts on.
    first_line: u64,
    /// For an item of a list document ([`Document::list_items`]): its index in `items`,
    /// under which its paths are found in the text.
    item: Option<usize>,
}

impl<'a> Document<'a> {
    /// The document's text, from the start of its first line.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Where each query's path is written, at its deepest written ancestor when the path
    /// itself is not (see [`Target`]); the document's root when nothing deeper matches.
    /// Walks the text once, whatever the number of queries.
    pub fn locate(&self, queries: &[Query<'_>]) -> Vec<Position> {
        let found = match self.item {
            None => locate::locate(self.text, queries),
            Some(i) => {
                let paths: Vec<Vec<Step<'_>>> = queries
                    .iter()
                    .map(|q| {
                        let mut path = vec![Step::Key("items"), Step::Index(i)];
                        path.extend_from_slice(q.path);
                        path
                    })
                    .collect();
                let prefixed: Vec<Query<'_>> = paths
                    .iter()
                    .zip(queries)
                    .map(|(path, q)| Query {
                        path,
                        target: q.target,
                    })
                    .collect();
                locate::locate(self.text, &prefixed)
            }
        };
        found
            .into_iter()
            .map(|found| found.map_or(self.position, |p| self.shift(p)))
            .collect()
    }

    /// The objects of a list document, each as a document of its own (same index and text,
    /// its paths found under `items[i]`), as kubectl applies a `kind: List` or a typed list
    /// (`ConfigMapList`, `RoleBindingList`): a document whose `kind` ends in `List` and whose
    /// `items` is a sequence (or null: no objects). `None` for any other document and for
    /// the items themselves. The API server never receives the list, only its items.
    pub fn list_items(&self) -> Option<Vec<Document<'a>>> {
        if self.item.is_some() {
            return None;
        }
        let map = self.value.as_object()?;
        let kind = map.get("kind")?.as_str()?;
        if !kind.ends_with("List") {
            return None;
        }
        let items: &[Value] = match map.get("items")? {
            Value::Array(items) => items,
            Value::Null => &[],
            _ => return None,
        };
        let paths: Vec<[Step<'_>; 2]> = (0..items.len())
            .map(|i| [Step::Key("items"), Step::Index(i)])
            .collect();
        let queries: Vec<Query<'_>> = paths
            .iter()
            .map(|path| Query {
                path,
                target: Target::Value,
            })
            .collect();
        let positions = self.locate(&queries);
        Some(
            items
                .iter()
                .zip(positions)
                .enumerate()
                .map(|(i, (value, position))| Document {
                    index: self.index,
                    position,
                    value: value.clone(),
                    text: self.text,
                    first_line: self.first_line,
                    item: Some(i),
                })
                .collect(),
        )
    }

    /// For an item of a list document, its index in the list's `items`.
    pub fn list_item_index(&self) -> Option<usize> {
        self.item
    }

    fn shift(&self, p: Position) -> Position {
        Position {
            line: p.line + self.first_line - 1,
            column: p.column,
        }
    }
}

/// One entry of a stream: a document, or an empty one (no content, or only `null`).
#[derive(Debug, Clone, PartialEq)]
pub enum Entry<'a> {
    /// A document with content.
    Document(Document<'a>),
    /// An empty document, which has nothing to validate.
    Empty {
        /// Position in the stream.
        index: usize,
        /// The line its text starts on.
        line: u64,
    },
}

/// What kind of problem a [`DocumentError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Malformed YAML or JSON (duplicate keys and unrepresentable values included).
    Syntax,
    /// Not valid UTF-8.
    Encoding,
    /// Larger than [`Limits::max_document_bytes`].
    TooLarge,
    /// The stream holds more than [`Limits::max_documents`]; nothing after is read.
    TooManyDocuments,
}

/// A document that cannot be read; the stream's other documents are unaffected (except
/// after [`ErrorKind::TooManyDocuments`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentError {
    /// The document's position in the stream.
    pub index: usize,
    /// Where the problem is (or where the document starts).
    pub position: Position,
    /// What kind of problem it is.
    pub kind: ErrorKind,
    /// What is wrong, without the location.
    pub message: String,
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: document #{}: {}",
            self.position, self.index, self.message
        )
    }
}

/// The documents of `stream`, read lazily: each item is parsed when the iterator reaches
/// it. After an [`ErrorKind::TooManyDocuments`] error the iterator ends.
pub fn documents<'a>(stream: &'a [u8], syntax: Syntax, limits: Limits) -> Documents<'a> {
    let source = match syntax {
        Syntax::Yaml => Source::Yaml(split_yaml(stream)),
        Syntax::Json => Source::Json(Some(stream.strip_prefix(split::BOM).unwrap_or(stream))),
    };
    Documents {
        source,
        limits,
        stopped: false,
    }
}

/// Iterator over a stream's documents ([`documents`]).
#[derive(Debug, Clone)]
pub struct Documents<'a> {
    source: Source<'a>,
    limits: Limits,
    stopped: bool,
}

#[derive(Debug, Clone)]
enum Source<'a> {
    Yaml(SplitYaml<'a>),
    Json(Option<&'a [u8]>),
}

impl<'a> Iterator for Documents<'a> {
    type Item = Result<Entry<'a>, DocumentError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.stopped {
            return None;
        }
        let (raw, syntax) = match &mut self.source {
            Source::Yaml(split) => (split.next()?, Syntax::Yaml),
            Source::Json(text) => {
                let bytes = text.take()?;
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    return None;
                }
                let raw = RawDocument {
                    index: 0,
                    offset: 0,
                    line: 1,
                    bytes,
                };
                (raw, Syntax::Json)
            }
        };
        if raw.index >= self.limits.max_documents {
            self.stopped = true;
            return Some(Err(DocumentError {
                index: raw.index,
                position: Position {
                    line: raw.line,
                    column: 1,
                },
                kind: ErrorKind::TooManyDocuments,
                message: format!(
                    "the stream has more than {} documents; the rest is not read",
                    self.limits.max_documents
                ),
            }));
        }
        Some(parse(raw, syntax, &self.limits))
    }
}

/// Decodes and parses one document of a stream.
pub fn parse<'a>(
    raw: RawDocument<'a>,
    syntax: Syntax,
    limits: &Limits,
) -> Result<Entry<'a>, DocumentError> {
    let error = |position: Position, kind, message: String| DocumentError {
        index: raw.index,
        position,
        kind,
        message,
    };
    let start = Position {
        line: raw.line,
        column: 1,
    };
    if raw.bytes.len() > limits.max_document_bytes {
        return Err(error(
            start,
            ErrorKind::TooLarge,
            format!(
                "document is larger than {}",
                format_size(limits.max_document_bytes)
            ),
        ));
    }
    // A NUL is never in a manifest: the text is binary, or UTF-16 without the byte order
    // mark that would have told how to read it (`transcode_utf16`).
    if let Some(nul) = raw.bytes.iter().position(|&b| b == 0) {
        return Err(error(
            end_of(&raw.bytes[..nul], raw.line),
            ErrorKind::Encoding,
            "control characters are not allowed: a NUL byte (binary data, or UTF-16 without \
             a byte order mark? manifests are read as UTF-8, or as UTF-16 after a byte order \
             mark)"
                .to_string(),
        ));
    }
    let text = std::str::from_utf8(raw.bytes).map_err(|e| {
        let valid = &raw.bytes[..e.valid_up_to()];
        let bad = raw.bytes.get(e.valid_up_to()).copied().unwrap_or_default();
        error(
            end_of(valid, raw.line),
            ErrorKind::Encoding,
            format!("invalid UTF-8 (byte 0x{bad:02X})"),
        )
    })?;
    let shift = |p: Position| Position {
        line: p.line + raw.line - 1,
        column: p.column,
    };
    let value = match syntax {
        Syntax::Yaml => match yaml::parse(text) {
            Ok(yaml::Parsed::Value(value, at)) => Some((value, shift(at))),
            Ok(yaml::Parsed::Nothing) => None,
            Ok(yaml::Parsed::Several) => {
                return Err(error(
                    start,
                    ErrorKind::Syntax,
                    "holds more than one YAML document (a document marker after a byte \
                     order mark?)"
                        .to_string(),
                ));
            }
            Err(e) => {
                return Err(error(
                    e.position.map_or(start, shift),
                    ErrorKind::Syntax,
                    e.message,
                ));
            }
        },
        Syntax::Json => match json::parse(text) {
            Ok(value) => Some((value, first_content(text, raw.line))),
            Err(e) => {
                return Err(error(
                    e.position.map_or(start, shift),
                    ErrorKind::Syntax,
                    e.message,
                ));
            }
        },
    };
    Ok(match value {
        None | Some((Value::Null, _)) => Entry::Empty {
            index: raw.index,
            line: raw.line,
        },
        Some((value, position)) => Entry::Document(Document {
            index: raw.index,
            position,
            value,
            text,
            first_line: raw.line,
            item: None,
        }),
    })
}

/// The position just after `text`, which starts at column 1 of `line`.
fn end_of(text: &[u8], line: u64) -> Position {
    let mut position = Position { line, column: 1 };
    let mut bytes = text.iter().peekable();
    while let Some(&b) = bytes.next() {
        match b {
            b'\r' if bytes.peek() == Some(&&b'\n') => {}
            b'\n' | b'\r' => {
                position.line += 1;
                position.column = 1;
            }
            // UTF-8 continuation bytes do not start a character.
            0x80..=0xBF => {}
            _ => position.column += 1,
        }
    }
    position
}

/// The position of the first character that is not whitespace.
fn first_content(text: &str, line: u64) -> Position {
    let skipped = text.len() - text.trim_start().len();
    end_of(&text.as_bytes()[..skipped], line)
}

/// `3 MiB`, `512 KiB`, `1000 bytes`: a byte count as a person reads it.
pub fn format_size(bytes: usize) -> String {
    const KIB: usize = 1024;
    const MIB: usize = 1024 * KIB;
    const GIB: usize = 1024 * MIB;
    match bytes {
        0 => "0 bytes".to_string(),
        b if b % GIB == 0 => format!("{} GiB", b / GIB),
        b if b % MIB == 0 => format!("{} MiB", b / MIB),
        b if b % KIB == 0 => format!("{} KiB", b / KIB),
        1 => "1 byte".to_string(),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod fast_tests;
#[cfg(test)]
mod tests;
