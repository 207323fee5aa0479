//! `metav1.Time` as ObjectMeta's timestamps hold it: decoded by Go's `time.Parse` with the
//! RFC 3339 layout (with Go's exact `*time.ParseError` texts), compared as instants (the
//! semantic equality `a.UTC() == b.UTC()`), and printed as `Time.MarshalJSON` prints it.

use std::fmt::Write;

/// The layout `metav1.Time.UnmarshalJSON` parses with (`time.RFC3339`).
const RFC3339: &str = "2006-01-02T15:04:05Z07:00";

/// Seconds from 0001-01-01T00:00:00Z (Go's zero `time.Time`) to the Unix epoch.
const ZERO_UNIX: i64 = -62_135_596_800;

/// An instant with nanoseconds, as a decoded `metav1.Time` holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoTime {
    /// Seconds since the Unix epoch (UTC).
    pub unix: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
}

impl GoTime {
    /// Go's zero `time.Time` (`0001-01-01T00:00:00Z`): what an absent or `null` timestamp
    /// decodes to.
    pub const ZERO: GoTime = GoTime {
        unix: ZERO_UNIX,
        nanos: 0,
    };

    /// Go's `Time.IsZero`.
    pub fn is_zero(self) -> bool {
        self == GoTime::ZERO
    }

    /// `metav1.Time.MarshalJSON` without the quotes: the UTC instant in RFC 3339 to the second
    /// (fractions are dropped); `None` for the zero time, which marshals as `null`.
    pub fn marshal(self) -> Option<String> {
        if self.is_zero() {
            return None;
        }
        let days = self.unix.div_euclid(86_400);
        let secs = self.unix.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let mut out = String::with_capacity(20);
        append_year(&mut out, year);
        // Writing into a String cannot fail.
        let _ = write!(
            out,
            "-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        );
        Some(out)
    }

    /// The JSON value `json.Marshal` gives for this time (a string, or `null` when zero).
    pub fn to_json(self) -> serde_json::Value {
        self.marshal()
            .map_or(serde_json::Value::Null, serde_json::Value::String)
    }
}

impl Default for GoTime {
    /// The zero time.
    fn default() -> Self {
        GoTime::ZERO
    }
}

/// Go's `appendInt(b, year, 4)`: a sign for negative years, then at least four digits.
fn append_year(out: &mut String, year: i64) {
    if year < 0 {
        out.push('-');
    }
    // Writing into a String cannot fail.
    let _ = write!(out, "{:04}", year.unsigned_abs());
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go's `time` package `quote`: ASCII printable bytes as themselves (with `"` and `\`
/// escaped), every byte of a control or non-ASCII character as `\xNN`.
fn time_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if !c.is_ascii() || c < ' ' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                // Writing into a String cannot fail.
                let _ = write!(out, "\\x{b:02x}");
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// `*time.ParseError` with an empty message: `cannot parse <elem> as <layout elem>`.
fn cannot_parse(value: &str, value_elem: &str, layout_elem: &str) -> String {
    format!(
        "parsing time {} as {}: cannot parse {} as {}",
        time_quote(value),
        time_quote(RFC3339),
        time_quote(value_elem),
        time_quote(layout_elem)
    )
}

/// `*time.ParseError` with a message (`: month out of range`, `: extra text: "x"`).
fn with_message(value: &str, message: &str) -> String {
    format!("parsing time {}{message}", time_quote(value))
}

fn digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

/// Go's `getnum`: one or two digits (`fixed`: exactly two).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    if !digit(s, 0) {
        return None;
    }
    if !digit(s, 1) {
        if fixed {
            return None;
        }
        return Some((i64::from(s[0] - b'0'), &s[1..]));
    }
    Some((
        i64::from(s[0] - b'0') * 10 + i64::from(s[1] - b'0'),
        &s[2..],
    ))
}

/// The rest of `value` from byte `at` as text. Every cut happens after ASCII bytes the
/// parser consumed, so it lies on a character boundary; the fallback is never taken.
fn rest(value: &str, at: usize) -> &str {
    value.get(at..).unwrap_or("")
}

