//! How far judges agree. A panel's majority hides whether its judges saw the same debate:
//! pairwise agreement shows which judge goes its own way, and Fleiss' kappa sums up the
//! panel. Both kappas discount the agreement that habit alone would produce: two judges who
//! always pick the first side agree every time and tell us nothing.
//!
//! A verdict is a category index (e.g. 0 = first side won, 1 = second, 2 = tie). A missing
//! verdict, or one outside `0..categories`, counts as no verdict.

/// How often two judges gave the same verdict on the debates both judged.
#[derive(Clone, Debug, PartialEq)]
pub struct PairAgreement {
    pub a: usize,
    pub b: usize,
    pub debates: u32,
    pub agreed: u32,
    /// Cohen's kappa over those debates, None when undefined (fewer than 2 debates, or
    /// chance agreement is 1).
    pub kappa: Option<f64>,
}

/// `verdicts[debate][judge]`: the category a judge chose, or None when that judge did not
/// judge (or gave no readable verdict on) that debate. Returns every pair of judges `a < b`,
/// in order, counting only the debates where both gave a verdict.
pub fn pairwise(
    verdicts: &[Vec<Option<usize>>],
    judges: usize,
    categories: usize,
) -> Vec<PairAgreement> {
    let mut out = Vec::new();
    let (mut by_a, mut by_b) = (vec![0u64; categories], vec![0u64; categories]);
    for a in 0..judges {
        for b in a + 1..judges {
            by_a.fill(0);
            by_b.fill(0);
            let (mut debates, mut agreed) = (0u32, 0u32);
            for row in verdicts {
                let pair = (verdict(row, a, categories), verdict(row, b, categories));
                if let (Some(x), Some(y)) = pair {
                    debates += 1;
                    agreed += u32::from(x == y);
                    by_a[x] += 1;
                    by_b[y] += 1;
                }
            }
            let kappa = cohen_kappa(debates, agreed, &by_a, &by_b);
            out.push(PairAgreement {
                a,
                b,
                debates,
                agreed,
                kappa,
            });
        }
    }
    out
}

/// Cohen's kappa between two raters over the items both rated, with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Cohen {
    pub shared: u32,
    pub agreed: u32,
    pub kappa: Option<f64>,
    /// κ ± 1.96 × SE, clipped to [−1, 1], with the large-sample standard error
    /// SE = √(p_o(1 − p_o) / (N(1 − p_e)²)) (Cohen, 1960).
    pub interval: Option<(f64, f64)>,
}

/// Cohen's kappa of `pairs` (one rater's category, the other's), categories `0..categories`.
pub fn cohen(pairs: &[(usize, usize)], categories: usize) -> Cohen {
    let (mut by_a, mut by_b) = (vec![0u64; categories], vec![0u64; categories]);
    let (mut shared, mut agreed) = (0u32, 0u32);
    for &(x, y) in pairs
        .iter()
        .filter(|(x, y)| *x < categories && *y < categories)
    {
        shared += 1;
        agreed += u32::from(x == y);
        by_a[x] += 1;
        by_b[y] += 1;
    }
    let kappa = cohen_kappa(shared, agreed, &by_a, &by_b);
    let interval = kappa.map(|k| {
        let n = f64::from(shared);
        let po = f64::from(agreed) / n;
        let pe = by_a
            .iter()
            .zip(&by_b)
            .map(|(a, b)| (a * b) as f64)
            .sum::<f64>()
            / (n * n);
        let se = (po * (1.0 - po) / (n * (1.0 - pe).powi(2))).sqrt();
        ((k - 1.96 * se).max(-1.0), (k + 1.96 * se).min(1.0))
    });
    Cohen {
        shared,
        agreed,
        kappa,
        interval,
    }
}

/// Fleiss' kappa over subjects rated by at least two raters; `counts[subject][category]` =
/// raters choosing it. None when undefined (no subject with two raters, or every rating in
/// one category, so chance agreement P̄e is 1).
///
/// Subjects may have different numbers of raters (a judge may fail on some debates), so this
/// uses the common generalisation: each subject's agreement P_i = (Σ_j n_ij² − n_i)/(n_i(n_i−1)),
/// the share of its ordered pairs of raters that agree; P̄ is their plain mean; category shares
/// p_j = Σ_i n_ij / Σ_i n_i pool all ratings; P̄e = Σ_j p_j²; κ = (P̄ − P̄e)/(1 − P̄e). With
/// equal numbers of raters it is Fleiss' original.
pub fn fleiss_kappa(counts: &[Vec<u32>]) -> Option<f64> {
    let (p_bar, p_e) = fleiss_parts(counts)?;
    // P̄e is exactly 1.0 when one category holds every rating, and well below it otherwise.
    (p_e < 1.0).then(|| (p_bar - p_e) / (1.0 - p_e))
}

