//! The interface every game family implements, split by concern:
//!
//! - `Rules`, the core: state, legal steps, make (with its effects) and unmake, the outcome
//!   and its reason, the hash, text in and out. Games, records and perft need only this.
//! - `SearchHooks`: what a search may ask beyond the core (cheaper legality tests, the
//!   search profile, unit sets for the evaluation), each with a default from the core.
//! - `Explain`: what an interface shows and says (movable units, why not, the rules text,
//!   piece diagrams, the command picture, the units giving check), each with a default.
//! - `Family`: all three, the bound of work that runs on any family (`Visit`).
//!
//! What no family answers differently is written once as free functions (common.rs). The
//! engine's search, perft and matches are written once against these traits and compiled
//! once per family (family.rs picks the family of a variant at run time, in one `match`).
//!
//! The built-in families: `CommandGame` (the unit-moving command models: single, chain,
//! range, lead; the Chesimals, Chieftain and Fusion games are data), `BodyGame` (Lifeform),
//! `FideGame` (FIDE chess on its 8x8 core) and `ChessmaGame` (Chessma 84 on its two-sheet
//! core). A family written outside this crate implements the same trait (see
//! docs/architecture.md, "Adding a game family").

use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::effects::Effects;
use crate::error::{Illegal, StepError};
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind, StepList};
use crate::variant::Variant;
use crate::view::{Checker, CommandView, RulesText};

/// A game family: the rules of one kind of game over a position it owns.
///
/// Invariants every implementation keeps (the tests check them for the built-in families):
/// `make` is only given a step of `legal_steps`; `unmake(step, undo)` right after
/// `make(step)` restores the position exactly, hash included; `hash` covers everything that
/// decides the legal steps (the turn state too); once `outcome` is set there is no legal step.
pub trait Rules: Clone + Send + Sync + 'static {
    /// What `unmake` needs to take a step back.
    type Undo: Copy + Send + Sync;

    /// The variant this position plays (its pieces, values, board).
    fn variant(&self) -> &Arc<Variant>;
    fn side_to_move(&self) -> Side;
    /// Set when a victory condition was met, possibly in the middle of a turn.
    fn outcome(&self) -> Option<Outcome>;
    /// Why the game ended, once a step set `outcome`: the built-in families' victory
    /// conditions are `Victory`; a family with ends of its own names them
    /// (`EndReason::Family`).
    fn end_reason(&self) -> EndReason {
        EndReason::Victory
    }
    /// True at the start of a turn (no step of it made yet). One-move families: always.
    fn at_turn_start(&self) -> bool;
    /// Zobrist key of the position and its turn state, kept as steps are made.
    fn hash(&self) -> u64;
    /// The same key computed from scratch (the tests hold `hash` to it).
    fn compute_hash(&self) -> u64;

    /// Every legal step now (none once the game is decided); `list` is cleared first.
    fn legal_steps(&self, list: &mut StepList);
    /// The number of legal steps (perft counts its leaves with this).
    fn count_steps(&self) -> u64 {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.len() as u64
    }
    fn is_legal(&self, step: Step) -> bool {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.contains(step)
    }
    /// Play a legal step.
    fn make(&mut self, step: Step) -> Self::Undo;
    /// Play a legal step as `make` does and say what it did (`fx` is cleared first).
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> Self::Undo;
    /// Take back the step `make` just played.
    fn unmake(&mut self, step: Step, undo: Self::Undo);
    /// The game's end when the side to move has no legal step: the family's verdict
    /// (checkmate or stalemate, a corner stalemate, "no legal turn loses" or draws).
    fn without_steps(&self) -> (Outcome, EndReason);
    /// The unit on `sq`, if any.
    fn unit_at(&self, sq: Square) -> Option<Unit>;
    /// Every unit on the board.
    fn for_each_unit(&self, f: impl FnMut(Unit));
    /// Units of `kind` that `side` holds in hand (placement and drop games).
    fn in_hand(&self, _side: Side, _kind: u8) -> u8 {
        0
    }
    /// The game ends in a draw now, whatever the legal steps (FIDE's fifty-move rule and
    /// insufficient material); asked at each turn start.
    fn automatic_draw(&self) -> Option<EndReason> {
        None
    }

    /// The position as text (NOTATION.md's form for the built-in families).
    fn to_text(&self) -> String;
    /// A step as text (NOTATION.md's form for the built-in families).
    fn step_text(&self, step: Step) -> String;
    /// Read a step and check it is legal now. By default: the legal step written `text`.
    fn parse_step(&self, text: &str) -> Result<Step, StepError> {
        let text = text.trim();
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.iter()
            .copied()
            .find(|&s| self.step_text(s) == text)
            .ok_or_else(|| StepError::no_such_step(text))
    }
}

