//! cel-go's strings extension (`ext.Strings`, `cel.lib.ext.strings`): `charAt`, `indexOf`,
//! `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`,
//! `format`, `strings.quote`, `reverse` — declarations and implementations by version (indices
//! are code points), runtime costs, and cel-go's static estimates of `format` and
//! `strings.quote`. Version 2 is what Kubernetes enables (and prices some of these functions
//! itself: `library::k8s`); later versions add `reverse` (v3) and the cel-spec formatter (v4).

use std::sync::Arc;

use crate::library::estimate::{
    CallEstimate, CallSite, CostEstimate, STRING_TRAVERSAL_COST_FACTOR, SizeEstimate,
};
use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, list, m, nso,
};
use crate::types::Type;
use crate::value::{EvalError, Str, Value};

pub mod format;

/// The library's name.
const NAME: &str = "cel.lib.ext.strings";

/// The library at `version` (`u32::MAX`: every version).
pub fn library(version: u32) -> Library {
    Library::new(NAME, version, declarations, functions)
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's strings extension (`ext.Strings`) at `version` (Kubernetes: 2).
pub fn declarations(version: u32) -> Arc<Declarations> {
    cached("strings", version, declare)
}

fn declare(version: u32) -> Declarations {
    use Type::{Dyn, Int, String as Str};
    let mut lib = Declarations::new(NAME);
    lib.function("charAt", vec![m("string_char_at_int", vec![Str, Int], Str)]);
    lib.function(
        "indexOf",
        vec![
            m("string_index_of_string", vec![Str, Str], Int),
            m("string_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    lib.function(
        "lastIndexOf",
        vec![
            m("string_last_index_of_string", vec![Str, Str], Int),
            m("string_last_index_of_string_int", vec![Str, Str, Int], Int),
        ],
    );
    lib.function("lowerAscii", vec![m("string_lower_ascii", vec![Str], Str)]);
    lib.function(
        "replace",
        vec![
            m("string_replace_string_string", vec![Str, Str, Str], Str),
            m(
                "string_replace_string_string_int",
                vec![Str, Str, Str, Int],
                Str,
            ),
        ],
    );
    lib.function(
        "split",
        vec![
            m("string_split_string", vec![Str, Str], list(Str)),
            m("string_split_string_int", vec![Str, Str, Int], list(Str)),
        ],
    );
    lib.function(
        "substring",
        vec![
            m("string_substring_int", vec![Str, Int], Str),
            m("string_substring_int_int", vec![Str, Int, Int], Str),
        ],
    );
    lib.function("trim", vec![m("string_trim", vec![Str], Str)]);
    lib.function("upperAscii", vec![m("string_upper_ascii", vec![Str], Str)]);
    if version >= 1 {
        lib.function(
            "format",
            vec![m("string_format", vec![Str, list(Dyn)], Str)],
        );
        lib.function("strings.quote", vec![g("strings_quote", vec![Str], Str)]);
        lib.homogeneous_exempt.push("format".to_string());
    }
    lib.function(
        "join",
        vec![
            m("list_join", vec![list(Str)], Str),
            m("list_join_string", vec![list(Str), Str], Str),
        ],
    );
    if version >= 3 {
        lib.function("reverse", vec![m("string_reverse", vec![Str], Str)]);
    }
    lib
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

/// The newest version implemented.
pub const LATEST_VERSION: u32 = 4;

fn out_of_range(i: i64) -> EvalError {
    EvalError::new(format!("index out of range: {i}"))
}

fn str_arg<'v, 'a>(v: &'v Value<'a>) -> Result<&'v Str<'a>, EvalError> {
    match v {
        Value::String(s) => Ok(s),
        _ => Err(nso()),
    }
}

fn int_arg(v: &Value<'_>) -> Result<i64, EvalError> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(nso()),
    }
}

/// Byte offset of code point `n` in `s` (`s.len()` for `n == count`); `None` past the end.
fn cp_offset(s: &str, n: usize) -> Option<usize> {
    if n == 0 {
        return Some(0);
    }
    let mut it = s.char_indices();
    match it.nth(n) {
        Some((i, _)) => Some(i),
        None => (s.chars().count() == n).then_some(s.len()),
    }
}

/// A substring of `s` that stays borrowed when `s` is.
fn sub<'a>(s: &Str<'a>, range: std::ops::Range<usize>) -> Value<'a> {
    match s {
        Str::Borrowed(b) => Value::String(Str::Borrowed(&b[range])),
        Str::Shared(a) => {
            if range.start == 0 && range.end == a.len() {
                Value::String(s.clone())
            } else {
                Value::string(&a[range])
            }
        }
    }
}

fn char_at<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let i = int_arg(&a[1])?;
    if i < 0 {
        return Err(out_of_range(i));
    }
    let mut chars = s.char_indices().skip(i as usize);
    match chars.next() {
        Some((start, c)) => Ok(sub(s, start..start + c.len_utf8())),
        None if s.chars().count() == i as usize => Ok(Value::String(Str::Borrowed(""))),
        None => Err(out_of_range(i)),
    }
}

