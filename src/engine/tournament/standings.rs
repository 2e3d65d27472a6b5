//! A tournament's results: the leaderboard by Bradley–Terry strength with its interval,
//! wins and losses, how much the side order decided, how far the judges agree, and what
//! each model cost; exported as CSV and JSON with every debate's id.

use serde_json::{json, Value};

use super::agreement::{category_counts, fleiss_kappa, pairwise, PairAgreement};
use super::progress::{Quotes, Spend, Tournament};
use super::rating::{ratings, Game, Rating};
use super::spec::entrant_name;
use super::verdict::Decision;
use crate::engine::cost::decimal;

/// Resamplings for the leaderboard's 95% intervals.
pub const RESAMPLES: u32 = 1000;

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub contestant: usize,
    pub name: String,
    pub rating: Rating,
    pub wins: u32,
    pub losses: u32,
    pub ties: u32,
    /// Wins in a motion where the pairing's two legs went to the same side: the side
    /// order, not the model, decided them.
    pub side_wins: u32,
    pub spend: Spend,
    /// Its quotes of the sources over all its debates.
    pub quotes: Quotes,
}

impl Row {
    /// Every win came from the side order.
    pub fn won_only_by_side(&self) -> bool {
        self.wins > 0 && self.side_wins == self.wins
    }
}

/// How one judge voted: how often it picked the side it was shown first, its own position
/// bias (a judge that always answers "A" shows it here), and its votes left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JudgeRecord {
    pub votes: u32,
    /// Votes for a side (not a tie), and of those, for the side shown first.
    pub decided: u32,
    pub shown_first_wins: u32,
    pub ties: u32,
    pub unreadable: u32,
    pub unjudgeable: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Strongest first.
    pub rows: Vec<Row>,
    /// Debates with at least one readable verdict.
    pub judged: u32,
    /// Of the judged debates that were not a tie, how many the side that spoke first won.
    pub first_side_wins: u32,
    pub decided: u32,
    /// Of every readable vote that was not a tie, how many went to the side shown as A.
    pub shown_first_wins: u32,
    pub decided_votes: u32,
    pub agreement: Vec<PairAgreement>,
    /// Over the debates at least two judges decided.
    pub fleiss: Option<f64>,
    /// Model verdicts that could not be read even after a repair: left out.
    pub unreadable_votes: u32,
    /// Verdicts of people who found a debate could not be judged: left out, never a tie.
    pub unjudgeable_votes: u32,
    /// By judge, in the spec's order.
    pub judges: Vec<JudgeRecord>,
}

/// A vote as an agreement category: 0 the side that spoke first, 1 the other, 2 a tie;
/// "could not be judged" is no verdict to agree on.
pub(super) fn category(d: Decision) -> Option<usize> {
    match d {
        Decision::Side(s) => Some(s),
        Decision::Tie => Some(2),
        Decision::Unjudgeable => None,
    }
}

/// The first side's share of a debate's readable votes, if it has any.
fn first_share(t: &Tournament, i: usize) -> Option<f64> {
    let votes: Vec<Decision> = t.progress[i]
        .votes
        .iter()
        .filter_map(|v| v.decision)
        .filter(|d| *d != Decision::Unjudgeable)
        .collect();
    if votes.is_empty() {
        return None;
    }
    let points: f64 = votes
        .iter()
        .map(|d| match d {
            Decision::Side(0) => 1.0,
            Decision::Tie => 0.5,
            _ => 0.0,
        })
        .sum();
    Some(points / votes.len() as f64)
}

/// The standings with their ratings: the full-data fit and a bootstrap of `RESAMPLES`.
pub fn standings(t: &Tournament) -> Standings {
    let (mut s, games) = unrated(t);
    s.rate(&ratings(
        t.spec.contestants.len(),
        &games,
        RESAMPLES,
        t.spec.seed,
    ));
    s
}

