//! The `+k8s:format=<name>` validators (spec §7), with upstream's exact rules and messages.
//!
//! Every pattern is matched by a hand-written byte matcher: validating a well-formed value
//! allocates nothing and compiles no regex. The regex sources appear only inside messages;
//! tests prove each matcher equivalent to the anchored upstream regex.

use crate::error::{BadValue, ErrorList, ErrorListExt, FieldError};
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::View;

/// A string format of the `+k8s:format` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `k8s-short-name`: a DNS-1123 label.
    ShortName,
    /// `k8s-long-name`: a DNS-1123 subdomain.
    LongName,
    /// `k8s-long-name-caseless`: a DNS-1123 subdomain, any case (deprecated).
    LongNameCaseless,
    /// `k8s-label-key`: an optionally prefixed label key.
    LabelKey,
    /// `k8s-prefixed-label-key`: a label key that must have a prefix.
    PrefixedLabelKey,
    /// `k8s-label-value`: a label value (may be empty).
    LabelValue,
    /// `k8s-path-segment-name`: usable as one URL path segment.
    PathSegmentName,
    /// `k8s-uuid`: a lowercase 8-4-4-4-12 UUID.
    Uuid,
    /// `k8s-resource-pool-name`: `/`-separated DNS subdomains.
    ResourcePoolName,
    /// `k8s-extended-resource-name`: a domain-prefixed extended resource name.
    ExtendedResourceName,
    /// `k8s-resource-fully-qualified-name`: `<domain>/<C identifier>`.
    ResourceFullyQualifiedName,
}

const ALL_FORMATS: [Format; 11] = [
    Format::ShortName,
    Format::LongName,
    Format::LongNameCaseless,
    Format::LabelKey,
    Format::PrefixedLabelKey,
    Format::LabelValue,
    Format::PathSegmentName,
    Format::Uuid,
    Format::ResourcePoolName,
    Format::ExtendedResourceName,
    Format::ResourceFullyQualifiedName,
];

impl Format {
    /// Every supported format.
    pub fn all() -> &'static [Format] {
        &ALL_FORMATS
    }

    /// Looks a format up by its tag payload (`k8s-short-name`). `k8s-ip` is documented
    /// upstream but not implemented, so it is unknown here too.
    pub fn from_name(name: &str) -> Option<Format> {
        ALL_FORMATS.into_iter().find(|f| f.name() == name)
    }

    /// The tag payload naming this format.
    pub fn name(self) -> &'static str {
        match self {
            Format::ShortName => "k8s-short-name",
            Format::LongName => "k8s-long-name",
            Format::LongNameCaseless => "k8s-long-name-caseless",
            Format::LabelKey => "k8s-label-key",
            Format::PrefixedLabelKey => "k8s-prefixed-label-key",
            Format::LabelValue => "k8s-label-value",
            Format::PathSegmentName => "k8s-path-segment-name",
            Format::Uuid => "k8s-uuid",
            Format::ResourcePoolName => "k8s-resource-pool-name",
            Format::ExtendedResourceName => "k8s-extended-resource-name",
            Format::ResourceFullyQualifiedName => "k8s-resource-fully-qualified-name",
        }
    }

    /// The origin carried by this format's errors (`format=<name>`).
    pub fn origin(self) -> &'static str {
        match self {
            Format::ShortName => "format=k8s-short-name",
            Format::LongName => "format=k8s-long-name",
            Format::LongNameCaseless => "format=k8s-long-name-caseless",
            Format::LabelKey => "format=k8s-label-key",
            Format::PrefixedLabelKey => "format=k8s-prefixed-label-key",
            Format::LabelValue => "format=k8s-label-value",
            Format::PathSegmentName => "format=k8s-path-segment-name",
            Format::Uuid => "format=k8s-uuid",
            Format::ResourcePoolName => "format=k8s-resource-pool-name",
            Format::ExtendedResourceName => "format=k8s-extended-resource-name",
            Format::ResourceFullyQualifiedName => "format=k8s-resource-fully-qualified-name",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `+k8s:format=<name>` on a string value (nil is not checked): one error per violated rule,
/// with the format's origin; a named string type's value is reported JSON-encoded where
/// upstream reports the typed value (see [`validate_format_named`]). Nothing is allocated
/// when the value is valid (the yes/no form still words the messages of an invalid value).
pub fn format<'a>(path: &PathRef<'_>, v: impl View<'a>, format: Format, out: &mut impl ErrorSink) {
    let Some(s) = v.as_str() else { return };
    validate(format, path, s, &|| v.is_named(), out);
}

/// Validates `value` (of Go type `string`) against `format`, appending one error per
/// violated rule (with the format's origin). Allocates nothing when the value is valid.
pub fn validate_format(format: Format, path: &PathRef<'_>, value: &str, out: &mut ErrorList) {
    validate(format, path, value, &|| false, out);
}

/// [`validate_format`] for a field of a named string type. Where upstream reports the typed
/// value itself (all formats but `k8s-uuid` and the resource-name formats, which convert to
/// `string` first), the bad value is a [`BadValue::named_string`], which Go prints
/// JSON-encoded.
pub fn validate_format_named(format: Format, path: &PathRef<'_>, value: &str, out: &mut ErrorList) {
    validate(format, path, value, &|| true, out);
}

