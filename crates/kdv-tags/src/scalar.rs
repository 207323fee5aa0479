//! Strict scalar parsing of tag payloads (spec §1.6).
//!
//! Tags such as `+k8s:minimum=<int>` accept only the canonical decimal rendering of a number
//! (no `+5`, `0100` or `0x10`, although the grammar itself types those as ints), and only the
//! exact words `true`/`false`. Error texts are upstream's, including the wrapped Go
//! `strconv` error.

use crate::go_quote;
use crate::gostrconv::{self, Base};

/// Parses a canonical decimal `int` (upstream `ParseInt`, backed by `strconv.Atoi`).
///
/// Errors: `parsing "<s>" as int: strconv.Atoi: parsing "<s>": invalid syntax` (or
/// `value out of range`), and `"<s>" is not a valid int value` for non-canonical text.
pub fn parse_int(s: &str) -> Result<i64, String> {
    let value = gostrconv::atoi(s).map_err(|e| format!("parsing {} as int: {e}", go_quote(s)))?;
    if value.to_string() != s {
        return Err(format!("{} is not a valid int value", go_quote(s)));
    }
    Ok(value)
}

/// Parses a canonical decimal integer that must fit a signed integer of `bits` bits
/// (upstream `ParseSignedInt`; `bits` is 8, 16, 32 or 64).
///
/// Errors, in this order: `parsing "<s>" as int: strconv.ParseInt: …`,
/// `"<s>" is not a valid int value`, `unsupported bitSize <n>; must be 8, 16, 32, or 64`,
/// `value <v> does not fit in int<bits> (range [<min>, <max>])`.
pub fn parse_signed_int(s: &str, bits: u32) -> Result<i64, String> {
    let value = gostrconv::parse_int(s, Base::Decimal)
        .map_err(|e| format!("parsing {} as int: {e}", go_quote(s)))?;
    if value.to_string() != s {
        return Err(format!("{} is not a valid int value", go_quote(s)));
    }
    let (min, max) = match bits {
        8 => (i64::from(i8::MIN), i64::from(i8::MAX)),
        16 => (i64::from(i16::MIN), i64::from(i16::MAX)),
        32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
        64 => (i64::MIN, i64::MAX),
        _ => return Err(unsupported_bits(bits)),
    };
    if value < min || value > max {
        return Err(format!(
            "value {value} does not fit in int{bits} (range [{min}, {max}])"
        ));
    }
    Ok(value)
}

/// Parses a canonical decimal integer that must fit an unsigned integer of `bits` bits
/// (upstream `ParseUnsignedInt`; `bits` is 8, 16, 32 or 64). A leading `-` is a syntax error.
///
/// Errors, in this order: `parsing "<s>" as uint: strconv.ParseUint: …`,
/// `"<s>" is not a valid uint value`, `unsupported bitSize <n>; must be 8, 16, 32, or 64`,
/// `value <v> does not fit in uint<bits> (range [0, <max>])`.
pub fn parse_unsigned_int(s: &str, bits: u32) -> Result<u64, String> {
    let value = gostrconv::parse_uint(s, Base::Decimal)
        .map_err(|e| format!("parsing {} as uint: {e}", go_quote(s)))?;
    if value.to_string() != s {
        return Err(format!("{} is not a valid uint value", go_quote(s)));
    }
    let max = match bits {
        8 => u64::from(u8::MAX),
        16 => u64::from(u16::MAX),
        32 => u64::from(u32::MAX),
        64 => u64::MAX,
        _ => return Err(unsupported_bits(bits)),
    };
    if value > max {
        return Err(format!(
            "value {value} does not fit in uint{bits} (range [0, {max}])"
        ));
    }
    Ok(value)
}

/// Parses exactly `true` or `false` (upstream `ParseBool`); anything else is
/// `"<s>" is not a valid bool value`.
pub fn parse_bool(s: &str) -> Result<bool, String> {
    match s {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{} is not a valid bool value", go_quote(s))),
    }
}

