//! Ranking contestants from judged debates with the Bradley–Terry model: `i` beats `j` with
//! probability π_i / (π_i + π_j). A debate counts with the share of the judges' votes each
//! side won, so a split panel is a fractional win rather than a coin toss. Strengths are shown
//! on an Elo-like scale with a bootstrap interval, because a ranking built on a few dozen
//! debates is uncertain and the page should say how much.
//!
//! Each contestant also plays one virtual tie against a reference of strength 1. Without it a
//! contestant that won every debate would have an infinite strength; with it the fit is the
//! unique maximum of a strictly concave penalised likelihood, pulled slightly towards the
//! middle (three wins in four give odds of about 2.6 to 1 instead of 3 to 1).
//!
//! Contestants are few (a tournament pits a handful of models), so pair counts are kept in a
//! dense n × n table; the bootstrap reuses its buffers so it stays cheap in the browser.

/// One judged debate: `a_score` is contestant `a`'s share of the judges' votes (0–1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    pub a: usize,
    pub b: usize,
    pub a_score: f64,
}

/// A contestant's strength on an Elo-like scale (the field's geometric mean at 1000;
/// 400 points mean 10-to-1 odds) with a 95% interval from resampling the debates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub points: f64,
    pub low: f64,
    pub high: f64,
}

/// The fit stops when no strength moved by more than this fraction in a sweep.
const TOLERANCE: f64 = 1e-10;
/// A bound on sweeps; a tournament's fit normally converges in one or two hundred.
const MAX_SWEEPS: usize = 10_000;

/// Maximum-likelihood strengths (π_i > 0), regularised by one virtual tie per contestant
/// against a reference player of strength 1, so a contestant that won (or lost) every game
/// still gets a finite strength. A contestant with no games gets the reference's strength 1.
/// Games that pair a contestant with itself, name one out of range or have a non-finite
/// score are ignored; scores are clamped to 0–1.
pub fn strengths(n: usize, games: &[Game]) -> Vec<f64> {
    let mut tally = Tally::new(n);
    for g in games {
        tally.add(g);
    }
    let mut pi = vec![1.0; n];
    fit(&tally, &mut pi);
    pi
}

/// Strengths as points: 1000 + 400·log10(π_i / geometric mean of π). Centring on the
/// geometric mean makes the scale independent of the fit's arbitrary unit and keeps the
/// field's average at 1000 (a contestant with no games sits near, not exactly at, 1000).
pub fn points(strengths: &[f64]) -> Vec<f64> {
    let centre = log_centre(strengths);
    strengths.iter().map(|&p| to_points(p, centre)).collect()
}

/// Points for each contestant with a percentile bootstrap interval (2.5% and 97.5%) over
/// `resamples` resamplings of the games with replacement, deterministic for a given seed.
///
/// Percentiles interpolate linearly between the two nearest order statistics (the usual
/// "type 7" definition). A percentile interval need not contain the full-data estimate when
/// the resampled fits are skewed; it is widened to include it so the page never shows a
/// point outside its own interval. With no games or no resamples the interval is the point.
pub fn ratings(n: usize, games: &[Game], resamples: u32, seed: u64) -> Vec<Rating> {
    let mut b = Bootstrap::new(n, games, resamples, seed);
    while !b.step(u32::MAX) {}
    b.ratings()
}

/// `ratings`, a few resamples at a time: a page spreads the bootstrap over several short
/// tasks (a leaderboard of hundreds of debates would otherwise hold the page for a long
/// one), and gets exactly what `ratings` gives.
#[derive(Clone, Debug)]
pub struct Bootstrap {
    games: Vec<Game>,
    tally: Tally,
    /// The full-data fit, where every resample starts.
    pi: Vec<f64>,
    centre: Vec<f64>,
    /// `draws[i * runs + r]`: contestant i's points in resample r, kept together for sorting.
    draws: Vec<f64>,
    boot: Vec<f64>,
    rng: SplitMix64,
    runs: usize,
    done: usize,
}

