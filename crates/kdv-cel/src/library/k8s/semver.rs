//! `kubernetes.Semver`: semantic versions (blang/semver v4 strict parsing, optional
//! Kubernetes normalisation) and their precedence.
//!
//! In order: the declarations, the values, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.

use super::common::{equal_operands, fixed};
use crate::library::estimate::{CallEstimate, CallSite, STRING_TRAVERSAL_COST_FACTOR};
use std::cmp::Ordering;
use std::sync::Arc;

use super::common::{cost_tenth, go_quote, overload as ov};
use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::{EvalError, OpaqueValue, Value};

/// The library's name.
const NAME: &str = "kubernetes.Semver";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The CEL type name.
pub const TYPE_NAME: &str = "kubernetes.Semver";

// ---- declarations ------------------------------------------------------------------------

/// The checker type of versions.
pub fn semver_type() -> Type {
    Type::Object(TYPE_NAME.into())
}

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    use Type::{Bool, Int, String as S};
    let v = semver_type();
    let mut lib = Declarations::new(NAME);
    lib.type_ident(TYPE_NAME, v.clone());
    lib.function(
        "semver",
        vec![
            OverloadDecl::global("string_to_semver", vec![S], v.clone()),
            OverloadDecl::global("string_bool_to_semver", vec![S, Bool], v.clone()),
        ],
    );
    lib.function(
        "isSemver",
        vec![
            OverloadDecl::global("is_semver_string", vec![S], Bool),
            OverloadDecl::global("is_semver_string_bool", vec![S, Bool], Bool),
        ],
    );
    for (name, id) in [
        ("major", "semver_major"),
        ("minor", "semver_minor"),
        ("patch", "semver_patch"),
    ] {
        lib.function(name, vec![OverloadDecl::member(id, vec![v.clone()], Int)]);
    }
    for (name, id, r) in [
        ("isGreaterThan", "semver_is_greater_than", Bool),
        ("isLessThan", "semver_is_less_than", Bool),
        ("compareTo", "semver_compare_to", Int),
    ] {
        lib.function(
            name,
            vec![OverloadDecl::member(id, vec![v.clone(), v.clone()], r)],
        );
    }
    lib
}

// ---- values ------------------------------------------------------------------------------

/// A pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pre {
    Num(u64),
    Str(String),
}

impl Pre {
    fn cmp(&self, o: &Pre) -> Ordering {
        match (self, o) {
            (Pre::Num(a), Pre::Num(b)) => a.cmp(b),
            (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
            (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Str(a), Pre::Str(b)) => a.cmp(b),
        }
    }
}

/// A semantic version (build metadata kept but ignored by comparisons).
#[derive(Debug, Clone)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    pre: Vec<Pre>,
    build: Vec<String>,
}

impl Version {
    /// Build metadata identifiers (ignored by comparisons and equality).
    pub fn build(&self) -> &[String] {
        &self.build
    }

    /// SemVer precedence (blang `Compare`).
    pub fn precedence(&self, o: &Version) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = a.cmp(b);
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

fn only(s: &str, extra: bool) -> bool {
    s.bytes()
        .all(|c| c.is_ascii_digit() || extra && (c.is_ascii_alphabetic() || c == b'-'))
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go `strconv.ParseUint(s, 10, 64)` on a digit string.
fn parse_u64(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(s)
        ));
    }
    s.parse().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: value out of range",
            go_quote(s)
        )
    })
}

fn number(s: &str, what: &str, cap: &str) -> Result<u64, String> {
    if !only(s, false) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            go_quote(s)
        ));
    }
    if leading_zero(s) {
        return Err(format!(
            "{cap} number must not contain leading zeroes {}",
            go_quote(s)
        ));
    }
    parse_u64(s)
}

