//! `kubernetes.net.ip`: `net.IP` values with Go `net/netip` parsing, rendering and
//! predicates, plus Kubernetes' strictness (no zones, no IPv4-mapped IPv6) — declarations,
//! implementations with runtime costs, and Kubernetes' static estimates of its functions.

use super::common::{equal_operands, fixed};
use crate::library::estimate::{CallEstimate, CallSite, STRING_TRAVERSAL_COST_FACTOR};
use std::sync::Arc;

use super::common::{cost_tenth, go_quote, mul_ceil, overload as ov};
use crate::library::{
    CallCtx, Declarations, Functions, Library, OverloadDecl, ParamType as P, cached, nso,
};
use crate::types::Type;
use crate::value::{EvalError, OpaqueValue, Value};

type R<'a> = Result<Value<'a>, EvalError>;

/// Kubernetes' name of the library.
const NAME: &str = "kubernetes.net.ip";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

/// The CEL type name of addresses.
pub const IP_TYPE: &str = "net.IP";

// ---- addresses ---------------------------------------------------------------------------

/// An IP address (Go `netip.Addr` without zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Addr {
    /// IPv4.
    V4([u8; 4]),
    /// IPv6.
    V6([u8; 16]),
}

/// A parsed address with its zone (Go keeps zones; Kubernetes rejects them).
pub(super) struct Parsed {
    pub(super) addr: Addr,
    pub(super) zone: bool,
}

fn addr_err(input: &str, msg: &str, at: Option<&str>) -> String {
    match at {
        Some(at) => format!(
            "ParseAddr({}): {msg} (at {})",
            go_quote(input),
            go_quote(at)
        ),
        None => format!("ParseAddr({}): {msg}", go_quote(input)),
    }
}

fn parse_v4_fields(input: &str, s: &str, out: &mut [u8]) -> Result<(), String> {
    let b = s.as_bytes();
    let (mut val, mut pos, mut dig_len) = (0u32, 0usize, 0);
    for i in 0..b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            if dig_len == 1 && val == 0 {
                return Err(addr_err(
                    input,
                    "IPv4 field has octet with leading zero",
                    None,
                ));
            }
            val = val * 10 + (c - b'0') as u32;
            dig_len += 1;
            if val > 255 {
                return Err(addr_err(input, "IPv4 field has value >255", None));
            }
        } else if c == b'.' {
            if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                return Err(addr_err(
                    input,
                    "IPv4 field must have at least one digit",
                    Some(&s[i..]),
                ));
            }
            if pos == 3 {
                return Err(addr_err(input, "IPv4 address too long", None));
            }
            out[pos] = val as u8;
            pos += 1;
            val = 0;
            dig_len = 0;
        } else {
            return Err(addr_err(input, "unexpected character", s.get(i..)));
        }
    }
    if pos < 3 {
        return Err(addr_err(input, "IPv4 address too short", None));
    }
    out[3] = val as u8;
    Ok(())
}

fn parse_v6(input: &str) -> Result<Parsed, String> {
    let (mut s, zone) = match input.find('%') {
        Some(i) => {
            if i + 1 == input.len() {
                return Err(addr_err(input, "zone must be a non-empty string", None));
            }
            (&input[..i], Some(&input[i + 1..]))
        }
        None => (input, None),
    };
    let zone_len = zone.map_or(0, |z| z.len() + 1);
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok(Parsed {
                addr: Addr::V6(ip),
                zone: zone.is_some(),
            });
        }
    }
    let mut i = 0;
    while i < 16 {
        let b = s.as_bytes();
        let (mut off, mut acc) = (0, 0u32);
        while off < b.len() {
            let Some(d) = (b[off] as char).to_digit(16) else {
                break;
            };
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(addr_err(
                    input,
                    "each group must have 4 or less digits",
                    Some(s),
                ));
            }
            if acc > 0xffff {
                return Err(addr_err(input, "IPv6 field has value >=2^16", Some(s)));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_err(
                input,
                "each colon-separated field must have at least one digit",
                Some(s),
            ));
        }
        if off < b.len() && b[off] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return Err(addr_err(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    Some(s),
                ));
            }
            if i + 4 > 16 {
                return Err(addr_err(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    Some(s),
                ));
            }
            let end = input.len() - zone_len;
            let v4 = input.get(end - s.len()..end).unwrap_or("");
            parse_v4_fields(input, v4, &mut ip[i..i + 4])?;
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_err(input, "unexpected character, want colon", Some(s)));
        } else if s.len() == 1 {
            return Err(addr_err(
                input,
                "colon must be followed by more characters",
                Some(s),
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_err(input, "multiple :: in address", Some(s)));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_err(input, "trailing garbage after address", Some(s)));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_err(input, "address string too short", None));
        };
        let n = 16 - i;
        for j in (e..i).rev() {
            ip[j + n] = ip[j];
        }
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_err(
            input,
            "the :: must expand to at least one field of zeros",
            Some(s),
        ));
    }
    Ok(Parsed {
        addr: Addr::V6(ip),
        zone: zone.is_some(),
    })
}