fn index_of_impl(s: &str, subs: &str, offset: i64) -> Result<i64, EvalError> {
    if offset < 0 {
        return Err(out_of_range(offset));
    }
    let runes: Vec<char> = s.chars().collect();
    let off = offset as usize;
    if subs.is_empty() {
        return Ok(offset.min(runes.len() as i64));
    }
    if off >= runes.len() {
        return Ok(-1);
    }
    let sub: Vec<char> = subs.chars().collect();
    if sub.len() > runes.len() {
        return Ok(-1);
    }
    for i in off..=runes.len() - sub.len() {
        if runes[i..i + sub.len()] == sub[..] {
            return Ok(i as i64);
        }
    }
    Ok(-1)
}

fn index_of<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let sub = str_arg(&a[1])?;
    let off = match a.get(2) {
        Some(v) => int_arg(v)?,
        None => 0,
    };
    index_of_impl(s, sub, off).map(Value::Int)
}

fn last_index_of_impl(s: &str, subs: &str, offset: Option<i64>) -> Result<i64, EvalError> {
    let runes: Vec<char> = s.chars().collect();
    let offset = match offset {
        Some(o) => o,
        None => {
            if subs.is_empty() {
                return Ok(runes.len() as i64);
            }
            if s.len() < subs.len() {
                return Ok(-1);
            }
            runes.len() as i64 - 1
        }
    };
    if offset < 0 {
        return Err(out_of_range(offset));
    }
    if subs.is_empty() {
        return Ok(offset.min(runes.len() as i64));
    }
    let sub: Vec<char> = subs.chars().collect();
    let mut off = offset as usize;
    if off >= runes.len() {
        return Ok(-1);
    }
    if sub.len() > runes.len() {
        return Ok(-1);
    }
    off = off.min(runes.len() - sub.len());
    for i in (0..=off).rev() {
        if runes[i..i + sub.len()] == sub[..] {
            return Ok(i as i64);
        }
    }
    Ok(-1)
}

fn last_index_of<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let sub = str_arg(&a[1])?;
    let off = match a.get(2) {
        Some(v) => Some(int_arg(v)?),
        None => None,
    };
    last_index_of_impl(s, sub, off).map(Value::Int)
}

fn lower_ascii<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    if !s.bytes().any(|b| b.is_ascii_uppercase()) {
        return Ok(Value::String(s.clone()));
    }
    Ok(Value::string(s.to_ascii_lowercase()))
}

fn upper_ascii<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    if !s.bytes().any(|b| b.is_ascii_lowercase()) {
        return Ok(Value::String(s.clone()));
    }
    Ok(Value::string(s.to_ascii_uppercase()))
}

/// Go `strings.Replace(s, old, new, n)`.
fn go_replace(s: &str, old: &str, new: &str, n: i64) -> String {
    if n == 0 || old == new {
        return s.to_string();
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    if old.is_empty() {
        // Insert `new` before every code point and at the end, up to `limit` times.
        let mut out = String::new();
        let mut count = 0;
        for c in s.chars() {
            if count < limit {
                out.push_str(new);
                count += 1;
            }
            out.push(c);
        }
        if count < limit {
            out.push_str(new);
        }
        return out;
    }
    s.replacen(old, new, limit)
}

fn replace<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let old = str_arg(&a[1])?;
    let new = str_arg(&a[2])?;
    let n = match a.get(3) {
        Some(v) => int_arg(v)?,
        None => -1,
    };
    Ok(Value::string(go_replace(s, old, new, n)))
}

