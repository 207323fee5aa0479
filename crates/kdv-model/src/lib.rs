//! The frontend-neutral type model: packages, named types, struct fields, constants, and the
//! tags attached to each (parsed, with their source locations).
//!
//! Frontends (the Go source reader `kdv-go`, the Rust reader `kdv-rust-model` behind
//! `#[derive(Validate)]` and `kdv --types FILE.rs`, the stored kubernetes/api models of
//! `kdv-k8s-api`) produce a [`Universe`]; the rule registry (`kdv-rules`) reads it. Nothing
//! here knows tag semantics: a frontend hands over each declaration's tags ([`Tags`]: the
//! [`TagLine`]s of `+name…` lines, each with its text, location and parsed `kdv_tags::Tag`)
//! and its description, and where they are, so diagnostics can point at them. [`Comments`]
//! turns a frontend's comment lines into both, one rule for Go and Rust. A field also carries
//! its declared JSON name and options ([`JsonTag`]). Comment syntax, struct tags and other
//! source-language details stay in the frontend.
//!
//! Go semantics are modelled as upstream `gengo` sees them (see the validation-gen spec §2):
//! a type definition `type X Y` keeps its *underlying* type expression as written; resolving
//! the one-deep typedef rule is the registry's job, which has the whole universe at hand. The
//! scalar vocabulary is Go's predeclared types ([`Builtin`]), because the tag catalog's
//! semantics and upstream's messages are defined over them; other frontends map their scalars
//! onto it.
//!
//! Diagnostics: a [`Diagnostic`] has a severity, a message and a [`SourceSpan`]
//! (file:line:col); [`Snippet`] renders the caret line, clipping long lines around the span and
//! escaping control characters. A span on a line longer than [`LONG_LINE_BYTES`] keeps only the
//! window its snippet shows ([`SourceSpan::in_line`]), and [`clip_message`] caps a message
//! that echoes input (decisions 0079, 0080).

pub mod suggest;

use std::collections::BTreeMap;
use std::path::PathBuf;

use kdv_tags::{Tag, TagError, TagValue};

/// A position in a source file. `line` and `col` are 1-based; `col` counts bytes, as Go's
/// `go/token` does, so it lines up with byte offsets inside the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Loc {
    /// Index into [`Package::files`].
    pub file: u32,
    pub line: u32,
    pub col: u32,
    /// Byte offset from the start of the file.
    pub offset: u32,
}

/// The one `+k8s:` tag whose payload is raw text (a JSON value): `+k8s:default`.
pub const RAW_VALUED_K8S_TAG: &str = "k8s:default";

/// One tag of a declaration: a `+name…` line as its frontend read it (Go comment lines and
/// Rust doc lines alike), parsed with the tag grammar.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TagLine {
    /// The tag's name (`k8s:minimum`, `groupName`, `default`), possibly empty (`+ x`).
    pub name: String,
    /// The text after the `+`: the name and the rest of the line.
    pub text: String,
    /// Where `text` starts.
    pub loc: Loc,
    /// `text` parsed with the `+k8s:` tag grammar (legacy raw-valued tags such as
    /// `+groupName=example.com` may not parse; read them with [`TagLine::raw_value`]).
    pub parsed: Result<Tag, TagError>,
}

impl TagLine {
    /// A tag line: `text` starts at the name (after the `+`).
    pub fn new(text: impl Into<String>, loc: Loc) -> TagLine {
        let text = text.into();
        let name = kdv_tags::tag_name(&text).to_string();
        // `+k8s:default=<json>` (a kdv extension) takes any JSON value, which the typed
        // grammar cannot hold (`{...}`, `[...]`, `1.5`): it is read in raw mode.
        let parsed = if name == RAW_VALUED_K8S_TAG {
            kdv_tags::parse_tag_raw(&text)
        } else {
            kdv_tags::parse_tag(&text)
        };
        TagLine {
            name,
            text,
            loc,
            parsed,
        }
    }

    /// The value of a legacy raw-valued tag (`+name=value`, e.g. `+k8s:validation-gen=*`,
    /// `+groupName=`, `+default=`), as gengo's extractor reads it: everything after `=`.
    pub fn raw_value(&self) -> String {
        match kdv_tags::parse_tag_raw(&self.text) {
            Ok(t) => match t.value {
                TagValue::Raw(s) => s,
                other => other.as_str().unwrap_or("").to_string(),
            },
            // The legacy extractor takes everything after `=`.
            Err(_) => self
                .text
                .split_once('=')
                .map(|(_, v)| v.trim().to_string())
                .unwrap_or_default(),
        }
    }
}

/// The tags attached to one declaration, in source order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Tags {
    /// The tag lines.
    pub lines: Vec<TagLine>,
}

