//! Tokenizer for CEL source text, following the lexical rules of cel-go's ANTLR grammar:
//! longest match with fallback to the longest complete prefix (so `0x` is `0` then `x`, and an
//! unterminated `r"...` is the identifier `r` followed by an error), and error texts shaped like
//! ANTLR's `token recognition error at: '...'`.

/// Token kinds. The discriminants are ANTLR's token types for the CEL grammar, so sorting by
/// them reproduces the order of ANTLR's "expecting {...}" sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub(crate) enum TokenKind {
    Eof = 0,
    Equals = 1,
    NotEquals = 2,
    In = 3,
    Less = 4,
    LessEquals = 5,
    GreaterEquals = 6,
    Greater = 7,
    LogicalAnd = 8,
    LogicalOr = 9,
    LBracket = 10,
    RBracket = 11,
    LBrace = 12,
    RBrace = 13,
    LParen = 14,
    RParen = 15,
    Dot = 16,
    Comma = 17,
    Minus = 18,
    Exclam = 19,
    Question = 20,
    Colon = 21,
    Plus = 22,
    Star = 23,
    Slash = 24,
    Percent = 25,
    True = 26,
    False = 27,
    Null = 28,
    NumFloat = 31,
    NumInt = 32,
    NumUint = 33,
    String = 34,
    Bytes = 35,
    Identifier = 36,
    EscIdentifier = 37,
}

impl TokenKind {
    /// ANTLR's vocabulary display name (literal names quoted, symbolic names bare).
    pub(crate) fn display_name(self) -> &'static str {
        use TokenKind::*;
        match self {
            Eof => "<EOF>",
            Equals => "'=='",
            NotEquals => "'!='",
            In => "'in'",
            Less => "'<'",
            LessEquals => "'<='",
            GreaterEquals => "'>='",
            Greater => "'>'",
            LogicalAnd => "'&&'",
            LogicalOr => "'||'",
            LBracket => "'['",
            RBracket => "']'",
            LBrace => "'{'",
            RBrace => "'}'",
            LParen => "'('",
            RParen => "')'",
            Dot => "'.'",
            Comma => "','",
            Minus => "'-'",
            Exclam => "'!'",
            Question => "'?'",
            Colon => "':'",
            Plus => "'+'",
            Star => "'*'",
            Slash => "'/'",
            Percent => "'%'",
            True => "'true'",
            False => "'false'",
            Null => "'null'",
            NumFloat => "NUM_FLOAT",
            NumInt => "NUM_INT",
            NumUint => "NUM_UINT",
            String => "STRING",
            Bytes => "BYTES",
            Identifier => "IDENTIFIER",
            EscIdentifier => "ESC_IDENTIFIER",
        }
    }

    /// Bit for [`TokenSet`].
    pub(crate) fn bit(self) -> u64 {
        1u64 << (self as u8)
    }
}

/// A set of token kinds (what the parser expected at an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct TokenSet(pub(crate) u64);

impl TokenSet {
    pub(crate) const fn empty() -> TokenSet {
        TokenSet(0)
    }

    pub(crate) const fn of(kinds: &[TokenKind]) -> TokenSet {
        let mut bits = 0u64;
        let mut i = 0;
        while i < kinds.len() {
            bits |= 1u64 << (kinds[i] as u8);
            i += 1;
        }
        TokenSet(bits)
    }

    pub(crate) fn contains(self, kind: TokenKind) -> bool {
        self.0 & kind.bit() != 0
    }

    pub(crate) fn with(self, kind: TokenKind) -> TokenSet {
        TokenSet(self.0 | kind.bit())
    }

    pub(crate) fn union(self, other: TokenSet) -> TokenSet {
        TokenSet(self.0 | other.0)
    }

    /// ANTLR's `IntervalSet.toString(vocabulary)`: one element bare, several in braces.
    pub(crate) fn render(self) -> String {
        let names: Vec<&str> = ALL_KINDS
            .iter()
            .filter(|k| self.contains(**k))
            .map(|k| k.display_name())
            .collect();
        if names.len() == 1 {
            names[0].to_string()
        } else {
            format!("{{{}}}", names.join(", "))
        }
    }
}

