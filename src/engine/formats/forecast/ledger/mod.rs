//! The forecast ledger: a finished forecast resolved later, and how well each of its
//! forecasters did — every role, the roles' consensus, the judge and the final blend —
//! by the Brier score and the log score, per forecast, per model, and as a calibration
//! table once enough forecasts are resolved to draw one honestly.
//!
//! This file holds a resolution and the forecast it resolves; `scores` the scoring rules,
//! the averages and the calibration table; `ranges` the outcome a number falls in; `book`
//! the ledger screen's content over every finished forecast.

pub mod book;
mod ranges;
mod scores;

pub use ranges::*;
pub use scores::*;

use serde::{Deserialize, Serialize};

use super::types::{ForecastFinding, ForecastResult};
use crate::engine::config::{DebateConfig, FormatOptions, Participant};
use crate::engine::event::{config_of, Event, EventKind, Outcome};
use crate::engine::finding::FindingBody;

/// Longest note a resolution keeps.
pub const MAX_NOTE_CHARS: usize = 2_000;

/// What happened, recorded in the debate's log (`EventKind::Resolved`), so it is exported,
/// imported and shared with the forecast.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resolution {
    /// The id of the outcome that happened.
    pub outcome: String,
    /// For a numeric question, the value observed (its outcome is the range it fell in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// When it happened, as the user gave it (`2027-03-31`).
    pub on: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A forecast's log as the ledger reads it: the question, its result and its latest
/// resolution, if any.
pub struct Entry<'a> {
    pub config: &'a DebateConfig,
    pub result: ForecastResult,
    /// The opening round's consensus (`opening`), in the result's outcomes order.
    pub opening: Option<Vec<f64>>,
    pub resolution: Option<Resolution>,
}

/// The ledger's view of a log: `None` for anything but a forecast that finished with a
/// result.
pub fn entry(events: &[Event]) -> Option<Entry<'_>> {
    let config = config_of(events)?;
    if !matches!(config.options, FormatOptions::Forecast(_)) {
        return None;
    }
    let mut result = None;
    let mut resolution = None;
    for e in events {
        match &e.kind {
            EventKind::FindingRecorded(f) => {
                if let FindingBody::Forecast(x) = &f.body {
                    if let ForecastFinding::Result(r) = x.as_ref() {
                        result = Some(r.clone());
                    }
                }
            }
            EventKind::Resolved(r) => resolution = Some(r.clone()),
            _ => {}
        }
    }
    let result = result?;
    let findings = events.iter().filter_map(|e| match &e.kind {
        EventKind::FindingRecorded(f) => Some(f),
        _ => None,
    });
    Some(Entry {
        config,
        opening: opening(findings, &result),
        result,
        resolution,
    })
}

/// The forecast before any rebuttal: the mean of every role's opening-round probabilities
/// but the judge's (each role's last readable opening argument, so a regenerated one counts
/// instead of the first), in `result`'s outcomes order. `None` when no role's opening was
/// read for every outcome.
pub fn opening<'a>(
    findings: impl IntoIterator<Item = &'a crate::engine::finding::Finding>,
    result: &ForecastResult,
) -> Option<Vec<f64>> {
    let mut by_role: Vec<(&str, Vec<f64>)> = Vec::new();
    for f in findings {
        let FindingBody::Forecast(x) = &f.body else {
            continue;
        };
        let ForecastFinding::Argument(a) = x.as_ref() else {
            continue;
        };
        if a.round != 1 || f.seat == super::JUDGE {
            continue;
        }
        let row: Option<Vec<f64>> = result
            .outcomes
            .iter()
            .map(|o| {
                a.probabilities
                    .iter()
                    .find(|p| p.outcome == o.outcome)
                    .map(|p| p.probability)
            })
            .collect();
        let Some(row) = row else {
            continue;
        };
        match by_role.iter_mut().find(|(s, _)| *s == f.seat) {
            Some(r) => r.1 = row,
            None => by_role.push((&f.seat, row)),
        }
    }
    let rows: Vec<Vec<f64>> = by_role.into_iter().map(|(_, r)| r).collect();
    super::consensus::mean(&rows)
}

/// A resolution in words, for the transcript exports: "Passes on 2027-03-31 (value 2.1) ·
/// Signed into law", the outcome by its label when the forecast's result names it.
pub fn describe(events: &[Event], r: &Resolution) -> String {
    let label = entry(events)
        .and_then(|e| {
            e.result
                .outcomes
                .iter()
                .find(|o| o.outcome == r.outcome)
                .map(|o| o.label.clone())
        })
        .unwrap_or_else(|| r.outcome.clone());
    format!("{label}{}", details(r))
}

/// What follows the outcome in a resolution's line: " on 2027-03-31 (value 2.1) · note".
pub fn details(r: &Resolution) -> String {
    let mut out = format!(" on {}", r.on);
    if let Some(v) = r.value {
        out.push_str(&format!(" (value {})", crate::engine::cost::short(v)));
    }
    if !r.note.is_empty() {
        out.push_str(&format!(" · {}", r.note));
    }
    out
}

