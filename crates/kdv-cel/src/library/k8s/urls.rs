//! `kubernetes.urls`: `url(s)`, `isURL(s)` and the accessors of `kubernetes.URL`, with Go
//! `net/url` parsing (`ParseRequestURI` to validate, `Parse` for the stored value).
//!
//! In order: the declarations, the values, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.

use super::common::{equal_operands, fixed};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};
use std::sync::Arc;

use super::common::{cost_tenth, go_quote, overload as ov};
use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::{EvalError, Key, OpaqueValue, OwnedMap, Str, Value};

/// The library's name.
const NAME: &str = "kubernetes.urls";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The CEL type name.
pub const TYPE_NAME: &str = "kubernetes.URL";

// ---- declarations ------------------------------------------------------------------------

/// The checker type of URLs.
pub fn url_type() -> Type {
    Type::Object(TYPE_NAME.into())
}

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, String as S};
    let u = url_type();
    let mut lib = Declarations::new(NAME);
    lib.type_ident(TYPE_NAME, u.clone());
    lib.function(
        "url",
        vec![OverloadDecl::global("string_to_url", vec![S], u.clone())],
    );
    lib.function(
        "isURL",
        vec![OverloadDecl::global("is_url_string", vec![S], Bool)],
    );
    for (name, id) in [
        ("getScheme", "url_get_scheme"),
        ("getHost", "url_get_host"),
        ("getHostname", "url_get_hostname"),
        ("getPort", "url_get_port"),
        ("getEscapedPath", "url_get_escaped_path"),
    ] {
        lib.function(name, vec![OverloadDecl::member(id, vec![u.clone()], S)]);
    }
    lib.function(
        "getQuery",
        vec![OverloadDecl::member(
            "url_get_query",
            vec![u],
            Type::Map(Box::new(S), Box::new(Type::List(Box::new(S)))),
        )],
    );
    lib
}

// ---- values ------------------------------------------------------------------------------

/// A parsed URL (the fields of Go's `url.URL` the library reads).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Url {
    /// Lower-cased scheme.
    pub scheme: String,
    /// Opaque part (`mailto:x` → `x`).
    pub opaque: String,
    /// Raw user info (before `@`), if any.
    pub user: Option<String>,
    /// Host with optional port, unescaped.
    pub host: String,
    /// Unescaped path.
    pub path: String,
    /// The path as written when it differs from the default escaping.
    pub raw_path: String,
    /// `?` with nothing after it.
    pub force_query: bool,
    /// Query without `?`.
    pub raw_query: String,
    /// Unescaped fragment.
    pub fragment: String,
    omit_host: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    Host,
    Zone,
    QueryComponent,
    Fragment,
}

