//! Go tokenizer: the full lexical grammar of the Go specification, with automatic semicolon
//! insertion. Comments are collected on the side (with the index of the token they follow)
//! so that comment groups can be built the way `go/parser` builds them.

/// Token kinds. Operators that the declaration parser never distinguishes share `Op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An identifier.
    Ident,
    /// An integer literal.
    Int,
    /// A floating-point literal.
    Float,
    /// An imaginary literal.
    Imag,
    /// A rune literal.
    Rune,
    /// Interpreted string literal `"..."`.
    Str,
    /// Raw string literal `` `...` ``.
    RawStr,
    /// `;` written in the source.
    Semi,
    /// `;` inserted at a newline or at the end of the file.
    AutoSemi,
    /// End of input (always the last token).
    Eof,
    /// A character that cannot start a token (already reported by the lexer).
    Illegal,
    // Keywords.
    /// The keyword `break`.
    Break,
    /// The keyword `case`.
    Case,
    /// The keyword `chan`.
    Chan,
    /// The keyword `const`.
    Const,
    /// The keyword `continue`.
    Continue,
    /// The keyword `default`.
    Default,
    /// The keyword `defer`.
    Defer,
    /// The keyword `else`.
    Else,
    /// The keyword `fallthrough`.
    Fallthrough,
    /// The keyword `for`.
    For,
    /// The keyword `func`.
    Func,
    /// The keyword `go`.
    Go,
    /// The keyword `goto`.
    Goto,
    /// The keyword `if`.
    If,
    /// The keyword `import`.
    Import,
    /// The keyword `interface`.
    Interface,
    /// The keyword `map`.
    Map,
    /// The keyword `package`.
    Package,
    /// The keyword `range`.
    Range,
    /// The keyword `return`.
    Return,
    /// The keyword `select`.
    Select,
    /// The keyword `struct`.
    Struct,
    /// The keyword `switch`.
    Switch,
    /// The keyword `type`.
    Type,
    /// The keyword `var`.
    Var,
    // Punctuation the parser looks at.
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBrack,
    /// `]`
    RBrack,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `...`
    Ellipsis,
    /// `:`
    Colon,
    /// `=`
    Assign,
    /// `:=`
    Define,
    /// `<-`
    Arrow,
    /// `~`
    Tilde,
    /// `*`
    Star,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `&`
    Amp,
    /// `|`
    Pipe,
    /// `^`
    Caret,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `&^`
    AndNot,
    /// `!`
    Not,
    /// `++`
    Inc,
    /// `--`
    Dec,
    /// `==`
    Eql,
    /// `!=`
    Neq,
    /// `<`
    Lss,
    /// `<=`
    Leq,
    /// `>`
    Gtr,
    /// `>=`
    Geq,
    /// `&&`
    LAnd,
    /// `||`
    LOr,
    /// Compound assignment operators (`+=`, `<<=`, ...): never meaningful in declarations.
    OpAssign,
}

impl Kind {
    /// True for tokens after which a newline inserts a semicolon.
    fn ends_statement(self) -> bool {
        matches!(
            self,
            Kind::Ident
                | Kind::Int
                | Kind::Float
                | Kind::Imag
                | Kind::Rune
                | Kind::Str
                | Kind::RawStr
                | Kind::Break
                | Kind::Continue
                | Kind::Fallthrough
                | Kind::Return
                | Kind::Inc
                | Kind::Dec
                | Kind::RParen
                | Kind::RBrack
                | Kind::RBrace
        )
    }

    /// True for `;` whether written or inserted.
    pub fn is_semi(self) -> bool {
        matches!(self, Kind::Semi | Kind::AutoSemi)
    }

    /// True for bracket-like tokens that open a nesting level.
    pub fn is_open(self) -> bool {
        matches!(self, Kind::LParen | Kind::LBrack | Kind::LBrace)
    }

    /// True for bracket-like tokens that close a nesting level.
    pub fn is_close(self) -> bool {
        matches!(self, Kind::RParen | Kind::RBrack | Kind::RBrace)
    }
}

