//! The council's arithmetic, pure: the Borda count with its tie-break, and what each
//! reviewer's ballot says about its own leanings (self-preference, position bias).
//!
//! Borda: a ballot of k answers gives the answer it ranks best k − 1 points, the next
//! k − 2, … the last 0, and the reviewer's own answer earns nothing from its own ballot (it
//! still takes its place, so a reviewer that ranks another answer above its own gives that
//! answer the point: a council of two is ranked too, and every ballot weighs the same).
//! Ties on points are broken, in this order, by more first places, by fewer last places,
//! and then by seat order (the member seated first), and every tie says which rule
//! separated it.

use super::findings::{ReviewerBias, Standing};

/// One readable ballot as the tally reads it: seat ids, the order shown and best first.
pub struct Cast<'a> {
    pub reviewer: &'a str,
    pub shown: &'a [String],
    pub ranking: &'a [String],
}

/// The aggregate ranking of `seats` (the members whose answers were reviewed, in seat
/// order), best first, and how each tie on points was broken.
pub fn borda(
    seats: &[String],
    name: &dyn Fn(&str) -> String,
    casts: &[Cast],
) -> (Vec<Standing>, Vec<String>) {
    let mut standings: Vec<Standing> = seats
        .iter()
        .map(|s| Standing {
            seat: s.clone(),
            name: name(s),
            points: 0,
            firsts: 0,
            lasts: 0,
        })
        .collect();
    for cast in casts {
        let ranked: Vec<&String> = cast.ranking.iter().filter(|s| seats.contains(s)).collect();
        let k = ranked.len();
        for (i, seat) in ranked.iter().enumerate() {
            if seat.as_str() == cast.reviewer {
                continue;
            }
            let Some(st) = standings.iter_mut().find(|st| &&st.seat == seat) else {
                continue;
            };
            st.points += (k - 1 - i) as u32;
            if k >= 2 {
                st.firsts += u32::from(i == 0);
                st.lasts += u32::from(i == k - 1);
            }
        }
    }
    let order = |s: &str| seats.iter().position(|x| x == s).unwrap_or(usize::MAX);
    standings.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.firsts.cmp(&a.firsts))
            .then(a.lasts.cmp(&b.lasts))
            .then(order(&a.seat).cmp(&order(&b.seat)))
    });
    let ties = standings
        .windows(2)
        .filter(|w| w[0].points == w[1].points)
        .map(|w| {
            let (a, b) = (&w[0], &w[1]);
            let by = if a.firsts != b.firsts {
                format!("more first places ({} to {})", a.firsts, b.firsts)
            } else if a.lasts != b.lasts {
                format!("fewer last places ({} to {})", a.lasts, b.lasts)
            } else {
                "seat order, as nothing else separated them".to_string()
            };
            format!(
                "{} and {} tied on {}; {} placed higher by {by}",
                a.name,
                b.name,
                crate::engine::reading::count(a.points as usize, "point"),
                a.name
            )
        })
        .collect();
    (standings, ties)
}

/// 0 for the best place of a ballot of `len`, 1 for the worst.
fn share(place: usize, len: usize) -> f64 {
    if len < 2 {
        0.0
    } else {
        place as f64 / (len - 1) as f64
    }
}

/// Each reviewer's self-preference and position bias, from every readable ballot.
pub fn biases(casts: &[Cast], name: &dyn Fn(&str) -> String) -> Vec<ReviewerBias> {
    casts
        .iter()
        .map(|cast| {
            let k = cast.ranking.len();
            let own = cast.ranking.iter().position(|s| s == cast.reviewer);
            let others: Vec<f64> = casts
                .iter()
                .filter(|c| c.reviewer != cast.reviewer)
                .filter_map(|c| {
                    let at = c.ranking.iter().position(|s| s == cast.reviewer)?;
                    Some(share(at, c.ranking.len()))
                })
                .collect();
            let others_share =
                (!others.is_empty()).then(|| others.iter().sum::<f64>() / others.len() as f64);
            let (self_preference, others_place) = match (own, others_share) {
                (Some(p), Some(o)) if k >= 2 => {
                    (Some(o - share(p, k)), Some(1.0 + o * (k - 1) as f64))
                }
                _ => (None, None),
            };
            ReviewerBias {
                reviewer: cast.reviewer.to_string(),
                name: name(cast.reviewer),
                own_place: own.map(|p| p as u32 + 1),
                of: k as u32,
                others_place,
                self_preference,
                position_bias: spearman(cast.shown, cast.ranking),
            }
        })
        .collect()
}

