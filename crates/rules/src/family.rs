//! The game families behind one enum. `Position` is the one place that chooses a family at
//! run time: `Position::parse` picks it from the variant, and every call on a `Position`
//! goes to the family inside through the one dispatch below. Work that runs hot (search,
//! perft, matches) is written against `Rules` and reaches a family through
//! `Position::visit`, compiled once per family.

use crate::bitboard::{Bitboard, Square};
use crate::body::{BodyBoard, BodyTurn};
use crate::command::{CommandBoard, CommandTurn};
use crate::effects::Effects;
use crate::error::{Illegal, StepError};
use crate::interface::{Explain, Family, Rules, SearchHooks};
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind, StepList};
use crate::step_io::StepRules;
use crate::unit_board::{Owner, PositionError, Turn, Undo, UnitBoard};
use crate::variant::{NoLegalTurn, Variant};
use crate::view::CommandView;
use std::sync::Arc;

pub use crate::chess::{FideGame, FideUndo};
pub use crate::chessma::{ChessmaGame, ChessmaUndo};
pub use crate::outside::{OutsideGame, OutsideUndo};

/// The families a variant may name: the built-in ones and those registered.
fn known_families() -> String {
    let mut all: Vec<&str> = crate::variant::BUILT_IN_FAMILIES.to_vec();
    all.extend(crate::registry::family_names());
    all.join(", ")
}

/// Work generic over the family: `Position::visit` calls `visit` with the concrete type.
pub trait Visit {
    type Output;
    fn visit<R: Family>(self, game: R) -> Self::Output;
}

/// A position of any built-in family, on the family's own representation.
#[derive(Clone)]
pub enum Position {
    Command(CommandGame),
    Body(BodyGame),
    Fide(FideGame),
    Chessma(ChessmaGame),
    /// A family registered from outside this crate (registry.rs), behind one object.
    Outside(OutsideGame),
}

impl Position {
    /// Read a position string of `variant` (NOTATION.md): FEN for FIDE chess, Chessma 84's
    /// own form, the unit board's form for every other game.
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<Position, PositionError> {
        match variant.family.as_str() {
            "fide" => FideGame::parse(variant, text).map(Position::Fide),
            "chessma" => ChessmaGame::parse(variant, text).map(Position::Chessma),
            "body" => BodyBoard::parse(variant, text).map(|b| Position::Body(BodyGame(b))),
            "command" => {
                CommandBoard::parse(variant, text).map(|b| Position::Command(CommandGame(b)))
            }
            name => match crate::registry::family(name) {
                Some(family) => (family.parse)(variant, text).map(Position::Outside),
                None => Err(PositionError::UnknownFamily {
                    name: name.into(),
                    known: known_families(),
                }),
            },
        }
    }

    /// Run `work` on the concrete family (a copy of this position).
    pub fn visit<V: Visit>(self, work: V) -> V::Output {
        match self {
            Position::Command(g) => work.visit(g),
            Position::Body(g) => work.visit(g),
            Position::Fide(g) => work.visit(g),
            Position::Chessma(g) => work.visit(g),
            Position::Outside(g) => work.visit(g),
        }
    }

    /// Where the turn stands in a position of the command family (None elsewhere).
    pub fn command_turn(&self) -> Option<CommandTurn> {
        match self {
            Position::Command(g) => Some(g.0.turn),
            _ => None,
        }
    }

    /// Where the turn stands in a position of the body family (None elsewhere).
    pub fn body_turn(&self) -> Option<BodyTurn> {
        match self {
            Position::Body(g) => Some(g.0.turn),
            _ => None,
        }
    }