/// What a search may ask of a family beyond the core, each answered by default from the
/// core: a family overrides what it knows faster or better (its pseudo-legal candidates, a
/// cheaper test for a legal step, its own unit sets, its search profile).
pub trait SearchHooks: Rules {
    /// Steps for a search to try: every legal step, and possibly some that `make_if_legal`
    /// refuses. A family whose legality test costs a make per step (Chessma 84) lists its
    /// pseudo-legal steps here, so that a search tests only the steps it reaches.
    fn candidate_steps(&self, list: &mut StepList) {
        self.legal_steps(list)
    }
    /// Whether `candidate_steps` lists only legal steps (then `make_if_legal` never refuses).
    const CANDIDATES_ARE_LEGAL: bool = true;
    /// Play a step of `candidate_steps` if it is legal; None leaves the position unchanged.
    fn make_if_legal(&mut self, step: Step) -> Option<Self::Undo> {
        Some(self.make(step))
    }
    /// Whether the side to move has a legal step (cheaper than listing them).
    fn has_legal_step(&self) -> bool {
        self.count_steps() > 0
    }
    /// Perft counted by the family's own move type, when it has a faster one than steps.
    fn own_perft(&self, _depth: u32, _made: bool) -> Option<u64> {
        None
    }

    /// What a search should know of this game (asked once per variant): by default what
    /// the variant's data says; families say more of their own turns and pieces.
    fn search_profile(&self) -> SearchProfile {
        SearchProfile::from_data(self.variant())
    }

    /// Units of `side` that the command rules let move at a turn start (all, where every
    /// unit may move).
    fn commanded(&self, side: Side) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        self.for_each_unit(|u| {
            if u.side == side {
                b.set(u.square)
            }
        });
        b
    }
    /// Whether `step` may take a unit that does not stand on its destination (Ultima's
    /// withdrawal, long leap, coordination and enclosure, a push, en passant): a cheap
    /// test, true for every step that does, so that a search can find the captures no
    /// destination shows by making only these. Families whose captures all land on the
    /// victim answer false.
    fn may_capture_elsewhere(&self, _step: Step) -> bool {
        false
    }
    /// Where the unit on `from` could go by itself (for the evaluation's threats).
    fn destinations(&self, from: Square) -> Bitboard {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.iter()
            .filter(|s| s.from == from)
            .map(|s| s.to)
            .collect()
    }
    /// Squares of `side`'s units.
    fn occupied(&self, side: Side) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        self.for_each_unit(|u| {
            if u.side == side {
                b.set(u.square)
            }
        });
        b
    }
    /// Squares of `side`'s units of `kind`.
    fn units_of(&self, side: Side, kind: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        self.for_each_unit(|u| {
            if u.side == side && u.kind == kind {
                b.set(u.square)
            }
        });
        b
    }
    /// Squares of `side`'s royal units (its King).
    fn royals(&self, side: Side) -> Bitboard {
        let pieces = &self.variant().pieces;
        let mut b = Bitboard::EMPTY;
        self.for_each_unit(|u| {
            if u.side == side && pieces[u.kind as usize].royal {
                b.set(u.square)
            }
        });
        b
    }
    /// Units of `side` that an enemy piece freezes now (Chessma 84's Immobilizer).
    fn frozen(&self, _side: Side) -> Bitboard {
        Bitboard::EMPTY
    }
    /// Is the side to move in check (families with a check rule)?
    fn in_check(&self) -> bool {
        false
    }

    /// Squares of the units that moved in the turn in progress (empty in one-move families).
    fn moved_this_turn(&self) -> Bitboard {
        Bitboard::EMPTY
    }

    /// A search's null move: the side to move gives its turn away without a step. No
    /// game's rules allow it; a search asks it at a turn start, not in check, to learn
    /// cheaply whether the position is good enough even so. None where the family has none
    /// (the default). `unmake_null` takes it back exactly, hash included.
    fn make_null(&mut self) -> Option<Self::Undo> {
        None
    }
    /// Take back `make_null`.
    fn unmake_null(&mut self, _undo: Self::Undo) {}
}