fn unhex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Go `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) {
        match c {
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' | b':'
            | b'[' | b']' | b'<' | b'>' | b'"' => return false,
            _ => {}
        }
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::QueryComponent => true,
            Mode::Fragment => false,
            Mode::Host | Mode::Zone => true,
        },
        _ => !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*')),
    }
}

/// Go `unescape`.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(h), Some(l)) = (
                    b.get(i + 1).copied().and_then(unhex),
                    b.get(i + 2).copied().and_then(unhex),
                ) else {
                    let end = (i + 3).min(b.len());
                    return Err(format!(
                        "invalid URL escape {}",
                        go_quote(&String::from_utf8_lossy(&b[i..end]))
                    ));
                };
                if mode == Mode::Host && h < 8 && &b[i..i + 3] != b"%25" {
                    return Err(format!(
                        "invalid URL escape {}",
                        go_quote(&String::from_utf8_lossy(&b[i..i + 3]))
                    ));
                }
                out.push(h << 4 | l);
                i += 3;
            }
            b'+' => {
                out.push(if mode == Mode::QueryComponent {
                    b' '
                } else {
                    b'+'
                });
                i += 1;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        go_quote(&(c as char).to_string())
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Go `escape`.
fn escape(s: &str, mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out
}

fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn valid_optional_port(p: &str) -> bool {
    match p.strip_prefix(':') {
        None => p.is_empty(),
        Some(digits) => digits.bytes().all(|c| c.is_ascii_digit()),
    }
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let h1 = unescape(&host[..zone], Mode::Host)?;
            let h2 = unescape(&host[zone..i], Mode::Zone)?;
            let h3 = unescape(&host[i..], Mode::Host)?;
            return Ok(h1 + &h2 + &h3);
        }
    } else if let Some(i) = host.find(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host, Mode::Host)
}

fn valid_userinfo(s: &str) -> bool {
    s.bytes().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b':'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b'%'
                    | b'@'
            )
    })
}

/// Go's internal `parse(rawURL, viaRequest)`.
fn parse_inner(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut u = Url::default();
    if raw == "*" {
        u.path = "*".into();
        return Ok(u);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    u.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        u.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        rest = r;
        u.raw_query = q.to_string();
    }
    if !rest.starts_with('/') {
        if !u.scheme.is_empty() {
            u.opaque = rest.to_string();
            return Ok(u);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        if rest.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!u.scheme.is_empty() || !via_request && !rest.starts_with("///")) && rest.starts_with("//")
    {
        let mut authority = &rest[2..];
        rest = "";
        if let Some(i) = authority.find('/') {
            rest = &authority[i..];
            authority = &authority[..i];
        }
        match authority.rfind('@') {
            None => u.host = parse_host(authority)?,
            Some(i) => {
                u.host = parse_host(&authority[i + 1..])?;
                let info = &authority[..i];
                if !valid_userinfo(info) {
                    return Err("net/url: invalid userinfo".into());
                }
                for part in info.splitn(2, ':') {
                    unescape(part, Mode::Path)?;
                }
                u.user = Some(info.to_string());
            }
        }
    } else if !u.scheme.is_empty() && rest.starts_with('/') {
        u.omit_host = true;
    }
    u.path = unescape(rest, Mode::Path)?;
    if escape(&u.path, Mode::Path) != rest {
        u.raw_path = rest.to_string();
    }
    Ok(u)
}

fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn wrap_err(raw: &str, e: String) -> String {
    format!("parse {}: {e}", go_quote(raw))
}

/// Go `url.ParseRequestURI`.
pub fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse_inner(raw, true).map_err(|e| wrap_err(raw, e))
}

/// Go `url.Parse`.
pub fn parse(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_inner(u, false).map_err(|e| wrap_err(u, e))?;
    if !frag.is_empty() {
        url.fragment = unescape(frag, Mode::Fragment).map_err(|e| wrap_err(raw, e))?;
    }
    Ok(url)
}

fn split_host_port(hp: &str) -> (&str, &str) {
    let (mut host, mut port) = (hp, "");
    if let Some(c) = hp.rfind(':')
        && valid_optional_port(&hp[c..])
    {
        host = &hp[..c];
        port = &hp[c + 1..];
    }
    if host.len() >= 2 && host.starts_with('[') && host.ends_with(']') {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

impl Url {
    /// Go `URL.EscapedPath`.
    pub fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }

    /// Go `URL.Hostname`.
    pub fn hostname(&self) -> &str {
        split_host_port(&self.host).0
    }

    /// Go `URL.Port`.
    pub fn port(&self) -> &str {
        split_host_port(&self.host).1
    }

    /// Go `URL.String` (what equality compares).
    pub fn render(&self) -> String {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            let no_authority = self.host.is_empty() && self.user.is_none();
            if !no_authority || !self.scheme.is_empty() && !self.omit_host {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    out.push_str("//");
                }
                if let Some(u) = &self.user {
                    out.push_str(u);
                    out.push('@');
                }
                out.push_str(&escape(&self.host, Mode::Host));
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().is_some_and(|s| s.contains(':')) {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            out.push('#');
            out.push_str(&escape(&self.fragment, Mode::Fragment));
        }
        out
    }

    /// Go `URL.Query`: pairs that fail to parse are dropped.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for pair in self.raw_query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (
                unescape(k, Mode::QueryComponent),
                unescape(v, Mode::QueryComponent),
            ) else {
                continue;
            };
            match out.iter_mut().find(|(key, _)| *key == k) {
                Some((_, vs)) => vs.push(v),
                None => out.push((k, vec![v])),
            }
        }
        out
    }
}

impl OpaqueValue for Url {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other
            .as_any()
            .downcast_ref::<Url>()
            .is_some_and(|o| o.render() == self.render())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

// ---- implementations and runtime costs ----------------------------------------------

fn url_arg<'v>(v: &'v Value<'_>) -> Result<&'v Url, EvalError> {
    super::common::opaque_arg(v)
}

fn to_url<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    parse_request_uri(s)
        .and_then(|_| parse(s))
        .map(|u| Value::Opaque(Arc::new(u)))
        .map_err(|e| {
            EvalError::new(format!(
                "URL parse error during conversion from string: {e}"
            ))
        })
}

fn is_url<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Bool(parse_request_uri(s).is_ok()))
}

macro_rules! accessor {
    ($name:ident, |$u:ident| $body:expr) => {
        fn $name<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
            let $u = url_arg(&a[0])?;
            Ok(Value::string($body))
        }
    };
}

accessor!(get_scheme_fn, |u| u.scheme.as_str());
accessor!(get_host, |u| u.host.as_str());
accessor!(get_hostname, |u| u.hostname());
accessor!(get_port, |u| u.port());
accessor!(get_escaped_path, |u| u.escaped_path());

fn get_query<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let u = url_arg(&a[0])?;
    let mut m = OwnedMap::new();
    for (k, vs) in u.query() {
        let list = Value::list(vs.into_iter().map(Value::string).collect());
        // keys are distinct: `query` merges repeated keys
        let _ = m.insert_new(Key::String(Str::Shared(k.into())), list);
    }
    Ok(Value::Map(crate::value::Map::Owned(Arc::new(m))))
}

const U: P = P::opaque(TYPE_NAME);

/// The runtime overloads.
pub fn functions() -> Functions {
    let mut url = ov("string_to_url", "url", false, &[P::STRING], to_url, None);
    url.cost = Some(cost_tenth);
    Functions {
        name: NAME,
        overloads: vec![
            url,
            ov("is_url_string", "isURL", false, &[P::STRING], is_url, None),
            ov(
                "url_get_scheme",
                "getScheme",
                true,
                &[U],
                get_scheme_fn,
                None,
            ),
            ov("url_get_host", "getHost", true, &[U], get_host, None),
            ov(
                "url_get_hostname",
                "getHostname",
                true,
                &[U],
                get_hostname,
                None,
            ),
            ov("url_get_port", "getPort", true, &[U], get_port, None),
            ov(
                "url_get_escaped_path",
                "getEscapedPath",
                true,
                &[U],
                get_escaped_path,
                None,
            ),
            ov("url_get_query", "getQuery", true, &[U], get_query, None),
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
        "url" if c.argc() == 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate {
                cost: sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
                result: Some(sz),
            })
        }
        "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
            fixed(1)
        }
        "_==_" => match equal_operands(c)? {
            (Type::Object(name), _, rhs) if &**name == TYPE_NAME => {
                // Upstream reads the right-hand side's size for both operands.
                let size = c.computed_size(&rhs).unwrap_or(SizeEstimate::fixed(1));
                Some(CallEstimate::cost(
                    CostEstimate {
                        min: 1,
                        max: size.max,
                    }
                    .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
                ))
            }
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{err, is_true, ok};
    use super::*;

    #[test]
    fn parse_errors() {
        assert_eq!(
            err("url('../relative-path')"),
            "URL parse error during conversion from string: parse \"../relative-path\": invalid URI for request"
        );
        assert_eq!(
            err("url('https://a:b:c/')"),
            "URL parse error during conversion from string: parse \"https://a:b:c/\": invalid port \":b:c\" after host"
        );
        assert_eq!(
            err("url('')"),
            "URL parse error during conversion from string: parse \"\": empty url"
        );
        assert_eq!(
            err("url('http://a/%zz')"),
            "URL parse error during conversion from string: parse \"http://a/%zz\": invalid URL escape \"%zz\""
        );
        assert_eq!(
            err("url(':foo')"),
            "URL parse error during conversion from string: parse \":foo\": missing protocol scheme"
        );
        assert_eq!(
            err("url('http://a b/')"),
            "URL parse error during conversion from string: parse \"http://a b/\": invalid character \" \" in host name"
        );
        assert!(parse_request_uri("http://[::1/").is_err());
    }

    #[test]
    fn accessors() {
        is_true("url('https://example.com:80/').getScheme() == 'https'");
        is_true("url('HTTPS://example.com/').getScheme() == 'https'");
        is_true("url('https://example.com:80/').getHost() == 'example.com:80'");
        is_true("url('https://[::1]:80/').getHost() == '[::1]:80'");
        is_true("url('https://[::1]:80/').getHostname() == '::1'");
        is_true("url('https://[::1]/').getPort() == ''");
        is_true("url('https://example.com:8080/').getPort() == '8080'");
        is_true("url('/path%20with%20spaces/').getEscapedPath() == '/path%20with%20spaces/'");
        is_true("url('https://example.com').getEscapedPath() == ''");
        is_true("url('https://example.com/a!b').getEscapedPath() == '/a!b'");
        is_true(
            "url('https://example.com/?k=a&k=b&j=c+d').getQuery() == {'k': ['a', 'b'], 'j': ['c d']}",
        );
        is_true("url('https://example.com/').getQuery() == {}");
        is_true("url('https://example.com/?%zz=1&a=2').getQuery() == {'a': ['2']}");
        is_true("url('https://example.com/#frag').getHost() == 'example.com'");
    }

    #[test]
    fn is_url_and_equality() {
        is_true("isURL('https://example.com/')");
        is_true("type(url('https://example.com/')) == kubernetes.URL");
        is_true("isURL('/absolute-path')");
        is_true("!isURL('../relative')");
        is_true("!isURL('')");
        is_true("isURL('mailto:x@example.com')");
        is_true("url('https://example.com/a') == url('https://example.com/a')");
        is_true("url('https://example.com/a') != url('https://example.com/b')");
        assert_eq!(ok("isURL('\\x01')"), "false");
    }
}