/// Go `netip.ParseAddr`.
pub(super) fn parse_addr(s: &str) -> Result<Parsed, String> {
    for c in s.bytes() {
        match c {
            b'.' => {
                let mut f = [0u8; 4];
                parse_v4_fields(s, s, &mut f)?;
                return Ok(Parsed {
                    addr: Addr::V4(f),
                    zone: false,
                });
            }
            b':' => return parse_v6(s),
            b'%' => return Err(addr_err(s, "missing IPv6 address", None)),
            _ => {}
        }
    }
    Err(addr_err(s, "unable to parse IP", None))
}

impl Addr {
    pub(super) fn is_4in6(&self) -> bool {
        matches!(self, Addr::V6(b) if b[..10].iter().all(|&x| x == 0) && b[10] == 0xff && b[11] == 0xff)
    }

    pub(super) fn bits(&self) -> u32 {
        match self {
            Addr::V4(_) => 32,
            Addr::V6(_) => 128,
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Addr::V4(b) => b,
            Addr::V6(b) => b,
        }
    }

    pub(super) fn masked(&self, bits: u32) -> Addr {
        let mut a = *self;
        let bytes: &mut [u8] = match &mut a {
            Addr::V4(b) => b,
            Addr::V6(b) => b,
        };
        for (i, byte) in bytes.iter_mut().enumerate() {
            let start = i as u32 * 8;
            if start >= bits {
                *byte = 0;
            } else if bits - start < 8 {
                *byte &= 0xffu8 << (8 - (bits - start));
            }
        }
        a
    }

    /// Go `Addr.String`.
    pub fn render(&self) -> String {
        match self {
            Addr::V4(b) => format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]),
            Addr::V6(b) => {
                let g: Vec<u16> = b
                    .chunks(2)
                    .map(|c| u16::from(c[0]) << 8 | u16::from(c[1]))
                    .collect();
                // The longest run of two or more zero groups (the first on ties) becomes `::`.
                let (mut zs, mut ze) = (usize::MAX, usize::MAX);
                let mut best = 0;
                for i in 0..8 {
                    let mut j = i;
                    while j < 8 && g[j] == 0 {
                        j += 1;
                    }
                    if j - i >= 2 && j - i > best {
                        (zs, ze, best) = (i, j, j - i);
                    }
                }
                let mut out = String::new();
                let mut k = 0;
                while k < 8 {
                    if k == zs {
                        out.push_str("::");
                        k = ze;
                        continue;
                    }
                    if k > 0 && !out.ends_with(':') {
                        out.push(':');
                    }
                    out.push_str(&format!("{:x}", g[k]));
                    k += 1;
                }
                out
            }
        }
    }

    fn is_unspecified(&self) -> bool {
        self.bytes().iter().all(|&x| x == 0)
    }

    fn is_loopback(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 127,
            Addr::V6(b) => b[..15].iter().all(|&x| x == 0) && b[15] == 1,
        }
    }

    fn is_multicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] & 0xf0 == 0xe0,
            Addr::V6(b) => b[0] == 0xff,
        }
    }

    fn is_link_local_multicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 224 && b[1] == 0 && b[2] == 0,
            Addr::V6(b) => b[0] == 0xff && b[1] & 0x0f == 0x02,
        }
    }

    fn is_link_local_unicast(&self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 169 && b[1] == 254,
            Addr::V6(b) => b[0] == 0xfe && b[1] & 0xc0 == 0x80,
        }
    }

    fn is_global_unicast(&self) -> bool {
        if let Addr::V4(b) = self
            && (*b == [0; 4] || *b == [255; 4])
        {
            return false;
        }
        !self.is_unspecified()
            && !self.is_loopback()
            && !self.is_multicast()
            && !self.is_link_local_unicast()
    }
}

/// An address as a CEL value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ip(pub Addr);

