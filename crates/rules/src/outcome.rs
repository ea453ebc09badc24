//! The words every family shares: the sides, a unit, how a game ends.

use crate::bitboard::Square;

/// Marks "no unit" in board arrays and leader slots.
pub const NO_UNIT: u8 = u8::MAX;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    /// The side of index 0 (White) or 1 (Black), as the cores number them.
    #[inline(always)]
    pub fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::White
        } else {
            Side::Black
        }
    }
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// A unit with identity: it keeps its id for the whole game, so "each unit moves once a
/// turn" and chesimal membership survive any rearrangement of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub square: Square,
    pub kind: u8,
    pub side: Side,
    /// Group index (0-based; `(1)` in notation is group 0). 0 in games without groups.
    pub group: u8,
    pub alive: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The last enemy royal unit was captured.
    Victory,
    /// The side to move had no legal turn.
    NoLegalTurn,
    Repetition,
    QuietTurns,
    /// Chess: the side to move is checkmated / stalemated.
    Checkmate,
    Stalemate,
    /// Chessma 84: stalemated with the King on a corner, which loses.
    CornerStalemate,
    /// Chess: 100 half-moves without a pawn move or capture.
    FiftyMoves,
    InsufficientMaterial,
    Agreement,
    Resignation,
    /// Called off by a player before both sides had played a turn: no winner (the outcome
    /// is `Draw`, but records write no result and servers rate nothing).
    Aborted,
    /// An end of a family's own, in its words (Ataxx: "the board is full").
    Family(&'static str),
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Victory => "victory",
            EndReason::NoLegalTurn => "no legal turn",
            EndReason::Repetition => "repetition",
            EndReason::QuietTurns => "turns without a capture",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::CornerStalemate => "stalemate on a corner",
            EndReason::FiftyMoves => "fifty-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::Aborted => "aborted",
            EndReason::Family(words) => words,
        }
    }
}