fn keyword(word: &str) -> Option<Kind> {
    Some(match word {
        "break" => Kind::Break,
        "case" => Kind::Case,
        "chan" => Kind::Chan,
        "const" => Kind::Const,
        "continue" => Kind::Continue,
        "default" => Kind::Default,
        "defer" => Kind::Defer,
        "else" => Kind::Else,
        "fallthrough" => Kind::Fallthrough,
        "for" => Kind::For,
        "func" => Kind::Func,
        "go" => Kind::Go,
        "goto" => Kind::Goto,
        "if" => Kind::If,
        "import" => Kind::Import,
        "interface" => Kind::Interface,
        "map" => Kind::Map,
        "package" => Kind::Package,
        "range" => Kind::Range,
        "return" => Kind::Return,
        "select" => Kind::Select,
        "struct" => Kind::Struct,
        "switch" => Kind::Switch,
        "type" => Kind::Type,
        "var" => Kind::Var,
        _ => return None,
    })
}

/// One token. Positions are byte offsets; `line`/`col` are 1-based (col in bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: Kind,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
}

/// A comment as found in the source, with the frame (`//`, `/* */`) included in the range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawComment {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
    /// 1-based line of the first byte.
    pub line: u32,
    /// 1-based byte column of the first byte.
    pub col: u32,
    /// Line of the comment's last byte (differs from `line` for multi-line `/* */`).
    pub end_line: u32,
    /// Number of tokens emitted before this comment: comments with the same value sit
    /// between the same two tokens.
    pub token_index: u32,
    /// A `/* */` comment rather than a `//` one.
    pub block: bool,
    /// `/*` without a closing `*/`.
    pub unterminated: bool,
}

/// A lexical error: byte range and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexError {
    /// Byte offset of the problem.
    pub start: u32,
    /// Length in bytes (at least 1).
    pub len: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
    /// What is wrong, in Go's wording.
    pub message: String,
}

/// The token stream of one file. The last token is always `Eof`.
#[derive(Debug, Default)]
pub struct Lexed {
    /// The tokens, ending with `Eof`.
    pub tokens: Vec<Token>,
    /// The comments, in source order.
    pub comments: Vec<RawComment>,
    /// Lexical errors (at most a bounded number).
    pub errors: Vec<LexError>,
}

/// Stops collecting lexical errors past this many: one broken byte sequence can otherwise
/// produce an error per byte.
const MAX_LEX_ERRORS: usize = 50;

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    insert_semi: bool,
    out: Lexed,
}

/// Tokenizes `src`. Never fails: problems are reported in [`Lexed::errors`] and the
/// offending bytes become `Illegal` tokens or are folded into the nearest literal.
/// The caller guarantees `src.len()` fits in `u32`.
pub fn lex(src: &str) -> Lexed {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        line: 1,
        line_start: 0,
        insert_semi: false,
        out: Lexed {
            tokens: Vec::with_capacity(src.len() / 4 + 1),
            ..Lexed::default()
        },
    };
    // A byte order mark is allowed as the very first character only.
    if src.starts_with('\u{feff}') {
        lx.pos = 3;
    }
    lx.run();
    lx.out
}

