//! Limits (`+k8s:minimum`, `maximum`, `minLength`, `maxLength`, `maxBytes`, `minItems`,
//! `maxItems`, `minProperties`, `maxProperties`): upstream's `validate/limits.go`.
//!
//! A nil value is not checked by the scalar limits (upstream skips a nil pointer); list and
//! map limits count a nil collection as empty, except `maxProperties`, which skips a nil map
//! as upstream does.

use crate::error::{BadValue, FieldError};
use crate::path::PathRef;
use crate::sink::ErrorSink;
use crate::view::{Int, View};

/// The origins of these errors.
pub mod origin {
    /// `+k8s:minimum`.
    pub const MINIMUM: &str = "minimum";
    /// `+k8s:maximum`.
    pub const MAXIMUM: &str = "maximum";
    /// `+k8s:minLength`.
    pub const MIN_LENGTH: &str = "minLength";
    /// `+k8s:maxLength`.
    pub const MAX_LENGTH: &str = "maxLength";
    /// `+k8s:maxBytes`.
    pub const MAX_BYTES: &str = "maxBytes";
    /// `+k8s:minItems`.
    pub const MIN_ITEMS: &str = "minItems";
    /// `+k8s:maxItems`.
    pub const MAX_ITEMS: &str = "maxItems";
    /// `+k8s:minProperties`.
    pub const MIN_PROPERTIES: &str = "minProperties";
    /// `+k8s:maxProperties`.
    pub const MAX_PROPERTIES: &str = "maxProperties";
    /// `+k8s:exclusiveMinimum` (a kdv extension).
    pub const EXCLUSIVE_MINIMUM: &str = "exclusiveMinimum";
    /// `+k8s:exclusiveMaximum` (a kdv extension).
    pub const EXCLUSIVE_MAXIMUM: &str = "exclusiveMaximum";
}

/// The bound within the value's Go type (the registry parses it for that type; clamping only
/// guards the conversion).
#[inline]
fn clamp_signed(bound: i128) -> i64 {
    bound.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

#[inline]
fn clamp_unsigned(bound: i128) -> u64 {
    bound.clamp(0, i128::from(u64::MAX)) as u64
}

/// `prefix` followed by `bound` in decimal, as Go prints it: written digit by digit into a
/// string of the exact size (the formatting machinery costs more than the allocation on this
/// path, which every failed limit takes).
fn with_bound(prefix: &str, bound: i128) -> String {
    let mut digits = [0u8; 40];
    let mut at = digits.len();
    let mut v = bound.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if bound < 0 {
        at -= 1;
        digits[at] = b'-';
    }
    let mut out = String::with_capacity(prefix.len() + digits.len() - at);
    out.push_str(prefix);
    // Only ASCII digits and '-' were written.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
    out
}

/// Whether `x` is below `min`, and `min` within `x`'s type. Widened comparison first (no
/// clamping on the way of a passing value); a value below the wide bound is below the
/// clamped one too unless the bound exceeds the type, which the clamped comparison decides.
#[inline(always)]
fn below(x: Int, min: i128) -> Option<i128> {
    let wide = match x {
        Int::Signed(x) => i128::from(x) < min,
        Int::Unsigned(x) => i128::from(x) < min,
    };
    if !wide {
        return None;
    }
    match x {
        Int::Signed(x) => {
            let b = clamp_signed(min);
            (x < b).then_some(i128::from(b))
        }
        Int::Unsigned(x) => {
            let b = clamp_unsigned(min);
            (x < b).then_some(i128::from(b))
        }
    }
}

/// Whether `x` is above `max` (see [`below`]), and `max` within `x`'s type.
#[inline(always)]
fn above(x: Int, max: i128) -> Option<i128> {
    let wide = match x {
        Int::Signed(x) => i128::from(x) > max,
        Int::Unsigned(x) => i128::from(x) > max,
    };
    if !wide {
        return None;
    }
    match x {
        Int::Signed(x) => {
            let b = clamp_signed(max);
            (x > b).then_some(i128::from(b))
        }
        Int::Unsigned(x) => {
            let b = clamp_unsigned(max);
            (x > b).then_some(i128::from(b))
        }
    }
}

/// `+k8s:minimum` on an integer: `value < min` →
/// `Invalid(value, "must be greater than or equal to <min>")`, origin `minimum`.
#[inline(always)]
pub fn minimum<'a>(path: &PathRef<'_>, v: impl View<'a>, min: i128, out: &mut impl ErrorSink) {
    let Some(x) = v.as_int() else { return };
    if let Some(bound) = below(x, min) {
        out_of_bound(
            path,
            x,
            "must be greater than or equal to ",
            bound,
            origin::MINIMUM,
            out,
        );
    }
}

