//! When and how long to wait before trying a failed call again. Pure, so the virtual clock
//! tests every schedule in microseconds; every delay is configurable for that reason.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// The first backoff; each later one doubles.
    pub base_ms: u64,
    /// The longest wait Agora will sit through. A provider asking for longer (a `Retry-After`
    /// of an hour) ends the attempts with a message instead.
    pub max_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_ms: 1_000,
            max_ms: 60_000,
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1`, or `None` when the server's own wait is longer
    /// than `max_ms`. The provider's `Retry-After` wins; otherwise exponential backoff with
    /// ±25 % jitter (`random` in [0, 1), from the debate's seeded generator).
    pub fn delay(&self, attempt: u32, retry_after_ms: Option<u64>, random: f64) -> Option<u64> {
        if let Some(ms) = retry_after_ms {
            return (ms <= self.max_ms).then_some(ms);
        }
        let exp = self
            .base_ms
            .saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
        let jittered = (exp as f64 * (0.75 + 0.5 * random.clamp(0.0, 1.0))) as u64;
        Some(jittered.min(self.max_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::RetryPolicy;

    #[test]
    fn backoff_doubles_with_jitter_and_honours_the_server() {
        let p = RetryPolicy::default();
        assert_eq!(p.delay(1, None, 0.5), Some(1_000));
        assert_eq!(p.delay(2, None, 0.5), Some(2_000));
        assert_eq!(p.delay(3, None, 0.0), Some(3_000));
        assert!(
            (4_990..5_000).contains(&p.delay(3, None, 0.999).unwrap()),
            "+25 % at most"
        );
        assert_eq!(p.delay(30, None, 0.5), Some(60_000), "capped");
        assert_eq!(
            p.delay(1, Some(7_000), 0.9),
            Some(7_000),
            "Retry-After wins"
        );
        assert_eq!(
            p.delay(1, Some(3_600_000), 0.5),
            None,
            "an hour is too long to wait"
        );
    }
}
