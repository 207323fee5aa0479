//! The tag grammar (spec §1.3): `name(args)=value`, `=+chained`, trailing `# comment`.
//!
//! Behaviour, including quirks, follows upstream `codetags.Parse` as of the spec snapshot:
//!
//! * the input is trimmed (Unicode whitespace) before parsing; an empty input is a tag with an
//!   empty name;
//! * error positions in messages count characters (not bytes) of the trimmed input, and for
//!   `unexpected character` the position is the one *after* the offending character, as
//!   upstream reports it; [`TagError::span`] carries the exact byte range instead;
//! * after an argument list an empty value (`name(x)=`) is accepted as "no value";
//! * an argument name followed by no value (`name(a:)`) is dropped but remembered, and names
//!   the next argument read, even one of a chained tag (`x(a:)=+y(1)` gives `y(a: 1)`).

use crate::chars::{is_digit, is_ident_begin, is_ident_interior, is_space, is_tag_name_interior};
use crate::gostrconv::{self, Base};
use crate::types::{Arg, ArgValue, Span, Tag, TagError, TagValue};
use crate::{go_quote, go_quote_rune};

/// The most tags one chain may hold (`a=+b=+c…`); a longer chain is an error rather than an
/// ever-deeper nested value.
pub const MAX_CHAIN_DEPTH: usize = 64;

/// Parses one tag with typed values (upstream's default mode).
///
/// `text` is a comment line's remainder starting at the tag name, i.e. after the `+`
/// (typically [`crate::ExtractedLine::text`]); surrounding whitespace is ignored. All spans
/// in the result and in the error are byte ranges into `text`.
pub fn parse_tag(text: &str) -> Result<Tag, TagError> {
    Parser::new(text, Mode::Typed).parse()
}

/// Parses one tag in raw-values mode (upstream `RawValues(true)`): everything after the first
/// top-level `=` up to the last non-whitespace character is the value, untyped
/// ([`TagValue::Raw`], possibly empty), including any `#`. Chaining is not recognised;
/// arguments are parsed as in [`parse_tag`]. Callers that accept only one positional string
/// argument (upstream's `ExtractFunctionStyleCommentTags`) check that themselves.
pub fn parse_tag_raw(text: &str) -> Result<Tag, TagError> {
    Parser::new(text, Mode::Raw).parse()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Typed,
    Raw,
}

