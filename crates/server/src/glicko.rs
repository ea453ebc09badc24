//! Glicko-2 ratings, from Mark Glickman's "Example of the Glicko-2 system" (2013), steps 1
//! to 8. A rated game is one rating period for each player, with one game in it.

use std::f64::consts::PI;

/// Glicko-2's scale factor between the Glicko scale (1500, RD 350) and its own.
const SCALE: f64 = 173.7178;
/// The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration (step 5).
const EPSILON: f64 = 0.000_001;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub vol: f64,
}

impl Default for Rating {
    /// A new player: 1500, RD 350, volatility 0.06.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            vol: 0.06,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The player's rating after a rating period with `games`: (opponent's rating before the
/// period, score 1, 0.5 or 0). With no games only the deviation grows (step 6).
pub fn update(player: Rating, games: &[(Rating, f64)], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.vol;
    if games.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            rating: player.rating,
            rd: phi_star * SCALE,
            vol: sigma,
        };
    }
    // Steps 3 and 4: the estimated variance v and improvement delta.
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (opp, score) in games {
        let mu_j = (opp.rating - 1500.0) / SCALE;
        let phi_j = opp.rd / SCALE;
        let ex = e(mu, mu_j, phi_j);
        v_inv += g(phi_j).powi(2) * ex * (1.0 - ex);
        sum += g(phi_j) * (score - ex);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    // Step 5: the new volatility, by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    // Step 8: back to the Glicko scale.
    Rating {
        rating: SCALE * mu_new + 1500.0,
        rd: SCALE * phi_new,
        vol: sigma_new,
    }
}

/// At most this many rated games between the same two accounts change ratings in
/// `PAIR_WINDOW_MS` (in either colours); later ones are stored unrated and say why, so that
/// a rated rematch loop farms nothing (docs/server.md, "Ratings").
pub const MAX_RATED_PAIR_GAMES: i64 = 3;
/// The window of `MAX_RATED_PAIR_GAMES`: a day.
pub const PAIR_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// Both players' ratings after one game between them; `white_score` is 1, 0.5 or 0.
pub fn rate_game(white: Rating, black: Rating, white_score: f64) -> (Rating, Rating) {
    (
        update(white, &[(black, white_score)], TAU),
        update(black, &[(white, 1.0 - white_score)], TAU),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, rd: f64) -> Rating {
        Rating {
            rating,
            rd,
            vol: 0.06,
        }
    }

    /// Glickman's worked example: 1500 (RD 200, volatility 0.06) beats 1400 (RD 30), loses
    /// to 1550 (RD 100) and to 1700 (RD 300), tau 0.5: 1464.06, RD 151.52, volatility
    /// 0.05999. The paper rounds mu' to -0.2069 before converting (173.7178 * -0.2069 + 1500
    /// = 1464.06); unrounded the rating is 1464.0507, so the rating is checked to 0.01 and
    /// the paper's Glicko-2-scale values mu' = -0.2069 and phi' = 0.8722 to four places; the
    /// volatility, 0.0599960, is written truncated in the paper.
    #[test]
    fn glickmans_worked_example() {
        let player = r(1500.0, 200.0);
        let games = [
            (r(1400.0, 30.0), 1.0),
            (r(1550.0, 100.0), 0.0),
            (r(1700.0, 300.0), 0.0),
        ];
        let after = update(player, &games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert_eq!(format!("{:.4}", (after.rating - 1500.0) / SCALE), "-0.2069");
        assert_eq!(format!("{:.4}", after.rd / SCALE), "0.8722");
        assert_eq!(format!("{:.2}", after.rd), "151.52");
        // 0.0599960: the paper writes it truncated, 0.05999.
        assert!(
            (after.vol - 0.05999).abs() < 0.00001 && after.vol < 0.06,
            "{}",
            after.vol
        );
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let after = update(r(1500.0, 200.0), &[], 0.5);
        assert_eq!(after.rating, 1500.0);
        assert!((after.rd - (200.0f64.powi(2) + (0.06 * SCALE).powi(2)).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn one_game_moves_both_players_symmetrically_between_equals() {
        let (w, b) = rate_game(Rating::default(), Rating::default(), 1.0);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.rd < 350.0 && b.rd < 350.0);
        let (w, b) = rate_game(Rating::default(), Rating::default(), 0.5);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        // Beating a much stronger player gains more than beating an equal one.
        let (up, _) = rate_game(Rating::default(), r(1900.0, 80.0), 1.0);
        let (even, _) = rate_game(Rating::default(), r(1500.0, 80.0), 1.0);
        assert!(up.rating - 1500.0 > even.rating - 1500.0);
    }
}
