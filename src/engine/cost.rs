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
pub struct Ledger {
    /// (seat id, dollars) for every seat.
    pub seats: Vec<(String, f64)>,
    pub total: f64,
    /// Some usage was estimated, so the cost is too.
    pub estimated: bool,
    /// Seats that made calls without a price: their cost is unknown, not zero.
    pub unpriced: Vec<String>,
}

impl Ledger {
    pub fn new(config: &DebateConfig) -> Self {
        Ledger {
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
        let mut l = Ledger::new(config);
        for e in events {
            if let EventKind::TurnFinished { seat, usage, .. } = &e.kind {
                l.add(config, seat, usage);
            }
        }
        l
    }
}

/// "$0.0123": four decimals below a dollar, where most debates are, two above.
pub fn dollars(x: f64) -> String {
    let places = if x >= 1.0 || x == 0.0 { 2 } else { 4 };
    format!("${}", decimal(x, places))
}

/// A non-negative amount with a fixed number of decimals, by integer arithmetic: float
/// formatting would add kilobytes of tables to the bundle for this one use.
pub fn decimal(x: f64, places: u32) -> String {
    let scale = 10u64.pow(places);
    let n = (x.max(0.0) * scale as f64).round() as u64;
    if places == 0 {
        return n.to_string();
    }
    format!(
        "{}.{:0width$}",
        n / scale,
        n % scale,
        width = places as usize
    )
}

/// A plain decimal as people type it ("0.5", "12", "2.50", ".25"), without exponents or
/// signs. The standard parser would bring ~12 KB of tables into the bundle for this.
pub fn parse_decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit()) && d.len() <= 15;
    if !digits(int) || !digits(frac) {
        return None;
    }
    let whole = if int.is_empty() {
        0
    } else {
        int.parse::<u64>().ok()?
    };
    let part = if frac.is_empty() {
        0
    } else {
        frac.parse::<u64>().ok()?
    };
    Some(whole as f64 + part as f64 / 10f64.powi(frac.len() as i32))
}

/// A price as typed: "0.15", "2.5", "10" (no trailing zeros).
pub fn short(x: f64) -> String {
    let s = decimal(x, 4);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One call a format plans: who makes it and its output limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedCall {
    pub seat: &'static str,
    pub max_tokens: u32,
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

/// Instructions and the question that every prompt carries, in tokens.
const PROMPT_TOKENS: u32 = 450;

/// The range assumes answers from half their limit (low) to all of it (high), and prompts
/// that carry the instructions plus everything said so far, up to the seat's context window.
pub fn estimate(config: &DebateConfig, plan: &[PlannedCall]) -> Estimate {
    let topic = super::tokens::estimate(&config.topic);
    let mut unpriced = Vec::new();
    let mut range = [0.0, 0.0];
    for (i, share) in [0.5, 1.0].into_iter().enumerate() {
        let mut said = 0u32;
        for call in plan {
            let out = (call.max_tokens as f64 * share) as u32;
            let window = config
                .seat(call.seat)
                .map_or(u32::MAX, |s| s.participant.context_tokens());
            let input = (PROMPT_TOKENS + topic + said).min(window.saturating_sub(call.max_tokens));
            said += out;
            let usage = Usage {
                input_tokens: input,
                output_tokens: out,
                estimated: true,
            };
            match seat_price(config, call.seat) {
                Some(p) => range[i] += p.cost(&usage),
                None if !unpriced.iter().any(|s| s == call.seat) => {
                    unpriced.push(call.seat.to_string())
                }
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
