//! The body family: Daniel MacDuff's Lifeform Chess (RULES.md section 6), on the shared
//! unit core with state of its own (state.rs: the index of body parts, `BodyTurn`).
//!
//! A turn is one main move (Head, Torso, Hand or Foot, not pinned), then one-square follower
//! steps of the own Hair and Limbs that stood next to the main piece's start square, then
//! `end`. A Hand landing on an enemy piece may pin it (`~`) instead of capturing: both share
//! the square, `board` holding the Hand and `under` the pinned piece. At `end` the
//! regulations remove every disconnected part of both sides (repeated until stable) and loss
//! is judged. Every change goes through the stacked-square changes of journal.rs, so a step
//! costs its own changes (no snapshot of the board and units).

mod state;

use crate::bitboard::{Bitboard, Square};
use crate::command::flood_connected;
use crate::effects::Effects;
use crate::error::{Illegal, StepError, Unfinished};
use crate::geometry::DIRECTIONS;
use crate::outcome::{Outcome, Side, Unit, NO_UNIT};
use crate::position_error::PinProblem;
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind, StepList};
use crate::step_io::StepRules;
use crate::unit_board::{Undo, MAX_UNITS};
use crate::variant::{BodyRole, Variant};
use crate::view::CommandView;

pub(crate) use state::BodyBoard;
pub use state::{BodyPhase, BodyTurn};

/// One side's body parts as bitboards (pinned parts included: they still count for links).
struct Body {
    head: Bitboard,
    torso: Bitboard,
    hands_feet: Bitboard,
    hair: Bitboard,
    limbs: Bitboard,
}

/// The parts of one side's body that break a regulation (RULES.md section 6).
struct Unlinked {
    /// Limbs not linked to the Torso (next to it, or through adjacent Limbs).
    limbs: Bitboard,
    /// Hands and Feet with no linked Limb next to them (the Torso itself is not enough).
    hands_feet: Bitboard,
    /// Hair not next to the Head, Torso, a Hand or a Foot, nor to Hair that is.
    hair: Bitboard,
}

impl Body {
    /// What the regulations would remove of this body; `body_problem` names the first.
    #[inline(always)]
    fn unlinked(&self) -> Unlinked {
        let linked = flood_connected(self.torso.king_dilate() & self.limbs, self.limbs);
        let anchors = self.head | self.torso | self.hands_feet;
        let hair = flood_connected(self.hair & anchors.king_dilate(), self.hair);
        Unlinked {
            limbs: self.limbs & !linked,
            hands_feet: self.hands_feet & !linked.king_dilate(),
            hair: self.hair & !hair,
        }
    }
}

impl BodyBoard {
    fn role(&self, id: u8) -> Option<BodyRole> {
        self.variant.pieces[self.units[id as usize].kind as usize].role
    }

    /// `side`'s body, read from the index of parts (`BodyOwner::parts`).
    #[inline(always)]
    fn body(&self, side: Side) -> Body {
        let p = &self.own.parts[side.index()];
        Body {
            head: p[BodyRole::Head as usize],
            torso: p[BodyRole::Torso as usize],
            hands_feet: p[BodyRole::Hand as usize] | p[BodyRole::Foot as usize],
            hair: p[BodyRole::Hair as usize],
            limbs: p[BodyRole::Limb as usize],
        }
    }

    /// Squares holding a unit of `side` that is pinned under an enemy Hand.
    fn pinned(&self, side: Side) -> Bitboard {
        let mut p = Bitboard::EMPTY;
        for sq in self.shared.iter() {
            if self.units[self.under[sq.index()] as usize].side == side {
                p.set(sq);
            }
        }
        p
    }

    /// Enemy units the side to move may capture or pin: not Hair, not on a shared square.
    fn body_targets(&self) -> Bitboard {
        let enemy = self.side.other();
        self.occupied[enemy.index()] & !self.body(enemy).hair & !self.shared
    }

    /// Squares of the Hair and Limbs that may still make their follower step.
    fn followers(&self) -> Bitboard {
        let mut f = Bitboard::EMPTY;
        for d in 0..8 {
            if self.turn.body.follower_dirs >> d & 1 != 0 {
                f.set(
                    self.variant
                        .geometry
                        .ray(self.turn.body.main_from, d)
                        .squares[0],
                );
            }
        }
        f
    }

