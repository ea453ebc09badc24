//! What a step did, as `make_reporting` tells it: the units it moved, removed (and how),
//! placed, changed and pocketed. The game's counters (captures, pawn moves), the move list,
//! animations, records and the captured-unit lists read these; nothing outside the rules
//! guesses a capture from the board.

use crate::bitboard::Square;
use crate::outcome::Side;

/// One thing a step did to the board or the pockets. Kinds are indexes into the variant's
/// pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A unit went from one square to another: the mover, a castling Rook, a swapped or a
    /// pushed unit. `kind` is its kind before the step (see `KindChanged`).
    Moved {
        side: Side,
        kind: u8,
        from: Square,
        to: Square,
    },
    /// A unit left the board. `capture`: the other side took it (by any method: replacement,
    /// en passant, withdrawal, long leap, coordination, enclosure, a Chameleon's imitation,
    /// a Lifeform Hand's or Foot's capture); false for Lifeform's regulations, which remove a
    /// side's own disconnected parts too.
    Removed {
        side: Side,
        kind: u8,
        square: Square,
        capture: bool,
    },
    /// A unit entered the board from its side's pocket (a drop, a placement).
    Placed {
        side: Side,
        kind: u8,
        square: Square,
    },
    /// A unit changed kind where it stands after the step: a promotion.
    KindChanged {
        side: Side,
        square: Square,
        from: u8,
        to: u8,
    },
    /// A removed unit of `kind` went to `side`'s pocket (Chessma 84's enclosure).
    Pocketed { side: Side, kind: u8 },
    /// A unit changed side where it stands (Ataxx: the mover's neighbours turn). `side` is
    /// its side after the step.
    SideChanged {
        side: Side,
        kind: u8,
        square: Square,
    },
    /// Lifeform: a Hand arrived on this enemy unit, which stays on its square, pinned.
    Pinned {
        side: Side,
        kind: u8,
        square: Square,
    },
}

/// Room for the most a step can do: a Chessma move captures at most a few dozen units.
pub const MAX_EFFECTS: usize = 96;

/// A fixed-capacity list of effects, filled by `make_reporting` (cleared first).
#[derive(Clone)]
pub struct Effects {
    len: usize,
    items: [Effect; MAX_EFFECTS],
}

impl Default for Effects {
    fn default() -> Self {
        Effects {
            len: 0,
            items: [Effect::Pocketed {
                side: Side::White,
                kind: 0,
            }; MAX_EFFECTS],
        }
    }
}

impl Effects {
    pub fn new() -> Effects {
        Effects::default()
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Add what the step did (a family's `make_reporting` calls this). Panics past
    /// `MAX_EFFECTS`.
    pub fn push(&mut self, e: Effect) {
        self.items[self.len] = e;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Effect] {
        &self.items[..self.len]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Effect> {
        self.as_slice().iter()
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Did the step capture a unit (by any method; not a Lifeform regulation's removal)?
    pub fn captures(&self) -> bool {
        self.iter()
            .any(|e| matches!(e, Effect::Removed { capture: true, .. }))
    }
    /// The units the step took off the board, with their squares, in order.
    pub fn removed(&self) -> impl Iterator<Item = (Side, u8, Square, bool)> + '_ {
        self.iter().filter_map(|e| match *e {
            Effect::Removed {
                side,
                kind,
                square,
                capture,
            } => Some((side, kind, square, capture)),
            _ => None,
        })
    }
    /// Did a unit of one of `kinds` (bit k = kind k) move?
    pub fn moved_kind_in(&self, kinds: u64) -> bool {
        self.iter()
            .any(|e| matches!(*e, Effect::Moved { kind, .. } if kinds >> kind & 1 != 0))
    }
}

impl std::fmt::Debug for Effects {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