/// The error of a failed [`minimum`] or [`maximum`], out of line: the passing path (most
/// values) is inlined into the caller.
#[cold]
#[inline(never)]
fn out_of_bound(
    path: &PathRef<'_>,
    x: Int,
    message: &str,
    bound: i128,
    origin: &'static str,
    out: &mut impl ErrorSink,
) {
    out.fail(|| {
        FieldError::invalid(path, x.bad_value(), with_bound(message, bound)).with_origin(origin)
    });
}

/// `+k8s:maximum` on an integer: `value > max` →
/// `Invalid(value, "must be less than or equal to <max>")`, origin `maximum`.
#[inline(always)]
pub fn maximum<'a>(path: &PathRef<'_>, v: impl View<'a>, max: i128, out: &mut impl ErrorSink) {
    let Some(x) = v.as_int() else { return };
    if let Some(bound) = above(x, max) {
        out_of_bound(
            path,
            x,
            "must be less than or equal to ",
            bound,
            origin::MAXIMUM,
            out,
        );
    }
}

/// Any Go integer, exactly (the bounds of the exclusive limits are parsed for the value's
/// type, so they need no clamping).
#[inline(always)]
fn wide(x: Int) -> i128 {
    match x {
        Int::Signed(x) => i128::from(x),
        Int::Unsigned(x) => i128::from(x),
    }
}

/// `+k8s:exclusiveMinimum` (a kdv extension) on an integer: `value <= min` →
/// `Invalid(value, "must be greater than <min>")`, origin `exclusiveMinimum` — the text of
/// [`minimum`] without "or equal to", as kube-openapi drops it for an exclusive bound.
#[inline(always)]
pub fn exclusive_minimum<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    min: i128,
    out: &mut impl ErrorSink,
) {
    let Some(x) = v.as_int() else { return };
    if wide(x) <= min {
        out_of_bound(
            path,
            x,
            "must be greater than ",
            min,
            origin::EXCLUSIVE_MINIMUM,
            out,
        );
    }
}

/// `+k8s:exclusiveMaximum` (a kdv extension) on an integer: `value >= max` →
/// `Invalid(value, "must be less than <max>")`, origin `exclusiveMaximum`.
#[inline(always)]
pub fn exclusive_maximum<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    max: i128,
    out: &mut impl ErrorSink,
) {
    let Some(x) = v.as_int() else { return };
    if wide(x) >= max {
        out_of_bound(
            path,
            x,
            "must be less than ",
            max,
            origin::EXCLUSIVE_MAXIMUM,
            out,
        );
    }
}

#[inline]
fn quarter_ceil(bytes: usize) -> i64 {
    // Go: int(math.Ceil(float64(len) / 4.0)); a lower bound on the character count.
    bytes.div_ceil(4) as i64
}

/// Errors of string checks carry the value's type: Go prints a named type JSON-encoded.
fn typed<'a>(mut e: FieldError, v: impl View<'a>) -> FieldError {
    if v.is_named()
        && let BadValue::String(s) = &mut e.bad_value
    {
        let s = std::mem::take(s);
        e.bad_value = BadValue::named_string(s);
    }
    e
}

/// `+k8s:maxLength`: at most `max` characters (code points). Counts characters only when the
/// byte length alone cannot decide. Failure → `TooLongCharacters(max)`, origin `maxLength`.
#[inline(always)]
pub fn max_length<'a>(path: &PathRef<'_>, v: impl View<'a>, max: i64, out: &mut impl ErrorSink) {
    let Some(s) = v.as_str() else { return };
    // A string no longer in bytes than the bound (most) is decided inline.
    if (s.len() as i64) <= max {
        return;
    }
    max_length_chars(path, v, s, max, out);
}

