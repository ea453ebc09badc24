//! The statistics of a study, computed from its games alone (so a merged study and the same
//! study run whole have equal summaries).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{GameResult, Settings};

/// 1.96: the two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion `p` of `n` with its 95% Wilson score interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub n: usize,
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Rate {
    /// Wilson's score interval for `p` observed over `n` trials: unlike the normal
    /// approximation it stays inside [0, 1] and is honest at 0% and 100%.
    pub fn wilson(p: f64, n: usize) -> Rate {
        if n == 0 {
            return Rate {
                n,
                p: 0.0,
                lo: 0.0,
                hi: 1.0,
            };
        }
        let (nf, z) = (n as f64, Z95);
        let denom = 1.0 + z * z / nf;
        let centre = (p + z * z / (2.0 * nf)) / denom;
        let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
        Rate {
            n,
            p,
            lo: (centre - half).max(0.0),
            hi: (centre + half).min(1.0),
        }
    }

    pub fn of(k: usize, n: usize) -> Rate {
        Rate::wilson(if n == 0 { 0.0 } else { k as f64 / n as f64 }, n)
    }
}

/// The Elo difference that gives an expected score `p` (logistic, 400 points per factor 10),
/// clamped at +-1200 for scores of 0 and 1.
pub fn elo_of(p: f64) -> f64 {
    let p = p.clamp(0.000_999, 0.999_001);
    (-400.0 * (1.0 / p - 1.0).log10()).clamp(-1200.0, 1200.0)
}

/// A distribution of whole numbers: summary figures and the count of each value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dist {
    pub n: usize,
    pub mean: f64,
    pub min: u32,
    pub p10: u32,
    pub median: u32,
    pub p90: u32,
    pub max: u32,
    pub counts: BTreeMap<u32, u32>,
}

impl Dist {
    pub fn of(values: &[u32]) -> Dist {
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len();
        // Nearest-rank percentile.
        let pct = |q: f64| -> u32 {
            if n == 0 {
                0
            } else {
                v[((q * n as f64).ceil() as usize).clamp(1, n) - 1]
            }
        };
        let mut counts = BTreeMap::new();
        for &x in &v {
            *counts.entry(x).or_insert(0) += 1;
        }
        Dist {
            n,
            mean: if n == 0 {
                0.0
            } else {
                v.iter().map(|&x| x as f64).sum::<f64>() / n as f64
            },
            min: v.first().copied().unwrap_or(0),
            p10: pct(0.1),
            median: pct(0.5),
            p90: pct(0.9),
            max: v.last().copied().unwrap_or(0),
            counts,
        }
    }
}

/// One piece kind over the study's engine turns, White and Black.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindStat {
    pub letter: String,
    pub name: String,
    pub moves: [u64; 2],
    pub captures: [u64; 2],
    pub lost: [u64; 2],
    /// Units of the kind lost in the drawn games (both sides): with the number at the start,
    /// what a drawn game ends with.
    pub lost_in_draws: u64,
}

/// How games ended, by result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Termination {
    pub reason: String,
    pub white: u32,
    pub black: u32,
    pub draw: u32,
}

