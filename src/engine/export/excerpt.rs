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
    let kept = [Some(start), Some(finding), end];
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
    use crate::engine::formats::scripted::{model, run_scripted};

    #[test]
    fn a_crux_card_alone_reads_back_with_its_configuration_and_nothing_else() {
        let config = default_config(FormatId::Crux, "Ban cars?", &|_| model("c"));
        let run = run_scripted(
            config,
            Default::default(),
            crate::engine::context::Inputs::new(),
        );
        let card = run
            .events
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::FindingRecorded(f) if f.body.label() == "Crux card" => Some(f.clone()),
                _ => None,
            })
            .expect("a scripted crux debate records a card");
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
}
