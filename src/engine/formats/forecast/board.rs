//! What the forecast panel shows, worked out from a debate's configuration and findings:
//! each outcome's chart (every role's latest readable probability, the consensus, the
//! judge and the final blend), the headline, each role's latest argument and score, and how
//! far the debate moved each outcome. Plain Rust, tested natively against values worked out
//! by hand; `ui::formats::forecast::panel` only draws it.

use super::consensus;
use super::paths::ForecastPath;
use super::types::{ArgumentFinding, ForecastFinding, ForecastResult};
use super::JUDGE;
use crate::engine::config::{DebateConfig, FormatOptions};
use crate::engine::finding::{Finding, FindingBody};
use crate::engine::formats::forecast::options::ForecastOptions;

/// The forecast's options and its roles in order, each as (seat, name in this debate).
pub fn roles(config: &DebateConfig) -> Option<(ForecastOptions, Vec<(String, String)>)> {
    let FormatOptions::Forecast(o) = &config.options else {
        return None;
    };
    let named = o
        .roles
        .iter()
        .map(|r| {
            let name = config.seat(&r.seat).map_or(&r.seat, |s| &s.name);
            (r.seat.clone(), name.clone())
        })
        .collect();
    Some((o.clone(), named))
}

/// A role as its seat is named in this debate ("Optimist"), however a model wrote its id
/// ("optimist", "OPTIMIST"); a role the debate does not have is shown as written.
pub fn role_name(config: &DebateConfig, role: &str) -> String {
    let role = role.trim();
    config
        .seats
        .iter()
        .find(|s| s.id.eq_ignore_ascii_case(role) || s.name.eq_ignore_ascii_case(role))
        .map_or_else(|| role.to_string(), |s| s.name.clone())
}

fn forecast(f: &Finding) -> Option<&ForecastFinding> {
    match &f.body {
        FindingBody::Forecast(x) => Some(x),
        _ => None,
    }
}

/// A role's latest argument of a round (the regenerated one when there is one).
pub fn argument(all: &[Finding], round: u32, seat: &str) -> Option<ArgumentFinding> {
    ForecastPath::latest_first(round, seat)
        .iter()
        .find_map(|(a, _)| {
            let key = a.argument_key();
            all.iter()
                .find(|f| f.key == key)
                .and_then(|f| match forecast(f) {
                    Some(ForecastFinding::Argument(a)) => Some(a.clone()),
                    _ => None,
                })
        })
}

/// How a role's argument of a round was scored.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgumentScore {
    /// The composite and its criteria (logic, evidence, novelty).
    Scored { composite: f64, criteria: Vec<f64> },
    /// The scorer's answer could not be read: why.
    Unscored(String),
}

/// The score of a role's latest argument of a round, if it has one yet.
pub fn score(all: &[Finding], round: u32, seat: &str) -> Option<ArgumentScore> {
    ForecastPath::latest_first(round, seat)
        .iter()
        .find_map(|(_, s)| {
            let key = s.to_string();
            all.iter()
                .find(|f| f.key == key)
                .and_then(|f| match &f.body {
                    FindingBody::Score {
                        total, criteria, ..
                    } => Some(ArgumentScore::Scored {
                        composite: *total,
                        criteria: criteria.iter().map(|c| c.value).collect(),
                    }),
                    FindingBody::Unscored { reason, .. } => {
                        Some(ArgumentScore::Unscored(reason.clone()))
                    }
                    _ => None,
                })
        })
}

/// A composite score's band, as the card colours it: under the regeneration line, not yet
/// good, fair, good.
pub fn score_band(composite: f64) -> &'static str {
    if composite < consensus::REGENERATE_BELOW {
        "bad"
    } else if composite <= consensus::GOOD_ABOVE {
        "poor"
    } else if composite < 0.7 {
        "fair"
    } else {
        "good"
    }
}

/// One bar of an outcome's chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// A role's seat, or `consensus`, `synthesis` or `final`.
    pub series: String,
    pub name: String,
    /// `None` until there is a readable number.
    pub value: Option<f64>,
}