impl Tags {
    /// True when there are no tags.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The tags called `name`, in source order.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a TagLine> + 'a {
        self.lines.iter().filter(move |l| l.name == name)
    }

    /// The raw values of the tags called `name` (see [`TagLine::raw_value`]).
    pub fn raw_values(&self, name: &str) -> Vec<String> {
        self.named(name).map(TagLine::raw_value).collect()
    }
}

/// How serious a [`Diagnostic`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// A source region resolved to file, line and column, carrying its line's text (of a very
/// long line, the part around the region) so a diagnostic renders with a caret without going
/// back to the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceSpan {
    pub path: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column (in the whole line).
    pub col: u32,
    /// Width of the region in bytes (at least 1 when rendered).
    pub len: u32,
    /// The text of the line, without its line terminator; for a span made by
    /// [`SourceSpan::in_line`] on a line longer than [`LONG_LINE_BYTES`], only the part of
    /// the line a diagnostic shows, which starts `text_start` into the line.
    pub line_text: String,
    /// Where `line_text` starts in the line (zero: it is the whole line).
    pub text_start: TextStart,
}

/// Where a [`SourceSpan`]'s `line_text` starts in its line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TextStart {
    /// Bytes of the line before the kept text.
    pub bytes: u32,
    /// Characters of the line before the kept text.
    pub chars: u32,
}

/// Lines longer than this many bytes are not copied whole into a [`SourceSpan`] by
/// [`SourceSpan::in_line`]: a one-line JSON file of a megabyte with thousands of findings
/// would otherwise hold a copy of the megabyte per finding.
pub const LONG_LINE_BYTES: usize = 4096;

impl SourceSpan {
    /// Builds a span for `len` bytes at `loc` in `file`. The line is found from
    /// `loc.offset` (the cost of the line, not of the file: thousands of spans in one file
    /// stay linear), and by counting lines when the offset cannot be the line's (a `Loc`
    /// built without one).
    pub fn from_loc(file: &SourceFile, loc: Loc, len: u32) -> SourceSpan {
        let line_text = line_at(&file.text, loc).trim_end_matches('\r').to_string();
        SourceSpan {
            path: file.path.clone(),
            line: loc.line,
            col: loc.col,
            len,
            line_text,
            text_start: TextStart::default(),
        }
    }

    /// A span of `len` bytes at byte `start` of `text`, the text of line `line` (without
    /// its terminator), after `chars_before` characters of it. Of a line longer than
    /// [`LONG_LINE_BYTES`] only the part a diagnostic shows is kept (the window of
    /// [`SNIPPET_COLUMNS`] around `start`), and the region is cut where that part ends (as
    /// the caret is): the span's size does not depend on the line's. `None` when a number
    /// does not fit in 32 bits.
    pub fn in_line(
        path: PathBuf,
        line: u32,
        text: &str,
        start: usize,
        chars_before: usize,
        len: u32,
    ) -> Option<SourceSpan> {
        let col = u32::try_from(start.checked_add(1)?).ok()?;
        let whole = |len| SourceSpan {
            path: path.clone(),
            line,
            col,
            len,
            line_text: text.to_owned(),
            text_start: TextStart::default(),
        };
        if text.len() <= LONG_LINE_BYTES {
            return Some(whole(len));
        }
        let (lo, at, hi) = window(text, col, SNIPPET_COLUMNS);
        if lo == 0 && hi == text.len() {
            return Some(whole(len));
        }
        let chars = chars_before.checked_sub(text[lo..at].chars().count())?;
        Some(SourceSpan {
            path,
            line,
            col,
            len: clip_len(len, at, hi),
            line_text: text[lo..hi].to_owned(),
            text_start: TextStart {
                bytes: u32::try_from(lo).ok()?,
                chars: u32::try_from(chars).ok()?,
            },
        })
    }

    /// The 1-based character column of the 1-based byte column `byte_col` of the line (a
    /// byte inside a character counts that character); columns past the end of the line
    /// are just past it.
    pub fn char_column(&self, byte_col: usize) -> u64 {
        let end = byte_col
            .saturating_sub(1)
            .saturating_sub(self.text_start.bytes as usize)
            .min(self.line_text.len());
        let prefix = self.line_text.as_bytes().get(..end).unwrap_or_default();
        String::from_utf8_lossy(prefix).chars().count() as u64
            + u64::from(self.text_start.chars)
            + 1
    }
}

/// The text of `loc`'s line (without its terminator).
fn line_at(text: &str, loc: Loc) -> &str {
    let offset = loc.offset as usize;
    let col = loc.col.max(1) as usize - 1;
    // The offset is the line's when the line starts `col` bytes before it, right after a
    // newline (or at the start of the text on line 1).
    if let Some(start) = offset.checked_sub(col)
        && offset <= text.len()
        && text.is_char_boundary(start)
        && (if start == 0 {
            loc.line <= 1
        } else {
            text.as_bytes()[start - 1] == b'\n'
        })
    {
        let rest = &text[start..];
        return rest.split('\n').next().unwrap_or("");
    }
    text.lines()
        .nth(loc.line.saturating_sub(1) as usize)
        .unwrap_or("")
}

