//! `kubernetes.net.cidr`: `net.CIDR` values (Go `netip.Prefix`) with Kubernetes'
//! strictness — declarations, implementations with runtime costs, and Kubernetes' static
//! estimates of its functions. Addresses are `library::k8s::ip`'s.

use std::ops::Add as _;

use super::common::{equal_operands, fixed};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};
use std::sync::Arc;

use super::common::{cost_tenth, go_quote, mul_ceil, overload as ov};
use super::ip::{Addr, IP, ip_arg, ip_val, parse_addr, parse_ip, str_arg};
use crate::library::{
    CallCtx, Declarations, Functions, Library, OverloadDecl, ParamType as P, cached, nso,
};
use crate::types::Type;
use crate::value::{EvalError, OpaqueValue, Value};

type R<'a> = Result<Value<'a>, EvalError>;

/// Kubernetes' name of the library.
const NAME: &str = "kubernetes.net.cidr";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

/// The CEL type name of prefixes.
pub const CIDR_TYPE: &str = "net.CIDR";

// ---- prefixes ----------------------------------------------------------------------------

/// A prefix (Go `netip.Prefix`: the address as written and the prefix length).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    /// The address, not masked.
    pub addr: Addr,
    /// Prefix length.
    pub bits: u32,
}

impl Cidr {
    /// Go `Prefix.String`.
    pub fn render(&self) -> String {
        format!("{}/{}", self.addr.render(), self.bits)
    }

    fn contains(&self, a: &Addr) -> bool {
        std::mem::discriminant(&self.addr) == std::mem::discriminant(a)
            && self.addr.masked(self.bits) == a.masked(self.bits)
    }

    fn overlaps(&self, o: &Cidr) -> bool {
        let min = self.bits.min(o.bits);
        std::mem::discriminant(&self.addr) == std::mem::discriminant(&o.addr)
            && self.addr.masked(min) == o.addr.masked(min)
    }
}

impl OpaqueValue for Cidr {
    fn type_name(&self) -> &str {
        CIDR_TYPE
    }
    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other.as_any().downcast_ref::<Cidr>() == Some(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn cost_size(&self) -> u64 {
        self.bits.div_ceil(8) as u64
    }
}

/// Go `netip.ParsePrefix`.
fn parse_prefix(s: &str) -> Result<Cidr, String> {
    let err = |msg: &str| format!("netip.ParsePrefix({}): {msg}", go_quote(s));
    let Some(i) = s.rfind('/') else {
        return Err(err("no '/'"));
    };
    let p = parse_addr(&s[..i]).map_err(|e| err(&e))?;
    if p.zone {
        return Err(err("IPv6 zones cannot be present in a prefix"));
    }
    let bits_str = &s[i + 1..];
    let bad = || err(&format!("bad bits after slash: {}", go_quote(bits_str)));
    if bits_str.len() > 1 && !(b'1'..=b'9').contains(&bits_str.as_bytes()[0]) {
        return Err(bad());
    }
    if bits_str.is_empty() || !bits_str.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let bits: u64 = bits_str.parse().map_err(|_| bad())?;
    if bits > p.addr.bits() as u64 {
        return Err(err("prefix length out of range"));
    }
    Ok(Cidr {
        addr: p.addr,
        bits: bits as u32,
    })
}

/// Kubernetes `parseCIDR`.
pub fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let c = parse_prefix(raw)
        .map_err(|e| format!("network address parse error during conversion from string: {e}"))?;
    if c.addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(c)
}

// ---- declarations ------------------------------------------------------------------------

/// The checker type of prefixes.
pub fn cidr_type() -> Type {
    Type::Opaque(CIDR_TYPE.into(), Vec::new())
}

/// The checker declarations of `kubernetes.net.cidr`.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, Int, String as S};
    let (ip, c) = (super::ip::ip_type(), cidr_type());
    let mut lib = Declarations::new(NAME);
    lib.type_ident(CIDR_TYPE, c.clone());
    lib.function(
        "cidr",
        vec![OverloadDecl::global("string_to_cidr", vec![S], c.clone())],
    );
    lib.function(
        "isCIDR",
        vec![OverloadDecl::global("is_cidr", vec![S], Bool)],
    );
    lib.function(
        "string",
        vec![OverloadDecl::global("cidr_to_string", vec![c.clone()], S)],
    );
    lib.function(
        "containsIP",
        vec![
            OverloadDecl::member("cidr_contains_ip_ip", vec![c.clone(), ip.clone()], Bool),
            OverloadDecl::member("cidr_contains_ip_string", vec![c.clone(), S], Bool),
        ],
    );
    lib.function(
        "containsCIDR",
        vec![
            OverloadDecl::member("cidr_contains_cidr", vec![c.clone(), c.clone()], Bool),
            OverloadDecl::member("cidr_contains_cidr_string", vec![c.clone(), S], Bool),
        ],
    );
    lib.function(
        "ip",
        vec![OverloadDecl::member("cidr_ip", vec![c.clone()], ip)],
    );
    lib.function(
        "masked",
        vec![OverloadDecl::member(
            "cidr_masked",
            vec![c.clone()],
            c.clone(),
        )],
    );
    lib.function(
        "prefixLength",
        vec![OverloadDecl::member("cidr_prefix_length", vec![c], Int)],
    );
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