/// `named` tells (only when an error is built) whether the value's type is a named type.
fn validate<S: ErrorSink>(
    format: Format,
    path: &PathRef<'_>,
    value: &str,
    named: &dyn Fn() -> bool,
    out: &mut S,
) {
    let simple = |messages: &dyn Fn(&str, &mut Vec<String>), out: &mut S| {
        simple(format, path, value, named, out, messages)
    };
    match format {
        Format::ShortName => simple(&dns1123_label_messages, out),
        Format::LongName => simple(&|v, m| dns1123_subdomain_messages(v, false, m), out),
        Format::LongNameCaseless => simple(&|v, m| dns1123_subdomain_messages(v, true, m), out),
        Format::LabelKey => simple(&label_key_messages, out),
        Format::PrefixedLabelKey => simple(&prefixed_label_key_messages, out),
        Format::LabelValue => simple(&label_value_messages, out),
        Format::PathSegmentName => simple(&path_segment_name_messages, out),
        Format::Uuid => uuid(path, value, out),
        Format::ResourcePoolName => resource_pool_name(path, value, out),
        Format::ExtendedResourceName => extended_resource_name(path, value, out),
        Format::ResourceFullyQualifiedName => resource_fully_qualified_name(path, value, out),
    }
}

// ---- regex sources and messages (facts quoted by the spec) ----

/// Source of the DNS-1123 label pattern, as quoted in messages.
pub const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// Source of the DNS-1123 subdomain pattern, as quoted in messages.
pub const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// Source of the label key name pattern, as quoted in messages.
pub const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// Source of the label value pattern, as quoted in messages.
pub const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
/// Source of the DNS-1035 label pattern, as quoted in messages.
pub const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
/// Source of the C identifier pattern, as quoted in messages.
pub const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";

pub(crate) const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
pub(crate) const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_CASELESS_MSG: &str = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
pub(crate) const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const C_IDENTIFIER_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const UUID_MSG: &str = "must be a lowercase UUID in 8-4-4-4-12 format";

const DNS1123_LABEL_MAX: usize = 63;
const DNS1123_SUBDOMAIN_MAX: usize = 253;
const LABEL_KEY_NAME_MAX: usize = 63;
const LABEL_VALUE_MAX: usize = 63;
const RESOURCE_POOL_NAME_MAX: usize = 253;
const QUALIFIED_PREFIX_MAX: usize = 63;
const C_IDENTIFIER_MAX: usize = 32;
const REQUESTS_PREFIX: &str = "requests.";
const KUBERNETES_IO_DOMAIN: &str = "kubernetes.io/";

/// Upstream's `MaxLenError(n)`.
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// Upstream's `RegexError(msg, re, examples…)`, including its double space between
/// examples: `(e.g. 'a',  or 'b', regex used for validation is '…')`.
pub fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    fn pieces<'s>(msg: &'s str, re: &'s str, examples: &[&'s str], mut put: impl FnMut(&'s str)) {
        put(msg);
        if !examples.is_empty() {
            put(" (e.g. ");
            for (i, ex) in examples.iter().enumerate() {
                if i > 0 {
                    put(" or ");
                }
                put("'");
                put(ex);
                put("', ");
            }
            put("regex used for validation is '");
        } else {
            put(" (regex used for validation is '");
        }
        put(re);
        put("')");
    }
    // Measured first, so the message is written with one allocation.
    let mut len = 0;
    pieces(msg, re, examples, |piece| len += piece.len());
    let mut out = String::with_capacity(len);
    pieces(msg, re, examples, |piece| out.push_str(piece));
    out
}

// ---- matchers (equivalent to the anchored upstream regexes) ----

#[inline]
fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// Whether `s` matches `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`.
#[inline]
pub fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            is_lower_alnum(first)
                && is_lower_alnum(last)
                && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// Whether `s` matches `^[a-z]([-a-z0-9]*[a-z0-9])?$` (a DNS-1035 label).
#[inline]
pub fn is_dns1035_label(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_lowercase) && is_dns1123_label(s)
}

/// Whether `s` matches the anchored DNS-1123 subdomain pattern: `.`-separated labels.
#[inline]
pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(is_dns1123_label)
}

/// Case-insensitive label character. Go's `(?i)` applies Unicode simple case folding, so
/// `[a-z]` also matches U+017F (ſ, folds to `s`) and U+212A (Kelvin sign, folds to `k`).
#[inline]
fn is_caseless_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '\u{17f}' || c == '\u{212a}'
}

fn is_dns1123_label_caseless(s: &str) -> bool {
    let mut chars = s.chars();
    let (Some(first), Some(last)) = (chars.next(), s.chars().next_back()) else {
        return false;
    };
    is_caseless_alnum(first)
        && is_caseless_alnum(last)
        && s.chars().all(|c| is_caseless_alnum(c) || c == '-')
}

/// Whether `s` matches `(?i)` + the anchored DNS-1123 subdomain pattern.
pub fn is_dns1123_subdomain_caseless(s: &str) -> bool {
    s.split('.').all(is_dns1123_label_caseless)
}

/// Whether `s` matches `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$` (a label key name).
#[inline]
pub fn is_label_key_name(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// Whether `s` matches `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$` (a label value).
#[inline]
pub fn is_label_value(s: &str) -> bool {
    s.is_empty() || is_label_key_name(s)
}

/// Whether `s` matches `^[A-Za-z_][A-Za-z0-9_]*$`.
#[inline]
pub fn is_c_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    match b.first() {
        Some(&first) => {
            (first.is_ascii_alphabetic() || first == b'_')
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
        }
        None => false,
    }
}

// ---- message producers: push nothing (and so allocate nothing) for valid input ----

