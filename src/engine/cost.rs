//! What a debate costs: per turn, per seat and in total, from the usage each call reports
//! and the price the seat's model had when the debate started; and, before it starts, the
//! planned calls and a range of what they may cost. Estimates say they are estimates.

use serde::{Deserialize, Serialize};

use super::config::{DebateConfig, Participant};
use super::event::{Event, EventKind, Usage};

/// US dollars per million tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub input: f64,
    pub output: f64,
}

impl Price {
    pub fn cost(&self, u: &Usage) -> f64 {
        (u.input_tokens as f64 * self.input + u.output_tokens as f64 * self.output) / 1e6
    }
}

/// The price of a seat's model, if one was set (humans cost nothing).
pub fn seat_price(config: &DebateConfig, seat: &str) -> Option<Price> {
    match &config.seat(seat)?.participant {
        Participant::Model { price, .. } => *price,
        Participant::Human => Some(Price::default()),
    }
}

/// Money spent so far, seat by seat in the order of the configuration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spent {
    /// (seat id, dollars) for every seat.
    pub seats: Vec<(String, f64)>,
    pub total: f64,
    /// Some usage was estimated, so the cost is too.
    pub estimated: bool,
    /// Seats that made calls without a price: their cost is unknown, not zero.
    pub unpriced: Vec<String>,
}

impl Spent {
    pub fn new(config: &DebateConfig) -> Self {
        Spent {
            seats: config.seats.iter().map(|s| (s.id.clone(), 0.0)).collect(),
            ..Default::default()
        }
    }

    /// Adds one finished turn; returns its cost when the seat has a price.
    pub fn add(&mut self, config: &DebateConfig, seat: &str, usage: &Usage) -> Option<f64> {
        let Some(price) = seat_price(config, seat) else {
            if !self.unpriced.iter().any(|s| s == seat) {
                self.unpriced.push(seat.to_string());
            }
            return None;
        };
        let c = price.cost(usage);
        if let Some(s) = self.seats.iter_mut().find(|(id, _)| id == seat) {
            s.1 += c;
        }
        self.total += c;
        self.estimated |= usage.estimated && c > 0.0;
        Some(c)
    }

    /// A seat's cost as shown: dollars, or "no price set" (unknown, not free).
    pub fn shown(&self, seat: &str, usd: f64) -> String {
        if self.unpriced.iter().any(|s| s == seat) {
            "no price set".into()
        } else {
            dollars(usd)
        }
    }

    pub fn from_events(config: &DebateConfig, events: &[Event]) -> Self {
        let mut l = Spent::new(config);
        for e in events {
            if let EventKind::TurnFinished { seat, usage, .. } = &e.kind {
                l.add(config, seat, usage);
            }
        }
        l
    }
}

/// A trillionth of a dollar: sums of prices differ from the exact amount by float rounding
/// (0.021 + 0.005 is 0.026000000000000002), never by anything a bill shows. The spending cap
/// counts amounts within it of each other as equal.
pub const NOISE: f64 = 1e-12;

/// "$0.0123": four decimals below a dollar, where most debates are, two from a dollar up
/// (after rounding: $0.99996 is "$1.00"). A cost too small for four decimals but not zero
/// says so ("< $0.0001") rather than showing $0.0000.
pub fn dollars(x: f64) -> String {
    let x = x.max(0.0);
    if x == 0.0 {
        return "$0.00".into();
    }
    if x < 0.000_05 {
        return "< $0.0001".into();
    }
    let ten_thousandths = (x * 10_000.0).round();
    if ten_thousandths >= 10_000.0 {
        format!("${}", decimal(x, 2))
    } else {
        format!("${}", decimal(x, 4))
    }
}

/// A non-negative amount with a fixed number of decimals, a half rounded up (6.05 shows as
/// 6.1, as people round). Rounded at the scale first: the formatter alone would round the
/// binary value half to even (6.05 is stored as 6.0499…, and 0.15 would show as 0.1).
pub fn decimal(x: f64, places: u32) -> String {
    let scale = 10f64.powi(places as i32);
    format!(
        "{:.*}",
        places as usize,
        (x.max(0.0) * scale).round() / scale
    )
}

/// A share (0–1) as a percentage with one decimal: "44.0%".
pub fn percent(p: f64) -> String {
    format!("{}%", decimal(p * 100.0, 1))
}

/// A spending cap as typed while a debate runs: empty for none, else dollars above 0.
pub fn typed_cap(s: &str) -> Result<Option<f64>, &'static str> {
    match s.trim() {
        "" => Ok(None),
        t => match parse_decimal(t) {
            Some(x) if x > 0.0 => Ok(Some(x)),
            _ => Err("The cap is a number of dollars above 0, like 0.50 (empty for no cap)."),
        },
    }
}

