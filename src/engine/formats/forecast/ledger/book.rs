//! The ledger screen's content as plain data: every finished forecast of this browser,
//! open or resolved, what the screen says about them (the count, whether debating helped,
//! each model's record, the calibration points). `ui::ledger` draws it.

use super::{
    averages, brier, calibration, entry, scores, Average, Bin, Forecaster, Resolution, Score,
};
use crate::engine::event::Event;

/// One finished forecast.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub id: String,
    pub topic: String,
    /// The final blend's most likely outcome and its probability.
    pub likely: Option<(String, f64)>,
    /// What happened, its outcome's label and every forecaster's score.
    pub resolved: Option<Resolved>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub resolution: Resolution,
    pub label: String,
    pub scores: Vec<Score>,
    /// Where the outcome that happened stands in the result's outcomes.
    pub happened: usize,
}

impl Resolved {
    pub fn of(&self, who: Forecaster) -> Option<&Score> {
        self.scores.iter().find(|s| s.forecaster == who)
    }
}

impl Line {
    /// A stored debate's line: `None` for anything but a forecast that finished with a
    /// result.
    pub fn of(id: String, topic: String, events: &[Event]) -> Option<Line> {
        let e = entry(events)?;
        let likely = e
            .result
            .outcomes
            .iter()
            .filter_map(|o| o.final_probability.map(|p| (o.label.clone(), p)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let resolved = e.resolution.as_ref().and_then(|r| {
            let happened = e
                .result
                .outcomes
                .iter()
                .position(|o| o.outcome == r.outcome)?;
            let scores = scores(e.config, &e.result, e.opening.as_deref(), r).ok()?;
            Some(Resolved {
                resolution: r.clone(),
                label: e.result.outcomes[happened].label.clone(),
                scores,
                happened,
            })
        });
        Some(Line {
            id,
            topic,
            likely,
            resolved,
        })
    }
}

/// The ledger: open and resolved forecasts, and the logs that could not be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    pub open: Vec<Line>,
    pub resolved: Vec<Line>,
    /// "topic: why", one per forecast whose log could not be read (left out, not hidden).
    pub unreadable: Vec<String>,
}

impl Book {
    pub fn new(lines: Vec<Line>, unreadable: Vec<String>) -> Self {
        let (resolved, open) = lines.into_iter().partition(|l| l.resolved.is_some());
        Book {
            open,
            resolved,
            unreadable,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.open.is_empty() && self.resolved.is_empty()
    }

    fn resolutions(&self) -> impl Iterator<Item = &Resolved> {
        self.resolved.iter().filter_map(|l| l.resolved.as_ref())
    }

    /// "3 forecasts: 1 resolved, 2 open."
    pub fn summary(&self) -> String {
        let all = self.open.len() + self.resolved.len();
        format!(
            "{all} forecast{}: {} resolved, {} open.",
            if all == 1 { "" } else { "s" },
            self.resolved.len(),
            self.open.len()
        )
    }

    /// Did debating help? Each resolved forecast's opening consensus (the roles before any
    /// rebuttal) against its final blend, and the roles' own consensus after the debate.
    pub fn debate_helped(&self) -> Option<String> {
        let triples: Vec<(f64, f64, Option<f64>)> = self
            .resolutions()
            .filter_map(|r| {
                let of = |f| r.of(f).map(|s| s.brier);
                Some((
                    of(Forecaster::Opening)?,
                    of(Forecaster::Final)?,
                    of(Forecaster::Consensus),
                ))
            })
            .collect();
        let n = triples.len();
        if n == 0 {
            return None;
        }
        let better = triples.iter().filter(|(o, f, _)| f < o).count();
        let roles_better = triples
            .iter()
            .filter(|(o, _, c)| c.is_some_and(|c| c < *o))
            .count();
        let mean =
            |k: fn(&(f64, f64, Option<f64>)) -> f64| triples.iter().map(k).sum::<f64>() / n as f64;
        Some(format!(
            "Did debating help? The final blend beat the opening consensus (the roles before any rebuttal) in {better} of {}; mean Brier {} at the opening, {} after the debate (lower is better). The blend also carries the judge's synthesis; the roles' own consensus after the debate beat their opening in {roles_better} of {n}.",
            crate::engine::reading::count(n, "resolved forecast"),
            brier(mean(|p| p.0)),
            brier(mean(|p| p.1))
        ))
    }

    /// Each model's (and aggregate's) mean scores over the resolved forecasts.
    pub fn models(&self) -> Vec<Average> {
        let scored: Vec<Vec<Score>> = self.resolutions().map(|r| r.scores.clone()).collect();
        averages(&scored)
    }

    /// The final blend's distribution (as scored: summing to 1) and the outcome that
    /// happened, per resolved forecast.
    pub fn points(&self) -> Vec<(Vec<f64>, usize)> {
        self.resolutions()
            .filter_map(|r| Some((r.of(Forecaster::Final)?.probabilities.clone(), r.happened)))
            .collect()
    }

    /// The calibration chart's bins; `None` until enough forecasts are resolved.
    pub fn calibration(&self) -> Option<Vec<Bin>> {
        calibration(&self.points())
    }
}