fn dns1123_label_messages(v: &str, msgs: &mut Vec<String>) {
    if v.len() > DNS1123_LABEL_MAX {
        msgs.push(max_len_error(DNS1123_LABEL_MAX));
    }
    if !is_dns1123_label(v) {
        if is_dns1123_subdomain(v) {
            msgs.push("must not contain dots".to_owned());
        } else {
            msgs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
}

fn dns1123_subdomain_messages(v: &str, caseless: bool, msgs: &mut Vec<String>) {
    if v.len() > DNS1123_SUBDOMAIN_MAX {
        msgs.push(max_len_error(DNS1123_SUBDOMAIN_MAX));
    }
    let ok = if caseless {
        is_dns1123_subdomain_caseless(v)
    } else {
        is_dns1123_subdomain(v)
    };
    if !ok {
        // The caseless message still quotes the case-sensitive source (as upstream does).
        let (msg, example) = if caseless {
            (DNS1123_SUBDOMAIN_CASELESS_MSG, "Example.com")
        } else {
            (DNS1123_SUBDOMAIN_MSG, "example.com")
        };
        msgs.push(regex_error(msg, DNS1123_SUBDOMAIN_FMT, &[example]));
    }
}

pub(crate) fn label_key_messages(v: &str, msgs: &mut Vec<String>) {
    let mut parts = v.split('/');
    let first = parts.next().unwrap_or("");
    let second = parts.next();
    let name = match (second, parts.next()) {
        (None, _) => first,
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                msgs.push("prefix part must be non-empty".to_owned());
            } else {
                let start = msgs.len();
                dns1123_subdomain_messages(prefix, false, msgs);
                for m in &mut msgs[start..] {
                    m.insert_str(0, "prefix part ");
                }
            }
            name
        }
        (Some(_), Some(_)) => {
            msgs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_MSG, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return;
        }
    };
    if name.is_empty() {
        msgs.push("name part must be non-empty".to_owned());
    } else if name.len() > LABEL_KEY_NAME_MAX {
        msgs.push(format!("name part {}", max_len_error(LABEL_KEY_NAME_MAX)));
    }
    if !is_label_key_name(name) {
        msgs.push(format!(
            "name part {}",
            regex_error(
                LABEL_KEY_MSG,
                LABEL_KEY_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
}

fn prefixed_label_key_messages(v: &str, msgs: &mut Vec<String>) {
    let start = msgs.len();
    label_key_messages(v, msgs);
    if msgs.len() > start {
        return;
    }
    if v.split('/').count() != 2 {
        msgs.push("must include a prefix (e.g. 'example.com/key')".to_owned());
    }
}

pub(crate) fn label_value_messages(v: &str, msgs: &mut Vec<String>) {
    if v.len() > LABEL_VALUE_MAX {
        msgs.push(max_len_error(LABEL_VALUE_MAX));
    }
    if !is_label_value(v) {
        msgs.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
}

pub(crate) fn path_segment_name_messages(v: &str, msgs: &mut Vec<String>) {
    if v == "." {
        msgs.push("may not be '.'".to_owned());
        return;
    }
    if v == ".." {
        msgs.push("may not be '..'".to_owned());
        return;
    }
    path_segment_prefix_messages(v, msgs);
}

/// Upstream's `IsPathSegmentPrefix`: the rules of a path segment that more text follows.
pub(crate) fn path_segment_prefix_messages(v: &str, msgs: &mut Vec<String>) {
    if v.contains('/') {
        msgs.push("may not contain '/'".to_owned());
    }
    if v.contains('%') {
        msgs.push("may not contain '%'".to_owned());
    }
}

// ---- the validators ----

/// Formats whose errors are all `Invalid(path, value, msg)` with the format's origin.
fn simple(
    format: Format,
    path: &PathRef<'_>,
    value: &str,
    named: &dyn Fn() -> bool,
    out: &mut impl ErrorSink,
    messages: &dyn Fn(&str, &mut Vec<String>),
) {
    let mut msgs = Vec::new();
    messages(value, &mut msgs);
    if msgs.is_empty() {
        return;
    }
    let named = named();
    for msg in msgs {
        out.fail(|| {
            let bad = if named {
                BadValue::named_string(value)
            } else {
                BadValue::string(value)
            };
            FieldError::invalid(path, bad, msg).with_origin(format.origin())
        });
    }
}

/// Whether `v` is a lowercase 8-4-4-4-12 UUID.
pub fn is_uuid(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
        })
}

fn uuid(path: &PathRef<'_>, value: &str, out: &mut impl ErrorSink) {
    if !is_uuid(value) {
        out.fail(|| {
            FieldError::invalid(path, BadValue::string(value), UUID_MSG)
                .with_origin(Format::Uuid.origin())
        });
    }
}

fn resource_pool_name(path: &PathRef<'_>, value: &str, out: &mut impl ErrorSink) {
    let start = out.count();
    if value.len() > RESOURCE_POOL_NAME_MAX {
        out.fail(|| FieldError::too_long(path, RESOURCE_POOL_NAME_MAX as i64));
    }
    let mut msgs = Vec::new();
    for (i, part) in value.split('/').enumerate() {
        if part.is_empty() {
            out.fail(|| {
                FieldError::invalid(
                    path,
                    BadValue::string(value),
                    format!("segment {i}: must not be empty"),
                )
            });
            continue;
        }
        dns1123_subdomain_messages(part, false, &mut msgs);
        for msg in msgs.drain(..) {
            out.fail(|| {
                FieldError::invalid(path, BadValue::string(part), format!("segment {i}: {msg}"))
            });
        }
    }
    out.since(start)
        .with_origin(Format::ResourcePoolName.origin());
}

/// Fast check equivalent to "the extended resource name rules report nothing", so the
/// valid case never builds the `requests.`-prefixed string the label-key rules look at.
fn extended_resource_name_is_valid(v: &str) -> bool {
    if v.contains(KUBERNETES_IO_DOMAIN) || v.starts_with(REQUESTS_PREFIX) {
        return false;
    }
    // With a '/', `requests.<v>` is a valid label key iff it has exactly two segments, the
    // prefix `requests.<p0>` is a subdomain of at most 253 bytes (so p0 is a subdomain of at
    // most 244) and the name is a label key name of at most 63 bytes.
    let mut parts = v.split('/');
    let (Some(p0), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    p0.len() + REQUESTS_PREFIX.len() <= DNS1123_SUBDOMAIN_MAX
        && is_dns1123_subdomain(p0)
        && name.len() <= LABEL_KEY_NAME_MAX
        && is_label_key_name(name)
}

fn extended_resource_name(path: &PathRef<'_>, value: &str, out: &mut impl ErrorSink) {
    if extended_resource_name_is_valid(value) {
        return;
    }
    extended_resource_name_slow(path, value, out);
}

fn extended_resource_name_slow(path: &PathRef<'_>, value: &str, out: &mut impl ErrorSink) {
    let start = out.count();
    let bad = || BadValue::string(value);
    if !value.contains('/') {
        out.fail(|| {
            FieldError::invalid(
                path,
                bad(),
                "a name must be a domain-prefixed path, such as 'example.com/my-prop'",
            )
        });
    } else if value.contains(KUBERNETES_IO_DOMAIN) {
        out.fail(|| FieldError::invalid(path, bad(), "must not have \"kubernetes.io/\" domain"));
    }
    if value.starts_with(REQUESTS_PREFIX) {
        out.fail(|| FieldError::invalid(path, bad(), "must not have \"requests.\" prefix"));
    }
    let name_for_quota = format!("{REQUESTS_PREFIX}{value}");
    let mut msgs = Vec::new();
    label_key_messages(&name_for_quota, &mut msgs);
    for msg in msgs {
        out.fail(|| FieldError::invalid(path, bad(), msg));
    }
    out.since(start)
        .with_origin(Format::ExtendedResourceName.origin());
}

fn c_identifier_errors(path: &PathRef<'_>, id: &str, max: usize, out: &mut impl ErrorSink) {
    if id.len() > max {
        out.fail(|| FieldError::too_long(path, max as i64));
    }
    if !is_c_identifier(id) {
        out.fail(|| {
            FieldError::invalid(
                path,
                BadValue::string(id),
                regex_error(
                    C_IDENTIFIER_MSG,
                    C_IDENTIFIER_FMT,
                    &["my_name", "MY_NAME", "MyName"],
                ),
            )
        });
    }
}

fn resource_fully_qualified_name(path: &PathRef<'_>, value: &str, out: &mut impl ErrorSink) {
    let start = out.count();
    let mut parts = value.split('/');
    let first = parts.next().unwrap_or("");
    match (parts.next(), parts.next()) {
        (None, _) => c_identifier_errors(path, first, C_IDENTIFIER_MAX, out),
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                out.fail(|| {
                    FieldError::invalid(path, BadValue::string(""), "prefix must not be empty")
                });
            } else {
                if prefix.len() > QUALIFIED_PREFIX_MAX {
                    out.fail(|| FieldError::too_long(path, QUALIFIED_PREFIX_MAX as i64));
                }
                let mut msgs = Vec::new();
                dns1123_subdomain_messages(prefix, false, &mut msgs);
                for msg in msgs {
                    out.fail(|| {
                        FieldError::invalid(
                            path,
                            BadValue::string(prefix),
                            format!("prefix: {msg}"),
                        )
                    });
                }
            }
            if name.is_empty() {
                out.fail(|| {
                    FieldError::invalid(path, BadValue::string(""), "name must not be empty")
                });
            } else {
                c_identifier_errors(path, name, C_IDENTIFIER_MAX, out);
            }
        }
        // Three or more segments: upstream checks no segment (a known gap).
        (Some(_), Some(_)) => {}
    }
    if !value.contains('/') {
        out.fail(|| {
            FieldError::invalid(
                path,
                BadValue::string(value),
                "a fully qualified name must be a domain and a name separated by a slash",
            )
        });
    }
    out.since(start)
        .with_origin(Format::ResourceFullyQualifiedName.origin());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorType;
    use proptest::prelude::*;
    use std::sync::LazyLock;

    const LABEL_REGEX_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    const SUBDOMAIN_REGEX_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const CASELESS_REGEX_MSG: &str = "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const LABEL_KEY_3SEG_MSG: &str = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
    const NAME_PART_REGEX_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    const LABEL_VALUE_REGEX_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    const C_IDENT_REGEX_MSG: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";

    fn run(format: Format, value: &str) -> ErrorList {
        let root = PathRef::Nil;
        let path = root.child("f");
        let mut out = ErrorList::new();
        validate_format(format, &path, value, &mut out);
        assert!(
            out.iter().all(|e| e.origin == format.origin()),
            "origin of {format} errors for {value:?}"
        );
        out
    }

    fn texts(format: Format, value: &str) -> Vec<String> {
        run(format, value).iter().map(ToString::to_string).collect()
    }

    fn details(format: Format, value: &str) -> Vec<String> {
        run(format, value).into_iter().map(|e| e.detail).collect()
    }

    fn assert_valid(format: Format, values: &[&str]) {
        for v in values {
            assert_eq!(
                texts(format, v),
                Vec::<String>::new(),
                "{format} should accept {v:?}"
            );
        }
    }

    #[test]
    fn registry() {
        assert_eq!(Format::all().len(), 11);
        for f in Format::all() {
            assert_eq!(Format::from_name(f.name()), Some(*f));
            assert_eq!(f.origin(), format!("format={}", f.name()));
        }
        assert_eq!(Format::from_name("k8s-ip"), None);
        assert_eq!(Format::from_name("k8s-uuid"), Some(Format::Uuid));
    }

    #[test]
    fn regex_error_quirk_and_sources() {
        assert_eq!(
            regex_error("m", "r", &[]),
            "m (regex used for validation is 'r')"
        );
        assert_eq!(
            regex_error("m", "r", &["a"]),
            "m (e.g. 'a', regex used for validation is 'r')"
        );
        assert_eq!(
            regex_error("m", "r", &["a", "b"]),
            "m (e.g. 'a',  or 'b', regex used for validation is 'r')"
        );
        assert_eq!(
            format!("{DNS1123_LABEL_FMT}(\\.{DNS1123_LABEL_FMT})*"),
            DNS1123_SUBDOMAIN_FMT
        );
        assert_eq!(format!("({LABEL_KEY_FMT})?"), LABEL_VALUE_FMT);
    }

    #[test]
    fn short_name() {
        assert_valid(Format::ShortName, &["abc-123", "a", "0", &"a".repeat(63)]);
        assert_eq!(
            texts(Format::ShortName, ""),
            vec![format!("f: Invalid value: \"\": {LABEL_REGEX_MSG}")]
        );
        for v in ["-abc-123", "abc-123-", "ABC-123", "abc_123"] {
            assert_eq!(details(Format::ShortName, v), vec![LABEL_REGEX_MSG]);
        }
        assert_eq!(
            details(Format::ShortName, "a.b"),
            vec!["must not contain dots"]
        );
        let long = "0".repeat(65);
        assert_eq!(
            texts(Format::ShortName, &long),
            vec![format!(
                "f: Invalid value: \"{long}\": must be no more than 63 bytes"
            )]
        );
        assert_eq!(
            details(Format::ShortName, &"A".repeat(64)),
            vec!["must be no more than 63 bytes", LABEL_REGEX_MSG]
        );
        let e = &run(Format::ShortName, "A")[0];
        assert_eq!(e.error_type, ErrorType::Invalid);
        assert_eq!(e.bad_value, BadValue::string("A"));
    }

    #[test]
    fn long_name() {
        assert_valid(
            Format::LongName,
            &["a.b.c", "1.2.3.4", "example.com", &"a".repeat(253)],
        );
        for v in [
            "", "a..b", "Foo", "-a.b.c", "a.b.c-", "A.b.c", "a_b.c", "a.", ".a",
        ] {
            assert_eq!(
                details(Format::LongName, v),
                vec![SUBDOMAIN_REGEX_MSG],
                "{v:?}"
            );
        }
        assert_eq!(
            details(Format::LongName, &"a".repeat(254)),
            vec!["must be no more than 253 bytes"]
        );
        assert_eq!(
            texts(Format::LongName, "Foo"),
            vec![format!("f: Invalid value: \"Foo\": {SUBDOMAIN_REGEX_MSG}")]
        );
    }

    #[test]
    fn long_name_caseless() {
        assert_valid(
            Format::LongNameCaseless,
            &["Example.COM", "a.b", "1.2.3.4", "\u{17f}.\u{212a}"],
        );
        for v in ["", "a..b", "-A", "a_b", "é"] {
            assert_eq!(
                details(Format::LongNameCaseless, v),
                vec![CASELESS_REGEX_MSG],
                "{v:?}"
            );
        }
        assert_eq!(
            details(Format::LongNameCaseless, &"A".repeat(254)),
            vec!["must be no more than 253 bytes"]
        );
    }

    #[test]
    fn label_key() {
        let long_prefix = format!("{}/{}", "a".repeat(253), "b".repeat(63));
        let four_labels = format!(
            "{}.{}.{}.{}/app",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(55)
        );
        assert_valid(
            Format::LabelKey,
            &[
                "simple",
                "1234",
                "Uppercase_Is_OK_123",
                "example.com/Uppercase_Is_OK_123",
                "1.2.3.4/5678",
                "requests.storage-foo",
                &"a".repeat(63),
                &long_prefix,
                &four_labels,
                "app.name",
                "app_name",
            ],
        );
        assert_eq!(
            details(Format::LabelKey, "Example.com/abc"),
            vec![format!("prefix part {SUBDOMAIN_REGEX_MSG}")]
        );
        assert_eq!(
            details(Format::LabelKey, "example_com/abc"),
            vec![format!("prefix part {SUBDOMAIN_REGEX_MSG}")]
        );
        assert_eq!(
            details(Format::LabelKey, "example.com/"),
            vec![
                "name part must be non-empty".to_owned(),
                NAME_PART_REGEX_MSG.to_owned()
            ]
        );
        assert_eq!(
            details(Format::LabelKey, "/simple"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(
            details(Format::LabelKey, "only/one/slash"),
            vec![LABEL_KEY_3SEG_MSG]
        );
        assert_eq!(
            details(Format::LabelKey, &"a".repeat(64)),
            vec!["name part must be no more than 63 bytes"]
        );
        assert_eq!(
            details(Format::LabelKey, &format!("{}/abc", "a".repeat(254))),
            vec!["prefix part must be no more than 253 bytes"]
        );
        assert_eq!(
            details(Format::LabelKey, "-cantstartwithadash-"),
            vec![NAME_PART_REGEX_MSG]
        );
        assert_eq!(
            details(Format::LabelKey, ""),
            vec![
                "name part must be non-empty".to_owned(),
                NAME_PART_REGEX_MSG.to_owned()
            ]
        );
        assert_eq!(details(Format::LabelKey, "app^"), vec![NAME_PART_REGEX_MSG]);
        assert_eq!(
            details(Format::LabelKey, "example-.com/app"),
            vec![format!("prefix part {SUBDOMAIN_REGEX_MSG}")]
        );
        assert_eq!(
            texts(Format::LabelKey, "a/b/c"),
            vec![format!("f: Invalid value: \"a/b/c\": {LABEL_KEY_3SEG_MSG}")]
        );
    }

    #[test]
    fn prefixed_label_key() {
        assert_valid(
            Format::PrefixedLabelKey,
            &["example.com/app", "1.2.3.4/5678"],
        );
        for v in ["app", "app-name", "app.name", "app_name"] {
            assert_eq!(
                details(Format::PrefixedLabelKey, v),
                vec!["must include a prefix (e.g. 'example.com/key')"],
                "{v:?}"
            );
        }
        // Label-key errors win over the missing prefix.
        assert_eq!(
            details(Format::PrefixedLabelKey, "-app"),
            vec![NAME_PART_REGEX_MSG]
        );
        assert_eq!(
            details(Format::PrefixedLabelKey, "a/b/c"),
            vec![LABEL_KEY_3SEG_MSG]
        );
    }

    #[test]
    fn label_value() {
        assert_valid(
            Format::LabelValue,
            &[
                "",
                "valid-value",
                "valid.value",
                "valid_value",
                "a",
                "123-abc",
                "Valid-Value",
                &"a".repeat(63),
            ],
        );
        for v in [
            "-invalid-value",
            "invalid-value-",
            ".invalid.value",
            "invalid.value.",
            "a b",
            "a/b",
        ] {
            assert_eq!(
                details(Format::LabelValue, v),
                vec![LABEL_VALUE_REGEX_MSG],
                "{v:?}"
            );
        }
        assert_eq!(
            details(Format::LabelValue, &"a".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
        assert_eq!(
            details(Format::LabelValue, &"-".repeat(64)),
            vec!["must be no more than 63 bytes", LABEL_VALUE_REGEX_MSG]
        );
    }

    #[test]
    fn path_segment_name() {
        assert_valid(
            Format::PathSegmentName,
            &["", "a", "...", "a.b", &"x".repeat(1000)],
        );
        assert_eq!(
            texts(Format::PathSegmentName, "."),
            vec!["f: Invalid value: \".\": may not be '.'"]
        );
        assert_eq!(
            details(Format::PathSegmentName, ".."),
            vec!["may not be '..'"]
        );
        assert_eq!(
            details(Format::PathSegmentName, "a/b"),
            vec!["may not contain '/'"]
        );
        assert_eq!(
            details(Format::PathSegmentName, "a%b"),
            vec!["may not contain '%'"]
        );
        assert_eq!(
            details(Format::PathSegmentName, "%/"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
    }

    #[test]
    fn uuid_format() {
        assert_valid(Format::Uuid, &["123e4567-e89b-12d3-a456-426614174000"]);
        for v in [
            "123E4567-E89B-12D3-A456-426614174000",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            "123e4567e89b12d3a456426614174000",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-42661417400g",
            "123e4567-e89b-12d3-a4564-26614174000",
            "",
            "not-a-uuid",
        ] {
            assert_eq!(
                texts(Format::Uuid, v),
                vec![format!(
                    "f: Invalid value: \"{v}\": must be a lowercase UUID in 8-4-4-4-12 format"
                )]
            );
        }
    }

    #[test]
    fn resource_pool_name() {
        assert_valid(
            Format::ResourcePoolName,
            &["a", "a.b/c", "pool-1/dev.example.com/x"],
        );
        let errs = run(Format::ResourcePoolName, "a//B");
        assert_eq!(errs.len(), 2);
        assert_eq!(
            errs[0].to_string(),
            "f: Invalid value: \"a//B\": segment 1: must not be empty"
        );
        assert_eq!(
            errs[1].to_string(),
            format!("f: Invalid value: \"B\": segment 2: {SUBDOMAIN_REGEX_MSG}")
        );
        let long = format!("{}/b", "a".repeat(253));
        let errs = run(Format::ResourcePoolName, &long);
        assert_eq!(errs[0].error_type, ErrorType::TooLong);
        assert_eq!(
            errs[0].to_string(),
            "f: Too long: may not be more than 253 bytes"
        );
        assert_eq!(errs[0].bad_value, BadValue::string("<value omitted>"));
        assert_eq!(errs.len(), 1);
        let huge = "a".repeat(254);
        let errs = details(Format::ResourcePoolName, &huge);
        assert_eq!(
            errs,
            vec![
                "may not be more than 253 bytes",
                "segment 0: must be no more than 253 bytes"
            ]
        );
        assert_eq!(
            details(Format::ResourcePoolName, ""),
            vec!["segment 0: must not be empty"]
        );
    }

    #[test]
    fn extended_resource_name() {
        assert_valid(
            Format::ExtendedResourceName,
            &[
                "example.com/my-resource",
                "example.com/my_resource",
                "example.com/My-Resource",
                "example.com/my.resource",
                "my-domain.org/foo",
            ],
        );
        assert_eq!(
            details(Format::ExtendedResourceName, "kubernetes.io/my-resource"),
            vec!["must not have \"kubernetes.io/\" domain"]
        );
        assert_eq!(
            details(
                Format::ExtendedResourceName,
                "requests.example.com/my-resource"
            ),
            vec!["must not have \"requests.\" prefix"]
        );
        assert_eq!(
            texts(Format::ExtendedResourceName, "my-resource"),
            vec![
                "f: Invalid value: \"my-resource\": a name must be a domain-prefixed path, such as 'example.com/my-prop'"
            ]
        );
        assert_eq!(
            details(Format::ExtendedResourceName, "example.com/my-resource-"),
            vec![NAME_PART_REGEX_MSG]
        );
        assert_eq!(
            details(Format::ExtendedResourceName, "example.com/-my-resource"),
            vec![NAME_PART_REGEX_MSG]
        );
        assert_eq!(
            details(Format::ExtendedResourceName, "example.com/"),
            vec![
                "name part must be non-empty".to_owned(),
                NAME_PART_REGEX_MSG.to_owned()
            ]
        );
        assert_eq!(
            details(Format::ExtendedResourceName, "a/b/c"),
            vec![LABEL_KEY_3SEG_MSG]
        );
        // The bad value is the value as given, not the prefixed one.
        assert_eq!(
            run(Format::ExtendedResourceName, "x")[0].bad_value,
            BadValue::string("x")
        );
    }

    #[test]
    fn resource_fully_qualified_name() {
        assert_valid(
            Format::ResourceFullyQualifiedName,
            &["my-prefix/my_name", "example.com/MyName", "a/_"],
        );
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, "my_name"),
            vec![
                "f: Invalid value: \"my_name\": a fully qualified name must be a domain and a name separated by a slash"
            ]
        );
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, ""),
            vec![
                format!("f: Invalid value: \"\": {C_IDENT_REGEX_MSG}"),
                "f: Invalid value: \"\": a fully qualified name must be a domain and a name separated by a slash".to_owned(),
            ]
        );
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, "my-prefix/"),
            vec!["f: Invalid value: \"\": name must not be empty"]
        );
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, "/x"),
            vec!["f: Invalid value: \"\": prefix must not be empty"]
        );
        assert_eq!(
            details(Format::ResourceFullyQualifiedName, "a/1x"),
            vec![C_IDENT_REGEX_MSG]
        );
        assert_eq!(
            run(Format::ResourceFullyQualifiedName, "a/1x")[0].bad_value,
            BadValue::string("1x")
        );
        let long_name = format!("a/{}", "x".repeat(33));
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, &long_name),
            vec!["f: Too long: may not be more than 32 bytes"]
        );
        let long_prefix = format!("{}/x", "a".repeat(64));
        assert_eq!(
            texts(Format::ResourceFullyQualifiedName, &long_prefix),
            vec!["f: Too long: may not be more than 63 bytes"]
        );
        let bad_prefix = run(Format::ResourceFullyQualifiedName, "A/x");
        assert_eq!(bad_prefix.len(), 1);
        assert_eq!(
            bad_prefix[0].to_string(),
            format!("f: Invalid value: \"A\": prefix: {SUBDOMAIN_REGEX_MSG}")
        );
        // Three segments: only nothing (upstream gap); with no slash missing, nothing at all.
        assert_valid(Format::ResourceFullyQualifiedName, &["A/B/C", "//"]);
        assert_eq!(
            details(Format::ResourceFullyQualifiedName, &"x".repeat(33)),
            vec![
                "may not be more than 32 bytes",
                "a fully qualified name must be a domain and a name separated by a slash"
            ]
        );
    }

    #[test]
    fn valid_values_allocate_nothing() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let path = spec.child("name");
        let long_key = format!("{}/{}", "a".repeat(253), "b".repeat(63));
        let cases: &[(Format, &str)] = &[
            (Format::ShortName, "my-name"),
            (Format::LongName, "a.b.example.com"),
            (Format::LongNameCaseless, "Example.COM"),
            (Format::LabelKey, "example.com/My_Key"),
            (Format::LabelKey, &long_key),
            (Format::PrefixedLabelKey, "example.com/key"),
            (Format::LabelValue, ""),
            (Format::LabelValue, "my_value"),
            (Format::PathSegmentName, "segment"),
            (Format::Uuid, "123e4567-e89b-12d3-a456-426614174000"),
            (Format::ResourcePoolName, "pool/dev.example.com"),
            (Format::ExtendedResourceName, "example.com/my-resource"),
            (Format::ResourceFullyQualifiedName, "my-prefix/my_name"),
        ];
        let mut out = ErrorList::with_capacity(4);
        for &(format, value) in cases {
            let n =
                crate::alloc_count::allocations(|| validate_format(format, &path, value, &mut out));
            assert_eq!(n, 0, "{format} allocated for {value:?}");
            assert!(out.is_empty(), "{format} rejected {value:?}");
        }
    }

    #[test]
    fn named_string_types_print_json() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        validate_format_named(Format::ShortName, &f, "a<b", &mut out);
        validate_format_named(Format::Uuid, &f, "a<b", &mut out);
        assert_eq!(out[0].bad_value, BadValue::named_string("a<b"));
        assert!(
            out[0]
                .to_string()
                .starts_with("f: Invalid value: \"a\\u003cb\": a lowercase RFC 1123 label")
        );
        assert_eq!(
            out[1].to_string(),
            "f: Invalid value: \"a<b\": must be a lowercase UUID in 8-4-4-4-12 format"
        );
        let mut out = ErrorList::new();
        validate_format_named(Format::LabelValue, &f, "ok", &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn appends_after_existing_errors() {
        let root = PathRef::Nil;
        let mut out = vec![FieldError::required(&root, "")];
        validate_format(Format::ResourcePoolName, &root, "", &mut out);
        assert_eq!(out[0].origin, "");
        assert_eq!(out[1].origin, "format=k8s-resource-pool-name");
    }

    // ---- equivalence of the hand-written matchers with the upstream regexes ----

    fn anchored(src: &str) -> regex::Regex {
        regex::Regex::new(&format!("^{src}$"))
            .unwrap_or_else(|e| panic!("bad test regex {src}: {e}"))
    }

    // Compiled once: each proptest case would otherwise recompile its regex.
    static LABEL_RE: LazyLock<regex::Regex> = LazyLock::new(|| anchored(DNS1123_LABEL_FMT));
    static SUBDOMAIN_RE: LazyLock<regex::Regex> = LazyLock::new(|| anchored(DNS1123_SUBDOMAIN_FMT));
    static CASELESS_RE: LazyLock<regex::Regex> =
        LazyLock::new(|| anchored(&format!("(?i){DNS1123_SUBDOMAIN_FMT}")));
    static LABEL_KEY_RE: LazyLock<regex::Regex> = LazyLock::new(|| anchored(LABEL_KEY_FMT));
    static LABEL_VALUE_RE: LazyLock<regex::Regex> = LazyLock::new(|| anchored(LABEL_VALUE_FMT));
    static C_IDENTIFIER_RE: LazyLock<regex::Regex> = LazyLock::new(|| anchored(C_IDENTIFIER_FMT));
    static UUID_RE: LazyLock<regex::Regex> =
        LazyLock::new(|| anchored("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));

    fn alphabet_string() -> impl Strategy<Value = String> {
        let alphabet = vec![
            'a', 'b', 'k', 's', 'z', 'A', 'K', 'S', 'Z', '0', '9', '-', '.', '_', '/', '%', ' ',
            '\n', '\u{17f}', '\u{212a}', 'é', 'É', '\u{130}', '\u{131}', '世',
        ];
        prop::collection::vec(prop::sample::select(alphabet), 0..14)
            .prop_map(|cs| cs.into_iter().collect())
    }

    fn candidate() -> impl Strategy<Value = String> {
        prop_oneof![
            alphabet_string(),
            "[a-z0-9.-]{0,12}",
            "[A-Za-z0-9._-]{0,12}",
            "[a-z0-9]{1,4}(\\.[a-z0-9-]{1,4}){0,3}(/[A-Za-z0-9._-]{0,6}){0,2}",
            "[A-Za-z_][A-Za-z0-9_]{0,6}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn label_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_dns1123_label(&s), LABEL_RE.is_match(&s));
        }

        #[test]
        fn subdomain_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_dns1123_subdomain(&s), SUBDOMAIN_RE.is_match(&s));
        }

        #[test]
        fn caseless_subdomain_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_dns1123_subdomain_caseless(&s), CASELESS_RE.is_match(&s));
        }

        #[test]
        fn label_key_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_label_key_name(&s), LABEL_KEY_RE.is_match(&s));
        }

        #[test]
        fn label_value_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_label_value(&s), LABEL_VALUE_RE.is_match(&s));
        }

        #[test]
        fn c_identifier_matcher_equals_regex(s in candidate()) {
            prop_assert_eq!(is_c_identifier(&s), C_IDENTIFIER_RE.is_match(&s));
        }

        #[test]
        fn uuid_matcher_equals_regex(s in prop_oneof![
            "[0-9a-fA-F-]{30,38}",
            "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
            "[0-9a-g]{8}[-x][0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{11,13}",
        ]) {
            prop_assert_eq!(is_uuid(&s), UUID_RE.is_match(&s));
        }

        #[test]
        fn extended_resource_fast_path_agrees(s in prop_oneof![
            candidate(),
            "(requests\\.)?(kubernetes\\.io/)?[a-z0-9.-]{0,250}/[A-Za-z0-9._-]{0,66}",
        ]) {
            let root = PathRef::Nil;
            let mut slow = ErrorList::new();
            extended_resource_name_slow(&root, &s, &mut slow);
            prop_assert_eq!(extended_resource_name_is_valid(&s), slow.is_empty());
        }
    }

    #[test]
    fn extended_resource_fast_path_length_edges() {
        let root = PathRef::Nil;
        for n in 240..250 {
            for name_len in [62, 63, 64] {
                let v = format!("{}/{}", "a".repeat(n), "b".repeat(name_len));
                let mut slow = ErrorList::new();
                extended_resource_name_slow(&root, &v, &mut slow);
                assert_eq!(
                    extended_resource_name_is_valid(&v),
                    slow.is_empty(),
                    "{n} {name_len}"
                );
            }
        }
    }
}