/// A position in the trimmed input.
struct Cursor<'a> {
    /// The trimmed input.
    text: &'a str,
    /// Byte offset of `text` within the caller's text.
    base: usize,
    /// Byte offset of the next character in `text`.
    pos: usize,
    /// Characters consumed so far (upstream's positions count characters).
    chars: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        self.text[self.pos..].chars().nth(1)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        self.chars += 1;
        Some(c)
    }

    fn bump_while(&mut self, pred: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&pred) {
            self.bump();
        }
    }

    fn skip_to_end(&mut self) {
        self.chars += self.text[self.pos..].chars().count();
        self.pos = self.text.len();
    }

    /// Whether only whitespace separates the cursor from a `#`.
    fn at_trailing_comment(&self) -> bool {
        self.text[self.pos..]
            .trim_start_matches(is_space)
            .starts_with('#')
    }

    /// A byte range of the trimmed input, made relative to the caller's text.
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(start, end).shifted(self.base)
    }

    fn error(&self, message: String, start: usize, end: usize) -> TagError {
        TagError {
            message,
            span: self.span(start, end),
        }
    }

    /// An identifier whose first character the caller has checked.
    fn ident(&mut self, interior: fn(char) -> bool) -> &'a str {
        let start = self.pos;
        self.bump();
        self.bump_while(interior);
        &self.text[start..self.pos]
    }

    /// A number: an optional sign, then `0` with an optional `x`/`o`/`b`, or a digit, then
    /// digits and hex letters. The text must be a valid Go integer literal for int64.
    fn number(&mut self) -> Result<&'a str, TagError> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.bump();
        }
        let has_body = match self.peek() {
            // After a leading `0` only a digit or a base letter continues the number, so
            // `0a` is the number `0` followed by a stray `a`.
            Some('0') => {
                self.bump();
                match self.peek() {
                    Some('x' | 'o' | 'b') => true,
                    Some(c) => is_digit(c),
                    None => false,
                }
            }
            Some(c) => is_digit(c),
            None => false,
        };
        if has_body {
            self.bump();
            self.bump_while(|c| is_digit(c) || c.is_ascii_hexdigit());
        }
        let text = &self.text[start..self.pos];
        if gostrconv::parse_int(text, Base::Prefixed).is_err() {
            return Err(self.error(
                format!(
                    "invalid number {} at position {}",
                    go_quote(text),
                    self.chars
                ),
                start,
                self.pos,
            ));
        }
        Ok(text)
    }

    /// A `"…"` or `` `…` `` string whose opening quote the caller has checked. Inside, only
    /// the quote character itself and `\` may be escaped.
    fn string(&mut self) -> Result<String, TagError> {
        let start = self.pos;
        let Some(quote) = self.bump() else {
            return Err(self.error("unexpected end of input".into(), start, start));
        };
        let mut out = String::new();
        loop {
            match self.bump() {
                None => break,
                Some(c) if c == quote => return Ok(out),
                Some('\\') => {
                    let escape_start = self.pos - 1;
                    match self.peek() {
                        None => break,
                        Some(c) if c == quote || c == '\\' => {
                            self.bump();
                            out.push(c);
                        }
                        Some(c) => {
                            return Err(self.error(
                                format!("unhandled escaped character {}", go_quote_rune(c)),
                                escape_start,
                                self.pos + c.len_utf8(),
                            ));
                        }
                    }
                }
                Some(c) => out.push(c),
            }
        }
        Err(self.error(
            format!("unterminated string at position {}", self.chars),
            start,
            self.pos,
        ))
    }
}

/// One tag of a chain while it is being read.
struct Link {
    name: String,
    name_span: Span,
    args: Vec<Arg>,
    /// `(` through `)`, once the list is closed.
    args_span: Option<Span>,
    /// Byte offset (trimmed input) of the `+` introducing the chained tag, if any.
    chain_start: Option<usize>,
}

struct Parser<'a> {
    cur: Cursor<'a>,
    mode: Mode,
    links: Vec<Link>,
    /// A `name:` still waiting for its value.
    pending_name: Option<(String, usize)>,
    /// The final scalar value and its byte range (trimmed input).
    value: Option<(TagValue, usize, usize)>,
    /// Inside an unclosed `(`, or after a `=` that must be followed by a value.
    incomplete: bool,
}