/// Whether `r` may resolve the forecast in `events`: a finished forecast with a result, one
/// of its outcomes, a real date and a note of bounded size. Says what is wrong otherwise.
pub fn check(events: &[Event], r: &Resolution) -> Result<(), String> {
    let finished = events.iter().rev().find_map(|e| match &e.kind {
        EventKind::Finished { outcome, .. } => Some(*outcome),
        EventKind::Resumed => Some(Outcome::Stopped),
        _ => None,
    });
    let Some(entry) = entry(events) else {
        return Err("Only a forecast that reached its result can be resolved.".into());
    };
    if finished != Some(Outcome::Completed) {
        return Err("Only a finished forecast can be resolved; this one has not finished.".into());
    }
    if !entry.result.outcomes.iter().any(|o| o.outcome == r.outcome) {
        return Err(format!(
            "\"{}\" is not one of this forecast's outcomes.",
            r.outcome
        ));
    }
    if !is_date(&r.on) {
        return Err(format!("\"{}\" is not a date (YYYY-MM-DD).", r.on));
    }
    if r.value.is_some_and(|v| !v.is_finite()) {
        return Err("The value is not a number.".into());
    }
    if r.note.chars().count() > MAX_NOTE_CHARS {
        return Err(format!(
            "The note is longer than {MAX_NOTE_CHARS} characters."
        ));
    }
    Ok(())
}

/// `YYYY-MM-DD` with a real month and day (leap years included).
fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return false;
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    #[test]
    fn brier_and_log_scores_match_hand_computed_values() {
        // 70% yes, and yes happened: (0.7−1)² + (0.3−0)² = 0.18; ln 0.7.
        let (_, brier, log) = score(&[0.7, 0.3], 0).unwrap();
        close(brier, 0.18);
        close(log, 0.7f64.ln());
        // Three outcomes, the middle happened: 0.2² + 0.5² + 0.3² = 0.38; ln 0.5.
        let (_, brier, log) = score(&[0.2, 0.5, 0.3], 1).unwrap();
        close(brier, 0.38);
        close(log, 0.5f64.ln());
        // A distribution that sums to 2 is normalised first: the same as 0.25/0.75.
        let (p, brier, _) = score(&[0.5, 1.5], 1).unwrap();
        assert_eq!(p, [0.25, 0.75]);
        close(brier, 0.125);
        // A certain miss: Brier's worst (2) and the log score's floor, not −∞.
        let (_, brier, log) = score(&[1.0, 0.0], 1).unwrap();
        close(brier, 2.0);
        close(log, LOG_FLOOR.ln());
        assert!(score(&[0.0, 0.0], 0).is_none());
        assert!(score(&[f64::NAN, 1.0], 0).is_none());
    }

    #[test]
    fn averages_rank_models_by_their_mean_brier_score() {
        let role = |m: &str| Forecaster::Role {
            seat: "optimist".into(),
            name: "Optimist".into(),
            model: Some(m.into()),
        };
        let s = |f: Forecaster, brier: f64, log: f64| Score {
            forecaster: f,
            probabilities: vec![],
            brier,
            log,
        };
        let a = averages(&[
            vec![
                s(role("m1"), 0.2, -0.5),
                s(role("m2"), 0.6, -1.0),
                s(Forecaster::Final, 0.1, -0.2),
            ],
            vec![s(role("m1"), 0.4, -0.7), s(Forecaster::Final, 0.3, -0.4)],
        ]);
        let names: Vec<&str> = a.iter().map(|x| x.who.as_str()).collect();
        assert_eq!(names, ["Final blend", "m1", "m2"]);
        close(a[0].brier, 0.2);
        close(a[1].brier, 0.3);
        close(a[1].log, -0.6);
        assert_eq!(a[1].forecasts, 2);
    }

    #[test]
    fn calibration_waits_for_enough_forecasts_and_bins_by_tenths() {
        let few = vec![(vec![0.8, 0.2], 0); CALIBRATION_MIN_FORECASTS - 1];
        assert_eq!(calibration(&few), None);
        // Ten forecasts at 80/20: the 80% outcome happened in 8 of them.
        let many: Vec<(Vec<f64>, usize)> = (0..10)
            .map(|i| (vec![0.8, 0.2], (i >= 8) as usize))
            .collect();
        let bins = calibration(&many).unwrap();
        assert_eq!(bins.len(), 2);
        assert_eq!((bins[0].low, bins[0].points), (0.2, 10));
        close(bins[0].observed, 0.2);
        assert_eq!((bins[1].low, bins[1].points), (0.8, 10));
        close(bins[1].mean_predicted, 0.8);
        close(bins[1].observed, 0.8);
        // 1.0 falls in the top bin, not an eleventh.
        let certain = vec![(vec![1.0, 0.0], 0); 10];
        assert_eq!(calibration(&certain).unwrap().last().unwrap().low, 0.9);
    }

    #[test]
    fn dates_are_checked_to_the_day() {
        assert!(is_date("2027-03-31") && is_date("2024-02-29"));
        for bad in [
            "2023-02-29",
            "2027-04-31",
            "2027-13-01",
            "27-03-31",
            "2027/03/31",
            "",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }

    #[test]
    fn a_value_resolves_a_numeric_question_to_its_range() {
        let outcomes: Vec<(String, String)> =
            [("low", "Under 2%"), ("mid", "2–3%"), ("high", "3% or more")]
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
        assert_eq!(outcome_for_value(&outcomes, 1.4).as_deref(), Some("low"));
        assert_eq!(outcome_for_value(&outcomes, 2.0).as_deref(), Some("mid"));
        assert_eq!(outcome_for_value(&outcomes, 3.0).as_deref(), Some("high"));
        let yes_no = [
            ("yes".to_string(), "Yes".to_string()),
            ("no".into(), "No".into()),
        ];
        assert_eq!(
            outcome_for_value(&yes_no, 2.0),
            None,
            "not a numeric question"
        );
    }
}
