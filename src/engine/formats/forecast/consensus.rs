//! The forecast panel's arithmetic (seed 001), as pure functions over plain numbers so each
//! is tested against values worked out by hand: reading and normalising a role's
//! probabilities, the composite score, the consensus and its score, the judge blend, the
//! quality share and the confidence of a partial result.

/// Composite weights of the rubric: logical strength, evidence quality, novelty.
pub const COMPOSITE_WEIGHTS: [f64; 3] = [0.4, 0.4, 0.2];
/// An argument scoring under this is regenerated once.
pub const REGENERATE_BELOW: f64 = 0.2;
/// An argument scoring above this counts as good.
pub const GOOD_ABOVE: f64 = 0.4;
/// The share of good arguments a debate must reach, else it is flagged as low quality.
pub const REQUIRED_GOOD_SHARE: f64 = 0.8;
/// The largest population standard deviation `n` values in [0, 1] can have: half of them
/// at 0 and half at 1 (one more on one side when `n` is odd), √(⌊n/2⌋·⌈n/2⌉) / n. It is 0.5
/// for an even count and less for an odd one (0.471… for three, 0.490 for five).
pub fn max_std_dev(n: usize) -> f64 {
    if n < 2 {
        return 0.0;
    }
    (((n / 2) * n.div_ceil(2)) as f64).sqrt() / n as f64
}

/// Reads one role's probabilities for the outcomes `ids`, from `(outcome id, value)` pairs
/// as the model gave them, and normalises them to sum to 1. Rejected (with a reason for
/// people) when an outcome is unknown, repeated or missing, a value is not a number in
/// [0, 1], or they are all zero. Values given as percentages (every value in [0, 100] and
/// summing to about 100) are read as such. Returns the distribution in the order of `ids`
/// and the sum as given (before normalising; 100 for percentages read as such).
pub fn normalise(ids: &[&str], given: &[(String, f64)]) -> Result<(Vec<f64>, f64), String> {
    if ids.is_empty() {
        return Err("there are no outcomes".into());
    }
    let mut values: Vec<Option<f64>> = vec![None; ids.len()];
    for (id, v) in given {
        let Some(i) = ids.iter().position(|o| o == id) else {
            return Err(format!("`{id}` is not one of the outcomes"));
        };
        if values[i].is_some() {
            return Err(format!("`{id}` is given twice"));
        }
        if !v.is_finite() || *v < 0.0 {
            return Err(format!("`{id}` has no probability (a number from 0 to 1)"));
        }
        values[i] = Some(*v);
    }
    let missing: Vec<&str> = ids
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(id, _)| *id)
        .collect();
    if !missing.is_empty() {
        return Err(format!("no probability for {}", missing.join(", ")));
    }
    let mut values: Vec<f64> = values.into_iter().flatten().collect();
    let sum: f64 = values.iter().sum();
    let percent = values.iter().any(|v| *v > 1.0);
    if percent && (values.iter().any(|v| *v > 100.0) || !(90.0..=110.0).contains(&sum)) {
        return Err(format!(
            "values above 1 that are not percentages summing to 100 (sum {})",
            crate::engine::cost::decimal(sum, 2)
        ));
    }
    if sum <= 0.0 {
        return Err("every probability is zero".into());
    }
    for v in values.iter_mut() {
        *v /= sum;
    }
    Ok((values, sum))
}

/// The weighted composite of logical strength, evidence quality and novelty (each 0–1).
pub fn composite(logical: f64, evidence: f64, novelty: f64) -> f64 {
    let [a, b, c] = COMPOSITE_WEIGHTS;
    a * logical + b * evidence + c * novelty
}

pub fn needs_regeneration(composite: f64) -> bool {
    composite < REGENERATE_BELOW
}

/// Mean of each outcome over the roles' distributions (all of the same length); `None`
/// without any role.
pub fn mean(rows: &[Vec<f64>]) -> Option<Vec<f64>> {
    let n = rows.first()?.len();
    let mut out = vec![0.0; n];
    for r in rows {
        for (o, v) in out.iter_mut().zip(r) {
            *o += v;
        }
    }
    Some(out.into_iter().map(|s| s / rows.len() as f64).collect())
}

/// Population standard deviation.
pub fn std_dev(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let n = values.len() as f64;
    let m = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / n).sqrt()
}

/// How much the roles agree on one outcome: 1 − σ / σmax, where σ is the population standard
/// deviation of their probabilities and σmax the most it can be for that many roles (seed
/// 001: "max possible std dev"). One role alone agrees with itself.
pub fn consensus_score(values: &[f64]) -> f64 {
    let most = max_std_dev(values.len());
    if most == 0.0 {
        return 1.0;
    }
    (1.0 - std_dev(values) / most).clamp(0.0, 1.0)
}

