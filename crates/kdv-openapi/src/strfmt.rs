//! The string formats of kube-openapi's `strfmt.Default` registry, as the API server checks
//! them on custom resources (`<path> in body must be of type <format>: "<value>"`).
//!
//! Each validator follows its Go original: the go-openapi/govalidator regexes (in Go RE2
//! syntax, compiled through kdv-cel's translation so `\d` and `\s` stay ASCII), Go's
//! `net.ParseIP`/`ParseMAC`, k8s.io/utils' `ParseIPSloppy`/`ParseCIDRSloppy` (IPv4 fields
//! may have leading zeros), `url.ParseRequestURI`, `net/mail.ParseAddress`, `time.Parse`
//! and `time.ParseDuration`.

use std::sync::OnceLock;

use regex::Regex;

use crate::schema::FormatKind;

/// Whether `s` is valid for the format `kind` (`Other` formats are not validated).
pub fn validates(kind: FormatKind, s: &str) -> bool {
    match kind {
        FormatKind::BsonObjectId => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        FormatKind::Uri => kdv_cel::library::k8s::urls::parse_request_uri(s).is_ok(),
        FormatKind::Email => is_email(s),
        FormatKind::Hostname => is_hostname(s),
        FormatKind::Ipv4 => parse_ip_sloppy(s).is_some() && s.contains('.'),
        FormatKind::Ipv6 => parse_ip(s, false).is_some() && s.contains(':'),
        FormatKind::Cidr => is_cidr_sloppy(s),
        FormatKind::Mac => is_mac(s),
        FormatKind::Uuid => re(&UUID).is_match(s),
        FormatKind::Uuid3 => re(&UUID3).is_match(s),
        FormatKind::Uuid4 => re(&UUID4).is_match(s),
        FormatKind::Uuid5 => re(&UUID5).is_match(s),
        FormatKind::Isbn => is_isbn10(s) || is_isbn13(s),
        FormatKind::Isbn10 => is_isbn10(s),
        FormatKind::Isbn13 => is_isbn13(s),
        FormatKind::CreditCard => is_credit_card(s),
        FormatKind::Ssn => s.len() == 11 && re(&SSN).is_match(s),
        FormatKind::HexColor => re(&HEXCOLOR).is_match(s),
        FormatKind::RgbColor => re(&RGBCOLOR).is_match(s),
        FormatKind::Byte => re(&BASE64).is_match(s),
        FormatKind::Password => true,
        FormatKind::Date => is_date(s),
        FormatKind::Duration => is_duration(s),
        FormatKind::DateTime => is_date_time(s),
        FormatKind::K8sShortName => s.len() <= 63 && re(&SHORT_NAME).is_match(s),
        FormatKind::K8sLongName => s.len() <= 253 && re(&LONG_NAME).is_match(s),
        FormatKind::Other => true,
    }
}

/// A Go pattern compiled once.
struct GoRegex {
    pattern: &'static str,
    cell: OnceLock<Regex>,
}

impl GoRegex {
    const fn new(pattern: &'static str) -> GoRegex {
        GoRegex {
            pattern,
            cell: OnceLock::new(),
        }
    }
}