/// A finding about the input (parse error, tag misuse, unsupported shape), with where it is.
/// Parsers and the registry return these instead of failing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<SourceSpan>,
}

impl Diagnostic {
    /// An error diagnostic.
    pub fn error(message: impl Into<String>, span: Option<SourceSpan>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
        }
    }
}

impl std::fmt::Display for Diagnostic {
    /// `path:line:col: error: message`, then the source line and a caret under the region.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        match &self.span {
            None => write!(f, "{level}: {}", clip_message(&self.message)),
            Some(s) => {
                write!(
                    f,
                    "{}:{}:{}: {level}: {}",
                    s.path.display(),
                    s.line,
                    s.col,
                    clip_message(&self.message)
                )?;
                let gutter = s.line.to_string();
                let pad = " ".repeat(gutter.len());
                let col = s.col.saturating_sub(s.text_start.bytes);
                let snippet = Snippet::new(&s.line_text, col, s.len, SNIPPET_COLUMNS);
                write!(
                    f,
                    "\n{pad} |\n{gutter} | {}\n{pad} | {}{}",
                    snippet.text,
                    snippet.caret_prefix,
                    "^".repeat(snippet.caret_len)
                )
            }
        }
    }
}

/// Messages longer than this many characters are shown clipped (they quote input, which
/// can be a megabyte long).
pub const MESSAGE_CHARS: usize = 1000;

/// `message`, or, longer than [`MESSAGE_CHARS`] characters, its head and tail around a
/// note of how much is left out: how kdv caps the input a message echoes.
pub fn clip_message(message: &str) -> std::borrow::Cow<'_, str> {
    let count = message.chars().count();
    if count <= MESSAGE_CHARS {
        return std::borrow::Cow::Borrowed(message);
    }
    let head: String = message.chars().take(MESSAGE_CHARS * 3 / 4).collect();
    let tail_len = MESSAGE_CHARS / 4;
    let tail: String = message.chars().skip(count - tail_len).collect();
    let omitted = count - head.chars().count() - tail_len;
    std::borrow::Cow::Owned(format!("{head}…[{omitted} characters]…{tail}"))
}

/// How many columns of a source line a diagnostic shows around its span.
pub const SNIPPET_COLUMNS: usize = 120;

/// The part of a source line a diagnostic shows, and where its caret goes.
///
/// Long lines are clipped to a window of `width` columns around the start of the span, with
/// `…` on each clipped side; columns are characters (never a split UTF-8 sequence), and
/// control characters other than tab are shown escaped (`\u{1b}`), so a hostile line can
/// neither flood the terminal nor drive it. Tabs stay tabs, in the caret line too, so the
/// caret lines up in a terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The line as shown.
    pub text: String,
    /// What goes before the caret (spaces, and tabs under tabs).
    pub caret_prefix: String,
    /// Number of `^` (at least 1).
    pub caret_len: usize,
}

impl Snippet {
    /// The snippet of `line` for the span at 1-based byte column `col`, `len` bytes long.
    pub fn new(line: &str, col: u32, len: u32, width: usize) -> Snippet {
        let (lo, start, hi) = window(line, col, width);
        if lo > 0 || hi < line.len() {
            let col = col.max(1) - u32::try_from(lo).unwrap_or(0);
            return Snippet::new_within(&line[lo..hi], col, clip_len(len, start, hi), width);
        }
        Snippet::new_within(line, col, len, width)
    }