impl Bootstrap {
    pub fn new(n: usize, games: &[Game], resamples: u32, seed: u64) -> Self {
        let games: Vec<Game> = games.iter().copied().filter(|g| valid(n, g)).collect();
        let mut tally = Tally::new(n);
        for g in &games {
            tally.add(g);
        }
        let mut pi = vec![1.0; n];
        fit(&tally, &mut pi);
        let centre = points(&pi);
        let runs = if games.is_empty() {
            0
        } else {
            resamples as usize
        };
        Bootstrap {
            games,
            tally,
            boot: pi.clone(),
            pi,
            centre,
            draws: vec![0.0; n * runs],
            rng: SplitMix64(seed),
            runs,
            done: 0,
        }
    }

    /// The full-data fit's points, before any resample.
    pub fn points(&self) -> &[f64] {
        &self.centre
    }

    /// The full-data fit's points as ratings whose intervals are the points themselves:
    /// what there is before the resamples (or when there is nothing to resample).
    pub fn unresampled(&self) -> Vec<Rating> {
        self.centre
            .iter()
            .map(|&p| Rating {
                points: p,
                low: p,
                high: p,
            })
            .collect()
    }

    /// Runs up to `k` more resamples; true once all are done.
    pub fn step(&mut self, k: u32) -> bool {
        let end = self.runs.min(self.done.saturating_add(k as usize));
        for r in self.done..end {
            self.tally.clear();
            for _ in 0..self.games.len() {
                self.tally
                    .add(&self.games[self.rng.below(self.games.len())]);
            }
            // Starting from the full-data fit, which every resample resembles, saves sweeps.
            self.boot.copy_from_slice(&self.pi);
            fit(&self.tally, &mut self.boot);
            let c = log_centre(&self.boot);
            for (i, &p) in self.boot.iter().enumerate() {
                self.draws[i * self.runs + r] = to_points(p, c);
            }
        }
        self.done = end;
        self.done == self.runs
    }

    /// Each contestant's points and interval; call once `step` says all are done.
    pub fn ratings(mut self) -> Vec<Rating> {
        if self.runs == 0 {
            return self.unresampled();
        }
        let runs = self.runs;
        self.centre
            .iter()
            .zip(self.draws.chunks_mut(runs))
            .map(|(&p, d)| {
                d.sort_by(f64::total_cmp);
                Rating {
                    points: p,
                    low: percentile(d, 0.025).min(p),
                    high: percentile(d, 0.975).max(p),
                }
            })
            .collect()
    }
}

fn valid(n: usize, g: &Game) -> bool {
    g.a < n && g.b < n && g.a != g.b && g.a_score.is_finite()
}

/// Mean of log10 π: the log of the geometric mean (0 for an empty field).
fn log_centre(strengths: &[f64]) -> f64 {
    if strengths.is_empty() {
        return 0.0;
    }
    strengths.iter().map(|p| p.log10()).sum::<f64>() / strengths.len() as f64
}

fn to_points(strength: f64, log_centre: f64) -> f64 {
    1000.0 + 400.0 * (strength.log10() - log_centre)
}

