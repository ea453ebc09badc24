//! An Arena's points and pairings (docs/server.md, "Tournaments"), as lichess plays them:
//! for a fixed time, a player whose game ends waits to be paired again at once.
//!
//! - Points: a win 2, a draw 1, a loss 0. Two wins running put a player *on fire*: while on
//!   fire, a win is worth 4 and a draw 2. Any game not won puts the fire out (that game
//!   still scores double if it was a draw played on fire).
//! - Pairing: the waiting players ranked by points, then rating, then who joined first; each
//!   in turn meets the next one waiting, skipping the opponent it has just played (a
//!   rematch at once only when those two are the only ones waiting and both have waited at
//!   least the rematch delay). The one with fewer Whites so far gets White (ties: the
//!   higher-ranked). Someone left over waits for the next game to end.

use crate::{Entrant, Game};

/// A finished game, as the Arena counts it for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    Win,
    Draw,
    Loss,
}

/// A player's Arena score: the points each game scored, in order, their sum, and whether
/// the player is on fire now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub sheet: Vec<u32>,
    pub points: u32,
    pub on_fire: bool,
}

/// The score of a player whose finished games, in the order they ended, are `results`.
pub fn score(results: &[Played]) -> Score {
    let mut s = Score::default();
    let mut wins_running = 0;
    for &r in results {
        let base = match r {
            Played::Win => 2,
            Played::Draw => 1,
            Played::Loss => 0,
        };
        let got = if s.on_fire { base * 2 } else { base };
        if r == Played::Win {
            wins_running += 1;
        } else {
            wins_running = 0;
        }
        s.on_fire = wins_running >= 2;
        s.sheet.push(got);
        s.points += got;
    }
    s
}

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub entrant: Entrant,
    pub points: u32,
    pub rating: i32,
    /// The opponent of its last game, if it has played.
    pub last_opponent: Option<Entrant>,
    /// Whites minus Blacks so far.
    pub colour_balance: i32,
    /// How long it has waited, in milliseconds.
    pub waited_ms: u64,
}

/// Games for the players in `waiting`, best-ranked pairs first; whoever is not in one keeps
/// waiting. Two players who have just met meet again at once only if they are the only two
/// waiting and both have waited `rematch_after_ms`.
pub fn pair_waiting(waiting: &[Waiting], rematch_after_ms: u64) -> Vec<Game> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.entrant.cmp(&b.entrant))
    });
    let just_met = |a: &Waiting, b: &Waiting| {
        a.last_opponent == Some(b.entrant) || b.last_opponent == Some(a.entrant)
    };
    let mut used = vec![false; order.len()];
    let mut games = Vec::new();
    for i in 0..order.len() {
        if used[i] {
            continue;
        }
        let Some(j) = (i + 1..order.len()).find(|&j| !used[j] && !just_met(order[i], order[j]))
        else {
            continue;
        };
        used[i] = true;
        used[j] = true;
        let (a, b) = (order[i], order[j]);
        games.push(if b.colour_balance < a.colour_balance {
            Game::new(b.entrant, a.entrant)
        } else {
            Game::new(a.entrant, b.entrant)
        });
    }
    let left: Vec<&Waiting> = (0..order.len())
        .filter(|&i| !used[i])
        .map(|i| order[i])
        .collect();
    if let [a, b] = left[..] {
        if waiting.len() == 2 && a.waited_ms >= rematch_after_ms && b.waited_ms >= rematch_after_ms
        {
            games.push(if b.colour_balance < a.colour_balance {
                Game::new(b.entrant, a.entrant)
            } else {
                Game::new(a.entrant, b.entrant)
            });
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use Played::*;

    #[test]
    fn two_wins_running_set_a_player_on_fire() {
        let s = score(&[Win, Win, Win, Draw, Win]);
        assert_eq!(s.sheet, vec![2, 2, 4, 2, 2]);
        assert_eq!(s.points, 12);
        assert!(!s.on_fire);
        let s = score(&[Win, Loss, Win, Win, Win, Win]);
        assert_eq!(s.sheet, vec![2, 0, 2, 2, 4, 4]);
        assert_eq!((s.points, s.on_fire), (14, true));
        let s = score(&[Win, Win, Loss, Draw]);
        assert_eq!(s.sheet, vec![2, 2, 0, 1]);
        assert_eq!(score(&[]), Score::default());
    }

    fn w(entrant: Entrant, points: u32, last: Option<Entrant>, balance: i32) -> Waiting {
        Waiting {
            entrant,
            points,
            rating: 1500,
            last_opponent: last,
            colour_balance: balance,
            waited_ms: 0,
        }
    }

    #[test]
    fn the_waiting_are_paired_by_score_never_with_the_last_opponent() {
        // 0 and 1 lead and have just met: each meets the next instead.
        let waiting = [
            w(0, 8, Some(1), 1),
            w(1, 7, Some(0), -1),
            w(2, 4, Some(3), 0),
            w(3, 2, Some(2), 0),
            w(4, 0, None, 0),
        ];
        let games = pair_waiting(&waiting, 10_000);
        let pairs: Vec<(Entrant, Entrant)> = games.iter().map(|g| (g.white, g.black)).collect();
        // 0 (balance +1) meets 2 (0): 2 has White. 1 (-1) meets 3: 1 has White. 4 waits.
        assert_eq!(pairs, vec![(2, 0), (1, 3)]);
    }

    #[test]
    fn two_alone_meet_again_only_after_the_delay() {
        let mut waiting = [w(0, 2, Some(1), 1), w(1, 0, Some(0), -1)];
        assert!(pair_waiting(&waiting, 10_000).is_empty());
        waiting[0].waited_ms = 10_000;
        waiting[1].waited_ms = 12_000;
        let games = pair_waiting(&waiting, 10_000);
        assert_eq!(games, vec![Game::new(1, 0)]);
    }
}