const ALL_KINDS: [TokenKind; 36] = {
    use TokenKind::*;
    [
        Eof,
        Equals,
        NotEquals,
        In,
        Less,
        LessEquals,
        GreaterEquals,
        Greater,
        LogicalAnd,
        LogicalOr,
        LBracket,
        RBracket,
        LBrace,
        RBrace,
        LParen,
        RParen,
        Dot,
        Comma,
        Minus,
        Exclam,
        Question,
        Colon,
        Plus,
        Star,
        Slash,
        Percent,
        True,
        False,
        Null,
        NumFloat,
        NumInt,
        NumUint,
        String,
        Bytes,
        Identifier,
        EscIdentifier,
    ]
};

/// One token: kind and byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) start: u32,
    pub(crate) end: u32,
}

/// A character sequence no token rule matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LexError {
    /// Byte offset where the failed token started.
    pub(crate) start: u32,
    /// ANTLR-style message, without the `Syntax error: ` prefix.
    pub(crate) message: String,
}

/// Splits `src` into tokens (ending with an `Eof` token) and lexical errors.
pub(crate) fn tokenize(src: &str) -> (Vec<Token>, Vec<LexError>) {
    let mut lx = Lexer {
        src: src.as_bytes(),
        text: src,
        pos: 0,
        tokens: Vec::with_capacity(src.len() / 3 + 2),
        errors: Vec::new(),
    };
    lx.run();
    (lx.tokens, lx.errors)
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<LexError>,
}

