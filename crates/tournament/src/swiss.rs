//! Swiss pairings (docs/server.md, "Tournaments"): the next round of a Swiss from the rounds
//! before it.
//!
//! - Nobody meets the same opponent twice.
//! - With an odd number of players, the bye goes to the lowest-ranked player who has not had
//!   one (so nobody has two while another has none), and is worth what
//!   [`crate::standings::points`] is told.
//! - Players are ranked by points, then rating, then who joined first. They are paired
//!   score group by score group, top half against bottom half (the Dutch system's shape:
//!   in the first round of eight, 1-5, 2-6, 3-7, 4-8); a player who cannot be paired in the
//!   group floats down to the next. A search with backtracking finds a pairing whenever one
//!   exists, trying the preferred opponents first.
//! - Colours: nobody has the same colour three rounds running, nor two more of one colour
//!   than the other (relaxed only when no pairing keeps both). In a pair, each gets the
//!   colour they are owed (fewer of it so far, else the other of their last); when both are
//!   owed the same, the one owed it more strongly gets it, else the higher-ranked. In the
//!   first round the higher-ranked has White on odd boards and Black on even ones.
//! - Withdrawn players are not paired.

use crate::standings::points;
use crate::{Colour, Entrant, Game, HalfPoints, Round};

/// An entrant as pairing sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub rating: i32,
    /// False once the player has withdrawn.
    pub active: bool,
}

/// Why no round could be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// Fewer than two players left.
    TooFewPlayers,
    /// Every pairing of the players left would repeat a game: more rounds than the players
    /// can play without meeting twice.
    NoPairing { players: usize },
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::TooFewPlayers => write!(f, "fewer than two players are left to pair"),
            PairingError::NoPairing { players } => write!(
                f,
                "no pairing of the {players} players left avoids a repeated game: the tournament has more rounds than they can play"
            ),
        }
    }
}

impl std::error::Error for PairingError {}

/// Nodes the pairing search may visit per attempt: far more than any pairing of a few
/// hundred players needs when one exists, and a bound when none does.
const SEARCH_BUDGET: usize = 1_000_000;

/// The colours each entrant had, round by round (games only).
fn colour_histories(n: usize, rounds: &[Round]) -> Vec<Vec<Colour>> {
    let mut h = vec![Vec::new(); n];
    for r in rounds {
        for g in &r.games {
            h[g.white].push(Colour::White);
            h[g.black].push(Colour::Black);
        }
    }
    h
}

/// Whether `c` is allowed next after `history`: not three of a colour running, and not two
/// more of one colour than the other.
fn allowed(history: &[Colour], c: Colour) -> bool {
    let whites = history.iter().filter(|&&x| x == Colour::White).count() as i32;
    let diff = whites - (history.len() as i32 - whites) + if c == Colour::White { 1 } else { -1 };
    let three = history.len() >= 2 && history[history.len() - 2..].iter().all(|&x| x == c);
    diff.abs() <= 2 && !three
}

/// The colour `history` is owed and how strongly (0: none owed).
fn owed(history: &[Colour]) -> (Option<Colour>, i32) {
    let whites = history.iter().filter(|&&x| x == Colour::White).count() as i32;
    let diff = whites - (history.len() as i32 - whites);
    match (diff, history.last()) {
        (d, _) if d < 0 => (Some(Colour::White), 2 * -d),
        (d, _) if d > 0 => (Some(Colour::Black), 2 * d),
        (_, Some(&last)) => (Some(last.other()), 1),
        (_, None) => (None, 0),
    }
}

/// White and Black for `a` (the higher-ranked) and `b` on board `board` (0 first).
fn colours(a: Entrant, b: Entrant, h: &[Vec<Colour>], board: usize) -> (Entrant, Entrant) {
    let a_white = allowed(&h[a], Colour::White) && allowed(&h[b], Colour::Black);
    let b_white = allowed(&h[b], Colour::White) && allowed(&h[a], Colour::Black);
    match (a_white, b_white) {
        (true, false) => return (a, b),
        (false, true) => return (b, a),
        _ => {}
    }
    let ((wa, sa), (wb, sb)) = (owed(&h[a]), owed(&h[b]));
    let a_gets = match (wa, wb) {
        (None, None) => {
            if board.is_multiple_of(2) {
                Colour::White
            } else {
                Colour::Black
            }
        }
        (Some(c), None) => c,
        (None, Some(c)) => c.other(),
        (Some(x), Some(y)) if x != y => x,
        (Some(x), Some(_)) => {
            if sb > sa {
                x.other()
            } else {
                x
            }
        }
    };
    if a_gets == Colour::White {
        (a, b)
    } else {
        (b, a)
    }
}

struct Search<'a> {
    /// The players to pair, best-ranked first.
    order: &'a [Entrant],
    points: &'a [HalfPoints],
    met: &'a [Vec<bool>],
    history: &'a [Vec<Colour>],
    /// Hold the colour rules (false: any colours).
    strict: bool,
    used: Vec<bool>,
    pairs: Vec<(Entrant, Entrant)>,
    budget: usize,
}

