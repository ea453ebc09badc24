//! Sequential judgement of a match: the likelihood of superiority and the SPRT.
//!
//! Both take a match's wins, draws and losses (of the agent being judged). The SPRT is the
//! trinomial generalised SPRT on logistic Elo, as cutechess-cli and fishtest's trinomial
//! test compute it: with N = W + D + L games, score s = (W + D/2) / N and per-game variance
//! var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N, the log-likelihood ratio of Elo `elo1`
//! against Elo `elo0` is
//!
//! LLR = N (s1 - s0) (2s - s0 - s1) / (2 var),  s_k = 1 / (1 + 10^(-elo_k/400)).
//!
//! It accepts H0 (Elo `elo0`) at LLR <= ln(beta / (1 - alpha)) and H1 (Elo `elo1`) at
//! LLR >= ln((1 - beta) / alpha). A match without games or without variance (every game
//! the same result) has LLR 0 and no verdict.

/// Likelihood of superiority: the probability that the agent is the stronger, from wins and
/// losses (draws say nothing about it): 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))), 0.5 when
/// no game was decided.
pub fn los(wins: u32, _draws: u32, losses: u32) -> f64 {
    let decided = wins as f64 + losses as f64;
    if decided == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * decided).sqrt()))
}

/// The error function, Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let (p, a1, a2, a3, a4, a5) = (
        0.327_591_1,
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    );
    if x == 0.0 {
        return 0.0; // exact (the approximation would give 1e-9)
    }
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + p * x);
    let poly = ((((a5 * t + a4) * t + a3) * t + a2) * t + a1) * t;
    sign * (1.0 - poly * (-x * x).exp())
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hypothesis {
    /// The Elo difference is `elo0` (or less).
    H0,
    /// The Elo difference is `elo1` (or more).
    H1,
}

