//! Just enough Go to read upstream test tables: a tokenizer (strings unquoted, comments
//! skipped) and an evaluator for the constant expressions the tables use as keys and values.

/// A Go token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Str(String),
    Ident(String),
    Num(String),
    Punct(char),
}

/// Tokens of `src` (Go source).
pub fn tokenize(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if src[i..].starts_with("/*") {
            i = src[i + 2..].find("*/").map_or(b.len(), |n| i + n + 4);
        } else if c == b'`' {
            let end = src[i + 1..].find('`').map_or(b.len(), |n| i + 1 + n);
            out.push(Tok::Str(src[i + 1..end].replace('\r', "")));
            i = end + 1;
        } else if c == b'"' || c == b'\'' {
            let (s, next) = unquote(src, i);
            out.push(Tok::Str(s));
            i = next;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(src[start..i].to_string()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Num(src[start..i].to_string()));
        } else {
            let ch = src[i..].chars().next().unwrap_or(' ');
            out.push(Tok::Punct(ch));
            i += ch.len_utf8();
        }
    }
    out
}

/// A Go interpreted string (or rune) literal starting at `start`: its value and the index
/// after it.
fn unquote(src: &str, start: usize) -> (String, usize) {
    let quote = src.as_bytes()[start] as char;
    let mut out = String::new();
    let mut chars = src[start + 1..].char_indices();
    while let Some((off, c)) = chars.next() {
        if c == quote {
            return (out, start + 1 + off + 1);
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let hex = |chars: &mut std::str::CharIndices<'_>, n: usize| {
            let digits: String = chars.take(n).map(|(_, c)| c).collect();
            u32::from_str_radix(&digits, 16).ok()
        };
        match e {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            'x' => out.extend(hex(&mut chars, 2).and_then(char::from_u32)),
            'u' => out.extend(hex(&mut chars, 4).and_then(char::from_u32)),
            'U' => out.extend(hex(&mut chars, 8).and_then(char::from_u32)),
            '0'..='7' => {
                let rest: String = chars.by_ref().take(2).map(|(_, c)| c).collect();
                let v = u32::from_str_radix(&format!("{e}{rest}"), 8).unwrap_or(0);
                out.extend(char::from_u32(v));
            }
            other => out.push(other),
        }
    }
    (out, src.len())
}

/// A constant value of the tables.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Str(String),
    Int(i128),
    Float(f64),
    /// Anything else (function values, composite literals).
    Other,
}

impl Val {
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Val::Int(v) => u64::try_from(*v).ok(),
            _ => None,
        }
    }
}

/// Evaluates the expression at `toks[*i]`, leaving `*i` after it.
/// Binary operators do not occur in the tables: an expression is one operand.
pub fn eval(toks: &[Tok], i: &mut usize) -> Val {
    let Some(t) = toks.get(*i) else {
        return Val::Other;
    };
    *i += 1;
    match t {
        Tok::Str(s) => Val::Str(s.clone()),
        Tok::Num(n) => n
            .parse::<i128>()
            .map(Val::Int)
            .or_else(|_| n.parse::<f64>().map(Val::Float))
            .unwrap_or(Val::Other),
        Tok::Punct('-') => match eval(toks, i) {
            Val::Int(v) => Val::Int(-v),
            Val::Float(v) => Val::Float(-v),
            _ => Val::Other,
        },
        Tok::Ident(first) => {
            let mut name = first.clone();
            while toks.get(*i) == Some(&Tok::Punct('.'))
                && let Some(Tok::Ident(next)) = toks.get(*i + 1)
            {
                name.push('.');
                name.push_str(next);
                *i += 2;
            }
            if toks.get(*i) != Some(&Tok::Punct('(')) {
                return match name.as_str() {
                    "math.MaxInt64" => Val::Int(i128::from(i64::MAX)),
                    "math.MaxInt32" => Val::Int(i128::from(i32::MAX)),
                    "math.MaxUint64" => Val::Int(i128::from(u64::MAX)),
                    "math.MaxFloat64" => Val::Float(f64::MAX),
                    _ => Val::Other,
                };
            }
            *i += 1;
            let mut args = Vec::new();
            while toks.get(*i).is_some_and(|t| *t != Tok::Punct(')')) {
                args.push(eval(toks, i));
                if toks.get(*i) == Some(&Tok::Punct(',')) {
                    *i += 1;
                }
            }
            *i += 1;
            call(&name, &args)
        }
        Tok::Punct(_) => Val::Other,
    }
}

fn call(name: &str, args: &[Val]) -> Val {
    match (name, args) {
        ("int64" | "uint64" | "int" | "int32" | "float64", [v]) => v.clone(),
        ("fmt.Sprintf", [Val::Str(f), rest @ ..]) => sprintf(f, rest),
        ("ValsEqualThemselvesAndDataLiteral", [Val::Str(a), Val::Str(b), Val::Str(lit)]) => {
            Val::Str(format!("{a} == {lit} && {lit} == {a} && {a} == {b}"))
        }
        _ => Val::Other,
    }
}

/// Go `fmt.Sprintf` for `%d`, `%f`, `%s` and `%%`.
fn sprintf(f: &str, args: &[Val]) -> Val {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = f.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match (chars.next(), args.next()) {
            (Some('%'), _) => out.push('%'),
            (Some('d'), Some(Val::Int(v))) => out.push_str(&v.to_string()),
            (Some('f'), Some(Val::Float(v))) => out.push_str(&format!("{v:.6}")),
            (Some('s'), Some(Val::Str(s))) => out.push_str(s),
            _ => return Val::Other,
        }
    }
    Val::Str(out)
}

/// The tokens of the body of `func <name>(...)`, without its braces.
pub fn function_body(toks: &[Tok], name: &str) -> Option<Vec<Tok>> {
    let at = toks.windows(2).position(|w| {
        w[0] == Tok::Ident("func".to_string()) && w[1] == Tok::Ident(name.to_string())
    })?;
    let open = at + toks[at..].iter().position(|t| *t == Tok::Punct('{'))?;
    let close = matching(toks, open)?;
    Some(toks[open + 1..close].to_vec())
}

/// The index of the bracket closing the one at `open`.
pub fn matching(toks: &[Tok], open: usize) -> Option<usize> {
    let (o, c) = match toks.get(open)? {
        Tok::Punct('{') => ('{', '}'),
        Tok::Punct('(') => ('(', ')'),
        Tok::Punct('[') => ('[', ']'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if *t == Tok::Punct(o) {
            depth += 1;
        } else if *t == Tok::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_go_constants() {
        let toks = tokenize(
            r#"ValsEqualThemselvesAndDataLiteral("a", "b", fmt.Sprintf("%d", int64(math.MaxInt64))): uint64(8), // c
            "x\\ny\u00e9": 3, `raw\d`: 4"#,
        );
        let mut i = 0;
        assert_eq!(
            eval(&toks, &mut i),
            Val::Str("a == 9223372036854775807 && 9223372036854775807 == a && a == b".into())
        );
        assert_eq!(toks[i], Tok::Punct(':'));
        i += 1;
        assert_eq!(eval(&toks, &mut i).as_u64(), Some(8));
        i += 1;
        assert_eq!(eval(&toks, &mut i), Val::Str("x\\ny\u{e9}".into()));
        i += 3;
        assert_eq!(eval(&toks, &mut i), Val::Str("raw\\d".into()));
    }
}
