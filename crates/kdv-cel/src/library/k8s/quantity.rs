//! `kubernetes.quantity`: apimachinery `resource.Quantity` values (exact decimals) parsed
//! from strings, compared and added exactly.
//!
//! In order: the declarations, the values, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.
//!
//! A quantity keeps its exact value as decimal digits times a power of ten, and — like
//! apimachinery — whether it is held in the small `int64 × 10^scale` form, because
//! `isInteger`/`asInteger` answer from that form only (`quantity("1000m").isInteger()` is
//! false upstream, as is anything parsed through the arbitrary-precision path).

use super::common::{equal_operands, fixed};
use crate::library::estimate::{CallEstimate, CallSite, STRING_TRAVERSAL_COST_FACTOR};
use std::cmp::Ordering;
use std::sync::Arc;

use super::common::{cost_tenth, overload as ov};
use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::{EvalError, OpaqueValue, Value};

/// The library's name.
const NAME: &str = "kubernetes.quantity";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The CEL type name.
pub const TYPE_NAME: &str = "kubernetes.Quantity";

/// Upstream `ErrFormatWrong`.
pub const ERR_FORMAT: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// Upstream `ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";
/// Upstream `ErrNumeric`.
pub const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";

/// Alignments needing more digits than this are refused rather than materialised
/// (`quantity("1e2000000000").add(1)` would need two billion digits).
const MAX_ALIGN_DIGITS: i64 = 100_000;

// ---- declarations ------------------------------------------------------------------------

/// The checker type of quantities.
pub fn quantity_type() -> Type {
    Type::Object(TYPE_NAME.into())
}

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, Double, Int, String as S};
    let q = quantity_type();
    let m = |id: &str, params: Vec<Type>, r: Type| vec![OverloadDecl::member(id, params, r)];
    let mut lib = Declarations::new(NAME);
    lib.type_ident(TYPE_NAME, q.clone());
    lib.function(
        "quantity",
        vec![OverloadDecl::global(
            "string_to_quantity",
            vec![S],
            q.clone(),
        )],
    );
    lib.function(
        "isQuantity",
        vec![OverloadDecl::global("is_quantity_string", vec![S], Bool)],
    );
    lib.function(
        "sign",
        vec![OverloadDecl::global("quantity_sign", vec![q.clone()], Int)],
    );
    lib.function(
        "isGreaterThan",
        m("quantity_is_greater_than", vec![q.clone(), q.clone()], Bool),
    );
    lib.function(
        "isLessThan",
        m("quantity_is_less_than", vec![q.clone(), q.clone()], Bool),
    );
    lib.function(
        "compareTo",
        m("quantity_compare_to", vec![q.clone(), q.clone()], Int),
    );
    lib.function(
        "asApproximateFloat",
        m("quantity_get_float", vec![q.clone()], Double),
    );
    lib.function("asInteger", m("quantity_get_int", vec![q.clone()], Int));
    lib.function("isInteger", m("quantity_is_integer", vec![q.clone()], Bool));
    lib.function(
        "add",
        vec![
            OverloadDecl::member("quantity_add", vec![q.clone(), q.clone()], q.clone()),
            OverloadDecl::member("quantity_add_int", vec![q.clone(), Int], q.clone()),
        ],
    );
    lib.function(
        "sub",
        vec![
            OverloadDecl::member("quantity_sub", vec![q.clone(), q.clone()], q.clone()),
            OverloadDecl::member("quantity_sub_int", vec![q.clone(), Int], q.clone()),
        ],
    );
    lib
}

// ---- values ------------------------------------------------------------------------------