/// Where the main loop stopped.
enum Stop {
    /// Anything left over is an error.
    Done,
    /// A trailing `# comment` may follow.
    MaybeComment,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, mode: Mode) -> Parser<'a> {
        let trimmed = text.trim();
        let base = text.len() - text.trim_start().len();
        Parser {
            cur: Cursor {
                text: trimmed,
                base,
                pos: 0,
                chars: 0,
            },
            mode,
            links: Vec::new(),
            pending_name: None,
            value: None,
            incomplete: false,
        }
    }

    fn parse(mut self) -> Result<Tag, TagError> {
        let stop = self.chain()?;
        let content_end = self.cur.pos;
        if matches!(stop, Stop::MaybeComment) && self.cur.at_trailing_comment() {
            self.cur.skip_to_end();
        }
        if let Some(c) = self.cur.peek() {
            let at = self.cur.pos;
            return Err(self.cur.error(
                format!(
                    "unexpected character {} at position {}",
                    go_quote_rune(c),
                    self.cur.chars + 1
                ),
                at,
                at + c.len_utf8(),
            ));
        }
        if self.incomplete {
            let end = self.cur.pos;
            return Err(self.cur.error("unexpected end of input".into(), end, end));
        }
        if let Some(last) = self.links.last() {
            self.check_args(last)?;
        }
        Ok(self.build(content_end))
    }

    /// Reads the chain of tags up to a trailing comment or the first character that fits no
    /// rule.
    fn chain(&mut self) -> Result<Stop, TagError> {
        loop {
            match self.cur.peek() {
                Some(c) if is_ident_begin(c) => {}
                _ => return Ok(Stop::Done),
            }
            let name_start = self.cur.pos;
            let name = self.cur.ident(is_tag_name_interior);
            let name_span = self.cur.span(name_start, self.cur.pos);
            if self.links.len() >= MAX_CHAIN_DEPTH {
                return Err(TagError {
                    message: format!(
                        "too many chained tags: a chain may hold at most {MAX_CHAIN_DEPTH} tags"
                    ),
                    span: name_span,
                });
            }
            self.links.push(Link {
                name: name.to_owned(),
                name_span,
                args: Vec::new(),
                args_span: None,
                chain_start: None,
            });

            match self.cur.peek() {
                None => return Ok(Stop::Done),
                Some('(') => {
                    let open = self.cur.pos;
                    self.cur.bump();
                    self.incomplete = true;
                    if !self.args()? {
                        return Ok(Stop::Done);
                    }
                    self.incomplete = false;
                    let args_span = self.cur.span(open, self.cur.pos);
                    self.last_link().args_span = Some(args_span);
                    match self.cur.peek() {
                        None => return Ok(Stop::Done),
                        Some('=') => {
                            // Upstream does not require a value here (see the module docs).
                            self.cur.bump();
                            self.start_raw_value();
                        }
                        Some(_) => return Ok(Stop::MaybeComment),
                    }
                }
                Some('=') => {
                    self.cur.bump();
                    match self.mode {
                        Mode::Raw => self.start_raw_value(),
                        Mode::Typed => self.incomplete = true,
                    }
                }
                Some(_) => return Ok(Stop::MaybeComment),
            }

            // After `=`.
            let Some(c) = self.cur.peek() else {
                return Ok(Stop::Done);
            };
            let start = self.cur.pos;
            if self.mode == Mode::Raw {
                let raw = self.cur.text[start..].to_owned();
                self.cur.skip_to_end();
                self.value = Some((TagValue::Raw(raw), start, self.cur.pos));
                return Ok(Stop::Done);
            }
            if c == '+' && self.cur.peek_second().is_some_and(is_ident_begin) {
                self.incomplete = false;
                self.cur.bump();
                // Each tag's arguments are checked as soon as the chain moves past it.
                let link = self.links.last().map(|l| self.check_args(l));
                if let Some(Err(e)) = link {
                    return Err(e);
                }
                self.last_link().chain_start = Some(start);
                continue;
            }
            let value = if c == '-' || c == '+' || is_digit(c) {
                self.incomplete = false;
                TagValue::Int(self.cur.number()?.to_owned())
            } else if c == '"' || c == '`' {
                self.incomplete = false;
                TagValue::String(self.cur.string()?)
            } else if is_ident_begin(c) {
                self.incomplete = false;
                match self.cur.ident(is_ident_interior) {
                    "true" => TagValue::Bool(true),
                    "false" => TagValue::Bool(false),
                    other => TagValue::String(other.to_owned()),
                }
            } else {
                return Ok(Stop::Done);
            };
            self.value = Some((value, start, self.cur.pos));
            return Ok(Stop::MaybeComment);
        }
    }

    /// In raw mode a value exists as soon as `=` is read, even if nothing follows.
    fn start_raw_value(&mut self) {
        if self.mode == Mode::Raw {
            let at = self.cur.pos;
            self.value = Some((TagValue::Raw(String::new()), at, at));
        }
    }

    /// Reads arguments after `(`. Returns whether the closing `)` was read.
    fn args(&mut self) -> Result<bool, TagError> {
        loop {
            let Some(c) = self.cur.peek() else {
                return Ok(false);
            };
            if c == ')' {
                self.cur.bump();
                return Ok(true);
            }
            let start = self.cur.pos;
            let value = if c == '-' || c == '+' || is_digit(c) {
                ArgValue::Int(self.cur.number()?.to_owned())
            } else if c == '"' || c == '`' {
                ArgValue::String(self.cur.string()?)
            } else if is_ident_begin(c) {
                let ident = self.cur.ident(is_ident_interior);
                match self.cur.peek() {
                    Some(',' | ')') => match ident {
                        "true" => ArgValue::Bool(true),
                        "false" => ArgValue::Bool(false),
                        other => ArgValue::String(other.to_owned()),
                    },
                    Some(':') => {
                        self.cur.bump();
                        self.cur.bump_while(is_space);
                        self.pending_name = Some((ident.to_owned(), start));
                        continue;
                    }
                    _ => return Ok(false),
                }
            } else {
                return Ok(false);
            };
            let (name, arg_start) = match self.pending_name.take() {
                // A name left over from an earlier tag of the chain would make the span cross
                // tags; the value alone is the better caret then.
                Some((name, name_start)) => {
                    let tag_start = self.last_link().name_span.start - self.cur.base;
                    (
                        Some(name),
                        if name_start < tag_start {
                            start
                        } else {
                            name_start
                        },
                    )
                }
                None => (None, start),
            };
            let span = self.cur.span(arg_start, self.cur.pos);
            self.last_link().args.push(Arg { name, value, span });
            match self.cur.peek() {
                Some(',') => {
                    self.cur.bump();
                    self.cur.bump_while(is_space);
                }
                Some(')') => {
                    self.cur.bump();
                    return Ok(true);
                }
                _ => return Ok(false),
            }
        }
    }

    fn last_link(&mut self) -> &mut Link {
        // Callers run only after the current tag's link was pushed.
        self.links
            .last_mut()
            .expect("a link is pushed before its arguments or value are read")
    }

    /// Either one positional argument or only named ones.
    fn check_args(&self, link: &Link) -> Result<(), TagError> {
        let mut named = false;
        for (i, arg) in link.args.iter().enumerate() {
            let is_named = arg.name.is_some();
            if (named && !is_named) || (!named && is_named && i > 0) {
                return Err(TagError {
                    message: "can't mix named and positional arguments".into(),
                    span: arg.span,
                });
            }
            named |= is_named;
        }
        if !named && link.args.len() > 1 {
            return Err(TagError {
                message: "multiple arguments must use 'name: value' syntax".into(),
                span: link.args_span.unwrap_or(link.name_span),
            });
        }
        Ok(())
    }

    /// Nests the links innermost-first; the scalar value belongs to the innermost tag.
    fn build(mut self, content_end: usize) -> Tag {
        let end = self.cur.base + content_end;
        let (mut value, mut value_span) = match self.value.take() {
            Some((v, s, e)) => (v, Some(self.cur.span(s, e))),
            None => (TagValue::None, None),
        };
        let Some(innermost) = self.links.pop() else {
            // Empty input: upstream yields a tag with an empty name.
            let at = Span::empty(self.cur.base);
            return Tag {
                name_span: at,
                span: at,
                ..Tag::default()
            };
        };
        let mut link = innermost;
        loop {
            let tag = Tag {
                span: Span::new(link.name_span.start, end),
                name: link.name,
                name_span: link.name_span,
                args: link.args,
                value,
                value_span,
            };
            let Some(outer) = self.links.pop() else {
                return tag;
            };
            value_span = outer.chain_start.map(|s| Span::new(s + self.cur.base, end));
            value = TagValue::Tag(Box::new(tag));
            link = outer;
        }
    }
}