/// Everything but the ratings (rows in contestant order, each rated 0), and the judged
/// debates as the games the ratings are fitted to: a page rates them apart, spreading the
/// bootstrap over several tasks (`rating::Bootstrap`), and only when the games changed.
pub fn unrated(t: &Tournament) -> (Standings, Vec<Game>) {
    let n = t.spec.contestants.len();
    let mut games = Vec::new();
    let mut rows: Vec<Row> = (0..n)
        .map(|c| Row {
            contestant: c,
            name: entrant_name(&t.spec.contestants[c]),
            rating: Rating {
                points: 0.0,
                low: 0.0,
                high: 0.0,
            },
            wins: 0,
            losses: 0,
            ties: 0,
            side_wins: 0,
            spend: Spend::default(),
            quotes: Quotes::default(),
        })
        .collect();
    let mut s = Standings {
        rows: Vec::new(),
        judged: 0,
        first_side_wins: 0,
        decided: 0,
        shown_first_wins: 0,
        decided_votes: 0,
        agreement: Vec::new(),
        fleiss: None,
        unreadable_votes: 0,
        unjudgeable_votes: 0,
        judges: vec![JudgeRecord::default(); t.spec.judges.len()],
    };
    let mut verdicts: Vec<Vec<Option<usize>>> = Vec::new();
    for (i, m) in t.matches.iter().enumerate() {
        let p = &t.progress[i];
        for side in 0..2 {
            rows[m.contestant(side)].spend.add(&p.sides[side]);
            rows[m.contestant(side)].quotes.add(&p.quotes[side]);
        }
        for v in &p.votes {
            let judge = &mut s.judges[v.judge];
            judge.votes += 1;
            match v.decision {
                None => {
                    s.unreadable_votes += 1;
                    judge.unreadable += 1;
                }
                Some(Decision::Side(side)) => {
                    let first = (side == v.shown_first) as u32;
                    s.decided_votes += 1;
                    s.shown_first_wins += first;
                    judge.decided += 1;
                    judge.shown_first_wins += first;
                }
                Some(Decision::Tie) => judge.ties += 1,
                Some(Decision::Unjudgeable) => {
                    s.unjudgeable_votes += 1;
                    judge.unjudgeable += 1;
                }
            }
        }
        let mut row = vec![None; t.spec.judges.len()];
        for v in &p.votes {
            row[v.judge] = v.decision.and_then(category);
        }
        verdicts.push(row);
        let Some(share) = first_share(t, i) else {
            continue;
        };
        s.judged += 1;
        games.push(Game {
            a: m.first,
            b: m.second,
            a_score: share,
        });
        if share == 0.5 {
            rows[m.first].ties += 1;
            rows[m.second].ties += 1;
            continue;
        }
        let (winner, loser) = if share > 0.5 {
            (m.first, m.second)
        } else {
            (m.second, m.first)
        };
        s.decided += 1;
        s.first_side_wins += (share > 0.5) as u32;
        rows[winner].wins += 1;
        rows[loser].losses += 1;
    }
    // A pairing's two legs of one motion: the same side winning both means the order won.
    for (i, m) in t.matches.iter().enumerate() {
        if m.first > m.second {
            continue;
        }
        let Some(j) = t
            .matches
            .iter()
            .position(|o| o.motion == m.motion && o.first == m.second && o.second == m.first)
        else {
            continue;
        };
        if let (Some(x), Some(y)) = (first_share(t, i), first_share(t, j)) {
            if (x > 0.5 && y > 0.5) || (x < 0.5 && y < 0.5) {
                rows[m.first].side_wins += 1;
                rows[m.second].side_wins += 1;
            }
        }
    }
    s.rows = rows;
    s.agreement = pairwise(&verdicts, t.spec.judges.len(), 3);
    s.fleiss = fleiss_kappa(&category_counts(&verdicts, 3));
    (s, games)
}

impl Standings {
    /// Puts `ratings` (one per contestant, in contestant order) on the rows and orders
    /// them strongest first.
    pub fn rate(&mut self, ratings: &[Rating]) {
        for r in &mut self.rows {
            if let Some(rating) = ratings.get(r.contestant) {
                r.rating = *rating;
            }
        }
        self.rows
            .sort_by(|a, b| b.rating.points.total_cmp(&a.rating.points));
    }
}

/// A share as shown: "7 of 12 (58%)".
pub fn share(part: u32, whole: u32) -> String {
    if whole == 0 {
        return "none yet".into();
    }
    format!(
        "{part} of {whole} ({}%)",
        (part as f64 * 100.0 / whole as f64).round()
    )
}

