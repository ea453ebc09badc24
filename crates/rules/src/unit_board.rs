//! The shared unit core of the board families: units with identity, the board and its
//! occupancy, groups, stacked squares, pockets, royal counts, the side to move, the outcome,
//! an incrementally kept Zobrist hash that covers the turn state, and the journal of
//! changes (journal.rs). Each family owns the rest: `UnitBoard<O>` holds the owner `O`'s
//! indexes (`own`) and its turn state (`turn`), and the core's primitives call the owner's
//! hooks (`Owner`) where a unit is added, removed, restored or moves on a stacked square.
//! The command family (`CommandOwner`, command/) and Lifeform's body (`BodyOwner`, body/)
//! are the two owners; FIDE chess and Chessma 84 have cores of their own (chess/, chessma/).
//! Nothing here knows a command model or a body part.

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
/// Re-exported here, where callers have always found it.
pub use crate::position_error::PositionError;
use crate::position_error::{PinProblem, UnitProblem};
use crate::variant::{PieceKind, Variant, Victory, MAX_GROUPS, MAX_KINDS};
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
/// that every step may change wholesale (`T`: the family's turn state).
#[derive(Copy, Clone, Debug)]
pub struct Undo<T> {
    pub(crate) mark: u32,
    pub(crate) turn: T,
    pub(crate) hash: u64,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) side: Side,
}

/// A family's turn state: where the current turn stands. A fresh turn is `default()`, whose
/// `key` is 0. The family's type keeps the unit moves of the turn and the squares of the
/// units that moved (hashed alike, `common_turn_key`), and whatever else its rules need.
pub(crate) trait Turn: Copy + Default + Eq + Hash + fmt::Debug {
    /// The Zobrist key of the turn state (every part of it).
    fn key(&self) -> u64;
    /// Squares of the units that moved this turn (where they stand now).
    fn moved(&self) -> Bitboard;
}

/// The Zobrist key of the part every turn state has: the moves made and the squares of the
/// units that moved.
#[inline(always)]
pub(crate) fn common_turn_key(moves: u8, moved: Bitboard) -> u64 {
    let z = &ZOBRIST;
    let mut h = z.moves[moves as usize];
    for sq in moved.iter() {
        h ^= z.moved[sq.index()];
    }
    h
}

/// The family that owns a `UnitBoard`: its own indexes (the value in `UnitBoard::own`), its
/// turn state, and the hooks through which the core's primitives keep those indexes. Every
/// hook does nothing unless the owner says otherwise.
pub(crate) trait Owner: Clone + Sized {
    /// The family's turn state.
    type Turn: Turn;
    /// Whether two units may share a square, one pinned under the other (Lifeform).
    const STACKS: bool = false;

    /// The owner's indexes for an empty board of `variant`.
    fn new(variant: &Variant) -> Self;
    /// Unit `id` (`unit`, of kind `kind`) is being put on the board while a position is set
    /// up; an error refuses the position.
    fn added(
        &mut self,
        _v: &Variant,
        _kind: &PieceKind,
        _id: u8,
        _unit: &Unit,
    ) -> Result<(), UnitProblem> {
        Ok(())
    }
    /// Unit `id`, alone on its square, was taken off the board (`UnitBoard::remove`).
    #[inline(always)]
    fn removed(&mut self, _kind: &PieceKind, _id: u8, _unit: &Unit) {}
    /// The removal of unit `id` was taken back.
    #[inline(always)]
    fn restored(&mut self, _kind: &PieceKind, _id: u8, _unit: &Unit) {}
    /// A stacked primitive or a drop put `unit` on `sq` or took it off (flip its square).
    #[inline(always)]
    fn toggled(&mut self, _kind: &PieceKind, _unit: &Unit, _sq: Square) {}
    /// The most steps a unit with `most` destinations may give in one position (bounds the
    /// step list when a position is read).
    fn unit_step_bound(most: usize) -> usize {
        most
    }
    /// Which sides of a position just read have already lost (None: none judged): by
    /// default, under `victory = royals`, a side without royal units.
    fn lost_at_start(pos: &UnitBoard<Self>) -> Option<[bool; 2]> {
        (pos.variant.victory == Victory::CaptureRoyals)
            .then(|| [pos.royals[0] == 0, pos.royals[1] == 0])
    }
    /// A unit written after `~` on `sq` (`letter`), pinned under the unit of kind `top` and
    /// side `side` just added there. By default no unit pins another.
    fn add_pinned(
        pos: &mut UnitBoard<Self>,
        _sq: Square,
        _top: usize,
        _side: Side,
        _letter: char,
    ) -> Result<(), PinProblem> {
        let variant = pos.variant.id.clone();
        Err(PinProblem::NotLifeform { variant })
    }
}

