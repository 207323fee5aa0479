//! Timestamps and durations: Go `time` semantics as cel-go uses them (RFC 3339 parsing,
//! `time.ParseDuration`, `RFC3339Nano` formatting, time-zone accessors).

use std::cmp::Ordering;
use std::fmt;

use super::error::EvalError;

/// Seconds of `0001-01-01T00:00:00Z` since the Unix epoch (the smallest CEL timestamp).
pub const MIN_UNIX_SECS: i64 = -62_135_596_800;
/// Seconds of `9999-12-31T23:59:59Z` since the Unix epoch (the largest CEL timestamp second).
pub const MAX_UNIX_SECS: i64 = 253_402_300_799;

const NANOS_PER_SEC: i64 = 1_000_000_000;

/// A duration: signed nanoseconds (Go `time.Duration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(i64);

impl Duration {
    /// A duration of `nanos` nanoseconds.
    pub const fn from_nanos(nanos: i64) -> Duration {
        Duration(nanos)
    }

    /// Total nanoseconds.
    pub const fn nanos(self) -> i64 {
        self.0
    }

    /// Go `time.ParseDuration`.
    pub fn parse(s: &str) -> Option<Duration> {
        parse_go_duration(s).map(Duration)
    }
}

impl fmt::Display for Duration {
    /// cel-go's `string(duration)`: seconds as the shortest decimal, then `s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Go computes d.Seconds() as sec + nsec/1e9 in float64, then formats with 'f', -1.
        let sec = self.0 / NANOS_PER_SEC;
        let nsec = self.0 % NANOS_PER_SEC;
        let secs = sec as f64 + nsec as f64 / 1e9;
        write!(f, "{secs}s")
    }
}

/// A point in time with the UTC offset it was written or computed in (Go `time.Time` with a
/// fixed zone). Equality and ordering use the instant only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
    offset: i32,
}

impl Timestamp {
    /// The instant `secs`.`nanos` after the epoch, in UTC; `None` outside CEL's range.
    pub fn from_unix(secs: i64, nanos: u32) -> Option<Timestamp> {
        if !(MIN_UNIX_SECS..=MAX_UNIX_SECS).contains(&secs) || nanos >= 1_000_000_000 {
            return None;
        }
        Some(Timestamp {
            secs,
            nanos,
            offset: 0,
        })
    }

    /// Unix seconds.
    pub fn secs(&self) -> i64 {
        self.secs
    }

    /// Nanoseconds within the second.
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The same instant in UTC.
    pub fn in_utc(&self) -> Timestamp {
        Timestamp { offset: 0, ..*self }
    }

    /// UTC offset in seconds that the timestamp renders in.
    pub fn offset(&self) -> i32 {
        self.offset
    }

    /// Same instant.
    pub fn same_instant(&self, other: &Timestamp) -> bool {
        self.secs == other.secs && self.nanos == other.nanos
    }

    /// Orders by instant.
    pub fn cmp_instant(&self, other: &Timestamp) -> Ordering {
        (self.secs, self.nanos).cmp(&(other.secs, other.nanos))
    }

    /// Go `time.Parse(time.RFC3339, s)`, then CEL's range check.
    pub fn parse_rfc3339(s: &str) -> Result<Timestamp, EvalError> {
        let (secs, nanos, offset) = parse_rfc3339(s).ok_or_else(|| {
            EvalError::new(
                "type conversion error from 'string' to 'google.protobuf.Timestamp'".to_string(),
            )
        })?;
        if !(MIN_UNIX_SECS..=MAX_UNIX_SECS).contains(&secs) {
            return Err(EvalError::new("timestamp overflow"));
        }
        Ok(Timestamp {
            secs,
            nanos,
            offset,
        })
    }

