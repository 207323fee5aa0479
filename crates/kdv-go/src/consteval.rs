//! Evaluation of constant expressions, as far as a declaration reader can: integer, float,
//! string, rune and bool literals, `iota`, the constants a [`Scope`] knows (earlier ones of
//! the same file while parsing; any package's, qualified `pkg.Name`, once a universe is
//! assembled: `crate::resolve`), conversions `T(x)` and `pkg.T(x)`, parentheses and Go's
//! unary and binary operators. Anything else (function calls, unknown names, overflow) is
//! left to the caller as source text.

use kdv_model::{Builtin, ConstValue, TypeRef};

use crate::lexer::{Kind, Token};
use crate::literal::{parse_int_literal, unquote};

/// Nesting limit for parentheses and unary operators.
const MAX_DEPTH: u32 = 200;

/// What is known about an earlier constant.
#[derive(Debug, Clone)]
pub(crate) struct KnownConst {
    pub value: ConstValue,
    pub ty: Option<TypeRef>,
}

/// What the names of a constant expression mean where it is written.
pub(crate) trait Scope {
    /// `T` or `pkg.T` as a type, if it names one that a conversion may target. `None` for
    /// names that are functions (`len`, `cap`, ...) or otherwise not types.
    fn conversion_type(&self, qualifier: Option<&str>, name: &str) -> Option<TypeRef>;

    /// The constant `name` (of the package imported as `qualifier`, when qualified), if it
    /// is known and evaluated.
    fn constant(&self, qualifier: Option<&str>, name: &str) -> Option<KnownConst>;

    /// The predeclared type underlying `ty`, when known.
    fn underlying(&self, ty: &TypeRef) -> Option<Builtin> {
        match ty {
            TypeRef::Builtin(b) => Some(*b),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
}

struct Eval<'a> {
    src: &'a str,
    toks: &'a [Token],
    pos: usize,
    iota: i128,
    scope: &'a dyn Scope,
    depth: u32,
}

/// Evaluates the expression made of `toks` (no trailing separator). Returns the value, or
/// `ConstValue::Expr` with the source text when it cannot, and the type the expression
/// gives the constant (from a conversion or a typed constant operand), if any.
pub(crate) fn evaluate(
    src: &str,
    toks: &[Token],
    iota: i128,
    scope: &dyn Scope,
) -> (ConstValue, Option<TypeRef>) {
    let mut ev = Eval {
        src,
        toks,
        pos: 0,
        iota,
        scope,
        depth: 0,
    };
    match ev.binary(1) {
        Some((v, ty)) if ev.pos == toks.len() => {
            let value = match v {
                Value::Int(i) => ConstValue::Int(i),
                Value::Float(f) => ConstValue::Float(f),
                Value::Str(s) => ConstValue::String(s),
                Value::Bool(b) => ConstValue::Bool(b),
            };
            (value, ty)
        }
        _ => (ConstValue::Expr(expr_text(src, toks)), None),
    }
}

/// The source text spanned by `toks`.
pub(crate) fn expr_text(src: &str, toks: &[Token]) -> String {
    match (toks.first(), toks.last()) {
        (Some(a), Some(b)) => src[a.start as usize..b.end as usize].to_string(),
        _ => String::new(),
    }
}

fn precedence(kind: Kind) -> u8 {
    match kind {
        Kind::LOr => 1,
        Kind::LAnd => 2,
        Kind::Eql | Kind::Neq | Kind::Lss | Kind::Leq | Kind::Gtr | Kind::Geq => 3,
        Kind::Plus | Kind::Minus | Kind::Pipe | Kind::Caret => 4,
        Kind::Star
        | Kind::Slash
        | Kind::Percent
        | Kind::Shl
        | Kind::Shr
        | Kind::Amp
        | Kind::AndNot => 5,
        _ => 0,
    }
}

type Typed = (Value, Option<TypeRef>);

impl<'a> Eval<'a> {
    fn peek(&self) -> Option<Token> {
        self.toks.get(self.pos).copied()
    }