/// An exact quantity: `(-1)^neg · digits · 10^exp`, `digits` without leading zeros (empty = 0).
#[derive(Clone, Debug)]
pub struct Quantity {
    neg: bool,
    digits: Vec<u8>,
    exp: i64,
    /// apimachinery's `int64Amount` (value, scale) when the quantity is held in that form.
    small: Option<(i64, i32)>,
    /// How `String()` writes it (apimachinery's `Format`, chosen by the parsed suffix).
    format: Format,
    /// The text it was parsed from, when apimachinery keeps it because it is already in
    /// canonical form (`Quantity.s`); `String()` returns it as written (`+1`, `1.500`).
    text: Option<Arc<str>>,
}

/// apimachinery's `resource.Format`: the notation `String()` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `e3`, `E-6`: powers of ten written as exponents.
    DecimalExponent,
    /// `Ki`, `Mi`, ...: powers of 1024.
    BinarySi,
    /// `m`, `k`, `M`, ... (and no suffix).
    DecimalSi,
}

fn trim(mut d: Vec<u8>) -> Vec<u8> {
    let nz = d.iter().position(|&x| x != 0).unwrap_or(d.len());
    d.drain(..nz);
    d
}

fn cmp_mag(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn add_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let mut s = carry;
        if i > 0 {
            i -= 1;
            s += a[i];
        }
        if j > 0 {
            j -= 1;
            s += b[j];
        }
        out.push(s % 10);
        carry = s / 10;
    }
    out.reverse();
    trim(out)
}

/// `a - b` for `a >= b`.
fn sub_mag(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let (mut j, mut borrow) = (b.len(), 0i8);
    for i in (0..a.len()).rev() {
        let mut d = a[i] as i8 - borrow;
        if j > 0 {
            j -= 1;
            d -= b[j] as i8;
        }
        borrow = i8::from(d < 0);
        out.push((d + 10 * borrow) as u8);
    }
    out.reverse();
    trim(out)
}

fn mul_small(a: &[u8], m: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len() + 10);
    let mut carry = 0u64;
    for &d in a.iter().rev() {
        let v = d as u64 * m as u64 + carry;
        out.push((v % 10) as u8);
        carry = v / 10;
    }
    while carry > 0 {
        out.push((carry % 10) as u8);
        carry /= 10;
    }
    out.reverse();
    trim(out)
}

fn digits_of(mut v: u128) -> Vec<u8> {
    let mut out = Vec::new();
    while v > 0 {
        out.push((v % 10) as u8);
        v /= 10;
    }
    out.reverse();
    out
}

impl Quantity {
    fn exact(neg: bool, digits: Vec<u8>, exp: i64, small: Option<(i64, i32)>) -> Quantity {
        let digits = trim(digits);
        let neg = neg && !digits.is_empty();
        Quantity {
            neg,
            digits,
            exp,
            small,
            format: Format::DecimalSi,
            text: None,
        }
    }

    fn with_format(mut self, format: Format) -> Quantity {
        self.format = format;
        self
    }

    /// A quantity held as apimachinery's `int64Amount{value, scale}`.
    fn from_small(value: i64, scale: i32) -> Quantity {
        let mut q = Quantity::exact(
            value < 0,
            digits_of(value.unsigned_abs() as u128),
            scale as i64,
            None,
        );
        q.small = Some((value, scale));
        q
    }

    /// -1, 0 or 1.
    pub fn sign(&self) -> i64 {
        if self.digits.is_empty() {
            0
        } else if self.neg {
            -1
        } else {
            1
        }
    }

    /// Base-10 order of the leading digit (for comparisons without alignment).
    fn magnitude(&self) -> i64 {
        self.exp.saturating_add(self.digits.len() as i64)
    }

    /// Both magnitudes over a common exponent, or `None` when that needs too many digits.
    fn aligned(&self, other: &Quantity) -> Option<(Vec<u8>, Vec<u8>, i64)> {
        let exp = self.exp.min(other.exp);
        let pad = |q: &Quantity| -> Option<Vec<u8>> {
            if q.digits.is_empty() {
                return Some(Vec::new());
            }
            let n = q.exp.checked_sub(exp)?;
            if n > MAX_ALIGN_DIGITS {
                return None;
            }
            let mut d = q.digits.clone();
            d.extend(std::iter::repeat_n(0, n as usize));
            Some(d)
        };
        Some((pad(self)?, pad(other)?, exp))
    }