/// Per outcome consensus scores and their mean, over the roles' distributions.
pub fn consensus_scores(rows: &[Vec<f64>]) -> Option<(Vec<f64>, f64)> {
    let n = rows.first()?.len();
    let per: Vec<f64> = (0..n)
        .map(|i| consensus_score(&rows.iter().map(|r| r[i]).collect::<Vec<_>>()))
        .collect();
    let overall = per.iter().sum::<f64>() / n.max(1) as f64;
    Some((per, overall))
}

/// The final distribution: `weight` × judge + (1 − weight) × consensus. With only one of
/// them, that one; with neither, none.
pub fn blend(judge: Option<&[f64]>, consensus: Option<&[f64]>, weight: f64) -> Option<Vec<f64>> {
    match (judge, consensus) {
        (Some(j), Some(c)) => Some(
            j.iter()
                .zip(c)
                .map(|(j, c)| weight * j + (1.0 - weight) * c)
                .collect(),
        ),
        (Some(j), None) => Some(j.to_vec()),
        (None, Some(c)) => Some(c.to_vec()),
        (None, None) => None,
    }
}

/// The quality of a debate's arguments: how many were scored, how many scored above 0.4,
/// their share and whether it falls under the seed's 80%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QualityShare {
    pub scored: u32,
    pub good: u32,
    pub share: f64,
    pub low: bool,
}

/// Over the composites of the arguments that were scored (unscored ones are left out: no
/// number is made up for them). No scored argument at all is low quality.
pub fn quality(composites: &[f64]) -> QualityShare {
    let scored = composites.len() as u32;
    let good = composites.iter().filter(|c| **c > GOOD_ABOVE).count() as u32;
    let share = if scored == 0 {
        0.0
    } else {
        good as f64 / scored as f64
    };
    QualityShare {
        scored,
        good,
        share,
        // No argument scored says nothing of their quality: unknown, not low.
        low: scored > 0 && share < REQUIRED_GOOD_SHARE,
    }
}

/// The confidence of the result: `base` (0–1) scaled by the share of the configured roles
/// that gave a readable forecast, so a partial result says less.
pub fn result_confidence(base: f64, succeeded: usize, configured: usize) -> f64 {
    if configured == 0 {
        return 0.0;
    }
    base.clamp(0.0, 1.0) * succeeded.min(configured) as f64 / configured as f64
}

