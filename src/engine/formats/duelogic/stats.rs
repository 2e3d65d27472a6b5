//! What a duelogic debate's log adds up to per chair: evaluations, average adherence,
//! steel-manning and self-critique counts, interjections, interruptions made and suffered,
//! and interruptions by reason. Read from the findings, so a stored debate shows the same.

use crate::engine::config::{DebateConfig, FormatOptions};
use crate::engine::event::{Event, EventKind};
use crate::engine::finding::{Finding, FindingBody, InterruptReason};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChairStats {
    pub seat: String,
    pub evaluations: u32,
    pub unscored: u32,
    adherence_total: u32,
    pub steel_manned: u32,
    pub self_critiqued: u32,
    pub interjections: u32,
    pub interrupted_others: u32,
    pub was_interrupted: u32,
}

impl ChairStats {
    /// Mean adherence over the evaluated responses; `None` when none was scored.
    pub fn average_adherence(&self) -> Option<u32> {
        (self.evaluations > 0)
            .then(|| (self.adherence_total + self.evaluations / 2) / self.evaluations)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub chairs: Vec<ChairStats>,
    /// (reason, count), in the order reasons first occurred.
    pub by_reason: Vec<(InterruptReason, u32)>,
}

impl Stats {
    pub fn from_events(config: &DebateConfig, events: &[Event]) -> Self {
        Self::from_findings(
            config,
            events.iter().filter_map(|e| match &e.kind {
                EventKind::FindingRecorded(f) => Some(f),
                _ => None,
            }),
        )
    }

    pub fn from_findings<'a>(
        config: &DebateConfig,
        findings: impl IntoIterator<Item = &'a Finding>,
    ) -> Self {
        let mut s = Stats::default();
        if let FormatOptions::Duelogic(o) = &config.options {
            s.chairs = o
                .chairs
                .iter()
                .map(|c| ChairStats {
                    seat: c.seat.clone(),
                    ..Default::default()
                })
                .collect();
        }
        for f in findings {
            match &f.body {
                FindingBody::Evaluation(ev) => {
                    if let Some(c) = s.chair(&f.seat) {
                        c.evaluations += 1;
                        c.adherence_total += ev.adherence;
                        c.steel_manned += u32::from(ev.steel_manning.attempted);
                        c.self_critiqued += u32::from(ev.self_critique.attempted);
                    }
                }
                FindingBody::Unscored { .. } => {
                    if let Some(c) = s.chair(&f.seat) {
                        c.unscored += 1;
                    }
                }
                FindingBody::Interjection { .. } => {
                    if let Some(c) = s.chair(&f.seat) {
                        c.interjections += 1;
                    }
                }
                FindingBody::Interruption { by, reason, .. } => {
                    if let Some(c) = s.chair(&f.seat) {
                        c.was_interrupted += 1;
                    }
                    if let Some(c) = s.chair(by) {
                        c.interrupted_others += 1;
                    }
                    match s.by_reason.iter_mut().find(|(r, _)| r == reason) {
                        Some(r) => r.1 += 1,
                        None => s.by_reason.push((*reason, 1)),
                    }
                }
                _ => {}
            }
        }
        s
    }

    fn chair(&mut self, seat: &str) -> Option<&mut ChairStats> {
        self.chairs.iter_mut().find(|c| c.seat == seat)
    }

    /// The scorecard in words, for the Arbiter's closing prompt.
    pub fn scorecard(&self, config: &DebateConfig) -> String {
        self.chairs
            .iter()
            .map(|c| {
                let seat = config.seat(&c.seat);
                let name = seat.map_or(c.seat.as_str(), |s| s.name.as_str());
                let framework = seat.and_then(|s| s.stance.as_deref()).unwrap_or("");
                let adherence = c
                    .average_adherence()
                    .map_or("not scored".to_string(), |a| format!("{a}/100"));
                format!(
                    "- {name} ({framework}): average adherence {adherence}; steel-manned in {} of {} responses; admitted blind spots in {} of {}; {}; interrupted others {}, was interrupted {}.",
                    c.steel_manned, c.evaluations, c.self_critiqued, c.evaluations,
                    crate::engine::reading::count(c.interjections as usize, "interjection"),
                    crate::engine::reading::count(c.interrupted_others as usize, "time"),
                    crate::engine::reading::count(c.was_interrupted as usize, "time")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