    fn new_within(line: &str, col: u32, len: u32, width: usize) -> Snippet {
        // Display units: each character as shown.
        let units: Vec<(usize, String)> = line
            .char_indices()
            .map(|(i, c)| {
                let shown = if c.is_control() && c != '\t' {
                    format!("\\u{{{:x}}}", c as u32)
                } else {
                    c.to_string()
                };
                (i, shown)
            })
            .collect();
        let start_byte = (col.max(1) - 1) as usize;
        let end_byte = start_byte.saturating_add(len.max(1) as usize);
        // The span in units: from the unit holding its first byte to the one holding its
        // last (a span past the end of the line sits after the last unit).
        let first = units.partition_point(|(i, _)| *i <= start_byte);
        let first = if first > 0 && start_byte < line.len() {
            first - 1
        } else {
            units.len()
        };
        let last = units.partition_point(|(i, _)| *i < end_byte).max(first + 1);
        let widths: Vec<usize> = units.iter().map(|(_, s)| s.chars().count()).collect();
        let total: usize = widths.iter().sum();
        let (from, to) = if total <= width {
            (0, units.len())
        } else {
            // Up to a third of the window before the span, the rest from its start.
            let mut from = first.min(units.len());
            let mut before = 0;
            while from > 0 && before + widths[from - 1] <= width / 3 {
                before += widths[from - 1];
                from -= 1;
            }
            let mut to = from;
            let mut used = 0;
            while to < units.len() && used + widths[to] <= width {
                used += widths[to];
                to += 1;
            }
            // Room left at the end goes to more context before the span.
            while from > 0 && used + widths[from - 1] <= width {
                from -= 1;
                used += widths[from];
            }
            (from, to)
        };
        let mut text = String::new();
        let mut caret_prefix = String::new();
        if from > 0 {
            text.push('…');
            caret_prefix.push(' ');
        }
        for (k, (_, shown)) in units.iter().enumerate().take(to).skip(from) {
            text.push_str(shown);
            if k < first {
                if shown == "\t" {
                    caret_prefix.push('\t');
                } else {
                    caret_prefix.extend(std::iter::repeat_n(' ', widths[k]));
                }
            }
        }
        if to < units.len() {
            text.push('…');
        }
        let caret_len = (first..last.min(to))
            .map(|k| widths[k])
            .sum::<usize>()
            .max(1);
        Snippet {
            text,
            caret_prefix,
            caret_len,
        }
    }
}

/// The part of `line` a snippet `width` columns wide around 1-based byte column `col` can
/// show, as byte offsets `(lo, start, hi)`, `start` being the span's start (on a character
/// boundary): `width` characters on either side of the start, and one more on each side so
/// the clipped side still overflows the window and gets its `…`. Reading only that part
/// keeps a snippet's cost independent of the line's length.
fn window(line: &str, col: u32, width: usize) -> (usize, usize, usize) {
    let start = ((col.max(1) - 1) as usize).min(line.len());
    let start = (0..=start)
        .rev()
        .find(|&i| line.is_char_boundary(i))
        .unwrap_or(0);
    let lo = line[..start]
        .char_indices()
        .rev()
        .nth(width)
        .map_or(0, |(i, _)| i);
    let hi = line[start..]
        .char_indices()
        .nth(width.saturating_add(2))
        .map_or(line.len(), |(i, _)| start + i);
    (lo, start, hi)
}

/// A span's width cut where a window of its line ends.
fn clip_len(len: u32, start: usize, hi: usize) -> u32 {
    len.min(u32::try_from(hi - start).unwrap_or(u32::MAX).max(1))
}

/// Everything loaded for one run: the packages by import path.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Universe {
    pub packages: BTreeMap<String, Package>,
}

impl Universe {
    /// Looks up a named type by package import path and name.
    pub fn type_decl(&self, package: &str, name: &str) -> Option<&TypeDecl> {
        self.packages.get(package)?.type_decl(name)
    }

    /// Looks up the declaration a [`TypeRef::Named`] refers to.
    pub fn resolve(&self, named: &NamedRef) -> Option<&TypeDecl> {
        self.type_decl(&named.package, &named.name)
    }
}

/// One package: the files of one directory.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Package {
    /// Import path (from `go.mod` module path + directory, else the directory name).
    pub path: String,
    /// The package clause name (`package foo`).
    pub name: String,
    /// Directory the files were read from, if read from disk.
    pub dir: Option<PathBuf>,
    /// Source files, indexed by [`Loc::file`].
    pub files: Vec<SourceFile>,
    /// Package-level tags (all files, in file order), such as `+k8s:validation-gen=...` and
    /// `+groupName=...`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Tags::is_empty")
    )]
    pub tags: Tags,
    /// Imports of all files: local name (alias, or last path element) → import path.
    pub imports: BTreeMap<String, String>,
    /// Named types in declaration order (file order, then source order).
    pub types: Vec<TypeDecl>,
    /// Constants in declaration order.
    pub consts: Vec<ConstDecl>,
}

impl Package {
    /// Finds a named type declared in this package.
    pub fn type_decl(&self, name: &str) -> Option<&TypeDecl> {
        self.types.iter().find(|t| t.name == name)
    }
}

/// A source file of a package.
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SourceFile {
    /// Path as given to the loader (used in diagnostics).
    pub path: PathBuf,
    /// Full text of the file, kept for diagnostics with a caret.
    pub text: String,
}