    fn cmp_abs(&self, other: &Quantity) -> Ordering {
        match (self.digits.is_empty(), other.digits.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let by_order = self.magnitude().cmp(&other.magnitude());
        if by_order != Ordering::Equal {
            return by_order;
        }
        // Same order of magnitude: compare digit by digit, missing digits are zeros.
        let n = self.digits.len().max(other.digits.len());
        for i in 0..n {
            let a = self.digits.get(i).copied().unwrap_or(0);
            let b = other.digits.get(i).copied().unwrap_or(0);
            if a != b {
                return a.cmp(&b);
            }
        }
        Ordering::Equal
    }

    /// Exact numeric comparison (apimachinery `Cmp`).
    pub fn cmp_value(&self, other: &Quantity) -> Ordering {
        match self.sign().cmp(&other.sign()) {
            Ordering::Equal => {}
            o => return o,
        }
        let abs = self.cmp_abs(other);
        if self.neg { abs.reverse() } else { abs }
    }

    /// Exact sum (apimachinery `Add`: the `int64Amount` form is kept when both are in it and
    /// the sum fits).
    pub fn add(&self, other: &Quantity) -> Result<Quantity, EvalError> {
        // `Add` and `Sub` keep the receiver's format unless the receiver is zero.
        let format = if self.digits.is_empty() {
            other.format
        } else {
            self.format
        };
        if let (Some(a), Some(b)) = (self.small, other.small)
            && let Some((v, s)) = small_add(a, b)
        {
            return Ok(Quantity::from_small(v, s).with_format(format));
        }
        let (a, b, exp) = self
            .aligned(other)
            .ok_or_else(|| EvalError::new("quantity out of range"))?;
        let sum = if self.neg == other.neg {
            Quantity::exact(self.neg, add_mag(&a, &b), exp, None)
        } else if cmp_mag(&a, &b) != Ordering::Less {
            Quantity::exact(self.neg, sub_mag(&a, &b), exp, None)
        } else {
            Quantity::exact(other.neg, sub_mag(&b, &a), exp, None)
        };
        Ok(sum.with_format(format))
    }

    /// The negation.
    pub fn neg(&self) -> Quantity {
        let mut q = self.clone();
        q.text = None;
        q.neg = !q.neg && !q.digits.is_empty();
        q.small = match self.small {
            Some((v, s)) => v.checked_neg().map(|v| (v, s)),
            None => None,
        };
        q
    }

    /// apimachinery `AsInt64`: only for the `int64Amount` form with a non-negative scale.
    pub fn as_int64(&self) -> Option<i64> {
        let (v, s) = self.small?;
        match s {
            0 => Some(v),
            s if s < 0 => None,
            s => (0..s).try_fold(v, |acc, _| acc.checked_mul(10)),
        }
    }

    /// The nearest `f64` (±infinity when out of range).
    pub fn as_f64(&self) -> f64 {
        if self.digits.is_empty() {
            return 0.0;
        }
        let mut s = String::with_capacity(self.digits.len() + 24);
        if self.neg {
            s.push('-');
        }
        s.extend(self.digits.iter().map(|&d| char::from(b'0' + d)));
        s.push('e');
        s.push_str(&self.exp.to_string());
        s.parse().unwrap_or(0.0)
    }
}

/// Binary quantities with more integer digits than this are written in decimal instead of
/// being divided by 1024 digit by digit (apimachinery would; the value is the same).
const MAX_BINARY_RENDER_DIGITS: i64 = 4_096;

impl Quantity {
    /// apimachinery `Quantity.String()`: the text it was parsed from when apimachinery kept
    /// it, else the canonical form (`CanonicalizeBytes`): binary-SI for whole multiples of
    /// 1024 of at least 1024, otherwise the mantissa with trailing zeros moved into an
    /// exponent that is a multiple of three, written as an SI suffix or `e<n>`.
    pub fn render(&self) -> String {
        if let Some(text) = &self.text {
            return text.to_string();
        }
        if self.digits.is_empty() {
            return "0".to_string();
        }
        let sign = if self.neg { "-" } else { "" };
        let mut format = self.format;
        if format == Format::BinarySi {
            let below_1024 = self.cmp_abs(&Quantity::from_small(1024, 0)) == Ordering::Less;
            if below_1024 || !self.is_whole() || self.magnitude() > MAX_BINARY_RENDER_DIGITS {
                format = Format::DecimalSi;
            }
        }
        if format == Format::BinarySi {
            let mut n = self.digits.clone();
            if self.exp >= 0 {
                n.extend(std::iter::repeat_n(0, self.exp as usize));
            } else {
                n.truncate(n.len() - self.exp.unsigned_abs() as usize);
            }
            let mut power = 0;
            loop {
                let (quotient, rest) = div_rem_small(&n, 1024);
                if rest != 0 || quotient.is_empty() {
                    break;
                }
                n = quotient;
                power += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .get(power)
                .copied()
                .unwrap_or("");
            return format!("{sign}{}{suffix}", digit_text(&n));
        }
        let mut digits = self.digits.clone();
        let mut exp = self.exp;
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            exp += 1;
        }
        let pad = exp.rem_euclid(3);
        digits.extend(std::iter::repeat_n(0, pad as usize));
        exp -= pad;
        let suffix = match format {
            Format::DecimalExponent if exp == 0 => String::new(),
            Format::DecimalExponent => format!("e{exp}"),
            // An exponent without an SI prefix gets no suffix at all, as upstream.
            _ => match exp {
                -9 => "n",
                -6 => "u",
                -3 => "m",
                3 => "k",
                6 => "M",
                9 => "G",
                12 => "T",
                15 => "P",
                18 => "E",
                _ => "",
            }
            .to_string(),
        };
        format!("{sign}{}{suffix}", digit_text(&digits))
    }