fn re(r: &'static GoRegex) -> &'static Regex {
    r.cell.get_or_init(|| {
        // The patterns are constants of this module, tested to compile
        // (`tests::patterns_compile`); an empty regex would only be reached if that test
        // failed.
        kdv_cel::library::regex::compile(r.pattern)
            .unwrap_or_else(|_| Regex::new("$^").unwrap_or_else(|_| unreachable!()))
    })
}

/// One character of strfmt's hostname pattern: `[a-zA-Z0-9\p{S}\p{L}]`.
static HOST_CHAR: GoRegex = GoRegex::new(r"^[a-zA-Z0-9\p{S}\p{L}]$");
/// A top-level-domain character: `[a-zA-Z\p{L}]`.
static TLD_CHAR: GoRegex = GoRegex::new(r"^[a-zA-Z\p{L}]$");
static UUID: GoRegex =
    GoRegex::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
static UUID3: GoRegex =
    GoRegex::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
static UUID4: GoRegex =
    GoRegex::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
static UUID5: GoRegex =
    GoRegex::new(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
static CREDIT_CARD: GoRegex = GoRegex::new(
    r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$",
);
static ISBN10: GoRegex = GoRegex::new(r"^(?:[0-9]{9}X|[0-9]{10})$");
static ISBN13: GoRegex = GoRegex::new(r"^(?:[0-9]{13})$");
static HEXCOLOR: GoRegex = GoRegex::new(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
static RGBCOLOR: GoRegex = GoRegex::new(
    r"^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$",
);
static BASE64: GoRegex = GoRegex::new(
    r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$",
);
static SSN: GoRegex = GoRegex::new(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$");
static NOT_NUMBER: GoRegex = GoRegex::new(r"[^0-9]+");
static SPACES_AND_MINUS: GoRegex = GoRegex::new(r"[\s-]+");
static DATE_TIME: GoRegex =
    GoRegex::new(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$");
static DURATION: GoRegex = GoRegex::new(r"((\d+)\s*([A-Za-zµ]+))");
static SHORT_NAME: GoRegex = GoRegex::new(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
static LONG_NAME: GoRegex =
    GoRegex::new(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

#[cfg(test)]
const ALL_PATTERNS: [&GoRegex; 19] = [
    &HOST_CHAR,
    &TLD_CHAR,
    &UUID,
    &UUID3,
    &UUID4,
    &UUID5,
    &CREDIT_CARD,
    &ISBN10,
    &ISBN13,
    &HEXCOLOR,
    &RGBCOLOR,
    &BASE64,
    &SSN,
    &NOT_NUMBER,
    &SPACES_AND_MINUS,
    &DATE_TIME,
    &DURATION,
    &SHORT_NAME,
    &LONG_NAME,
];

/// strfmt's `IsHostname`: its pattern
/// `^(A((-?A{0,62})?)|(A(([A-]{0,61}A)?)(\.)){1,}(T){2,63})$` (`A` a letter, digit or
/// symbol, `T` a letter), at most 255 bytes, labels of at most 63 bytes. The pattern is
/// matched by hand: with Unicode classes under counted repetitions it compiles to more than
/// the `regex` crate's size limit.
fn is_hostname(s: &str) -> bool {
    s.len() <= 255 && s.split('.').all(|p| p.len() <= 63) && hostname_pattern(s)
}

fn hostname_pattern(s: &str) -> bool {
    let host = |c: char| {
        let mut buf = [0u8; 4];
        re(&HOST_CHAR).is_match(c.encode_utf8(&mut buf))
    };
    let tld = |c: char| {
        let mut buf = [0u8; 4];
        re(&TLD_CHAR).is_match(c.encode_utf8(&mut buf))
    };
    let chars: Vec<char> = s.chars().collect();
    // First alternative: A, then an optional `-`, then at most 62 A.
    let first = match chars.as_slice() {
        [] => false,
        [a, rest @ ..] => {
            let rest = rest.strip_prefix(&['-']).unwrap_or(rest);
            host(*a) && rest.len() <= 62 && rest.iter().all(|&c| host(c))
        }
    };
    if first {
        return true;
    }
    // Second alternative: one or more `A([A-]{0,61}A)?.` labels, then 2 to 63 T.
    let Some(last_dot) = chars.iter().rposition(|&c| c == '.') else {
        return false;
    };
    let tail = &chars[last_dot + 1..];
    if !(2..=63).contains(&tail.len()) || !tail.iter().all(|&c| tld(c)) {
        return false;
    }
    chars[..last_dot]
        .split(|&c| c == '.')
        .all(|label| match label {
            [] => false,
            [a] => host(*a),
            [a, middle @ .., z] => {
                host(*a)
                    && host(*z)
                    && middle.len() <= 61
                    && middle.iter().all(|&c| c == '-' || host(c))
            }
        })
}

/// govalidator's `IsCreditCard`: non-digits removed, the pattern, then Luhn.
fn is_credit_card(s: &str) -> bool {
    let sanitized = re(&NOT_NUMBER).replace_all(s, "");
    if !re(&CREDIT_CARD).is_match(&sanitized) {
        return false;
    }
    let mut sum = 0u32;
    let mut double = false;
    for b in sanitized.bytes().rev() {
        let mut d = u32::from(b - b'0');
        if double {
            d *= 2;
            sum += if d >= 10 { d % 10 + 1 } else { d };
        } else {
            sum += d;
        }
        double = !double;
    }
    sum.is_multiple_of(10)
}

/// govalidator's `IsISBN(s, 10)`.
fn is_isbn10(s: &str) -> bool {
    let sanitized = re(&SPACES_AND_MINUS).replace_all(s, "");
    if !re(&ISBN10).is_match(&sanitized) {
        return false;
    }
    let b = sanitized.as_bytes();
    let mut checksum: i32 = 0;
    for (i, &c) in b.iter().take(9).enumerate() {
        checksum += (i as i32 + 1) * i32::from(c - b'0');
    }
    checksum += if b[9] == b'X' {
        100
    } else {
        10 * i32::from(b[9] - b'0')
    };
    checksum % 11 == 0
}

/// govalidator's `IsISBN(s, 13)`.
fn is_isbn13(s: &str) -> bool {
    let sanitized = re(&SPACES_AND_MINUS).replace_all(s, "");
    if !re(&ISBN13).is_match(&sanitized) {
        return false;
    }
    let b = sanitized.as_bytes();
    let mut checksum: i32 = 0;
    for (i, &c) in b.iter().take(12).enumerate() {
        let factor = if i % 2 == 0 { 1 } else { 3 };
        checksum += factor * i32::from(c - b'0');
    }
    i32::from(b[12] - b'0') - ((10 - checksum % 10) % 10) == 0
}

/// Go's `time.Parse("2006-01-02", s)`.
pub(crate) fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let mut n = 0u32;
        for &c in &b[r] {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + u32::from(c - b'0');
        }
        Some(n)
    };
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    if !(1..=12).contains(&month) || day < 1 {
        return false;
    }
    day <= days_in(month, year)
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// strfmt's `IsDateTime`.
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !is_date(date) {
        return false;
    }
    let Some(c) = re(&DATE_TIME).captures(time) else {
        return false;
    };
    let field = |i: usize| c.get(i).map_or("", |m| m.as_str());
    field(1) <= "23" && field(2) <= "59" && field(3) <= "59"
}

/// strfmt's `ParseDuration` succeeds: Go's `time.ParseDuration`, else at least one
/// `<digits><unit>` with a unit strfmt knows (and every number fits an `int`).
fn is_duration(s: &str) -> bool {
    if go_parse_duration(s) {
        return true;
    }
    const UNITS: [&[&str]; 8] = [
        &["ns", "nano"],
        &["us", "µs", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    let mut ok = false;
    for c in re(&DURATION).captures_iter(s) {
        let digits = c.get(2).map_or("", |m| m.as_str());
        if digits.parse::<i64>().is_err() {
            return false;
        }
        let unit = c
            .get(3)
            .map_or(String::new(), |m| m.as_str().trim().to_lowercase());
        for variants in UNITS {
            let last = variants.len() - 1;
            for (i, variant) in variants.iter().enumerate() {
                if (i == last && unit.starts_with(variant)) || unit.eq_ignore_ascii_case(variant) {
                    ok = true;
                }
            }
        }
    }
    ok
}

/// Go's `time.ParseDuration` succeeds (`[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, units ns, us,
/// µs, μs, ms, s, m, h; `0` alone; overflow of int64 nanoseconds fails).
fn go_parse_duration(s: &str) -> bool {
    let mut rest = s;
    if let Some(r) = rest.strip_prefix(['-', '+']) {
        rest = r;
    }
    if rest == "0" {
        return true;
    }
    if rest.is_empty() {
        return false;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let int_part = &rest[..int_len];
        rest = &rest[int_len..];
        let mut frac_part = "";
        let mut had_dot = false;
        if let Some(r) = rest.strip_prefix('.') {
            had_dot = true;
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            frac_part = &r[..n];
            rest = &r[n..];
        }
        if int_part.is_empty() && frac_part.is_empty() {
            // "." alone, or no digits at all.
            let _ = had_dot;
            return false;
        }
        let unit_len = rest
            .char_indices()
            .find(|&(_, c)| c == '.' || c.is_ascii_digit())
            .map_or(rest.len(), |(i, _)| i);
        if unit_len == 0 {
            return false;
        }
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let nanos: f64 = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return false,
        };
        // Go accumulates in uint64 and fails above 1<<63; a float estimate decides the
        // same for all but values within rounding of the limit.
        let v: f64 = format!(
            "{}.{}",
            if int_part.is_empty() { "0" } else { int_part },
            if frac_part.is_empty() { "0" } else { frac_part }
        )
        .parse()
        .unwrap_or(f64::INFINITY);
        if int_part.len() > 19 {
            return false;
        }
        total += v * nanos;
        if total > 9.223_372_036_854_776e18 {
            return false;
        }
    }
    true
}

/// Go's `net.ParseIP` (strict: no leading zeros in IPv4 fields, no zone) when `sloppy` is
/// false; k8s.io/utils' `ParseIPSloppy` (leading zeros allowed) when true. Returns the
/// address bytes (4 or 16).
fn parse_ip(s: &str, sloppy: bool) -> Option<Vec<u8>> {
    if s.contains(':') {
        parse_ipv6(s, sloppy)
    } else {
        parse_ipv4(s, sloppy).map(|a| a.to_vec())
    }
}

fn parse_ip_sloppy(s: &str) -> Option<Vec<u8>> {
    parse_ip(s, true)
}

fn parse_ipv4(s: &str, sloppy: bool) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut fields = s.split('.');
    for slot in &mut out {
        let f = fields.next()?;
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !sloppy && (f.len() > 3 || (f.len() > 1 && f.starts_with('0'))) {
            return None;
        }
        let mut n: u32 = 0;
        for b in f.bytes() {
            n = n * 10 + u32::from(b - b'0');
            if n > 0xFF {
                return None;
            }
        }
        *slot = n as u8;
    }
    if fields.next().is_some() {
        return None;
    }
    Some(out)
}

fn parse_ipv6(s: &str, sloppy: bool) -> Option<Vec<u8>> {
    let mut groups: Vec<u16> = Vec::with_capacity(8);
    let mut ellipsis: Option<usize> = None;
    let mut rest = s;
    if let Some(r) = rest.strip_prefix("::") {
        ellipsis = Some(0);
        rest = r;
        if rest.is_empty() {
            return Some(vec![0; 16]);
        }
    }
    loop {
        // An embedded IPv4 address ends the address.
        let hex_len = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        if rest[hex_len..].starts_with('.') {
            if ellipsis.is_none() && groups.len() != 6 || groups.len() > 6 {
                return None;
            }
            let v4 = parse_ipv4(rest, sloppy)?;
            groups.push(u16::from_be_bytes([v4[0], v4[1]]));
            groups.push(u16::from_be_bytes([v4[2], v4[3]]));
            rest = "";
            break;
        }
        if hex_len == 0 || hex_len > 4 {
            return None;
        }
        groups.push(u16::from_str_radix(&rest[..hex_len], 16).ok()?);
        rest = &rest[hex_len..];
        if rest.is_empty() {
            break;
        }
        rest = rest.strip_prefix(':')?;
        if let Some(r) = rest.strip_prefix(':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(groups.len());
            rest = r;
            if rest.is_empty() {
                break;
            }
        } else if rest.is_empty() {
            return None;
        }
        if groups.len() > 8 {
            return None;
        }
    }
    if !rest.is_empty() {
        return None;
    }
    match ellipsis {
        None if groups.len() == 8 => {}
        Some(at) if groups.len() < 8 => {
            let missing = 8 - groups.len();
            groups.splice(at..at, std::iter::repeat_n(0, missing));
        }
        _ => return None,
    }
    Some(groups.iter().flat_map(|g| g.to_be_bytes()).collect())
}

/// k8s.io/utils' `ParseCIDRSloppy`.
fn is_cidr_sloppy(s: &str) -> bool {
    let Some((addr, mask)) = s.split_once('/') else {
        return false;
    };
    let Some(ip) = parse_ip_sloppy(addr) else {
        return false;
    };
    if mask.is_empty() || !mask.bytes().all(|b| b.is_ascii_digit()) || mask.len() > 7 {
        return false;
    }
    let bits: usize = mask.parse().unwrap_or(usize::MAX);
    bits <= ip.len() * 8
}

/// Go's `net.ParseMAC`.
fn is_mac(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 14 {
        return false;
    }
    let hex2 = |x: &[u8], sep: u8| -> bool {
        if x.len() > 2 && x[2] != sep {
            return false;
        }
        x.len() >= 2 && x[0].is_ascii_hexdigit() && x[1].is_ascii_hexdigit()
    };
    if b[2] == b':' || b[2] == b'-' {
        if !(b.len() + 1).is_multiple_of(3) {
            return false;
        }
        let n = (b.len() + 1) / 3;
        if n != 6 && n != 8 && n != 20 {
            return false;
        }
        (0..n).all(|i| hex2(&b[i * 3..], b[2]))
    } else if b[4] == b'.' {
        if !(b.len() + 1).is_multiple_of(5) {
            return false;
        }
        let n = 2 * (b.len() + 1) / 5;
        if n != 6 && n != 8 && n != 20 {
            return false;
        }
        (0..n / 2).all(|i| {
            let x = i * 5;
            hex2(&b[x..x + 2], 0) && hex2(&b[x + 2..], b[4])
        })
    } else {
        false
    }
}

/// Go's `net/mail.ParseAddress(s)` succeeds with a non-empty address: a mailbox is
/// `addr-spec` or `[display-name] <addr-spec>`, with atoms, quoted strings and comments as
/// RFC 5322 has them (Go accepts UTF-8 in atoms and quoted strings).
fn is_email(s: &str) -> bool {
    let mut p = MailParser {
        s: s.as_bytes(),
        i: 0,
    };
    p.mailbox() && {
        p.skip_cfws();
        p.i == p.s.len()
    }
}

struct MailParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl MailParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    /// Folding white space and comments.
    fn skip_cfws(&mut self) -> bool {
        loop {
            self.skip_space();
            if self.peek() != Some(b'(') {
                return true;
            }
            let mut depth = 0;
            loop {
                match self.peek() {
                    None => return false,
                    Some(b'\\') => self.i += 2,
                    Some(b'(') => {
                        depth += 1;
                        self.i += 1;
                    }
                    Some(b')') => {
                        depth -= 1;
                        self.i += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(_) => self.i += 1,
                }
            }
        }
    }

    fn is_atext(c: u8, dot: bool) -> bool {
        c.is_ascii_alphanumeric()
            || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
            || (dot && c == b'.')
            || c >= 0x80
    }

    /// An atom (with dots when `dot`); empty when none.
    fn atom(&mut self, dot: bool) -> Option<&[u8]> {
        let start = self.i;
        while let Some(c) = self.peek() {
            if !Self::is_atext(c, dot) {
                break;
            }
            self.i += 1;
        }
        if self.i == start {
            return None;
        }
        let a = &self.s[start..self.i];
        if dot && (a.starts_with(b".") || a.ends_with(b".") || a.windows(2).any(|w| w == b"..")) {
            return None;
        }
        Some(a)
    }

    fn quoted_string(&mut self) -> bool {
        if self.peek() != Some(b'"') {
            return false;
        }
        self.i += 1;
        loop {
            match self.peek() {
                None => return false,
                Some(b'"') => {
                    self.i += 1;
                    return true;
                }
                Some(b'\\') => {
                    if self.s.get(self.i + 1).is_none() {
                        return false;
                    }
                    self.i += 2;
                }
                Some(c) if c < 0x20 && c != b'\t' => return false,
                Some(_) => self.i += 1,
            }
        }
    }

    fn addr_spec(&mut self) -> bool {
        // local-part
        self.skip_cfws();
        if self.peek() == Some(b'"') {
            if !self.quoted_string() {
                return false;
            }
        } else if self.atom(true).is_none() {
            return false;
        }
        self.skip_cfws();
        if self.peek() != Some(b'@') {
            return false;
        }
        self.i += 1;
        self.skip_cfws();
        // domain
        if self.peek() == Some(b'[') {
            while let Some(c) = self.peek() {
                self.i += 1;
                if c == b']' {
                    return true;
                }
                if c == b'[' && self.i > 1 && self.s[self.i - 1] != b'[' {
                    return false;
                }
            }
            return false;
        }
        self.atom(true).is_some()
    }

    fn mailbox(&mut self) -> bool {
        let start = self.i;
        if self.addr_spec() {
            let save = self.i;
            self.skip_cfws();
            if self.i == self.s.len() {
                return true;
            }
            self.i = save;
        }
        // display-name (a phrase of words), then <addr-spec>.
        self.i = start;
        loop {
            self.skip_cfws();
            match self.peek() {
                Some(b'<') => break,
                Some(b'"') => {
                    if !self.quoted_string() {
                        return false;
                    }
                }
                Some(_) => {
                    if self.atom(true).is_none() {
                        return false;
                    }
                }
                None => return false,
            }
        }
        self.i += 1;
        if !self.addr_spec() {
            return false;
        }
        self.skip_cfws();
        if self.peek() != Some(b'>') {
            return false;
        }
        self.i += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FormatKind::*;

    #[test]
    fn patterns_compile() {
        for p in ALL_PATTERNS {
            assert!(
                kdv_cel::library::regex::compile(p.pattern).is_ok(),
                "{}",
                p.pattern
            );
        }
    }

    fn check(kind: FormatKind, valid: &[&str], invalid: &[&str]) {
        for v in valid {
            assert!(validates(kind, v), "{kind:?} should accept {v:?}");
        }
        for v in invalid {
            assert!(!validates(kind, v), "{kind:?} should reject {v:?}");
        }
    }

    // Cases from kube-openapi's strfmt tests (`default_test.go`, `date_test.go`,
    // `duration_test.go`, `time_test.go`, `kubernetes-extensions_test.go`) and the Go
    // standard library's behaviour they rely on.
    #[test]
    fn formats() {
        check(
            BsonObjectId,
            &["507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011"],
            &["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901z", ""],
        );
        check(
            Uri,
            &[
                "http://somewhere.com",
                "/path",
                "http://a.b/c?d=e#f",
                "mailto:x@y",
            ],
            &["", "somewhere.com", "relative/path"],
        );
        check(
            Email,
            &[
                "some@dude.com",
                "John Doe <john@example.com>",
                "\"quoted\"@example.com",
                "a@b",
            ],
            &["", "somedude.com", "@dude.com", "some@", "a@b@c", "a..b@c"],
        );
        check(
            Hostname,
            &[
                "somewhere.com",
                "www.somewhere.com",
                "a",
                "xn--bcher-kva.ch",
                "bücher.ch",
            ],
            &["somewhere.com!", "-a.com", "", "a.c"],
        );
        check(
            Ipv4,
            &["192.168.254.1", "192.168.254.001", "::ffff:1.2.3.4"],
            &[
                "192.168.254",
                "192.168.254.1.3",
                "256.1.1.1",
                "x",
                "::1",
                "",
            ],
        );
        check(
            Ipv6,
            &[
                "::1",
                "2001:db8::1",
                "::",
                "fe80::1:2:3:4",
                "::ffff:1.2.3.4",
            ],
            &[
                "192.168.0.1",
                "::1::2",
                "1:2:3:4:5:6:7:8:9",
                "fe80::1%eth0",
                "12345::",
                "",
            ],
        );
        check(
            Cidr,
            &[
                "192.168.0.0/24",
                "192.168.000.000/24",
                "2001:db8::/32",
                "0.0.0.0/0",
            ],
            &[
                "192.168.0.0/33",
                "192.168.0.0",
                "2001:db8::/129",
                "/24",
                "1.2.3.4/x",
            ],
        );
        check(
            Mac,
            &[
                "01:02:03:04:05:06",
                "01-02-03-04-05-06",
                "0102.0304.0506",
                "01:02:03:04:05:06:07:08",
            ],
            &["01:02:03:04:05", "01:02:03:04:05:0g", "010203040506", ""],
        );
        check(
            Uuid,
            &[
                "a8098c1a-f86e-11da-bd1a-00112444be1e",
                "A8098C1AF86E11DABD1A00112444BE1E",
            ],
            &["a8098c1a-f86e-11da-bd1a-00112444be1", ""],
        );
        check(
            Uuid3,
            &["bcd02e22-68f0-3046-a512-327cca9def8f"],
            &["a8098c1a-f86e-11da-bd1a-00112444be1e"],
        );
        check(
            Uuid4,
            &["025b0d74-00a2-4048-bf57-227c5111bb34"],
            &["025b0d74-00a2-4048-cf57-227c5111bb34"],
        );
        check(
            Uuid5,
            &["886313e1-3b8a-5372-9b90-0c9aee199e5d"],
            &["886313e1-3b8a-4372-9b90-0c9aee199e5d"],
        );
        check(
            Isbn,
            &["0321751043", "978-0321751041", "0-321-75104-3"],
            &["0321751044", "978-0321751042", ""],
        );
        check(Isbn10, &["0321751043", "080442957X"], &["978-0321751041"]);
        check(Isbn13, &["978-0321751041"], &["0321751043"]);
        check(
            CreditCard,
            &[
                "4111-1111-1111-1111",
                "4111111111111111",
                "5500 0000 0000 0004",
            ],
            &["4111-1111-1111-1112", "1234", ""],
        );
        check(
            Ssn,
            &["111-11-1111", "111 11 1111"],
            &["111111111", "11-111-1111", ""],
        );
        check(
            HexColor,
            &["#FFFFFF", "fff", "#abc"],
            &["#ggg", "#ffff", ""],
        );
        check(
            RgbColor,
            &["rgb(255,255,255)", "rgb( 0 , 12 , 255 )"],
            &["rgb(256,0,0)", "rgb(0,0)", "rgba(0,0,0,0)"],
        );
        check(
            Byte,
            &["ZWxpemFiZXRocG9zZXk=", "YWJj"],
            &["", "ZWxpemFiZXRocG9zZXk", "!!!!"],
        );
        check(Password, &["", "anything"], &[]);
        check(
            Date,
            &["2012-01-01", "2020-02-29"],
            &[
                "2012-1-01",
                "2012-01-32",
                "2019-02-29",
                "2012-13-01",
                "20120101",
                "",
            ],
        );
        check(
            Duration,
            // strfmt's fallback scanner finds `3s` in `1.2.3s`, so it is valid.
            &[
                "1s",
                "1h30m",
                "-1.5h",
                "0",
                "3 days",
                "1 week",
                "5 minutes",
                "1ms",
                "1.2.3s",
            ],
            &["", "1", "1 fortnight", "s"],
        );
        check(
            DateTime,
            &[
                "2014-12-15T19:30:20.000Z",
                "2011-08-18T19:03:37.000000000+01:00",
                "2014-12-15t19:30:20z",
                "2014-12-15T19:30:20+05:30",
            ],
            &[
                "2014-12-15",
                "2014-12-15T24:00:00Z",
                "2014-12-15T19:60:00Z",
                "2014-12-15T19:30:20",
                "",
            ],
        );
        check(
            K8sShortName,
            &["a", "abc-123", "a1"],
            &["A", "-a", "a-", "a.b", "", &"a".repeat(64)],
        );
        check(
            K8sLongName,
            &["a", "a.b", "abc-123.def", &"a".repeat(253)],
            &["A", "a..b", ".a", "a.", "", &"a".repeat(254)],
        );
    }
}
