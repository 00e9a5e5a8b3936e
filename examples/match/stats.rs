//! Match statistics: Elo difference with a 95 % error bar, likelihood of superiority and a
//! sequential probability ratio test (the normal approximation fishtest uses).

/// Elo difference for an expected score `p` (0 < p < 1).
pub fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Per-game variance of the score.
    fn variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let p = self.score();
        (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n
    }

    /// (Elo, half-width of the 95 % interval, its lower and upper end). The normal
    /// approximation of the score is poor near 0 % and 100 %: the ends are clamped at the
    /// Elo of a score of 1/(2N) or 1 - 1/(2N), and the Elo itself is infinite at 0 or 1.
    pub fn elo_with_error(&self) -> (f64, f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let p = self.score();
        let se = (self.variance() / n).sqrt();
        let eps = 0.5 / n;
        let clamp = |x: f64| x.clamp(eps, 1.0 - eps);
        let lo = elo(clamp(p - 1.96 * se));
        let hi = elo(clamp(p + 1.96 * se));
        let e = if p <= 0.0 {
            f64::NEG_INFINITY
        } else if p >= 1.0 {
            f64::INFINITY
        } else {
            elo(p)
        };
        (e, (hi - lo) / 2.0, lo, hi)
    }

    /// Likelihood of superiority (probability that the first engine is stronger).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected(elo0), expected(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// SPRT bounds for error rates alpha and beta.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}