/// A sequential probability ratio test of Elo `elo0` against Elo `elo1`, with the chance
/// `alpha` of accepting H1 when H0 holds and `beta` of accepting H0 when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// The test, or what is wrong with its settings: finite bounds with elo0 < elo1, and
    /// alpha and beta strictly between 0 and 0.5.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(format!(
                "the Elo bounds must be two numbers, the first below the second (got {elo0}, {elo1})"
            ));
        }
        for (name, x) in [("alpha", alpha), ("beta", beta)] {
            if !(x > 0.0 && x < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5 (got {x})"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// (lower, upper): LLR at or below `lower` accepts H0, at or above `upper` accepts H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these results (0 without games or
    /// without variance).
    pub fn llr(&self, wins: u32, draws: u32, losses: u32) -> f64 {
        let (w, d, l) = (wins as f64, draws as f64, losses as f64);
        let n = w + d + l;
        if n == 0.0 {
            return 0.0;
        }
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        if var <= 0.0 {
            return 0.0;
        }
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// H0 or H1 once the LLR has reached a bound, None while the test goes on.
    pub fn verdict(&self, wins: u32, draws: u32, losses: u32) -> Option<Hypothesis> {
        self.decide(self.llr(wins, draws, losses))
    }

    /// The verdict for a log-likelihood ratio: H1 at or above the upper bound, H0 at or
    /// below the lower one.
    pub fn decide(&self, llr: f64) -> Option<Hypothesis> {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Hypothesis::H1)
        } else if llr <= lower {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(elo0: f64, elo1: f64) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05).unwrap()
    }

    #[test]
    fn erf_matches_reference_values() {
        // Reference values from python3's math.erf.
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.5204998778130465),
            (-1.3, -0.9340079449406524),
            (2.2, 0.9981371537020182),
        ] {
            assert!((erf(x) - want).abs() < 1e-6, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn los_is_symmetric_and_even_at_equal_wins() {
        for (w, d, l) in [(0, 0, 0), (5, 3, 5), (12, 0, 4), (1, 40, 0), (90, 200, 120)] {
            let sum = los(w, d, l) + los(l, d, w);
            assert!((sum - 1.0).abs() < 1e-9, "{w}-{d}-{l}: {sum}");
        }
        assert_eq!(los(7, 10, 7), 0.5);
        assert_eq!(los(0, 10, 0), 0.5);
        assert!(los(12, 0, 4) > 0.9 && los(4, 0, 12) < 0.1);
        // More wins, same losses: more likely the stronger.
        assert!(los(20, 5, 10) > los(15, 5, 10));
        // 0.5 (1 + erf((120 - 90) / sqrt(2 * 210))), computed with python3's math.erf.
        assert!((los(120, 200, 90) - 0.9807830348816091).abs() < 1e-6);
        assert!((los(10, 5, 3) - 0.9738981823293427).abs() < 1e-6);
    }

    #[test]
    fn llr_matches_an_independent_computation() {
        // Computed with python3 from the formula in the module comment
        // (n*(s1-s0)*(2s-s0-s1)/(2 var)).
        assert!((test(0.0, 10.0).llr(120, 200, 90) - 1.3682755477911344).abs() < 1e-9);
        assert!((test(-5.0, 5.0).llr(300, 400, 250) - 2.497523554776481).abs() < 1e-9);
    }

    #[test]
    fn llr_sign_and_monotonicity() {
        let t = test(0.0, 10.0);
        // No games, or no variance: no evidence.
        assert_eq!(t.llr(0, 0, 0), 0.0);
        assert_eq!(t.llr(30, 0, 0), 0.0);
        assert_eq!(t.llr(0, 30, 0), 0.0);
        // A score above both hypotheses favours H1, below both H0.
        assert!(t.llr(60, 20, 20) > 0.0);
        assert!(t.llr(20, 20, 60) < 0.0);
        // Exactly between s0 and s1 the evidence is balanced: (s0 + s1) / 2 needs a
        // fractional score, so check that the sign changes between neighbours instead.
        assert!(t.llr(101, 0, 100) < 0.0 && t.llr(110, 0, 100) > 0.0);
        // Each extra win raises the LLR, each extra loss lowers it.
        let mut last = t.llr(50, 50, 50);
        for w in 51..80 {
            let now = t.llr(w, 50, 50);
            assert!(now > last, "{w}: {now} <= {last}");
            last = now;
        }
        let mut last = t.llr(50, 50, 50);
        for l in 51..80 {
            let now = t.llr(50, 50, l);
            assert!(now < last, "{l}: {now} >= {last}");
            last = now;
        }
        // The same score over more games is stronger evidence.
        assert!(t.llr(120, 40, 40) > t.llr(60, 20, 20));
        assert!(t.llr(40, 40, 120) < t.llr(20, 20, 60));
    }

    #[test]
    fn bounds_and_verdicts() {
        let t = test(0.0, 10.0);
        let (lo, hi) = t.bounds();
        // ln(0.05/0.95) and ln(0.95/0.05), from python3's math.log.
        assert!((lo + 2.9444389791664403).abs() < 1e-12 && (hi - 2.9444389791664403).abs() < 1e-12);
        let t2 = Sprt::new(0.0, 10.0, 0.05, 0.1).unwrap();
        assert!((t2.bounds().0 - -2.251291798606495).abs() < 1e-12);
        assert_eq!(t.verdict(0, 0, 0), None);
        assert_eq!(t.verdict(30, 0, 0), None);
        assert_eq!(t.verdict(120, 200, 90), None);
        assert_eq!(t.verdict(60, 20, 20), None);
        assert_eq!(t.verdict(120, 40, 40), Some(Hypothesis::H1));
        assert_eq!(t.verdict(40, 40, 120), Some(Hypothesis::H0));
        // Walk wins up one at a time against fixed draws and losses: undecided until the
        // first count whose LLR reaches the upper bound, H1 from there on.
        let first = (0..400u32).find(|&w| t.llr(w, 100, 100) >= hi).unwrap();
        assert_eq!(t.verdict(first - 1, 100, 100), None);
        assert_eq!(t.verdict(first, 100, 100), Some(Hypothesis::H1));
        // And losses up to the lower bound: H0.
        let first = (0..400u32).find(|&l| t.llr(100, 100, l) <= lo).unwrap();
        assert_eq!(t.verdict(100, 100, first - 1), None);
        assert_eq!(t.verdict(100, 100, first), Some(Hypothesis::H0));
        // A bound reached exactly decides (>= and <=); just inside it does not.
        assert_eq!(t.decide(hi), Some(Hypothesis::H1));
        assert_eq!(t.decide(lo), Some(Hypothesis::H0));
        assert_eq!(t.decide(hi - 1e-9), None);
        assert_eq!(t.decide(lo + 1e-9), None);
        assert_eq!(t.decide(0.0), None);
    }

    #[test]
    fn settings_are_checked() {
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.05).is_ok());
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.5).is_err());
        assert!(Sprt::new(0.0, 10.0, -0.1, 0.05).is_err());
    }
}