    /// Whether the value is a whole number.
    fn is_whole(&self) -> bool {
        if self.exp >= 0 {
            return true;
        }
        let fraction = self.exp.unsigned_abs();
        fraction <= self.digits.len() as u64
            && self.digits[self.digits.len() - fraction as usize..]
                .iter()
                .all(|&d| d == 0)
    }
}

fn digit_text(digits: &[u8]) -> String {
    digits.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// `a / d` (without leading zeros) and `a % d`.
fn div_rem_small(a: &[u8], d: u32) -> (Vec<u8>, u32) {
    let mut quotient = Vec::with_capacity(a.len());
    let mut rest = 0u32;
    for &digit in a {
        let v = rest * 10 + u32::from(digit);
        quotient.push((v / d) as u8);
        rest = v % d;
    }
    (trim(quotient), rest)
}

/// apimachinery `int64Amount.Add`.
fn small_add(a: (i64, i32), b: (i64, i32)) -> Option<(i64, i32)> {
    let scale_up = |v: i64, n: i32| (0..n).try_fold(v, |acc, _| acc.checked_mul(10));
    let ((av, as_), (bv, bs)) = (a, b);
    if as_ == bs {
        return av.checked_add(bv).map(|v| (v, as_));
    }
    if as_ > bs {
        let av = scale_up(av, as_.checked_sub(bs)?)?;
        av.checked_add(bv).map(|v| (v, bs))
    } else {
        let bv = scale_up(bv, bs.checked_sub(as_)?)?;
        av.checked_add(bv).map(|v| (v, as_))
    }
}

struct Parts<'s> {
    positive: bool,
    /// Sign, digits and fraction as written (what apimachinery hands to `inf.Dec`).
    value: &'s str,
    num: &'s str,
    denom: &'s str,
    suffix: &'s str,
}

/// apimachinery `parseQuantityString`.
fn split(s: &str) -> Result<Parts<'_>, &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    let done = |value, num, denom| Parts {
        positive,
        value,
        num,
        denom,
        suffix: "",
    };
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok(done("0", "0", ""));
    }
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok(done(s, &s[start..], ""));
    }
    let num = if pos == start { "0" } else { &s[start..pos] };
    let mut denom = "";
    if b[pos] == b'.' {
        pos += 1;
        let ds = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &s[ds..pos];
        if pos >= end {
            return Ok(done(s, num, denom));
        }
    }
    let value = &s[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && (b[pos] == b'-' || b[pos] == b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return Err(ERR_FORMAT);
    }
    Ok(Parts {
        positive,
        value,
        num,
        denom,
        suffix: &s[suffix_start..],
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Base {
    Ten,
    Two,
}

/// apimachinery's suffix table: (base, exponent, binary-SI format).
fn interpret(suffix: &str) -> Option<(Base, i32)> {
    let dec = |e| Some((Base::Ten, e));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => Some((Base::Two, 10)),
        "Mi" => Some((Base::Two, 20)),
        "Gi" => Some((Base::Two, 30)),
        "Ti" => Some((Base::Two, 40)),
        "Pi" => Some((Base::Two, 50)),
        "Ei" => Some((Base::Two, 60)),
        s if s.len() > 1 && (s.starts_with('e') || s.starts_with('E')) => {
            // Go parses an int64 and keeps its low 32 bits.
            let e = go_parse_int64(&s[1..])?;
            Some((Base::Ten, e as i32))
        }
        _ => None,
    }
}

/// Go `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int64(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// apimachinery `ParseQuantity`.
pub fn parse(s: &str) -> Result<Quantity, &'static str> {
    if s.is_empty() {
        return Err(ERR_FORMAT);
    }
    if s == "0" {
        let mut q = Quantity::from_small(0, 0);
        q.text = Some(Arc::from(s));
        return Ok(q);
    }
    let p = split(s)?;
    let (base, exponent) = interpret(p.suffix).ok_or(ERR_SUFFIX)?;
    let format = match base {
        Base::Two => Format::BinarySi,
        // A lone `E` is exa (decimal SI); `e3`, `E-6` are exponents.
        Base::Ten if p.suffix.len() > 1 && p.suffix.starts_with(['e', 'E']) => {
            Format::DecimalExponent
        }
        Base::Ten => Format::DecimalSi,
    };
    let digits_len = (p.num.len() + p.denom.len()) as i64;
    let (precision, mut scale, mantissa) = match base {
        Base::Ten => (18 - digits_len, exponent as i64, 1i64),
        Base::Two if p.denom.is_empty() => {
            let precision = 15 - p.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1;
            (precision, 0, 1i64 << exponent)
        }
        Base::Two => (-1, 0, 1),
    };
    if precision >= 0 {
        scale -= p.denom.len() as i64;
        if scale >= -9 {
            let shifted: String = [p.num, p.denom].concat();
            let v: i64 = shifted.parse().map_err(|_| ERR_NUMERIC)?;
            if let Some(mut r) = v.checked_mul(mantissa) {
                if !p.positive {
                    r = -r;
                }
                // scale is between -9 and 18 here
                let mut q = Quantity::from_small(r, scale as i32).with_format(format);
                // apimachinery keeps the text when it is already canonical.
                let canonical = match format {
                    Format::BinarySi => exponent % 10 == 0 && v & 0x07 != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                if canonical {
                    q.text = Some(Arc::from(s));
                }
                return Ok(q);
            }
        }
    }
    big_parse(&p, base, exponent).map(|q| {
        // A binary quantity between 0 and 1 is written in decimal.
        let fraction = q.magnitude() <= 0 && !q.digits.is_empty();
        q.with_format(match format {
            Format::BinarySi if fraction => Format::DecimalSi,
            f => f,
        })
    })
}

/// The arbitrary-precision path of `ParseQuantity`: suffix applied, rounded up to a
/// multiple of 10^-9, binary-SI magnitudes capped at 2^63-1.
fn big_parse(p: &Parts<'_>, base: Base, exponent: i32) -> Result<Quantity, &'static str> {
    let v = p.value.strip_prefix(['+', '-']).unwrap_or(p.value);
    let (int, frac) = v.split_once('.').unwrap_or((v, ""));
    if int.is_empty() && frac.is_empty() {
        return Err(ERR_NUMERIC);
    }
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|c| c - b'0').collect();
    let mut exp = -(frac.len() as i64);
    match base {
        Base::Ten => exp += exponent as i64,
        Base::Two => {
            for _ in 0..exponent / 10 {
                digits = mul_small(&digits, 1024);
            }
        }
    }
    let mut q = Quantity::exact(!p.positive, digits, exp, None);
    if q.exp < -9 {
        // Round the magnitude up to nano: drop digits, add one if any dropped digit was set.
        let drop = (-9 - q.exp) as u64;
        let keep = (q.digits.len() as u64).saturating_sub(drop) as usize;
        let lost = q.digits[keep..].iter().any(|&d| d != 0);
        q.digits.truncate(keep);
        if lost {
            q.digits = add_mag(&q.digits, &[1]);
        }
        q = Quantity::exact(q.neg, std::mem::take(&mut q.digits), -9, None);
    }
    if base == Base::Two {
        let max = Quantity::exact(false, digits_of(i64::MAX as u128), 0, None);
        if q.cmp_abs(&max) == Ordering::Greater {
            q = Quantity::exact(q.neg, max.digits, 0, None);
        }
    }
    Ok(q)
}

impl OpaqueValue for Quantity {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }

    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }

    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other
            .as_any()
            .downcast_ref::<Quantity>()
            .is_some_and(|o| self.cmp_value(o) == Ordering::Equal)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

// ---- implementations and runtime costs ----------------------------------------------

fn q_arg<'v>(v: &'v Value<'_>) -> Result<&'v Quantity, EvalError> {
    super::common::opaque_arg(v)
}

fn wrap<'a>(q: Quantity) -> Value<'a> {
    Value::Opaque(Arc::new(q))
}

fn quantity<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    parse(s).map(wrap).map_err(EvalError::new)
}