/// The counts table `fleiss_kappa` takes: for each debate, how many judges chose each category.
pub fn category_counts(verdicts: &[Vec<Option<usize>>], categories: usize) -> Vec<Vec<u32>> {
    verdicts
        .iter()
        .map(|row| {
            let mut counts = vec![0; categories];
            for k in row.iter().flatten().filter(|&&k| k < categories) {
                counts[*k] += 1;
            }
            counts
        })
        .collect()
}

fn verdict(row: &[Option<usize>], judge: usize, categories: usize) -> Option<usize> {
    row.get(judge)
        .copied()
        .flatten()
        .filter(|&k| k < categories)
}

/// κ = (p_o − p_e)/(1 − p_e), with p_e = Σ_k p_a(k)·p_b(k) the agreement expected if each
/// judge kept its own habits but chose at random. Over N debates that is
/// (N·agreed − Σ_k a_k·b_k) / (N² − Σ_k a_k·b_k), exact in integers up to the division.
fn cohen_kappa(debates: u32, agreed: u32, by_a: &[u64], by_b: &[u64]) -> Option<f64> {
    if debates < 2 {
        return None;
    }
    let n = u64::from(debates);
    let chance: u64 = by_a.iter().zip(by_b).map(|(x, y)| x * y).sum();
    let observed = n * u64::from(agreed);
    (chance < n * n).then(|| (observed as f64 - chance as f64) / (n * n - chance) as f64)
}

