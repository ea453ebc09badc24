//! Texel tuning (`cohort tune`, docs/engine.md): fit the piece values a variant's data
//! carries (`values = C=812 G=190`) to the results of recorded games. Each sample is a quiet
//! position at the start of a turn (no unit taken in the turn before it) with the game's
//! result for White; the fit lowers the mean squared error between that result and the
//! evaluation's expected score, `1 / (1 + 10^(-k * eval / 400))`, first choosing the scale
//! `k` for the values as they are, then moving one value at a time while the error falls
//! (Texel's local search, in steps of 40, 20, 10 and 5). No I/O: the caller reads records.

use std::sync::Arc;

use cohort_rules::{Position, Rules, Side, Variant};

use crate::eval::{score_for, Weights};
use crate::record::{Record, ReplayError};

/// A position and the result of its game for White (1, 0.5 or 0).
pub struct Sample {
    pub pos: Position,
    pub result: f64,
}

/// White's result of a record: None for an unfinished game (`*`).
pub fn white_result(record: &Record) -> Option<f64> {
    match record.result() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Add the quiet turn-start positions of `record` after its first `skip_turns` turns (the
/// seeded random openings) to `out`; their number. An unfinished game gives none.
pub fn samples_of(
    record: &Record,
    variant: &Arc<Variant>,
    skip_turns: usize,
    out: &mut Vec<Sample>,
) -> Result<usize, ReplayError> {
    let Some(result) = white_result(record) else {
        return Ok(0);
    };
    let before = out.len();
    let mut turns = 0;
    let mut units_at_turn_start = usize::MAX;
    let mut mover: Option<Side> = None;
    record.replay_with(variant, |game, _| {
        let pos = game.position();
        if game.result().is_some() || mover == Some(pos.side_to_move()) {
            return;
        }
        // A new turn starts here.
        mover = Some(pos.side_to_move());
        turns += 1;
        let units = cohort_rules::all_units(pos).count();
        let quiet = units == units_at_turn_start;
        units_at_turn_start = units;
        if turns > skip_turns && quiet {
            out.push(Sample {
                pos: pos.clone(),
                result,
            });
        }
    })?;
    Ok(out.len() - before)
}

/// The evaluation for White.
fn white_eval(pos: &Position, w: &Weights) -> f64 {
    score_for(pos, Side::White, w) as f64
}

/// White's expected score (0 to 1) of an evaluation for White under scale `k`.
pub fn expected(eval: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// Mean squared error of the samples' expected scores under `w` and scale `k`.
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - expected(white_eval(&s.pos, w), k)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The scale `k` (0.05 to 5) with the least error for the values as they are (a golden
/// section search: the error is smooth and has one minimum in `k`).
pub fn fit_scale(samples: &[Sample], w: &Weights) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (white_eval(&s.pos, w), s.result))
        .collect();
    let err = |k: f64| {
        evals
            .iter()
            .map(|(e, r)| (r - expected(*e, k)).powi(2))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (a, b) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// What a fit found.
pub struct Fit {
    pub k: f64,
    pub error_before: f64,
    pub error_after: f64,
    /// The values before and after, by kind.
    pub before: Vec<i32>,
    pub after: Vec<i32>,
    /// The kinds fitted: those whose number on the board differs between samples (the
    /// others' values add the same to every sample and cannot be told from the data).
    pub fitted: Vec<usize>,
    pub passes: usize,
}

/// Fit the values of `w` to `samples`; `progress` hears each pass (its number and error).
pub fn tune(
    samples: &[Sample],
    w: &mut Weights,
    max_passes: usize,
    mut progress: impl FnMut(usize, f64),
) -> Fit {
    let kinds = w.value.len();
    let counts = |pos: &Position| {
        let mut c = vec![0i32; kinds];
        for u in cohort_rules::all_units(pos) {
            c[u.kind as usize] += if u.side == Side::White { 1 } else { -1 };
        }
        c
    };
    let first: Vec<Vec<i32>> = samples.iter().map(|s| counts(&s.pos)).collect();
    let fitted: Vec<usize> = (0..kinds)
        .filter(|&k| first.iter().any(|c| c[k] != first[0][k]))
        .collect();
    let before = w.value.clone();
    let k = fit_scale(samples, w);
    let error_before = error(samples, w, k);
    let mut best = error_before;
    let mut passes = 0;
    for delta in [40, 20, 10, 5] {
        loop {
            if passes >= max_passes {
                break;
            }
            passes += 1;
            let mut improved = false;
            for &kind in &fitted {
                for sign in [1, -1] {
                    let old = w.value[kind];
                    let new = (old + sign * delta).max(0);
                    if new == old {
                        continue;
                    }
                    w.value[kind] = new;
                    let e = error(samples, w, k);
                    if e < best {
                        best = e;
                        improved = true;
                        break;
                    }
                    w.value[kind] = old;
                }
            }
            progress(passes, best);
            if !improved {
                break;
            }
        }
    }
    Fit {
        k,
        error_before,
        error_after: best,
        before,
        after: w.value.clone(),
        fitted,
        passes,
    }
}

/// The variant-file line that carries fitted values (`values = C=812 G=190`).
pub fn values_line(variant: &Variant, fit: &Fit) -> String {
    let items: Vec<String> = fit
        .fitted
        .iter()
        .map(|&k| format!("{}={}", variant.pieces[k].letter, fit.after[k]))
        .collect();
    format!("values = {}", items.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cohort_rules::builtin;

    /// Samples where White, a Knight up, always wins and Black, a Knight up, always loses:
    /// the fit must raise the Knight's value (the scale alone cannot make a Knight decisive
    /// when the starting value is near zero) and lower the error.
    #[test]
    fn the_fit_moves_a_value_towards_what_the_results_say() {
        let v = builtin("chess").unwrap();
        let white_up = Position::parse(&v, "4k3/pppppppp/8/8/8/8/PPPPPPPP/1N2K1N1 w").unwrap();
        let black_up = Position::parse(&v, "1n2k1n1/pppppppp/8/8/8/8/PPPPPPPP/4K3 w").unwrap();
        let even = Position::parse(&v, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w").unwrap();
        let mut samples = vec![];
        for _ in 0..20 {
            samples.push(Sample {
                pos: white_up.clone(),
                result: 1.0,
            });
            samples.push(Sample {
                pos: black_up.clone(),
                result: 0.0,
            });
            samples.push(Sample {
                pos: even.clone(),
                result: 0.5,
            });
        }
        let mut w = Weights::new(&v);
        let knight = v.kind_of_letter('N').unwrap();
        w.value[knight] = 10;
        let fit = tune(&samples, &mut w, 200, |_, _| {});
        assert_eq!(fit.fitted, vec![knight], "only the Knight's number differs");
        assert!(fit.after[knight] > 200, "{:?}", fit.after);
        assert!(
            fit.error_after < fit.error_before / 2.0,
            "{} {}",
            fit.error_before,
            fit.error_after
        );
        assert_eq!(
            values_line(&v, &fit),
            format!("values = N={}", fit.after[knight])
        );
    }
}
