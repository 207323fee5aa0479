//! `kdv.selectors` (kdv extension): label-selector matching, KEP-4153's
//! `Matches(LabelSelector)`, over the selector's string form (Kubernetes'
//! `labels.Parse` syntax: `app=web,tier!=db,env in (a,b),env notin (c),has,!gone,n>1`):
//!
//! - `isLabelSelector(<string>) -> bool`: the string parses as a label selector with valid
//!   keys (qualified names) and values (label values; integers for `>` and `<`);
//! - `<map(string, string)>.matchesLabelSelector(<string>) -> bool`: the labels satisfy every
//!   requirement (the empty selector matches everything); a selector that does not parse is
//!   an evaluation error `invalid label selector: <why>`.
//!
//! Costs: parsing and matching each walk the selector once: runtime
//! 1 + 2·⌈size(selector) · 0.1⌉ for `matchesLabelSelector`, ⌈size · 0.1⌉ for
//! `isLabelSelector`; the estimates are the same formulas over the size range (label
//! lookups are by key, so the labels' size does not enter).

use std::sync::Arc;

use super::super::k8s::common::{cost_tenth, mul_ceil, overload as ov};
use super::super::k8s::format::{label_value_errors, qualified_name_errors};
use crate::library::ParamType as P;
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR,
};
use crate::library::{CallCtx, Declarations, Functions, Library, OverloadDecl, cached, nso};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "kdv.selectors";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, String as S};
    let labels = Type::Map(Box::new(S), Box::new(S));
    let mut lib = Declarations::new(NAME);
    lib.function(
        "isLabelSelector",
        vec![OverloadDecl::global(
            "is_label_selector_string",
            vec![S],
            Bool,
        )],
    );
    lib.function(
        "matchesLabelSelector",
        vec![OverloadDecl::member(
            "map_matches_label_selector_string",
            vec![labels, S],
            Bool,
        )],
    );
    lib
}

/// A requirement's operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `key` (the label is set).
    Exists,
    /// `!key`.
    DoesNotExist,
    /// `key=v`, `key==v`, `key in (v, ...)`.
    In,
    /// `key!=v`, `key notin (v, ...)`.
    NotIn,
    /// `key>n`.
    GreaterThan,
    /// `key<n`.
    LessThan,
}

/// One requirement of a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement<'s> {
    /// The label key.
    pub key: &'s str,
    /// The operator.
    pub op: Operator,
    /// The values (one for `=`, `!=`, `>`, `<`).
    pub values: Vec<&'s str>,
}

impl Requirement<'_> {
    /// Whether `labels` (looked up by key) satisfy the requirement, as Go's
    /// `Requirement.Matches`.
    pub fn matches<'v>(&self, get: impl Fn(&str) -> Option<&'v str>) -> bool {
        let v = get(self.key);
        match self.op {
            Operator::Exists => v.is_some(),
            Operator::DoesNotExist => v.is_none(),
            Operator::In => v.is_some_and(|v| self.values.contains(&v)),
            Operator::NotIn => v.is_none_or(|v| !self.values.contains(&v)),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(v), Some(bound)) = (v, self.values.first()) else {
                    return false;
                };
                let (Ok(v), Ok(bound)) = (v.parse::<i64>(), bound.parse::<i64>()) else {
                    return false;
                };
                if self.op == Operator::GreaterThan {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'s> {
    Ident(&'s str),
    Not,
    NotEquals,
    Equals,
    DoubleEquals,
    Greater,
    Less,
    Open,
    Close,
    Comma,
    In,
    NotInTok,
    End,
}

fn is_special(c: char) -> bool {
    matches!(c, '=' | '!' | '(' | ')' | ',' | '>' | '<')
}

struct Lexer<'s> {
    s: &'s str,
    pos: usize,
}

impl<'s> Lexer<'s> {
    fn next(&mut self) -> Token<'s> {
        let rest = &self.s[self.pos..];
        let trimmed = rest.trim_start_matches([' ', '\t', '\n', '\r']);
        self.pos += rest.len() - trimmed.len();
        let mut chars = trimmed.chars();
        let Some(c) = chars.next() else {
            return Token::End;
        };
        let two = trimmed.get(..2);
        let (tok, len) = match (c, two) {
            ('!', Some("!=")) => (Token::NotEquals, 2),
            ('=', Some("==")) => (Token::DoubleEquals, 2),
            ('!', _) => (Token::Not, 1),
            ('=', _) => (Token::Equals, 1),
            ('>', _) => (Token::Greater, 1),
            ('<', _) => (Token::Less, 1),
            ('(', _) => (Token::Open, 1),
            (')', _) => (Token::Close, 1),
            (',', _) => (Token::Comma, 1),
            _ => {
                let end = trimmed
                    .find(|c: char| c.is_whitespace() || is_special(c))
                    .unwrap_or(trimmed.len());
                let word = &trimmed[..end];
                let tok = match word {
                    "in" => Token::In,
                    "notin" => Token::NotInTok,
                    _ => Token::Ident(word),
                };
                (tok, end)
            }
        };
        self.pos += len;
        tok
    }

    fn peek(&mut self) -> Token<'s> {
        let save = self.pos;
        let t = self.next();
        self.pos = save;
        t
    }
}