/// blang/semver `Parse`.
pub fn parse(s: &str) -> Result<Version, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".into());
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;
    let mut patch_str = *rest;
    let mut build_parts: Vec<&str> = Vec::new();
    let mut pre_parts: Vec<&str> = Vec::new();
    if let Some(i) = patch_str.find('+') {
        build_parts = patch_str[i + 1..].split('.').collect();
        patch_str = &patch_str[..i];
    }
    if let Some(i) = patch_str.find('-') {
        pre_parts = patch_str[i + 1..].split('.').collect();
        patch_str = &patch_str[..i];
    }
    let patch = number(patch_str, "patch", "Patch")?;
    let mut pre = Vec::new();
    for p in pre_parts {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if only(p, false) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
            pre.push(Pre::Num(parse_u64(p)?));
        } else if only(p, true) {
            pre.push(Pre::Str(p.to_string()));
        } else {
            return Err(format!(
                "Invalid character(s) found in prerelease {}",
                go_quote(p)
            ));
        }
    }
    let mut build = Vec::new();
    for b in build_parts {
        if b.is_empty() {
            return Err("Build meta data is empty".into());
        }
        if !only(b, true) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
        build.push(b.to_string());
    }
    Ok(Version {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

/// Kubernetes `normalizeAndParse`.
pub fn normalize_and_parse(s: &str) -> Result<Version, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in &mut parts {
        if p.len() > 1 {
            let trimmed = p.trim_start_matches('0');
            if trimmed.is_empty() || !trimmed.as_bytes()[0].is_ascii_digit() {
                *p = format!("0{trimmed}");
            } else {
                *p = trimmed.to_string();
            }
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|l| l.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    parse(&parts.join("."))
}

impl OpaqueValue for Version {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    /// blang/semver `Version.String`: `1.2.3-alpha.1+build.5`.
    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                Pre::Num(n) => write!(f, "{n}")?,
                Pre::Str(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other
            .as_any()
            .downcast_ref::<Version>()
            .is_some_and(|o| self.precedence(o) == Ordering::Equal)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

// ---- implementations and runtime costs ----------------------------------------------

fn v_arg<'v>(v: &'v Value<'_>) -> Result<&'v Version, EvalError> {
    super::common::opaque_arg(v)
}

fn parse_args(a: &[Value<'_>]) -> Result<Result<Version, String>, EvalError> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    let normalize = match a.get(1) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(nso()),
    };
    Ok(if normalize {
        normalize_and_parse(s)
    } else {
        parse(s)
    })
}

fn to_semver<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    parse_args(a)?
        .map(|v| Value::Opaque(Arc::new(v)))
        .map_err(EvalError::new)
}

fn is_semver<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Bool(parse_args(a)?.is_ok()))
}

fn major<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(v_arg(&a[0])?.major as i64))
}

fn minor<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(v_arg(&a[0])?.minor as i64))
}

fn patch<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::Int(v_arg(&a[0])?.patch as i64))
}