fn unsupported_bits(bits: u32) -> String {
    format!("unsupported bitSize {bits}; must be 8, 16, 32, or 64")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_int_accepts_only_canonical_decimal() {
        assert_eq!(parse_int("0"), Ok(0));
        assert_eq!(parse_int("42"), Ok(42));
        assert_eq!(parse_int("-7"), Ok(-7));
        assert_eq!(parse_int("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(
            parse_int("0100").unwrap_err(),
            r#""0100" is not a valid int value"#
        );
        assert_eq!(
            parse_int("+5").unwrap_err(),
            r#""+5" is not a valid int value"#
        );
        assert_eq!(
            parse_int("-0").unwrap_err(),
            r#""-0" is not a valid int value"#
        );
        assert_eq!(
            parse_int("0x10").unwrap_err(),
            r#"parsing "0x10" as int: strconv.Atoi: parsing "0x10": invalid syntax"#
        );
        assert_eq!(
            parse_int("").unwrap_err(),
            r#"parsing "" as int: strconv.Atoi: parsing "": invalid syntax"#
        );
        assert_eq!(
            parse_int("9223372036854775808").unwrap_err(),
            r#"parsing "9223372036854775808" as int: strconv.Atoi: parsing "9223372036854775808": value out of range"#
        );
        assert_eq!(
            parse_int("a\tb").unwrap_err(),
            r#"parsing "a\tb" as int: strconv.Atoi: parsing "a\tb": invalid syntax"#
        );
    }

    #[test]
    fn parse_signed_int_checks_width() {
        assert_eq!(parse_signed_int("127", 8), Ok(127));
        assert_eq!(parse_signed_int("-128", 8), Ok(-128));
        assert_eq!(
            parse_signed_int("128", 8).unwrap_err(),
            "value 128 does not fit in int8 (range [-128, 127])"
        );
        assert_eq!(
            parse_signed_int("-32769", 16).unwrap_err(),
            "value -32769 does not fit in int16 (range [-32768, 32767])"
        );
        assert_eq!(
            parse_signed_int("2147483648", 32).unwrap_err(),
            "value 2147483648 does not fit in int32 (range [-2147483648, 2147483647])"
        );
        assert_eq!(parse_signed_int("-9223372036854775808", 64), Ok(i64::MIN));
        assert_eq!(
            parse_signed_int("9223372036854775808", 64).unwrap_err(),
            r#"parsing "9223372036854775808" as int: strconv.ParseInt: parsing "9223372036854775808": value out of range"#
        );
        assert_eq!(
            parse_signed_int("x", 64).unwrap_err(),
            r#"parsing "x" as int: strconv.ParseInt: parsing "x": invalid syntax"#
        );
        assert_eq!(
            parse_signed_int("007", 64).unwrap_err(),
            r#""007" is not a valid int value"#
        );
        assert_eq!(
            parse_signed_int("1", 12).unwrap_err(),
            "unsupported bitSize 12; must be 8, 16, 32, or 64"
        );
        // Syntax is checked before the width.
        assert_eq!(
            parse_signed_int("+1", 12).unwrap_err(),
            r#""+1" is not a valid int value"#
        );
    }

    #[test]
    fn parse_unsigned_int_checks_width_and_sign() {
        assert_eq!(parse_unsigned_int("255", 8), Ok(255));
        assert_eq!(parse_unsigned_int("18446744073709551615", 64), Ok(u64::MAX));
        assert_eq!(
            parse_unsigned_int("256", 8).unwrap_err(),
            "value 256 does not fit in uint8 (range [0, 255])"
        );
        assert_eq!(
            parse_unsigned_int("65536", 16).unwrap_err(),
            "value 65536 does not fit in uint16 (range [0, 65535])"
        );
        assert_eq!(
            parse_unsigned_int("4294967296", 32).unwrap_err(),
            "value 4294967296 does not fit in uint32 (range [0, 4294967295])"
        );
        assert_eq!(
            parse_unsigned_int("-1", 8).unwrap_err(),
            r#"parsing "-1" as uint: strconv.ParseUint: parsing "-1": invalid syntax"#
        );
        assert_eq!(
            parse_unsigned_int("18446744073709551616", 64).unwrap_err(),
            r#"parsing "18446744073709551616" as uint: strconv.ParseUint: parsing "18446744073709551616": value out of range"#
        );
        assert_eq!(
            parse_unsigned_int("01", 8).unwrap_err(),
            r#""01" is not a valid uint value"#
        );
        assert_eq!(
            parse_unsigned_int("1", 0).unwrap_err(),
            "unsupported bitSize 0; must be 8, 16, 32, or 64"
        );
    }

    #[test]
    fn parse_bool_is_exact() {
        assert_eq!(parse_bool("true"), Ok(true));
        assert_eq!(parse_bool("false"), Ok(false));
        assert_eq!(
            parse_bool("TRUE").unwrap_err(),
            r#""TRUE" is not a valid bool value"#
        );
        assert_eq!(
            parse_bool("").unwrap_err(),
            r#""" is not a valid bool value"#
        );
    }
}