fn describe(t: Token<'_>) -> String {
    match t {
        Token::Ident(s) => format!("identifier {s:?}"),
        Token::End => "end of string".into(),
        Token::In => "'in'".into(),
        Token::NotInTok => "'notin'".into(),
        Token::Not => "'!'".into(),
        Token::NotEquals => "'!='".into(),
        Token::Equals => "'='".into(),
        Token::DoubleEquals => "'=='".into(),
        Token::Greater => "'>'".into(),
        Token::Less => "'<'".into(),
        Token::Open => "'('".into(),
        Token::Close => "')'".into(),
        Token::Comma => "','".into(),
    }
}

/// Parses a selector in `labels.Parse` syntax into its requirements, checking keys and
/// values as Kubernetes does; the error says what is wrong.
pub fn parse(s: &str) -> Result<Vec<Requirement<'_>>, String> {
    let mut lx = Lexer { s, pos: 0 };
    let mut out = Vec::new();
    if lx.peek() == Token::End {
        return Ok(out);
    }
    loop {
        out.push(requirement(&mut lx)?);
        match lx.next() {
            Token::End => return Ok(out),
            Token::Comma => {}
            t => {
                return Err(format!(
                    "found {}, expected ',' or end of string",
                    describe(t)
                ));
            }
        }
    }
}

fn requirement<'s>(lx: &mut Lexer<'s>) -> Result<Requirement<'s>, String> {
    let negated = lx.peek() == Token::Not;
    if negated {
        lx.next();
    }
    let key = match lx.next() {
        Token::Ident(k) => k,
        t => return Err(format!("found {}, expected a label key", describe(t))),
    };
    if let Some(e) = qualified_name_errors(key).into_iter().next() {
        return Err(format!("key {key:?}: {e}"));
    }
    if negated || matches!(lx.peek(), Token::End | Token::Comma) {
        let op = if negated {
            Operator::DoesNotExist
        } else {
            Operator::Exists
        };
        return Ok(Requirement {
            key,
            op,
            values: Vec::new(),
        });
    }
    let op_tok = lx.next();
    let (op, values) = match op_tok {
        Token::Equals | Token::DoubleEquals => (Operator::In, vec![exact_value(lx)?]),
        Token::NotEquals => (Operator::NotIn, vec![exact_value(lx)?]),
        Token::Greater => (Operator::GreaterThan, vec![exact_value(lx)?]),
        Token::Less => (Operator::LessThan, vec![exact_value(lx)?]),
        Token::In => (Operator::In, value_set(lx)?),
        Token::NotInTok => (Operator::NotIn, value_set(lx)?),
        t => {
            return Err(format!(
                "found {}, expected one of '=', '==', '!=', 'in', 'notin', '>', '<'",
                describe(t)
            ));
        }
    };
    for v in &values {
        if matches!(op, Operator::GreaterThan | Operator::LessThan) {
            if v.parse::<i64>().is_err() {
                return Err(format!(
                    "for '>' and '<' the value must be an integer, not {v:?}"
                ));
            }
        } else if let Some(e) = label_value_errors(v).into_iter().next() {
            return Err(format!("value {v:?}: {e}"));
        }
    }
    Ok(Requirement { key, op, values })
}

fn exact_value<'s>(lx: &mut Lexer<'s>) -> Result<&'s str, String> {
    match lx.peek() {
        // `key=` selects the empty value.
        Token::End | Token::Comma => Ok(""),
        Token::Ident(v) => {
            lx.next();
            Ok(v)
        }
        // Keywords are values after an operator (`mode=in`).
        Token::In => {
            lx.next();
            Ok("in")
        }
        Token::NotInTok => {
            lx.next();
            Ok("notin")
        }
        t => Err(format!("found {}, expected a value", describe(t))),
    }
}

fn value_set<'s>(lx: &mut Lexer<'s>) -> Result<Vec<&'s str>, String> {
    match lx.next() {
        Token::Open => {}
        t => return Err(format!("found {}, expected '('", describe(t))),
    }
    let mut values = Vec::new();
    loop {
        let v = match lx.peek() {
            Token::Comma | Token::Close => "",
            Token::Ident(v) => {
                lx.next();
                v
            }
            Token::In => {
                lx.next();
                "in"
            }
            Token::NotInTok => {
                lx.next();
                "notin"
            }
            t => return Err(format!("found {}, expected a value", describe(t))),
        };
        values.push(v);
        match lx.next() {
            Token::Comma => {}
            Token::Close => break,
            t => return Err(format!("found {}, expected ',' or ')'", describe(t))),
        }
    }
    if values == [""] {
        return Err("for 'in' and 'notin' the set of values may not be empty".into());
    }
    Ok(values)
}

