//! A Swiss's standings and crosstable (docs/server.md, "Tournaments").
//!
//! - Points: a win 1, a draw ½, a loss 0; a bye is worth `bye_points` (a whole point by
//!   default: the player was ready to play). A game still being played counts nothing yet.
//! - Buchholz: the sum of the points of the opponents met over the board (byes add
//!   nothing), so a score made against stronger opposition ranks higher.
//! - Sonneborn-Berger: the points of every opponent beaten, plus half the points of every
//!   opponent drawn.
//! - Order: points, then Buchholz, then Sonneborn-Berger, then rating, then who joined
//!   first. Players level on points and both tie-breaks share a rank.

use crate::{Colour, Entrant, HalfPoints, Round};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub entrant: Entrant,
    /// 1 for the first; players level on points and both tie-breaks share a rank.
    pub rank: usize,
    pub points: HalfPoints,
    /// In points (halves and quarters are exact in an f64).
    pub buchholz: f64,
    pub sonneborn_berger: f64,
}

/// What each entrant has scored in `rounds`, in half points, a bye worth `bye_points`.
pub fn points(entrants: usize, rounds: &[Round], bye_points: HalfPoints) -> Vec<HalfPoints> {
    let mut pts = vec![0; entrants];
    for r in rounds {
        for g in &r.games {
            for e in [g.white, g.black] {
                pts[e] += g.points_of(e).unwrap_or(0);
            }
        }
        if let Some(b) = r.bye {
            pts[b] += bye_points;
        }
    }
    pts
}

/// The standings of `entrants` players (their ratings in `ratings`, by entrant) after
/// `rounds`, best first.
pub fn standings(ratings: &[i32], rounds: &[Round], bye_points: HalfPoints) -> Vec<Standing> {
    let n = ratings.len();
    let pts = points(n, rounds, bye_points);
    let mut lines: Vec<Standing> = (0..n)
        .map(|e| {
            let (mut buchholz, mut sb) = (0.0, 0.0);
            for r in rounds {
                let Some(g) = r.game_of(e) else { continue };
                let (opp, _) = g.seat_of(e).expect("the game has e");
                let Some(scored) = g.points_of(e) else {
                    continue;
                };
                let opp_points = pts[opp] as f64 / 2.0;
                buchholz += opp_points;
                sb += opp_points * scored as f64 / 2.0;
            }
            Standing {
                entrant: e,
                rank: 0,
                points: pts[e],
                buchholz,
                sonneborn_berger: sb,
            }
        })
        .collect();
    let level = |a: &Standing, b: &Standing| {
        a.points == b.points && a.buchholz == b.buchholz && a.sonneborn_berger == b.sonneborn_berger
    };
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.buchholz.total_cmp(&a.buchholz))
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then(ratings[b.entrant].cmp(&ratings[a.entrant]))
            .then(a.entrant.cmp(&b.entrant))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && level(&lines[i - 1], &lines[i]) {
            lines[i - 1].rank
        } else {
            i + 1
        };
    }
    lines
}

/// One cell of the crosstable: what an entrant did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A game: the opponent, the colour, and the points scored (None while it is played).
    Game {
        opponent: Entrant,
        colour: Colour,
        points: Option<HalfPoints>,
    },
    /// The round's bye.
    Bye,
    /// Not in the round (withdrawn, or joined later).
    Absent,
}

/// Each entrant's round by round results, by entrant, then by round.
pub fn crosstable(entrants: usize, rounds: &[Round]) -> Vec<Vec<Cell>> {
    (0..entrants)
        .map(|e| {
            rounds
                .iter()
                .map(|r| match r.game_of(e) {
                    Some(g) => {
                        let (opponent, colour) = g.seat_of(e).expect("the game has e");
                        Cell::Game {
                            opponent,
                            colour,
                            points: g.points_of(e),
                        }
                    }
                    None if r.bye == Some(e) => Cell::Bye,
                    None => Cell::Absent,
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Outcome};

    fn game(white: Entrant, black: Entrant, outcome: Outcome) -> Game {
        Game {
            white,
            black,
            outcome: Some(outcome),
        }
    }

    /// Five players, three rounds, worked by hand (White first):
    /// round 1: 0-1 1-0, 2-3 ½-½, bye 4; round 2: 4-0 0-1, 1-2 1-0, bye 3;
    /// round 3: 0-3 1-0, 2-4 0-1, bye 1.
    /// Points: 0: 1+1+1 = 3; 1: 0+1+1(bye) = 2; 2: ½+0+0 = ½; 3: ½+1(bye)+0 = 1½;
    /// 4: 1(bye)+0+1 = 2.
    fn five() -> Vec<Round> {
        vec![
            Round {
                games: vec![game(0, 1, Outcome::WhiteWins), game(2, 3, Outcome::Draw)],
                bye: Some(4),
            },
            Round {
                games: vec![
                    game(4, 0, Outcome::BlackWins),
                    game(1, 2, Outcome::WhiteWins),
                ],
                bye: Some(3),
            },
            Round {
                games: vec![
                    game(0, 3, Outcome::WhiteWins),
                    game(2, 4, Outcome::BlackWins),
                ],
                bye: Some(1),
            },
        ]
    }

    #[test]
    fn points_tie_breaks_and_ranks_as_worked_by_hand() {
        let rounds = five();
        let pts = points(5, &rounds, 2);
        assert_eq!(pts, vec![6, 4, 1, 3, 4]);
        let s = standings(&[1500; 5], &rounds, 2);
        let by = |e: Entrant| s.iter().find(|l| l.entrant == e).unwrap().clone();
        // 0 met 1 (2 points), 4 (2), 3 (1½): Buchholz 5.5; beat all three: SB 5.5.
        assert_eq!((by(0).buchholz, by(0).sonneborn_berger), (5.5, 5.5));
        // 1 met 0 (3) and 2 (½): Buchholz 3.5; beat 2: SB 0.5.
        assert_eq!((by(1).buchholz, by(1).sonneborn_berger), (3.5, 0.5));
        // 4 met 0 (3) and 2 (½): Buchholz 3.5; beat 2: SB 0.5. Level with 1 on everything.
        assert_eq!((by(4).buchholz, by(4).sonneborn_berger), (3.5, 0.5));
        // 3 met 2 (½) and 0 (3): Buchholz 3.5; drew 2: SB 0.25.
        assert_eq!((by(3).buchholz, by(3).sonneborn_berger), (3.5, 0.25));
        assert_eq!(
            s.iter().map(|l| (l.entrant, l.rank)).collect::<Vec<_>>(),
            vec![(0, 1), (1, 2), (4, 2), (3, 4), (2, 5)]
        );
    }

    #[test]
    fn a_game_in_play_counts_nothing_yet_and_the_crosstable_shows_it() {
        let mut rounds = five();
        rounds[2].games[0].outcome = None;
        assert_eq!(points(5, &rounds, 2)[0], 4);
        let x = crosstable(5, &rounds);
        assert_eq!(
            x[0][2],
            Cell::Game {
                opponent: 3,
                colour: Colour::White,
                points: None
            }
        );
        assert_eq!(x[4][0], Cell::Bye);
        assert_eq!(
            x[2][1],
            Cell::Game {
                opponent: 1,
                colour: Colour::Black,
                points: Some(0)
            }
        );
    }
}