impl Search<'_> {
    fn may_meet(&self, a: Entrant, b: Entrant) -> bool {
        if self.met[a][b] {
            return false;
        }
        if !self.strict {
            return true;
        }
        let h = self.history;
        (allowed(&h[a], Colour::White) && allowed(&h[b], Colour::Black))
            || (allowed(&h[b], Colour::White) && allowed(&h[a], Colour::Black))
    }

    /// Opponents for the best-ranked unpaired player at `order[i]`, preferred first: its
    /// score group's bottom half from its top, then the rest of its group from the bottom,
    /// then lower groups in rank order.
    fn candidates(&self, i: usize) -> Vec<usize> {
        let p = self.order[i];
        let rest: Vec<usize> = (i + 1..self.order.len())
            .filter(|&j| !self.used[j])
            .collect();
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&j| self.points[self.order[j]] == self.points[p])
            .collect();
        // p is the group's first; its ideal opponent is the first of the bottom half.
        let half = group.len().div_ceil(2);
        let mut out: Vec<usize> = group[half.saturating_sub(1).min(group.len())..].to_vec();
        out.extend(
            group[..half.saturating_sub(1).min(group.len())]
                .iter()
                .rev(),
        );
        out.extend(rest.iter().filter(|j| !group.contains(j)));
        out
    }

    fn solve(&mut self) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let Some(i) = (0..self.order.len()).find(|&i| !self.used[i]) else {
            return true;
        };
        self.used[i] = true;
        for j in self.candidates(i) {
            let (a, b) = (self.order[i], self.order[j]);
            if !self.may_meet(a, b) {
                continue;
            }
            self.used[j] = true;
            self.pairs.push((a, b));
            if self.solve() {
                return true;
            }
            self.pairs.pop();
            self.used[j] = false;
        }
        self.used[i] = false;
        false
    }
}

