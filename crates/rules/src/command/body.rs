//! The body command model: Daniel MacDuff's Lifeform Chess (RULES.md section 6).
//!
//! A turn is one main move (Head, Torso, Hand or Foot, not pinned), then one-square follower
//! steps of the own Hair and Limbs that stood next to the main piece's start square, then
//! `end`. A Hand landing on an enemy piece may pin it (`~`) instead of capturing: both share
//! the square, `board` holding the Hand and `under` the pinned piece. At `end` the
//! regulations remove every disconnected part of both sides (repeated until stable) and loss
//! is judged. Every change goes through the stacked-square changes of journal.rs, so a step
//! costs its own changes (no snapshot of the board and units).

use crate::bitboard::{Bitboard, Square};
use crate::command::flood_connected;
use crate::error::Illegal;
use crate::geometry::DIRECTIONS;
use crate::outcome::{Outcome, Side, NO_UNIT};
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind};
use crate::unit_board::{UnitBoard, MAX_UNITS};
use crate::variant::{BodyRole, Variant};

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

impl UnitBoard {
    fn role(&self, id: u8) -> Option<BodyRole> {
        self.variant.pieces[self.units[id as usize].kind as usize].role
    }

    /// `side`'s body, read from the index of parts (`UnitBoard::parts`).
    #[inline(always)]
    fn body(&self, side: Side) -> Body {
        let p = &self.parts[side.index()];
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
    pub(crate) fn placing(&self) -> bool {
        self.turn.body.placing || self.pocket[self.side.index()].iter().any(|&n| n > 0)
    }

    /// Why `side`'s body breaks a regulation or lacks a Neck, naming the first piece at fault.
    pub(crate) fn body_problem(&self, side: Side) -> Option<String> {
        let left: u32 = self.pocket[side.index()].iter().map(|&n| n as u32).sum();
        if left > 0 {
            return Some(format!("{left} piece(s) still to place"));
        }
        let bad = self.body(side).unlinked();
        let geo = &self.variant.geometry;
        let name = |sq| geo.square_name(sq);
        if let Some(sq) = bad.limbs.first() {
            return Some(format!(
                "the Limb on {} is not linked to the Torso (next to it, or through adjacent Limbs)",
                name(sq)
            ));
        }
        if let Some(sq) = bad.hands_feet.first() {
            let what = self.unit_at(sq).map_or("piece".into(), |u| {
                self.variant.pieces[u.kind as usize].name.clone()
            });
            return Some(format!(
                "the {what} on {} is not next to a Limb linked to the Torso",
                name(sq)
            ));
        }
        if let Some(sq) = bad.hair.first() {
            return Some(format!(
                "the Hair on {} is not linked to the Head, Torso, a Hand or a Foot",
                name(sq)
            ));
        }
        let neck_required = self.variant.placement.as_ref().is_none_or(|p| p.neck);
        if neck_required && self.body_lost(side) {
            return Some(
                "the Head and the Torso need a Neck: adjacent, or both next to one Limb".into(),
            );
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
        if self.placing() {
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

/// Play a step of the body model; `unmake` (journal.rs) reverts it.
/// The body's search profile: the Head and Torso are vital (the rules judge their loss,
/// no piece is royal), and a turn drags many parts along, most orders alike.
pub(crate) fn profile(variant: &Variant, p: &mut SearchProfile) {
    for (vital, piece) in p.vital.iter_mut().zip(&variant.pieces) {
        *vital |= matches!(piece.role, Some(BodyRole::Head | BodyRole::Torso));
    }
    p.reduce_in_turn = true;
}

pub(crate) fn make(pos: &mut UnitBoard, step: Step) {
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

impl UnitBoard {
    /// Why the own unit on `from` may not move now under the body model.
    pub(crate) fn why_body(&self, from: Square) -> Illegal {
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
    fn scanned(pos: &UnitBoard) -> [[Bitboard; crate::unit_board::BODY_ROLES]; 2] {
        let mut parts = [[Bitboard::EMPTY; crate::unit_board::BODY_ROLES]; 2];
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
                let mut pos = UnitBoard::parse(&variant, &variant.setup).expect("the start parses");
                assert_eq!(pos.parts, scanned(&pos));
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
                        let before = pos.parts;
                        let alive = pos.units.iter().filter(|u| u.alive).count();
                        let undo = pos.make(s);
                        assert_eq!(pos.parts, scanned(&pos), "after {s:?}");
                        if pos.units.iter().filter(|u| u.alive).count() < alive {
                            removals += 1;
                        }
                        pos.unmake(s, undo);
                        assert_eq!(pos.parts, before, "after taking {s:?} back");
                    }
                    let s = steps[(seed % steps.len() as u64) as usize];
                    pos.make(s);
                }
            }
        }
        assert!(removals > 100, "the games removed units {removals} times");
    }
}