fn is_quantity<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(parse(s).is_ok()))
}

fn sign<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(q_arg(&a[0])?.sign()))
}

fn cmp_args(a: &[Value<'_>]) -> Result<Ordering, EvalError> {
    Ok(q_arg(&a[0])?.cmp_value(q_arg(&a[1])?))
}

fn is_greater_than<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(cmp_args(a)? == Ordering::Greater))
}

fn is_less_than<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(cmp_args(a)? == Ordering::Less))
}

fn compare_to<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(cmp_args(a)? as i64))
}

fn as_approximate_float<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Double(q_arg(&a[0])?.as_f64()))
}

fn in_i64_range(q: &Quantity) -> bool {
    let max = Quantity::from_small(i64::MAX, 0);
    let min = Quantity::from_small(i64::MIN, 0);
    q.cmp_value(&max) != Ordering::Greater && q.cmp_value(&min) != Ordering::Less
}

fn as_integer<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let q = q_arg(&a[0])?;
    if !in_i64_range(q) {
        return Err(EvalError::new("cannot convert value to integer"));
    }
    q.as_int64()
        .map(Value::Int)
        .ok_or_else(|| EvalError::new("cannot convert value to integer"))
}

fn is_integer<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(q_arg(&a[0])?.as_int64().is_some()))
}