/// `type Name Def` or `type Name = Def`.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TypeDecl {
    pub name: String,
    /// The type's documentation, without tag lines.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub description: String,
    /// The tags of the declaration (in Go, of the comment block directly above it).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Tags::is_empty")
    )]
    pub tags: Tags,
    /// Tags the frontend found detached from the declaration (in Go, the comment block
    /// before the doc comment, separated by a blank line); upstream reads only
    /// `+k8s:validation-gen=true|false`, `+k8s:isSubresource` and `+k8s:supportsSubresource`
    /// there.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Tags::is_empty")
    )]
    pub detached_tags: Tags,
    /// The definition as written: for `type X string` it is `string`, for
    /// `type X Other` it is the named reference `Other`.
    pub def: TypeRef,
    /// `type X = Y` (a true alias, transparent) rather than a type definition.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub is_alias: bool,
    /// The declaration has type parameters (generics); such types are not validated.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub is_generic: bool,
    pub loc: Loc,
}

/// A reference to a type, as written in a declaration or field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TypeRef {
    /// A predeclared type: `string`, `bool`, `int`, `int8`..`int64`, `uint`..`uint64`,
    /// `uintptr`, `byte`, `rune`, `float32`, `float64`, `complex64`, `complex128`, `any`,
    /// `error`.
    Builtin(Builtin),
    /// A named type in some package.
    Named(NamedRef),
    Pointer(Box<TypeRef>),
    Slice(Box<TypeRef>),
    /// `[N]T`; the length expression is kept as source text.
    Array {
        len: String,
        elem: Box<TypeRef>,
    },
    Map {
        key: Box<TypeRef>,
        value: Box<TypeRef>,
    },
    Struct(StructType),
    /// Interfaces (including `any`-like literals): accepted and never descended.
    Interface,
    /// Channels, functions and anything else the validator does not support; the text
    /// says what it was (`chan`, `func`, ...).
    Unsupported(String),
}

/// Reference to a named type: the import path of its package and its name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NamedRef {
    /// Import path of the declaring package (the current package's own path for local
    /// types). For a qualified name whose import is unknown, the qualifier as written.
    pub package: String,
    pub name: String,
    /// Type arguments of an instantiated generic type, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub type_args: Vec<TypeRef>,
}

/// Go's predeclared types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Builtin {
    String,
    Bool,
    Int,
    Int8,
    Int16,
    Int32,
    Int64,
    Uint,
    Uint8,
    Uint16,
    Uint32,
    Uint64,
    Uintptr,
    Byte,
    Rune,
    Float32,
    Float64,
    Complex64,
    Complex128,
    /// `any` / `interface{}` written as the predeclared `any`.
    Any,
    Error,
}

impl Builtin {
    /// Parses a predeclared type name.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "string" => Builtin::String,
            "bool" => Builtin::Bool,
            "int" => Builtin::Int,
            "int8" => Builtin::Int8,
            "int16" => Builtin::Int16,
            "int32" => Builtin::Int32,
            "int64" => Builtin::Int64,
            "uint" => Builtin::Uint,
            "uint8" => Builtin::Uint8,
            "uint16" => Builtin::Uint16,
            "uint32" => Builtin::Uint32,
            "uint64" => Builtin::Uint64,
            "uintptr" => Builtin::Uintptr,
            "byte" => Builtin::Byte,
            "rune" => Builtin::Rune,
            "float32" => Builtin::Float32,
            "float64" => Builtin::Float64,
            "complex64" => Builtin::Complex64,
            "complex128" => Builtin::Complex128,
            "any" => Builtin::Any,
            "error" => Builtin::Error,
            _ => return None,
        })
    }

    /// The Go spelling.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::String => "string",
            Builtin::Bool => "bool",
            Builtin::Int => "int",
            Builtin::Int8 => "int8",
            Builtin::Int16 => "int16",
            Builtin::Int32 => "int32",
            Builtin::Int64 => "int64",
            Builtin::Uint => "uint",
            Builtin::Uint8 => "uint8",
            Builtin::Uint16 => "uint16",
            Builtin::Uint32 => "uint32",
            Builtin::Uint64 => "uint64",
            Builtin::Uintptr => "uintptr",
            Builtin::Byte => "byte",
            Builtin::Rune => "rune",
            Builtin::Float32 => "float32",
            Builtin::Float64 => "float64",
            Builtin::Complex64 => "complex64",
            Builtin::Complex128 => "complex128",
            Builtin::Any => "any",
            Builtin::Error => "error",
        }
    }

    /// Integer types (gengo treats `int8`, `uint8` and `byte` alike as unsigned 8-bit).
    pub fn is_integer(self) -> bool {
        matches!(
            self,
            Builtin::Int
                | Builtin::Int8
                | Builtin::Int16
                | Builtin::Int32
                | Builtin::Int64
                | Builtin::Uint
                | Builtin::Uint8
                | Builtin::Uint16
                | Builtin::Uint32
                | Builtin::Uint64
                | Builtin::Uintptr
                | Builtin::Byte
                | Builtin::Rune
        )
    }

    /// Floating point types.
    pub fn is_float(self) -> bool {
        matches!(self, Builtin::Float32 | Builtin::Float64)
    }
}

