//! The text forms of DateType and TimestampType: milliseconds since the epoch shown as
//! `yyyy-MM-dd HH:mmZ` (Cassandra 2.2's default format, in UTC — ilion's server zone) and
//! read from `now`, a number of milliseconds or Cassandra's date patterns
//! (`docs/types.md#dates`). The calendar is proleptic Gregorian.

use std::time::{SystemTime, UNIX_EPOCH};

const MS_PER_DAY: i64 = 86_400_000;

/// Year, month, day of a day count since 1970-01-01 (H. Hinnant's civil-from-days).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Days since 1970-01-01 of a civil date (the inverse of [`civil_from_days`]).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `yyyy-MM-dd HH:mmZ` in UTC; empty for empty.
pub(super) fn to_text(v: &[u8]) -> String {
    let Ok(b) = <[u8; 8]>::try_from(v) else {
        return String::new();
    };
    let ms = i64::from_be_bytes(b);
    let (year, month, day) = civil_from_days(ms.div_euclid(MS_PER_DAY));
    let minutes = ms.rem_euclid(MS_PER_DAY) / 60_000;
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}Z",
        minutes / 60,
        minutes % 60
    )
}

/// Cassandra's `dateStringToTimestamp`, as 8 bytes (empty text → empty value).
pub(super) fn from_text(s: &str) -> Result<Vec<u8>, String> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let ms = if s.eq_ignore_ascii_case("now") {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        i64::try_from(now.as_millis()).unwrap_or(i64::MAX)
    } else if !s.trim_start_matches('-').is_empty()
        && s.strip_prefix('-')
            .unwrap_or(s)
            .bytes()
            .all(|c| c.is_ascii_digit())
    {
        s.parse::<i64>()
            .map_err(|_| format!("Unable to make long (for date) from: '{s}'"))?
    } else {
        parse_date(s).ok_or_else(|| format!("Unable to coerce '{s}' to a formatted date (long)"))?
    };
    Ok(ms.to_be_bytes().to_vec())
}

/// A cursor over the text of a date.
struct Cursor<'a> {
    rest: &'a str,
}

impl Cursor<'_> {
    /// Takes up to `max` decimal digits, at least `min`.
    fn number(&mut self, min: usize, max: usize) -> Option<i64> {
        let n = self
            .rest
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count()
            .min(max);
        if n < min {
            return None;
        }
        let (digits, rest) = self.rest.split_at(n);
        self.rest = rest;
        digits.parse().ok()
    }

    fn eat(&mut self, prefix: &str) -> bool {
        match self.rest.strip_prefix(prefix) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }
}

/// `yyyy-MM-dd[( |T)HH:mm[:ss[.SSS]]][zone]`, fields range-checked (strict parsing). The
/// zone is `Z`, `±hh`, `±hhmm`, `±hh:mm`, or after a blank `UTC`, `GMT`, `GMT±hh:mm` or
/// `±hhmm`; without a zone the time is UTC.
fn parse_date(s: &str) -> Option<i64> {
    let mut c = Cursor { rest: s };
    let year = c.number(1, 9)?;
    c.eat("-").then_some(())?;
    let month = u32::try_from(c.number(1, 2)?).ok()?;
    c.eat("-").then_some(())?;
    let day = u32::try_from(c.number(1, 2)?).ok()?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let mut ms = 0i64;
    if c.rest.starts_with([' ', 'T']) && c.rest[1..].starts_with(|ch: char| ch.is_ascii_digit()) {
        c.rest = &c.rest[1..];
        let hour = c.number(1, 2)?;
        c.eat(":").then_some(())?;
        let minute = c.number(1, 2)?;
        let mut second = 0;
        let mut milli = 0;
        if c.eat(":") {
            second = c.number(1, 2)?;
            if c.eat(".") {
                milli = c.number(1, 3)?;
            }
        }
        if hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        ms = ((hour * 60 + minute) * 60 + second) * 1000 + milli;
    }
    let offset_minutes = zone(&mut c)?;
    if !c.rest.is_empty() {
        return None;
    }
    let days = days_from_civil(year, month, day);
    days.checked_mul(MS_PER_DAY)?
        .checked_add(ms)?
        .checked_sub(offset_minutes * 60_000)
}

/// The zone suffix as minutes east of UTC (0 when absent).
fn zone(c: &mut Cursor<'_>) -> Option<i64> {
    if c.rest.is_empty() {
        return Some(0);
    }
    let spaced = c.eat(" ");
    if c.eat("Z") || (spaced && (c.eat("UTC") || c.eat("GMT") && c.rest.is_empty())) {
        return Some(0);
    }
    if spaced {
        c.eat("GMT");
    }
    let sign = if c.eat("+") {
        1
    } else if c.eat("-") {
        -1
    } else {
        return None;
    };
    let hours = c.number(2, 2)?;
    let minutes = if c.rest.is_empty() {
        0
    } else {
        c.eat(":");
        c.number(2, 2)?
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    Some(sign * (hours * 60 + minutes))
}
