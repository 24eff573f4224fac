//! How the domain tells time: a number the caller passes in, so every
//! transition stays a pure function of its inputs.

/// Milliseconds since the Unix epoch, as an injected clock reports them.
pub type Timestamp = u64;

/// A moment as a calendar shows it in UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    /// The proleptic Gregorian year.
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u64,
    /// 0 to 59.
    pub minute: u64,
    /// 0 to 59.
    pub second: u64,
    /// 0 to 999.
    pub millisecond: u64,
}

impl UtcTime {
    /// `at` (milliseconds since the Unix epoch) on the UTC calendar.
    pub fn of(at: Timestamp) -> Self {
        let seconds = at / 1000;
        let (days, of_day) = (seconds / 86_400, seconds % 86_400);
        let (year, month, day) = civil_from_days(i64::try_from(days).unwrap_or(i64::MAX));
        Self {
            year,
            month,
            day,
            hour: of_day / 3600,
            minute: of_day % 3600 / 60,
            second: of_day % 60,
            millisecond: at % 1000,
        }
    }

    /// ISO 8601 with milliseconds, as JavaScript's `Date.toISOString`
    /// writes it: `2026-12-07T17:39:52.111Z`.
    pub fn iso_8601(self) -> String {
        let Self {
            year,
            month,
            day,
            hour,
            minute,
            second,
            millisecond,
        } = self;
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{millisecond:03}Z")
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so no date crate is needed.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn moments_read_as_javascript_writes_them() {
        let actual =
            [0, 951_782_400_000, 1_796_665_192_111, 4_107_542_399_999].map(|at| UtcTime::of(at).iso_8601());
        let expected = [
            "1970-01-01T00:00:00.000Z",
            "2000-02-29T00:00:00.000Z",
            "2026-12-07T17:39:52.111Z",
            "2100-02-28T23:59:59.999Z",
        ]
        .map(String::from);
        assert_eq!(actual, expected);
    }
}
