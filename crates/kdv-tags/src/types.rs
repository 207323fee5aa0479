//! The parsed form of a tag.

use std::fmt;

use crate::go_quote;

/// A byte range `start..end` into the text handed to the parser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// The range `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty range at `at` (a caret position).
    pub fn empty(at: usize) -> Span {
        Span { start: at, end: at }
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the range covers no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// This range moved right by `offset` bytes (to make it relative to an enclosing text).
    pub fn shifted(self, offset: usize) -> Span {
        Span {
            start: self.start.saturating_add(offset),
            end: self.end.saturating_add(offset),
        }
    }
}

/// The type of a tag value or argument, as upstream names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// No value (the tag has no `=`); renders as the empty string.
    #[default]
    None,
    /// A quoted string or a naked identifier other than `true`/`false`.
    String,
    /// An integer literal (decimal, `0x`, `0o`, `0b`, optional sign).
    Int,
    /// `true` or `false`.
    Bool,
    /// A chained tag (`=+other`).
    Tag,
    /// Raw-mode text after `=`.
    Raw,
}

impl ValueType {
    /// Upstream spelling: `""`, `"string"`, `"int"`, `"bool"`, `"tag"`, `"raw"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::None => "",
            ValueType::String => "string",
            ValueType::Int => "int",
            ValueType::Bool => "bool",
            ValueType::Tag => "tag",
            ValueType::Raw => "raw",
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value of an argument inside `(...)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgValue {
    /// A quoted string (unescaped) or a naked identifier.
    String(String),
    /// An integer literal, kept as written (`0x10`, `-5`, `+3`).
    Int(String),
    /// A naked `true`/`false`.
    Bool(bool),
}

impl ArgValue {
    /// `String`, `Int` or `Bool`.
    pub fn value_type(&self) -> ValueType {
        match self {
            ArgValue::String(_) => ValueType::String,
            ArgValue::Int(_) => ValueType::Int,
            ArgValue::Bool(_) => ValueType::Bool,
        }
    }

    /// The value as upstream stores it (`Arg.Value`): string content, int text, or
    /// `true`/`false`.
    pub fn as_str(&self) -> &str {
        match self {
            ArgValue::String(s) | ArgValue::Int(s) => s,
            ArgValue::Bool(b) => bool_str(*b),
        }
    }
}

/// One argument of a tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arg {
    /// The argument name; `None` for the positional argument.
    pub name: Option<String>,
    /// The typed value.
    pub value: ArgValue,
    /// The argument's text (`name: value` or just `value`).
    pub span: Span,
}

impl Arg {
    /// Upstream's `Arg.String()` exactly (strings rendered with Go `strconv.Quote`), which is
    /// what Go's `%v`/`%q` print for an argument in upstream error messages.
    pub fn to_go_string(&self) -> String {
        let mut out = String::new();
        if let Some(name) = &self.name {
            out.push_str(name);
            out.push_str(": ");
        }
        match &self.value {
            ArgValue::String(s) => out.push_str(&go_quote(s)),
            other => out.push_str(other.as_str()),
        }
        out
    }
}

impl fmt::Display for Arg {
    /// `name: value` with strings re-quoted so the text parses back to the same argument.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.name {
            write!(f, "{name}: ")?;
        }
        match &self.value {
            ArgValue::String(s) => write_quoted(f, s),
            other => f.write_str(other.as_str()),
        }
    }
}

/// The value after `=`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum TagValue {
    /// No `=` (or, after an argument list, an empty value; see [`crate::parse_tag`]).
    #[default]
    None,
    /// A quoted string (unescaped) or a naked identifier.
    String(String),
    /// An integer literal, kept as written (`1`, `+5`, `0x10`).
    Int(String),
    /// A naked `true`/`false`.
    Bool(bool),
    /// A chained tag (`=+other…`).
    Tag(Box<Tag>),
    /// Raw-mode text: everything after `=` up to the last non-whitespace character.
    Raw(String),
}

impl TagValue {
    /// The type of this value.
    pub fn value_type(&self) -> ValueType {
        match self {
            TagValue::None => ValueType::None,
            TagValue::String(_) => ValueType::String,
            TagValue::Int(_) => ValueType::Int,
            TagValue::Bool(_) => ValueType::Bool,
            TagValue::Tag(_) => ValueType::Tag,
            TagValue::Raw(_) => ValueType::Raw,
        }
    }

    /// The scalar value as upstream stores it (`Tag.Value`); `None` for no value and for a
    /// chained tag.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            TagValue::String(s) | TagValue::Int(s) | TagValue::Raw(s) => Some(s),
            TagValue::Bool(b) => Some(bool_str(*b)),
            TagValue::None | TagValue::Tag(_) => None,
        }
    }
}

/// One parsed comment tag, possibly with a chain of nested tags as its value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tag {
    /// The tag name, e.g. `k8s:minimum`.
    pub name: String,
    /// Where the name is.
    pub name_span: Span,
    /// Arguments in source order: either one positional argument or named ones.
    pub args: Vec<Arg>,
    /// The value after `=`; the final scalar of a chain belongs to the innermost tag.
    pub value: TagValue,
    /// Where the value is: the token after `=` (with quotes), the `+…` of a chained tag, or
    /// the raw text. `None` when there is no value.
    pub value_span: Option<Span>,
    /// The whole tag from its name to the end of its value (without a trailing comment).
    pub span: Span,
}

impl Tag {
    /// The positional argument, if the tag has one (upstream `PositionalArg`).
    pub fn positional(&self) -> Option<&Arg> {
        self.args.first().filter(|a| a.name.is_none())
    }

    /// The first named argument called `name` (upstream `NamedArg`); never matches the
    /// positional argument, and an empty `name` matches nothing.
    pub fn named(&self, name: &str) -> Option<&Arg> {
        if name.is_empty() {
            return None;
        }
        self.args.iter().find(|a| a.name.as_deref() == Some(name))
    }

    /// The type of the value.
    pub fn value_type(&self) -> ValueType {
        self.value.value_type()
    }

    /// The chained tag, when the value is `=+other`.
    pub fn value_tag(&self) -> Option<&Tag> {
        match &self.value {
            TagValue::Tag(t) => Some(t),
            _ => None,
        }
    }

    /// This tag followed by every tag chained below it, outermost first.
    pub fn chain(&self) -> impl Iterator<Item = &Tag> {
        std::iter::successors(Some(self), |t| t.value_tag())
    }

    /// Upstream's `Tag.String()` exactly: strings rendered with Go `strconv.Quote`. For
    /// strings of printable characters this equals [`Display`](fmt::Display).
    pub fn to_go_string(&self) -> String {
        let mut out = String::new();
        for (i, tag) in self.chain().enumerate() {
            if i > 0 {
                out.push_str("=+");
            }
            out.push_str(&tag.name);
            if !tag.args.is_empty() {
                out.push('(');
                for (j, arg) in tag.args.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&arg.to_go_string());
                }
                out.push(')');
            }
            match &tag.value {
                TagValue::String(s) => {
                    out.push('=');
                    out.push_str(&go_quote(s));
                }
                value => {
                    if let Some(text) = value.as_str() {
                        out.push('=');
                        out.push_str(text);
                    }
                }
            }
        }
        out
    }
}

impl fmt::Display for Tag {
    /// The canonical tag text, as upstream's `Tag.String()` renders it: `name(args)=value`,
    /// args joined by `", "`, strings double-quoted, chains as `=+inner`, no comment.
    ///
    /// Unlike upstream, strings escape only `"` and `\` (upstream's Go escapes for
    /// non-printable characters are not accepted by the grammar), so the output always parses
    /// back to the same tag (raw values with [`crate::parse_tag_raw`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative over the chain so rendering never recurses.
        for (i, tag) in self.chain().enumerate() {
            if i > 0 {
                f.write_str("=+")?;
            }
            f.write_str(&tag.name)?;
            if !tag.args.is_empty() {
                f.write_str("(")?;
                for (j, arg) in tag.args.iter().enumerate() {
                    if j > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{arg}")?;
                }
                f.write_str(")")?;
            }
            match &tag.value {
                TagValue::String(s) => {
                    f.write_str("=")?;
                    write_quoted(f, s)?;
                }
                value => {
                    if let Some(text) = value.as_str() {
                        write!(f, "={text}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A tag that failed to parse.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TagError {
    /// Upstream's message, e.g. `unexpected character ' ' at position 5`.
    pub message: String,
    /// The offending text (empty at the end of input for `unexpected end of input`).
    pub span: Span,
}

impl fmt::Display for TagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TagError {}

fn bool_str(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

/// Double-quotes `s`, escaping only what the grammar's strings can unescape.
fn write_quoted(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    let mut rest = s;
    while let Some(i) = rest.find(['"', '\\']) {
        f.write_str(&rest[..i])?;
        f.write_str("\\")?;
        f.write_str(&rest[i..i + 1])?;
        rest = &rest[i + 1..];
    }
    f.write_str(rest)?;
    f.write_str("\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(name: Option<&str>, value: ArgValue) -> Arg {
        Arg {
            name: name.map(str::to_owned),
            value,
            span: Span::default(),
        }
    }

    #[test]
    fn value_type_spelling() {
        let all = [
            (ValueType::None, ""),
            (ValueType::String, "string"),
            (ValueType::Int, "int"),
            (ValueType::Bool, "bool"),
            (ValueType::Tag, "tag"),
            (ValueType::Raw, "raw"),
        ];
        for (t, s) in all {
            assert_eq!(t.to_string(), s);
        }
    }

    #[test]
    fn positional_and_named_lookup() {
        let tag = Tag {
            name: "t".into(),
            args: vec![arg(None, ArgValue::String("x".into()))],
            ..Tag::default()
        };
        assert_eq!(tag.positional().map(|a| a.value.as_str()), Some("x"));
        assert!(tag.named("").is_none());

        let tag = Tag {
            name: "t".into(),
            args: vec![
                arg(Some("a"), ArgValue::Int("1".into())),
                arg(Some("b"), ArgValue::Bool(true)),
                arg(Some("a"), ArgValue::Int("2".into())),
            ],
            ..Tag::default()
        };
        assert!(tag.positional().is_none());
        assert_eq!(tag.named("a").map(|a| a.value.as_str()), Some("1"));
        assert_eq!(
            tag.named("b").map(|a| a.value.value_type()),
            Some(ValueType::Bool)
        );
        assert!(tag.named("c").is_none());
    }

    #[test]
    fn display_and_go_string() {
        let inner = Tag {
            name: "k8s:minimum".into(),
            value: TagValue::Int("+5".into()),
            ..Tag::default()
        };
        let tag = Tag {
            name: "k8s:item".into(),
            args: vec![
                arg(Some("a"), ArgValue::String("x \"y\" \\ z".into())),
                arg(Some("b"), ArgValue::Bool(false)),
            ],
            value: TagValue::Tag(Box::new(inner)),
            ..Tag::default()
        };
        let want = r#"k8s:item(a: "x \"y\" \\ z", b: false)=+k8s:minimum=+5"#;
        assert_eq!(tag.to_string(), want);
        assert_eq!(tag.to_go_string(), want);

        let tabbed = Tag {
            name: "n".into(),
            value: TagValue::String("a\tb".into()),
            ..Tag::default()
        };
        assert_eq!(tabbed.to_string(), "n=\"a\tb\"");
        assert_eq!(tabbed.to_go_string(), r#"n="a\tb""#);

        let raw = Tag {
            name: "default".into(),
            value: TagValue::Raw(" {\"a\": 1} # c".into()),
            ..Tag::default()
        };
        assert_eq!(raw.to_string(), "default= {\"a\": 1} # c");
        assert_eq!(
            arg(Some("k"), ArgValue::String("v".into())).to_go_string(),
            r#"k: "v""#
        );
    }
}