/// Go `strings.SplitN(s, sep, n)`.
fn go_split<'a>(s: &Str<'a>, sep: &str, n: i64) -> Vec<Value<'a>> {
    if n == 0 {
        return Vec::new();
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    let mut out = Vec::new();
    if sep.is_empty() {
        let mut rest_start = 0;
        for (i, c) in s.char_indices() {
            if out.len() + 1 == limit {
                break;
            }
            out.push(sub(s, i..i + c.len_utf8()));
            rest_start = i + c.len_utf8();
        }
        if rest_start < s.len() {
            out.push(sub(s, rest_start..s.len()));
        }
        return out;
    }
    let mut start = 0;
    while out.len() + 1 < limit {
        match s[start..].find(sep) {
            Some(i) => {
                out.push(sub(s, start..start + i));
                start += i + sep.len();
            }
            None => break,
        }
    }
    out.push(sub(s, start..s.len()));
    out
}

fn split<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let sep = str_arg(&a[1])?;
    let n = match a.get(2) {
        Some(v) => int_arg(v)?,
        None => -1,
    };
    Ok(Value::list(go_split(s, sep, n)))
}

fn substring<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let start = int_arg(&a[1])?;
    let count = s.chars().count() as i64;
    let end = match a.get(2) {
        Some(v) => {
            let end = int_arg(v)?;
            if start > end {
                return Err(EvalError::new(format!(
                    "invalid substring range. start: {start}, end: {end}"
                )));
            }
            if end < 0 || end > count {
                if start < 0 || start > count {
                    return Err(out_of_range(start));
                }
                return Err(out_of_range(end));
            }
            end
        }
        None => count,
    };
    if start < 0 || start > count {
        return Err(out_of_range(start));
    }
    let (Some(b0), Some(b1)) = (cp_offset(s, start as usize), cp_offset(s, end as usize)) else {
        return Err(out_of_range(end));
    };
    Ok(sub(s, b0..b1))
}

fn trim<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    // Go `strings.TrimSpace`: Unicode White_Space, which Rust's `trim` also uses.
    let t = s.trim_start();
    let start = s.len() - t.len();
    let end = start + t.trim_end().len();
    Ok(sub(s, start..end))
}

fn join<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let Value::List(l) = &a[0] else {
        return Err(nso());
    };
    let sep = match a.get(1) {
        Some(v) => str_arg(v)?.as_str(),
        None => "",
    };
    let mut out = String::new();
    for (i, e) in l.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match &e {
            Value::String(s) => out.push_str(s),
            other => {
                return Err(EvalError::new(format!(
                    "join: invalid input: {}",
                    go_str(other)
                )));
            }
        }
    }
    Ok(Value::string(out))
}

/// Go `%v` of a value for messages.
fn go_str(v: &Value<'_>) -> String {
    match v {
        Value::String(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// `strings.quote`: a double-quoted CEL string literal.
pub fn quote_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0C}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0B}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn quote<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::string(quote_str(str_arg(&a[0])?)))
}

fn reverse<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    Ok(Value::string(
        str_arg(&a[0])?.chars().rev().collect::<String>(),
    ))
}

fn format_v4<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let Value::List(l) = &a[1] else {
        return Err(nso());
    };
    format::format(s, l, format::Dialect::Spec).map(Value::string)
}

fn format_v1<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    let s = str_arg(&a[0])?;
    let Value::List(l) = &a[1] else {
        return Err(nso());
    };
    format::format(s, l, format::Dialect::Locale).map(Value::string)
}