fn is_label_selector<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(parse(s).is_ok()))
}

fn matches_label_selector<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let (Value::Map(labels), Value::String(sel)) = (&a[0], &a[1]) else {
        return Err(nso());
    };
    let reqs = parse(sel).map_err(|e| EvalError::new(format!("invalid label selector: {e}")))?;
    for r in &reqs {
        let v = match labels.find(r.key) {
            None => None,
            Some(Ok(v)) => Some(v),
            Some(Err(e)) => return Err(e),
        };
        let found = match &v {
            None => None,
            Some(Value::String(s)) => Some(&**s),
            Some(_) => return Err(nso()),
        };
        if !r.matches(|_| found) {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

fn cost_matches(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let sel = args.get(1).map_or(0, Value::cost_size);
    mul_ceil(sel, 0.1).saturating_mul(2).saturating_add(1)
}

/// The runtime overloads.
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        overloads: vec![
            ov(
                "is_label_selector_string",
                "isLabelSelector",
                false,
                &[P::STRING],
                is_label_selector,
                Some(cost_tenth),
            ),
            ov(
                "map_matches_label_selector_string",
                "matchesLabelSelector",
                true,
                &[P::MAP, P::STRING],
                matches_label_selector,
                Some(cost_matches),
            ),
        ],
        regex_functions: vec![],
    }
}

/// Static costs (see the module documentation).
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.function() {
        "isLabelSelector" if c.argc() == 1 && c.target().is_none() => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        "matchesLabelSelector" if c.argc() == 1 && c.target().is_some() => {
            let per = c
                .node_size(&c.arg(0))
                .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR);
            Some(CallEstimate::cost(CostEstimate {
                min: per.min.saturating_mul(2).saturating_add(1),
                max: per.max.saturating_mul(2).saturating_add(1),
            }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{compile_err_crd, err, eval_cost, is_true};
    use super::*;

    #[test]
    fn parses_kubernetes_selector_syntax() {
        let r =
            parse("app=web, tier!=db,env in (a, b),x notin (c),has,!gone,n>1,m<5,k==v").unwrap();
        let ops: Vec<Operator> = r.iter().map(|r| r.op).collect();
        use Operator::*;
        assert_eq!(
            ops,
            [
                In,
                NotIn,
                In,
                NotIn,
                Exists,
                DoesNotExist,
                GreaterThan,
                LessThan,
                In
            ]
        );
        assert_eq!(r[2].values, ["a", "b"]);
        assert_eq!(parse("").unwrap(), []);
        assert_eq!(parse("a=").unwrap()[0].values, [""]);
        assert_eq!(
            parse("example.com/app=x").unwrap()[0].key,
            "example.com/app"
        );
    }

    #[test]
    fn refuses_invalid_selectors() {
        for (s, want) in [
            ("a b", "found identifier \"b\", expected one of '='"),
            ("=a", "found '=', expected a label key"),
            ("a in b", "expected '('"),
            ("a in ()", "may not be empty"),
            ("a>x", "must be an integer"),
            ("-a=b", "key \"-a\": "),
            ("a=-b", "value \"-b\": "),
            ("!a=b", "found '=', expected ','"),
            ("a,", "expected a label key"),
        ] {
            let e = parse(s).unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn matching() {
        is_true("{'app': 'web', 'n': '3'}.matchesLabelSelector('app=web,n>2,!gone')");
        is_true("!{'app': 'web'}.matchesLabelSelector('app in (db, cache)')");
        is_true("{'app': 'web'}.matchesLabelSelector('tier notin (db)')");
        is_true("{'app': 'web'}.matchesLabelSelector('')");
        is_true("!{'app': 'web'}.matchesLabelSelector('tier')");
        is_true("!{'n': 'x'}.matchesLabelSelector('n<5')");
        is_true("isLabelSelector('a=b,c') && !isLabelSelector('a b')");
        let e = err("{'a': 'b'}.matchesLabelSelector('a in b')");
        assert_eq!(
            e,
            "invalid label selector: found identifier \"b\", expected '('"
        );
    }

    #[test]
    fn runtime_costs() {
        // 1 + 2·⌈7 · 0.1⌉ (the constant literals cost nothing).
        let (_, c) = eval_cost("{'a': 'b'}.matchesLabelSelector('a=b,c=d')").unwrap();
        assert_eq!(c, 3);
    }

    #[test]
    fn not_in_the_crd_environment() {
        for src in [
            "isLabelSelector('a')",
            "{'a': 'b'}.matchesLabelSelector('a')",
        ] {
            let e = compile_err_crd(src);
            assert!(e.contains("undeclared reference to '"), "{src}: {e}");
        }
    }
}