/// A struct type literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StructType {
    pub fields: Vec<Field>,
}

/// One struct field (one per name: `A, B int` yields two fields).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Field {
    /// Go field name; for an embedded field, the type's name (`T` for `*pkg.T`).
    pub name: String,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub embedded: bool,
    pub ty: TypeRef,
    /// The field's declared JSON name and options (Go's `json:"name,opts"` struct tag);
    /// `None` when the field declares none (an empty `json:""` is none).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub json: Option<JsonTag>,
    /// The field's documentation, without tag lines.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub description: String,
    /// The field's tags.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Tags::is_empty")
    )]
    pub tags: Tags,
    pub loc: Loc,
}

/// A field's declared JSON name and options.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JsonTag {
    /// The name part: may be empty (only options given) or `-` (never serialized).
    pub name: String,
    /// The options after the name (`omitempty`, `inline`, ...).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub options: Vec<String>,
}

impl Field {
    /// The JSON name per upstream rules (spec §2.4): with a declared JSON tag, its name
    /// part, where an empty part or `-` means "no name" (`None`); without one, `None` for
    /// embedded fields (inline) and the field name otherwise.
    pub fn json_name(&self) -> Option<&str> {
        match &self.json {
            Some(j) => (!j.name.is_empty() && j.name != "-").then_some(j.name.as_str()),
            None if self.embedded => None,
            None => Some(self.name.as_str()),
        }
    }

    /// Whether the field is exported (first rune upper-case): only exported fields are
    /// decoded.
    pub fn is_exported(&self) -> bool {
        self.name.chars().next().is_some_and(char::is_uppercase)
    }
}

/// A constant declaration (`const C T = "v"`), after Go's implicit repetition in const
/// groups has been applied.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConstDecl {
    pub name: String,
    /// The declared type, if any (after implicit repetition).
    pub ty: Option<TypeRef>,
    pub value: ConstValue,
    /// The constant's documentation, without tag lines.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "String::is_empty")
    )]
    pub description: String,
    /// The constant's tags.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Tags::is_empty")
    )]
    pub tags: Tags,
    pub loc: Loc,
}

/// The value of a constant, as far as a declaration reader can evaluate it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ConstValue {
    String(String),
    Int(i128),
    Float(f64),
    Bool(bool),
    /// Any other expression, kept as source text.
    Expr(String),
}

