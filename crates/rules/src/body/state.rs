//! What the body family owns on the shared unit core: the index of each side's body parts
//! (`BodyOwner`) and where a turn stands (`BodyTurn`: the common part and the body's own).

use crate::bitboard::{Bitboard, Square};
use crate::outcome::{Side, Unit};
use crate::unit_board::{common_turn_key, Owner, Turn, UnitBoard};
use crate::variant::{PieceKind, Variant};
use crate::zobrist::ZOBRIST;

/// A position of the body family (Lifeform).
pub(crate) type BodyBoard = UnitBoard<BodyOwner>;

/// How many body roles there are (`BodyRole`'s variants).
pub(crate) const BODY_ROLES: usize = 6;

/// The body family's own index on the unit core.
#[derive(Clone)]
pub(crate) struct BodyOwner {
    /// The squares of each side's living units of each body role (`BodyRole as usize`;
    /// pinned units included). Set as units are added and kept through the stacked
    /// primitives of journal.rs (the only ones the body uses) and drops.
    pub(crate) parts: [[Bitboard; BODY_ROLES]; 2],
}

impl BodyOwner {
    /// Flip `sq` in the index of `unit`'s role, if its kind is a body part.
    #[inline(always)]
    fn flip(&mut self, kind: &PieceKind, unit: &Unit, sq: Square) {
        if let Some(role) = kind.role {
            self.parts[unit.side.index()][role as usize].toggle(sq);
        }
    }
}

impl Owner for BodyOwner {
    type Turn = BodyTurn;
    /// A Hand may pin an enemy piece: both share its square.
    const STACKS: bool = true;

    fn new(_variant: &Variant) -> BodyOwner {
        BodyOwner {
            parts: [[Bitboard::EMPTY; BODY_ROLES]; 2],
        }
    }

    fn added(
        &mut self,
        _v: &Variant,
        kind: &PieceKind,
        _id: u8,
        unit: &Unit,
    ) -> Result<(), crate::position_error::UnitProblem> {
        self.flip(kind, unit, unit.square);
        Ok(())
    }

    #[inline(always)]
    fn toggled(&mut self, kind: &PieceKind, unit: &Unit, sq: Square) {
        self.flip(kind, unit, sq);
    }

    /// Each unit's destinations twice (a Hand's capture or pin), and its follower steps.
    fn unit_step_bound(most: usize) -> usize {
        most * 2 + 8
    }

    /// Once both bodies are placed, a side without Head, Torso or Neck has lost.
    fn lost_at_start(pos: &BodyBoard) -> Option<[bool; 2]> {
        if pos.pocket.iter().flatten().any(|&n| n > 0) {
            return None;
        }
        Some([pos.body_lost(Side::White), pos.body_lost(Side::Black)])
    }

    fn add_pinned(
        pos: &mut BodyBoard,
        sq: Square,
        hand: usize,
        side: Side,
        letter: char,
    ) -> Result<(), crate::position_error::PinProblem> {
        pos.add_pinned(sq, hand, side, letter)
    }
}

/// Where the current turn of the body family stands. A fresh turn is `BodyTurn::default()`.
/// Laid out as the command family's turn is (command/state.rs): aligned to 32 bytes, `moved`
/// first, so that saving and restoring it are whole, aligned vector moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(32))]
pub struct BodyTurn {
    /// Squares of the units that moved this turn (where they stand now).
    pub moved: Bitboard,
    /// Unit moves made so far this turn (placements included).
    pub moves: u8,
    pub body: BodyPhase,
}

impl Turn for BodyTurn {
    #[inline(always)]
    fn key(&self) -> u64 {
        common_turn_key(self.moves, self.moved) ^ self.body.key()
    }
    #[inline(always)]
    fn moved(&self) -> Bitboard {
        self.moved
    }
}

/// The body's part of the turn: the main move's start square and which of its eight
/// neighbours (bit d = direction d of `geometry::DIRECTIONS`) hold a Hair or Limb that may
/// still follow; whether the turn made its one capture; whether it is a placement turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BodyPhase {
    pub main_from: Square,
    pub follower_dirs: u8,
    pub captured: bool,
    pub placing: bool,
}

impl BodyPhase {
    pub(crate) fn key(&self) -> u64 {
        let z = &ZOBRIST;
        let mut h = 0;
        for d in 0..8 {
            if self.follower_dirs >> d & 1 != 0 {
                h ^= z.follower[self.main_from.index() * 8 + d];
            }
        }
        if self.captured {
            h ^= z.captured;
        }
        if self.placing {
            h ^= z.placing;
        }
        h
    }
}
