//! Property-name escaping (apiserver `pkg/cel/escaping.go`): JSON property names become CEL
//! field names, and back.

// The implementation lives in kdv-cel, whose typed values unescape field names at run time.

/// Whether `name` is one of CEL's reserved symbols.
pub fn is_reserved(name: &str) -> bool {
    kdv_cel::value::typed::is_reserved(name)
}

/// The CEL field name of property `ident`, or `None` when it has none (empty, a leading
/// digit, or a character outside `[A-Za-z0-9_./-]`): such properties are left out of their
/// object's type.
///
/// `__` becomes `__underscores__`, `.` `__dot__`, `-` `__dash__`, `/` `__slash__`, and a
/// name that is exactly a reserved symbol becomes `__<name>__`.
pub fn escape(ident: &str) -> Option<String> {
    kdv_cel::value::typed::escape(ident).map(|e| e.into_owned())
}

/// The property name of CEL field name `escaped`, or `None` when it holds an escape
/// sequence that [`escape`] never writes (`__illegal__`, or a reserved symbol's escape that
/// is not the whole name, as in `__int__extra`).
pub fn unescape(escaped: &str) -> Option<String> {
    kdv_cel::value::typed::unescape(escaped).map(|e| e.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// apiserver `TestEscaping`: (property name, field name); `None`: not escapable.
    const ESCAPING: &[(&str, Option<&str>)] = &[
        ("a.a", Some("a__dot__a")),
        ("a-a", Some("a__dash__a")),
        ("a__a", Some("a__underscores__a")),
        ("a.-/__a", Some("a__dot____dash____slash____underscores__a")),
        ("a._a", Some("a__dot___a")),
        ("a__.__a", Some("a__underscores____dot____underscores__a")),
        ("a___a", Some("a__underscores___a")),
        ("a____a", Some("a__underscores____underscores__a")),
        ("a__dot__a", Some("a__underscores__dot__underscores__a")),
        (
            "a__underscores__a",
            Some("a__underscores__underscores__underscores__a"),
        ),
        ("true", Some("__true__")),
        ("false", Some("__false__")),
        ("null", Some("__null__")),
        ("in", Some("__in__")),
        ("as", Some("__as__")),
        ("break", Some("__break__")),
        ("const", Some("__const__")),
        ("continue", Some("__continue__")),
        ("else", Some("__else__")),
        ("for", Some("__for__")),
        ("function", Some("__function__")),
        ("if", Some("__if__")),
        ("import", Some("__import__")),
        ("let", Some("__let__")),
        ("loop", Some("__loop__")),
        ("package", Some("__package__")),
        ("namespace", Some("__namespace__")),
        ("return", Some("__return__")),
        ("var", Some("__var__")),
        ("void", Some("__void__")),
        ("while", Some("__while__")),
        ("@", None),
        ("1up", None),
        ("👑", None),
        ("has", Some("has")),
        ("all", Some("all")),
        ("exists", Some("exists")),
        ("exists_one", Some("exists_one")),
        ("filter", Some("filter")),
        ("size", Some("size")),
        ("contains", Some("contains")),
        ("startsWith", Some("startsWith")),
        ("endsWith", Some("endsWith")),
        ("matches", Some("matches")),
        ("duration", Some("duration")),
        ("timestamp", Some("timestamp")),
        ("getDate", Some("getDate")),
        ("getDayOfMonth", Some("getDayOfMonth")),
        ("getDayOfWeek", Some("getDayOfWeek")),
        ("getFullYear", Some("getFullYear")),
        ("getHours", Some("getHours")),
        ("getMilliseconds", Some("getMilliseconds")),
        ("getMinutes", Some("getMinutes")),
        ("getMonth", Some("getMonth")),
        ("getSeconds", Some("getSeconds")),
        ("_if", Some("_if")),
        ("_has", Some("_has")),
        ("_int", Some("_int")),
        ("_anything", Some("_anything")),
    ];

    fn is_cel_ident(s: &str) -> bool {
        let mut bytes = s.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }

    #[test]
    fn escaping_table_of_upstream() {
        for &(name, want) in ESCAPING {
            let got = escape(name);
            assert_eq!(got.as_deref(), want, "escape({name:?})");
            if let Some(escaped) = want {
                assert!(is_cel_ident(escaped), "{escaped}");
                assert_eq!(
                    unescape(escaped).as_deref(),
                    Some(name),
                    "unescape({escaped:?})"
                );
            }
        }
    }

    #[test]
    fn malformed_escapes_do_not_unescape() {
        // apiserver TestUnescapeMalformed.
        assert_eq!(unescape("__int__extra"), None);
        assert_eq!(unescape("__illegal__"), None);
        assert_eq!(unescape("x__if__"), None);
        // Underscore runs that are no escape sequence are kept.
        assert_eq!(unescape("a___a").as_deref(), Some("a___a"));
        assert_eq!(unescape("_a_").as_deref(), Some("_a_"));
        assert_eq!(unescape("").as_deref(), Some(""));
    }

    #[test]
    fn leading_punctuation_and_late_bad_characters() {
        assert_eq!(escape("-x").as_deref(), Some("__dash__x"));
        assert_eq!(escape(".x").as_deref(), Some("__dot__x"));
        assert_eq!(escape("/x").as_deref(), Some("__slash__x"));
        assert_eq!(escape("/👑"), None);
        assert_eq!(escape("a b"), None);
        assert_eq!(escape("a$"), None);
        assert_eq!(escape(""), None);
        assert_eq!(escape("x-kubernetes"), Some("x__dash__kubernetes".into()));
    }

    #[test]
    fn escape_round_trips() {
        // A deterministic sweep over short names of the interesting characters
        // (upstream's TestEscapingFuzz, without randomness).
        let alphabet = ['a', '_', '.', '-', '/', '1', 'Z', '@'];
        let mut names = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for n in &names {
                for c in alphabet {
                    next.push(format!("{n}{c}"));
                }
            }
            names.extend(next);
        }
        for name in names.iter().filter(|n| !n.is_empty()) {
            if let Some(escaped) = escape(name) {
                assert!(is_cel_ident(&escaped), "{name:?} -> {escaped:?}");
                assert_eq!(
                    unescape(&escaped).as_deref(),
                    Some(name.as_str()),
                    "{escaped}"
                );
            }
        }
    }
}