fn cidr_arg(v: &Value<'_>) -> Result<Cidr, EvalError> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Cidr>().copied().ok_or_else(nso),
        _ => Err(nso()),
    }
}

fn cidr_val<'a>(c: Cidr) -> Value<'a> {
    Value::Opaque(Arc::new(c))
}

fn string_to_cidr<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    parse_cidr_value(str_arg(&a[0])?).map(cidr_val)
}

/// `cidr(s)`'s parse: its error adds a second prefix to [`parse_cidr`]'s, as upstream.
fn parse_cidr_value(s: &str) -> Result<Cidr, EvalError> {
    parse_cidr(s).map_err(|e| {
        EvalError::new(format!(
            "network address parse error during conversion from string: {e}"
        ))
    })
}

fn is_cidr<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(parse_cidr(str_arg(&a[0])?).is_ok()))
}

fn cidr_to_string<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::string(cidr_arg(&a[0])?.render()))
}

fn contains_ip<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let c = cidr_arg(&a[0])?;
    let ip = match &a[1] {
        // Upstream hands the parse error to the IP overload as its argument, which answers
        // "no such overload" (unlike containsCIDR, which passes the parse error on).
        Value::String(s) => parse_ip(s).map_err(|_| EvalError::no_such_overload())?,
        v => ip_arg(v)?,
    };
    Ok(Value::Bool(c.contains(&ip)))
}

fn contains_cidr<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let c = cidr_arg(&a[0])?;
    let o = match &a[1] {
        // Upstream converts the string with `cidr()` and passes its error on.
        Value::String(s) => parse_cidr_value(s)?,
        v => cidr_arg(v)?,
    };
    Ok(Value::Bool(c.overlaps(&o) && c.bits <= o.bits))
}

fn cidr_ip<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(ip_val(cidr_arg(&a[0])?.addr))
}

fn masked<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let c = cidr_arg(&a[0])?;
    Ok(cidr_val(Cidr {
        addr: c.addr.masked(c.bits),
        bits: c.bits,
    }))
}

fn prefix_length<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(cidr_arg(&a[0])?.bits as i64))
}

