//! Families written outside this crate, behind one boxed object (`OutsideGame`): the
//! `Position` enum holds one in its `Outside` arm, so that everything written on `Position`
//! (games, records, matches, the server, the web) plays it as it plays a built-in family.
//! Each call goes through a virtual call; docs/benchmarks.md gives the search speed this
//! costs against the same family searched directly.
//!
//! `Rules` itself is not object safe (an associated undo type, generic callbacks), so a
//! family is wrapped in `Holder`, which keeps the family's undo records on a stack of its
//! own and hands out its depth as the undo: steps are always taken back last first.

use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::effects::Effects;
use crate::error::{Illegal, StepError};
use crate::interface::Rules;
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepList};
use crate::variant::Variant;
use crate::view::{CommandView, RulesText};

/// A position of a family from outside this crate.
pub struct OutsideGame(Box<dyn Erased>);

/// What `OutsideGame::unmake` needs: the depth of the family's own undo stack before the
/// step (the record itself stays with the family).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutsideUndo(u32);

impl OutsideGame {
    /// Wrap a position of any family.
    pub fn new<R: Rules>(game: R) -> OutsideGame {
        OutsideGame(Box::new(Holder {
            game,
            undos: Vec::new(),
        }))
    }
}

impl Clone for OutsideGame {
    fn clone(&self) -> Self {
        OutsideGame(self.0.clone_box())
    }
}

/// `Rules` in an object-safe form; `Holder` implements it for every family.
trait Erased: Send + Sync {
    fn clone_box(&self) -> Box<dyn Erased>;
    fn variant(&self) -> &Arc<Variant>;
    fn side_to_move(&self) -> Side;
    fn outcome(&self) -> Option<Outcome>;
    fn end_reason(&self) -> EndReason;
    fn search_profile(&self) -> SearchProfile;
    fn at_turn_start(&self) -> bool;
    fn hash(&self) -> u64;
    fn compute_hash(&self) -> u64;
    fn legal_steps(&self, list: &mut StepList);
    fn count_steps(&self) -> u64;
    fn is_legal(&self, step: Step) -> bool;
    fn candidate_steps(&self, list: &mut StepList);
    fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo>;
    fn has_legal_step(&self) -> bool;
    fn make(&mut self, step: Step) -> OutsideUndo;
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo;
    fn unmake(&mut self, step: Step, undo: OutsideUndo);
    fn without_steps(&self) -> (Outcome, EndReason);
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64>;
    fn unit_at(&self, sq: Square) -> Option<Unit>;
    fn for_each_unit(&self, f: &mut dyn FnMut(Unit));
    fn commanded(&self, side: Side) -> Bitboard;
    fn may_capture_elsewhere(&self, step: Step) -> bool;
    fn destinations(&self, from: Square) -> Bitboard;
    fn occupied(&self, side: Side) -> Bitboard;
    fn units_of(&self, side: Side, kind: u8) -> Bitboard;
    fn royals(&self, side: Side) -> Bitboard;
    fn frozen(&self, side: Side) -> Bitboard;
    fn in_hand(&self, side: Side, kind: u8) -> u8;
    fn in_check(&self) -> bool;
    fn pinned_at(&self, sq: Square) -> Option<Unit>;
    fn moved_this_turn(&self) -> Bitboard;
    fn automatic_draw(&self) -> Option<EndReason>;
    fn movable_units(&self) -> Bitboard;
    fn step_origins(&self, step: Step) -> Bitboard;
    fn why_not(&self, from: Square) -> Illegal;
    fn refusal(&self, step: Step) -> StepError;
    fn rules_text(&self) -> RulesText;
    fn piece_targets(
        &self,
        kind: usize,
        side: Side,
        from: Square,
        on_board: bool,
    ) -> Option<(Bitboard, Bitboard)>;
    fn command_view(&self) -> CommandView;
    fn to_text(&self) -> String;
    fn step_text(&self, step: Step) -> String;
    fn parse_step(&self, text: &str) -> Result<Step, StepError>;
}

/// A family's position and the undo records of the steps made on it and not yet taken back.
#[derive(Clone)]
struct Holder<R: Rules> {
    game: R,
    undos: Vec<R::Undo>,
}