    /// UCI text of a step (`e2e4`, `e7e8q`): squares and a promotion's letter.
    pub fn step_uci(&self, step: Step) -> String {
        let v = self.variant();
        let geo = &v.geometry;
        let mut s = format!("{}{}", geo.square_name(step.from), geo.square_name(step.to));
        if let StepKind::Promote(kind) = step.kind {
            s.push(v.pieces[kind as usize].letter.to_ascii_lowercase());
        }
        s
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

/// The verdict of the board families when the side to move has no legal step.
fn no_legal_turn<O: Owner>(pos: &UnitBoard<O>) -> (Outcome, EndReason) {
    match pos.variant().no_legal_turn {
        NoLegalTurn::Loss => (
            Outcome::Win(pos.side_to_move().other()),
            EndReason::NoLegalTurn,
        ),
        NoLegalTurn::Draw => (Outcome::Draw, EndReason::NoLegalTurn),
    }
}

/// Implements `Rules` for a family kept on the shared unit core (unit_board.rs, with the
/// effect journal as its undo): each call goes to the family's own board (`$turn`: its turn
/// state), whose rules answer in the family's module.
macro_rules! board_family {
    ($name:ident, $turn:ty) => {
        impl Rules for $name {
            type Undo = Undo<$turn>;
            fn variant(&self) -> &Arc<Variant> {
                self.0.variant()
            }
            #[inline(always)]
            fn side_to_move(&self) -> Side {
                self.0.side_to_move()
            }
            #[inline(always)]
            fn outcome(&self) -> Option<Outcome> {
                self.0.outcome()
            }
            #[inline(always)]
            fn at_turn_start(&self) -> bool {
                self.0.at_turn_start()
            }
            #[inline(always)]
            fn hash(&self) -> u64 {
                self.0.hash()
            }
            fn compute_hash(&self) -> u64 {
                self.0.compute_hash()
            }
            #[inline(always)]
            fn legal_steps(&self, list: &mut StepList) {
                self.0.legal_steps(list)
            }
            #[inline(always)]
            fn count_steps(&self) -> u64 {
                self.0.count_steps()
            }
            fn is_legal(&self, step: Step) -> bool {
                self.0.is_legal(step)
            }
            #[inline(always)]
            fn make(&mut self, step: Step) -> Undo<$turn> {
                self.0.make(step)
            }
            fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> Undo<$turn> {
                self.0.make_reporting(step, fx)
            }
            #[inline(always)]
            fn unmake(&mut self, step: Step, undo: Undo<$turn>) {
                self.0.unmake(step, undo)
            }
            fn without_steps(&self) -> (Outcome, EndReason) {
                no_legal_turn(&self.0)
            }
            #[inline(always)]
            fn unit_at(&self, sq: Square) -> Option<Unit> {
                self.0.unit_at(sq).copied()
            }
            #[inline(always)]
            fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
                self.0.units().for_each(|u| f(*u))
            }
            fn in_hand(&self, side: Side, kind: u8) -> u8 {
                self.0.pocket(side).get(kind as usize).copied().unwrap_or(0)
            }
            fn to_text(&self) -> String {
                self.0.to_text()
            }
            fn step_text(&self, step: Step) -> String {
                self.0.step_text(step)
            }
            fn parse_step(&self, text: &str) -> Result<Step, StepError> {
                self.0.parse_step(text)
            }
        }

        impl SearchHooks for $name {
            fn search_profile(&self) -> SearchProfile {
                self.0.search_profile()
            }
            fn occupied(&self, side: Side) -> Bitboard {
                self.0.occupied(side)
            }
            fn commanded(&self, side: Side) -> Bitboard {
                self.0.commanded_units(side)
            }
            fn destinations(&self, from: Square) -> Bitboard {
                self.0.destinations(from)
            }
            fn moved_this_turn(&self) -> Bitboard {
                self.0.turn().moved()
            }
            /// At a turn start only: the turn passes as `end` would pass it, nothing moved.
            fn make_null(&mut self) -> Option<Undo<$turn>> {
                if !self.at_turn_start() || self.0.outcome.is_some() {
                    return None;
                }
                let undo = self.0.undo_record();
                self.0.end_turn();
                Some(undo)
            }
            fn unmake_null(&mut self, undo: Undo<$turn>) {
                self.0.unmake(Step::END, undo)
            }
        }

        impl Explain for $name {
            fn pinned_at(&self, sq: Square) -> Option<Unit> {
                self.0.pinned_at(sq).copied()
            }
            fn movable_units(&self) -> Bitboard {
                self.0.movable_units()
            }
            fn why_not(&self, from: Square) -> Illegal {
                self.0.why_illegal(from, from)
            }
            fn command_view(&self) -> CommandView {
                self.0.command_view()
            }
            fn refusal(&self, step: Step) -> StepError {
                self.0.refusal(step)
            }
        }
    };
}

/// The unit-moving command models (single, chain, range, lead): the Chesimals, Chieftain
/// and Fusion games, told apart by their variant data (command/).
#[derive(Clone)]
pub struct CommandGame(CommandBoard);
board_family!(CommandGame, CommandTurn);

/// Lifeform Chess: a body whose parts drag each other along (body/).
#[derive(Clone)]
pub struct BodyGame(BodyBoard);
board_family!(BodyGame, BodyTurn);

/// What `Position::unmake` needs: the family's own undo.
#[derive(Copy, Clone, Debug)]
pub enum AnyUndo {
    Command(Undo<CommandTurn>),
    Body(Undo<BodyTurn>),
    Fide(FideUndo),
    Chessma(ChessmaUndo),
    Outside(OutsideUndo),
}

/// Calls `$call` on the family inside `$self` (the enum's one dispatch).
macro_rules! each {
    ($self:expr, $g:ident => $call:expr) => {
        match $self {
            Position::Command($g) => $call,
            Position::Body($g) => $call,
            Position::Fide($g) => $call,
            Position::Chessma($g) => $call,
            Position::Outside($g) => $call,
        }
    };
}

/// Any family through one type, dispatching each call (for code off the hot paths; search
/// and perft go through `visit` and run monomorphised).
impl Rules for Position {
    type Undo = AnyUndo;
    fn variant(&self) -> &Arc<Variant> {
        each!(self, g => g.variant())
    }
    fn side_to_move(&self) -> Side {
        each!(self, g => g.side_to_move())
    }
    fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }
    fn end_reason(&self) -> EndReason {
        each!(self, g => g.end_reason())
    }
    fn at_turn_start(&self) -> bool {
        each!(self, g => g.at_turn_start())
    }
    fn hash(&self) -> u64 {
        each!(self, g => g.hash())
    }
    fn compute_hash(&self) -> u64 {
        each!(self, g => g.compute_hash())
    }
    fn legal_steps(&self, list: &mut StepList) {
        each!(self, g => g.legal_steps(list))
    }
    fn count_steps(&self) -> u64 {
        each!(self, g => g.count_steps())
    }
    fn is_legal(&self, step: Step) -> bool {
        each!(self, g => g.is_legal(step))
    }
    fn make(&mut self, step: Step) -> AnyUndo {
        match self {
            Position::Command(g) => AnyUndo::Command(g.make(step)),
            Position::Body(g) => AnyUndo::Body(g.make(step)),
            Position::Fide(g) => AnyUndo::Fide(g.make(step)),
            Position::Chessma(g) => AnyUndo::Chessma(g.make(step)),
            Position::Outside(g) => AnyUndo::Outside(g.make(step)),
        }
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> AnyUndo {
        match self {
            Position::Command(g) => AnyUndo::Command(g.make_reporting(step, fx)),
            Position::Body(g) => AnyUndo::Body(g.make_reporting(step, fx)),
            Position::Fide(g) => AnyUndo::Fide(g.make_reporting(step, fx)),
            Position::Chessma(g) => AnyUndo::Chessma(g.make_reporting(step, fx)),
            Position::Outside(g) => AnyUndo::Outside(g.make_reporting(step, fx)),
        }
    }
    fn unmake(&mut self, step: Step, undo: AnyUndo) {
        match (self, undo) {
            (Position::Command(g), AnyUndo::Command(u)) => g.unmake(step, u),
            (Position::Body(g), AnyUndo::Body(u)) => g.unmake(step, u),
            (Position::Fide(g), AnyUndo::Fide(u)) => g.unmake(step, u),
            (Position::Chessma(g), AnyUndo::Chessma(u)) => g.unmake(step, u),
            (Position::Outside(g), AnyUndo::Outside(u)) => g.unmake(step, u),
            _ => panic!("an undo record of another family"),
        }
    }
    fn without_steps(&self) -> (Outcome, EndReason) {
        each!(self, g => g.without_steps())
    }
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        each!(self, g => g.unit_at(sq))
    }
    fn for_each_unit(&self, f: impl FnMut(Unit)) {
        each!(self, g => g.for_each_unit(f))
    }
    fn in_hand(&self, side: Side, kind: u8) -> u8 {
        each!(self, g => g.in_hand(side, kind))
    }
    fn automatic_draw(&self) -> Option<EndReason> {
        each!(self, g => g.automatic_draw())
    }
    fn to_text(&self) -> String {
        each!(self, g => g.to_text())
    }
    fn step_text(&self, step: Step) -> String {
        each!(self, g => g.step_text(step))
    }
    fn parse_step(&self, text: &str) -> Result<Step, StepError> {
        each!(self, g => g.parse_step(text))
    }
}