fn string_arg_cost(args: &[Value<'_>]) -> u64 {
    match args.get(1) {
        Some(s @ Value::String(_)) => mul_ceil(s.cost_size(), 0.1),
        _ => 0,
    }
}

fn cost_contains_ip(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let cs = args.first().map_or(0, Value::cost_size);
    mul_ceil(cs.saturating_mul(2), 0.1).saturating_add(string_arg_cost(args))
}

fn cost_contains_cidr(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let cs = args.first().map_or(0, Value::cost_size);
    mul_ceil(cs.saturating_mul(2), 0.1)
        .saturating_add(mul_ceil(cs, 0.1))
        .saturating_add(1)
        .saturating_add(string_arg_cost(args))
}

/// Parameters of type `net.CIDR`.
const CIDR: P = P::opaque(CIDR_TYPE);

/// The runtime overloads of `kubernetes.net.cidr`.
pub fn functions() -> Functions {
    let t = Some(cost_tenth as crate::library::CostFn);
    Functions {
        name: NAME,
        overloads: vec![
            ov(
                "string_to_cidr",
                "cidr",
                false,
                &[P::STRING],
                string_to_cidr,
                t,
            ),
            ov("is_cidr", "isCIDR", false, &[P::STRING], is_cidr, t),
            ov(
                "cidr_to_string",
                "string",
                false,
                &[CIDR],
                cidr_to_string,
                None,
            ),
            ov(
                "cidr_contains_ip_ip",
                "containsIP",
                true,
                &[CIDR, IP],
                contains_ip,
                Some(cost_contains_ip),
            ),
            ov(
                "cidr_contains_ip_string",
                "containsIP",
                true,
                &[CIDR, P::STRING],
                contains_ip,
                Some(cost_contains_ip),
            ),
            ov(
                "cidr_contains_cidr",
                "containsCIDR",
                true,
                &[CIDR, CIDR],
                contains_cidr,
                Some(cost_contains_cidr),
            ),
            ov(
                "cidr_contains_cidr_string",
                "containsCIDR",
                true,
                &[CIDR, P::STRING],
                contains_cidr,
                Some(cost_contains_cidr),
            ),
            ov("cidr_ip", "ip", true, &[CIDR], cidr_ip, None),
            ov("cidr_masked", "masked", true, &[CIDR], masked, None),
            ov(
                "cidr_prefix_length",
                "prefixLength",
                true,
                &[CIDR],
                prefix_length,
                None,
            ),
        ],
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` that prices this library's
/// functions. Upstream dispatches on the function's name alone, so a call of any library with
/// one of these names is priced here; `None` leaves the call to the next estimator.
///
/// Asked before [`super::ip::estimate`]: both price `ip`, this library its `cidr.ip()`
/// accessor.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    match c.function() {
        // Parsing: a string traversal.
        "cidr" | "isCIDR" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        // The address of a CIDR is a field access.
        "ip" if c.overload() == "cidr_ip" => fixed(1),
        "masked" | "prefixLength" => fixed(1),
        "containsIP" if n >= 1 => {
            let mut cost = address_comparison();
            if c.overload() == "cidr_contains_ip_string" {
                cost = cost.add(string_parse(c, &c.arg(0)));
            }
            Some(CallEstimate::cost(cost))
        }
        "containsCIDR" if n >= 1 => {
            // Masking the base CIDR traverses the address again, plus comparing the bits.
            let mut cost = address_comparison()
                .add(ADDRESS_BYTES.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR))
                .add(CostEstimate::fixed(1));
            if c.overload() == "cidr_contains_cidr_string" {
                cost = cost.add(string_parse(c, &c.arg(0)));
            }
            Some(CallEstimate::cost(cost))
        }
        "_==_" => match equal_operands(c)? {
            (Type::Opaque(name, _), ..) if &**name == CIDR_TYPE => fixed(1),
            _ => None,
        },
        _ => None,
    }
}

/// Bytes of an IPv4 or IPv6 address.
const ADDRESS_BYTES: SizeEstimate = SizeEstimate { min: 4, max: 16 };

/// Comparing two addresses' bytes: `(4..16 + 4..16) × 0.1`.
fn address_comparison() -> CostEstimate {
    ADDRESS_BYTES
        .add(ADDRESS_BYTES)
        .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
}

/// Parsing the string form of an address argument.
fn string_parse<'a, C: CallSite<'a>>(c: &C, n: &C::Node) -> CostEstimate {
    c.node_size(n)
        .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{err, is_true};
    use super::*;

    #[test]
    fn parse_errors() {
        assert_eq!(
            err("cidr('192.168.0.0/')"),
            "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\""
        );
        assert!(
            parse_cidr("10.0.0.0/33")
                .unwrap_err()
                .ends_with("prefix length out of range")
        );
        assert!(
            parse_cidr("10.0.0.0/08")
                .unwrap_err()
                .contains("bad bits after slash")
        );
        assert!(
            parse_cidr("fe80::%1/64")
                .unwrap_err()
                .ends_with("IPv6 zones cannot be present in a prefix")
        );
        assert!(
            parse_cidr("::ffff:1.2.3.4/120")
                .unwrap_err()
                .starts_with("IPv4-mapped")
        );
    }

    #[test]
    fn cidr_functions() {
        is_true("isCIDR('192.168.0.1/24') && !isCIDR('192.168.0.0')");
        is_true("string(cidr('192.168.0.1/24')) == '192.168.0.1/24'");
        is_true("cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')");
        is_true("cidr('192.168.0.1/24') != cidr('192.168.0.0/24')");
        is_true("cidr('192.168.0.1/24').ip() == ip('192.168.0.1')");
        is_true("cidr('192.168.0.0/24').prefixLength() == 24");
        is_true("cidr('192.168.0.0/24').containsIP(ip('192.168.0.9'))");
        is_true("cidr('192.168.0.0/24').containsIP('192.168.0.9')");
        is_true("!cidr('192.168.0.0/24').containsIP('::1')");
        is_true("cidr('10.0.0.0/8').containsCIDR(cidr('10.1.0.0/16'))");
        is_true("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')");
        is_true("!cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')");
        is_true("cidr('::/0').containsIP('2001:db8::1')");
        assert_eq!(
            err("cidr('10.0.0.0/8').containsIP('x')"),
            "no such overload"
        );
        assert_eq!(
            err("cidr('10.0.0.0/8').containsCIDR('x')"),
            err("cidr('x')")
        );
    }
}
