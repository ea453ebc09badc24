//! The generic unit board: units with identity, the side to move, the turn state, and an
//! incrementally kept Zobrist hash that covers the turn state. The board families
//! (`CommandGame`, `BodyGame`, family.rs) play on it; FIDE chess and Chessma 84 have cores
//! of their own (chess/, chessma/). Nothing here knows a command model: the board changes through journal.rs, and the command rules
//! live in command/ (one module per model).

use std::fmt;
use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::turn::Model;
pub use crate::turn::TurnState;
use crate::variant::{CommandModel, Variant, MAX_ACTIVATORS, MAX_GROUPS, MAX_KINDS};
use crate::zobrist::ZOBRIST;

pub use crate::outcome::{Outcome, Side, Unit, NO_UNIT};

/// Unit ids are u8 below NO_UNIT; no built-in game comes near this.
pub const MAX_UNITS: usize = 200;

/// One reversible change, as the journal records it.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Change {
    /// Unit `id` moved from `from` to the square it stands on (both plain squares).
    Moved { id: u8, from: Square },
    /// Unit `id`, alone on its square, left the board.
    Removed { id: u8 },
    /// A square's stack before it changed: the unit on top and the one under it.
    Stack { sq: Square, top: u8, under: u8 },
    /// Unit `id` stood on `square` with this `alive` flag before a stacked move or removal.
    Unit { id: u8, square: Square, alive: bool },
    /// The last unit entered from `side`'s pocket of `kind`, onto `to`.
    Dropped { side: Side, kind: u8, to: Square },
    /// Unit `id` leaves the board by a rule of the game, not by a capture (Lifeform's
    /// regulations): written before its removal, it changes nothing to revert.
    Uncaptured { id: u8 },
}

/// What `unmake` needs to take a step back: where the effect journal stood, and the state
/// that every step may change wholesale.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    pub(crate) mark: u32,
    pub(crate) turn: TurnState,
    pub(crate) hash: u64,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) side: Side,
}

#[derive(Clone)]
pub struct UnitBoard {
    pub(crate) variant: Arc<Variant>,
    /// The variant's command component (a copy of what `variant` says, for dispatch).
    pub(crate) model: Model,
    pub(crate) board: [u8; 256],
    pub(crate) units: UnitList,
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) groups: [[Bitboard; MAX_GROUPS]; 2],
    /// Index for the chain model: the living leader of each group, or NO_UNIT once captured.
    pub(crate) leaders: [[u8; MAX_GROUPS]; 2],
    /// Index for the range model: the side's leader units, in id order, once per activation;
    /// bit i of a subset is entry i.
    pub(crate) activators: [[u8; MAX_ACTIVATORS]; 2],
    pub(crate) activator_count: [u8; 2],
    pub(crate) royals: [u8; 2],
    pub(crate) side: Side,
    pub(crate) turn: TurnState,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) hash: u64,
    /// Stacked squares (Lifeform's pins): the unit under the one in `board` (NO_UNIT
    /// elsewhere), and the squares that hold two units.
    pub(crate) under: [u8; 256],
    pub(crate) shared: Bitboard,
    /// The effects of the steps made so far, newest last; `unmake` reverts them (journal.rs).
    pub(crate) journal: Vec<Change>,
    /// Units of each kind each side has in hand (placement variants).
    pub(crate) pocket: [[u8; MAX_KINDS]; 2],
    /// Index for the body model: the squares of each side's living units of each body role
    /// (`BodyRole as usize`; pinned units included). Set by `add_unit` and kept by the
    /// stacked primitives of journal.rs, the only ones the body model uses; only the body
    /// model reads it (elsewhere a role flag means nothing and the index is not kept).
    pub(crate) parts: [[Bitboard; BODY_ROLES]; 2],
}

/// How many body roles there are (`BodyRole`'s variants).
pub(crate) const BODY_ROLES: usize = 6;

/// The units of a board by id, inline: one slot per possible `u8` id, so that an id indexes
/// without a bounds check or a pointer to follow (make and unmake touch a unit each step).
#[derive(Clone)]
pub(crate) struct UnitList {
    items: [Unit; 256],
    len: u8,
}

const NO_SLOT: Unit = Unit {
    square: Square::from_index(0),
    kind: 0,
    side: Side::White,
    group: 0,
    alive: false,
};

impl UnitList {
    pub(crate) fn new() -> UnitList {
        UnitList {
            items: [NO_SLOT; 256],
            len: 0,
        }
    }
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }
    /// Add a unit (the caller keeps the count under `MAX_UNITS`).
    pub(crate) fn push(&mut self, u: Unit) {
        self.items[self.len as usize] = u;
        self.len += 1;
    }
    pub(crate) fn pop(&mut self) -> Option<Unit> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[self.len as usize])
    }
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, Unit> {
        self.items[..self.len as usize].iter()
    }
}

impl std::ops::Index<usize> for UnitList {
    type Output = Unit;
    #[inline(always)]
    fn index(&self, id: usize) -> &Unit {
        &self.items[id & 255]
    }
}
impl std::ops::IndexMut<usize> for UnitList {
    #[inline(always)]
    fn index_mut(&mut self, id: usize) -> &mut Unit {
        &mut self.items[id & 255]
    }
}

/// A malformed position string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for PositionError {}