fn is_letter(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl<'a> Lexer<'a> {
    fn col_of(&self, pos: usize) -> u32 {
        (pos - self.line_start + 1) as u32
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: Kind, start: usize, end: usize, line: u32, col: u32) {
        self.out.tokens.push(Token {
            kind,
            start: start as u32,
            end: end as u32,
            line,
            col,
        });
        self.insert_semi = kind.ends_statement();
    }

    fn error_at(&mut self, start: usize, len: usize, message: impl Into<String>) {
        if self.out.errors.len() >= MAX_LEX_ERRORS {
            return;
        }
        // `start` may lie on an earlier line than the current one (unterminated literals
        // spanning lines are reported at their start), so compute the column from the text.
        let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
        let line = self.line - self.src[start..self.pos.max(start)].matches('\n').count() as u32;
        self.out.errors.push(LexError {
            start: start as u32,
            len: len.max(1) as u32,
            line,
            col: (start - line_start + 1) as u32,
            message: message.into(),
        });
    }

    /// Records a newline at `pos` (the byte after it starts the next line).
    fn newline_at(&mut self, pos: usize) {
        self.line += 1;
        self.line_start = pos + 1;
    }

    fn run(&mut self) {
        loop {
            // Whitespace; a newline may end a statement.
            while self.pos < self.bytes.len() {
                match self.bytes[self.pos] {
                    b' ' | b'\t' | b'\r' => self.pos += 1,
                    b'\n' => {
                        if self.insert_semi {
                            let col = self.col_of(self.pos);
                            self.push(Kind::AutoSemi, self.pos, self.pos + 1, self.line, col);
                            self.insert_semi = false;
                        }
                        self.newline_at(self.pos);
                        self.pos += 1;
                    }
                    _ => break,
                }
            }
            if self.pos >= self.bytes.len() {
                let col = self.col_of(self.pos);
                if self.insert_semi {
                    self.push(Kind::AutoSemi, self.pos, self.pos, self.line, col);
                }
                self.push(Kind::Eof, self.pos, self.pos, self.line, col);
                return;
            }
            let start = self.pos;
            let line = self.line;
            let col = self.col_of(start);
            let b = self.bytes[start];
            if b == b'/' && (self.peek(1) == b'/' || self.peek(1) == b'*') {
                self.comment();
                continue;
            }
            let kind = match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_ascii_digit() => self.number(),
                b'"' => self.string(),
                b'`' => self.raw_string(),
                b'\'' => self.rune(),
                0x80.. => {
                    // `start` is a char boundary: the lexer only ever stops on them.
                    let c = self.src[start..].chars().next().unwrap_or('\u{fffd}');
                    if is_letter(c) {
                        self.ident()
                    } else {
                        self.pos += c.len_utf8();
                        let msg = if c == '\u{feff}' {
                            "illegal byte order mark".to_string()
                        } else {
                            format!("invalid character U+{:04X} '{c}'", c as u32)
                        };
                        self.error_at(start, c.len_utf8(), msg);
                        Kind::Illegal
                    }
                }
                _ => self.operator(),
            };
            self.push(kind, start, self.pos, line, col);
        }
    }

    fn ident(&mut self) -> Kind {
        let start = self.pos;
        while self.pos < self.bytes.len() {
            let b = self.bytes[self.pos];
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
            } else if b >= 0x80 {
                let c = self.src[self.pos..].chars().next().unwrap_or(' ');
                if is_ident_char(c) {
                    self.pos += c.len_utf8();
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        keyword(&self.src[start..self.pos]).unwrap_or(Kind::Ident)
    }

    /// Scans any Go number literal: decimal, binary, octal, hexadecimal, floats (decimal
    /// and hexadecimal), `_` separators and the imaginary suffix.
    fn number(&mut self) -> Kind {
        let start = self.pos;
        let mut base = 10;
        let mut float = false;
        if self.peek(0) == b'0' {
            match self.peek(1) | 0x20 {
                b'x' => base = 16,
                b'b' => base = 2,
                b'o' => base = 8,
                _ => {}
            }
            if base != 10 {
                self.pos += 2;
            }
        }
        let exp_char = if base == 16 { b'p' } else { b'e' };
        let digits = |b: u8, base: u32| -> bool {
            b == b'_' || (b as char).is_digit(if base == 16 { 16 } else { 10 })
        };
        while digits(self.peek(0), base) {
            self.pos += 1;
        }
        if self.peek(0) == b'.' && (base == 10 || base == 16) {
            float = true;
            self.pos += 1;
            while digits(self.peek(0), base) {
                self.pos += 1;
            }
        }
        if (base == 10 || base == 16) && (self.peek(0) | 0x20) == exp_char {
            float = true;
            self.pos += 1;
            if self.peek(0) == b'+' || self.peek(0) == b'-' {
                self.pos += 1;
            }
            let exp_start = self.pos;
            while self.peek(0).is_ascii_digit() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            if self.pos == exp_start {
                self.error_at(start, self.pos - start, "exponent has no digits");
            }
        }
        let mut kind = if float { Kind::Float } else { Kind::Int };
        if self.peek(0) == b'i' {
            self.pos += 1;
            kind = Kind::Imag;
        }
        // Letters or digits glued to the literal (`0b12`, `0x1g`, `123abc`) are part of a
        // malformed literal, not a following identifier.
        let body_end = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        if self.pos != body_end || !number_is_valid(text, base, float) {
            self.error_at(
                start,
                self.pos - start,
                format!("invalid number literal {text}"),
            );
        }
        kind
    }

    fn string(&mut self) -> Kind {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.bytes.get(self.pos) {
                None | Some(b'\n') => {
                    self.error_at(start, 1, "string literal not terminated");
                    return Kind::Str;
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Kind::Str;
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.skip_escaped_char();
                }
                Some(_) => self.advance_char(),
            }
        }
    }

    /// After a backslash: skips the escaped character without crossing a newline.
    fn skip_escaped_char(&mut self) {
        match self.bytes.get(self.pos) {
            None | Some(b'\n') => {}
            Some(_) => self.advance_char(),
        }
    }

    fn advance_char(&mut self) {
        let len = self.src[self.pos..]
            .chars()
            .next()
            .map_or(1, char::len_utf8);
        self.pos += len;
    }

    fn raw_string(&mut self) -> Kind {
        let start = self.pos;
        self.pos += 1;
        loop {
            match self.bytes.get(self.pos) {
                None => {
                    self.error_at(start, 1, "raw string literal not terminated");
                    return Kind::RawStr;
                }
                Some(b'`') => {
                    self.pos += 1;
                    return Kind::RawStr;
                }
                Some(b'\n') => {
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    fn rune(&mut self) -> Kind {
        let start = self.pos;
        self.pos += 1;
        let mut chars = 0;
        loop {
            match self.bytes.get(self.pos) {
                None | Some(b'\n') => {
                    self.error_at(start, 1, "rune literal not terminated");
                    return Kind::Rune;
                }
                Some(b'\'') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    self.pos += 1;
                    // Multi-character escapes (`\x41`, `\u00e9`, `\101`) count as one rune.
                    let esc = self.peek(0);
                    self.skip_escaped_char();
                    let extra = match esc {
                        b'x' => 2,
                        b'u' => 4,
                        b'U' => 8,
                        b'0'..=b'7' => 2,
                        _ => 0,
                    };
                    for _ in 0..extra {
                        if self.peek(0).is_ascii_hexdigit() {
                            self.pos += 1;
                        }
                    }
                    chars += 1;
                }
                Some(_) => {
                    self.advance_char();
                    chars += 1;
                }
            }
        }
        if chars != 1 {
            self.error_at(start, self.pos - start, "illegal rune literal");
        }
        Kind::Rune
    }

    fn operator(&mut self) -> Kind {
        let rest = &self.bytes[self.pos..];
        let at = |i: usize| rest.get(i).copied().unwrap_or(0);
        let (kind, len) = match (at(0), at(1), at(2)) {
            (b'.', b'.', b'.') => (Kind::Ellipsis, 3),
            (b'<', b'<', b'=') | (b'>', b'>', b'=') | (b'&', b'^', b'=') => (Kind::OpAssign, 3),
            (b'<', b'-', _) => (Kind::Arrow, 2),
            (b'<', b'<', _) => (Kind::Shl, 2),
            (b'>', b'>', _) => (Kind::Shr, 2),
            (b'&', b'^', _) => (Kind::AndNot, 2),
            (b'&', b'&', _) => (Kind::LAnd, 2),
            (b'|', b'|', _) => (Kind::LOr, 2),
            (b'+', b'+', _) => (Kind::Inc, 2),
            (b'-', b'-', _) => (Kind::Dec, 2),
            (b'=', b'=', _) => (Kind::Eql, 2),
            (b'!', b'=', _) => (Kind::Neq, 2),
            (b'<', b'=', _) => (Kind::Leq, 2),
            (b'>', b'=', _) => (Kind::Geq, 2),
            (b':', b'=', _) => (Kind::Define, 2),
            (b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^', b'=', _) => (Kind::OpAssign, 2),
            (b'(', _, _) => (Kind::LParen, 1),
            (b')', _, _) => (Kind::RParen, 1),
            (b'[', _, _) => (Kind::LBrack, 1),
            (b']', _, _) => (Kind::RBrack, 1),
            (b'{', _, _) => (Kind::LBrace, 1),
            (b'}', _, _) => (Kind::RBrace, 1),
            (b',', _, _) => (Kind::Comma, 1),
            (b';', _, _) => (Kind::Semi, 1),
            (b'.', _, _) => (Kind::Dot, 1),
            (b':', _, _) => (Kind::Colon, 1),
            (b'=', _, _) => (Kind::Assign, 1),
            (b'~', _, _) => (Kind::Tilde, 1),
            (b'*', _, _) => (Kind::Star, 1),
            (b'+', _, _) => (Kind::Plus, 1),
            (b'-', _, _) => (Kind::Minus, 1),
            (b'/', _, _) => (Kind::Slash, 1),
            (b'%', _, _) => (Kind::Percent, 1),
            (b'&', _, _) => (Kind::Amp, 1),
            (b'|', _, _) => (Kind::Pipe, 1),
            (b'^', _, _) => (Kind::Caret, 1),
            (b'!', _, _) => (Kind::Not, 1),
            (b'<', _, _) => (Kind::Lss, 1),
            (b'>', _, _) => (Kind::Gtr, 1),
            (c, _, _) => {
                let start = self.pos;
                self.pos += 1;
                let msg = if c == 0 {
                    "illegal character NUL".to_string()
                } else {
                    format!("invalid character {:?}", c as char)
                };
                self.error_at(start, 1, msg);
                return Kind::Illegal;
            }
        };
        self.pos += len;
        kind
    }

    fn comment(&mut self) {
        let start = self.pos;
        let line = self.line;
        let col = self.col_of(start);
        let block = self.peek(1) == b'*';
        let mut unterminated = false;
        let end;
        if block {
            match self.src[start + 2..].find("*/") {
                Some(i) => end = start + 2 + i + 2,
                None => {
                    end = self.bytes.len();
                    unterminated = true;
                }
            }
        } else {
            end = self.src[start..]
                .find('\n')
                .map_or(self.bytes.len(), |i| start + i);
        }
        let multiline = block && self.src[start..end].contains('\n');
        // As in go/scanner: a comment that runs to the end of the line (or spans lines)
        // after a statement-ending token is preceded by the inserted semicolon.
        if self.insert_semi && (!block || multiline || self.line_ends_after(end)) {
            self.push(Kind::AutoSemi, start, start, line, col);
            self.insert_semi = false;
        }
        // Keep line accounting right across multi-line block comments.
        if multiline {
            for (i, b) in self.bytes[start..end].iter().enumerate() {
                if *b == b'\n' {
                    self.newline_at(start + i);
                }
            }
        }
        self.pos = end;
        if unterminated {
            self.error_at(start, 2, "comment not terminated");
        }
        self.out.comments.push(RawComment {
            start: start as u32,
            end: end as u32,
            line,
            col,
            end_line: self.line,
            token_index: self.out.tokens.len() as u32,
            block,
            unterminated,
        });
    }

    /// True when only blanks and comments follow `pos` up to the end of its line (or the
    /// file).
    fn line_ends_after(&self, mut pos: usize) -> bool {
        loop {
            while pos < self.bytes.len() && matches!(self.bytes[pos], b' ' | b'\t' | b'\r') {
                pos += 1;
            }
            match (self.bytes.get(pos), self.bytes.get(pos + 1)) {
                (None, _) | (Some(b'\n'), _) | (Some(b'/'), Some(b'/')) => return true,
                (Some(b'/'), Some(b'*')) => match self.src[pos + 2..].find("*/") {
                    Some(i) => {
                        if self.src[pos..pos + 2 + i].contains('\n') {
                            return true;
                        }
                        pos += 2 + i + 2;
                    }
                    None => return true,
                },
                _ => return false,
            }
        }
    }
}

/// Checks the digits of a number literal against its base (the lexer has already
/// delimited it): `_` only between digits or after a base prefix, digits valid for the
/// base, a `p` exponent on hexadecimal floats, no 8 or 9 in legacy octal integers.
fn number_is_valid(text: &str, base: u32, float: bool) -> bool {
    let body = text.strip_suffix('i').unwrap_or(text);
    let b = body.as_bytes();
    let is_digit = |c: u8| {
        if base == 16 {
            c.is_ascii_hexdigit()
        } else {
            c.is_ascii_digit()
        }
    };
    for (i, &c) in b.iter().enumerate() {
        if c == b'_' {
            let after_prefix = base != 10 && i == 2;
            let prev_ok = after_prefix || (i > 0 && is_digit(b[i - 1]));
            let next_ok = b.get(i + 1).is_some_and(|&n| is_digit(n));
            if !prev_ok || !next_ok {
                return false;
            }
        }
    }
    let digits = if base != 10 { &body[2..] } else { body };
    match base {
        2 | 8 => {
            digits
                .bytes()
                .all(|c| c == b'_' || (c as char).is_digit(base))
                && digits.bytes().any(|c| c != b'_')
        }
        16 => {
            let mantissa = digits.split(['p', 'P']).next().unwrap_or("");
            let has_digit = mantissa.bytes().any(|c| c.is_ascii_hexdigit());
            has_digit && (!float || digits.contains(['p', 'P']))
        }
        _ => {
            let legacy_octal = !float
                && body.len() > 1
                && body.starts_with('0')
                && text == body
                && body.bytes().any(|c| c == b'8' || c == b'9');
            !legacy_octal
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Kind> {
        lex(src).tokens.iter().map(|t| t.kind).collect()
    }

    fn texts(src: &str) -> Vec<&str> {
        lex(src)
            .tokens
            .iter()
            .map(|t| &src[t.start as usize..t.end as usize])
            .collect()
    }

    #[test]
    fn semicolons_are_inserted_after_statement_enders() {
        use Kind::*;
        assert_eq!(
            kinds("x\n1\n)\n]\n}\nreturn\nx++\n"),
            vec![
                Ident, AutoSemi, Int, AutoSemi, RParen, AutoSemi, RBrack, AutoSemi, RBrace,
                AutoSemi, Return, AutoSemi, Ident, Inc, AutoSemi, Eof
            ]
        );
        assert_eq!(kinds("x +\ny"), vec![Ident, Plus, Ident, AutoSemi, Eof]);
        assert_eq!(kinds("type (\n"), vec![Type, LParen, Eof]);
    }

    #[test]
    fn semicolon_precedes_trailing_comment() {
        let lexed = lex("x // c\ny /* c */\nz /* a */ w /* multi\nline */ v");
        let k: Vec<Kind> = lexed.tokens.iter().map(|t| t.kind).collect();
        use Kind::*;
        assert_eq!(
            k,
            vec![
                Ident, AutoSemi, Ident, AutoSemi, Ident, Ident, AutoSemi, Ident, AutoSemi, Eof
            ]
        );
        // The comment after `x` comes after the inserted semicolon.
        assert_eq!(lexed.comments[0].token_index, 2);
        assert_eq!(lexed.comments[1].token_index, 4);
        assert_eq!(lexed.comments[2].token_index, 5);
        assert_eq!(lexed.comments[3].token_index, 7);
        assert_eq!(lexed.comments[3].end_line, 4);
        assert_eq!(lexed.tokens[7].line, 4);
    }

    #[test]
    fn number_literals() {
        for (src, kind) in [
            ("42", Kind::Int),
            ("4_2", Kind::Int),
            ("0600", Kind::Int),
            ("0o600", Kind::Int),
            ("0O600", Kind::Int),
            ("0xBadFace", Kind::Int),
            ("0x_67_7a_2f_cc_40_c6", Kind::Int),
            ("0b1011", Kind::Int),
            ("170141183460469231731687303715884105727", Kind::Int),
            ("0.", Kind::Float),
            ("72.40", Kind::Float),
            ("072.40", Kind::Float),
            ("2.71828", Kind::Float),
            ("1.e+0", Kind::Float),
            ("6.67428e-11", Kind::Float),
            ("1E6", Kind::Float),
            (".25", Kind::Float),
            (".12345E+5", Kind::Float),
            ("1_5.", Kind::Float),
            ("0.15e+0_2", Kind::Float),
            ("0x1p-2", Kind::Float),
            ("0x2.p10", Kind::Float),
            ("0x1.Fp+0", Kind::Float),
            ("0X.8p-0", Kind::Float),
            ("0X_1FFFP-16", Kind::Float),
            ("0i", Kind::Imag),
            ("0123i", Kind::Imag),
            ("0o123i", Kind::Imag),
            ("2.71828i", Kind::Imag),
            ("1E6i", Kind::Imag),
            ("0x1p-2i", Kind::Imag),
        ] {
            let lexed = lex(src);
            assert_eq!(lexed.tokens[0].kind, kind, "{src}");
            assert_eq!(lexed.tokens[0].end as usize, src.len(), "{src}");
            assert!(lexed.errors.is_empty(), "{src}: {:?}", lexed.errors);
        }
        for bad in [
            "0x", "0b12", "1__2", "1_", "0_x1", "0x1.0", "089", "1e", "0b", "123abc",
        ] {
            assert!(!lex(bad).errors.is_empty(), "{bad} should be rejected");
        }
        // `x.5` is not a number after a dot selector, but `1..` is not Go either.
        assert_eq!(texts("a[1:2]"), vec!["a", "[", "1", ":", "2", "]", "", ""]);
    }

    #[test]
    fn string_rune_and_raw_literals() {
        let src = "\"a\\\"b\" 'x' '\\n' '\\u00e9' '\\377' 'é' `raw\nline` \"\"";
        let lexed = lex(src);
        assert!(lexed.errors.is_empty(), "{:?}", lexed.errors);
        let toks: Vec<_> = lexed
            .tokens
            .iter()
            .map(|t| (t.kind, &src[t.start as usize..t.end as usize], t.line))
            .collect();
        assert_eq!(toks[0], (Kind::Str, "\"a\\\"b\"", 1));
        assert_eq!(toks[1], (Kind::Rune, "'x'", 1));
        assert_eq!(toks[2], (Kind::Rune, "'\\n'", 1));
        assert_eq!(toks[3], (Kind::Rune, "'\\u00e9'", 1));
        assert_eq!(toks[4], (Kind::Rune, "'\\377'", 1));
        assert_eq!(toks[5], (Kind::Rune, "'é'", 1));
        assert_eq!(toks[6], (Kind::RawStr, "`raw\nline`", 1));
        assert_eq!(toks[7], (Kind::Str, "\"\"", 2));
        assert!(!lex("'ab'").errors.is_empty());
        assert!(!lex("\"abc\ndef\"").errors.is_empty());
        assert!(!lex("`abc").errors.is_empty());
    }

    #[test]
    fn unicode_identifiers_and_illegal_characters() {
        let lexed = lex("ÄÖÜ日本語_x1 · y");
        assert_eq!(lexed.tokens[0].kind, Kind::Ident);
        assert_eq!(lexed.tokens[0].end as usize, "ÄÖÜ日本語_x1".len());
        assert_eq!(lexed.tokens[1].kind, Kind::Illegal);
        assert_eq!(lexed.errors.len(), 1);
        assert_eq!(lexed.errors[0].col, "ÄÖÜ日本語_x1 ".len() as u32 + 1);
    }

    #[test]
    fn operators_longest_match() {
        use Kind::*;
        assert_eq!(
            kinds("&^= &^ <<= << <- ... := ~ != ! &&"),
            vec![
                OpAssign, AndNot, OpAssign, Shl, Arrow, Ellipsis, Define, Tilde, Neq, Not, LAnd,
                Eof
            ]
        );
    }

    #[test]
    fn positions_are_one_based_byte_columns() {
        let lexed = lex("package p\n\ttype  T int");
        let t = lexed.tokens[3];
        assert_eq!((t.kind, t.line, t.col, t.start), (Kind::Type, 2, 2, 11));
        let t = lexed.tokens[4];
        assert_eq!((t.line, t.col), (2, 8));
    }

    #[test]
    fn unterminated_block_comment_is_reported() {
        let lexed = lex("x /* never closed");
        assert_eq!(lexed.errors.len(), 1);
        assert!(lexed.comments[0].unterminated);
    }
}