fn csv_field(s: &str) -> String {
    // A leading =, +, - or @ would be a formula in a spreadsheet: model text never is.
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn decision_label(t: &Tournament, i: usize, d: Option<Decision>) -> String {
    match d {
        None => "unreadable".into(),
        Some(Decision::Tie) => "tie".into(),
        Some(Decision::Unjudgeable) => "could not be judged".into(),
        Some(Decision::Side(side)) => {
            entrant_name(&t.spec.contestants[t.matches[i].contestant(side)])
        }
    }
}

/// The leaderboard, then one line per debate with its id and every judge's verdict.
pub fn csv(t: &Tournament, s: &Standings) -> String {
    let mut out = String::from(
        "rank,model,points,low,high,wins,losses,ties,wins_by_side_order,input_tokens,output_tokens,usd,quotes,quotes_verified,quotes_not_found\n",
    );
    for (rank, r) in s.rows.iter().enumerate() {
        let cells = [
            (rank + 1).to_string(),
            csv_field(&r.name),
            decimal(r.rating.points, 1),
            decimal(r.rating.low, 1),
            decimal(r.rating.high, 1),
            r.wins.to_string(),
            r.losses.to_string(),
            r.ties.to_string(),
            r.side_wins.to_string(),
            r.spend.input_tokens.to_string(),
            r.spend.output_tokens.to_string(),
            decimal(r.spend.usd, 6),
            r.quotes.made.to_string(),
            r.quotes.verified.to_string(),
            r.quotes.not_found().to_string(),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out.push_str("\nmatch,debate_id,motion,first_side,second_side");
    for j in &t.spec.judges {
        out.push(',');
        out.push_str(&csv_field(&format!("judge: {}", entrant_name(j))));
    }
    out.push('\n');
    for (i, m) in t.matches.iter().enumerate() {
        let p = &t.progress[i];
        let mut cells = vec![
            m.id.clone(),
            csv_field(p.debate_id.as_deref().unwrap_or("")),
            csv_field(&t.spec.motions[m.motion]),
            csv_field(&entrant_name(&t.spec.contestants[m.first])),
            csv_field(&entrant_name(&t.spec.contestants[m.second])),
        ];
        for j in 0..t.spec.judges.len() {
            cells.push(match p.votes.iter().find(|v| v.judge == j) {
                Some(v) => csv_field(&decision_label(t, i, v.decision)),
                None if m.judges.contains(&j) => String::new(),
                None => "excluded".into(),
            });
        }
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

pub fn json(t: &Tournament, s: &Standings) -> Value {
    json!({
        "tournament": t.spec.name,
        "format": t.spec.format.id(),
        "motions": t.spec.motions,
        "leaderboard": s.rows.iter().map(|r| json!({
            "model": r.name,
            "points": r.rating.points,
            "interval95": [r.rating.low, r.rating.high],
            "wins": r.wins,
            "losses": r.losses,
            "ties": r.ties,
            "wins_by_side_order": r.side_wins,
            "input_tokens": r.spend.input_tokens,
            "output_tokens": r.spend.output_tokens,
            "usd": r.spend.usd,
            "usd_incomplete": r.spend.unpriced,
            "quotes": {"made": r.quotes.made, "verified": r.quotes.verified, "not_found": r.quotes.not_found()},
        })).collect::<Vec<_>>(),
        "first_side_won": [s.first_side_wins, s.decided],
        "shown_first_won": [s.shown_first_wins, s.decided_votes],
        "fleiss_kappa": s.fleiss,
        "unreadable_verdicts": s.unreadable_votes,
        "unjudgeable_verdicts": s.unjudgeable_votes,
        "judge_agreement": s.agreement.iter().map(|a| json!({
            "judges": [entrant_name(&t.spec.judges[a.a]), entrant_name(&t.spec.judges[a.b])],
            "debates": a.debates,
            "agreed": a.agreed,
            "kappa": a.kappa,
        })).collect::<Vec<_>>(),
        "judges": t.spec.judges.iter().zip(&t.judges).zip(&s.judges).map(|((j, sp), r)| json!({
            "judge": entrant_name(j),
            "votes": r.votes,
            "for_a_side": r.decided,
            "for_the_side_shown_first": r.shown_first_wins,
            "ties": r.ties,
            "unreadable": r.unreadable,
            "could_not_be_judged": r.unjudgeable,
            "input_tokens": sp.input_tokens,
            "output_tokens": sp.output_tokens,
            "usd": sp.usd,
        })).collect::<Vec<_>>(),
        "debates": t.matches.iter().zip(&t.progress).enumerate().map(|(i, (m, p))| json!({
            "match": m.id,
            "debate_id": p.debate_id,
            "motion": t.spec.motions[m.motion],
            "first_side": entrant_name(&t.spec.contestants[m.first]),
            "second_side": entrant_name(&t.spec.contestants[m.second]),
            "outcome": p.ended,
            "verdicts": p.votes.iter().map(|v| json!({
                "judge": entrant_name(&t.spec.judges[v.judge]),
                "winner": decision_label(t, i, v.decision),
                "reason": v.reason,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::progress::tests::{ended, verdict};
    use super::super::progress::TournamentEvent;
    use super::super::spec::tests::spec;
    use super::*;
    use crate::engine::event::Outcome;

    /// Three contestants, one motion, two judges. `wins[match]` is who each judge voted
    /// for, as a side of that match.
    fn played(votes: &[(&str, [Option<Decision>; 2])]) -> Tournament {
        let s = spec(&["a", "b", "c"], &["m0"], &["x", "y"]);
        let mut log = vec![TournamentEvent::Started { spec: s }];
        for (id, vs) in votes {
            log.push(TournamentEvent::DebateStarted {
                match_id: id.to_string(),
                debate_id: format!("debate-{id}"),
            });
            log.push(ended(id, Outcome::Completed));
            for (j, d) in vs.iter().enumerate() {
                log.push(verdict(id, j, *d));
            }
        }
        Tournament::from_events(&log).unwrap()
    }

    const A: Option<Decision> = Some(Decision::Side(0));
    const B: Option<Decision> = Some(Decision::Side(1));

    #[test]
    fn the_leaderboard_counts_wins_and_sees_a_win_that_only_the_side_order_gave() {
        // a beats b on both sides; a and c each win only when speaking first; b beats c
        // on both sides; one split panel.
        let t = played(&[
            ("m0-0v1", [A, A]),
            ("m0-1v0", [B, B]),
            ("m0-0v2", [A, A]),
            ("m0-2v0", [A, A]),
            ("m0-1v2", [A, B]),
            ("m0-2v1", [B, B]),
        ]);
        let s = standings(&t);
        let row = |name: &str| s.rows.iter().find(|r| r.name.starts_with(name)).unwrap();
        assert_eq!((row("a").wins, row("a").losses, row("a").ties), (3, 1, 0));
        assert_eq!((row("b").wins, row("b").losses, row("b").ties), (1, 2, 1));
        assert_eq!((row("c").wins, row("c").losses, row("c").ties), (1, 2, 1));
        assert_eq!(row("a").side_wins, 1);
        assert!(
            row("c").won_only_by_side(),
            "c's one win came from speaking first"
        );
        assert!(!row("b").won_only_by_side());
        assert_eq!(s.rows[0].name, row("a").name, "a is strongest");
        assert!(s.rows[0].rating.low <= s.rows[0].rating.points);
        // Decided debates: 5 (one tie); the first side won 0v1, 0v2, 2v0: 3.
        assert_eq!((s.judged, s.decided, s.first_side_wins), (6, 5, 3));
        assert_eq!(share(s.first_side_wins, s.decided), "3 of 5 (60%)");
        // The two judges agree on 5 of 6 debates.
        assert_eq!((s.agreement[0].debates, s.agreement[0].agreed), (6, 5));
        // Every test vote was shown side 0 first: each judge's votes for a side that
        // spoke first are its votes for the side shown first.
        assert_eq!(s.judges[0].votes, 6);
        assert_eq!((s.judges[0].decided, s.judges[0].shown_first_wins), (6, 4));
        assert_eq!((s.judges[1].decided, s.judges[1].shown_first_wins), (6, 3));
        assert!(s.fleiss.is_some());
        // Each contestant argued four debates at $0.01 or $0.02 a side.
        let cost: f64 = s.rows.iter().map(|r| r.spend.usd).sum();
        assert!((cost - 6.0 * 0.03).abs() < 1e-9);
    }

    #[test]
    fn the_leaderboard_counts_each_models_quotes_over_its_debates() {
        let s = spec(&["a", "b"], &["m0"], &["x"]);
        let mut log = vec![TournamentEvent::Started { spec: s }];
        for (id, quotes) in [("m0-0v1", [(3, 3), (2, 0)]), ("m0-1v0", [(1, 0), (4, 4)])] {
            log.push(TournamentEvent::DebateStarted {
                match_id: id.into(),
                debate_id: format!("debate-{id}"),
            });
            let mut e = ended(id, Outcome::Completed);
            if let TournamentEvent::DebateEnded { quotes: q, .. } = &mut e {
                *q = quotes.map(|(made, verified)| Quotes { made, verified });
            }
            log.push(e);
        }
        let t = Tournament::from_events(&log).unwrap();
        let s = standings(&t);
        let row = |name: &str| s.rows.iter().find(|r| r.name.starts_with(name)).unwrap();
        // a spoke first in m0-0v1 (3 of 3 verified) and second in m0-1v0 (4 of 4).
        assert_eq!(
            row("a").quotes,
            Quotes {
                made: 7,
                verified: 7
            }
        );
        assert_eq!(
            row("b").quotes,
            Quotes {
                made: 3,
                verified: 0
            }
        );
        let csv = csv(&t, &s);
        assert!(csv
            .lines()
            .next()
            .unwrap()
            .ends_with(",quotes,quotes_verified,quotes_not_found"));
        assert!(
            csv.lines()
                .any(|l| l.contains(",b (c),") && l.ends_with(",3,0,3")),
            "{csv}"
        );
        let json = json(&t, &s);
        let b = json["leaderboard"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["model"].as_str().unwrap().starts_with('b'))
            .unwrap();
        assert_eq!(b["quotes"]["not_found"], 3);
    }

    #[test]
    fn a_debate_that_could_not_be_judged_is_counted_apart_never_as_a_tie() {
        const U: Option<Decision> = Some(Decision::Unjudgeable);
        // Judge y could not judge 0v1, so x alone decides it; nobody could judge 1v0.
        let t = played(&[("m0-0v1", [A, U]), ("m0-1v0", [U, U])]);
        let s = standings(&t);
        assert_eq!(s.unjudgeable_votes, 3);
        assert_eq!(s.unreadable_votes, 0);
        let row = |name: &str| s.rows.iter().find(|r| r.name.starts_with(name)).unwrap();
        assert_eq!((row("a").wins, row("a").losses, row("a").ties), (1, 0, 0));
        assert_eq!((row("b").wins, row("b").losses, row("b").ties), (0, 1, 0));
        // Only the debate with a verdict counts as judged; no tie anywhere.
        assert_eq!((s.judged, s.decided), (1, 1));
        // Agreement needs both judges' verdicts: none here.
        assert_eq!(s.agreement[0].debates, 0);
        let csv = csv(&t, &s);
        assert!(
            csv.contains(
                "m0-1v0,debate-m0-1v0,m0,b (c),a (c),could not be judged,could not be judged"
            ),
            "{csv}"
        );
        assert_eq!(json(&t, &s)["unjudgeable_verdicts"], 3);
    }

    #[test]
    fn results_export_with_every_debate_id_and_safe_cells() {
        let mut t = played(&[("m0-0v1", [A, None]), ("m0-1v0", [B, Some(Decision::Tie)])]);
        t.spec.motions[0] = "=cmd, \"quoted\"".into();
        let s = standings(&t);
        assert_eq!(s.unreadable_votes, 1);
        let csv = csv(&t, &s);
        let lines: Vec<&str> = csv.lines().collect();
        assert!(lines[0].starts_with("rank,model,points"));
        assert!(lines[1].starts_with("1,a (c),"), "{csv}");
        assert!(
            csv.contains(
                "m0-0v1,debate-m0-0v1,\"'=cmd, \"\"quoted\"\"\",a (c),b (c),a (c),unreadable"
            ),
            "{csv}"
        );
        assert!(csv.contains("m0-1v0,debate-m0-1v0,"), "{csv}");
        // Unplayed debates are listed with no id yet.
        assert!(csv.contains("m0-2v1,,"), "{csv}");
        let j = json(&t, &s);
        let ids: Vec<&str> = j["debates"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["debate_id"].as_str())
            .collect();
        assert_eq!(ids, ["debate-m0-0v1", "debate-m0-1v0"]);
        assert_eq!(j["leaderboard"][0]["model"], "a (c)");
        assert_eq!(j["debates"][1]["verdicts"][1]["winner"], "tie");
    }
}
