//! Which judge agrees with you. Wherever a person gave blind verdicts in a tournament (a
//! judge on the panel that is `Participant::Human`), every model judge's verdict on the same
//! debate is set beside it; wherever a person ranked the answers of a council, every model
//! member's ballot is set beside theirs, pair of answers by pair (which of the two ranks
//! higher), leaving out the person's own answer, which they know. Over every tournament and
//! council in this browser, Cohen's kappa per judge model says how far it agrees with the
//! person beyond chance, with a 95% interval. A judge that has shared too few verdicts with
//! the person is listed with its count and no claim.

use super::agreement::{cohen, Cohen};
use super::progress::Tournament;
use super::spec::{entrant_name, model_key};
use super::standings::category;
use crate::engine::config::{FormatOptions, Participant};
use crate::engine::event::{config_of, Event, EventKind};
use crate::engine::finding::{CouncilFinding, FindingBody};

/// Shared verdicts a judge needs before its agreement with the person is said: under it,
/// the interval is too wide to tell a judge that agrees from one that guesses.
pub const MIN_SHARED: u32 = 10;

/// One judge model's agreement with the person.
#[derive(Clone, Debug, PartialEq)]
pub struct WithYou {
    /// As the panel names it ("gpt-4o (OpenAI)"), from the first tournament it judged.
    pub judge: String,
    pub agreement: Cohen,
    /// Tournaments and councils in which both judged.
    pub occasions: u32,
}

impl WithYou {
    /// Whether there are enough shared verdicts to say anything.
    pub fn enough(&self) -> bool {
        self.agreement.shared >= MIN_SHARED && self.agreement.kappa.is_some()
    }
}

/// One judge model's verdicts beside the person's: its key, its name, the (person, judge)
/// pairs, and how many tournaments they come from.
type Pairs = (String, String, Vec<(usize, usize)>, u32);

/// Every judge model that judged a debate the person judged too, most shared verdicts
/// first. Verdicts are the match's sides (first speaker, second speaker) or a tie; a debate
/// the person found could not be judged, or a model's unreadable verdict, is no verdict.
pub fn judges_and_you(tournaments: &[Tournament], councils: &[Vec<Event>]) -> Vec<WithYou> {
    let mut by_model: Vec<Pairs> = Vec::new();
    let mut add = |key: String, name: String, pair: (usize, usize), seen: &mut Vec<String>| {
        let at = match by_model.iter().position(|m| m.0 == key) {
            Some(i) => i,
            None => {
                by_model.push((key.clone(), name, Vec::new(), 0));
                by_model.len() - 1
            }
        };
        by_model[at].2.push(pair);
        if !seen.contains(&key) {
            seen.push(key);
            by_model[at].3 += 1;
        }
    };
    for t in tournaments {
        let people: Vec<usize> = (0..t.spec.judges.len())
            .filter(|&j| model_key(&t.spec.judges[j]).is_none())
            .collect();
        if people.is_empty() {
            continue;
        }
        let mut seen_here: Vec<String> = Vec::new();
        for p in &t.progress {
            let of = |j: usize| {
                p.votes
                    .iter()
                    .find(|v| v.judge == j)
                    .and_then(|v| v.decision)
                    .and_then(category)
            };
            for &person in &people {
                let Some(yours) = of(person) else { continue };
                for (j, judge) in t.spec.judges.iter().enumerate() {
                    let Some(key) = model_key(judge) else {
                        continue;
                    };
                    let Some(theirs) = of(j) else { continue };
                    add(key, entrant_name(judge), (yours, theirs), &mut seen_here);
                }
            }
        }
    }
    for events in councils {
        let mut seen_here: Vec<String> = Vec::new();
        for (key, name, pair) in council_pairs(events) {
            add(key, name, pair, &mut seen_here);
        }
    }
    let mut out: Vec<WithYou> = by_model
        .into_iter()
        .map(|(_, judge, pairs, occasions)| WithYou {
            judge,
            agreement: cohen(&pairs, 3),
            occasions,
        })
        .collect();
    out.sort_by_key(|w| std::cmp::Reverse(w.agreement.shared));
    out
}

