//! Character classes with Go's `unicode` package semantics.
//!
//! Upstream decides identifier characters with `unicode.IsLetter` (general category L) and
//! `unicode.IsDigit` (category Nd), (`%q` quoting is kdv-gofmt's). Rust's `char::is_alphabetic`/`is_numeric` use different properties
//! (Alphabetic, N), so the category tables come from `regex-syntax`, which ships the Unicode
//! general categories. Whitespace needs no table: Go's `unicode.IsSpace` and Rust's
//! `char::is_whitespace` are both the Unicode `White_Space` property.

use std::sync::LazyLock;

use regex_syntax::hir::{Class, HirKind};

/// Sorted, non-overlapping inclusive code point ranges of one character class.
struct RangeTable(Vec<(u32, u32)>);

impl RangeTable {
    fn from_class(pattern: &str) -> RangeTable {
        // The patterns are fixed, valid Unicode class expressions, so parsing cannot fail and
        // always yields a Unicode class; anything else would be a programming error here.
        let hir = regex_syntax::parse(pattern).expect("fixed class pattern parses");
        let ranges = match hir.kind() {
            HirKind::Class(Class::Unicode(class)) => class
                .ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end())))
                .collect(),
            _ => unreachable!("a bracketed or \\p class always translates to a Unicode class"),
        };
        RangeTable(ranges)
    }

    fn contains(&self, c: char) -> bool {
        let c = u32::from(c);
        self.0
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

static LETTERS: LazyLock<RangeTable> = LazyLock::new(|| RangeTable::from_class(r"\p{L}"));
static DECIMAL_DIGITS: LazyLock<RangeTable> = LazyLock::new(|| RangeTable::from_class(r"\p{Nd}"));

/// Go `unicode.IsLetter`: general category L.
pub(crate) fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    LETTERS.contains(c)
}

/// Go `unicode.IsDigit`: general category Nd (not only ASCII digits).
pub(crate) fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    DECIMAL_DIGITS.contains(c)
}

/// Go `unicode.IsSpace`.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// First character of a tag name or identifier.
pub(crate) fn is_ident_begin(c: char) -> bool {
    c == '_' || is_letter(c)
}

/// Later characters of an identifier (argument names, naked values).
pub(crate) fn is_ident_interior(c: char) -> bool {
    matches!(c, '_' | '.' | '-') || is_letter(c) || is_digit(c)
}

/// Later characters of a tag name: identifier characters plus `:`.
pub(crate) fn is_tag_name_interior(c: char) -> bool {
    c == ':' || is_ident_interior(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_follow_category_l() {
        for c in ['a', 'Z', 'é', 'ß', 'α', 'Ж', '中', 'ª'] {
            assert!(is_letter(c), "{c:?}");
        }
        // Alphabetic but not category L: Roman numeral (Nl) and a combining mark (Mn).
        for c in ['1', '_', 'Ⅻ', '\u{0345}', ' ', '٣'] {
            assert!(!is_letter(c), "{c:?}");
        }
    }

    #[test]
    fn digits_follow_category_nd() {
        for c in ['0', '9', '٣', '５'] {
            assert!(is_digit(c), "{c:?}");
        }
        for c in ['a', '²', 'Ⅻ', '½'] {
            assert!(!is_digit(c), "{c:?}");
        }
    }

    #[test]
    fn space_matches_go_is_space() {
        for c in [
            '\t', '\n', '\u{b}', '\u{c}', '\r', ' ', '\u{85}', '\u{a0}', '\u{3000}',
        ] {
            assert!(is_space(c), "{c:?}");
        }
        for c in ['\u{200b}', '\u{feff}', 'a'] {
            assert!(!is_space(c), "{c:?}");
        }
    }
}