impl Lexer<'_> {
    fn peek(&self, at: usize) -> Option<u8> {
        self.src.get(at).copied()
    }

    fn push(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.tokens.push(Token {
            kind,
            start: start as u32,
            end: end as u32,
        });
    }

    /// Reports `token recognition error` for a token starting at `start` that failed at `fail`
    /// and resumes after the offending character (ANTLR's lexer recovery consumes it).
    fn fail(&mut self, start: usize, fail: usize) {
        let end = if fail < self.src.len() {
            fail + utf8_len(self.src[fail])
        } else {
            fail
        };
        let text = self.text.get(start..end).unwrap_or("");
        self.errors.push(LexError {
            start: start as u32,
            message: format!("token recognition error at: '{}'", escape_ws(text)),
        });
        self.pos = end.max(start + 1).min(self.src.len());
    }

    fn run(&mut self) {
        while self.pos < self.src.len() {
            let start = self.pos;
            let c = self.src[start];
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0C => {
                    self.pos += 1;
                }
                b'/' if self.peek(start + 1) == Some(b'/') => {
                    let mut i = start + 2;
                    while i < self.src.len() && self.src[i] != b'\n' {
                        i += 1;
                    }
                    self.pos = i;
                }
                b'=' => self.two(start, b'=', TokenKind::Equals, None),
                b'!' => self.two(start, b'=', TokenKind::NotEquals, Some(TokenKind::Exclam)),
                b'<' => self.two(start, b'=', TokenKind::LessEquals, Some(TokenKind::Less)),
                b'>' => self.two(
                    start,
                    b'=',
                    TokenKind::GreaterEquals,
                    Some(TokenKind::Greater),
                ),
                b'&' => self.two(start, b'&', TokenKind::LogicalAnd, None),
                b'|' => self.two(start, b'|', TokenKind::LogicalOr, None),
                b'[' => self.one(start, TokenKind::LBracket),
                b']' => self.one(start, TokenKind::RBracket),
                b'{' => self.one(start, TokenKind::LBrace),
                b'}' => self.one(start, TokenKind::RBrace),
                b'(' => self.one(start, TokenKind::LParen),
                b')' => self.one(start, TokenKind::RParen),
                b',' => self.one(start, TokenKind::Comma),
                b'-' => self.one(start, TokenKind::Minus),
                b'?' => self.one(start, TokenKind::Question),
                b':' => self.one(start, TokenKind::Colon),
                b'+' => self.one(start, TokenKind::Plus),
                b'*' => self.one(start, TokenKind::Star),
                b'/' => self.one(start, TokenKind::Slash),
                b'%' => self.one(start, TokenKind::Percent),
                b'.' => {
                    if self.peek(start + 1).is_some_and(|d| d.is_ascii_digit()) {
                        self.number(start);
                    } else {
                        self.one(start, TokenKind::Dot);
                    }
                }
                b'0'..=b'9' => self.number(start),
                b'"' | b'\'' => match scan_string(self.src, start, false) {
                    StrScan::Ok(end) => self.push_at(TokenKind::String, start, end),
                    StrScan::Fallback(end) => self.push_at(TokenKind::String, start, end),
                    StrScan::Fail(f) => self.fail(start, f),
                },
                b'`' => self.escaped_ident(start),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(start),
                _ => self.fail(start, start),
            }
        }
        let n = self.src.len();
        self.push(TokenKind::Eof, n, n);
    }

    fn push_at(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.push(kind, start, end);
        self.pos = end;
    }

    fn one(&mut self, start: usize, kind: TokenKind) {
        self.push_at(kind, start, start + 1);
    }

    /// Two-character operator `c` + `second`, or the one-character `single` when the second
    /// character does not follow.
    fn two(&mut self, start: usize, second: u8, double: TokenKind, single: Option<TokenKind>) {
        if self.peek(start + 1) == Some(second) {
            self.push_at(double, start, start + 2);
        } else if let Some(kind) = single {
            self.push_at(kind, start, start + 1);
        } else {
            self.fail(start, start + 1);
        }
    }

    fn word(&mut self, start: usize) {
        // String prefixes: r"..", b"..", br"..", and their upper-case forms.
        let c = self.src[start];
        let next = self.peek(start + 1);
        let quote = |b: Option<u8>| matches!(b, Some(b'"') | Some(b'\''));
        let mut ident_end = start + 1;
        while ident_end < self.src.len()
            && (self.src[ident_end].is_ascii_alphanumeric() || self.src[ident_end] == b'_')
        {
            ident_end += 1;
        }
        let string_start = match c {
            b'r' | b'R' if quote(next) => Some((start + 1, true, TokenKind::String)),
            b'b' | b'B' if quote(next) => Some((start + 1, false, TokenKind::Bytes)),
            b'b' | b'B'
                if matches!(next, Some(b'r') | Some(b'R')) && quote(self.peek(start + 2)) =>
            {
                Some((start + 2, true, TokenKind::Bytes))
            }
            _ => None,
        };
        if let Some((qpos, raw, kind)) = string_start {
            match scan_string(self.src, qpos, raw) {
                StrScan::Ok(end) | StrScan::Fallback(end) => {
                    self.push_at(kind, start, end);
                    return;
                }
                // The identifier prefix is the longest complete token: keep it, the string
                // fails on its own afterwards.
                StrScan::Fail(_) => {}
            }
        }
        let kind = match &self.text[start..ident_end] {
            "true" => TokenKind::True,
            "false" => TokenKind::False,
            "null" => TokenKind::Null,
            "in" => TokenKind::In,
            _ => TokenKind::Identifier,
        };
        self.push_at(kind, start, ident_end);
    }

    fn escaped_ident(&mut self, start: usize) {
        let mut i = start + 1;
        while i < self.src.len() {
            let b = self.src[i];
            if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/' | b' ') {
                i += 1;
            } else {
                break;
            }
        }
        if i > start + 1 && self.peek(i) == Some(b'`') {
            self.push_at(TokenKind::EscIdentifier, start, i + 1);
        } else {
            self.fail(start, i);
        }
    }

    fn number(&mut self, start: usize) {
        let s = self.src;
        let digits = |mut i: usize| {
            while i < s.len() && s[i].is_ascii_digit() {
                i += 1;
            }
            i
        };
        let exponent = |i: usize| -> Option<usize> {
            if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
                let mut j = i + 1;
                if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
                    j += 1;
                }
                let k = digits(j);
                if k > j {
                    return Some(k);
                }
            }
            None
        };
        if s[start] == b'.' {
            let end = digits(start + 1);
            let end = exponent(end).unwrap_or(end);
            self.push_at(TokenKind::NumFloat, start, end);
            return;
        }
        if s[start] == b'0' && self.peek(start + 1) == Some(b'x') {
            let mut i = start + 2;
            while i < s.len() && s[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i > start + 2 {
                if matches!(self.peek(i), Some(b'u') | Some(b'U')) {
                    self.push_at(TokenKind::NumUint, start, i + 1);
                } else {
                    self.push_at(TokenKind::NumInt, start, i);
                }
                return;
            }
            // `0x` without hex digits: the longest complete token is `0`.
            self.push_at(TokenKind::NumInt, start, start + 1);
            return;
        }
        let int_end = digits(start);
        if self.peek(int_end) == Some(b'.')
            && self.peek(int_end + 1).is_some_and(|d| d.is_ascii_digit())
        {
            let frac_end = digits(int_end + 1);
            let end = exponent(frac_end).unwrap_or(frac_end);
            self.push_at(TokenKind::NumFloat, start, end);
            return;
        }
        if let Some(end) = exponent(int_end) {
            self.push_at(TokenKind::NumFloat, start, end);
            return;
        }
        if matches!(self.peek(int_end), Some(b'u') | Some(b'U')) {
            self.push_at(TokenKind::NumUint, start, int_end + 1);
            return;
        }
        self.push_at(TokenKind::NumInt, start, int_end);
    }
}