impl Bar {
    /// The consensus, the judge's synthesis and the final blend, set apart from the roles.
    pub fn is_summary(&self) -> bool {
        matches!(self.series.as_str(), "consensus" | "synthesis" | "final")
    }
}

/// One outcome's chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub outcome: String,
    pub label: String,
    pub bars: Vec<Bar>,
}

/// Every outcome's chart. With `with_roles` (the panel) one bar per role holds its latest
/// readable probability; alone (a link to the forecast) only the three summary bars. Before
/// the result is in, the consensus is the live mean of the roles' readings but the judge's
/// (which enters the final blend apart); after, the result's own numbers.
pub fn charts(config: &DebateConfig, all: &[Finding], with_roles: bool) -> Option<Vec<Chart>> {
    let (o, roles) = roles(config)?;
    let result = super::types::result_in(all.iter());
    // Each role's latest readable distribution, in the outcomes' order.
    let latest: Vec<(String, String, Option<Vec<f64>>)> = roles
        .into_iter()
        .map(|(seat, name)| {
            let dist = (1..=o.rounds).rev().find_map(|r| {
                let a = argument(all, r, &seat).filter(|a| a.rejected.is_none())?;
                o.outcomes
                    .iter()
                    .map(|out| {
                        a.probabilities
                            .iter()
                            .find(|p| p.outcome == out.id)
                            .map(|p| p.probability)
                    })
                    .collect::<Option<Vec<f64>>>()
            });
            (seat, name, dist)
        })
        .collect();
    let readings: Vec<Vec<f64>> = latest
        .iter()
        .filter(|(seat, _, _)| seat != JUDGE)
        .filter_map(|(_, _, d)| d.clone())
        .collect();
    let live_consensus = consensus::mean(&readings);
    let charts = o
        .outcomes
        .iter()
        .enumerate()
        .map(|(i, out)| {
            let r = result.and_then(|r| r.outcomes.iter().find(|x| x.outcome == out.id));
            let mut bars: Vec<Bar> = if with_roles {
                latest
                    .iter()
                    .map(|(seat, name, d)| Bar {
                        series: seat.clone(),
                        name: name.clone(),
                        value: d.as_ref().map(|d| d[i]),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let summary = |series: &str, name: &str, value| Bar {
                series: series.into(),
                name: name.into(),
                value,
            };
            bars.push(summary(
                "consensus",
                "Consensus",
                r.and_then(|r| r.consensus)
                    .or_else(|| live_consensus.as_ref().map(|c| c[i])),
            ));
            bars.push(summary(
                "synthesis",
                "Judge (synthesis)",
                r.and_then(|r| r.judge),
            ));
            bars.push(summary(
                "final",
                "Final",
                r.and_then(|r| r.final_probability),
            ));
            Chart {
                outcome: out.id.clone(),
                label: out.label.clone(),
                bars,
            }
        })
        .collect();
    Some(charts)
}

/// The outcome the final blend makes most likely, with its probability.
pub fn headline(result: &ForecastResult) -> Option<(String, f64)> {
    result
        .outcomes
        .iter()
        .filter_map(|o| o.final_probability.map(|p| (o.label.clone(), p)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

/// How far the debate moved one outcome: from the roles' opening consensus (before any
/// rebuttal, the forecast without the debate) to the final blend.
#[derive(Clone, Debug, PartialEq)]
pub struct Shift {
    pub label: String,
    pub opened: f64,
    pub ends: f64,
}

impl Shift {
    /// "+12.5 points", "−3.0 points", or "unmoved" under a twentieth of a point.
    pub fn change(&self) -> String {
        let points = (self.ends - self.opened) * 100.0;
        if points.abs() < 0.05 {
            return "unmoved".into();
        }
        let sign = if points > 0.0 { "+" } else { "−" };
        format!(
            "{sign}{} points",
            crate::engine::cost::decimal(points.abs(), 1)
        )
    }
}

/// Each outcome's shift, once the result is in and the opening round was read.
pub fn shifts(all: &[Finding], result: &ForecastResult) -> Option<Vec<Shift>> {
    let opening = super::ledger::opening(all.iter(), result)?;
    Some(
        result
            .outcomes
            .iter()
            .zip(opening)
            .filter_map(|(o, opened)| {
                Some(Shift {
                    label: o.label.clone(),
                    opened,
                    ends: o.final_probability?,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::Participant;
    use crate::engine::formats::forecast::options::ForecastOutcome;
    use serde_json::json;

    fn config() -> DebateConfig {
        let roles = ["optimist", "pessimist", "judge"]
            .into_iter()
            .map(|k| {
                (
                    k.to_string(),
                    String::new(),
                    String::new(),
                    Participant::Human,
                )
            })
            .collect();
        let options = ForecastOptions {
            outcomes: ["yes", "no", "delay"]
                .into_iter()
                .map(|id| ForecastOutcome {
                    id: id.into(),
                    label: format!("Label {id}"),
                    description: String::new(),
                })
                .collect(),
            rounds: 2,
            ..Default::default()
        };
        super::super::new_config("Will it ship?", roles, None, options)
    }

    /// A role's argument of a round with probabilities (yes, no, delay), or rejected.
    fn argued(round: u32, seat: &str, again: bool, p: Option<[f64; 3]>) -> Finding {
        let path = ForecastPath::Argument {
            round,
            seat: seat.into(),
            again,
        };
        let probabilities: Vec<_> = p.map_or(Vec::new(), |p| {
            // Given out of order: the board reads them by outcome.
            vec![
                json!({"outcome": "delay", "probability": p[2]}),
                json!({"outcome": "yes", "probability": p[0]}),
                json!({"outcome": "no", "probability": p[1]}),
            ]
        });
        let a: ArgumentFinding = serde_json::from_value(json!({
            "round": round, "phase": if round == 1 { "opening" } else { "closing" },
            "argument": "Because.", "probabilities": probabilities,
            "rejected": if p.is_none() { json!("they sum to zero") } else { json!(null) },
        }))
        .unwrap();
        Finding {
            key: path.argument_key(),
            about: None,
            seat: seat.into(),
            body: FindingBody::Forecast(Box::new(ForecastFinding::Argument(a))),
        }
    }

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("a value");
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    fn bar<'a>(c: &'a Chart, series: &str) -> &'a Bar {
        c.bars.iter().find(|b| b.series == series).unwrap()
    }

    #[test]
    fn the_charts_show_each_roles_latest_reading_and_the_live_consensus_without_the_judge() {
        let all = vec![
            argued(1, "optimist", false, Some([0.6, 0.3, 0.1])),
            // Round 2 replaces round 1; the regenerated attempt replaces the first.
            argued(2, "optimist", false, Some([0.2, 0.2, 0.6])),
            argued(2, "optimist", true, Some([0.7, 0.2, 0.1])),
            argued(1, "pessimist", false, Some([0.1, 0.8, 0.1])),
            // A rejected reading leaves the earlier one standing.
            argued(2, "pessimist", false, None),
            argued(1, "judge", false, Some([0.9, 0.05, 0.05])),
        ];
        let charts = charts(&config(), &all, true).unwrap();
        assert_eq!(charts.len(), 3);
        let yes = &charts[0];
        assert_eq!(
            (yes.outcome.as_str(), yes.label.as_str()),
            ("yes", "Label yes")
        );
        let names: Vec<_> = yes.bars.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Optimist",
                "Pessimist",
                "Judge",
                "Consensus",
                "Judge (synthesis)",
                "Final"
            ]
        );
        close(bar(yes, "optimist").value, 0.7);
        close(bar(yes, "pessimist").value, 0.1);
        close(bar(yes, "judge").value, 0.9);
        // (0.7 + 0.1) / 2 = 0.4 for yes; (0.2 + 0.8) / 2 = 0.5 for no; the judge's 0.9 is
        // not in it.
        close(bar(yes, "consensus").value, 0.4);
        close(bar(&charts[1], "consensus").value, 0.5);
        close(bar(&charts[2], "consensus").value, 0.1);
        assert_eq!(bar(yes, "final").value, None, "no result yet");
        assert!(bar(yes, "final").is_summary() && !bar(yes, "judge").is_summary());

        // Alone, a chart holds only the three summary bars.
        let alone = super::charts(&config(), &all, false).unwrap();
        assert_eq!(alone[0].bars.len(), 3);
        assert!(alone[0].bars.iter().all(Bar::is_summary));
    }

    #[test]
    fn with_the_result_in_the_charts_show_its_numbers_and_the_shift_from_the_opening() {
        let mut all = vec![
            argued(1, "optimist", false, Some([0.6, 0.3, 0.1])),
            argued(1, "pessimist", false, Some([0.2, 0.6, 0.2])),
            argued(1, "judge", false, Some([1.0, 0.0, 0.0])),
        ];
        let outcome = |id: &str, consensus: f64, judge: f64, fin: f64| {
            json!({"outcome": id, "label": format!("Label {id}"), "roles": [],
                   "consensus": consensus, "judge": judge, "final": fin, "consensus_score": 0.8})
        };
        let result: ForecastResult = serde_json::from_value(json!({
            "outcomes": [outcome("yes", 0.4, 0.7, 0.58), outcome("no", 0.45, 0.2, 0.3),
                         outcome("delay", 0.15, 0.1, 0.12)],
            "consensus_score": 0.8, "judge_weight": 0.6, "judge_source": "synthesis",
            "scored": 0, "good": 0, "good_share": 0.0, "low_quality": false, "regenerated": 0,
            "roles_configured": 3, "roles_succeeded": 3, "partial": false, "confidence": null,
            "probabilities_parsed": 3, "probabilities_rejected": 0,
            "metadata": {"total_arguments": 3, "calls": 9, "input_tokens": 1, "output_tokens": 1,
                         "wall_clock_ms": 1, "models": []},
        }))
        .unwrap();
        all.push(Finding {
            key: "result".into(),
            about: None,
            seat: String::new(),
            body: FindingBody::Forecast(Box::new(ForecastFinding::Result(result.clone()))),
        });
        let charts = charts(&config(), &all, true).unwrap();
        close(bar(&charts[0], "consensus").value, 0.4);
        close(bar(&charts[0], "synthesis").value, 0.7);
        close(bar(&charts[0], "final").value, 0.58);
        assert_eq!(headline(&result), Some(("Label yes".into(), 0.58)));
        // Opening consensus without the judge: yes (0.6 + 0.2) / 2 = 0.4, no 0.45, delay
        // 0.15. Final 0.58, 0.3, 0.12: +18.0, −15.0 and −3.0 points.
        let shifts = shifts(&all, &result).unwrap();
        let changes: Vec<_> = shifts.iter().map(Shift::change).collect();
        assert_eq!(changes, ["+18.0 points", "−15.0 points", "−3.0 points"]);
        let still = Shift {
            label: "x".into(),
            opened: 0.5,
            ends: 0.5004,
        };
        assert_eq!(still.change(), "unmoved");
    }

    #[test]
    fn scores_roles_and_bands_read_as_the_cards_show_them() {
        assert_eq!(
            [0.1, 0.3, 0.5, 0.8].map(score_band),
            ["bad", "poor", "fair", "good"]
        );
        let c = config();
        assert_eq!(role_name(&c, " OPTIMIST "), "Optimist");
        assert_eq!(role_name(&c, "economist"), "economist");
        let (o, roles) = roles(&c).unwrap();
        assert_eq!(o.rounds, 2);
        assert_eq!(roles[1], ("pessimist".into(), "Pessimist".into()));
        assert_eq!(score(&[], 1, "optimist"), None);
    }
}