impl OpaqueValue for Ip {
    fn type_name(&self) -> &str {
        IP_TYPE
    }
    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.render())
    }
    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other.as_any().downcast_ref::<Ip>() == Some(self)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn cost_size(&self) -> u64 {
        (self.0.bits() / 8) as u64
    }
}

/// Kubernetes `parseIPAddr`.
pub fn parse_ip(raw: &str) -> Result<Addr, String> {
    let p = parse_addr(raw).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            go_quote(raw)
        )
    })?;
    if p.zone {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            go_quote(raw)
        ));
    }
    if p.addr.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            go_quote(raw)
        ));
    }
    Ok(p.addr)
}

// ---- declarations ------------------------------------------------------------------------

/// The checker type of addresses.
pub fn ip_type() -> Type {
    Type::Opaque(IP_TYPE.into(), Vec::new())
}

/// The checker declarations of `kubernetes.net.ip`.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, Int, String as S};
    let ip = ip_type();
    let mut lib = Declarations::new(NAME);
    lib.type_ident(IP_TYPE, ip.clone());
    lib.function(
        "ip",
        vec![OverloadDecl::global("string_to_ip", vec![S], ip.clone())],
    );
    lib.function("isIP", vec![OverloadDecl::global("is_ip", vec![S], Bool)]);
    lib.function(
        "ip.isCanonical",
        vec![OverloadDecl::global("ip_is_canonical", vec![S], Bool)],
    );
    lib.function(
        "string",
        vec![OverloadDecl::global("ip_to_string", vec![ip.clone()], S)],
    );
    lib.function(
        "family",
        vec![OverloadDecl::member("ip_family", vec![ip.clone()], Int)],
    );
    for (name, id) in [
        ("isUnspecified", "ip_is_unspecified"),
        ("isLoopback", "ip_is_loopback"),
        ("isLinkLocalMulticast", "ip_is_link_local_multicast"),
        ("isLinkLocalUnicast", "ip_is_link_local_unicast"),
        ("isGlobalUnicast", "ip_is_global_unicast"),
    ] {
        lib.function(name, vec![OverloadDecl::member(id, vec![ip.clone()], Bool)]);
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

pub(super) fn ip_arg(v: &Value<'_>) -> Result<Addr, EvalError> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Ip>().map(|i| i.0).ok_or_else(nso),
        _ => Err(nso()),
    }
}

pub(super) fn str_arg<'v>(v: &'v Value<'_>) -> Result<&'v str, EvalError> {
    match v {
        Value::String(s) => Ok(s.as_str()),
        _ => Err(nso()),
    }
}

pub(super) fn ip_val<'a>(a: Addr) -> Value<'a> {
    Value::Opaque(Arc::new(Ip(a)))
}

fn string_to_ip<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    parse_ip(str_arg(&a[0])?)
        .map(ip_val)
        .map_err(EvalError::new)
}

fn is_ip<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(parse_ip(str_arg(&a[0])?).is_ok()))
}

fn is_canonical<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let addr = parse_ip(s).map_err(EvalError::new)?;
    Ok(Value::Bool(addr.render() == s))
}

fn ip_to_string<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::string(ip_arg(&a[0])?.render()))
}

fn family<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(match ip_arg(&a[0])? {
        Addr::V4(_) => 4,
        Addr::V6(_) => 6,
    }))
}

macro_rules! predicate {
    ($name:ident, $method:ident) => {
        fn $name<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
            Ok(Value::Bool(ip_arg(&a[0])?.$method()))
        }
    };
}

predicate!(is_unspecified, is_unspecified);
predicate!(is_loopback, is_loopback);
predicate!(is_link_local_multicast, is_link_local_multicast);
predicate!(is_link_local_unicast, is_link_local_unicast);
predicate!(is_global_unicast, is_global_unicast);

fn cost_fifth(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first().map_or(1, |a| mul_ceil(a.cost_size(), 0.2))
}

/// Parameters of type `net.IP`.
pub(super) const IP: P = P::opaque(IP_TYPE);