impl Termination {
    pub fn total(&self) -> u32 {
        self.white + self.black + self.draw
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub games: usize,
    pub white_wins: usize,
    pub black_wins: usize,
    pub draws: usize,
    pub white_rate: Rate,
    pub black_rate: Rate,
    pub draw_rate: Rate,
    /// White's share of the decisive games.
    pub white_of_decisive: Rate,
    /// "white" or "black": the side that moves first in the start position.
    pub first_mover: String,
    /// The first mover's score (a win 1, a draw 1/2) per game, Wilson interval over the games.
    pub first_score: Rate,
    /// The Elo difference equivalent to `first_score`, and to its interval's ends.
    pub first_elo: f64,
    pub first_elo_lo: f64,
    pub first_elo_hi: f64,
    /// Turns per game (the random opening included).
    pub length: Dist,
    /// Turns per decisive game, and per drawn game.
    pub decisive_length: Dist,
    pub drawn_length: Dist,
    /// Each game's longest run of consecutive turns without a capture.
    pub longest_quiet: Dist,
    /// Every maximal run of turns without a capture, over all games.
    pub quiet_runs: Dist,
    /// Turns without a capture, of all turns.
    pub quiet_share: f64,
    /// Captures per game, per decisive game and per drawn game (a drawn game with many
    /// captures is a bare ending; with few, a locked position).
    pub captures: Dist,
    pub decisive_captures: Dist,
    pub drawn_captures: Dist,
    /// Unit moves per engine turn (the random opening excluded).
    pub steps_per_turn: f64,
    pub kinds: Vec<KindStat>,
    /// Most frequent first.
    pub terminations: Vec<Termination>,
    /// Search nodes per engine turn.
    pub nodes_per_turn: f64,
    /// Games lost by an illegal step or an unfinished turn (should be 0).
    pub forfeits: usize,
}

impl Summary {
    pub fn of(settings: &Settings, games: &[GameResult]) -> Summary {
        let n = games.len();
        let count = |r: &str| games.iter().filter(|g| g.result == r).count();
        let (w, b, d) = (count("1-0"), count("0-1"), count("1/2-1/2"));
        let white_first = settings.first_mover != "black";
        let first_wins = if white_first { w } else { b };
        let first_p = if n == 0 {
            0.0
        } else {
            (first_wins as f64 + d as f64 / 2.0) / n as f64
        };
        let first_score = Rate::wilson(first_p, n);
        let lengths: Vec<u32> = games.iter().map(|g| g.turns.len() as u32).collect();
        let pick = |decisive: bool| -> Vec<u32> {
            games
                .iter()
                .filter(|g| (g.result != "1/2-1/2") == decisive)
                .map(|g| g.turns.len() as u32)
                .collect()
        };
        let mut longest = Vec::with_capacity(n);
        let mut runs = Vec::new();
        let (mut quiet_turns, mut all_turns) = (0u64, 0u64);
        for g in games {
            let mut run = 0u32;
            let mut best = 0u32;
            for &c in &g.captures {
                all_turns += 1;
                if c == 0 {
                    quiet_turns += 1;
                    run += 1;
                    best = best.max(run);
                } else {
                    if run > 0 {
                        runs.push(run);
                    }
                    run = 0;
                }
            }
            if run > 0 {
                runs.push(run);
            }
            longest.push(best);
        }
        let captured = |decisive: Option<bool>| -> Vec<u32> {
            games
                .iter()
                .filter(|g| decisive.is_none_or(|d| (g.result != "1/2-1/2") == d))
                .map(|g| g.captures.iter().sum())
                .collect()
        };
        let mut kinds: Vec<KindStat> = settings
            .kinds
            .iter()
            .map(|k| {
                let (letter, name) = k.split_once(' ').unwrap_or((k, ""));
                KindStat {
                    letter: letter.into(),
                    name: name.into(),
                    moves: [0; 2],
                    captures: [0; 2],
                    lost: [0; 2],
                    lost_in_draws: 0,
                }
            })
            .collect();
        for g in games {
            for (k, stat) in kinds.iter_mut().enumerate() {
                for s in 0..2 {
                    let at = |v: &Vec<[u32; 2]>| v.get(k).map_or(0, |x| x[s]) as u64;
                    stat.moves[s] += at(&g.kind_moves);
                    stat.captures[s] += at(&g.kind_captures);
                    stat.lost[s] += at(&g.kind_lost);
                    if g.result == "1/2-1/2" {
                        stat.lost_in_draws += at(&g.kind_lost);
                    }
                }
            }
        }
        let engine_turns: u64 = games
            .iter()
            .map(|g| g.turns.len().saturating_sub(settings.opening_turns) as u64)
            .sum();
        let unit_moves: u64 = games
            .iter()
            .map(|g| {
                g.turns
                    .iter()
                    .skip(settings.opening_turns)
                    .map(|t| t.len() as u64)
                    .sum::<u64>()
            })
            .sum();
        let nodes: u64 = games.iter().map(|g| g.nodes[0] + g.nodes[1]).sum();
        let mut ends: BTreeMap<&str, Termination> = BTreeMap::new();
        for g in games {
            let t = ends.entry(&g.reason).or_insert_with(|| Termination {
                reason: g.reason.clone(),
                white: 0,
                black: 0,
                draw: 0,
            });
            match g.result.as_str() {
                "1-0" => t.white += 1,
                "0-1" => t.black += 1,
                _ => t.draw += 1,
            }
        }
        let mut terminations: Vec<Termination> = ends.into_values().collect();
        terminations.sort_by(|a, b| b.total().cmp(&a.total()).then(a.reason.cmp(&b.reason)));
        let per = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        Summary {
            games: n,
            white_wins: w,
            black_wins: b,
            draws: d,
            white_rate: Rate::of(w, n),
            black_rate: Rate::of(b, n),
            draw_rate: Rate::of(d, n),
            white_of_decisive: Rate::of(w, w + b),
            first_mover: if white_first { "white" } else { "black" }.into(),
            first_score,
            first_elo: elo_of(first_score.p),
            first_elo_lo: elo_of(first_score.lo),
            first_elo_hi: elo_of(first_score.hi),
            length: Dist::of(&lengths),
            decisive_length: Dist::of(&pick(true)),
            drawn_length: Dist::of(&pick(false)),
            longest_quiet: Dist::of(&longest),
            quiet_runs: Dist::of(&runs),
            quiet_share: per(quiet_turns, all_turns),
            captures: Dist::of(&captured(None)),
            decisive_captures: Dist::of(&captured(Some(true))),
            drawn_captures: Dist::of(&captured(Some(false))),
            steps_per_turn: per(unit_moves, engine_turns),
            kinds,
            terminations,
            nodes_per_turn: per(nodes, engine_turns),
            forfeits: games.iter().filter(|g| g.illegal.is_some()).count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10: the textbook interval is [0.490, 0.943].
        let r = Rate::of(8, 10);
        assert!(
            (r.lo - 0.4902).abs() < 1e-3 && (r.hi - 0.9433).abs() < 1e-3,
            "{r:?}"
        );
        // 0 of 20 is not a certainty: the upper end is about 16%.
        let r = Rate::of(0, 20);
        assert_eq!(r.lo, 0.0);
        assert!((r.hi - 0.1611).abs() < 1e-3, "{r:?}");
        let r = Rate::of(20, 20);
        assert!(r.hi == 1.0 && (r.lo - 0.8389).abs() < 1e-3);
    }

    #[test]
    fn elo_of_scores() {
        assert!(elo_of(0.5).abs() < 1e-9);
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
        assert!((elo_of(0.25) + elo_of(0.75)).abs() < 1e-9);
        assert_eq!(elo_of(1.0), 1200.0);
    }

    #[test]
    fn distributions_use_nearest_rank() {
        let d = Dist::of(&[5, 1, 3, 2, 4, 10, 7, 8, 9, 6]);
        assert_eq!((d.min, d.p10, d.median, d.p90, d.max), (1, 1, 5, 9, 10));
        assert!((d.mean - 5.5).abs() < 1e-12);
        assert_eq!(d.counts.len(), 10);
        let e = Dist::of(&[]);
        assert_eq!((e.n, e.max), (0, 0));
    }

    fn game(index: usize, result: &str, captures: &[u32]) -> GameResult {
        GameResult {
            index,
            seed: 0,
            result: result.into(),
            reason: if result == "1/2-1/2" {
                "repetition"
            } else {
                "victory"
            }
            .into(),
            turns: captures.iter().map(|_| vec!["a1-a2".to_string()]).collect(),
            captures: captures.to_vec(),
            kind_moves: vec![[2, 1]],
            kind_captures: vec![[1, 0]],
            kind_lost: vec![[0, 1]],
            nodes: [10, 10],
            illegal: None,
            ms: 1.0,
        }
    }

    #[test]
    fn summary_counts_results_runs_and_kinds() {
        let v = cohort_rules::builtin("micro-chieftain").unwrap();
        let s = Settings::new(&v, 3, None, Some(1), None, 1, 0, 100);
        let games = vec![
            game(0, "1-0", &[0, 0, 1, 0, 0, 0, 1]),
            game(1, "1/2-1/2", &[0, 0, 0, 0]),
            game(2, "0-1", &[1, 0, 2]),
        ];
        let sum = Summary::of(&s, &games);
        assert_eq!((sum.white_wins, sum.black_wins, sum.draws), (1, 1, 1));
        assert!((sum.first_score.p - 0.5).abs() < 1e-12 && sum.first_elo.abs() < 1e-9);
        assert_eq!(
            sum.longest_quiet.counts,
            BTreeMap::from([(1, 1), (3, 1), (4, 1)])
        );
        // Runs: 2, 3 | 4 | 1.
        assert_eq!(
            sum.quiet_runs.counts,
            BTreeMap::from([(1, 1), (2, 1), (3, 1), (4, 1)])
        );
        assert!((sum.quiet_share - 10.0 / 14.0).abs() < 1e-12);
        assert_eq!(
            sum.captures.counts,
            BTreeMap::from([(0, 1), (2, 1), (3, 1)])
        );
        assert_eq!(sum.kinds[0].moves, [6, 3]);
        assert_eq!(sum.kinds[0].lost_in_draws, 1);
        assert_eq!(sum.terminations[0].reason, "victory");
        assert_eq!(sum.terminations[0].total(), 2);
        assert!((sum.steps_per_turn - 1.0).abs() < 1e-12);
    }
}