/// A plain decimal as people type it ("0.5", "12", "2.50", ".25"): digits and at most one
/// point, no sign, exponent or "inf" (which the standard parser would also take), and no
/// more than fifteen digits before the point (no amount anyone means).
pub fn parse_decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    let whole = s.split('.').next().unwrap_or_default();
    let plain = s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && whole.len() <= 15;
    plain.then(|| s.parse::<f64>().ok()).flatten()
}

/// A price per million tokens as the user typed it, or a message saying why it is refused.
pub fn parse_price(s: &str) -> Result<f64, String> {
    match parse_decimal(s) {
        Some(x) if x <= 100_000.0 => Ok(x),
        Some(_) => Err(format!("{} dollars per million tokens is more than any model costs; check the number.", s.trim())),
        None => Err(format!(
            "\"{}\" is not a price: type dollars per million tokens as a plain number, like 0.15 or 2.5.",
            s.trim()
        )),
    }
}

/// A price as typed: "0.15", "2.5", "10" (no trailing zeros).
pub fn short(x: f64) -> String {
    let s = decimal(x, 4);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One call a format plans: who makes it, its output limit, and its stage (calls of one
/// stage may run at once).
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedCall {
    pub seat: String,
    pub max_tokens: u32,
    pub stage: u32,
}

/// What a debate may cost before it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub calls: u32,
    pub low: f64,
    pub high: f64,
    /// Model seats without a price: the range leaves them out.
    pub unpriced: Vec<String>,
}

impl Estimate {
    pub fn none() -> Self {
        Estimate {
            calls: 0,
            low: 0.0,
            high: 0.0,
            unpriced: Vec::new(),
        }
    }

    /// Adds another estimate's calls and range (a tournament's, debate by debate).
    pub fn add(&mut self, other: Estimate) {
        self.calls += other.calls;
        self.low += other.low;
        self.high += other.high;
        for u in other.unpriced {
            if !self.unpriced.contains(&u) {
                self.unpriced.push(u);
            }
        }
    }
}

/// Instructions and the question that every prompt carries, in tokens.
const PROMPT_TOKENS: u32 = 450;

/// The range assumes answers from half their limit (low) to all of it (high), and prompts
/// that carry the instructions plus everything said so far, up to the seat's context window.
pub fn estimate(config: &DebateConfig, plan: &[PlannedCall]) -> Estimate {
    let topic = super::tokens::estimate(&config.topic);
    let mut unpriced: Vec<String> = Vec::new();
    let mut range = [0.0, 0.0];
    for (i, share) in [0.5, 1.0].into_iter().enumerate() {
        let mut said = 0u32;
        for call in plan {
            let out = (call.max_tokens as f64 * share) as u32;
            let window = config
                .seat(&call.seat)
                .map_or(u32::MAX, |s| s.participant.context_tokens());
            let input = (PROMPT_TOKENS + topic + said).min(window.saturating_sub(call.max_tokens));
            said += out;
            let usage = Usage {
                input_tokens: input,
                output_tokens: out,
                estimated: true,
            };
            match seat_price(config, &call.seat) {
                Some(p) => range[i] += p.cost(&usage),
                None if !unpriced.contains(&call.seat) => unpriced.push(call.seat.clone()),
                None => {}
            }
        }
    }
    Estimate {
        calls: plan.len() as u32,
        low: range[0],
        high: range[1],
        unpriced,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cap_typed_mid_debate_is_dollars_above_zero_or_none() {
        assert_eq!(typed_cap(" 0.50 "), Ok(Some(0.5)));
        assert_eq!(typed_cap(""), Ok(None));
        for bad in ["0", "-1", "ten", "1e3"] {
            assert!(typed_cap(bad).is_err(), "{bad}");
        }
    }

    use super::*;

    #[test]
    fn dollar_amounts_round_correctly_and_never_hide_a_cost() {
        assert_eq!(dollars(0.99996), "$1.00");
        assert_eq!(dollars(0.99994), "$0.9999");
        assert_eq!(dollars(0.012345), "$0.0123");
        assert_eq!(dollars(12.345), "$12.35");
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(0.000_000_3), "< $0.0001");
        assert_eq!(dollars(0.000_05), "$0.0001");
    }

    #[test]
    fn a_price_that_cannot_be_read_is_refused_with_a_reason() {
        assert_eq!(parse_price(" 2.50 "), Ok(2.5));
        assert_eq!(parse_price(".25"), Ok(0.25));
        for bad in ["", "abc", "1,5", "-1", "1e3", "$2"] {
            let e = parse_price(bad).unwrap_err();
            assert!(e.contains("not a price"), "{bad}: {e}");
        }
        assert!(parse_price("5000000")
            .unwrap_err()
            .contains("more than any model"));
    }
}