    /// True during a placement turn (free set-up), before the side's `end`.
    fn placing_turn(&self) -> bool {
        self.turn.body.placing || self.pocket[self.side.index()].iter().any(|&n| n > 0)
    }

    /// Why `side`'s body breaks a regulation or lacks a Neck, naming the first piece at fault.
    pub(crate) fn body_problem(&self, side: Side) -> Option<Unfinished> {
        let left: u32 = self.pocket[side.index()].iter().map(|&n| n as u32).sum();
        if left > 0 {
            return Some(Unfinished::PiecesLeft { count: left });
        }
        let bad = self.body(side).unlinked();
        let geo = &self.variant.geometry;
        if let Some(sq) = bad.limbs.first() {
            let square = geo.square_name(sq);
            return Some(Unfinished::LimbUnlinked { square });
        }
        if let Some(sq) = bad.hands_feet.first() {
            let piece = self.unit_at(sq).map_or("piece".into(), |u| {
                self.variant.pieces[u.kind as usize].name.clone()
            });
            let square = geo.square_name(sq);
            return Some(Unfinished::NotNextToLimb { piece, square });
        }
        if let Some(sq) = bad.hair.first() {
            let square = geo.square_name(sq);
            return Some(Unfinished::HairUnlinked { square });
        }
        let neck_required = self.variant.placement.as_ref().is_none_or(|p| p.neck);
        if neck_required && self.body_lost(side) {
            return Some(Unfinished::NoNeck);
        }
        None
    }

    /// Placement: the side's first `ranks` ranks.
    fn placement_zone(&self) -> Bitboard {
        let geo = &self.variant.geometry;
        let ranks = self.variant.placement.as_ref().map_or(0, |p| p.ranks);
        geo.squares
            .iter()
            .filter(|sq| match self.side {
                Side::White => sq.rank() < ranks,
                Side::Black => sq.rank() >= geo.ranks - ranks,
            })
            .collect()
    }

    /// Hand the legal steps of the body model to `emit`.
    pub(crate) fn for_each_body_step(&self, mut emit: impl FnMut(Step)) {
        if self.outcome.is_some() {
            return;
        }
        if self.placing_turn() {
            let zone = self.placement_zone() & !(self.occupied[0] | self.occupied[1]);
            for (kind, &n) in self.pocket[self.side.index()].iter().enumerate() {
                if n > 0 {
                    for sq in zone.iter() {
                        emit(Step::drop(kind as u8, sq));
                    }
                }
            }
            if self.turn.moves > 0 && self.body_problem(self.side).is_none() {
                emit(Step::END);
            }
            return;
        }
        let s = self.side.index();
        let empty = self.variant.geometry.squares & !(self.occupied[0] | self.occupied[1]);
        let targets = self.body_targets();
        if self.turn.moves == 0 {
            let pinned = self.pinned(self.side);
            for sq in (self.occupied[s] & !pinned).iter() {
                let id = self.board[sq.index()];
                let role = self.role(id);
                if matches!(role, Some(BodyRole::Hair | BodyRole::Limb) | None) {
                    continue; // Hair and Limbs never move on their own
                }
                let kind = self.units[id as usize].kind as usize;
                let moves = &self.variant.pieces[kind].movesets[s];
                for to in moves
                    .destinations(&self.variant.geometry, sq, empty, targets)
                    .iter()
                {
                    emit(Step::new(sq, to));
                    if role == Some(BodyRole::Hand) && targets.has(to) {
                        emit(Step {
                            from: sq,
                            to,
                            kind: StepKind::Pin,
                        });
                    }
                }
            }
            return;
        }
        let geo = &self.variant.geometry;
        for sq in self.followers().iter() {
            let mut d = geo.king(sq) & empty;
            if !self.turn.body.captured && self.role(self.board[sq.index()]) == Some(BodyRole::Limb)
            {
                d |= geo.king(sq) & targets;
            }
            for to in d.iter() {
                emit(Step::new(sq, to));
            }
        }
        emit(Step::END);
    }