impl SearchHooks for Position {
    fn search_profile(&self) -> SearchProfile {
        each!(self, g => g.search_profile())
    }
    fn candidate_steps(&self, list: &mut StepList) {
        each!(self, g => g.candidate_steps(list))
    }
    /// Candidates may be pseudo-legal in one of the families.
    const CANDIDATES_ARE_LEGAL: bool = false;
    fn make_if_legal(&mut self, step: Step) -> Option<AnyUndo> {
        match self {
            Position::Command(g) => g.make_if_legal(step).map(AnyUndo::Command),
            Position::Body(g) => g.make_if_legal(step).map(AnyUndo::Body),
            Position::Fide(g) => g.make_if_legal(step).map(AnyUndo::Fide),
            Position::Chessma(g) => g.make_if_legal(step).map(AnyUndo::Chessma),
            Position::Outside(g) => g.make_if_legal(step).map(AnyUndo::Outside),
        }
    }
    fn has_legal_step(&self) -> bool {
        each!(self, g => g.has_legal_step())
    }
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64> {
        each!(self, g => g.own_perft(depth, made))
    }
    fn commanded(&self, side: Side) -> Bitboard {
        each!(self, g => g.commanded(side))
    }
    fn destinations(&self, from: Square) -> Bitboard {
        each!(self, g => g.destinations(from))
    }
    fn frozen(&self, side: Side) -> Bitboard {
        each!(self, g => g.frozen(side))
    }
    fn may_capture_elsewhere(&self, step: Step) -> bool {
        each!(self, g => g.may_capture_elsewhere(step))
    }
    fn royals(&self, side: Side) -> Bitboard {
        each!(self, g => g.royals(side))
    }
    fn occupied(&self, side: Side) -> Bitboard {
        each!(self, g => g.occupied(side))
    }
    fn units_of(&self, side: Side, kind: u8) -> Bitboard {
        each!(self, g => g.units_of(side, kind))
    }
    fn in_check(&self) -> bool {
        each!(self, g => g.in_check())
    }
    fn moved_this_turn(&self) -> Bitboard {
        each!(self, g => g.moved_this_turn())
    }
    fn make_null(&mut self) -> Option<AnyUndo> {
        match self {
            Position::Command(g) => g.make_null().map(AnyUndo::Command),
            Position::Body(g) => g.make_null().map(AnyUndo::Body),
            Position::Fide(g) => g.make_null().map(AnyUndo::Fide),
            Position::Chessma(g) => g.make_null().map(AnyUndo::Chessma),
            Position::Outside(g) => g.make_null().map(AnyUndo::Outside),
        }
    }
    fn unmake_null(&mut self, undo: AnyUndo) {
        match (self, undo) {
            (Position::Command(g), AnyUndo::Command(u)) => g.unmake_null(u),
            (Position::Body(g), AnyUndo::Body(u)) => g.unmake_null(u),
            (Position::Fide(g), AnyUndo::Fide(u)) => g.unmake_null(u),
            (Position::Chessma(g), AnyUndo::Chessma(u)) => g.unmake_null(u),
            (Position::Outside(g), AnyUndo::Outside(u)) => g.unmake_null(u),
            _ => panic!("an undo record of another family"),
        }
    }
}

