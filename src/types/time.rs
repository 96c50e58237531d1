//! Timespan and Timestamp values: nanosecond counts, formatted and parsed with
//! Puppet's default formats (spec 001, "Timespan" and "Timestamp").
//!
//! Timespan: `%D-%H:%M:%S.%-N` (`0-01:00:00.0`). Timestamp: `%FT%T.%N %Z` in UTC
//! (`2000-01-01T00:00:00.000000000 UTC`).

pub const NANOS_PER_SEC: i128 = 1_000_000_000;

/// The formats Puppet tries on a string to make a Timespan, as its "Unable to parse"
/// error lists them.
pub const TIMESPAN_FORMATS: &str =
    "%D-%H:%M:%S.%-N, %H:%M:%S.%-N, %M:%S.%-N, %S.%-N, %D-%H:%M:%S, %H:%M:%S, %D-%H:%M, %S";

/// The formats Puppet tries on a string to make a Timestamp, as its "Unable to parse"
/// error lists them.
pub const TIMESTAMP_FORMATS: &str =
    "%FT%T.%N %Z, %FT%T %Z, %F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F";

/// Formats a duration as Puppet's `Timespan#to_s` does.
pub fn format_timespan(nanos: i128) -> String {
    let neg = nanos < 0;
    let n = nanos.abs();
    let secs_total = n / NANOS_PER_SEC;
    let frac = n % NANOS_PER_SEC;
    let days = secs_total / 86_400;
    let h = (secs_total / 3600) % 24;
    let m = (secs_total / 60) % 60;
    let s = secs_total % 60;
    // `%-N`: the fraction's significant digits (`.5`), `.0` for whole seconds.
    let frac_s = if frac == 0 {
        "0".to_string()
    } else {
        format!("{frac:09}").trim_end_matches('0').to_string()
    };
    format!(
        "{}{days}-{h:02}:{m:02}:{s:02}.{frac_s}",
        if neg { "-" } else { "" }
    )
}

/// Parses the default Timespan formats (`D-HH:MM:SS.N`, `HH:MM:SS`, `MM:SS`, `S`...).
pub fn parse_timespan(text: &str) -> Option<i128> {
    let t = text.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (days, rest) = match t.split_once('-') {
        Some((d, r)) => (d.parse::<i128>().ok()?, r),
        None => (0, t),
    };
    let (main, frac) = match rest.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (rest, None),
    };
    let parts: Vec<i128> = main
        .split(':')
        .map(|p| p.parse::<i128>().ok())
        .collect::<Option<Vec<_>>>()?;
    let secs = match (parts.len(), text.contains('-') && !text.starts_with('-')) {
        (1, _) => parts[0],
        (2, true) => parts[0] * 3600 + parts[1] * 60, // %D-%H:%M
        (2, false) => parts[0] * 60 + parts[1],
        (3, _) => parts[0] * 3600 + parts[1] * 60 + parts[2],
        _ => return None,
    };
    let mut nanos = (days * 86_400 + secs) * NANOS_PER_SEC;
    if let Some(f) = frac {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut digits = f.to_string();
        digits.truncate(9);
        while digits.len() < 9 {
            digits.push('0');
        }
        nanos += digits.parse::<i128>().ok()?;
    }
    Some(if neg { -nanos } else { nanos })
}

/// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Formats nanoseconds since the epoch as `Timestamp#to_s` does (UTC).
pub fn format_timestamp(nanos: i128) -> String {
    let secs = nanos.div_euclid(NANOS_PER_SEC);
    let frac = nanos.rem_euclid(NANOS_PER_SEC);
    let days = secs.div_euclid(86_400) as i64;
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:09} UTC",
        sod / 3600,
        (sod / 60) % 60,
        sod % 60
    )
}

/// Parses the default Timestamp formats (`%F`, `%FT%T`, `%FT%T.%N`, `%F %T`, each
/// optionally followed by a zone `UTC`, `Z` or `+hh:mm`).
pub fn parse_timestamp(text: &str) -> Option<i128> {
    let t = text.trim();
    let (body, offset_secs) = split_zone(t)?;
    let (date, time) = match body.split_once(['T', ' ']) {
        Some((d, tm)) => (d, Some(tm)),
        None => (body, None),
    };
    let dp: Vec<&str> = date.split('-').collect();
    if dp.len() != 3 {
        return None;
    }
    let y: i64 = dp[0].parse().ok()?;
    let mo: i64 = dp[1].parse().ok()?;
    let d: i64 = dp[2].parse().ok()?;
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) {
        return None;
    }
    let mut secs = i128::from(days_from_civil(y, mo, d)) * 86_400;
    let mut nanos = 0i128;
    if let Some(tm) = time {
        let (hms, frac) = match tm.split_once('.') {
            Some((a, b)) => (a, Some(b)),
            None => (tm, None),
        };
        let p: Vec<i128> = hms
            .split(':')
            .map(|x| x.parse().ok())
            .collect::<Option<Vec<_>>>()?;
        if p.len() != 3 {
            return None;
        }
        secs += p[0] * 3600 + p[1] * 60 + p[2];
        if let Some(f) = frac {
            let mut digits = f.to_string();
            digits.truncate(9);
            while digits.len() < 9 {
                digits.push('0');
            }
            nanos = digits.parse().ok()?;
        }
    }
    Some((secs - offset_secs) * NANOS_PER_SEC + nanos)
}

fn split_zone(t: &str) -> Option<(&str, i128)> {
    if let Some(b) = t.strip_suffix(" UTC") {
        return Some((b, 0));
    }
    if let Some(b) = t.strip_suffix('Z') {
        return Some((b, 0));
    }
    // `+hh:mm` / `-hh:mm` after a time part.
    if t.len() > 6 && t.contains(':') {
        let (b, z) = t.split_at(t.len() - 6);
        let zb = z.as_bytes();
        if (zb[0] == b'+' || zb[0] == b'-') && zb[3] == b':' {
            let h: i128 = z[1..3].parse().ok()?;
            let m: i128 = z[4..6].parse().ok()?;
            let off = h * 3600 + m * 60;
            return Some((b.trim_end(), if zb[0] == b'-' { -off } else { off }));
        }
    }
    Some((t, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    // spec 001 "Timespan": Timespan(3600) prints as '0-01:00:00.0'.
    #[test]
    fn timespan_format() {
        assert_eq!(format_timespan(3600 * NANOS_PER_SEC), "0-01:00:00.0");
        // `%-N` drops trailing zeros (Puppet 7: 2.5 + Timespan(60) is 0-00:01:02.5).
        assert_eq!(format_timespan(2_500_000_000), "0-00:00:02.5");
        assert_eq!(parse_timespan("0-01:00:00.0"), Some(3600 * NANOS_PER_SEC));
    }

    // spec 001 "Timestamp": default format '%FT%T.%N %Z'.
    #[test]
    fn timestamp_roundtrip() {
        let n = parse_timestamp("2000-01-01").unwrap();
        assert_eq!(format_timestamp(n), "2000-01-01T00:00:00.000000000 UTC");
        let n = parse_timestamp("2020-01-01T00:00:00.000 UTC").unwrap();
        assert_eq!(format_timestamp(n), "2020-01-01T00:00:00.000000000 UTC");
    }
}