    /// The regulations: every part of either side not connected to its body as RULES.md
    /// section 6 says, removed simultaneously, until none is left.
    fn apply_regulations(&mut self) {
        loop {
            let mut doomed = [Bitboard::EMPTY; 2];
            for side in [Side::White, Side::Black] {
                let bad = self.body(side).unlinked();
                doomed[side.index()] = bad.limbs | bad.hands_feet | bad.hair;
            }
            if (doomed[0] | doomed[1]).is_empty() {
                return;
            }
            // Removed simultaneously: every violator of either side (judged before any goes),
            // found from its square (a shared square holds one unit of each side), lifted in
            // id order as the record of the step lists them.
            let mut ids = [0u8; MAX_UNITS];
            let mut n = 0;
            for (s, set) in doomed.iter().enumerate() {
                for sq in set.iter() {
                    for id in [self.board[sq.index()], self.under[sq.index()]] {
                        if id != NO_UNIT && self.units[id as usize].side.index() == s {
                            ids[n] = id;
                            n += 1;
                        }
                    }
                }
            }
            if n == 0 {
                return; // (cannot happen while `parts` holds the living units)
            }
            ids[..n].sort_unstable();
            // Not captures: the regulations journal their removals as such.
            for &id in &ids[..n] {
                self.lift_uncaptured(id);
            }
        }
    }

    /// Has `side` lost: Head or Torso gone, or no Neck (adjacent, or a common adjacent Limb)?
    pub(crate) fn body_lost(&self, side: Side) -> bool {
        let b = self.body(side);
        let (Some(head), Some(torso)) = (b.head.first(), b.torso.first()) else {
            return true;
        };
        let geo = &self.variant.geometry;
        let adjacent = geo.king(head).has(torso);
        !adjacent && (geo.king(head) & geo.king(torso) & b.limbs).is_empty()
    }

    /// Squares of the units that may start a step now (for `movable_units`).
    pub(crate) fn body_movers(&self) -> Bitboard {
        let mut m = Bitboard::EMPTY;
        self.for_each_body_step(|s| {
            if !s.is_end() {
                m.set(s.from)
            }
        });
        m
    }
}

/// The body's search profile: the Head and Torso are vital (the rules judge their loss,
/// no piece is royal), and a turn drags many parts along, most orders alike.
fn profile(variant: &Variant, p: &mut SearchProfile) {
    for (vital, piece) in p.vital.iter_mut().zip(&variant.pieces) {
        *vital |= matches!(piece.role, Some(BodyRole::Head | BodyRole::Torso));
    }
    p.reduce_in_turn = true;
}

/// Play a step of the body; `unmake` (journal.rs) reverts it.
#[inline(never)]
fn play(pos: &mut BodyBoard, step: Step) {
    let mut turn = pos.turn;
    if let StepKind::Drop(kind) = step.kind {
        pos.drop_unit(kind, step.to);
        turn.moves += 1;
        turn.body.placing = true;
        turn.moved.set(step.to);
        pos.set_turn(turn);
        return;
    }
    if step.kind == StepKind::End && turn.body.placing {
        // The placement was checked before `end` was offered; the other side may not have
        // placed yet, so nothing is judged.
        pos.end_turn();
        return;
    }
    if step.kind == StepKind::End {
        pos.apply_regulations();
        let (w, b) = (pos.body_lost(Side::White), pos.body_lost(Side::Black));
        pos.outcome = match (w, b) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => Some(Outcome::Win(Side::Black)),
            (false, true) => Some(Outcome::Win(Side::White)),
            (false, false) => None,
        };
        pos.end_turn();
        return;
    }
    let (from, to) = (step.from, step.to);
    let s = pos.side;
    if turn.moves == 0 {
        // The followers are the Hair and Limbs next to the main piece's start, not pinned.
        let own = pos.body(s);
        let near = (own.hair | own.limbs) & !pos.pinned(s);
        turn.body.main_from = from;
        turn.body.follower_dirs = 0;
        for d in 0..8 {
            if pos
                .variant
                .geometry
                .ray(from, d)
                .as_slice()
                .first()
                .is_some_and(|n| near.has(*n))
            {
                turn.body.follower_dirs |= 1 << d;
            }
        }
    } else {
        let d = DIRECTIONS
            .iter()
            .position(|&(df, dr)| turn.body.main_from.offset(df, dr) == Some(from));
        turn.body.follower_dirs &= !(1 << d.expect("a follower stands next to the main start"));
    }
    let pin = step.kind == StepKind::Pin;
    if !pin && pos.board[to.index()] != crate::outcome::NO_UNIT {
        turn.body.captured = true;
    }
    pos.relocate_stacked(from, to, pin);
    turn.moves += 1;
    if turn.moved.has(from) {
        turn.moved.clear(from);
    }
    turn.moved.set(to);
    pos.set_turn(turn);
}