/// The `p` quantile of sorted, non-empty `values`, interpolating between order statistics.
fn percentile(values: &[f64], p: f64) -> f64 {
    let h = (values.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(values.len() - 1);
    values[lo] + (h - lo as f64) * (values[hi] - values[lo])
}

/// What the fit needs from a set of games, in buffers the bootstrap reuses.
#[derive(Clone, Debug)]
struct Tally {
    n: usize,
    /// Score each contestant earned (the virtual tie's half is added by the fit).
    wins: Vec<f64>,
    /// `games[i * n + j]`: debates between `i` and `j` (symmetric).
    games: Vec<f64>,
}

impl Tally {
    fn new(n: usize) -> Self {
        Tally {
            n,
            wins: vec![0.0; n],
            games: vec![0.0; n * n],
        }
    }

    fn clear(&mut self) {
        self.wins.fill(0.0);
        self.games.fill(0.0);
    }

    fn add(&mut self, g: &Game) {
        if !valid(self.n, g) {
            return;
        }
        let s = g.a_score.clamp(0.0, 1.0);
        self.wins[g.a] += s;
        self.wins[g.b] += 1.0 - s;
        self.games[g.a * self.n + g.b] += 1.0;
        self.games[g.b * self.n + g.a] += 1.0;
    }
}

/// Hunter's MM algorithm, updating `pi` in place from its current values:
/// π_i ← W_i / (Σ_j n_ij/(π_i+π_j) + 1/(π_i+1)), where W_i includes the virtual tie's half
/// win and the last term is the virtual game against the reference. Each update raises the
/// penalised likelihood, so the sweeps converge to its unique maximum.
fn fit(t: &Tally, pi: &mut [f64]) {
    let n = t.n;
    for _ in 0..MAX_SWEEPS {
        let mut moved = 0.0f64;
        for i in 0..n {
            let row = &t.games[i * n..(i + 1) * n];
            let mut denom = 1.0 / (pi[i] + 1.0);
            for (j, &games) in row.iter().enumerate() {
                if games > 0.0 {
                    denom += games / (pi[i] + pi[j]);
                }
            }
            let next = (t.wins[i] + 0.5) / denom;
            moved = moved.max((next / pi[i] - 1.0).abs());
            pi[i] = next;
        }
        // Real games fix only the ratios; the overall level rests on the virtual ties alone,
        // which the sweep above moves very slowly once there are many games. This is the MM
        // step for a common factor c on all strengths (maximising Σ_i ½·log cπ_i − log(cπ_i+1)),
        // which removes that slow direction.
        let c = 0.5 * n as f64 / pi.iter().map(|p| p / (p + 1.0)).sum::<f64>();
        for p in pi.iter_mut() {
            *p *= c;
        }
        if moved.max((c - 1.0).abs()) < TOLERANCE {
            break;
        }
    }
}

/// SplitMix64 as a stream: cheap, good enough for resampling, and the same on every platform.
#[derive(Clone, Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` by multiply-shift (bias of order n / 2^64, negligible).
    fn below(&mut self, n: usize) -> usize {
        ((self.next() as u128 * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a: usize, b: usize, a_score: f64) -> Game {
        Game { a, b, a_score }
    }

    fn logistic(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    /// An independent fit: coordinate-wise Newton ascent on θ = ln π of the penalised
    /// log-likelihood Σ_games [s·ln σ(θ_a−θ_b) + (1−s)·ln σ(θ_b−θ_a)]
    /// + Σ_i [½·ln σ(θ_i) + ½·ln σ(−θ_i)] (the virtual tie against θ = 0).
    fn reference_fit(n: usize, games: &[Game]) -> Vec<f64> {
        let mut theta = vec![0.0; n];
        for _ in 0..10_000 {
            let mut moved = 0.0f64;
            for i in 0..n {
                let s = logistic(theta[i]);
                let (mut grad, mut curv) = (0.5 - s, s * (1.0 - s));
                for g in games {
                    let (score, other) = match (g.a == i, g.b == i) {
                        (true, _) => (g.a_score, g.b),
                        (_, true) => (1.0 - g.a_score, g.a),
                        _ => continue,
                    };
                    let s = logistic(theta[i] - theta[other]);
                    grad += score - s;
                    curv += s * (1.0 - s);
                }
                theta[i] += grad / curv;
                moved = moved.max((grad / curv).abs());
            }
            if moved < 1e-14 {
                break;
            }
        }
        theta.iter().map(|t| t.exp()).collect()
    }

    fn close(a: &[f64], b: &[f64], tol: f64) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() <= tol * y.abs().max(1.0), "{a:?} vs {b:?}");
        }
    }

    fn wins(a: usize, b: usize, times: usize) -> Vec<Game> {
        vec![game(a, b, 1.0); times]
    }

    #[test]
    fn the_bootstrap_in_steps_gives_what_it_gives_at_once() {
        let games = four_player_results();
        let whole = ratings(4, &games, 200, 9);
        let mut b = Bootstrap::new(4, &games, 200, 9);
        let mut steps = 0;
        while !b.step(7) {
            steps += 1;
        }
        assert_eq!(steps, 28, "200 resamples, 7 at a time");
        assert_eq!(
            b.points(),
            &whole.iter().map(|r| r.points).collect::<Vec<_>>()[..]
        );
        assert_eq!(b.ratings(), whole);
        // No games: the interval is the point, at once.
        let mut none = Bootstrap::new(3, &[], 200, 9);
        assert!(none.step(1));
        assert!(none
            .ratings()
            .iter()
            .all(|r| r.low == r.points && r.high == r.points));
    }

    #[test]
    fn three_wins_in_four_match_the_hand_solved_fit() {
        // A (0) beats B (1) in three of four. At the maximum, for each contestant,
        //   W_i / π_i = Σ_games 1/(π_a + π_b) + 1/(π_i + 1)
        // with W_i its score plus the virtual tie's half:
        //   3.5 / π_A = 4/(π_A + π_B) + 1/(π_A + 1),  1.5 / π_B = 4/(π_A + π_B) + 1/(π_B + 1).
        // Inverting strengths and swapping winners maps the problem onto itself, so
        // π_B = 1/π_A = 1/x, and both equations become f(x) = 4/(x² + 1) + 1/(x + 1) − 1.5 = 0,
        // decreasing on x > 0 with f(1) > 0 > f(3): solve by bisection.
        let f = |x: f64| 4.0 / (x * x + 1.0) + 1.0 / (x + 1.0) - 1.5;
        let (mut lo, mut hi) = (1.0, 3.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let x = 0.5 * (lo + hi);
        let mut games = wins(0, 1, 3);
        games.push(game(1, 0, 1.0));
        let pi = strengths(2, &games);
        close(&pi, &[x, 1.0 / x], 1e-6);
        // The prior pulls 3-to-1 odds in to about 2.58 to 1 (165 points apart, not 191).
        assert!((pi[0] / pi[1] - 2.583).abs() < 1e-3, "{pi:?}");
        let p = points(&pi);
        assert!((p[0] - p[1] - 164.8).abs() < 0.1, "{p:?}");
    }

    fn four_player_results() -> Vec<Game> {
        vec![
            game(0, 1, 1.0),
            game(1, 0, 0.0),
            game(0, 2, 1.0),
            game(2, 0, 1.0 / 3.0),
            game(0, 3, 1.0),
            game(3, 0, 0.5),
            game(1, 2, 1.0),
            game(2, 1, 0.0),
            game(1, 3, 2.0 / 3.0),
            game(3, 1, 0.0),
            game(2, 3, 0.5),
            game(3, 2, 0.0),
        ]
    }

    #[test]
    fn mm_fit_matches_newton_on_the_penalised_likelihood() {
        let games = four_player_results();
        let pi = strengths(4, &games);
        close(&pi, &reference_fit(4, &games), 1e-6);
        let p = points(&pi);
        assert!(p[0] > p[1] && p[1] > p[2] && p[2] > p[3], "{p:?}");
    }

    #[test]
    fn unbeaten_and_winless_contestants_stay_finite_at_the_ends() {
        let mut games = Vec::new();
        for other in 1..4 {
            games.extend(wins(0, other, 2));
            games.extend(wins(other, 3, 1));
        }
        games.extend([game(1, 2, 1.0), game(2, 1, 1.0)]);
        let p = points(&strengths(4, &games));
        assert!(p.iter().all(|x| x.is_finite()), "{p:?}");
        assert!(p[0] > p[1].max(p[2]) && p[3] < p[1].min(p[2]), "{p:?}");

        // The prior matters little once there are a few dozen debates: 30 wins in 40 give
        // odds within 3% of the unregularised 3 to 1.
        let mut games = wins(0, 1, 30);
        games.extend(wins(1, 0, 10));
        let pi = strengths(2, &games);
        let odds = pi[0] / pi[1];
        assert!(odds < 3.0 && odds > 2.9, "{odds}");
    }

    #[test]
    fn bootstrap_is_deterministic_and_brackets_the_estimate() {
        let games = four_player_results();
        let r = ratings(4, &games, 500, 7);
        assert_eq!(r, ratings(4, &games, 500, 7));
        assert_ne!(r, ratings(4, &games, 500, 8));
        close(
            &r.iter().map(|x| x.points).collect::<Vec<_>>(),
            &points(&strengths(4, &games)),
            1e-12,
        );
        for x in &r {
            assert!(x.low <= x.points && x.points <= x.high, "{x:?}");
            assert!(x.high - x.low > 1.0, "{x:?}");
        }

        // Ten times the evidence, the same proportions: every interval narrows.
        let more: Vec<Game> = (0..10).flat_map(|_| games.iter().copied()).collect();
        let r10 = ratings(4, &more, 500, 7);
        for (x, y) in r.iter().zip(&r10) {
            assert!(y.high - y.low < 0.6 * (x.high - x.low), "{x:?} {y:?}");
        }
    }

    #[test]
    fn overwhelming_wins_separate_the_intervals() {
        // 0 wins all 20 of its debates; 1 and 2 split theirs.
        let mut games = wins(0, 1, 10);
        games.extend(wins(0, 2, 10));
        games.extend(wins(1, 2, 5));
        games.extend(wins(2, 1, 5));
        let r = ratings(3, &games, 1000, 1);
        assert!(r[0].low > r[1].high && r[0].low > r[2].high, "{r:?}");
    }

    #[test]
    fn points_centre_on_the_geometric_mean_with_400_points_per_tenfold() {
        assert_eq!(points(&[10.0, 1.0]), vec![1200.0, 800.0]);
        let pi = strengths(4, &four_player_results());
        let p = points(&pi);
        assert!((p.iter().sum::<f64>() / 4.0 - 1000.0).abs() < 1e-9, "{p:?}");
        for i in 0..4 {
            for j in 0..4 {
                let odds = 10f64.powf((p[i] - p[j]) / 400.0);
                assert!((odds / (pi[i] / pi[j]) - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn empty_and_degenerate_inputs_give_plain_numbers() {
        assert!(strengths(0, &[]).is_empty());
        assert!(points(&[]).is_empty());
        assert!(ratings(0, &[], 100, 1).is_empty());
        let flat = Rating {
            points: 1000.0,
            low: 1000.0,
            high: 1000.0,
        };
        assert_eq!(ratings(3, &[], 100, 1), vec![flat; 3]);
        // Self-play, unknown contestants and unreadable scores are ignored.
        let junk = [game(0, 0, 1.0), game(0, 5, 1.0), game(0, 1, f64::NAN)];
        assert_eq!(strengths(2, &junk), vec![1.0, 1.0]);
        assert_eq!(ratings(2, &junk, 100, 1), vec![flat; 2]);
        // No resamples: the interval is the point. A contestant without games keeps strength 1.
        let r = ratings(3, &wins(0, 1, 3), 0, 1);
        assert!(r.iter().all(|x| x.low == x.points && x.high == x.points));
        let pi = strengths(3, &wins(0, 1, 3));
        assert!((pi[2] - 1.0).abs() < 1e-9, "{pi:?}");
    }

    #[test]
    fn bootstrap_of_a_full_tournament_is_quick() {
        // 8 contestants, 112 debates (every pair twice), 1,000 resamples.
        let mut games = Vec::new();
        for a in 0..8 {
            for b in 0..8 {
                if a != b {
                    let s = if (a + 2 * b) % 5 == 0 {
                        0.5
                    } else {
                        (a > b) as u8 as f64
                    };
                    games.push(game(a, b, s));
                }
            }
        }
        let start = std::time::Instant::now();
        let r = ratings(8, &games, 1000, 3);
        let took = start.elapsed();
        assert!(r.iter().all(|x| x.low <= x.points && x.points <= x.high));
        assert!(r[7].points > r[0].points);
        // Generous for an unoptimised test build; optimised it takes about 40 ms.
        assert!(took.as_secs_f64() < 5.0, "{took:?}");
    }
}
