//! Tournaments as data and pure functions (docs/server.md, "Tournaments"): who meets whom
//! in the next round of a Swiss ([`swiss::pair`]), the standings with their tie-breaks
//! ([`standings::standings`]) and the crosstable, and an Arena's points and pairings
//! ([`arena`]). No I/O and no clock: the server stores the rounds and asks these functions,
//! so every instance computes the same pairings from the same rows.
//!
//! Entrants are numbered in the order they joined ([`Entrant`]); a round is its games and
//! its bye ([`Round`]). Points are counted in half points ([`HalfPoints`]): a win 2, a
//! draw 1, a loss 0, so that every score is an integer.

pub mod arena;
pub mod standings;
pub mod swiss;

/// An entrant: its index in the tournament's list of players, in the order they joined.
pub type Entrant = usize;

/// A score in half points (a win is 2, a draw 1).
pub type HalfPoints = u32;

/// Which side a player had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

/// A game of a round: who had White, who Black, and how it ended (None while it is played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: Entrant,
    pub black: Entrant,
    pub outcome: Option<Outcome>,
}

impl Game {
    pub fn new(white: Entrant, black: Entrant) -> Game {
        Game {
            white,
            black,
            outcome: None,
        }
    }

    /// Whether `e` played in this game.
    pub fn has(&self, e: Entrant) -> bool {
        self.white == e || self.black == e
    }

    /// `e`'s opponent and colour, if `e` played in this game.
    pub fn seat_of(&self, e: Entrant) -> Option<(Entrant, Colour)> {
        if self.white == e {
            Some((self.black, Colour::White))
        } else if self.black == e {
            Some((self.white, Colour::Black))
        } else {
            None
        }
    }

    /// What `e` scored in this game, once it is over (None while it is played, or if `e`
    /// did not play in it).
    pub fn points_of(&self, e: Entrant) -> Option<HalfPoints> {
        let (_, colour) = self.seat_of(e)?;
        Some(match (self.outcome?, colour) {
            (Outcome::Draw, _) => 1,
            (Outcome::WhiteWins, Colour::White) | (Outcome::BlackWins, Colour::Black) => 2,
            _ => 0,
        })
    }
}

/// A round: its games, and the entrant who sat out with a bye (an odd number of players).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<Entrant>,
}

impl Round {
    /// The game `e` played in this round, if any.
    pub fn game_of(&self, e: Entrant) -> Option<&Game> {
        self.games.iter().find(|g| g.has(e))
    }
}