/// P̄ (mean agreement per subject) and P̄e (chance agreement), over subjects with two or
/// more raters; None when there are none.
fn fleiss_parts(counts: &[Vec<u32>]) -> Option<(f64, f64)> {
    let width = counts.iter().map(Vec::len).max().unwrap_or(0);
    let mut totals = vec![0u64; width];
    let (mut subjects, mut ratings, mut agreement) = (0u32, 0u64, 0.0);
    for row in counts {
        let n: u64 = row.iter().map(|&c| u64::from(c)).sum();
        if n < 2 {
            continue;
        }
        let squares: u64 = row.iter().map(|&c| u64::from(c).pow(2)).sum();
        agreement += (squares - n) as f64 / (n * (n - 1)) as f64;
        subjects += 1;
        ratings += n;
        for (t, &c) in totals.iter_mut().zip(row) {
            *t += u64::from(c);
        }
    }
    if subjects == 0 {
        return None;
    }
    let p_e = totals
        .iter()
        .map(|&t| (t as f64 / ratings as f64).powi(2))
        .sum();
    Some((agreement / f64::from(subjects), p_e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fleiss_matches_the_textbook_example() {
        // Fleiss (1971) as usually retold: 10 subjects, 14 raters each, 5 categories.
        let counts = vec![
            vec![0, 0, 0, 0, 14],
            vec![0, 2, 6, 4, 2],
            vec![0, 0, 3, 5, 6],
            vec![0, 3, 9, 2, 0],
            vec![2, 2, 8, 1, 1],
            vec![7, 7, 0, 0, 0],
            vec![3, 2, 6, 3, 0],
            vec![2, 5, 3, 2, 2],
            vec![6, 5, 2, 1, 0],
            vec![0, 2, 2, 3, 7],
        ];
        let (p_bar, p_e) = fleiss_parts(&counts).unwrap();
        assert!((p_bar - 0.378).abs() < 1e-3, "{p_bar}");
        assert!((p_e - 0.213).abs() < 1e-3, "{p_e}");
        let kappa = fleiss_kappa(&counts).unwrap();
        assert!((kappa - 0.210).abs() < 1e-3, "{kappa}");
    }

    #[test]
    fn cohen_matches_a_hand_computed_table() {
        // 50 debates: both "yes" 20, a yes b no 5, a no b yes 10, both no 15.
        // p_o = 35/50 = 0.7; a says yes 25/50, b 30/50; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = 0.4.
        let mut verdicts = Vec::new();
        for (x, y, times) in [(0, 0, 20), (0, 1, 5), (1, 0, 10), (1, 1, 15)] {
            verdicts.extend(std::iter::repeat_n(vec![Some(x), Some(y)], times));
        }
        let pairs = pairwise(&verdicts, 2, 2);
        assert_eq!(pairs.len(), 1);
        let p = &pairs[0];
        assert_eq!((p.a, p.b, p.debates, p.agreed), (0, 1, 50, 35));
        assert!((p.kappa.unwrap() - 0.4).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn perfect_agreement_is_one_and_missing_verdicts_are_skipped() {
        // Judges 0 and 1 always agree; judge 2 misses debates, gives an unreadable verdict
        // (category 7) on one and disagrees on another.
        let verdicts = vec![
            vec![Some(0), Some(0), None],
            vec![Some(1), Some(1), Some(1)],
            vec![Some(2), Some(2), Some(7)],
            vec![Some(0), Some(0), Some(1)],
            vec![Some(1), Some(1)],
        ];
        let pairs = pairwise(&verdicts, 3, 3);
        let ids: Vec<_> = pairs
            .iter()
            .map(|p| (p.a, p.b, p.debates, p.agreed))
            .collect();
        assert_eq!(ids, vec![(0, 1, 5, 5), (0, 2, 2, 1), (1, 2, 2, 1)]);
        assert_eq!(pairs[0].kappa, Some(1.0));
        // Judge 2 said 1 both times: its habit explains all agreement, p_e = 0.5, κ = 0.
        assert_eq!(pairs[1].kappa, Some(0.0));

        let counts = category_counts(&verdicts, 3);
        assert_eq!(counts[2], vec![0, 0, 2]);
        assert_eq!(counts[3], vec![2, 1, 0]);
        let unanimous = category_counts(&verdicts[..3], 3);
        assert_eq!(fleiss_kappa(&unanimous), Some(1.0));
    }

    #[test]
    fn undefined_kappas_are_none() {
        // One shared debate; and two judges who always say the same single thing.
        let one = vec![vec![Some(0), Some(1)]];
        assert_eq!(pairwise(&one, 2, 2)[0].kappa, None);
        let same = vec![vec![Some(0), Some(0)]; 4];
        let p = &pairwise(&same, 2, 3)[0];
        assert_eq!((p.debates, p.agreed, p.kappa), (4, 4, None));
        let never = vec![vec![Some(0), None]; 4];
        assert_eq!(pairwise(&never, 2, 2)[0].debates, 0);
        assert_eq!(pairwise(&never, 2, 2)[0].kappa, None);
        assert!(pairwise(&[], 1, 2).is_empty());

        assert_eq!(fleiss_kappa(&[]), None);
        assert_eq!(fleiss_kappa(&[vec![1, 0], vec![0, 1]]), None);
        assert_eq!(fleiss_kappa(&category_counts(&same, 3)), None);
    }

    #[test]
    fn cohens_kappa_has_its_interval_on_a_known_table() {
        // 50 items: both yes 20, yes/no 5, no/yes 10, both no 15. p_o = 0.7; p_e =
        // (25 × 30 + 25 × 20) / 2500 = 0.5; κ = 0.4; SE = √(0.21 / (50 × 0.25)) = 0.129615.
        let mut pairs = vec![(0, 0); 20];
        pairs.extend(vec![(0, 1); 5]);
        pairs.extend(vec![(1, 0); 10]);
        pairs.extend(vec![(1, 1); 15]);
        let c = cohen(&pairs, 3);
        assert_eq!((c.shared, c.agreed), (50, 35));
        assert!((c.kappa.unwrap() - 0.4).abs() < 1e-12);
        let (lo, hi) = c.interval.unwrap();
        assert!((lo - (0.4 - 1.96 * 0.129_615)).abs() < 1e-5, "{lo}");
        assert!((hi - (0.4 + 1.96 * 0.129_615)).abs() < 1e-5, "{hi}");
        // One shared verdict: no kappa, no interval.
        let one = cohen(&[(0, 0)], 3);
        assert_eq!((one.shared, one.kappa, one.interval), (1, None, None));
        // Perfect agreement: κ = 1 and the interval shrinks to it.
        let same = cohen(&[(0, 0), (1, 1), (2, 2), (0, 0)], 3);
        assert_eq!(same.kappa, Some(1.0));
        assert_eq!(same.interval, Some((1.0, 1.0)));
    }
}
