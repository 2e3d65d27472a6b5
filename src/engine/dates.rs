//! Calendar dates from the debate's clock (milliseconds since the Unix epoch, UTC), for
//! what people and other tools read: an export's dated folder, ISO 8601 times. Days to a
//! civil date as in Howard Hinnant's `civil_from_days`; no time zone but UTC.

/// A moment, broken into its UTC calendar parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Utc {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millis: u32,
}

impl Utc {
    pub fn of_ms(ms: u64) -> Utc {
        let secs = ms / 1000;
        let days = (secs / 86_400) as i64;
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Utc {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: ((secs % 86_400) / 3600) as u32,
            minute: ((secs % 3600) / 60) as u32,
            second: (secs % 60) as u32,
            millis: (ms % 1000) as u32,
        }
    }

    /// "2026-11-22".
    pub fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// "2026-11-22 05:43 UTC", for people.
    pub fn minutes(&self) -> String {
        format!("{} {:02}:{:02} UTC", self.date(), self.hour, self.minute)
    }

    /// "2026-11-22T05:43:12.345Z" (ISO 8601, RFC 3339).
    pub fn iso8601(&self) -> String {
        format!(
            "{}T{:02}:{:02}:{:02}.{:03}Z",
            self.date(),
            self.hour,
            self.minute,
            self.second,
            self.millis
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_the_calendar_says() {
        assert_eq!(Utc::of_ms(0).iso8601(), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            Utc::of_ms(1_700_000_000_123).iso8601(),
            "2023-11-14T22:13:20.123Z"
        );
        assert_eq!(Utc::of_ms(951_782_400_000).date(), "2000-02-29");
        assert_eq!(
            Utc::of_ms(1_700_000_000_000).minutes(),
            "2023-11-14 22:13 UTC"
        );
        // The last millisecond of a leap year's last day.
        assert_eq!(
            Utc::of_ms(1_735_689_599_999).iso8601(),
            "2024-12-31T23:59:59.999Z"
        );
    }
}
