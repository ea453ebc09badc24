//! Where a turn stands (`TurnState`): the common part, and each command model's own part
//! (only that model reads or writes it; command/ holds the rules). Each part hashes itself.

use crate::bitboard::{Bitboard, Square};
use crate::outcome::NO_UNIT;
use crate::variant::CommandModel;
use crate::zobrist::ZOBRIST;

/// Which component runs a position, copied from the variant into the position so that the
/// hot paths dispatch on one byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Model {
    Single,
    Chain,
    Range,
    Lead,
    Body,
}

impl Model {
    pub(crate) fn of(variant: &crate::variant::Variant) -> Model {
        if variant.is_body() {
            return Model::Body;
        }
        match variant.command {
            CommandModel::Single => Model::Single,
            CommandModel::Chain { .. } => Model::Chain,
            CommandModel::Range { .. } => Model::Range,
            CommandModel::Lead { .. } => Model::Lead,
        }
    }
}

/// Where the current turn stands. A fresh turn is `TurnState::default()`.
///
/// The common part counts the unit moves and marks where the moved units stand; each
/// command model keeps its own part in a type of its own module (only the variant's model
/// reads or writes its part). Aligned to 32 bytes (64 in all) so that saving and restoring it
/// are two whole, aligned vector moves, and `moved` comes first so that it lies within one of
/// them: a board straddling the two stores of a restore cannot be forwarded from them, and
/// reading it right after `unmake` stalled every `make` (a quarter of its time).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C, align(32))]
pub struct TurnState {
    /// Squares of the units that moved this turn (where they stand now).
    pub moved: Bitboard,
    /// Unit moves made so far this turn.
    pub moves: u8,
    pub chain: ChainTurn,
    pub range: RangeTurn,
    pub lead: LeadTurn,
    pub body: BodyTurn,
}

impl TurnState {
    /// The hash of a turn state: the common part and each model's part.
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        let turn = self;
        let z = &ZOBRIST;
        let mut h = z.moves[turn.moves as usize];
        for sq in turn.moved.iter() {
            h ^= z.moved[sq.index()];
        }
        h ^ turn.chain.key() ^ turn.range.key() ^ turn.lead.key() ^ turn.body.key()
    }
}

/// The chain model's part of the turn: the chesimal this turn moves, fixed by its first step.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ChainTurn {
    pub group: Option<u8>,
}

impl ChainTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        self.group.map_or(0, |g| ZOBRIST.chosen[g as usize])
    }
}

/// The range model's part of the turn: bit `s` is set when the moves so far can be matched
/// to distinct leaders making up the subset `s` (bit i of s = the side's i-th activation
/// slot). A fresh turn has only the empty subset.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RangeTurn {
    pub feasible: u64,
}

impl Default for RangeTurn {
    fn default() -> Self {
        RangeTurn { feasible: 1 }
    }
}

impl RangeTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        ZOBRIST.feasible_key(self.feasible)
    }
}

/// The lead model's part of the turn: the unit id of the leader leading it (NO_UNIT before
/// `lead`) and the index of its mode in `Variant::lead_modes`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeadTurn {
    pub leader: u8,
    pub mode: u8,
}

impl Default for LeadTurn {
    fn default() -> Self {
        LeadTurn {
            leader: NO_UNIT,
            mode: 0,
        }
    }
}

impl LeadTurn {
    #[inline(always)]
    pub(crate) fn key(&self) -> u64 {
        if self.leader == NO_UNIT {
            0
        } else {
            ZOBRIST.lead[self.leader as usize] ^ ZOBRIST.lead_mode[self.mode as usize & 63]
        }
    }
}

/// The body model's part of the turn: the main move's start square and which of its eight
/// neighbours (bit d = direction d of `geometry::DIRECTIONS`) hold a Hair or Limb that may
/// still follow; whether the turn made its one capture; whether it is a placement turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BodyTurn {
    pub main_from: Square,
    pub follower_dirs: u8,
    pub captured: bool,
    pub placing: bool,
}

impl BodyTurn {
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