/// Which way each outcome's consensus moved since the last round: `Some(true)` toward (up),
/// `Some(false)` away (down), `None` when it moved less than half a point.
pub fn direction(before: f64, now: f64) -> Option<bool> {
    let d = now - before;
    (d.abs() >= 0.005).then_some(d > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    fn pairs(v: &[(&str, f64)]) -> Vec<(String, f64)> {
        v.iter().map(|(k, p)| (k.to_string(), *p)).collect()
    }

    const IDS: [&str; 3] = ["yes", "no", "delay"];

    #[test]
    fn probabilities_are_normalised_to_one() {
        // 0.5 + 0.3 + 0.4 = 1.2: 0.5/1.2 = 0.41666…, 0.3/1.2 = 0.25, 0.4/1.2 = 0.33333…
        let (p, sum) =
            normalise(&IDS, &pairs(&[("no", 0.3), ("yes", 0.5), ("delay", 0.4)])).unwrap();
        close(sum, 1.2);
        close(p[0], 5.0 / 12.0);
        close(p[1], 0.25);
        close(p[2], 1.0 / 3.0);
        // Percentages: 60, 30, 10.
        let (p, sum) = normalise(
            &IDS,
            &pairs(&[("yes", 60.0), ("no", 30.0), ("delay", 10.0)]),
        )
        .unwrap();
        close(sum, 100.0);
        close(p[0], 0.6);
        close(p[2], 0.1);
    }

    #[test]
    fn invalid_probabilities_are_rejected_with_a_reason() {
        let bad = [
            (
                pairs(&[("yes", 0.5), ("no", 0.5)]),
                "no probability for delay",
            ),
            (
                pairs(&[("yes", 0.5), ("no", 0.5), ("maybe", 0.0)]),
                "not one of the outcomes",
            ),
            (pairs(&[("yes", 0.5), ("yes", 0.2), ("no", 0.3)]), "twice"),
            (
                pairs(&[("yes", -0.1), ("no", 0.6), ("delay", 0.5)]),
                "a number from 0 to 1",
            ),
            (
                pairs(&[("yes", f64::NAN), ("no", 0.6), ("delay", 0.5)]),
                "a number from 0 to 1",
            ),
            (pairs(&[("yes", 0.0), ("no", 0.0), ("delay", 0.0)]), "zero"),
            (
                pairs(&[("yes", 3.0), ("no", 0.5), ("delay", 0.5)]),
                "percentages",
            ),
            (
                pairs(&[("yes", 70.0), ("no", 70.0), ("delay", 0.0)]),
                "percentages",
            ),
        ];
        for (given, reason) in bad {
            let e = normalise(&IDS, &given).unwrap_err();
            assert!(e.contains(reason), "{given:?}: {e}");
        }
    }

    #[test]
    fn composite_weights_logic_and_evidence_twice_novelty() {
        // 0.4·0.8 + 0.4·0.5 + 0.2·0.9 = 0.32 + 0.20 + 0.18 = 0.70
        close(composite(0.8, 0.5, 0.9), 0.70);
        // 0.4·0.1 + 0.4·0.2 + 0.2·0.3 = 0.04 + 0.08 + 0.06 = 0.18 → regenerated
        close(composite(0.1, 0.2, 0.3), 0.18);
        assert!(needs_regeneration(0.18));
        assert!(!needs_regeneration(0.2));
    }

    #[test]
    fn the_consensus_score_divides_by_the_most_spread_that_many_roles_can_have() {
        // Two or four roles: 0.5. Three: √2/3 = 0.471405; five: √6/5 = 0.489898.
        close(max_std_dev(2), 0.5);
        close(max_std_dev(4), 0.5);
        close(max_std_dev(3), 2f64.sqrt() / 3.0);
        close(max_std_dev(5), 6f64.sqrt() / 5.0);
        // Three roles at 0, 0.5 and 1: σ = √(1/6) = 0.408248; 1 − 0.408248/0.471405 = 0.133975.
        close(
            consensus_score(&[0.0, 0.5, 1.0]),
            1.0 - (1.0f64 / 6.0).sqrt() / (2f64.sqrt() / 3.0),
        );
        // Five split as far as five can be: no agreement at all (with 0.5 it read 0.020).
        close(consensus_score(&[1.0, 1.0, 0.0, 0.0, 0.0]), 0.0);
        close(consensus_score(&[0.3]), 1.0);
    }

    #[test]
    fn consensus_mean_and_score_by_hand() {
        // Four roles on "yes": 0.6, 0.2, 0.4, 0.4. Mean 0.4; deviations .2, -.2, 0, 0;
        // variance (0.04 + 0.04) / 4 = 0.02; σ = 0.141421…; score 1 − σ/0.5 = 0.717157…
        let rows = vec![
            vec![0.6, 0.4],
            vec![0.2, 0.8],
            vec![0.4, 0.6],
            vec![0.4, 0.6],
        ];
        let m = mean(&rows).unwrap();
        close(m[0], 0.4);
        close(m[1], 0.6);
        let (per, overall) = consensus_scores(&rows).unwrap();
        let s = 1.0 - 0.02f64.sqrt() / 0.5;
        close(per[0], s);
        close(per[1], s); // the complement spreads the same
        close(overall, s);
        // Full agreement is 1; the widest split (0 and 1) is 0.
        close(consensus_score(&[0.3, 0.3, 0.3]), 1.0);
        close(consensus_score(&[0.0, 1.0]), 0.0);
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn blending_weights_the_judge() {
        // 0.6·0.7 + 0.4·0.4 = 0.42 + 0.16 = 0.58; 0.6·0.3 + 0.4·0.6 = 0.18 + 0.24 = 0.42
        let f = blend(Some(&[0.7, 0.3]), Some(&[0.4, 0.6]), 0.6).unwrap();
        close(f[0], 0.58);
        close(f[1], 0.42);
        close(f.iter().sum::<f64>(), 1.0);
        assert_eq!(blend(None, Some(&[0.4, 0.6]), 0.6).unwrap(), vec![0.4, 0.6]);
        assert_eq!(blend(None, None, 0.6), None);
    }

    #[test]
    fn a_debate_under_80_percent_good_arguments_is_low_quality() {
        // 4 of 5 above 0.4 is exactly 80%: not low. 0.4 itself is not above.
        let q = quality(&[0.5, 0.6, 0.41, 0.9, 0.1]);
        assert_eq!((q.scored, q.good, q.low), (5, 4, false));
        close(q.share, 0.8);
        let q = quality(&[0.5, 0.6, 0.4, 0.9, 0.1]);
        assert_eq!((q.good, q.low), (3, true));
        assert!(!quality(&[]).low, "nothing scored is unknown, not low");
    }

    #[test]
    fn a_partial_result_has_reduced_confidence() {
        // Four of five roles: 0.75 × 4/5 = 0.6.
        close(result_confidence(0.75, 4, 5), 0.6);
        close(result_confidence(0.75, 5, 5), 0.75);
        close(result_confidence(0.75, 0, 5), 0.0);
        assert_eq!(direction(0.40, 0.45), Some(true));
        assert_eq!(direction(0.40, 0.30), Some(false));
        assert_eq!(direction(0.40, 0.402), None);
    }
}