impl BodyBoard {
    /// Why the own unit on `from` may not move now under the body's rules.
    fn why_body(&self, from: Square) -> Illegal {
        let role = self
            .unit_at(from)
            .and_then(|u| self.variant.pieces[u.kind as usize].role);
        let follower = matches!(role, Some(BodyRole::Hair | BodyRole::Limb));
        if self.turn.moves == 0 && follower {
            Illegal::FollowerOnly
        } else if self.turn.moves == 0 {
            Illegal::Pinned
        } else if follower {
            Illegal::NotAFollower
        } else {
            Illegal::MainMoveMade
        }
    }
}

/// The family's answers (`Rules` for `BodyGame`, family.rs).
impl BodyBoard {
    /// True at the start of a turn (no step of it made yet).
    pub fn at_turn_start(&self) -> bool {
        self.turn.moves == 0
    }

    /// All legal steps now (NOTATION.md's step rules).
    pub fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        self.for_each_body_step(|s| list.push(s));
    }

    /// The number of legal steps, without listing them.
    #[inline]
    pub fn count_steps(&self) -> u64 {
        let mut n = 0;
        self.for_each_body_step(|_| n += 1);
        n
    }

    /// Play one step. The step must be legal (see `legal_steps`); `unmake` takes it back.
    #[inline(always)]
    pub fn make(&mut self, step: Step) -> Undo<BodyTurn> {
        let undo = self.undo_record();
        play(self, step);
        undo
    }

    /// Play one step as `make` does and say what it did (`fx` is cleared first).
    pub fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> Undo<BodyTurn> {
        fx.clear();
        let undo = self.make(step);
        self.report_journal(step, undo.mark as usize, fx);
        undo
    }

    /// Units of the side to move that may start a step now.
    pub fn movable_units(&self) -> Bitboard {
        if self.outcome.is_some() {
            return Bitboard::EMPTY;
        }
        self.body_movers()
    }

    /// Where the unit on `from` could go by its moves, ignoring whether it may move now.
    pub fn destinations(&self, from: Square) -> Bitboard {
        let u = &self.units[self.board[from.index()] as usize];
        let s = u.side.index();
        let enemy = self.occupied[s ^ 1];
        let empty = self.variant.geometry.squares & !(self.occupied[s] | enemy);
        self.variant.pieces[u.kind as usize].movesets[s].destinations(
            &self.variant.geometry,
            from,
            empty,
            enemy,
        )
    }

    /// Units of `side` under command at a turn start: a body commands all its parts.
    pub fn commanded_units(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    /// What a search should know of the body (`SearchHooks::search_profile`).
    pub fn search_profile(&self) -> SearchProfile {
        let mut p = SearchProfile::from_data(&self.variant);
        profile(&self.variant, &mut p);
        p
    }

    /// The command picture: the body has no leaders, links nor zones, only the turn's moves.
    pub fn command_view(&self) -> CommandView {
        CommandView {
            moves: self.turn.moves,
            ..CommandView::default()
        }
    }

    /// Lifeform: the unit written after `~`, pinned under the Hand just added on `sq`.
    pub(crate) fn add_pinned(
        &mut self,
        sq: Square,
        hand: usize,
        side: Side,
        letter: char,
    ) -> Result<(), PinProblem> {
        let v = self.variant.clone();
        if v.pieces[hand].role != Some(BodyRole::Hand) {
            return Err(PinProblem::NotAHand);
        }
        let kind = v
            .kind_of_letter(letter)
            .filter(|_| letter.is_ascii_alphabetic())
            .ok_or_else(|| PinProblem::NotAPiece {
                letter,
                variant: v.id.clone(),
            })?;
        let pinned_side = if letter.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        if pinned_side == side {
            return Err(PinProblem::OwnPiece);
        }
        if v.pieces[kind].role == Some(BodyRole::Hair) {
            return Err(PinProblem::Hair);
        }
        let top = self.board[sq.index()];
        self.add_unit(Unit {
            square: sq,
            kind: kind as u8,
            side: pinned_side,
            group: 0,
            alive: true,
        })
        .map_err(PinProblem::Unit)?;
        self.under[sq.index()] = self.board[sq.index()];
        self.board[sq.index()] = top;
        self.shared.set(sq);
        Ok(())
    }
}