    /// `self + d`, keeping the offset; `timestamp overflow` outside the range.
    pub fn add(&self, d: Duration) -> Result<Timestamp, EvalError> {
        let d = d.nanos();
        let mut sec = self
            .secs
            .checked_add(d / NANOS_PER_SEC)
            .ok_or_else(|| EvalError::new("integer overflow"))?;
        let mut nsec = self.nanos as i64 + d % NANOS_PER_SEC;
        if nsec < 0 {
            nsec += NANOS_PER_SEC;
            sec -= 1;
        } else if nsec >= NANOS_PER_SEC {
            nsec -= NANOS_PER_SEC;
            sec += 1;
        }
        if !(MIN_UNIX_SECS..=MAX_UNIX_SECS).contains(&sec) {
            return Err(EvalError::new("timestamp overflow"));
        }
        Ok(Timestamp {
            secs: sec,
            nanos: nsec as u32,
            offset: self.offset,
        })
    }

    /// `self - d`.
    pub fn sub_duration(&self, d: Duration) -> Result<Timestamp, EvalError> {
        let neg = d
            .nanos()
            .checked_neg()
            .ok_or_else(|| EvalError::new("integer overflow"))?;
        self.add(Duration(neg))
    }

    /// `self - other`; `integer overflow` when it does not fit a duration.
    pub fn sub(&self, other: &Timestamp) -> Result<Duration, EvalError> {
        let overflow = || EvalError::new("integer overflow");
        let sec = self.secs.checked_sub(other.secs).ok_or_else(overflow)?;
        let nsec = self.nanos as i64 - other.nanos as i64;
        let total = sec
            .checked_mul(NANOS_PER_SEC)
            .and_then(|t| t.checked_add(nsec))
            .ok_or_else(overflow)?;
        Ok(Duration(total))
    }

    /// The civil date and time at `offset` seconds east of UTC.
    pub fn civil(&self, offset: i32) -> Civil {
        let local = self.secs + offset as i64;
        let days = local.div_euclid(86_400);
        let sod = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: (sod / 3600) as u32,
            minute: (sod % 3600 / 60) as u32,
            second: (sod % 60) as u32,
            nanos: self.nanos,
            // 1970-01-01 was a Thursday (4).
            weekday: (days + 4).rem_euclid(7) as u32,
            yday: (days - days_from_civil(year, 1, 1)) as u32,
        }
    }

    /// The UTC offset of `tz` at this instant: an IANA zone name, or `[+-]HH:MM`.
    pub fn offset_in(&self, tz: &str) -> Result<i32, EvalError> {
        if let Some(colon) = tz.find(':') {
            let hr: i64 = parse_go_atoi(&tz[..colon]).ok_or_else(|| {
                EvalError::new(format!(
                    "strconv.Atoi: parsing {:?}: invalid syntax",
                    &tz[..colon]
                ))
            })?;
            let min: i64 = parse_go_atoi(&tz[colon + 1..]).ok_or_else(|| {
                EvalError::new(format!(
                    "strconv.Atoi: parsing {:?}: invalid syntax",
                    &tz[colon + 1..]
                ))
            })?;
            if !(0..=59).contains(&min) {
                return Err(EvalError::new(format!(
                    "timezone offset minutes out of range [0, 59]: {tz}"
                )));
            }
            let minutes = if tz.starts_with('-') {
                hr * 60 - min
            } else {
                hr * 60 + min
            };
            return i32::try_from(minutes.saturating_mul(60))
                .map_err(|_| EvalError::new(format!("invalid time zone: {tz}")));
        }
        if tz.is_empty() || tz == "UTC" {
            return Ok(0);
        }
        let zone = jiff::tz::TimeZone::get(tz)
            .map_err(|_| EvalError::new(format!("unknown time zone {tz}")))?;
        let ts = jiff::Timestamp::new(self.secs, self.nanos as i32)
            .map_err(|e| EvalError::new(e.to_string()))?;
        Ok(zone.to_offset(ts).seconds())
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Self) -> bool {
        self.same_instant(other)
    }
}

impl fmt::Display for Timestamp {
    /// Go `time.RFC3339Nano` in the timestamp's own offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.civil(self.offset);
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        )?;
        if self.nanos != 0 {
            let frac = format!("{:09}", self.nanos);
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        if self.offset == 0 {
            f.write_str("Z")
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.unsigned_abs();
            write!(f, "{sign}{:02}:{:02}", o / 3600, o % 3600 / 60)
        }
    }
}