/// [`max_length`] of a string longer in bytes than the bound: count its characters.
#[inline(never)]
fn max_length_chars<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    s: &str,
    max: i64,
    out: &mut impl ErrorSink,
) {
    let bytes = s.len();
    if quarter_ceil(bytes) > max || s.chars().count() as i64 > max {
        out.fail(|| {
            typed(
                FieldError::too_long_characters(path, max).with_origin(origin::MAX_LENGTH),
                v,
            )
        });
    }
}

/// `+k8s:maxBytes`: at most `max` bytes. Failure → `TooLong(max)`, origin `maxBytes`.
#[inline]
pub fn max_bytes<'a>(path: &PathRef<'_>, v: impl View<'a>, max: i64, out: &mut impl ErrorSink) {
    let Some(s) = v.as_str() else { return };
    if s.len() as i64 > max {
        out.fail(|| {
            typed(
                FieldError::too_long(path, max).with_origin(origin::MAX_BYTES),
                v,
            )
        });
    }
}

/// `+k8s:minLength`: at least `min` characters. Failure → `TooShort(value, min)`, origin
/// `minLength`.
#[inline]
pub fn min_length<'a>(path: &PathRef<'_>, v: impl View<'a>, min: i64, out: &mut impl ErrorSink) {
    let Some(s) = v.as_str() else { return };
    let bytes = s.len();
    if quarter_ceil(bytes) >= min {
        return;
    }
    if (bytes as i64) < min || (s.chars().count() as i64) < min {
        out.fail(|| {
            typed(
                FieldError::too_short(path, BadValue::string(s), min)
                    .with_origin(origin::MIN_LENGTH),
                v,
            )
        });
    }
}

/// `+k8s:minItems`: `len < min` → `TooFew(len, min)`, origin `minItems` (a nil list has
/// length 0 and is checked).
#[inline]
pub fn min_items<'a>(path: &PathRef<'_>, v: impl View<'a>, min: i64, out: &mut impl ErrorSink) {
    let len = v.len();
    if (len as i64) < min {
        out.fail(|| FieldError::too_few(path, len as i64, min).with_origin(origin::MIN_ITEMS));
    }
}

/// `+k8s:maxItems`: `len > max` → `TooMany(len, max)`, origin `maxItems`.
#[inline]
pub fn max_items<'a>(path: &PathRef<'_>, v: impl View<'a>, max: i64, out: &mut impl ErrorSink) {
    let len = v.len();
    if len as i64 > max {
        out.fail(|| FieldError::too_many(path, len as i64, max).with_origin(origin::MAX_ITEMS));
    }
}

/// `+k8s:minProperties`: `len < min` → `TooFew(len, min)`, origin `minProperties` (a nil
/// map has length 0 and is checked).
#[inline]
pub fn min_properties<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    min: i64,
    out: &mut impl ErrorSink,
) {
    let len = v.len();
    if (len as i64) < min {
        out.fail(|| FieldError::too_few(path, len as i64, min).with_origin(origin::MIN_PROPERTIES));
    }
}