impl StepRules for BodyBoard {
    fn is_legal(&self, step: Step) -> bool {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list.contains(step)
    }

    /// Why the unit on `from` may not go to `to` now.
    fn why_illegal(&self, from: Square, to: Square) -> Illegal {
        let _ = to;
        if let Some(why) = self.common_refusal(from, || self.movable_units()) {
            return why;
        }
        self.why_body(from)
    }

    /// A placement turn ends once the pieces placed obey the regulations (and have a Neck).
    fn end_refusal(&self) -> Illegal {
        // (With nothing wrong `end` would be legal: a problem is always found here.)
        match (self.placing_turn() && self.turn.moves > 0)
            .then(|| self.body_problem(self.side))
            .flatten()
        {
            Some(why) => Illegal::PlacementUnfinished(why),
            None => Illegal::EndTooEarly,
        }
    }

    fn placing(&self) -> bool {
        self.placing_turn()
    }

    fn parse_lead(
        &self,
        text: &str,
        _square: &str,
        _mode: Option<&str>,
    ) -> Result<Step, StepError> {
        Err(crate::step_io::no_lead_step(text, &self.variant))
    }
}

/// The body model's description (no settings): its statements for the rules page; no
/// leaders, no links, no command overlay.
#[derive(Copy, Clone)]
pub(crate) struct BodyModel;

impl crate::command::Describe for BodyModel {
    fn rules(&self, _v: &crate::variant::Variant) -> Vec<String> {
        vec![
            "A turn is one main move by a Head, Torso, Hand or Foot that is not pinned.".into(),
            "Then each own Hair and Limb that stood next to the main piece's start square may step once to an adjacent empty square (the vacated start square included), in any order.".into(),
            "At most one capture a turn: by the main move, or else by one follower Limb. A Hand arriving on an enemy piece may pin it instead of capturing it: the two then share the square until the Hand moves on.".into(),
            "Regulations, at the end of the turn: Hands and Feet must be linked to the Torso through adjacent own Limbs; each Limb must touch the Torso or be linked to it through Limbs; each Hair must touch its Head, Torso, a Hand or a Foot, directly or through other Hair. Every part of either side that breaks one is removed, repeatedly, until none does (removals are not captures).".into(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::StepList;

    /// The index of parts as a scan of the living units would find it.
    fn scanned(pos: &BodyBoard) -> [[Bitboard; state::BODY_ROLES]; 2] {
        let mut parts = [[Bitboard::EMPTY; state::BODY_ROLES]; 2];
        for u in pos.units.iter().filter(|u| u.alive) {
            if let Some(role) = pos.variant.pieces[u.kind as usize].role {
                parts[u.side.index()][role as usize].set(u.square);
            }
        }
        parts
    }

    /// Random games of Lifeform (captures, pins, regulations, placements) keep `parts` equal
    /// to a scan after every step and after taking each back.
    #[test]
    fn the_index_of_parts_follows_every_step_and_its_undo() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut removals = 0;
        for id in ["lifeform", "lifeform-free"] {
            let variant = crate::builtin(id).expect("a built-in variant");
            for _game in 0..20 {
                let mut pos = BodyBoard::parse(&variant, &variant.setup).expect("the start parses");
                assert_eq!(pos.own.parts, scanned(&pos));
                for _ in 0..300 {
                    let mut list = StepList::new();
                    pos.legal_steps(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let steps: Vec<Step> = list.iter().copied().collect();
                    // Every step is tried and taken back, then one is kept.
                    for &s in &steps {
                        let before = pos.own.parts;
                        let alive = pos.units.iter().filter(|u| u.alive).count();
                        let undo = pos.make(s);
                        assert_eq!(pos.own.parts, scanned(&pos), "after {s:?}");
                        if pos.units.iter().filter(|u| u.alive).count() < alive {
                            removals += 1;
                        }
                        pos.unmake(s, undo);
                        assert_eq!(pos.own.parts, before, "after taking {s:?} back");
                    }
                    let s = steps[(seed % steps.len() as u64) as usize];
                    pos.make(s);
                }
            }
        }
        assert!(removals > 100, "the games removed units {removals} times");
    }
}
