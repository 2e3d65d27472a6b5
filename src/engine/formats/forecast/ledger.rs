//! The forecast ledger: a finished forecast resolved later, and how well each of its
//! forecasters did — every role, the roles' consensus, the judge and the final blend —
//! by the Brier score and the log score, per forecast, per model, and as a calibration
//! table once enough forecasts are resolved to draw one honestly.

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
    Some(Entry {
        config,
        result: result?,
        resolution,
    })
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

/// Probabilities below this count as this in the log score, so one confident miss costs
/// ln(0.001) ≈ −6.9 instead of minus infinity.
pub const LOG_FLOOR: f64 = 0.001;
/// Resolved forecasts needed before the calibration chart is drawn.
pub const CALIBRATION_MIN_FORECASTS: usize = 10;
/// Points a calibration bin needs to be drawn as a point rather than left hollow.
pub const CALIBRATION_MIN_POINTS: u32 = 5;

/// Who made a forecast: a role (with its model), or the aggregates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Forecaster {
    Role {
        seat: String,
        /// The seat's name ("Optimist", a custom role's name).
        name: String,
        model: Option<String>,
    },
    Consensus,
    Judge,
    Final,
}

impl Forecaster {
    pub fn label(&self) -> String {
        match self {
            Forecaster::Role { name, .. } => name.clone(),
            Forecaster::Consensus => "Role consensus".into(),
            Forecaster::Judge => "Judge's synthesis".into(),
            Forecaster::Final => "Final blend".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    pub forecaster: Forecaster,
    /// The distribution as scored (normalised to sum to 1), in the outcomes' order.
    pub probabilities: Vec<f64>,
    /// Σ (p − o)² over the outcomes: 0 is perfect, 2 the worst (Brier's own definition;
    /// for a yes/no question it is twice the one-probability form).
    pub brier: f64,
    /// ln of the probability given to what happened: 0 is perfect, lower is worse.
    pub log: f64,
}

/// A distribution that sums to 1, or `None` when it has no mass or a bad number.
fn normalised(p: &[f64]) -> Option<Vec<f64>> {
    let sum: f64 = p.iter().sum();
    if p.iter().any(|x| !x.is_finite() || *x < 0.0) || sum <= 0.0 {
        return None;
    }
    Some(p.iter().map(|x| x / sum).collect())
}

/// Brier and log scores of one distribution when outcome `happened` happened.
pub fn score(probabilities: &[f64], happened: usize) -> Option<(Vec<f64>, f64, f64)> {
    let p = normalised(probabilities)?;
    let brier = p
        .iter()
        .enumerate()
        .map(|(k, pk)| (pk - if k == happened { 1.0 } else { 0.0 }).powi(2))
        .sum();
    let log = p.get(happened)?.max(LOG_FLOOR).ln();
    Some((p, brier, log))
}

/// Every forecaster's score on one resolved forecast. A forecaster missing a probability
/// for some outcome is left out rather than scored on a guess.
pub fn scores(
    config: &DebateConfig,
    result: &ForecastResult,
    resolution: &Resolution,
) -> Result<Vec<Score>, String> {
    let happened = result
        .outcomes
        .iter()
        .position(|o| o.outcome == resolution.outcome)
        .ok_or_else(|| {
            format!(
                "\"{}\" is not one of this forecast's outcomes.",
                resolution.outcome
            )
        })?;
    let mut seats: Vec<&str> = Vec::new();
    for o in &result.outcomes {
        for r in &o.roles {
            if !seats.contains(&r.role.as_str()) {
                seats.push(&r.role);
            }
        }
    }
    let mut columns: Vec<(Forecaster, Vec<Option<f64>>)> = seats
        .iter()
        .map(|seat| {
            let seat_config = config.seat(seat);
            let model = seat_config.and_then(|s| match &s.participant {
                Participant::Model { model, .. } => Some(model.clone()),
                Participant::Human => None,
            });
            let name = seat_config.map_or_else(|| super::role_name(seat), |s| s.name.clone());
            let column = result
                .outcomes
                .iter()
                .map(|o| {
                    o.roles
                        .iter()
                        .find(|r| r.role == *seat)
                        .map(|r| r.probability)
                })
                .collect();
            (
                Forecaster::Role {
                    seat: seat.to_string(),
                    name,
                    model,
                },
                column,
            )
        })
        .collect();
    let aggregate = |f: fn(&super::types::OutcomeResult) -> Option<f64>| -> Vec<Option<f64>> {
        result.outcomes.iter().map(f).collect()
    };
    columns.push((Forecaster::Consensus, aggregate(|o| o.consensus)));
    columns.push((Forecaster::Judge, aggregate(|o| o.judge)));
    columns.push((Forecaster::Final, aggregate(|o| o.final_probability)));
    Ok(columns
        .into_iter()
        .filter_map(|(forecaster, column)| {
            let p: Vec<f64> = column.into_iter().collect::<Option<_>>()?;
            let (probabilities, brier, log) = score(&p, happened)?;
            Some(Score {
                forecaster,
                probabilities,
                brier,
                log,
            })
        })
        .collect())
}

/// A Brier score as shown: three decimals.
pub fn brier(x: f64) -> String {
    crate::engine::cost::decimal(x, 3)
}

/// A log score as shown: three decimals, with a true minus sign.
pub fn log_score(x: f64) -> String {
    let s = crate::engine::cost::decimal(x.abs(), 3);
    if x < 0.0 && s != "0.000" {
        format!("−{s}")
    } else {
        s
    }
}

/// Mean scores of one model (over every role it played) or one aggregate.
#[derive(Clone, Debug, PartialEq)]
pub struct Average {
    pub who: String,
    pub forecasts: u32,
    pub brier: f64,
    pub log: f64,
}

/// Averages by model for the roles ("model (as role)" would split a model's record too
/// thin), and by aggregate for the consensus, the judge and the final blend.
pub fn averages(resolved: &[Vec<Score>]) -> Vec<Average> {
    let mut out: Vec<Average> = Vec::new();
    for s in resolved.iter().flatten() {
        let who = match &s.forecaster {
            Forecaster::Role { model: Some(m), .. } => m.clone(),
            Forecaster::Role {
                model: None, name, ..
            } => format!("a person ({name})"),
            f => f.label(),
        };
        match out.iter_mut().find(|a| a.who == who) {
            Some(a) => {
                a.forecasts += 1;
                a.brier += s.brier;
                a.log += s.log;
            }
            None => out.push(Average {
                who,
                forecasts: 1,
                brier: s.brier,
                log: s.log,
            }),
        }
    }
    for a in &mut out {
        a.brier /= a.forecasts as f64;
        a.log /= a.forecasts as f64;
    }
    out.sort_by(|a, b| a.brier.total_cmp(&b.brier));
    out
}

/// One tenth of the probability scale: what was predicted in it and how often it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    pub low: f64,
    pub high: f64,
    pub points: u32,
    pub mean_predicted: f64,
    pub observed: f64,
}

/// The final blend's calibration: every outcome of every resolved forecast is a point
/// (its probability, and whether it happened), in ten bins. `None` until
/// `CALIBRATION_MIN_FORECASTS` forecasts are resolved; empty bins are left out.
pub fn calibration(resolved: &[(Vec<f64>, usize)]) -> Option<Vec<Bin>> {
    if resolved.len() < CALIBRATION_MIN_FORECASTS {
        return None;
    }
    let mut sums = [(0u32, 0.0f64, 0.0f64); 10];
    for (p, happened) in resolved {
        for (k, pk) in p.iter().enumerate() {
            let bin = ((pk * 10.0).floor() as usize).min(9);
            sums[bin].0 += 1;
            sums[bin].1 += pk;
            sums[bin].2 += (k == *happened) as u32 as f64;
        }
    }
    Some(
        sums.iter()
            .enumerate()
            .filter(|(_, s)| s.0 > 0)
            .map(|(i, s)| Bin {
                low: i as f64 / 10.0,
                high: (i + 1) as f64 / 10.0,
                points: s.0,
                mean_predicted: s.1 / s.0 as f64,
                observed: s.2 / s.0 as f64,
            })
            .collect(),
    )
}

/// For a numeric question whose outcomes are ranges ("Under 2%", "2–3%", "3% or more",
/// "< 2", "2-3", "> 3"), the outcome a value falls in; `None` when the labels cannot be
/// read as ranges or the value fits none or several, so the user picks it.
pub fn outcome_for_value(outcomes: &[(String, String)], value: f64) -> Option<String> {
    let hits: Vec<&String> = outcomes
        .iter()
        .filter(|(_, label)| range(label).is_some_and(|(lo, hi)| value >= lo && value < hi))
        .map(|(id, _)| id)
        .collect();
    match hits.as_slice() {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// A label's range [low, high), when it reads as one.
pub fn range(label: &str) -> Option<(f64, f64)> {
    let mut l = label
        .to_lowercase()
        .replace(['–', '—'], "-")
        .replace('−', "-");
    let numbers = numbers(&l);
    // Phrases that hold a word of the other side ("no more than") are read first.
    let mut side = |words: &[&str]| {
        let found = words.iter().any(|w| l.contains(w));
        for w in words {
            l = l.replace(w, " ");
        }
        found
    };
    let below_first = side(&["no more than", "at most", "up to", "or less", "or fewer"]);
    let above_first = side(&["no less than", "at least", "or more", "and up"]);
    let below = below_first || side(&["under", "below", "less than", "<", "≤"]);
    let above = above_first || side(&["more than", "over", "above", ">", "≥", "+"]);
    match numbers.as_slice() {
        [x] if below && !above => Some((f64::NEG_INFINITY, *x)),
        [x] if above && !below => Some((*x, f64::INFINITY)),
        [a, b] if !below && !above && a < b => Some((*a, *b)),
        _ => None,
    }
}

/// The numbers in a label, a minus sign kept where it starts a number ("-1% to 1%") and not
/// where it joins two ("2-3").
fn numbers(l: &str) -> Vec<f64> {
    let b = l.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_number = |j: usize| j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.');
        let negative = b[i] == b'-'
            && starts_number(i + 1)
            && (i == 0 || !(b[i - 1].is_ascii_digit() || b[i - 1] == b'%'));
        if negative || (b[i].is_ascii_digit()) {
            let from = if negative { i + 1 } else { i };
            let mut j = from;
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.' || b[j] == b',') {
                j += 1;
            }
            if let Some(x) = value(&l[from..j]) {
                out.push(if negative { -x } else { x });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// A value as a person types it: "2.5", "-0.5", "+3", "2.5%", "1,200".
pub fn value(s: &str) -> Option<f64> {
    let s = s.trim().trim_end_matches('%').trim();
    let (sign, digits) = match s.strip_prefix(['-', '−']) {
        Some(rest) => (-1.0, rest),
        None => (1.0, s.strip_prefix('+').unwrap_or(s)),
    };
    // Not `str::parse`: core's float parser adds 14 KB gzipped of tables.
    crate::engine::cost::parse_decimal(&digits.replace(',', "")).map(|x| sign * x)
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