/// The runtime overloads of `kubernetes.net.ip`.
pub fn functions() -> Functions {
    let t = Some(cost_tenth as crate::library::CostFn);
    Functions {
        name: NAME,
        overloads: vec![
            ov("string_to_ip", "ip", false, &[P::STRING], string_to_ip, t),
            ov("is_ip", "isIP", false, &[P::STRING], is_ip, t),
            ov(
                "ip_is_canonical",
                "ip.isCanonical",
                false,
                &[P::STRING],
                is_canonical,
                Some(cost_fifth),
            ),
            ov("ip_to_string", "string", false, &[IP], ip_to_string, None),
            ov("ip_family", "family", true, &[IP], family, None),
            ov(
                "ip_is_unspecified",
                "isUnspecified",
                true,
                &[IP],
                is_unspecified,
                None,
            ),
            ov(
                "ip_is_loopback",
                "isLoopback",
                true,
                &[IP],
                is_loopback,
                None,
            ),
            ov(
                "ip_is_link_local_multicast",
                "isLinkLocalMulticast",
                true,
                &[IP],
                is_link_local_multicast,
                None,
            ),
            ov(
                "ip_is_link_local_unicast",
                "isLinkLocalUnicast",
                true,
                &[IP],
                is_link_local_unicast,
                None,
            ),
            ov(
                "ip_is_global_unicast",
                "isGlobalUnicast",
                true,
                &[IP],
                is_global_unicast,
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
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    match c.function() {
        // Parsing: a string traversal. (`cidr.ip()` is the cidr library's.)
        "isIP" | "ip" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        // Parsing, then comparing with the input.
        "ip.isCanonical" if n >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(2.0 * STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => fixed(1),
        "_==_" => match equal_operands(c)? {
            (Type::Opaque(name, _), ..) if &**name == IP_TYPE => fixed(1),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{err, is_true};
    use super::*;

    #[test]
    fn parse_errors() {
        assert_eq!(
            err("ip('127.0.0.256')"),
            "IP Address \"127.0.0.256\" parse error during conversion from string: ParseAddr(\"127.0.0.256\"): IPv4 field has value >255"
        );
        assert_eq!(
            err("ip('fe80::1%eth0')"),
            "IP address \"fe80::1%eth0\" with zone value is not allowed"
        );
        assert_eq!(
            err("ip('::ffff:192.168.0.1')"),
            "IPv4-mapped IPv6 address \"::ffff:192.168.0.1\" is not allowed"
        );
        assert_eq!(
            err("ip('::ffff:c0a8:1')"),
            "IPv4-mapped IPv6 address \"::ffff:c0a8:1\" is not allowed"
        );
        assert!(
            parse_ip("01.2.3.4")
                .unwrap_err()
                .ends_with("IPv4 field has octet with leading zero")
        );
        assert!(
            parse_ip("1.2.3")
                .unwrap_err()
                .ends_with("IPv4 address too short")
        );
        assert!(parse_ip("").unwrap_err().ends_with("unable to parse IP"));
        assert!(parse_ip("1:2:3:4:5:6:7:8:9").is_err());
        assert!(
            parse_ip("1::2::3")
                .unwrap_err()
                .contains("multiple :: in address")
        );
        assert!(
            parse_ip("12345::")
                .unwrap_err()
                .contains("each group must have 4 or less digits")
        );
    }

    #[test]
    fn rendering() {
        for (i, o) in [
            ("2001:db8:0:0:0:0:0:1", "2001:db8::1"),
            ("2001:DB8::1", "2001:db8::1"),
            ("::", "::"),
            ("::1", "::1"),
            ("1:0:0:1:0:0:0:1", "1:0:0:1::1"),
            ("1:0:1:0:1:0:1:0", "1:0:1:0:1:0:1:0"),
            ("1:0:0:2:0:0:3:4", "1::2:0:0:3:4"),
            ("::1.2.3.4", "::102:304"),
            ("10.0.0.1", "10.0.0.1"),
        ] {
            assert_eq!(parse_ip(i).map(|a| a.render()), Ok(o.to_string()), "{i}");
        }
    }

    #[test]
    fn ip_functions() {
        is_true("isIP('1.2.3.4') && isIP('::1') && !isIP('1.2.3') && !isIP('fe80::1%eth0')");
        is_true("ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')");
        is_true("string(ip('2001:db8:0::1')) == '2001:db8::1'");
        is_true("ip('1.2.3.4').family() == 4 && ip('::1').family() == 6");
        is_true("ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()");
        is_true("ip('127.0.0.5').isLoopback() && ip('::1').isLoopback()");
        is_true("ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()");
        is_true("ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()");
        is_true("ip('10.0.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()");
        is_true("ip('1.2.3.4') == ip('1.2.3.4') && ip('1.2.3.4') != ip('1.2.3.5')");
        is_true("type(ip('1.2.3.4')) == net.IP");
        is_true("type(cidr('1.2.3.4/32')) == net.CIDR");
        is_true("type(ip('1.2.3.4')) != net.CIDR");
    }
}