fn cmp_args(a: &[Value<'_>]) -> Result<Ordering, EvalError> {
    Ok(v_arg(&a[0])?.precedence(v_arg(&a[1])?))
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

const V: P = P::opaque(TYPE_NAME);

/// The runtime overloads (library version 1: with the `normalize` overloads).
pub fn functions() -> Functions {
    let t = Some(cost_tenth as crate::library::CostFn);
    Functions {
        name: NAME,
        overloads: vec![
            ov(
                "string_to_semver",
                "semver",
                false,
                &[P::STRING],
                to_semver,
                t,
            ),
            ov(
                "string_bool_to_semver",
                "semver",
                false,
                &[P::STRING, P::BOOL],
                to_semver,
                t,
            ),
            ov(
                "is_semver_string",
                "isSemver",
                false,
                &[P::STRING],
                is_semver,
                t,
            ),
            ov(
                "is_semver_string_bool",
                "isSemver",
                false,
                &[P::STRING, P::BOOL],
                is_semver,
                t,
            ),
            ov("semver_major", "major", true, &[V], major, None),
            ov("semver_minor", "minor", true, &[V], minor, None),
            ov("semver_patch", "patch", true, &[V], patch, None),
            ov(
                "semver_is_greater_than",
                "isGreaterThan",
                true,
                &[V, V],
                is_greater_than,
                None,
            ),
            ov(
                "semver_is_less_than",
                "isLessThan",
                true,
                &[V, V],
                is_less_than,
                None,
            ),
            ov(
                "semver_compare_to",
                "compareTo",
                true,
                &[V, V],
                compare_to,
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
    match c.function() {
        // Parsing: a string traversal.
        "semver" | "isSemver" if c.argc() >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            ))
        }
        // `isGreaterThan`, `isLessThan`, `compareTo`: quantity's too, at the same price.
        "major" | "minor" | "patch" | "isGreaterThan" | "isLessThan" | "compareTo" => fixed(1),
        "_==_" => match equal_operands(c)? {
            (Type::Object(name), ..) if &**name == TYPE_NAME => fixed(1),
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
        assert_eq!(parse("").unwrap_err(), "Version string empty");
        assert_eq!(
            parse("1.0").unwrap_err(),
            "No Major.Minor.Patch elements found"
        );
        assert_eq!(
            parse("a.0.0").unwrap_err(),
            "Invalid character(s) found in major number \"a\""
        );
        assert_eq!(
            parse("01.0.0").unwrap_err(),
            "Major number must not contain leading zeroes \"01\""
        );
        assert_eq!(
            parse("1.01.0").unwrap_err(),
            "Minor number must not contain leading zeroes \"01\""
        );
        assert_eq!(
            parse("1.0.x").unwrap_err(),
            "Invalid character(s) found in patch number \"x\""
        );
        assert_eq!(parse("1.0.0-").unwrap_err(), "Prerelease is empty");
        assert_eq!(
            parse("1.0.0-01").unwrap_err(),
            "Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(parse("1.0.0+").unwrap_err(), "Build meta data is empty");
        assert_eq!(
            parse("1.0.0-a_b").unwrap_err(),
            "Invalid character(s) found in prerelease \"a_b\""
        );
        assert_eq!(
            parse("1..0").unwrap_err(),
            "strconv.ParseUint: parsing \"\": invalid syntax"
        );
        assert_eq!(
            parse("99999999999999999999.0.0").unwrap_err(),
            "strconv.ParseUint: parsing \"99999999999999999999\": value out of range"
        );
        assert!(parse("1.2.3-alpha.1+build.5").is_ok());
    }

    #[test]
    fn normalization() {
        let n = |s: &str| normalize_and_parse(s).map(|v| (v.major, v.minor, v.patch));
        assert_eq!(n("v1.2"), Ok((1, 2, 0)));
        assert_eq!(n("1"), Ok((1, 0, 0)));
        assert_eq!(n("v01.002.0003"), Ok((1, 2, 3)));
        assert_eq!(n("1.00"), Ok((1, 0, 0)));
        assert_eq!(
            n("1.2-beta").unwrap_err(),
            "short version cannot contain PreRelease/Build meta data"
        );
    }

    #[test]
    fn cel_functions() {
        is_true("isSemver('1.2.3') && !isSemver('v1.2.3') && isSemver('v1.2', true)");
        is_true(
            "semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3",
        );
        is_true("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))");
        is_true("semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))");
        is_true("semver('1.0.0-2').isLessThan(semver('1.0.0-10'))");
        is_true("semver('1.0.0-rc.1').isLessThan(semver('1.0.0-rc.1.1'))");
        is_true("semver('2.0.0').isGreaterThan(semver('1.9.9'))");
        is_true("semver('1.0.0').compareTo(semver('1.0.0+build')) == 0");
        is_true("semver('1.0.0') == semver('1.0.0+build')");
        is_true("semver('v1.2', true) == semver('1.2.0')");
        is_true("type(semver('1.2.3')) == kubernetes.Semver");
        assert_eq!(parse("1.2.3+b.1").map(|v| v.build().len()), Ok(2));
        // quantities and versions share the comparison function names
        is_true(
            "quantity('1').compareTo(quantity('2')) == -1 && semver('1.0.0').compareTo(semver('0.1.0')) == 1",
        );
        assert_eq!(err("semver('1.0')"), "No Major.Minor.Patch elements found");
    }
}