/// Serialization of the model (feature `serde`), for type models stored as data (the
/// embedded Kubernetes releases). Compact where it matters: a [`Loc`] is `[file, line, col,
/// offset]`, a [`TagLine`] is `[text, loc]` and is parsed again when read, empty fields are
/// left out.
#[cfg(feature = "serde")]
mod serde_impls {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Loc, TagLine};

    impl Serialize for Loc {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            [self.file, self.line, self.col, self.offset].serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Loc {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Loc, D::Error> {
            let [file, line, col, offset] = <[u32; 4]>::deserialize(d)?;
            Ok(Loc {
                file,
                line,
                col,
                offset,
            })
        }
    }

    impl Serialize for TagLine {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            (&self.text, self.loc).serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for TagLine {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TagLine, D::Error> {
            let (text, loc) = <(String, Loc)>::deserialize(d)?;
            if text.is_empty() && loc == Loc::default() {
                return Err(D::Error::custom("empty tag line"));
            }
            Ok(TagLine::new(text, loc))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_18_snippets_are_clipped_around_the_span() {
        let render = |line: &str, col: u32, len: u32| {
            let s = Snippet::new(line, col, len, 20);
            format!("{}\n{}{}", s.text, s.caret_prefix, "^".repeat(s.caret_len))
        };
        // Short lines are shown whole; tabs stay tabs under the caret.
        assert_eq!(render("\t// +k8s:x=1", 5, 5), "\t// +k8s:x=1\n\t   ^^^^^");
        // A long line: a third of the window before the span, the rest after, `…` where cut.
        let long = format!("{}TARGET{}", "a".repeat(100), "b".repeat(100));
        assert_eq!(
            render(&long, 101, 6),
            format!(
                "…{}TARGET{}…\n {}^^^^^^",
                "a".repeat(6),
                "b".repeat(8),
                " ".repeat(6)
            )
        );
        // At the start: nothing cut on the left.
        assert_eq!(render(&long, 1, 1), format!("{}…\n^", "a".repeat(20)));
        // A span wider than the window: its start is shown, the caret stops at the cut.
        let s = Snippet::new(&long, 101, 200, 20);
        assert!(s.text.ends_with('…') && s.caret_len < 20, "{s:?}");
        // Characters, not bytes: the cut never splits one, and the caret counts them.
        let wide = format!("{}é{}", "é".repeat(50), "x".repeat(50));
        let s = Snippet::new(&wide, 101, 2, 20);
        assert!(s.text.starts_with('…'), "{s:?}");
        assert_eq!(s.caret_len, 1);
        assert_eq!(s.caret_prefix.chars().count(), 1 + 6);
        // Control characters are escaped, and the caret moves past their escapes.
        let s = Snippet::new("a\u{1b}[31mb", 7, 1, 120);
        assert_eq!(s.text, "a\\u{1b}[31mb");
        assert_eq!(s.caret_prefix, " ".repeat(11));
        // A span past the end of the line points just after it.
        let s = Snippet::new("abc", 10, 1, 120);
        assert_eq!(
            (s.text.as_str(), s.caret_prefix.as_str(), s.caret_len),
            ("abc", "   ", 1)
        );
    }

    #[test]
    fn item_02_snippets_of_long_lines_read_a_window_around_the_span() {
        // The clipped reading renders exactly what reading the whole line renders.
        let lines = [
            format!("{}TARGET{}", "a".repeat(500), "b".repeat(500)),
            format!("{}é\u{1b}x{}", "é".repeat(300), "\tx".repeat(300)),
            "short".to_owned(),
        ];
        for line in &lines {
            for col in [
                1, 2, 20, 21, 22, 23, 100, 301, 302, 500, 501, 600, 1000, 1006, 2000,
            ] {
                for len in [1, 6, 40, 5000] {
                    for width in [1, 20, 120] {
                        assert_eq!(
                            Snippet::new(line, col, len, width),
                            Snippet::new_within(line, col, len, width),
                            "col {col} len {len} width {width}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn item_02_spans_on_long_lines_keep_a_window_and_render_as_the_whole_line() {
        let lines = [
            format!("{}TARGET{}", "a".repeat(5000), "b".repeat(5000)),
            format!("{}é\u{1b}x{}", "é".repeat(3000), "\tx".repeat(3000)),
            "short é line".to_owned(),
        ];
        for text in &lines {
            let starts = (0..=text.len()).filter(|&i| text.is_char_boundary(i));
            for start in starts.step_by(97).chain([0, text.len()]) {
                let chars = text[..start].chars().count();
                for len in [1, 6, 300, 50_000] {
                    let whole = SourceSpan {
                        path: "f.json".into(),
                        line: 3,
                        col: start as u32 + 1,
                        len,
                        line_text: text.clone(),
                        text_start: TextStart::default(),
                    };
                    let kept = SourceSpan::in_line("f.json".into(), 3, text, start, chars, len)
                        .expect("span");
                    // What is kept is bounded by the window, not by the line.
                    assert!(
                        kept.line_text.len() <= LONG_LINE_BYTES.max(4 * (2 * SNIPPET_COLUMNS + 4)),
                        "{}",
                        kept.line_text.len()
                    );
                    assert_eq!(kept.col, whole.col);
                    let d = |span| Diagnostic::error("m", Some(span)).to_string();
                    assert_eq!(d(kept.clone()), d(whole.clone()), "start {start} len {len}");
                    assert_eq!(
                        kept.char_column(kept.col as usize),
                        whole.char_column(whole.col as usize),
                        "start {start}"
                    );
                    if len < SNIPPET_COLUMNS as u32 {
                        let end = |s: &SourceSpan| s.char_column((s.col + s.len) as usize);
                        assert_eq!(end(&kept), end(&whole), "start {start} len {len}");
                    }
                }
            }
        }
    }

    #[test]
    fn columns_count_characters() {
        let span = |text: &str| SourceSpan {
            path: "f".into(),
            line: 1,
            col: 1,
            len: 1,
            line_text: text.into(),
            text_start: TextStart::default(),
        };
        assert_eq!(span("\tab").char_column(2), 2);
        assert_eq!(span("\u{e9}\u{e9}x").char_column(5), 3);
        assert_eq!(span("").char_column(9), 1);
        // A byte inside a character counts the character.
        assert_eq!(span("\u{e9}x").char_column(2), 2);
    }

    #[test]
    fn item_18_long_messages_are_clipped() {
        let long = format!("unsupported format \"{}\"", "x".repeat(5000));
        let d = Diagnostic::error(long, None);
        let shown = d.to_string();
        assert!(
            shown.chars().count() < MESSAGE_CHARS + 50,
            "{}",
            shown.len()
        );
        assert!(shown.contains("…[4021 characters]…"), "{shown}");
        assert!(shown.ends_with("xx\""));
        let short = Diagnostic::error("short", None);
        assert_eq!(short.to_string(), "error: short");
    }

    #[test]
    fn spans_find_their_line_by_offset_or_by_counting() {
        let file = SourceFile {
            path: "f.go".into(),
            text: "package p\r\n\n\t// +k8s:x\nlast".into(),
        };
        let at = |line, col, offset| {
            SourceSpan::from_loc(
                &file,
                Loc {
                    file: 0,
                    line,
                    col,
                    offset,
                },
                1,
            )
            .line_text
        };
        assert_eq!(at(1, 1, 0), "package p");
        assert_eq!(at(2, 1, 11), "");
        assert_eq!(at(3, 5, 16), "\t// +k8s:x");
        assert_eq!(at(4, 2, 24), "last");
        // A location built without an offset: the line is counted.
        assert_eq!(at(3, 5, 0), "\t// +k8s:x");
        assert_eq!(at(9, 1, 0), "");
    }

    fn field(name: &str, embedded: bool, json: Option<&str>) -> Field {
        Field {
            name: name.into(),
            embedded,
            ty: TypeRef::Builtin(Builtin::String),
            json: json.map(|j| {
                let mut parts = j.split(',');
                JsonTag {
                    name: parts.next().unwrap_or("").to_string(),
                    options: parts.map(str::to_string).collect(),
                }
            }),
            description: String::new(),
            tags: Tags::default(),
            loc: Loc::default(),
        }
    }

    #[test]
    fn diagnostic_renders_with_caret() {
        let file = SourceFile {
            path: "types.go".into(),
            text: "package x\n\t// +k8s:minimum=x\n".into(),
        };
        let loc = Loc {
            file: 0,
            line: 2,
            col: 5,
            offset: 14,
        };
        let d = Diagnostic::error("bad tag", Some(SourceSpan::from_loc(&file, loc, 3)));
        assert_eq!(
            d.to_string(),
            "types.go:2:5: error: bad tag\n  |\n2 | \t// +k8s:minimum=x\n  | \t   ^^^"
        );
    }

    #[test]
    fn json_names_follow_upstream() {
        assert_eq!(
            field("A", false, Some("a,omitempty")).json_name(),
            Some("a")
        );
        assert_eq!(field("A", false, None).json_name(), Some("A"));
        assert_eq!(field("T", true, None).json_name(), None);
        assert_eq!(field("T", true, Some(",inline")).json_name(), None);
        assert_eq!(field("A", false, Some("-")).json_name(), None);
        assert_eq!(field("A", false, Some(",omitempty")).json_name(), None);
        assert_eq!(field("A", false, Some("x  ")).json_name(), Some("x  "));
    }

    #[test]
    fn tag_lines_parse_and_read_raw_values() {
        let loc = Loc::default();
        let t = TagLine::new("k8s:minimum=1", loc);
        assert_eq!(t.name, "k8s:minimum");
        assert!(t.parsed.is_ok());
        let g = TagLine::new("groupName=example.com", loc);
        assert_eq!(g.name, "groupName");
        assert_eq!(g.raw_value(), "example.com");
        let tags = Tags {
            lines: vec![t, g, TagLine::new("k8s:validation-gen=*", loc)],
        };
        assert_eq!(tags.raw_values("k8s:validation-gen"), ["*"]);
        assert_eq!(tags.named("k8s:minimum").count(), 1);
    }
}

/// One comment line with the comment marker (`//`, or the `/*` `*/` frame) removed, as
/// gengo's `CommentLines` gives it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CommentLine {
    /// The line's text.
    pub text: String,
    /// Location of the first byte of `text` in the source.
    pub loc: Loc,
}

/// A block of consecutive comment lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Comments {
    /// The lines, in source order.
    pub lines: Vec<CommentLine>,
}

impl Comments {
    /// True when the block holds no lines.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The tag lines of the block (lines starting with `+` after spaces and tabs), as the
    /// model carries them.
    pub fn tags(&self) -> Tags {
        let lines = self
            .lines
            .iter()
            .filter_map(|l| {
                let text = l.text.trim_start_matches([' ', '\t']).strip_prefix('+')?;
                let skipped = (l.text.len() - text.len()) as u32;
                let loc = Loc {
                    col: l.loc.col + skipped,
                    offset: l.loc.offset + skipped,
                    ..l.loc
                };
                Some(TagLine::new(text, loc))
            })
            .collect();
        Tags { lines }
    }

    /// The documentation text: the lines that are not tags, one leading space removed from
    /// each, without leading and trailing blank lines.
    pub fn description(&self) -> String {
        let lines: Vec<&str> = self
            .lines
            .iter()
            .map(|l| l.text.as_str())
            .filter(|t| !t.trim_start_matches([' ', '\t']).starts_with('+'))
            .map(|t| t.strip_prefix(' ').unwrap_or(t))
            .collect();
        let first = lines.iter().position(|l| !l.trim().is_empty());
        let last = lines.iter().rposition(|l| !l.trim().is_empty());
        match (first, last) {
            (Some(a), Some(b)) => lines[a..=b].join("\n"),
            _ => String::new(),
        }
    }
}