impl<R: Rules> Holder<R> {
    #[inline]
    fn push(&mut self, undo: R::Undo) -> OutsideUndo {
        self.undos.push(undo);
        OutsideUndo(self.undos.len() as u32 - 1)
    }
}

impl<R: Rules> Erased for Holder<R> {
    fn clone_box(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }
    fn variant(&self) -> &Arc<Variant> {
        self.game.variant()
    }
    fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn end_reason(&self) -> EndReason {
        self.game.end_reason()
    }
    fn search_profile(&self) -> SearchProfile {
        self.game.search_profile()
    }
    fn at_turn_start(&self) -> bool {
        self.game.at_turn_start()
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn compute_hash(&self) -> u64 {
        self.game.compute_hash()
    }
    fn legal_steps(&self, list: &mut StepList) {
        self.game.legal_steps(list)
    }
    fn count_steps(&self) -> u64 {
        self.game.count_steps()
    }
    fn is_legal(&self, step: Step) -> bool {
        self.game.is_legal(step)
    }
    fn candidate_steps(&self, list: &mut StepList) {
        self.game.candidate_steps(list)
    }
    fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo> {
        let undo = self.game.make_if_legal(step)?;
        Some(self.push(undo))
    }
    fn has_legal_step(&self) -> bool {
        self.game.has_legal_step()
    }
    fn make(&mut self, step: Step) -> OutsideUndo {
        let undo = self.game.make(step);
        self.push(undo)
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo {
        let undo = self.game.make_reporting(step, fx);
        self.push(undo)
    }
    fn unmake(&mut self, step: Step, undo: OutsideUndo) {
        assert_eq!(
            undo.0 as usize + 1,
            self.undos.len(),
            "steps are taken back last first"
        );
        let record = self.undos.pop().expect("an undo record");
        self.game.unmake(step, record)
    }
    fn without_steps(&self) -> (Outcome, EndReason) {
        self.game.without_steps()
    }
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64> {
        self.game.own_perft(depth, made)
    }
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        self.game.unit_at(sq)
    }
    fn for_each_unit(&self, f: &mut dyn FnMut(Unit)) {
        self.game.for_each_unit(f)
    }
    fn commanded(&self, side: Side) -> Bitboard {
        self.game.commanded(side)
    }
    fn may_capture_elsewhere(&self, step: Step) -> bool {
        self.game.may_capture_elsewhere(step)
    }
    fn destinations(&self, from: Square) -> Bitboard {
        self.game.destinations(from)
    }
    fn occupied(&self, side: Side) -> Bitboard {
        self.game.occupied(side)
    }
    fn units_of(&self, side: Side, kind: u8) -> Bitboard {
        self.game.units_of(side, kind)
    }
    fn royals(&self, side: Side) -> Bitboard {
        self.game.royals(side)
    }
    fn frozen(&self, side: Side) -> Bitboard {
        self.game.frozen(side)
    }
    fn in_hand(&self, side: Side, kind: u8) -> u8 {
        self.game.in_hand(side, kind)
    }
    fn in_check(&self) -> bool {
        self.game.in_check()
    }
    fn pinned_at(&self, sq: Square) -> Option<Unit> {
        self.game.pinned_at(sq)
    }
    fn moved_this_turn(&self) -> Bitboard {
        self.game.moved_this_turn()
    }
    fn automatic_draw(&self) -> Option<EndReason> {
        self.game.automatic_draw()
    }
    fn movable_units(&self) -> Bitboard {
        self.game.movable_units()
    }
    fn step_origins(&self, step: Step) -> Bitboard {
        self.game.step_origins(step)
    }
    fn why_not(&self, from: Square) -> Illegal {
        self.game.why_not(from)
    }
    fn refusal(&self, step: Step) -> StepError {
        self.game.refusal(step)
    }
    fn rules_text(&self) -> RulesText {
        self.game.rules_text()
    }
    fn piece_targets(
        &self,
        kind: usize,
        side: Side,
        from: Square,
        on_board: bool,
    ) -> Option<(Bitboard, Bitboard)> {
        self.game.piece_targets(kind, side, from, on_board)
    }
    fn command_view(&self) -> CommandView {
        self.game.command_view()
    }
    fn to_text(&self) -> String {
        self.game.to_text()
    }
    fn step_text(&self, step: Step) -> String {
        self.game.step_text(step)
    }
    fn parse_step(&self, text: &str) -> Result<Step, StepError> {
        self.game.parse_step(text)
    }
}

/// The wrapped family, through the object.
impl Rules for OutsideGame {
    type Undo = OutsideUndo;
    fn variant(&self) -> &Arc<Variant> {
        self.0.variant()
    }
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn end_reason(&self) -> EndReason {
        self.0.end_reason()
    }
    fn search_profile(&self) -> SearchProfile {
        self.0.search_profile()
    }
    fn at_turn_start(&self) -> bool {
        self.0.at_turn_start()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn compute_hash(&self) -> u64 {
        self.0.compute_hash()
    }
    fn legal_steps(&self, list: &mut StepList) {
        self.0.legal_steps(list)
    }
    fn count_steps(&self) -> u64 {
        self.0.count_steps()
    }
    fn is_legal(&self, step: Step) -> bool {
        self.0.is_legal(step)
    }
    fn candidate_steps(&self, list: &mut StepList) {
        self.0.candidate_steps(list)
    }
    /// The wrapped family may list pseudo-legal candidates.
    const CANDIDATES_ARE_LEGAL: bool = false;
    fn make_if_legal(&mut self, step: Step) -> Option<OutsideUndo> {
        self.0.make_if_legal(step)
    }
    fn has_legal_step(&self) -> bool {
        self.0.has_legal_step()
    }
    fn make(&mut self, step: Step) -> OutsideUndo {
        self.0.make(step)
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> OutsideUndo {
        self.0.make_reporting(step, fx)
    }
    fn unmake(&mut self, step: Step, undo: OutsideUndo) {
        self.0.unmake(step, undo)
    }
    fn without_steps(&self) -> (Outcome, EndReason) {
        self.0.without_steps()
    }
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64> {
        self.0.own_perft(depth, made)
    }
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        self.0.unit_at(sq)
    }
    fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
        self.0.for_each_unit(&mut f)
    }
    fn commanded(&self, side: Side) -> Bitboard {
        self.0.commanded(side)
    }
    fn may_capture_elsewhere(&self, step: Step) -> bool {
        self.0.may_capture_elsewhere(step)
    }
    fn destinations(&self, from: Square) -> Bitboard {
        self.0.destinations(from)
    }
    fn occupied(&self, side: Side) -> Bitboard {
        self.0.occupied(side)
    }
    fn units_of(&self, side: Side, kind: u8) -> Bitboard {
        self.0.units_of(side, kind)
    }
    fn royals(&self, side: Side) -> Bitboard {
        self.0.royals(side)
    }
    fn frozen(&self, side: Side) -> Bitboard {
        self.0.frozen(side)
    }
    fn in_hand(&self, side: Side, kind: u8) -> u8 {
        self.0.in_hand(side, kind)
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn pinned_at(&self, sq: Square) -> Option<Unit> {
        self.0.pinned_at(sq)
    }
    fn moved_this_turn(&self) -> Bitboard {
        self.0.moved_this_turn()
    }
    fn automatic_draw(&self) -> Option<EndReason> {
        self.0.automatic_draw()
    }
    fn movable_units(&self) -> Bitboard {
        self.0.movable_units()
    }
    fn step_origins(&self, step: Step) -> Bitboard {
        self.0.step_origins(step)
    }
    fn why_not(&self, from: Square) -> Illegal {
        self.0.why_not(from)
    }
    fn refusal(&self, step: Step) -> StepError {
        self.0.refusal(step)
    }
    fn rules_text(&self) -> RulesText {
        self.0.rules_text()
    }
    fn piece_targets(
        &self,
        kind: usize,
        side: Side,
        from: Square,
        on_board: bool,
    ) -> Option<(Bitboard, Bitboard)> {
        self.0.piece_targets(kind, side, from, on_board)
    }
    fn command_view(&self) -> CommandView {
        self.0.command_view()
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
