//! One finding cut out of its debate: the configuration it belongs to, the finding, and how
//! the debate ended. What a link to one crux card or one forecast carries when the sharer
//! leaves the rest of the debate out. Sequence numbers are counted again from 0, so the
//! excerpt reads back through `import` like any log.

use super::super::event::{Event, EventKind};

/// The excerpt of the finding `key`, or `None` when the log has no such finding.
pub fn excerpt(events: &[Event], key: &str) -> Option<Vec<Event>> {
    let finding = events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::FindingRecorded(f) if f.key == key))?;
    let start = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::DebateStarted { .. }))?;
    let end = events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::Finished { .. }));
    // A resolved forecast carries its resolution (the latest) with it.
    let resolution = events
        .iter()
        .rev()
        .find(|e| matches!(e.kind, EventKind::Resolved(_)))
        .filter(|_| end.is_some());
    let kept = [Some(start), Some(finding), end, resolution];
    Some(
        kept.into_iter()
            .flatten()
            .enumerate()
            .map(|(seq, e)| Event {
                seq: seq as u32,
                ..e.clone()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::FormatId;
    use crate::engine::export::{import, to_json};
    use crate::engine::formats::default_config;
    use crate::engine::formats::testing::scripted::{model, run_scripted};

    /// A whole debate of `format` on the scripted model.
    fn scripted(format: FormatId) -> crate::engine::formats::testing::scripted::Scripted {
        let config = default_config(format, "Ban cars?", &|_| model("c"));
        run_scripted(
            config,
            Default::default(),
            crate::engine::context::Inputs::new(),
        )
    }

    /// The first finding labelled `label`.
    fn finding(events: &[Event], label: &str) -> Option<crate::engine::finding::Finding> {
        events.iter().find_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) if f.body.label() == label => Some(f.clone()),
            _ => None,
        })
    }

    #[test]
    fn a_crux_card_alone_reads_back_with_its_configuration_and_nothing_else() {
        let run = scripted(FormatId::Crux);
        let card =
            finding(&run.events, "Crux card").expect("a scripted crux debate records a card");
        let cut = excerpt(&run.events, &card.key).unwrap();
        assert_eq!(cut.len(), 3);
        assert!(matches!(cut[0].kind, EventKind::DebateStarted { .. }));
        assert!(matches!(&cut[1].kind, EventKind::FindingRecorded(f) if *f == card));
        assert!(matches!(cut[2].kind, EventKind::Finished { .. }));
        let back = import(&to_json(&cut)).expect("an excerpt imports like any log");
        assert_eq!(back, cut);
        assert!(
            !to_json(&cut).contains("TurnFinished"),
            "no turn comes with the card"
        );
        assert_eq!(excerpt(&run.events, "no/such/finding"), None);
    }

    /// A resolution is part of the log: exported, imported and shared (with the forecast
    /// alone) with it; one placed before the forecast finished is refused on import.
    #[test]
    fn a_resolved_forecast_travels_with_its_resolution() {
        use crate::engine::formats::forecast::ledger::Resolution;
        let run = scripted(FormatId::Forecast);
        let mut events = run.events.clone();
        let resolved = |seq: u32, outcome: &str| Event {
            seq,
            at_ms: 1,
            kind: EventKind::Resolved(Resolution {
                outcome: outcome.into(),
                value: None,
                on: "2027-01-01".into(),
                note: "the weather service".into(),
            }),
        };
        let next = events.last().unwrap().seq + 1;
        events.push(resolved(next, "no"));
        events.push(resolved(next + 1, "yes"));
        // The transcripts say what happened, the correction after the first word.
        let md = crate::engine::export::to_markdown(&events);
        let lines: Vec<&str> = md.lines().filter(|l| l.contains("**Resolved**")).collect();
        assert_eq!(lines.len(), 2, "{md}");
        assert!(
            lines[1].ends_with("on 2027-01-01 · the weather service"),
            "{}",
            lines[1]
        );
        let label = crate::engine::formats::forecast::ledger::entry(&events)
            .unwrap()
            .result
            .outcomes
            .into_iter()
            .find(|o| o.outcome == "yes")
            .unwrap()
            .label;
        assert!(
            lines[1].contains(&format!("**Resolved**: {label} on")),
            "{}",
            lines[1]
        );
        let text = crate::engine::export::to_text(&events);
        assert!(
            text.contains(&format!("{label} on 2027-01-01 · the weather service")),
            "{text}"
        );
        let back = import(&to_json(&events)).expect("a resolved forecast imports");
        assert_eq!(back.len(), events.len());
        assert_eq!(back[back.len() - 2..], events[events.len() - 2..]);
        let key = finding(&events, "Forecast").unwrap().key;
        let cut = excerpt(&events, &key).unwrap();
        assert_eq!(cut.len(), 4);
        assert!(matches!(&cut[3].kind, EventKind::Resolved(r) if r.outcome == "yes"));
        // (Numbers may differ in their last digit after a trip through JSON text.)
        assert_eq!(import(&to_json(&cut)).unwrap()[3], cut[3]);
        // Before the end: refused, with where.
        let mut early = run.events.clone();
        let at = early.len() - 1;
        early.insert(at, resolved(early[at].seq, "yes"));
        for (i, e) in early.iter_mut().enumerate() {
            e.seq = i as u32;
        }
        let e = import(&to_json(&early)).unwrap_err();
        assert!(e.contains("a resolution before the debate finished"), "{e}");
        // Not one of its outcomes: refused, with why.
        let mut wrong = run.events.clone();
        wrong.push(resolved(next, "maybe"));
        let e = import(&to_json(&wrong)).unwrap_err();
        assert!(e.contains("not one of this forecast's outcomes"), "{e}");
    }
}
