//! `kubernetes.format`: named string formats (`format.dns1123Label()`, `format.named(n)`)
//! and `validate`, which lists apimachinery's error strings.
//!
//! In order: the declarations, the values, the implementations with their runtime costs,
//! and the part of Kubernetes' static cost estimator that prices these functions.

use super::common::{equal_operands, fixed};
use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, REGEX_STRING_LENGTH_COST_FACTOR,
    STRING_TRAVERSAL_COST_FACTOR,
};
use std::sync::{Arc, LazyLock};

use kdv_runtime::format as rt;

use super::common::mul_ceil;
use crate::library::nso;
use crate::library::{CallCtx, Functions, Library, Overload, ParamType as P};
use crate::library::{Declarations, OverloadDecl, cached};
use crate::types::Type;
use crate::value::{EvalError, OpaqueValue, Value};

/// The library's name.
const NAME: &str = "kubernetes.format";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

type R<'a> = Result<Value<'a>, EvalError>;

/// The CEL type name.
pub const TYPE_NAME: &str = "kubernetes.NamedFormat";

// ---- declarations ------------------------------------------------------------------------

/// The checker type of named formats.
pub fn format_type() -> Type {
    Type::Object(TYPE_NAME.into())
}

/// The checker declarations.
pub fn declarations() -> Arc<Declarations> {
    cached(NAME, 0, declare)
}

fn declare(_: u32) -> Declarations {
    let f = format_type();
    let mut lib = Declarations::new(NAME);
    lib.type_ident(TYPE_NAME, f.clone());
    for &(id, _, _) in CONSTANTS {
        lib.function(id, vec![OverloadDecl::global(id, vec![], f.clone())]);
    }
    lib.function(
        "format.named",
        vec![OverloadDecl::global(
            "format-named",
            vec![Type::String],
            Type::Optional(Box::new(f.clone())),
        )],
    );
    lib.function(
        "validate",
        vec![OverloadDecl::member(
            "format-validate",
            vec![f, Type::String],
            Type::Optional(Box::new(Type::List(Box::new(Type::String)))),
        )],
    );
    lib
}

// ---- values ------------------------------------------------------------------------------

/// A named format.
#[derive(Debug, Clone, Copy)]
pub struct NamedFormat {
    /// The CEL name (`dns1123Label`, `uuid`, ...).
    pub name: &'static str,
    validate: fn(&str) -> Vec<String>,
    /// Upstream's `MaxRegexSize`, which prices `validate`.
    pub max_regex_size: u64,
}

impl OpaqueValue for NamedFormat {
    fn type_name(&self) -> &str {
        TYPE_NAME
    }
    /// Upstream's `Format` has no `String()`, so Go's `%s` prints its fields, a function
    /// pointer among them; kdv prints the call that yields the value instead.
    fn format(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "format.{}()", self.name)
    }
    fn equals(&self, other: &dyn OpaqueValue) -> bool {
        other
            .as_any()
            .downcast_ref::<NamedFormat>()
            .is_some_and(|o| o.name == self.name)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

macro_rules! formats {
    ($($name:literal => $f:expr, $size:literal;)*) => {
        /// Every format, by CEL name.
        pub const FORMATS: &[NamedFormat] = &[
            $(NamedFormat { name: $name, validate: $f, max_regex_size: $size },)*
        ];
    };
}

formats! {
    "dns1123Label" => |s| dns1123_label(s), 30;
    "dns1123Subdomain" => |s| dns1123_subdomain(s), 60;
    "dns1035Label" => |s| dns1035_label(s), 30;
    "qualifiedName" => |s| qualified_name(s), 60;
    "dns1123LabelPrefix" => |s| dns1123_label(&mask_trailing_dash(s)), 30;
    "dns1123SubdomainPrefix" => |s| dns1123_subdomain(&mask_trailing_dash(s)), 60;
    "dns1035LabelPrefix" => |s| dns1035_label(&mask_trailing_dash(s)), 30;
    "labelValue" => |s| label_value(s), 40;
    "uri" => |s| super::urls::parse_request_uri(s).err().into_iter().collect(), 1103;
    "uuid" => |s| one(UUID.is_match(s), "does not match the UUID format"), 70;
    "byte" => |s| one(BASE64.is_match(s), "invalid base64"), 84;
    "date" => |s| one(is_date(s), "invalid date"), 71;
    "datetime" => |s| one(is_datetime(s), "invalid datetime"), 71;
}

/// The format called `name`.
pub fn find(name: &str) -> Option<&'static NamedFormat> {
    FORMATS.iter().find(|f| f.name == name)
}