    fn text(&self, t: Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }

    fn binary(&mut self, min_prec: u8) -> Option<Typed> {
        let mut left = self.unary()?;
        while let Some(op) = self.peek() {
            let prec = precedence(op.kind);
            if prec == 0 || prec < min_prec {
                break;
            }
            self.pos += 1;
            let right = self.binary(prec + 1)?;
            left = apply_binary(op.kind, left, right)?;
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Typed> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let result = self.unary_inner();
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self) -> Option<Typed> {
        let t = self.peek()?;
        match t.kind {
            Kind::Plus | Kind::Minus | Kind::Caret | Kind::Not => {
                self.pos += 1;
                let (v, ty) = self.unary()?;
                let v = match (t.kind, v) {
                    (Kind::Plus, v @ (Value::Int(_) | Value::Float(_))) => v,
                    (Kind::Minus, Value::Int(i)) => Value::Int(i.checked_neg()?),
                    (Kind::Minus, Value::Float(f)) => Value::Float(-f),
                    (Kind::Caret, Value::Int(i)) => Value::Int(!i),
                    (Kind::Not, Value::Bool(b)) => Value::Bool(!b),
                    _ => return None,
                };
                Some((v, ty))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Option<Typed> {
        let t = self.peek()?;
        self.pos += 1;
        match t.kind {
            Kind::Int => Some((Value::Int(parse_int_literal(self.text(t))?), None)),
            Kind::Float => {
                let text = self.text(t).replace('_', "");
                if text.starts_with("0x") || text.starts_with("0X") {
                    return None;
                }
                Some((Value::Float(text.parse().ok()?), None))
            }
            Kind::Str | Kind::RawStr => Some((Value::Str(unquote(self.text(t)).ok()?), None)),
            Kind::Rune => {
                let s = unquote(self.text(t)).ok()?;
                let mut chars = s.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                Some((Value::Int(c as i128), None))
            }
            Kind::LParen => {
                let v = self.binary(1)?;
                self.expect(Kind::RParen)?;
                Some(v)
            }
            Kind::Ident => self.identifier(t),
            _ => None,
        }
    }

    fn expect(&mut self, kind: Kind) -> Option<()> {
        (self.peek()?.kind == kind).then(|| self.pos += 1)
    }

    fn identifier(&mut self, t: Token) -> Option<Typed> {
        let name = self.text(t);
        let next = self.peek().map(|n| n.kind);
        // `pkg.T(x)`, a conversion to a type of another package, or `pkg.C`, its constant.
        if next == Some(Kind::Dot) {
            let sel = *self.toks.get(self.pos + 1)?;
            if sel.kind != Kind::Ident {
                return None;
            }
            let selected = self.text(sel);
            self.pos += 2;
            if self.peek().map(|t| t.kind) == Some(Kind::LParen) {
                let ty = self.scope.conversion_type(Some(name), selected)?;
                return self.conversion(ty);
            }
            return constant_value(self.scope.constant(Some(name), selected)?);
        }
        if next == Some(Kind::LParen) {
            let ty = self.scope.conversion_type(None, name)?;
            return self.conversion(ty);
        }
        match name {
            "iota" => Some((Value::Int(self.iota), None)),
            "true" => Some((Value::Bool(true), None)),
            "false" => Some((Value::Bool(false), None)),
            _ => constant_value(self.scope.constant(None, name)?),
        }
    }

    /// `T(x)` with the `(` next: the value of `x`, typed `T`.
    fn conversion(&mut self, ty: TypeRef) -> Option<Typed> {
        self.expect(Kind::LParen)?;
        let (v, _) = self.binary(1)?;
        self.expect(Kind::RParen)?;
        let v = match (self.scope.underlying(&ty), v) {
            // `string(65)` makes a one-rune string; not worth modelling.
            (Some(Builtin::String), Value::Int(_)) => return None,
            // A number converted to a type not known yet (declared later, or in another
            // package): its kind decides the value, so wait for it.
            (None, Value::Int(_) | Value::Float(_)) => return None,
            (Some(b), Value::Float(f)) if b.is_integer() => Value::Int(exact_int(f)?),
            (Some(b), Value::Int(i)) if b.is_float() => Value::Float(i as f64),
            (_, v) => v,
        };
        Some((v, Some(ty)))
    }
}

/// A known constant as an operand: its value and type. `None` while it is unevaluated.
fn constant_value(known: KnownConst) -> Option<Typed> {
    let v = match known.value {
        ConstValue::Int(i) => Value::Int(i),
        ConstValue::Float(f) => Value::Float(f),
        ConstValue::String(s) => Value::Str(s),
        ConstValue::Bool(b) => Value::Bool(b),
        ConstValue::Expr(_) => return None,
    };
    Some((v, known.ty))
}

/// The constant a declaration gives: its declared type, else the type of its expression;
/// an untyped integer value given a floating-point type becomes a float, and an integral
/// float given an integer type an integer (`const F float64 = 3`, `const N int = 2.0`).
pub(crate) fn declare(
    value: ConstValue,
    declared: Option<TypeRef>,
    inferred: Option<TypeRef>,
    scope: &dyn Scope,
) -> KnownConst {
    let ty = declared.or(inferred);
    let value = represent(value, ty.as_ref().and_then(|t| scope.underlying(t)));
    KnownConst { value, ty }
}

/// `value` as a constant whose type has the predeclared type `underlying` beneath it: an
/// integer value of a floating-point type is a float, an integral float value of an
/// integer type an integer.
pub(crate) fn represent(value: ConstValue, underlying: Option<Builtin>) -> ConstValue {
    match (underlying, value) {
        (Some(b), ConstValue::Int(i)) if b.is_float() => ConstValue::Float(i as f64),
        (Some(b), ConstValue::Float(f)) if b.is_integer() && exact_int(f).is_some() => {
            ConstValue::Int(f as i128)
        }
        (_, value) => value,
    }
}

/// `f` as an integer, when it is one (and fits).
fn exact_int(f: f64) -> Option<i128> {
    let i = f as i128;
    (f.is_finite() && i as f64 == f).then_some(i)
}

fn apply_binary(op: Kind, (l, lt): Typed, (r, rt): Typed) -> Option<Typed> {
    let ty = lt.or(rt);
    let comparison = matches!(
        op,
        Kind::Eql | Kind::Neq | Kind::Lss | Kind::Leq | Kind::Gtr | Kind::Geq
    );
    let v = match (l, r) {
        (Value::Int(a), Value::Int(b)) => match op {
            Kind::Plus => Value::Int(a.checked_add(b)?),
            Kind::Minus => Value::Int(a.checked_sub(b)?),
            Kind::Star => Value::Int(a.checked_mul(b)?),
            Kind::Slash => Value::Int(a.checked_div(b)?),
            Kind::Percent => Value::Int(a.checked_rem(b)?),
            Kind::Amp => Value::Int(a & b),
            Kind::Pipe => Value::Int(a | b),
            Kind::Caret => Value::Int(a ^ b),
            Kind::AndNot => Value::Int(a & !b),
            Kind::Shl => {
                let n = u32::try_from(b).ok().filter(|n| *n < 127)?;
                let shifted = a.checked_shl(n)?;
                if shifted >> n != a {
                    return None;
                }
                Value::Int(shifted)
            }
            Kind::Shr => {
                let n = u32::try_from(b).ok()?;
                Value::Int(if n >= 127 { a >> 127 } else { a >> n })
            }
            _ if comparison => Value::Bool(compare(op, a.cmp(&b))),
            _ => return None,
        },
        (a @ (Value::Int(_) | Value::Float(_)), b @ (Value::Int(_) | Value::Float(_))) => {
            let (a, b) = (as_float(a), as_float(b));
            match op {
                Kind::Plus => Value::Float(a + b),
                Kind::Minus => Value::Float(a - b),
                Kind::Star => Value::Float(a * b),
                Kind::Slash if b != 0.0 => Value::Float(a / b),
                _ if comparison => Value::Bool(compare(op, a.partial_cmp(&b)?)),
                _ => return None,
            }
        }
        (Value::Str(a), Value::Str(b)) => match op {
            Kind::Plus => Value::Str(a + &b),
            _ if comparison => Value::Bool(compare(op, a.cmp(&b))),
            _ => return None,
        },
        (Value::Bool(a), Value::Bool(b)) => match op {
            Kind::LAnd => Value::Bool(a && b),
            Kind::LOr => Value::Bool(a || b),
            Kind::Eql => Value::Bool(a == b),
            Kind::Neq => Value::Bool(a != b),
            _ => return None,
        },
        _ => return None,
    };
    // Comparisons yield untyped booleans.
    let ty = if comparison { None } else { ty };
    Some((v, ty))
}

fn as_float(v: Value) -> f64 {
    match v {
        Value::Int(i) => i as f64,
        Value::Float(f) => f,
        _ => f64::NAN,
    }
}

fn compare(op: Kind, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        Kind::Eql => ord == Equal,
        Kind::Neq => ord != Equal,
        Kind::Lss => ord == Less,
        Kind::Leq => ord != Greater,
        Kind::Gtr => ord == Greater,
        _ => ord != Less,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    use crate::lexer::lex;
    use kdv_model::NamedRef;

    struct Names<'a>(&'a HashMap<String, KnownConst>);
    impl Scope for Names<'_> {
        fn constant(&self, qualifier: Option<&str>, name: &str) -> Option<KnownConst> {
            match qualifier {
                None => self.0.get(name).cloned(),
                Some(q) => self.0.get(&format!("{q}.{name}")).cloned(),
            }
        }

        fn conversion_type(&self, qualifier: Option<&str>, name: &str) -> Option<TypeRef> {
            if matches!(name, "len" | "cap") {
                return None;
            }
            Some(
                Builtin::from_name(name)
                    .filter(|_| qualifier.is_none())
                    .map_or_else(
                        || {
                            TypeRef::Named(NamedRef {
                                package: qualifier.unwrap_or("local").to_string(),
                                name: name.to_string(),
                                type_args: vec![],
                            })
                        },
                        TypeRef::Builtin,
                    ),
            )
        }
    }

    fn eval_with(src: &str, iota: i128, known: &HashMap<String, KnownConst>) -> ConstValue {
        let lexed = lex(src);
        let toks: Vec<Token> = lexed
            .tokens
            .into_iter()
            .filter(|t| !matches!(t.kind, Kind::AutoSemi | Kind::Eof))
            .collect();
        evaluate(src, &toks, iota, &Names(known)).0
    }

    fn eval(src: &str, iota: i128) -> ConstValue {
        eval_with(src, iota, &HashMap::new())
    }

    #[test]
    fn integer_expressions() {
        assert_eq!(eval("iota", 3), ConstValue::Int(3));
        assert_eq!(eval("iota + 1", 3), ConstValue::Int(4));
        assert_eq!(eval("1 << iota", 4), ConstValue::Int(16));
        assert_eq!(eval("10 * iota", 2), ConstValue::Int(20));
        assert_eq!(eval("1 << (10 * (iota + 1))", 1), ConstValue::Int(1 << 20));
        assert_eq!(eval("-(2 + 3) * 4 % 7", 0), ConstValue::Int(-20 % 7));
        assert_eq!(eval("0x10 | 0b1 &^ 1", 0), ConstValue::Int(0x10));
        assert_eq!(eval("^0", 0), ConstValue::Int(-1));
        assert_eq!(eval("1_000", 0), ConstValue::Int(1000));
        assert_eq!(eval("0o17 + 017", 0), ConstValue::Int(30));
        assert_eq!(eval("'a'", 0), ConstValue::Int(97));
        assert_eq!(eval("7 / 2", 0), ConstValue::Int(3));
    }

    #[test]
    fn other_value_kinds() {
        assert_eq!(eval("\"a\" + `b`", 0), ConstValue::String("ab".into()));
        assert_eq!(eval("1.5 * 2", 0), ConstValue::Float(3.0));
        assert_eq!(eval("true && !false", 0), ConstValue::Bool(true));
        assert_eq!(eval("1 < 2", 0), ConstValue::Bool(true));
    }

    #[test]
    fn conversions_give_types() {
        let lexed = lex("MyType(\"a\")");
        let toks: Vec<Token> = lexed.tokens[..4].to_vec();
        let (v, ty) = evaluate("MyType(\"a\")", &toks, 0, &Names(&HashMap::new()));
        assert_eq!(v, ConstValue::String("a".into()));
        assert!(matches!(ty, Some(TypeRef::Named(n)) if n.name == "MyType"));
        assert_eq!(eval("int64(5) + 1", 0), ConstValue::Int(6));
        assert_eq!(eval("pkg.T(\"s\")", 0), ConstValue::String("s".into()));
        // Whether T holds integers, floats or strings is not known here.
        assert_eq!(eval("pkg.T(5)", 0), ConstValue::Expr("pkg.T(5)".into()));
    }

    #[test]
    fn unevaluable_expressions_keep_text() {
        for src in [
            "len(x)",
            "otherpkg.Value",
            "1 << 200",
            "1 / 0",
            "a[iota]",
            "x",
            "1 +",
            "(1",
            "string(65)",
            "0x1p-2",
            "1i",
        ] {
            assert_eq!(eval(src, 0), ConstValue::Expr(src.into()), "{src}");
        }
    }

    #[test]
    fn earlier_constants_are_used() {
        let mut known = HashMap::new();
        known.insert(
            "A".to_string(),
            KnownConst {
                value: ConstValue::Int(2),
                ty: None,
            },
        );
        assert_eq!(eval_with("A * 3", 0, &known), ConstValue::Int(6));
    }

    #[test]
    fn qualified_constants_are_operands_with_their_type() {
        let mut known = HashMap::new();
        let family = TypeRef::Named(NamedRef {
            package: "core".into(),
            name: "IPFamily".into(),
            type_args: vec![],
        });
        known.insert(
            "v1.IPv4".to_string(),
            KnownConst {
                value: ConstValue::String("IPv4".into()),
                ty: Some(family.clone()),
            },
        );
        let eval = |src: &str| {
            let lexed = lex(src);
            let toks: Vec<Token> = lexed
                .tokens
                .into_iter()
                .filter(|t| !matches!(t.kind, Kind::AutoSemi | Kind::Eof))
                .collect();
            evaluate(src, &toks, 0, &Names(&known))
        };
        assert_eq!(
            eval("v1.IPv4 + \"-x\""),
            (ConstValue::String("IPv4-x".into()), Some(family.clone()))
        );
        let (v, ty) = eval("Local(v1.IPv4)");
        assert_eq!(v, ConstValue::String("IPv4".into()));
        assert!(matches!(ty, Some(TypeRef::Named(n)) if n.name == "Local"));
        assert_eq!(eval("v1.Other").0, ConstValue::Expr("v1.Other".into()));
        assert_eq!(eval("v1.IPv4.X").0, ConstValue::Expr("v1.IPv4.X".into()));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let src = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(matches!(eval(&src, 0), ConstValue::Expr(_)));
        let src = format!("{}1", "-".repeat(10_000));
        assert!(matches!(eval(&src, 0), ConstValue::Expr(_)));
    }
}