/// What an interface shows and says of a position (the board's clicks, "why not", the rules
/// page, piece diagrams, the command picture), each with a default from the core and the
/// search hooks. The families whose rules the variant data cannot say answer for themselves.
pub trait Explain: SearchHooks {
    /// Lifeform: the enemy unit pinned under the Hand on `sq`.
    fn pinned_at(&self, _sq: Square) -> Option<Unit> {
        None
    }
    /// Units of the side to move that may start a step now (drops from a pocket aside).
    fn movable_units(&self) -> Bitboard {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.iter()
            .fold(Bitboard::EMPTY, |m, &s| m | self.step_origins(s))
    }
    /// The squares of the units that make `step`, for an interface's clicks: its `from`
    /// (nothing for `end`, a pass, or a drop from a pocket). A family where one step comes
    /// from any of several units (an Ataxx clone, made by any adjacent stone) lists them.
    fn step_origins(&self, step: Step) -> Bitboard {
        match step.kind {
            StepKind::End | StepKind::Pass | StepKind::Drop(_) => Bitboard::EMPTY,
            _ => Bitboard::from_square(step.from),
        }
    }
    /// Why the unit on `from` may not start a step now (`CannotReach` when it may, to some
    /// square). Families with command rules say which rule holds it.
    fn why_not(&self, from: Square) -> Illegal {
        let side = self.side_to_move();
        match self.unit_at(from) {
            _ if self.outcome().is_some() => Illegal::GameOver,
            None => Illegal::NoUnit,
            Some(u) if u.side != side => Illegal::NotYourUnit,
            Some(_) if self.movable_units().has(from) => Illegal::CannotReach,
            Some(_) if self.frozen(side).has(from) => Illegal::Frozen,
            Some(_) if self.in_check() => Illegal::InCheck,
            Some(_) => Illegal::NoLegalMove,
        }
    }
    /// Why `step`, which is not legal now, is refused: the typed reason and a sentence
    /// naming the step (`<step> is illegal: <reason>`). By default, from the step and the
    /// family's answers: a move whose unit may not move now, `why_not(from)` (`CannotReach`
    /// when it may, elsewhere); any other kind of step, `NoSuchStep`. The built-in families
    /// give what their step reader says of the step's text.
    fn refusal(&self, step: Step) -> StepError {
        let text = self.step_text(step);
        let illegal = match step.kind {
            _ if self.outcome().is_some() => Illegal::GameOver,
            StepKind::Move => self.why_not(step.from),
            _ => Illegal::NoSuchStep,
        };
        let message = format!("{text} is illegal: {illegal}");
        StepError::new(illegal, message)
    }
    /// The game's rules in sentences, for the rules page: by default written from the
    /// variant's data; a family whose rules the data cannot say gives its own.
    fn rules_text(&self) -> RulesText {
        RulesText::from_data(self.variant(), true)
    }
    /// A piece diagram's squares (diagram.rs) for a family whose pieces the Betza letters
    /// cannot describe: where a piece of variant kind `kind` and side `side` put on `from`
    /// moves, and the squares where it captures, on an empty board (`on_board` false: a
    /// capture square is one where a lone enemy unit would be taken) or on this position's
    /// board with the piece in place of whatever stands on `from` (the squares of the units
    /// its moves would take). None, the default: the letters say it, and the diagram
    /// compiles them on the variant's geometry. Chessma 84 answers from its own moves (two
    /// sheets, capture methods off the destination).
    fn piece_targets(
        &self,
        _kind: usize,
        _side: Side,
        _from: Square,
        _on_board: bool,
    ) -> Option<(Bitboard, Bitboard)> {
        None
    }
    /// The command picture for the side to move (leaders, links, zones); empty where every
    /// unit may move.
    fn command_view(&self) -> CommandView {
        CommandView::default()
    }
    /// The enemy units that give check to the side to move, each once, with how it would
    /// take the King: found by the same attack code as `in_check`, so this is empty exactly
    /// when `in_check` is false. Empty by default (families without check).
    fn checkers(&self) -> Vec<Checker> {
        Vec::new()
    }
    /// The squares whose units each of `steps` (all legal now) takes off the board, by any
    /// capture method: each is made with its report on a copy, and unmade.
    fn capture_squares_of(&self, steps: &[Step]) -> Vec<Vec<Square>> {
        let mut scratch = self.clone();
        let mut fx = Effects::new();
        steps
            .iter()
            .map(|&step| {
                let undo = scratch.make_reporting(step, &mut fx);
                scratch.unmake(step, undo);
                fx.removed().filter(|r| r.3).map(|r| r.2).collect()
            })
            .collect()
    }
}

/// A whole game family: the core, the search hooks and the description. Work that runs on
/// any family (`Visit`, the engine's search, the server's views) is bounded by this.
pub trait Family: Rules + SearchHooks + Explain {}

impl<T: Rules + SearchHooks + Explain> Family for T {}
