//! CEL text: literals, field selection with Kubernetes' property-name escaping, and the Go
//! meanings the tags give to "set", "zero" and "equal" written as CEL over the JSON object
//! the API server decodes (absent = Go's zero value).

use kdv_rules::{Literal, Presence, RuleSet, Shape, ShapeId};

/// A CEL string literal (double-quoted, escaped as CEL reads it).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A literal as CEL.
pub fn literal(l: &Literal) -> String {
    match l {
        Literal::String(s) => quote(s),
        Literal::Int(i) => i.to_string(),
        Literal::Bool(b) => b.to_string(),
    }
}

/// The name CEL sees for a property (Kubernetes' escaping: `__` → `__underscores__`, `.` →
/// `__dot__`, `-` → `__dash__`, `/` → `__slash__`, reserved words `__{word}__`), or `None`
/// when the property cannot be named in CEL (other characters): `kdv-cel`'s `escape`, the one
/// the rules' evaluation resolves names with.
pub fn field_name(name: &str) -> Option<String> {
    kdv_cel::value::typed::escape(name).map(std::borrow::Cow::into_owned)
}

/// A `fieldPath` selecting the property `name` (`.name`, or `['name']` when it is not an
/// identifier).
pub fn field_path(name: &str) -> String {
    let ident = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        format!(".{name}")
    } else {
        format!("['{}']", name.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// The shape behind pointers.
pub fn deref(rules: &RuleSet, mut s: ShapeId) -> ShapeId {
    for _ in 0..rules.shapes.len() {
        match rules.shape(s) {
            Shape::Pointer(e) => s = *e,
            _ => return s,
        }
    }
    s
}

/// The JSON value of Go's zero value of a non-pointer shape, as a CEL literal comparable
/// with the value (`None` for structs and unknown shapes).
pub fn zero(rules: &RuleSet, s: ShapeId) -> Option<&'static str> {
    match rules.shape(s) {
        Shape::String { .. } | Shape::Bytes => Some("\"\""),
        Shape::Bool => Some("false"),
        Shape::Int(_) => Some("0"),
        Shape::Float(_) => Some("0.0"),
        Shape::Slice(_) => Some("[]"),
        Shape::Map { .. } => Some("{}"),
        _ => None,
    }
}

/// "The member `f` of the object `o` is set" under `presence` (absent is unset; a JSON
/// null is dropped by the server, so it is absent too).
pub fn is_set(rules: &RuleSet, o: &str, f: &str, shape: ShapeId, presence: Presence) -> String {
    let sel = format!("{o}.{f}");
    match presence {
        Presence::Pointer => format!("has({sel})"),
        Presence::Slice | Presence::Map => format!("(has({sel}) && size({sel}) > 0)"),
        Presence::Value => match rules.shape(deref(rules, shape)) {
            Shape::Bool => format!("(has({sel}) && {sel})"),
            Shape::Float(_) => format!("(has({sel}) && {sel} != 0.0)"),
            Shape::Int(_) => format!("(has({sel}) && {sel} != 0)"),
            Shape::String { .. } | Shape::Bytes => format!("(has({sel}) && {sel} != \"\")"),
            Shape::Slice(_) | Shape::Map { .. } => format!("(has({sel}) && size({sel}) > 0)"),
            _ => format!("has({sel})"),
        },
    }
}

/// "The member `f` has the same Go value in `a` and `b`" (absent = zero value for values,
/// nil for pointers; structs compare by presence and value).
pub fn same(rules: &RuleSet, a: &str, b: &str, f: &str, shape: ShapeId) -> String {
    match rules.shape(shape) {
        Shape::Pointer(_) | Shape::Struct(_) | Shape::Any => {
            format!("(has({a}.{f}) == has({b}.{f}) && (!has({a}.{f}) || {a}.{f} == {b}.{f}))")
        }
        _ => match zero(rules, shape) {
            Some(z) => format!("(has({a}.{f}) ? {a}.{f} : {z}) == (has({b}.{f}) ? {b}.{f} : {z})"),
            None => {
                format!("(has({a}.{f}) == has({b}.{f}) && (!has({a}.{f}) || {a}.{f} == {b}.{f}))")
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_names_are_escaped_as_kubernetes_escapes_them() {
        assert_eq!(field_name("foo").as_deref(), Some("foo"));
        assert_eq!(field_name("foo-bar").as_deref(), Some("foo__dash__bar"));
        assert_eq!(field_name("a.b/c").as_deref(), Some("a__dot__b__slash__c"));
        assert_eq!(field_name("a__b").as_deref(), Some("a__underscores__b"));
        assert_eq!(field_name("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(field_name("1a"), None);
        assert_eq!(field_name("a b"), None);
        assert_eq!(field_name(""), None);
    }

    #[test]
    fn field_paths_and_quotes() {
        assert_eq!(field_path("spec"), ".spec");
        assert_eq!(field_path("foo-bar"), "['foo-bar']");
        assert_eq!(quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(quote("\u{1}"), "\"\\u0001\"");
    }
}