/// Parses `value` as `time.Parse(time.RFC3339, value)` does, returning Go's error text.
pub fn parse_rfc3339(value: &str) -> Result<GoTime, String> {
    let b = value.as_bytes();
    let mut pos = 0usize;
    // `skip(value, prefix)` of a one-byte literal between fields.
    let skip = |pos: &mut usize, lit: u8, elem: &str| -> Result<(), String> {
        if b.get(*pos) == Some(&lit) {
            *pos += 1;
            Ok(())
        } else {
            Err(cannot_parse(value, rest(value, *pos), elem))
        }
    };
    let bad = |hold: usize, elem: &str| cannot_parse(value, rest(value, hold), elem);
    let range = |what: &str| with_message(value, &format!(": {what} out of range"));

    // 2006: four bytes, the first a digit, then Go's atoi.
    let hold = pos;
    if b.len() < 4 || !digit(b, 0) || !b[1..4].iter().all(u8::is_ascii_digit) {
        return Err(bad(hold, "2006"));
    }
    let year = b[..4]
        .iter()
        .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
    pos = 4;

    skip(&mut pos, b'-', "-")?;
    let hold = pos;
    let (month, r) = getnum(&b[pos..], true).ok_or_else(|| bad(hold, "01"))?;
    pos = b.len() - r.len();
    if !(1..=12).contains(&month) {
        return Err(range("month"));
    }

    skip(&mut pos, b'-', "-")?;
    let hold = pos;
    let (day, r) = getnum(&b[pos..], true).ok_or_else(|| bad(hold, "02"))?;
    pos = b.len() - r.len();

    skip(&mut pos, b'T', "T")?;
    let hold = pos;
    let (hour, r) = getnum(&b[pos..], false).ok_or_else(|| bad(hold, "15"))?;
    pos = b.len() - r.len();
    if hour >= 24 {
        return Err(range("hour"));
    }

    skip(&mut pos, b':', ":")?;
    let hold = pos;
    let (min, r) = getnum(&b[pos..], true).ok_or_else(|| bad(hold, "04"))?;
    pos = b.len() - r.len();
    if min >= 60 {
        return Err(range("minute"));
    }

    skip(&mut pos, b':', ":")?;
    let hold = pos;
    let (sec, r) = getnum(&b[pos..], true).ok_or_else(|| bad(hold, "05"))?;
    pos = b.len() - r.len();
    if sec >= 60 {
        return Err(range("second"));
    }
    // A fraction after the seconds is accepted although the layout has none; digits past
    // the ninth are consumed and ignored.
    let mut nanos = 0u32;
    if matches!(b.get(pos), Some(b'.' | b',')) && digit(b, pos + 1) {
        let mut n = pos + 1;
        while digit(b, n) {
            n += 1;
        }
        let digits = &b[pos + 1..n.min(pos + 10)];
        let mut ns = digits
            .iter()
            .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        for _ in digits.len()..9 {
            ns *= 10;
        }
        nanos = ns;
        pos = n;
    }

    // Z07:00
    let hold = pos;
    let offset = if b.get(pos) == Some(&b'Z') {
        pos += 1;
        0
    } else {
        let tz = &b[pos..];
        if tz.len() < 6 || tz[3] != b':' {
            return Err(bad(hold, "Z07:00"));
        }
        let hr = getnum(&tz[1..3], true).map(|(n, _)| n);
        let mm = hr.and_then(|_| getnum(&tz[4..6], true).map(|(n, _)| n));
        pos += 6;
        // Go checks the ranges before the syntax errors of the same element.
        if let Some(h) = hr
            && h > 24
        {
            return Err(range("time zone offset hour"));
        }
        if let Some(m) = mm
            && m > 60
        {
            return Err(range("time zone offset minute"));
        }
        let (Some(h), Some(m)) = (hr, mm) else {
            return Err(bad(hold, "Z07:00"));
        };
        match tz[0] {
            b'+' => (h * 60 + m) * 60,
            b'-' => -((h * 60 + m) * 60),
            _ => return Err(bad(hold, "Z07:00")),
        }
    };

    if pos != b.len() {
        let extra = rest(value, pos);
        return Err(with_message(
            value,
            &format!(": extra text: {}", time_quote(extra)),
        ));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(with_message(value, ": day out of range"));
    }
    let unix = days_from_civil(year, month, day) * 86_400 + hour * 3600 + min * 60 + sec - offset;
    Ok(GoTime { unix, nanos })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(v: &str) -> String {
        parse_rfc3339(v).unwrap_err()
    }

    #[test]
    fn parses_and_marshals() {
        let t = parse_rfc3339("1970-01-01T00:16:40Z").unwrap();
        assert_eq!(
            t,
            GoTime {
                unix: 1000,
                nanos: 0
            }
        );
        assert_eq!(t.marshal().as_deref(), Some("1970-01-01T00:16:40Z"));
        let t = parse_rfc3339("2024-02-29T23:59:59.123456789123+02:30").unwrap();
        assert_eq!(t.nanos, 123_456_789);
        assert_eq!(t.marshal().as_deref(), Some("2024-02-29T21:29:59Z"));
        let t = parse_rfc3339("2021-06-01T5:04:05,5-01:00").unwrap();
        assert_eq!(t.marshal().as_deref(), Some("2021-06-01T06:04:05Z"));
        assert_eq!(t.nanos, 500_000_000);
        assert!(parse_rfc3339("0001-01-01T00:00:00Z").unwrap().is_zero());
        assert_eq!(GoTime::ZERO.marshal(), None);
        assert_eq!(GoTime::ZERO.to_json(), serde_json::Value::Null);
        let t = parse_rfc3339("0000-01-01T00:00:00+01:00").unwrap();
        assert_eq!(t.marshal().as_deref(), Some("-0001-12-31T23:00:00Z"));
        // Offsets of 24 hours and 60 minutes are accepted, as Go accepts them.
        assert!(parse_rfc3339("2021-01-01T00:00:00+24:60").is_ok());
    }

    #[test]
    fn go_error_texts() {
        const L: &str = "\"2006-01-02T15:04:05Z07:00\"";
        assert_eq!(
            err("abc"),
            format!("parsing time \"abc\" as {L}: cannot parse \"abc\" as \"2006\"")
        );
        assert_eq!(
            err(""),
            format!("parsing time \"\" as {L}: cannot parse \"\" as \"2006\"")
        );
        assert_eq!(
            err("2021"),
            format!("parsing time \"2021\" as {L}: cannot parse \"\" as \"-\"")
        );
        assert_eq!(
            err("2021-1-01T00:00:00Z"),
            format!(
                "parsing time \"2021-1-01T00:00:00Z\" as {L}: cannot parse \"1-01T00:00:00Z\" as \"01\""
            )
        );
        assert_eq!(
            err("2021-13-01T00:00:00Z"),
            "parsing time \"2021-13-01T00:00:00Z\": month out of range"
        );
        assert_eq!(
            err("2021-02-30T00:00:00Z"),
            "parsing time \"2021-02-30T00:00:00Z\": day out of range"
        );
        assert_eq!(
            err("2021-01-01"),
            format!("parsing time \"2021-01-01\" as {L}: cannot parse \"\" as \"T\"")
        );
        assert_eq!(
            err("2021-01-01 00:00:00Z"),
            format!(
                "parsing time \"2021-01-01 00:00:00Z\" as {L}: cannot parse \" 00:00:00Z\" as \"T\""
            )
        );
        assert_eq!(
            err("2021-01-01T24:00:00Z"),
            "parsing time \"2021-01-01T24:00:00Z\": hour out of range"
        );
        assert_eq!(
            err("2021-01-01T00:60:00Z"),
            "parsing time \"2021-01-01T00:60:00Z\": minute out of range"
        );
        assert_eq!(
            err("2021-01-01T00:00:60Z"),
            "parsing time \"2021-01-01T00:00:60Z\": second out of range"
        );
        assert_eq!(
            err("2021-01-01T00:00:00"),
            format!("parsing time \"2021-01-01T00:00:00\" as {L}: cannot parse \"\" as \"Z07:00\"")
        );
        assert_eq!(
            err("2021-01-01T00:00:00+0100"),
            format!(
                "parsing time \"2021-01-01T00:00:00+0100\" as {L}: cannot parse \"+0100\" as \"Z07:00\""
            )
        );
        assert_eq!(
            err("2021-01-01T00:00:00+25:00"),
            "parsing time \"2021-01-01T00:00:00+25:00\": time zone offset hour out of range"
        );
        assert_eq!(
            err("2021-01-01T00:00:00Zjunk"),
            "parsing time \"2021-01-01T00:00:00Zjunk\": extra text: \"junk\""
        );
        assert_eq!(
            err("2021-01-01T00:00:00.Z"),
            format!(
                "parsing time \"2021-01-01T00:00:00.Z\" as {L}: cannot parse \".Z\" as \"Z07:00\""
            )
        );
        assert_eq!(
            err("é"),
            format!("parsing time \"\\xc3\\xa9\" as {L}: cannot parse \"\\xc3\\xa9\" as \"2006\"")
        );
    }

    #[test]
    fn civil_round_trip() {
        for days in [-800_000i64, -719_468, -1, 0, 1, 11_016, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(days_from_civil(1, 1, 1) * 86_400, ZERO_UNIX);
    }
}
