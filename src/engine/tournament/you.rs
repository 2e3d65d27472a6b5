//! Which judge agrees with you. Wherever a person gave blind verdicts in a tournament (a
//! judge on the panel that is `Participant::Human`), every model judge's verdict on the same
//! debate is set beside it; over every tournament in this browser, Cohen's kappa per judge
//! model says how far it agrees with the person beyond chance, with a 95% interval. A judge
//! that has shared too few verdicts with the person is listed with its count and no claim.

use super::agreement::{cohen, Cohen};
use super::progress::Tournament;
use super::spec::{entrant_name, model_key};
use super::standings::category;

/// Shared verdicts a judge needs before its agreement with the person is said: under it,
/// the interval is too wide to tell a judge that agrees from one that guesses.
pub const MIN_SHARED: u32 = 10;

/// One judge model's agreement with the person.
#[derive(Clone, Debug, PartialEq)]
pub struct WithYou {
    /// As the panel names it ("gpt-4o (OpenAI)"), from the first tournament it judged.
    pub judge: String,
    pub agreement: Cohen,
    /// Tournaments in which both judged.
    pub tournaments: u32,
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
pub fn judges_and_you(tournaments: &[Tournament]) -> Vec<WithYou> {
    let mut by_model: Vec<Pairs> = Vec::new();
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
                    let at = match by_model.iter().position(|m| m.0 == key) {
                        Some(i) => i,
                        None => {
                            by_model.push((key.clone(), entrant_name(judge), Vec::new(), 0));
                            by_model.len() - 1
                        }
                    };
                    by_model[at].2.push((yours, theirs));
                    if !seen_here.contains(&key) {
                        seen_here.push(key);
                        by_model[at].3 += 1;
                    }
                }
            }
        }
    }
    let mut out: Vec<WithYou> = by_model
        .into_iter()
        .map(|(_, judge, pairs, tournaments)| WithYou {
            judge,
            agreement: cohen(&pairs, 3),
            tournaments,
        })
        .collect();
    out.sort_by_key(|w| std::cmp::Reverse(w.agreement.shared));
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
        let table = judges_and_you(&t);
        assert_eq!(table.len(), 2);
        let x = table
            .iter()
            .find(|w| w.judge.starts_with("judge-x"))
            .unwrap();
        assert_eq!((x.agreement.shared, x.agreement.agreed), (13, 13));
        assert_eq!(x.agreement.kappa, Some(1.0));
        assert_eq!(x.tournaments, 2);
        assert!(x.enough());
        let y = table
            .iter()
            .find(|w| w.judge.starts_with("judge-y"))
            .unwrap();
        assert_eq!((y.agreement.shared, y.agreement.agreed), (12, 0));
        assert!(y.agreement.kappa.unwrap() < -0.9);
        // One tournament of six: too few to tell.
        let few = judges_and_you(&t[..1]);
        assert_eq!(few[0].agreement.shared, 6);
        assert!(!few[0].enough());
        // No person on the panel: nothing to compare.
        let mut none = tournament(&rows);
        none.spec.judges[0] = none.spec.judges[1].clone();
        assert!(judges_and_you(&[none]).is_empty());
    }
}
