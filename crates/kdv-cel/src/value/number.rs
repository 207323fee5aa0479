//! Numbers: comparisons of ints and uints with doubles as cel-go makes them, lossless
//! conversions of doubles to integers, and Go's `%g` rendering of doubles.

use std::cmp::Ordering;

/// `d` as an i64 if it is integral and in range.
pub fn double_to_i64_lossless(d: f64) -> Option<i64> {
    if d.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&d) {
        Some(d as i64)
    } else {
        None
    }
}

/// `d` as a u64 if it is integral and in range.
pub fn double_to_u64_lossless(d: f64) -> Option<u64> {
    if d.fract() == 0.0 && (0.0..1.844_674_407_370_955_2e19).contains(&d) {
        Some(d as u64)
    } else {
        None
    }
}

/// cel-go `compareIntDouble`: doubles outside the int range order outside it; otherwise the
/// int is compared as a double (so `MaxInt64` equals `2^63` as a double).
pub(crate) fn cmp_i64_f64(i: i64, d: f64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < i64::MIN as f64 {
        return Some(Ordering::Greater);
    }
    if d > i64::MAX as f64 {
        return Some(Ordering::Less);
    }
    (i as f64).partial_cmp(&d)
}

/// cel-go `compareUintDouble`, as [`cmp_i64_f64`] for uints.
pub(crate) fn cmp_u64_f64(u: u64, d: f64) -> Option<Ordering> {
    if d.is_nan() {
        return None;
    }
    if d < 0.0 {
        return Some(Ordering::Greater);
    }
    if d > u64::MAX as f64 {
        return Some(Ordering::Less);
    }
    (u as f64).partial_cmp(&d)
}

/// Go `strconv.FormatFloat(d, 'g', -1, 64)` (cel-go's `string(double)`): shortest round-trip
/// digits; exponent form (at least two exponent digits) iff the decimal exponent is < -4 or
/// ≥ 6, Go's threshold for shortest `%g`.
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    if d == 0.0 {
        return if d.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // Shortest digits and decimal exponent from Rust's `{:e}` (also shortest round-trip).
    let e = format!("{d:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let nd = digits.len() as i32;
    let eprec = 6;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp < -4 || exp >= eprec {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let a = exp.unsigned_abs();
        if a < 10 {
            out.push('0');
        }
        out.push_str(&a.to_string());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            out.push_str(&digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_g_formatting() {
        for (d, s) in [
            (1234567.0, "1.234567e+06"),
            (123456.0, "123456"),
            (1e20, "1e+20"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.0, "1"),
            (123.456, "123.456"),
            (-4.5e-3, "-0.0045"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
            (1e100, "1e+100"),
            (12345678.9, "1.23456789e+07"),
            (100000.0, "100000"),
            (1000000.0, "1e+06"),
            (0.1, "0.1"),
            (-0.0, "-0"),
        ] {
            assert_eq!(format_double(d), s, "{d}");
        }
    }
}