impl NamedFormat {
    /// apimachinery's error strings for `s` (empty when valid).
    pub fn errors(&self, s: &str) -> Vec<String> {
        (self.validate)(s)
    }
}

fn one(ok: bool, msg: &str) -> Vec<String> {
    if ok {
        Vec::new()
    } else {
        vec![msg.to_string()]
    }
}

// Patterns are constants known to compile.
#[allow(clippy::unwrap_used)]
static UUID: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$")
        .unwrap()
});
#[allow(clippy::unwrap_used)]
static BASE64: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$",
    )
    .unwrap()
});
#[allow(clippy::unwrap_used)]
static TIME_PART: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$")
        .unwrap()
});

/// Upstream's prefix masking: a trailing `-` (with the character before it) becomes `a`.
fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        // The last byte is '-', so `len - 2` is a boundary unless a multi-byte char precedes it.
        match s.get(..s.len() - 2) {
            Some(head) => format!("{head}a"),
            None => s.to_string(),
        }
    } else {
        s.to_string()
    }
}

fn max_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QUALIFIED_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_chars(63));
    }
    if !rt::is_dns1123_label(s) {
        if rt::is_dns1123_subdomain(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(rt::regex_error(
                DNS1123_LABEL_MSG,
                rt::DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `IsDNS1123Subdomain`; `unit` is the wording of the length error.
fn subdomain_with(s: &str, unit: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(format!("must be no more than 253 {unit}"));
    }
    if !rt::is_dns1123_subdomain(s) {
        errs.push(rt::regex_error(
            DNS1123_SUBDOMAIN_MSG,
            rt::DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

fn dns1123_subdomain(s: &str) -> Vec<String> {
    subdomain_with(s, "characters")
}

fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_chars(63));
    }
    let ok = s.as_bytes().first().is_some_and(u8::is_ascii_lowercase) && rt::is_dns1123_label(s);
    if !ok {
        errs.push(rt::regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// The messages of Kubernetes' `IsQualifiedName` about `s` (empty: valid).
pub(crate) fn qualified_name_errors(s: &str) -> Vec<String> {
    qualified_name(s)
}

/// The messages of Kubernetes' `IsValidLabelValue` about `s` (empty: valid).
pub(crate) fn label_value_errors(s: &str) -> Vec<String> {
    label_value(s)
}

fn qualified_name(s: &str) -> Vec<String> {
    const EXAMPLES: &[&str] = &["MyName", "my.name", "123-abc"];
    let mut errs = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".into());
            } else {
                errs.extend(
                    subdomain_with(prefix, "bytes")
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                rt::regex_error(QUALIFIED_NAME_MSG, rt::LABEL_KEY_FMT, EXAMPLES)
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".into());
    }
    if !rt::is_label_key_name(name) {
        errs.push(format!(
            "name part {}",
            rt::regex_error(QUALIFIED_NAME_MSG, rt::LABEL_KEY_FMT, EXAMPLES)
        ));
    }
    errs
}

fn label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 bytes".into());
    }
    if !rt::is_label_value(s) {
        errs.push(rt::regex_error(
            LABEL_VALUE_MSG,
            rt::LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// Go `time.Parse("2006-01-02", s)` succeeds.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// strfmt `IsDateTime`.
fn is_datetime(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let Some(c) = TIME_PART.captures(parts[1]) else {
        return false;
    };
    let g = |i| c.get(i).map_or("", |m| m.as_str());
    g(1) <= "23" && g(2) <= "59" && g(3) <= "59"
}

// ---- implementations and runtime costs ----------------------------------------------

fn fmt_arg(v: &Value<'_>) -> Result<&'static NamedFormat, EvalError> {
    match v {
        Value::Opaque(o) => o
            .as_any()
            .downcast_ref::<NamedFormat>()
            .and_then(|f| find(f.name))
            .ok_or_else(nso),
        _ => Err(nso()),
    }
}

fn wrap<'a>(f: &NamedFormat) -> Value<'a> {
    Value::Opaque(Arc::new(*f))
}

fn named<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::String(s) = &a[0] else {
        return Err(nso());
    };
    Ok(Value::Optional(find(s).map(|f| Arc::new(wrap(f)))))
}

fn validate<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let f = fmt_arg(&a[0])?;
    let Value::String(s) = &a[1] else {
        return Err(nso());
    };
    let errs = f.errors(s);
    if errs.is_empty() {
        return Ok(Value::Optional(None));
    }
    Ok(Value::optional_of(Value::list(
        errs.into_iter().map(Value::string).collect(),
    )))
}

/// Runtime cost of `validate`: ⌈(1 + size(str))·0.1⌉ · ⌈MaxRegexSize·0.25⌉.
fn cost_validate(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    let (Some(f), Some(s)) = (args.first(), args.get(1)) else {
        return 1;
    };
    let size = fmt_arg(f).map_or(128, |f| f.max_regex_size);
    mul_ceil(s.cost_size().saturating_add(1), 0.1).saturating_mul(mul_ceil(size, 0.25))
}

macro_rules! constant_fns {
    ($($name:literal => $fn_name:ident;)*) => {
        $(fn $fn_name<'a>(_: &CallCtx<'_>, _: &[Value<'a>]) -> R<'a> {
            find($name).map(wrap).ok_or_else(nso)
        })*
        const CONSTANTS: &[(&str, &str, crate::library::NativeFn)] = &[
            $((concat!("format.", $name), $name, $fn_name),)*
        ];
    };
}

constant_fns! {
    "dns1123Label" => f_dns1123_label;
    "dns1123Subdomain" => f_dns1123_subdomain;
    "dns1035Label" => f_dns1035_label;
    "qualifiedName" => f_qualified_name;
    "dns1123LabelPrefix" => f_dns1123_label_prefix;
    "dns1123SubdomainPrefix" => f_dns1123_subdomain_prefix;
    "dns1035LabelPrefix" => f_dns1035_label_prefix;
    "labelValue" => f_label_value;
    "uri" => f_uri;
    "uuid" => f_uuid;
    "byte" => f_byte;
    "date" => f_date;
    "datetime" => f_datetime;
}

const NAMED_FORMAT: P = P::opaque(TYPE_NAME);

/// The runtime overloads.
pub fn functions() -> Functions {
    let mut overloads = vec![
        Overload {
            id: "format-named",
            function: "format.named",
            member: false,
            params: Some(&[P::STRING]),
            imp: named,
            cost: None,
            cost_by_id: false,
        },
        Overload {
            id: "format-validate",
            function: "validate",
            member: true,
            params: Some(&[NAMED_FORMAT, P::STRING]),
            imp: validate,
            cost: Some(cost_validate),
            cost_by_id: false,
        },
    ];
    for &(id, _, imp) in CONSTANTS {
        overloads.push(Overload {
            id,
            function: id,
            member: false,
            params: Some(&[]),
            imp,
            cost: None,
            cost_by_id: false,
        });
    }
    Functions {
        name: NAME,
        overloads,
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// The part of Kubernetes' `CostEstimator.EstimateCallCost` that prices this library's
/// functions. Upstream dispatches on the function's name alone, so a call of any library with
/// one of these names is priced here; `None` leaves the call to the next estimator.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    match c.function() {
        "validate" if c.argc() >= 1 => {
            let sz = c.node_size(&c.arg(0));
            Some(CallEstimate::cost(
                sz.multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR)
                    .multiply_by_cost_factor(
                        MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR,
                    ),
            ))
        }
        "format.named" => fixed(1),
        "_==_" => match equal_operands(c)? {
            (Type::Object(name), ..) if &**name == TYPE_NAME => Some(CallEstimate::cost(
                CostEstimate {
                    min: 1,
                    max: MAX_FORMAT_SIZE,
                }
                .multiply_by_cost_factor(STRING_TRAVERSAL_COST_FACTOR),
            )),
            _ => None,
        },
        _ => None,
    }
}

/// Longest format name regex considered by `validate` (`MaxNameFormatRegexSize`).
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
/// Largest serialized `kubernetes.NamedFormat` (`MaxFormatSize`).
const MAX_FORMAT_SIZE: u64 = 64;

#[cfg(test)]
mod tests {
    use super::super::tests::testing::{eval_cost, is_true, ok};
    use super::*;

    fn errs(name: &str, s: &str) -> Vec<String> {
        find(name).map(|f| f.errors(s)).unwrap_or_default()
    }

    #[test]
    fn dns_labels() {
        assert!(errs("dns1123Label", "my-name").is_empty());
        assert_eq!(errs("dns1123Label", "a.b"), ["must not contain dots"]);
        assert_eq!(
            errs("dns1123Label", "-a"),
            [
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(
            errs("dns1123Label", &"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        assert!(errs("dns1035Label", "1abc")[0].starts_with("a DNS-1035 label must consist"));
        assert!(errs("dns1035Label", "abc-1").is_empty());
        assert!(errs("dns1123LabelPrefix", "my-name-").is_empty());
        assert!(!errs("dns1123Label", "my-name-").is_empty());
        assert!(errs("dns1035LabelPrefix", "a-").is_empty());
        assert!(errs("dns1123Subdomain", "example.com").is_empty());
        assert_eq!(
            errs("dns1123Subdomain", &"a".repeat(254)),
            ["must be no more than 253 characters"]
        );
        assert!(errs("dns1123SubdomainPrefix", "example.com-").is_empty());
    }

    #[test]
    fn qualified_names_and_label_values() {
        assert!(errs("qualifiedName", "example.com/MyName").is_empty());
        assert!(errs("qualifiedName", "MyName").is_empty());
        assert_eq!(
            errs("qualifiedName", "/a"),
            ["prefix part must be non-empty"]
        );
        let e = errs("qualifiedName", "a/");
        assert_eq!(e[0], "name part must be non-empty");
        assert!(e[1].starts_with("name part must consist of alphanumeric characters"));
        assert!(errs("qualifiedName", "a/b/c")[0].starts_with("a valid label key must consist of"));
        assert!(errs("qualifiedName", "a/b/c")[0].ends_with(
            "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ));
        assert!(
            errs("qualifiedName", "Bad_/x")[0]
                .starts_with("prefix part a lowercase RFC 1123 subdomain")
        );
        assert!(errs("labelValue", "").is_empty());
        assert_eq!(
            errs("labelValue", &"a".repeat(64)),
            ["must be no more than 63 bytes"]
        );
        assert!(errs("labelValue", "-")[0].ends_with("(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
    }

    #[test]
    fn strfmt_formats() {
        assert!(errs("uuid", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8").is_empty());
        assert!(errs("uuid", "6ba7b8109dad11d180b400c04fd430c8").is_empty());
        assert_eq!(errs("uuid", "x"), ["does not match the UUID format"]);
        assert!(errs("uri", "https://example.com/x").is_empty());
        assert_eq!(errs("uri", "x"), ["parse \"x\": invalid URI for request"]);
        assert!(errs("byte", "aGVsbG8=").is_empty());
        assert_eq!(errs("byte", ""), ["invalid base64"]);
        assert!(errs("date", "2024-02-29").is_empty());
        assert_eq!(errs("date", "2023-02-29"), ["invalid date"]);
        assert_eq!(errs("date", "2023-2-01"), ["invalid date"]);
        assert!(errs("datetime", "2024-01-01T10:00:00Z").is_empty());
        assert!(errs("datetime", "2024-01-01t10:00:00.123+01:00").is_empty());
        assert_eq!(
            errs("datetime", "2024-01-01T24:00:00Z"),
            ["invalid datetime"]
        );
        assert_eq!(errs("datetime", "2024-01-01"), ["invalid datetime"]);
    }

    #[test]
    fn cel_functions() {
        is_true("format.dns1123Label().validate('my-name') == optional.none()");
        is_true("format.dns1123Label().validate('a.b') == optional.of(['must not contain dots'])");
        is_true("format.named('uuid').hasValue()");
        is_true("type(format.uuid()) == kubernetes.NamedFormat");
        is_true("!format.named('nope').hasValue()");
        is_true("format.named('dns1123Label').value() == format.dns1123Label()");
        is_true("format.named('labelValue').value() != format.dns1123Label()");
        is_true("format.labelValue().validate('x').hasValue() == false");
        assert_eq!(
            ok("format.date().validate('2023-02-30').value()"),
            ok("['invalid date']")
        );
    }

    #[test]
    fn runtime_cost() {
        // ⌈(1+7)·0.1⌉ · ⌈30·0.25⌉ = 1 · 8, plus one for the constant call.
        let (_, c) = eval_cost("format.dns1123Label().validate('my-name')").unwrap();
        assert_eq!(c, 9);
    }
}
