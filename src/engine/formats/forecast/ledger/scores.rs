//! The ledger's scoring: each forecaster's Brier and log score on a resolved forecast,
//! the averages per forecaster and the calibration table.

use super::*;

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
    /// The roles' consensus of the opening round, before any rebuttal: what the panel
    /// would have said without debating.
    Opening,
    Consensus,
    Judge,
    Final,
}

impl Forecaster {
    pub fn label(&self) -> String {
        match self {
            Forecaster::Role { name, .. } => name.clone(),
            Forecaster::Opening => "Opening consensus (before rebuttals)".into(),
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
    opening: Option<&[f64]>,
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
            let name = seat_config.map_or_else(
                || crate::engine::formats::forecast::role_name(seat),
                |s| s.name.clone(),
            );
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
    let aggregate = |f: fn(
        &crate::engine::formats::forecast::types::OutcomeResult,
    ) -> Option<f64>|
     -> Vec<Option<f64>> { result.outcomes.iter().map(f).collect() };
    if let Some(opening) = opening {
        columns.push((
            Forecaster::Opening,
            opening.iter().copied().map(Some).collect(),
        ));
    }
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