enum StrScan {
    /// A complete string literal ending here.
    Ok(usize),
    /// The long form failed but an empty `''`/`""` prefix is a complete literal.
    Fallback(usize),
    /// No literal; offending character at this offset.
    Fail(usize),
}

/// Scans a quoted literal whose opening quote is at `q`. Validates escape syntax as the ANTLR
/// lexer does (code point ranges are checked later by the unescaper).
fn scan_string(s: &[u8], q: usize, raw: bool) -> StrScan {
    let quote = s[q];
    let triple = s.get(q + 1) == Some(&quote) && s.get(q + 2) == Some(&quote);
    if triple {
        let mut i = q + 3;
        loop {
            if i >= s.len() {
                // An unterminated triple-quoted literal leaves the empty literal as the longest
                // complete token.
                return StrScan::Fallback(q + 2);
            }
            if s[i] == quote && s.get(i + 1) == Some(&quote) && s.get(i + 2) == Some(&quote) {
                return StrScan::Ok(i + 3);
            }
            if s[i] == b'\\' && !raw {
                match scan_escape(s, i) {
                    Ok(next) => i = next,
                    Err(_) => return StrScan::Fallback(q + 2),
                }
            } else {
                i += 1;
            }
        }
    }
    let mut i = q + 1;
    loop {
        if i >= s.len() {
            return StrScan::Fail(i);
        }
        let b = s[i];
        if b == quote {
            return StrScan::Ok(i + 1);
        }
        if b == b'\n' || b == b'\r' {
            return StrScan::Fail(i);
        }
        if b == b'\\' && !raw {
            match scan_escape(s, i) {
                Ok(next) => i = next,
                Err(f) => return StrScan::Fail(f),
            }
        } else {
            i += 1;
        }
    }
}

/// Validates the escape sequence at `i` (a backslash); returns the offset after it, or the
/// offset of the offending character.
fn scan_escape(s: &[u8], i: usize) -> Result<usize, usize> {
    let Some(&c) = s.get(i + 1) else {
        return Err(i + 1);
    };
    let hex = |from: usize, n: usize| -> Result<usize, usize> {
        for k in 0..n {
            match s.get(from + k) {
                Some(b) if b.is_ascii_hexdigit() => {}
                _ => return Err(from + k),
            }
        }
        Ok(from + n)
    };
    match c {
        b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'"' | b'\'' | b'\\' | b'?' | b'`' => {
            Ok(i + 2)
        }
        b'x' | b'X' => hex(i + 2, 2),
        b'u' => hex(i + 2, 4),
        b'U' => hex(i + 2, 8),
        b'0'..=b'3' => {
            for k in 0..2 {
                match s.get(i + 2 + k) {
                    Some(b'0'..=b'7') => {}
                    _ => return Err(i + 2 + k),
                }
            }
            Ok(i + 4)
        }
        _ => Err(i + 1),
    }
}