impl UnitBoard {
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    pub fn turn(&self) -> &TurnState {
        &self.turn
    }
    /// Set when a victory condition was met (possibly in the middle of a turn).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn unit_at(&self, sq: Square) -> Option<&Unit> {
        let id = self.board[sq.index()];
        (id != NO_UNIT).then(|| &self.units[id as usize])
    }
    /// Lifeform: the enemy piece pinned under the Hand on `sq`, if the square is shared.
    pub fn pinned_at(&self, sq: Square) -> Option<&Unit> {
        let id = self.under[sq.index()];
        (id != NO_UNIT).then(|| &self.units[id as usize])
    }
    /// Units each side has still to place (placement variants), by piece kind.
    pub fn pocket(&self, side: Side) -> &[u8] {
        &self.pocket[side.index()][..self.variant.pieces.len()]
    }
    /// The units on the board.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.alive)
    }
    /// The units taken off the board so far: captured, or removed (Lifeform's regulations).
    pub fn removed_units(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| !u.alive)
    }
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }
    /// True at the start of a turn (no step of it made yet).
    pub fn at_turn_start(&self) -> bool {
        self.turn.moves == 0 && self.turn.lead.leader == NO_UNIT
    }

    /// A board without units.
    pub(crate) fn empty(variant: &Arc<Variant>, side: Side) -> UnitBoard {
        UnitBoard {
            variant: variant.clone(),
            model: Model::of(variant),
            board: [NO_UNIT; 256],
            units: UnitList::new(),
            occupied: [Bitboard::EMPTY; 2],
            groups: [[Bitboard::EMPTY; MAX_GROUPS]; 2],
            leaders: [[NO_UNIT; MAX_GROUPS]; 2],
            activators: [[NO_UNIT; MAX_ACTIVATORS]; 2],
            activator_count: [0; 2],
            royals: [0; 2],
            side,
            turn: TurnState::default(),
            outcome: None,
            hash: 0,
            under: [NO_UNIT; 256],
            shared: Bitboard::EMPTY,
            journal: Vec::with_capacity(256),
            pocket: [[0; MAX_KINDS]; 2],
            parts: [[Bitboard::EMPTY; BODY_ROLES]; 2],
        }
    }

    /// Put a unit on the board while setting a position up, keeping the indexes.
    pub(crate) fn add_unit(&mut self, unit: Unit) -> Result<(), PositionError> {
        if self.units.len() >= MAX_UNITS {
            return Err(PositionError(format!("more than {MAX_UNITS} units")));
        }
        let id = self.units.len() as u8;
        let (s, g) = (unit.side.index(), unit.group as usize);
        let kind = &self.variant.pieces[unit.kind as usize];
        if kind.leader {
            match self.variant.command {
                CommandModel::Chain { .. } => {
                    if self.leaders[s][g] != NO_UNIT {
                        return Err(PositionError(format!(
                            "{}'s group ({}) has two leaders; the second is on {:?}",
                            unit.side.name(),
                            g + 1,
                            unit.square
                        )));
                    }
                    self.leaders[s][g] = id;
                }
                CommandModel::Range { activations, .. } => {
                    // A leader with k activations a turn stands for k leaders in the matching.
                    for _ in 0..activations {
                        let n = self.activator_count[s] as usize;
                        if n >= MAX_ACTIVATORS {
                            return Err(PositionError(format!(
                                "{} has more than {MAX_ACTIVATORS} activations a turn",
                                unit.side.name()
                            )));
                        }
                        self.activators[s][n] = id;
                        self.activator_count[s] += 1;
                    }
                }
                CommandModel::Single | CommandModel::Lead { .. } => {}
            }
        }
        if kind.royal {
            self.royals[s] += 1;
        }
        self.board[unit.square.index()] = id;
        self.occupied[s].set(unit.square);
        self.groups[s][g].set(unit.square);
        if let Some(role) = kind.role {
            self.parts[s][role as usize].set(unit.square);
        }
        self.units.push(unit);
        Ok(())
    }

    #[inline(always)]
    pub(crate) fn unit_key(u: &Unit) -> u64 {
        ZOBRIST.unit(u.side, u.kind, u.group, u.square)
    }

    /// The hash computed from scratch; `hash()` keeps it incrementally.
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.units().map(Self::unit_key).fold(0, |a, b| a ^ b);
        if self.side == Side::Black {
            h ^= ZOBRIST.side;
        }
        for (s, counts) in self.pocket.iter().enumerate() {
            for (kind, &n) in counts.iter().enumerate() {
                h ^= ZOBRIST.pocket(s, kind, n);
            }
        }
        h ^ TurnState::key(&self.turn)
    }

    /// Close the turn: the other side starts a fresh one.
    pub(crate) fn end_turn(&mut self) {
        self.hash ^= TurnState::key(&self.turn) ^ ZOBRIST.side;
        self.turn = TurnState::default();
        self.side = self.side.other();
    }

    /// Replace the turn state, keeping the hash.
    #[inline(always)]
    pub(crate) fn set_turn(&mut self, turn: TurnState) {
        self.hash ^= TurnState::key(&self.turn) ^ TurnState::key(&turn);
        self.turn = turn;
    }
}

impl fmt::Debug for UnitBoard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "UnitBoard({} {:?})", self.to_text(), self.turn)
    }
}