/// A position of a board family: the shared core and the owner's state (see the module).
#[derive(Clone)]
pub(crate) struct UnitBoard<O: Owner> {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: [u8; 256],
    pub(crate) units: UnitList,
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) groups: [[Bitboard; MAX_GROUPS]; 2],
    pub(crate) royals: [u8; 2],
    pub(crate) side: Side,
    pub(crate) turn: O::Turn,
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
    /// The owning family's own indexes (kept through the `Owner` hooks).
    pub(crate) own: O,
}

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

impl<O: Owner> UnitBoard<O> {
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    pub fn turn(&self) -> &O::Turn {
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
        if !O::STACKS {
            return None;
        }
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
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// A board without units.
    pub(crate) fn empty(variant: &Arc<Variant>, side: Side) -> UnitBoard<O> {
        UnitBoard {
            variant: variant.clone(),
            board: [NO_UNIT; 256],
            units: UnitList::new(),
            occupied: [Bitboard::EMPTY; 2],
            groups: [[Bitboard::EMPTY; MAX_GROUPS]; 2],
            royals: [0; 2],
            side,
            turn: O::Turn::default(),
            outcome: None,
            hash: 0,
            under: [NO_UNIT; 256],
            shared: Bitboard::EMPTY,
            journal: Vec::with_capacity(256),
            pocket: [[0; MAX_KINDS]; 2],
            own: O::new(variant),
        }
    }

    /// Put a unit on the board while setting a position up, keeping the indexes.
    pub(crate) fn add_unit(&mut self, unit: Unit) -> Result<(), UnitProblem> {
        if self.units.len() >= MAX_UNITS {
            return Err(UnitProblem::TooMany { most: MAX_UNITS });
        }
        let id = self.units.len() as u8;
        let (s, g) = (unit.side.index(), unit.group as usize);
        let kind = &self.variant.pieces[unit.kind as usize];
        self.own.added(&self.variant, kind, id, &unit)?;
        if kind.royal {
            self.royals[s] += 1;
        }
        self.board[unit.square.index()] = id;
        self.occupied[s].set(unit.square);
        self.groups[s][g].set(unit.square);
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
        h ^ self.turn.key()
    }

    /// Close the turn: the other side starts a fresh one.
    pub(crate) fn end_turn(&mut self) {
        self.hash ^= self.turn.key() ^ ZOBRIST.side;
        self.turn = O::Turn::default();
        self.side = self.side.other();
    }

    /// Replace the turn state, keeping the hash.
    #[inline(always)]
    pub(crate) fn set_turn(&mut self, turn: O::Turn) {
        self.hash ^= self.turn.key() ^ turn.key();
        self.turn = turn;
    }

    /// The refusals every board family shares for a step of the unit on `from`: the game is
    /// over, no unit, not the mover's, or a unit that may move but not there (`movable`:
    /// the family's `movable_units`). None: the family's own rules say why.
    pub(crate) fn common_refusal(
        &self,
        from: Square,
        movable: impl FnOnce() -> Bitboard,
    ) -> Option<crate::error::Illegal> {
        use crate::error::Illegal;
        if self.outcome.is_some() {
            return Some(Illegal::GameOver);
        }
        let Some(u) = self.unit_at(from) else {
            return Some(Illegal::NoUnit);
        };
        if u.side != self.side {
            return Some(Illegal::NotYourUnit);
        }
        movable().has(from).then_some(Illegal::CannotReach)
    }
}

impl<O: Owner> fmt::Debug for UnitBoard<O> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "UnitBoard({} {:?})", self.to_text(), self.turn)
    }
}