/// Calendar fields of a timestamp in some zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    /// Full year.
    pub year: i64,
    /// Month 1–12.
    pub month: u32,
    /// Day of month 1–31.
    pub day: u32,
    /// Hour 0–23.
    pub hour: u32,
    /// Minute 0–59.
    pub minute: u32,
    /// Second 0–59.
    pub second: u32,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// Day of week, 0 = Sunday.
    pub weekday: u32,
    /// Day of year, 0-based.
    pub yday: u32,
}

/// Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic: 400-year cycles of
/// 146097 days).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (inverse of [`days_from_civil`]).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go `strconv.Atoi` on small inputs: optional sign, decimal digits.
fn parse_go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn digits(s: &[u8], at: usize, n: usize) -> Option<u32> {
    let part = s.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(part.iter().fold(0, |a, &b| a * 10 + (b - b'0') as u32))
}

/// Go `time.Parse(time.RFC3339, s)`: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`. Returns unix
/// seconds, nanoseconds and the offset.
fn parse_rfc3339(s: &str) -> Option<(i64, u32, i32)> {
    let b = s.as_bytes();
    let year = digits(b, 0, 4)? as i64;
    if b.get(4) != Some(&b'-') {
        return None;
    }
    let month = digits(b, 5, 2)?;
    if b.get(7) != Some(&b'-') {
        return None;
    }
    let day = digits(b, 8, 2)?;
    if b.get(10) != Some(&b'T') {
        return None;
    }
    let hour = digits(b, 11, 2)?;
    if b.get(13) != Some(&b':') {
        return None;
    }
    let minute = digits(b, 14, 2)?;
    if b.get(16) != Some(&b':') {
        return None;
    }
    let second = digits(b, 17, 2)?;
    let mut i = 19;
    let mut nanos = 0u32;
    if matches!(b.get(i), Some(b'.') | Some(b',')) {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let frac = &b[start..i];
        if frac.is_empty() {
            return None;
        }
        for k in 0..9 {
            nanos = nanos * 10 + frac.get(k).map_or(0, |d| (d - b'0') as u32);
        }
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() => {
            let oh = digits(b, i + 1, 2)?;
            if b[i + 3] != b':' {
                return None;
            }
            let om = digits(b, i + 4, 2)?;
            if oh >= 24 || om >= 60 {
                return None;
            }
            let o = (oh * 3600 + om * 60) as i32;
            if sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + (hour * 3600 + minute * 60 + second) as i64 - offset as i64;
    Some((secs, nanos, offset))
}

/// Go `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with units
/// `ns us µs μs ms s m h`, or `0`. `None` on syntax errors and overflow.
fn parse_go_duration(s: &str) -> Option<i64> {
    let mut rest = s;
    let mut neg = false;
    if let Some(r) = rest.strip_prefix('-') {
        neg = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('+') {
        rest = r;
    }
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    // Accumulate in u64 like Go, allowing exactly 1<<63 for the negative minimum.
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let b = rest.as_bytes();
        if !(b[0] == b'.' || b[0].is_ascii_digit()) {
            return None;
        }
        let int_end = b
            .iter()
            .position(|c| !c.is_ascii_digit())
            .unwrap_or(b.len());
        let int_part = &rest[..int_end];
        let mut v: u64 = 0;
        for d in int_part.bytes() {
            v = v.checked_mul(10)?.checked_add((d - b'0') as u64)?;
            if v > 1 << 63 {
                return None;
            }
        }
        rest = &rest[int_end..];
        let mut frac: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut had_frac_digits = false;
        if let Some(r) = rest.strip_prefix('.') {
            rest = r;
            let fe = rest
                .bytes()
                .position(|c| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let mut overflow = false;
            for d in rest[..fe].bytes() {
                had_frac_digits = true;
                if overflow {
                    continue;
                }
                if frac > (u64::MAX >> 1) / 10 {
                    overflow = true;
                    continue;
                }
                frac = frac * 10 + (d - b'0') as u64;
                scale *= 10.0;
            }
            rest = &rest[fe..];
        }
        if int_part.is_empty() && !had_frac_digits {
            return None;
        }
        let ue = rest
            .char_indices()
            .find(|&(_, c)| c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        let unit: u64 = match &rest[..ue] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        rest = &rest[ue..];
        if v > (1u64 << 63) / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            v = v.checked_add((frac as f64 * (unit as f64 / scale)) as u64)?;
            if v > 1 << 63 {
                return None;
            }
        }
        total = total.checked_add(v)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        Some((total as i128).wrapping_neg() as i64)
    } else if total > i64::MAX as u64 {
        None
    } else {
        Some(total as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for days in [-719_162, -1, 0, 1, 10_957, 11_016, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn parses_and_formats_rfc3339() {
        let t = Timestamp::parse_rfc3339("2009-02-13T23:31:30Z").unwrap();
        assert_eq!(t.secs(), 1_234_567_890);
        assert_eq!(t.to_string(), "2009-02-13T23:31:30Z");
        let t = Timestamp::parse_rfc3339("9999-12-31T23:59:59.999999999Z").unwrap();
        assert_eq!(t.to_string(), "9999-12-31T23:59:59.999999999Z");
        let t = Timestamp::parse_rfc3339("2000-01-01T00:00:00.5+01:30").unwrap();
        assert_eq!(t.to_string(), "2000-01-01T00:00:00.5+01:30");
        assert_eq!(t.secs(), 946_684_800 - 5400);
        assert!(Timestamp::parse_rfc3339("2000-01-01T00:00:00").is_err());
        assert!(Timestamp::parse_rfc3339("2001-02-29T00:00:00Z").is_err());
        assert_eq!(
            Timestamp::parse_rfc3339("0000-01-01T00:00:00Z")
                .unwrap_err()
                .message,
            "timestamp overflow"
        );
    }

    #[test]
    fn accessors_in_zones() {
        let t = Timestamp::parse_rfc3339("2009-02-13T23:31:30Z").unwrap();
        let c = t.civil(0);
        assert_eq!((c.weekday, c.yday, c.hour), (5, 43, 23));
        assert_eq!(t.offset_in("Australia/Sydney").unwrap(), 11 * 3600);
        assert_eq!(t.offset_in("Asia/Kathmandu").unwrap(), 5 * 3600 + 45 * 60);
        assert_eq!(t.offset_in("-02:30").unwrap(), -(2 * 3600 + 30 * 60));
        assert_eq!(t.offset_in("02:00").unwrap(), 7200);
        assert!(t.offset_in("+01:60").is_err());
        assert!(t.offset_in("Nowhere/Special").is_err());
    }

    #[test]
    fn go_durations() {
        let p = |s| parse_go_duration(s);
        assert_eq!(p("1h30m"), Some(5_400_000_000_000));
        assert_eq!(p("1.5s"), Some(1_500_000_000));
        assert_eq!(p("-1m1ms"), Some(-60_001_000_000));
        assert_eq!(p("1µs"), Some(1000));
        assert_eq!(p("0"), Some(0));
        assert_eq!(p(".5ms"), Some(500_000));
        assert_eq!(p("1d"), None);
        assert_eq!(p(""), None);
        assert_eq!(p("1"), None);
        assert_eq!(p("320000000000s"), None);
        assert_eq!(p("-9223372036854775808ns"), Some(i64::MIN));
        assert_eq!(p("9223372036854775808ns"), None);
        assert_eq!(Duration(60_001_000_000).to_string(), "60.001s");
        assert_eq!(Duration(5_400_000_000_000).to_string(), "5400s");
        assert_eq!(Duration(1).to_string(), "0.000000001s");
    }

    #[test]
    fn arithmetic_ranges() {
        let max = Timestamp::parse_rfc3339("9999-12-31T23:59:59.999999999Z").unwrap();
        assert!(max.add(Duration(1)).is_err());
        let min = Timestamp::parse_rfc3339("0001-01-01T00:00:00Z").unwrap();
        assert!(min.add(Duration(-1)).is_err());
        assert!(max.sub(&min).is_err());
        let t = Timestamp::parse_rfc3339("0001-01-01T00:00:01.000000001Z").unwrap();
        let u = t.add(Duration(-999_999_999)).unwrap();
        assert_eq!(u.to_string(), "0001-01-01T00:00:00.000000002Z");
    }
}