fn cost_arg0(args: &[Value<'_>], _: &Value<'_>) -> u64 {
    args.first()
        .map_or(1, |a| crate::library::traversal(a.cost_size()))
}

/// The strings extension at `version`.
pub fn functions(version: u32) -> Functions {
    let mut o: Vec<Overload> = vec![
        Overload::new(
            "string_char_at_int",
            "charAt",
            true,
            &[P::STRING, P::INT],
            char_at,
        ),
        Overload::new(
            "string_index_of_string",
            "indexOf",
            true,
            &[P::STRING, P::STRING],
            index_of,
        ),
        Overload::new(
            "string_index_of_string_int",
            "indexOf",
            true,
            &[P::STRING, P::STRING, P::INT],
            index_of,
        ),
        Overload::new(
            "string_last_index_of_string",
            "lastIndexOf",
            true,
            &[P::STRING, P::STRING],
            last_index_of,
        ),
        Overload::new(
            "string_last_index_of_string_int",
            "lastIndexOf",
            true,
            &[P::STRING, P::STRING, P::INT],
            last_index_of,
        ),
        Overload::new(
            "string_lower_ascii",
            "lowerAscii",
            true,
            &[P::STRING],
            lower_ascii,
        ),
        Overload::new(
            "string_replace_string_string",
            "replace",
            true,
            &[P::STRING, P::STRING, P::STRING],
            replace,
        ),
        Overload::new(
            "string_replace_string_string_int",
            "replace",
            true,
            &[P::STRING, P::STRING, P::STRING, P::INT],
            replace,
        ),
        Overload::new(
            "string_split_string",
            "split",
            true,
            &[P::STRING, P::STRING],
            split,
        ),
        Overload::new(
            "string_split_string_int",
            "split",
            true,
            &[P::STRING, P::STRING, P::INT],
            split,
        ),
        Overload::new(
            "string_substring_int",
            "substring",
            true,
            &[P::STRING, P::INT],
            substring,
        ),
        Overload::new(
            "string_substring_int_int",
            "substring",
            true,
            &[P::STRING, P::INT, P::INT],
            substring,
        ),
        Overload::new("string_trim", "trim", true, &[P::STRING], trim),
        Overload::new(
            "string_upper_ascii",
            "upperAscii",
            true,
            &[P::STRING],
            upper_ascii,
        ),
    ];
    if version >= 1 {
        let f = if version >= 4 { format_v4 } else { format_v1 };
        let mut fo = Overload::new("string_format", "format", true, &[P::STRING, P::LIST], f);
        fo.cost = Some(cost_arg0);
        o.push(fo);
        let mut q = Overload::new("strings_quote", "strings.quote", false, &[P::STRING], quote);
        q.cost = Some(cost_arg0);
        o.push(q);
    }
    o.push(Overload::new("list_join", "join", true, &[P::LIST], join));
    o.push(Overload::new(
        "list_join_string",
        "join",
        true,
        &[P::LIST, P::STRING],
        join,
    ));
    if version >= 3 {
        o.push(Overload::new(
            "string_reverse",
            "reverse",
            true,
            &[P::STRING],
            reverse,
        ));
    }
    Functions {
        name: NAME,
        overloads: o,
        regex_functions: Vec::new(),
    }
}

// ---- static cost estimates ---------------------------------------------------------------

/// cel-go's static estimates of `format` and `strings.quote` (its checker's `functionCost`), or
/// `None` for its O(1) default.
pub(crate) fn estimate<'a>(c: &mut impl CallSite<'a>) -> Option<CallEstimate> {
    let n = c.argc();
    let tenth = STRING_TRAVERSAL_COST_FACTOR;
    let est = |cost: CostEstimate, result: Option<SizeEstimate>| CallEstimate { cost, result };
    match c.overload() {
        "string_format" => {
            let t = c.target()?;
            Some(est(
                c.computed_or_unknown(&t).multiply_by_cost_factor(tenth),
                None,
            ))
        }
        // Go's unchecked uint64 arithmetic on the result size is kept (it wraps).
        "strings_quote" if n == 1 => {
            let sz = c.computed_or_unknown(&c.arg(0));
            Some(est(
                sz.multiply_by_cost_factor(tenth),
                Some(SizeEstimate {
                    min: sz.min.wrapping_add(2),
                    max: sz.max.wrapping_mul(2).wrapping_add(2),
                }),
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_string_helpers() {
        assert_eq!(go_replace("abc", "", "-", -1), "-a-b-c-");
        assert_eq!(go_replace("abc", "", "-", 2), "-a-bc");
        assert_eq!(go_replace("aaa", "a", "b", 2), "bba");
        let s = Str::Borrowed("a,b,c");
        let parts: Vec<String> = go_split(&s, ",", 2).iter().map(|v| v.to_string()).collect();
        assert_eq!(parts, ["\"a\"", "\"b,c\""]);
        assert_eq!(go_split(&Str::Borrowed("héllo"), "", 3).len(), 3);
        assert_eq!(go_split(&Str::Borrowed(""), ",", -1).len(), 1);
        assert_eq!(index_of_impl("tacocat", "", 3).unwrap(), 3);
        assert_eq!(index_of_impl("tacocat", "ac", 2).unwrap(), -1);
        assert_eq!(last_index_of_impl("tacocat", "a", None).unwrap(), 5);
        assert_eq!(last_index_of_impl("tacocat", "a", Some(4)).unwrap(), 1);
        assert!(index_of_impl("x", "x", -1).is_err());
        assert_eq!(quote_str("a\"\n\u{7}"), r#""a\"\n\a""#);
    }
}