impl Explain for Position {
    fn pinned_at(&self, sq: Square) -> Option<Unit> {
        each!(self, g => g.pinned_at(sq))
    }
    fn movable_units(&self) -> Bitboard {
        each!(self, g => g.movable_units())
    }
    fn step_origins(&self, step: Step) -> Bitboard {
        each!(self, g => g.step_origins(step))
    }
    fn why_not(&self, from: Square) -> Illegal {
        each!(self, g => g.why_not(from))
    }
    fn refusal(&self, step: Step) -> StepError {
        each!(self, g => g.refusal(step))
    }
    fn command_view(&self) -> CommandView {
        each!(self, g => g.command_view())
    }
    fn rules_text(&self) -> crate::view::RulesText {
        each!(self, g => g.rules_text())
    }
    fn piece_targets(
        &self,
        kind: usize,
        side: Side,
        from: Square,
        on_board: bool,
    ) -> Option<(Bitboard, Bitboard)> {
        each!(self, g => g.piece_targets(kind, side, from, on_board))
    }
    fn capture_squares_of(&self, steps: &[Step]) -> Vec<Vec<Square>> {
        each!(self, g => g.capture_squares_of(steps))
    }
    fn checkers(&self) -> Vec<crate::view::Checker> {
        each!(self, g => g.checkers())
    }
}
