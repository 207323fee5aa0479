//! Go `strconv` integer parsing (`ParseUint`, `ParseInt`, `Atoi`) with Go's error values.
//!
//! Upstream wraps these errors verbatim (`parsing "x" as int: strconv.Atoi: parsing "x":
//! invalid syntax`), and the tag grammar accepts exactly what `strconv.ParseInt(s, 0, 64)`
//! accepts, so both the accepted language and the error texts are reproduced here.

use std::fmt;

use crate::go_quote;

/// Why a number failed to parse (Go's `ErrSyntax` / `ErrRange`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumErrorKind {
    Syntax,
    Range,
}

/// Go's `*strconv.NumError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NumError {
    func: &'static str,
    num: String,
    kind: NumErrorKind,
}

impl NumError {
    fn new(func: &'static str, num: &str, kind: NumErrorKind) -> NumError {
        NumError {
            func,
            num: num.to_owned(),
            kind,
        }
    }
}

impl fmt::Display for NumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.kind {
            NumErrorKind::Syntax => "invalid syntax",
            NumErrorKind::Range => "value out of range",
        };
        write!(
            f,
            "strconv.{}: parsing {}: {}",
            self.func,
            go_quote(&self.num),
            reason
        )
    }
}

/// Which bases a parse accepts: Go's base 10, or base 0 (prefix-detected).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    Decimal,
    /// `0x`/`0o`/`0b` prefixes and a bare leading `0` (octal), as in Go literals.
    Prefixed,
}

/// Parse as `uint64`; on overflow the value is `u64::MAX` (as Go returns `maxVal`).
fn parse_uint_inner(s: &str, base: Base) -> Result<u64, (u64, NumErrorKind)> {
    if s.is_empty() {
        return Err((0, NumErrorKind::Syntax));
    }
    let bytes = s.as_bytes();
    let (radix, digits): (u64, &[u8]) = match base {
        Base::Decimal => (10, bytes),
        Base::Prefixed if bytes[0] == b'0' => {
            let prefix = bytes.get(1).map(u8::to_ascii_lowercase);
            match prefix {
                Some(b'b') if bytes.len() >= 3 => (2, &bytes[2..]),
                Some(b'o') if bytes.len() >= 3 => (8, &bytes[2..]),
                Some(b'x') if bytes.len() >= 3 => (16, &bytes[2..]),
                _ => (8, &bytes[1..]),
            }
        }
        Base::Prefixed => (10, bytes),
    };
    // Go also accepts `_` digit separators in base 0; the tag scanner never produces `_`
    // in number text, and base 10 rejects it, so `_` is simply invalid here.
    let cutoff = u64::MAX / radix + 1;
    let mut n: u64 = 0;
    for &b in digits {
        let d = match b {
            b'0'..=b'9' => u64::from(b - b'0'),
            b'a'..=b'z' => u64::from(b - b'a') + 10,
            b'A'..=b'Z' => u64::from(b - b'A') + 10,
            _ => return Err((0, NumErrorKind::Syntax)),
        };
        if d >= radix {
            return Err((0, NumErrorKind::Syntax));
        }
        // Go reports overflow as soon as it happens, even if later characters are invalid.
        if n >= cutoff {
            return Err((u64::MAX, NumErrorKind::Range));
        }
        n *= radix;
        n = match n.checked_add(d) {
            Some(v) => v,
            None => return Err((u64::MAX, NumErrorKind::Range)),
        };
    }
    Ok(n)
}

/// Go `strconv.ParseUint(s, base, 64)`.
pub(crate) fn parse_uint(s: &str, base: Base) -> Result<u64, NumError> {
    parse_uint_inner(s, base).map_err(|(_, kind)| NumError::new("ParseUint", s, kind))
}

/// Go `strconv.ParseInt(s, base, 64)`.
pub(crate) fn parse_int(s: &str, base: Base) -> Result<i64, NumError> {
    let (negative, magnitude_text) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let magnitude = match parse_uint_inner(magnitude_text, base) {
        Ok(v) => v,
        Err((v, NumErrorKind::Range)) => v,
        Err((_, kind)) => return Err(NumError::new("ParseInt", s, kind)),
    };
    const CUTOFF: u64 = 1 << 63;
    if !negative && magnitude >= CUTOFF || negative && magnitude > CUTOFF {
        return Err(NumError::new("ParseInt", s, NumErrorKind::Range));
    }
    // In range by the check above: magnitude <= 2^63 when negative, < 2^63 otherwise.
    Ok(if negative {
        0i64.wrapping_sub_unsigned(magnitude)
    } else {
        magnitude as i64
    })
}

/// Go `strconv.Atoi(s)` on a 64-bit platform.
pub(crate) fn atoi(s: &str) -> Result<i64, NumError> {
    // Go's fast path and its ParseInt fallback accept and reject the same inputs; both report
    // the function as "Atoi".
    parse_int(s, Base::Decimal).map_err(|mut e| {
        e.func = "Atoi";
        e
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base0_accepts_go_literals() {
        for (s, v) in [
            ("0", 0),
            ("00", 0),
            ("-0", 0),
            ("+3", 3),
            ("-5", -5),
            ("0x10", 16),
            ("0xFF", 255),
            ("-0x0000", 0),
            ("+0x00FF00", 0xff00),
            ("0o17", 15),
            ("017", 15),
            ("0b101", 5),
            ("-0b10101", -21),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("-0x8000000000000000", i64::MIN),
        ] {
            assert_eq!(parse_int(s, Base::Prefixed), Ok(v), "{s}");
        }
    }

    #[test]
    fn base0_rejects_bad_literals() {
        for s in [
            "", "+", "-", "0x", "0o", "0b", "08", "0b12", "0o8", "123abc", "1B", "٣", "--1",
        ] {
            let err = parse_int(s, Base::Prefixed).unwrap_err();
            assert_eq!(err.kind, NumErrorKind::Syntax, "{s}");
        }
        for s in [
            "9223372036854775808",
            "-9223372036854775809",
            "0xFFFFFFFFFFFFFFFF",
            "99999999999999999999x",
        ] {
            let err = parse_int(s, Base::Prefixed).unwrap_err();
            assert_eq!(err.kind, NumErrorKind::Range, "{s}");
        }
    }

    #[test]
    fn error_texts_match_go() {
        assert_eq!(
            atoi("abc").unwrap_err().to_string(),
            r#"strconv.Atoi: parsing "abc": invalid syntax"#
        );
        assert_eq!(
            atoi("").unwrap_err().to_string(),
            r#"strconv.Atoi: parsing "": invalid syntax"#
        );
        assert_eq!(
            atoi("99999999999999999999").unwrap_err().to_string(),
            r#"strconv.Atoi: parsing "99999999999999999999": value out of range"#
        );
        assert_eq!(
            parse_int("0x10", Base::Decimal).unwrap_err().to_string(),
            r#"strconv.ParseInt: parsing "0x10": invalid syntax"#
        );
        assert_eq!(
            parse_uint("-1", Base::Decimal).unwrap_err().to_string(),
            r#"strconv.ParseUint: parsing "-1": invalid syntax"#
        );
        assert_eq!(
            parse_uint("18446744073709551616", Base::Decimal)
                .unwrap_err()
                .to_string(),
            r#"strconv.ParseUint: parsing "18446744073709551616": value out of range"#
        );
        assert_eq!(
            parse_uint("18446744073709551615", Base::Decimal),
            Ok(u64::MAX)
        );
        assert_eq!(
            parse_uint("+1", Base::Decimal).unwrap_err().kind,
            NumErrorKind::Syntax
        );
    }
}