/// Spearman's rho between the order shown and the order ranked, over the answers ranked;
/// `None` under two.
pub fn spearman(shown: &[String], ranking: &[String]) -> Option<f64> {
    let k = ranking.len();
    if k < 2 {
        return None;
    }
    let d2: f64 = ranking
        .iter()
        .enumerate()
        .map(|(r, seat)| {
            let s = shown.iter().position(|x| x == seat).unwrap_or(r);
            let d = r as f64 - s as f64;
            d * d
        })
        .sum();
    let k = k as f64;
    Some(1.0 - 6.0 * d2 / (k * (k * k - 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }
    fn name(s: &str) -> String {
        s.replace("m", "Member ")
    }

    /// Three members, each ranking all three answers, worked by hand (2, 1, 0 points by
    /// place; nothing to the reviewer's own):
    /// m1 ranks m1 > m2 > m3 (m2 1, m3 0); m2 ranks m1 > m3 > m2 (m1 2, m3 1);
    /// m3 ranks m2 > m3 > m1 (m2 2, m1 0). Borda: m2 3, m1 2, m3 1.
    /// Each reviewer's ballot: the order shown and the order ranked.
    type Shown = Vec<(Vec<String>, Vec<String>)>;

    fn three() -> (Vec<String>, Shown) {
        let seats = v(&["m1", "m2", "m3"]);
        let ballots = vec![
            (v(&["m2", "m3", "m1"]), v(&["m1", "m2", "m3"])),
            (v(&["m1", "m2", "m3"]), v(&["m1", "m3", "m2"])),
            (v(&["m3", "m1", "m2"]), v(&["m2", "m3", "m1"])),
        ];
        (seats, ballots)
    }

    fn casts<'a>(
        reviewers: &'a [String],
        ballots: &'a [(Vec<String>, Vec<String>)],
    ) -> Vec<Cast<'a>> {
        reviewers
            .iter()
            .zip(ballots)
            .map(|(r, (shown, ranking))| Cast {
                reviewer: r,
                shown,
                ranking,
            })
            .collect()
    }

    #[test]
    fn borda_counts_each_ballot_without_the_reviewers_own_answer() {
        let (seats, ballots) = three();
        let (standings, ties) = borda(&seats, &name, &casts(&seats, &ballots));
        let got: Vec<(&str, u32, u32, u32)> = standings
            .iter()
            .map(|s| (s.seat.as_str(), s.points, s.firsts, s.lasts))
            .collect();
        // First places: m2 from m3, m1 from m2 (m1's own ballot puts itself first). Last
        // places: m3 from m1, m1 from m3.
        assert_eq!(got, [("m2", 3, 1, 0), ("m1", 2, 1, 1), ("m3", 1, 0, 1)]);
        assert!(ties.is_empty());
        assert_eq!(standings[0].name, "Member 2");
    }

    #[test]
    fn ties_are_broken_by_first_places_then_last_places_then_seat_order_and_say_so() {
        // Four members; ballots over the others only (each reviewer's own left out).
        // m1: m2 > m3 > m4 → m2 2, m3 1, m4 0
        // m2: m3 > m1 > m4 → m3 2, m1 1, m4 0
        // m3: m1 > m4 > m2 → m1 2, m4 1, m2 0
        // m4: m2 > m1 > m3 → m2 2, m1 1, m3 0
        // Points: m1 4, m2 4, m3 3, m4 1. m1 and m2 tie; m2 has two first places to m1's
        // one.
        let seats = v(&["m1", "m2", "m3", "m4"]);
        let ballots = vec![
            (v(&["m2", "m3", "m4"]), v(&["m2", "m3", "m4"])),
            (v(&["m3", "m1", "m4"]), v(&["m3", "m1", "m4"])),
            (v(&["m1", "m4", "m2"]), v(&["m1", "m4", "m2"])),
            (v(&["m2", "m1", "m3"]), v(&["m2", "m1", "m3"])),
        ];
        let (standings, ties) = borda(&seats, &name, &casts(&seats, &ballots));
        let got: Vec<(&str, u32)> = standings
            .iter()
            .map(|s| (s.seat.as_str(), s.points))
            .collect();
        assert_eq!(got, [("m2", 4), ("m1", 4), ("m3", 3), ("m4", 1)]);
        assert_eq!(
            ties,
            ["Member 2 and Member 1 tied on 4 points; Member 2 placed higher by more first places (2 to 1)"]
        );

        // Same points and first places: fewer last places decides.
        // m1: m2 > m3 > m4; m2: m1 > m4 > m3; m3: m4 > m1 > m2; m4: m3 > m2 > m1
        // Points: m1 2+1+0 = 3, m2 2+0+1 = 3, m3 1+0+2 = 3, m4 0+1+2 = 3... all tie on 3
        // with one first each; lasts: m1 1, m2 1, m3 1, m4 1: seat order decides.
        let ballots = vec![
            (v(&["m2", "m3", "m4"]), v(&["m2", "m3", "m4"])),
            (v(&["m1", "m4", "m3"]), v(&["m1", "m4", "m3"])),
            (v(&["m4", "m1", "m2"]), v(&["m4", "m1", "m2"])),
            (v(&["m3", "m2", "m1"]), v(&["m3", "m2", "m1"])),
        ];
        let (standings, ties) = borda(&seats, &name, &casts(&seats, &ballots));
        let order: Vec<&str> = standings.iter().map(|s| s.seat.as_str()).collect();
        assert_eq!(order, ["m1", "m2", "m3", "m4"]);
        assert_eq!(ties.len(), 3);
        assert!(ties[0].ends_with("seat order, as nothing else separated them"));

        // Three members over two ballots: m1 and m2 tie on points and firsts; m2 has no
        // last place.
        let seats3 = v(&["m1", "m2", "m3"]);
        let reviewers = v(&["m3", "x"]);
        let ballots = vec![
            (v(&["m1", "m2"]), v(&["m1", "m2"])),
            (v(&["m2", "m3", "m1"]), v(&["m2", "m3", "m1"])),
        ];
        // m3's ballot: m1 1, m2 0. x's: m2 2, m3 1, m1 0. m1 1, m2 2... m2 leads; then
        // m1 1 vs m3 1: firsts m1 1, m3 0.
        let (standings, ties) = borda(&seats3, &name, &casts(&reviewers, &ballots));
        let got: Vec<(&str, u32)> = standings
            .iter()
            .map(|s| (s.seat.as_str(), s.points))
            .collect();
        assert_eq!(got, [("m2", 2), ("m1", 1), ("m3", 1)]);
        assert!(ties[0].contains("more first places (1 to 0)"), "{ties:?}");
    }

    #[test]
    fn self_preference_and_position_bias_match_hand_worked_values() {
        let (seats, ballots) = three();
        let b = biases(&casts(&seats, &ballots), &name);
        // m1 placed itself 1st of 3 (share 0); m2 placed it 1st (0), m3 3rd (1): mean 0.5.
        assert_eq!(b[0].own_place, Some(1));
        assert_eq!(b[0].of, 3);
        assert_eq!(b[0].self_preference, Some(0.5));
        assert_eq!(b[0].others_place, Some(2.0));
        // Shown m2, m3, m1, ranked m1, m2, m3: d² = 1 + 1 + 4 = 6; rho = 1 − 36/24.
        assert_eq!(b[0].position_bias, Some(-0.5));
        // m2 placed itself last (share 1); the others placed it 2nd and 1st (0.5, 0):
        // it ranks itself lower than they do.
        assert_eq!(b[1].self_preference, Some(0.25 - 1.0));
        // Shown m1, m2, m3, ranked m1, m3, m2: d² = 0 + 1 + 1; rho = 1 − 12/24.
        assert_eq!(b[1].position_bias, Some(0.5));
        // A ballot ranked exactly as shown.
        assert_eq!(
            spearman(&v(&["a", "b", "c"]), &v(&["a", "b", "c"])),
            Some(1.0)
        );
        assert_eq!(
            spearman(&v(&["a", "b", "c"]), &v(&["c", "b", "a"])),
            Some(-1.0)
        );
        assert_eq!(spearman(&v(&["a"]), &v(&["a"])), None);
    }

    #[test]
    fn a_council_of_two_is_ranked_by_whether_each_puts_the_other_above_itself() {
        let seats = v(&["m1", "m2"]);
        // m1 ranks m2 above its own answer; m2 ranks its own first.
        let ballots = vec![
            (v(&["m1", "m2"]), v(&["m2", "m1"])),
            (v(&["m2", "m1"]), v(&["m2", "m1"])),
        ];
        let (standings, ties) = borda(&seats, &name, &casts(&seats, &ballots));
        let got: Vec<(&str, u32)> = standings
            .iter()
            .map(|s| (s.seat.as_str(), s.points))
            .collect();
        assert_eq!(got, [("m2", 1), ("m1", 0)]);
        assert!(ties.is_empty());
    }

    #[test]
    fn a_reviewer_whose_answer_was_not_shown_has_no_self_preference() {
        let seats = v(&["m1", "m2"]);
        let reviewers = v(&["m3", "m1"]);
        let ballots = vec![
            (v(&["m1", "m2"]), v(&["m2", "m1"])),
            (v(&["m2", "m1"]), v(&["m1", "m2"])),
        ];
        let b = biases(&casts(&reviewers, &ballots), &name);
        assert_eq!(b[0].own_place, None);
        assert_eq!(b[0].self_preference, None);
        let (standings, _) = borda(&seats, &name, &casts(&reviewers, &ballots));
        // m3's ballot gives m2 1 point; m1's ranks m1 over m2, so m2 gets 0 from it.
        assert_eq!(standings[0].seat, "m2");
        assert_eq!(standings[0].points, 1);
    }
}