/// `+k8s:maxProperties`: `len > max` → `TooMany(len, max)`, origin `maxProperties`; a nil
/// map is skipped, as upstream does.
#[inline]
pub fn max_properties<'a>(
    path: &PathRef<'_>,
    v: impl View<'a>,
    max: i64,
    out: &mut impl ErrorSink,
) {
    if v.is_nil() {
        return;
    }
    let len = v.len();
    if len as i64 > max {
        out.fail(|| {
            FieldError::too_many(path, len as i64, max).with_origin(origin::MAX_PROPERTIES)
        });
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    /// The widened comparisons agree with comparing against the bound clamped to the
    /// value's type, bounds beyond the type included.
    #[test]
    fn widened_comparisons_agree_with_clamped_bounds() {
        let edges = [
            i128::MIN,
            -(1i128 << 64),
            i128::from(i64::MIN) - 1,
            i128::from(i64::MIN),
            -2,
            -1,
            0,
            1,
            2,
            i128::from(i64::MAX) - 1,
            i128::from(i64::MAX),
            i128::from(i64::MAX) + 1,
            i128::from(u64::MAX) - 1,
            i128::from(u64::MAX),
            i128::from(u64::MAX) + 1,
            i128::MAX,
        ];
        let mut values = Vec::new();
        for &e in &edges {
            if let Ok(x) = i64::try_from(e) {
                values.push(Int::Signed(x));
            }
            if let Ok(x) = u64::try_from(e) {
                values.push(Int::Unsigned(x));
            }
        }
        for &x in &values {
            for &b in &edges {
                let (lo, hi) = match x {
                    Int::Signed(x) => {
                        let (l, h) = (clamp_signed(b), clamp_signed(b));
                        (
                            (x < l).then_some(i128::from(l)),
                            (x > h).then_some(i128::from(h)),
                        )
                    }
                    Int::Unsigned(x) => {
                        let (l, h) = (clamp_unsigned(b), clamp_unsigned(b));
                        (
                            (x < l).then_some(i128::from(l)),
                            (x > h).then_some(i128::from(h)),
                        )
                    }
                };
                assert_eq!(below(x, b), lo, "{x:?} < {b}");
                assert_eq!(above(x, b), hi, "{x:?} > {b}");
            }
        }
    }

    #[test]
    fn bounds_print_as_go_prints_them() {
        for b in [
            0i128,
            1,
            -1,
            10,
            -65536,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
        ] {
            assert_eq!(super::with_bound("x ", b), format!("x {b}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{ErrorList, ErrorType};
    use crate::sink::Verdict;

    fn texts(errs: &ErrorList) -> Vec<String> {
        errs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn bounds() {
        let root = PathRef::Nil;
        let spec = root.child("spec");
        let x = spec.child("x");
        let mut out = ErrorList::new();
        minimum(&x, 10i64, 10, &mut out);
        maximum(&x, 10i64, 10, &mut out);
        minimum(&x, 10u64, 10, &mut out);
        maximum(&x, 10u64, 10, &mut out);
        minimum(&x, None::<i64>, 10, &mut out);
        assert!(out.is_empty());
        minimum(&x, 5i64, 10, &mut out);
        maximum(&x, 11i64, 10, &mut out);
        minimum(&x, 0u64, 1, &mut out);
        maximum(&x, u64::MAX, 1, &mut out);
        minimum(&x, -1i8, 0, &mut out);
        assert_eq!(
            texts(&out),
            [
                "spec.x: Invalid value: 5: must be greater than or equal to 10",
                "spec.x: Invalid value: 11: must be less than or equal to 10",
                "spec.x: Invalid value: 0: must be greater than or equal to 1",
                "spec.x: Invalid value: 18446744073709551615: must be less than or equal to 1",
                "spec.x: Invalid value: -1: must be greater than or equal to 0",
            ]
        );
        assert_eq!(out[0].origin, "minimum");
        assert_eq!(out[1].origin, "maximum");
        assert_eq!(out[3].bad_value, BadValue::Uint(u64::MAX));
    }

    #[test]
    fn exclusive_bounds() {
        let root = PathRef::Nil;
        let x = root.child("x");
        let mut out = ErrorList::new();
        exclusive_minimum(&x, 11i64, 10, &mut out);
        exclusive_maximum(&x, 9i64, 10, &mut out);
        exclusive_minimum(&x, u64::MAX, i128::from(u64::MAX) - 1, &mut out);
        exclusive_minimum(&x, None::<i64>, 10, &mut out);
        assert!(out.is_empty());
        exclusive_minimum(&x, 10i64, 10, &mut out);
        exclusive_maximum(&x, 10i64, 10, &mut out);
        exclusive_minimum(&x, u64::MAX, i128::from(u64::MAX), &mut out);
        exclusive_maximum(&x, i64::MIN, i128::from(i64::MIN), &mut out);
        assert_eq!(
            texts(&out),
            [
                "x: Invalid value: 10: must be greater than 10",
                "x: Invalid value: 10: must be less than 10",
                "x: Invalid value: 18446744073709551615: must be greater than 18446744073709551615",
                "x: Invalid value: -9223372036854775808: must be less than -9223372036854775808",
            ]
        );
        assert_eq!(out[0].origin, "exclusiveMinimum");
        assert_eq!(out[1].origin, "exclusiveMaximum");
        let mut v = Verdict::default();
        exclusive_minimum(&x, 10i64, 10, &mut v);
        assert!(v.failed());
    }

    #[test]
    fn lengths() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let mut out = ErrorList::new();
        max_length(&f, "abc", 3, &mut out);
        max_length(&f, "ééé", 3, &mut out); // 6 bytes, 3 characters
        max_bytes(&f, "abc", 3, &mut out);
        min_length(&f, "ab", 2, &mut out);
        min_length(&f, "日本", 2, &mut out);
        assert!(out.is_empty());
        max_length(&f, "abcd", 3, &mut out);
        max_length(&f, "éééé", 3, &mut out);
        max_length(&f, "ab", 1, &mut out);
        max_length(&f, "a", -1, &mut out);
        max_bytes(&f, "ééé", 3, &mut out);
        max_bytes(&f, "ab", 1, &mut out);
        min_length(&f, "a", 2, &mut out);
        min_length(&f, "", 1, &mut out);
        min_length(&f, "日本", 3, &mut out); // 6 bytes but 2 characters
        assert_eq!(
            texts(&out),
            [
                "f: Too long: may not be more than 3 characters",
                "f: Too long: may not be more than 3 characters",
                "f: Too long: may not be more than 1 character",
                "f: Too long: value is too long",
                "f: Too long: may not be more than 3 bytes",
                "f: Too long: may not be more than 1 byte",
                "f: Too short: must be at least 2 characters",
                "f: Too short: must be at least 1 character",
                "f: Too short: must be at least 3 characters",
            ]
        );
        assert_eq!(out[0].origin, "maxLength");
        assert_eq!(out[0].bad_value, BadValue::string("<value omitted>"));
        assert_eq!(out[4].origin, "maxBytes");
        assert_eq!(out[6].origin, "minLength");
        assert_eq!(out[6].bad_value, BadValue::string("a"));
        assert_eq!(out[6].error_type, ErrorType::TooShort);
    }

    #[test]
    fn sizes() {
        let root = PathRef::Nil;
        let f = root.child("f");
        let two = ["a", "b"];
        let two: &[&str] = &two;
        let empty: &[&str] = &[];
        let mut out = ErrorList::new();
        min_items(&f, two, 2, &mut out);
        max_items(&f, two, 2, &mut out);
        min_properties(&f, empty, 0, &mut out);
        max_properties(&f, None::<&[&str]>, 0, &mut out);
        assert!(out.is_empty());
        max_items(&f, two, 1, &mut out);
        min_items(&f, empty, 1, &mut out);
        min_items(&f, None::<&[&str]>, 3, &mut out);
        max_properties(&f, two, 1, &mut out);
        min_properties(&f, empty, 2, &mut out);
        assert_eq!(
            texts(&out),
            [
                "f: Too many: 2: must have at most 1 item",
                "f: Too few: 0: must have at least 1 item",
                "f: Too few: 0: must have at least 3 items",
                "f: Too many: 2: must have at most 1 item",
                "f: Too few: 0: must have at least 2 items",
            ]
        );
        let origins: Vec<&str> = out.iter().map(|e| &*e.origin).collect();
        assert_eq!(
            origins,
            [
                "maxItems",
                "minItems",
                "minItems",
                "maxProperties",
                "minProperties"
            ]
        );
    }

    #[test]
    fn yes_no_form_agrees_and_builds_nothing() {
        let root = PathRef::Nil;
        let cases: [(&str, i64); 4] = [("abc", 2), ("abc", 3), ("ééé", 3), ("éééé", 3)];
        for (s, max) in cases {
            let mut errs = ErrorList::new();
            max_length(&root, s, max, &mut errs);
            let n = crate::alloc_count::allocations(|| {
                assert_eq!(
                    Verdict::passes(|v| max_length(&root, s, max, v)),
                    errs.is_empty()
                );
            });
            assert_eq!(n, 0);
        }
    }
}