/// The next round for `entries` (by entrant) after `rounds`, a bye worth `bye_points`.
/// Boards are in rank order: the best-ranked pair first.
pub fn pair(
    entries: &[Entry],
    rounds: &[Round],
    bye_points: HalfPoints,
) -> Result<Round, PairingError> {
    let n = entries.len();
    let pts = points(n, rounds, bye_points);
    let mut order: Vec<Entrant> = (0..n).filter(|&e| entries[e].active).collect();
    if order.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    order.sort_by(|&a, &b| {
        pts[b]
            .cmp(&pts[a])
            .then(entries[b].rating.cmp(&entries[a].rating))
            .then(a.cmp(&b))
    });
    let mut met = vec![vec![false; n]; n];
    let mut byes = vec![0usize; n];
    for r in rounds {
        for g in &r.games {
            met[g.white][g.black] = true;
            met[g.black][g.white] = true;
        }
        if let Some(b) = r.bye {
            byes[b] += 1;
        }
    }
    let history = colour_histories(n, rounds);
    // The bye's candidates, lowest-ranked first, those with the fewest byes before others.
    let bye_candidates: Vec<Option<Entrant>> = if !order.len().is_multiple_of(2) {
        let fewest = order.iter().map(|&e| byes[e]).min().unwrap_or(0);
        let mut c: Vec<Option<Entrant>> = order
            .iter()
            .rev()
            .filter(|&&e| byes[e] == fewest)
            .map(|&e| Some(e))
            .collect();
        c.extend(
            order
                .iter()
                .rev()
                .filter(|&&e| byes[e] != fewest)
                .map(|&e| Some(e)),
        );
        c
    } else {
        vec![None]
    };
    for strict in [true, false] {
        for &bye in &bye_candidates {
            let playing: Vec<Entrant> = order.iter().copied().filter(|&e| Some(e) != bye).collect();
            let mut search = Search {
                order: &playing,
                points: &pts,
                met: &met,
                history: &history,
                strict,
                used: vec![false; playing.len()],
                pairs: Vec::new(),
                budget: SEARCH_BUDGET,
            };
            if search.solve() {
                let games = search
                    .pairs
                    .iter()
                    .enumerate()
                    .map(|(board, &(a, b))| {
                        let (white, black) = colours(a, b, &history, board);
                        Game::new(white, black)
                    })
                    .collect();
                return Ok(Round { games, bye });
            }
        }
    }
    Err(PairingError::NoPairing {
        players: order.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;

    fn entries(ratings: &[i32]) -> Vec<Entry> {
        ratings
            .iter()
            .map(|&rating| Entry {
                rating,
                active: true,
            })
            .collect()
    }

    /// A small deterministic generator for results.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    fn finish(round: &mut Round, rng: &mut Lcg) {
        for g in &mut round.games {
            g.outcome = Some(match rng.next() % 3 {
                0 => Outcome::WhiteWins,
                1 => Outcome::BlackWins,
                _ => Outcome::Draw,
            });
        }
    }

    /// The rules every round must keep: each active player once (a game or the bye), no
    /// repeated game, the bye to someone with the fewest byes, colours within the limits.
    fn check_round(entries: &[Entry], before: &[Round], r: &Round) {
        let n = entries.len();
        let mut seen = vec![0; n];
        for g in &r.games {
            seen[g.white] += 1;
            seen[g.black] += 1;
            for old in before {
                assert!(
                    old.games
                        .iter()
                        .all(|o| !(o.has(g.white) && o.has(g.black))),
                    "{} and {} meet again",
                    g.white,
                    g.black
                );
            }
        }
        if let Some(b) = r.bye {
            seen[b] += 1;
            let byes = |e: Entrant| before.iter().filter(|o| o.bye == Some(e)).count();
            let fewest = (0..n)
                .filter(|&e| entries[e].active)
                .map(byes)
                .min()
                .unwrap();
            assert_eq!(byes(b), fewest, "the bye to {b}, who had one already");
        }
        for e in 0..n {
            assert_eq!(
                seen[e],
                usize::from(entries[e].active),
                "entrant {e} in round"
            );
        }
        let mut all = before.to_vec();
        all.push(r.clone());
        for (e, h) in colour_histories(n, &all).iter().enumerate() {
            let w = h.iter().filter(|&&c| c == Colour::White).count() as i32;
            assert!((2 * w - h.len() as i32).abs() <= 2, "{e}: colours {h:?}");
            assert!(
                h.windows(3).all(|t| !(t[0] == t[1] && t[1] == t[2])),
                "{e}: colours {h:?}"
            );
        }
    }

    #[test]
    fn the_first_round_pairs_top_half_against_bottom_half() {
        let e = entries(&[2000, 1900, 1800, 1700, 1600, 1500, 1400, 1300]);
        let r = pair(&e, &[], 2).unwrap();
        let pairs: Vec<(Entrant, Entrant)> = r.games.iter().map(|g| (g.white, g.black)).collect();
        // Board 1: the top seed White; then alternating.
        assert_eq!(pairs, vec![(0, 4), (5, 1), (2, 6), (7, 3)]);
        assert_eq!(r.bye, None);
    }

    #[test]
    fn five_players_three_rounds_one_bye_each_round_never_twice() {
        let e = entries(&[1800, 1700, 1600, 1500, 1400]);
        let mut rounds: Vec<Round> = vec![];
        let mut rng = Lcg(5);
        for _ in 0..3 {
            let mut r = pair(&e, &rounds, 2).unwrap();
            check_round(&e, &rounds, &r);
            assert!(r.bye.is_some());
            finish(&mut r, &mut rng);
            rounds.push(r);
        }
        // The first bye goes to the lowest-rated.
        assert_eq!(rounds[0].bye, Some(4));
        let byes: Vec<Entrant> = rounds.iter().filter_map(|r| r.bye).collect();
        assert_eq!(byes.len(), 3);
        assert!(byes
            .iter()
            .all(|b| byes.iter().filter(|x| *x == b).count() == 1));
    }

    #[test]
    fn eight_players_can_play_seven_rounds_without_meeting_twice() {
        let e = entries(&[1500; 8]);
        let mut rounds: Vec<Round> = vec![];
        let mut rng = Lcg(8);
        for _ in 0..7 {
            let mut r = pair(&e, &rounds, 2).unwrap();
            check_round(&e, &rounds, &r);
            finish(&mut r, &mut rng);
            rounds.push(r);
        }
        assert_eq!(
            pair(&e, &rounds, 2),
            Err(PairingError::NoPairing { players: 8 })
        );
    }

    #[test]
    fn many_rounds_of_many_players_keep_every_rule() {
        for seed in 1..20 {
            let mut rng = Lcg(seed);
            let n = 9 + (rng.next() % 24) as usize;
            let e: Vec<Entry> = (0..n)
                .map(|_| Entry {
                    rating: 1200 + (rng.next() % 1000) as i32,
                    active: true,
                })
                .collect();
            let mut rounds: Vec<Round> = vec![];
            for _ in 0..7 {
                let mut r = pair(&e, &rounds, 2).unwrap();
                check_round(&e, &rounds, &r);
                finish(&mut r, &mut rng);
                rounds.push(r);
            }
        }
    }

    #[test]
    fn leaders_meet_each_other() {
        // After round 1 of four, the two winners meet, and the two losers.
        let e = entries(&[2000, 1900, 1800, 1700]);
        let mut r1 = pair(&e, &[], 2).unwrap();
        for g in &mut r1.games {
            g.outcome = Some(if g.white < g.black {
                Outcome::WhiteWins
            } else {
                Outcome::BlackWins
            });
        }
        let r2 = pair(&e, &[r1], 2).unwrap();
        let met = |a, b| r2.games.iter().any(|g| g.has(a) && g.has(b));
        assert!(met(0, 1) && met(2, 3), "{r2:?}");
    }

    #[test]
    fn withdrawn_players_are_not_paired() {
        let mut e = entries(&[1800, 1700, 1600, 1500]);
        e[1].active = false;
        let r = pair(&e, &[], 2).unwrap();
        check_round(&e, &[], &r);
        assert_eq!(r.bye, Some(3));
        e[0].active = false;
        e[2].active = false;
        assert_eq!(pair(&e, &[], 2), Err(PairingError::TooFewPlayers));
    }
}