fn operand(v: &Value<'_>) -> Result<Quantity, EvalError> {
    match v {
        // Upstream converts with `resource.NewQuantity(i, DecimalExponent)`.
        Value::Int(i) => Ok(Quantity::from_small(*i, 0).with_format(Format::DecimalExponent)),
        _ => q_arg(v).cloned(),
    }
}

fn add<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    q_arg(&a[0])?.add(&operand(&a[1])?).map(wrap)
}

fn sub<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    q_arg(&a[0])?.add(&operand(&a[1])?.neg()).map(wrap)
}

const Q: P = P::opaque(TYPE_NAME);

/// The runtime overloads.
pub fn functions() -> Functions {
    let mut parse_q = ov(
        "string_to_quantity",
        "quantity",
        false,
        &[P::STRING],
        quantity,
        None,
    );
    parse_q.cost = Some(cost_tenth);
    let mut is_q = ov(
        "is_quantity_string",
        "isQuantity",
        false,
        &[P::STRING],
        is_quantity,
        None,
    );
    is_q.cost = Some(cost_tenth);
    Functions {
        name: NAME,
        overloads: vec![
            parse_q,
            is_q,
            ov("quantity_sign", "sign", false, &[Q], sign, None),
            ov(
                "quantity_is_greater_than",
                "isGreaterThan",
                true,
                &[Q, Q],
                is_greater_than,
                None,
            ),
            ov(
                "quantity_is_less_than",
                "isLessThan",
                true,
                &[Q, Q],
                is_less_than,
                None,
            ),
            ov(
                "quantity_compare_to",
                "compareTo",
                true,
                &[Q, Q],
                compare_to,
                None,
            ),
            ov(
                "quantity_get_float",
                "asApproximateFloat",
                true,
                &[Q],
                as_approximate_float,
                None,
            ),
            ov(
                "quantity_get_int",
                "asInteger",
                true,
                &[Q],
                as_integer,
                None,
            ),
            ov(
                "quantity_is_integer",
                "isInteger",
                true,
                &[Q],
                is_integer,
                None,
            ),
            ov("quantity_add", "add", true, &[Q, Q], add, None),
            ov("quantity_add_int", "add", true, &[Q, P::INT], add, None),
            ov("quantity_sub", "sub", true, &[Q, Q], sub, None),
            ov("quantity_sub_int", "sub", true, &[Q, P::INT], sub, None),
        ],
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` that prices this library's
/// functions. Upstream dispatches on the function's name alone, so a call of any library with
/// one of these names is priced here; `None` leaves the call to the next estimator.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.function() {
        // Parsing: a string traversal.
        "quantity" | "isQuantity" if c.argc() >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        // `isGreaterThan`, `isLessThan`, `compareTo`: semver's too, at the same price.
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
        | "isLessThan" | "compareTo" | "add" | "sub" => fixed(1),
        "_==_" => match equal_operands(c)? {
            (Type::Object(name), ..) if &**name == TYPE_NAME => fixed(1),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{err, eval_cost, is_true, ok};
    use super::*;

    #[test]
    fn parse_errors() {
        for s in ["", "abc", "1 ", "1.5.5", "1Kx", " 1", "1e5x"] {
            assert_eq!(parse(s).err(), Some(ERR_FORMAT), "{s:?}");
        }
        for s in ["1K", "1Ke", "1kk", "1mi", "1e1.5"] {
            assert!(parse(s).is_err(), "{s:?}");
        }
        assert_eq!(parse("1K").err(), Some(ERR_SUFFIX));
        assert_eq!(parse("1ee5").err(), Some(ERR_SUFFIX));
        assert_eq!(parse("--1").err(), Some(ERR_SUFFIX));
        assert_eq!(parse("1e").err(), Some(ERR_SUFFIX));
        assert_eq!(parse(".e-10").err(), Some(ERR_NUMERIC));
        assert!(parse(".Ki").is_ok());
        for s in [
            "0",
            "1",
            "1.",
            "+1",
            "-1",
            ".5",
            "1.5Gi",
            "100m",
            "1e3",
            "1E-3",
            "5Ei",
            "0.0000000001",
        ] {
            assert!(parse(s).is_ok(), "{s:?}");
        }
    }

    #[test]
    fn values() {
        let cmp = |a: &str, b: &str| parse(a).unwrap().cmp_value(&parse(b).unwrap());
        assert_eq!(cmp("1Ki", "1024"), Ordering::Equal);
        assert_eq!(cmp("1.5Gi", "1610612736"), Ordering::Equal);
        assert_eq!(cmp("200M", "0.2G"), Ordering::Equal);
        assert_eq!(cmp("50M", "50Mi"), Ordering::Less);
        assert_eq!(cmp("-1", "1m"), Ordering::Less);
        assert_eq!(cmp("-2", "-1"), Ordering::Less);
        // rounded up to nano
        assert_eq!(cmp("0.0000000001", "1n"), Ordering::Equal);
        assert_eq!(cmp("-0.0000000001", "-1n"), Ordering::Equal);
        assert_eq!(cmp("1.0000000001", "1.000000001"), Ordering::Equal);
        // binary SI capped at 2^63-1
        assert_eq!(cmp("16Ei", "9223372036854775807"), Ordering::Equal);
        assert_eq!(
            cmp(
                "123456789012345678901234567890",
                "123456789012345678901234567891"
            ),
            Ordering::Less
        );
        assert_eq!(cmp("1e4294967296", "1"), Ordering::Equal);
        assert_eq!(cmp("1e1000000000", "1e999999999"), Ordering::Greater);
    }

    #[test]
    fn cel_functions() {
        is_true("quantity('1Ki') == quantity('1024')");
        is_true("type(quantity('1')) == kubernetes.Quantity");
        is_true("quantity('200M') == quantity('0.2G')");
        is_true("quantity('50M').compareTo(quantity('50Mi')) == -1");
        is_true("quantity('2').isGreaterThan(quantity('1999m'))");
        is_true("quantity('1').isLessThan(quantity('1001m'))");
        is_true(
            "sign(quantity('-5m')) == -1 && sign(quantity('0')) == 0 && sign(quantity('1k')) == 1",
        );
        is_true("quantity('1.5').asApproximateFloat() == 1.5");
        is_true("quantity('1e400').asApproximateFloat() == double('Infinity')");
        is_true("quantity('5k').asInteger() == 5000");
        is_true("quantity('5k').isInteger()");
        is_true("!quantity('1000m').isInteger()");
        is_true("!quantity('1.5').isInteger()");
        is_true("quantity('1Ki').add(quantity('1')) == quantity('1025')");
        is_true("quantity('1Ki').add(1) == quantity('1025')");
        is_true("quantity('1').sub(quantity('1500m')) == quantity('-500m')");
        is_true("quantity('1').sub(2) == quantity('-1')");
        is_true(
            "quantity('9223372036854775807').add(1).isGreaterThan(quantity('9223372036854775807'))",
        );
        is_true("isQuantity('1.5Gi') && !isQuantity('1K') && !isQuantity('')");
        assert_eq!(
            err("quantity('1.5').asInteger()"),
            "cannot convert value to integer"
        );
        assert_eq!(
            err("quantity('1e20').asInteger()"),
            "cannot convert value to integer"
        );
        assert_eq!(err("quantity('1K')"), ERR_SUFFIX);
        assert_eq!(err("quantity('x')"), ERR_FORMAT);
        assert_eq!(
            err("quantity('1e2000000000').add(1)"),
            "quantity out of range"
        );
        assert_eq!(ok("quantity('1').add(1).asInteger()"), "2");
    }

    #[test]
    fn runtime_cost() {
        // ⌈10·0.1⌉ for the dynamic string, 1 per accessor.
        let (_, c) = eval_cost("['1234567890'].all(s, quantity(s).isInteger())").unwrap();
        assert!(c >= 2, "{c}");
    }
}
