//! Playing agents against each other: one game, and the statistics of a match.

use crate::time::Instant;
use std::time::Duration;

use cohort_rules::{Game, Outcome, Position, Rules, Side};

use crate::{Agent, Limits};

/// A finished game, ready to be written as one JSON line.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: String,
    pub start: String,
    pub white: String,
    pub black: String,
    /// Each turn's steps in notation (`end` left implicit, as in game records).
    pub turns: Vec<Vec<String>>,
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    pub reason: String,
    /// Largest time a turn took beyond its limit, for White and for Black (0 if never; not
    /// counted on a clock, where the clock judges).
    pub max_overrun: [Duration; 2],
    /// On a clock: the least each side had left after a turn, increment included (0: it
    /// ran out).
    pub min_clock_ms: [Option<u64>; 2],
    /// Set if an agent offered an illegal step (it then loses).
    pub illegal: Option<String>,
    pub nodes: [u64; 2],
}

impl GameRecord {
    /// Score for White: 1, 0.5 or 0.
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    pub fn to_json(&self) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let turns: Vec<String> = self
            .turns
            .iter()
            .map(|t| {
                format!(
                    "[{}]",
                    t.iter()
                        .map(|s| format!("\"{}\"", esc(s)))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            })
            .collect();
        format!(
            "{{\"variant\":\"{}\",\"start\":\"{}\",\"white\":\"{}\",\"black\":\"{}\",\"result\":\"{}\",\"reason\":\"{}\",\"max_overrun_ms\":[{:.1},{:.1}],\"illegal\":{},\"turns\":[{}]}}",
            esc(&self.variant),
            esc(&self.start),
            esc(&self.white),
            esc(&self.black),
            self.result,
            esc(&self.reason),
            self.max_overrun[0].as_secs_f64() * 1000.0,
            self.max_overrun[1].as_secs_f64() * 1000.0,
            self.illegal.as_ref().map_or("null".into(), |i| format!("\"{}\"", esc(i))),
            turns.join(",")
        )
    }
}

/// Play one game from `start`; `max_turns` caps it (a draw) should the draw rules not.
pub fn play_game(
    start: Position,
    white: &mut dyn Agent,
    white_limits: &Limits,
    black: &mut dyn Agent,
    black_limits: &Limits,
    max_turns: usize,
) -> GameRecord {
    let variant = start.variant().id.clone();
    let start_text = start.to_text();
    let mut game = Game::new(start);
    let mut record = GameRecord {
        variant,
        start: start_text,
        white: white.name(),
        black: black.name(),
        turns: vec![],
        result: String::new(),
        reason: String::new(),
        max_overrun: [Duration::ZERO; 2],
        min_clock_ms: [None; 2],
        illegal: None,
        nodes: [0; 2],
    };
    let mut reason = None;
    // Played on time: the clocks the limits start with run for the whole game.
    let mut clock = white_limits.clock.or(black_limits.clock);
    while game.result().is_none() && record.turns.len() < max_turns {
        let side = game.position().side_to_move();
        let (agent, limits): (&mut dyn Agent, &Limits) = match side {
            Side::White => (white, white_limits),
            Side::Black => (black, black_limits),
        };
        let mut turn_limits = limits.clone();
        turn_limits.seed = limits.seed.wrapping_add(record.turns.len() as u64 * 7919);
        if let Some(c) = clock {
            turn_limits.clock = Some(c);
            turn_limits.time = Some(c.turn_time(side));
        }
        let t = Instant::now();
        let choice = agent.choose_turn(&game, &turn_limits);
        let took = t.elapsed();
        if let Some(c) = clock.as_mut() {
            // A turn that took longer than its clock had left loses the game, unplayed.
            let s = side.index();
            let ms = took.as_millis() as u64;
            if ms > c.left_ms[s] {
                record.min_clock_ms[s] = Some(0);
                reason = Some((Outcome::Win(side.other()), "out of time".to_string()));
                break;
            }
            c.left_ms[s] = c.left_ms[s] - ms + c.inc_ms[s];
            let low = record.min_clock_ms[s].get_or_insert(c.left_ms[s]);
            *low = (*low).min(c.left_ms[s]);
        } else if let Some(limit) = limits.time {
            let o = &mut record.max_overrun[side.index()];
            *o = (*o).max(took.saturating_sub(limit));
        }
        record.nodes[side.index()] += choice.stats.nodes;
        let mut texts = Vec::new();
        for s in &choice.steps {
            let text = game.position().step_text(*s);
            if let Err(e) = game.play(*s) {
                record.illegal = Some(format!("{} played {text}: {e}", agent.name()));
                reason = Some((Outcome::Win(side.other()), "illegal step".to_string()));
                break;
            }
            if !s.is_end() {
                texts.push(text);
            }
        }
        record.turns.push(texts);
        if reason.is_some() {
            break;
        }
        if game.position().side_to_move() == side && game.result().is_none() {
            record.illegal = Some(format!("{} did not finish its turn", agent.name()));
            reason = Some((Outcome::Win(side.other()), "unfinished turn".into()));
            break;
        }
    }
    let (outcome, why) = match (reason, game.result()) {
        (Some(r), _) => r,
        (None, Some((o, r))) => (o, r.describe().to_string()),
        (None, None) => (Outcome::Draw, format!("turn cap ({max_turns})")),
    };
    record.result = match outcome {
        Outcome::Win(Side::White) => "1-0",
        Outcome::Win(Side::Black) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
    .into();
    record.reason = why;
    record
}

/// Elo difference for a score fraction, and the half-width of its 95% interval, from
/// wins, draws and losses: the trinomial standard error, or Wilson's interval when every game
/// went one way (where the standard error would claim a certainty of +- 0).
pub fn elo(wins: u32, draws: u32, losses: u32) -> (f64, f64) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let p = (wins as f64 + draws as f64 / 2.0) / n;
    let to_elo = |x: f64| {
        let x = x.clamp(1e-3, 1.0 - 1e-3);
        -400.0 * (1.0 / x - 1.0).log10()
    };
    let z = 1.96;
    let (lo, hi) = if draws == 0 && (wins == 0 || losses == 0) {
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (centre - half, centre + half)
    } else {
        let var = (wins as f64 * (1.0 - p).powi(2)
            + draws as f64 * (0.5 - p).powi(2)
            + losses as f64 * p.powi(2))
            / n;
        let se = (var / n).sqrt();
        (p - z * se, p + z * se)
    };
    (to_elo(p), (to_elo(hi) - to_elo(lo)) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_symmetric_and_zero_at_even_scores() {
        let (e, ci) = elo(10, 0, 10);
        assert!(e.abs() < 1e-9 && ci > 0.0);
        let (a, _) = elo(30, 10, 10);
        let (b, _) = elo(10, 10, 30);
        assert!((a + b).abs() < 1e-9 && a > 0.0);
        // 75% is about +191 Elo.
        assert!((elo(75, 0, 25).0 - 190.8).abs() < 1.0);
        // A clean sweep still has an honest, wider interval.
        let (e, ci) = elo(100, 0, 0);
        assert!(e > 1000.0 && ci > 100.0, "{e} {ci}");
    }
}