/// Byte length of the UTF-8 sequence starting with `b` (1 for stray continuation bytes).
fn utf8_len(b: u8) -> usize {
    match b {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// ANTLR's error display escaping of whitespace control characters.
pub(crate) fn escape_ws(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::TokenKind::*;
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        tokenize(src).0.into_iter().map(|t| t.kind).collect()
    }

    fn texts(src: &str) -> Vec<&str> {
        tokenize(src)
            .0
            .into_iter()
            .map(|t| &src[t.start as usize..t.end as usize])
            .collect()
    }

    #[test]
    fn operators_and_punctuation() {
        assert_eq!(
            kinds("== != < <= >= > && || [ ] { } ( ) . , - ! ? : + * / %"),
            vec![
                Equals,
                NotEquals,
                Less,
                LessEquals,
                GreaterEquals,
                Greater,
                LogicalAnd,
                LogicalOr,
                LBracket,
                RBracket,
                LBrace,
                RBrace,
                LParen,
                RParen,
                Dot,
                Comma,
                Minus,
                Exclam,
                Question,
                Colon,
                Plus,
                Star,
                Slash,
                Percent,
                Eof
            ]
        );
    }

    #[test]
    fn numbers_take_the_longest_complete_prefix() {
        assert_eq!(
            texts("0x1Fu 12u 1.5e-3 .5 1e5 7"),
            vec!["0x1Fu", "12u", "1.5e-3", ".5", "1e5", "7", ""]
        );
        assert_eq!(
            kinds("0x1Fu 12u 1.5e-3 .5 1e5 7"),
            vec![NumUint, NumUint, NumFloat, NumFloat, NumFloat, NumInt, Eof]
        );
        assert_eq!(texts("0x"), vec!["0", "x", ""]);
        assert_eq!(texts("1e+"), vec!["1", "e", "+", ""]);
        assert_eq!(texts("1.size()"), vec!["1", ".", "size", "(", ")", ""]);
        assert_eq!(texts("1.5u"), vec!["1.5", "u", ""]);
    }

    #[test]
    fn keywords_and_identifiers() {
        assert_eq!(
            kinds("in int true trueish null _x9"),
            vec![In, Identifier, True, Identifier, Null, Identifier, Eof]
        );
    }

    #[test]
    fn string_forms() {
        assert_eq!(
            kinds(r#"'a' "b" '''c''' """d""" r'\' R"\" b'x' B"y" br'\z' bR"w""#),
            vec![
                String, String, String, String, String, String, Bytes, Bytes, Bytes, Bytes, Eof
            ]
        );
        assert_eq!(texts("'''a\n'b'''"), vec!["'''a\n'b'''", ""]);
        // Triple quotes that never close: `''` is the longest complete literal.
        assert_eq!(texts("'''abc")[0], "''");
    }

    #[test]
    fn escapes_are_validated_by_the_lexer() {
        let (_, errs) = tokenize(r#""\xFh""#);
        assert_eq!(errs[0].message, r#"token recognition error at: '"\xFh'"#);
        assert_eq!(errs[1].message, r#"token recognition error at: '"'"#);
        let (toks, errs) = tokenize(r#""\u263A \U0001F600 \101 \? \`""#);
        assert!(errs.is_empty());
        assert_eq!(toks[0].kind, String);
    }

    #[test]
    fn unterminated_raw_string_falls_back_to_identifier() {
        let (toks, errs) = tokenize("r'abc");
        assert_eq!(toks[0].kind, Identifier);
        assert_eq!(errs[0].message, "token recognition error at: ''abc'");
    }

    #[test]
    fn recognition_errors_include_the_offending_character() {
        let (_, errs) = tokenize("a | b");
        assert_eq!(errs[0].message, "token recognition error at: '| '");
        assert_eq!(errs[0].start, 2);
        let (_, errs) = tokenize("1 + $");
        assert_eq!(errs[0].message, "token recognition error at: '$'");
        let (_, errs) = tokenize("'ab\ncd'");
        assert_eq!(errs[0].message, "token recognition error at: ''ab\\n'");
    }

    #[test]
    fn escaped_identifiers() {
        assert_eq!(kinds("a.`b-c`"), vec![Identifier, Dot, EscIdentifier, Eof]);
        let (_, errs) = tokenize("a.`$b`");
        assert_eq!(errs[0].message, "token recognition error at: '`$'");
        assert_eq!(errs[1].message, "token recognition error at: '`'");
    }

    #[test]
    fn comments_and_whitespace_are_skipped() {
        assert_eq!(
            kinds("a // c\n\x0c+\r\tb"),
            vec![Identifier, Plus, Identifier, Eof]
        );
    }

    #[test]
    fn token_set_rendering() {
        assert_eq!(TokenSet::of(&[Eof]).render(), "<EOF>");
        assert_eq!(TokenSet::of(&[RBrace, Comma]).render(), "{'}', ','}");
    }
}