/// A council's ballots as (model key, judge name, (the person's preference, the model's))
/// over each pair of answers both ranked: 0 when the one seated first ranks higher, else 1.
/// The person's own answer is left out (they know it); a model's own is kept (it ranked
/// blind). Nothing for anything but a council with a person's readable ballot.
fn council_pairs(events: &[Event]) -> Vec<(String, String, (usize, usize))> {
    let Some(config) = config_of(events) else {
        return Vec::new();
    };
    if !matches!(config.options, FormatOptions::Council(_)) {
        return Vec::new();
    }
    // (reviewer, round, its ranking best first)
    let ballots: Vec<(&str, u32, Vec<String>)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::FindingRecorded(f) => match &f.body {
                FindingBody::Council(c) => match c.as_ref() {
                    CouncilFinding::Ballot(b) => Some((
                        f.seat.as_str(),
                        b.round,
                        b.ranking.iter().map(|r| r.seat.clone()).collect(),
                    )),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    let order = |s: &str| config.seats.iter().position(|x| x.id == s);
    let mut out = Vec::new();
    for (person, round, mine) in &ballots {
        if !matches!(
            config.seat(person).map(|s| &s.participant),
            Some(Participant::Human)
        ) {
            continue;
        }
        for (reviewer, r, theirs) in &ballots {
            let Some(judge) = config.seat(reviewer).map(|s| &s.participant) else {
                continue;
            };
            let Some(key) = model_key(judge) else {
                continue;
            };
            if r != round {
                continue;
            }
            let mut common: Vec<&String> = mine
                .iter()
                .filter(|s| s.as_str() != *person && theirs.contains(s))
                .collect();
            common.sort_by_key(|s| order(s));
            for (i, a) in common.iter().enumerate() {
                for b in &common[i + 1..] {
                    let pref = |ranking: &[String]| {
                        let at = |x: &String| ranking.iter().position(|y| y == x);
                        usize::from(at(a) > at(b))
                    };
                    out.push((key.clone(), entrant_name(judge), (pref(mine), pref(theirs))));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::progress::{MatchProgress, Vote};
    use super::super::spec::tests::spec;
    use super::super::verdict::Decision;
    use super::*;

    fn vote(judge: usize, decision: Option<Decision>) -> Vote {
        Vote {
            judge,
            shown_first: 0,
            decision,
            reason: String::new(),
        }
    }

    /// A tournament whose debates have these (person, judge-x, judge-y) decisions.
    fn tournament(rows: &[[Option<Decision>; 3]]) -> Tournament {
        Tournament {
            spec: spec(&["a", "b"], &["m"], &["person", "judge-x", "judge-y"]),
            matches: Vec::new(),
            progress: rows
                .iter()
                .map(|r| MatchProgress {
                    votes: r.iter().enumerate().map(|(j, d)| vote(j, *d)).collect(),
                    ..Default::default()
                })
                .collect(),
            judges: Vec::new(),
            stopped: None,
        }
    }

    #[test]
    fn each_judge_model_is_set_beside_the_persons_verdicts_across_tournaments() {
        use Decision::*;
        let (a, b, tie) = (Some(Side(0)), Some(Side(1)), Some(Tie));
        // judge-x always sides with the person; judge-y always with the other side.
        let rows: Vec<[Option<Decision>; 3]> = (0..6)
            .map(|i| if i % 2 == 0 { [a, a, b] } else { [b, b, a] })
            .collect();
        let mut second = rows.clone();
        // A debate the person could not judge, and one judge-y's verdict was unreadable:
        // neither is a shared verdict.
        second.push([Some(Unjudgeable), a, a]);
        second.push([tie, tie, None]);
        let t = [tournament(&rows), tournament(&second)];
        let table = judges_and_you(&t, &[]);
        assert_eq!(table.len(), 2);
        let x = table
            .iter()
            .find(|w| w.judge.starts_with("judge-x"))
            .unwrap();
        assert_eq!((x.agreement.shared, x.agreement.agreed), (13, 13));
        assert_eq!(x.agreement.kappa, Some(1.0));
        assert_eq!(x.occasions, 2);
        assert!(x.enough());
        let y = table
            .iter()
            .find(|w| w.judge.starts_with("judge-y"))
            .unwrap();
        assert_eq!((y.agreement.shared, y.agreement.agreed), (12, 0));
        assert!(y.agreement.kappa.unwrap() < -0.9);
        // One tournament of six: too few to tell.
        let few = judges_and_you(&t[..1], &[]);
        assert_eq!(few[0].agreement.shared, 6);
        assert!(!few[0].enough());
        // No person on the panel: nothing to compare.
        let mut none = tournament(&rows);
        none.spec.judges[0] = none.spec.judges[1].clone();
        assert!(judges_and_you(&[none], &[]).is_empty());
    }

    #[test]
    fn a_persons_council_ballot_is_set_beside_each_model_members_pair_by_pair() {
        use crate::engine::config::CouncilOptions;
        use crate::engine::context::Inputs;
        use crate::engine::event::Input;
        use crate::engine::formats::council;
        use crate::engine::formats::testing::scripted::{model, run_scripted};
        let config = council::new_config(
            "Is a four-day week good?",
            vec![
                (String::new(), model("c0")),
                (String::new(), Participant::Human),
                (String::new(), model("c2")),
            ],
            model("chair"),
            model("analyst"),
            CouncilOptions::default(),
        );
        let inputs = Inputs::new();
        for (path, text) in [
            ("answer/member-2", "Yes, for a quarter."),
            ("review/1/member-2", "C\nA\nB"),
        ] {
            inputs.push(Input::HumanTurn {
                call: crate::engine::CallKey::new(path, 0),
                text: text.into(),
            });
        }
        let run = run_scripted(config, Default::default(), inputs);
        let ranking = |seat: &str| -> Vec<String> {
            run.events
                .iter()
                .find_map(|e| match &e.kind {
                    EventKind::FindingRecorded(f) if f.seat == seat => match &f.body {
                        FindingBody::Council(c) => match c.as_ref() {
                            CouncilFinding::Ballot(b) => {
                                Some(b.ranking.iter().map(|r| r.seat.clone()).collect())
                            }
                            _ => None,
                        },
                        _ => None,
                    },
                    _ => None,
                })
                .unwrap()
        };
        // Leaving out the person's own answer, one pair is left: member-1 against member-3.
        let first = |r: &[String]| {
            let at = |s: &str| r.iter().position(|x| x == s);
            usize::from(at("member-1") > at("member-3"))
        };
        let mine = first(&ranking("member-2"));
        let expected = [first(&ranking("member-1")), first(&ranking("member-3"))]
            .iter()
            .filter(|p| **p == mine)
            .count() as u32;
        let table = judges_and_you(&[], std::slice::from_ref(&run.events));
        assert_eq!(table.len(), 1, "both members run the model m");
        assert!(table[0].judge.starts_with("m ("), "{}", table[0].judge);
        assert_eq!(table[0].agreement.shared, 2);
        assert_eq!(table[0].agreement.agreed, expected);
        assert_eq!(table[0].occasions, 1);
    }
}
