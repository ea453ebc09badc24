//! The range model (the Chieftain family, RULES.md section 5): the mover set is matched per
//! step. Each leader activates `activations` units a turn (itself included) within `range`
//! (king distance), measured when that unit's move starts; a sequence of moves is legal iff
//! the moves can be matched to distinct leader activations that way. The turn keeps the set
//! of feasible matchings as a bit set over leader subsets, so each step is checked in
//! constant time.

use crate::bitboard::{Bitboard, Square};
use crate::command::{leader_names, CommandBoard, Describe, LeaderAt};
use crate::error::Illegal;
use crate::outcome::Side;
use crate::variant::Variant;
use crate::view::{CommandView, LeaderCommand, LeaderView};
use crate::words::letters_named;
use crate::zobrist::ZOBRIST;

/// The range model's settings, read from the variant.
#[derive(Copy, Clone)]
pub(crate) struct Range {
    pub range: u8,
    pub activations: u8,
}

/// The squares a leader on `at` commands: within the variant's `range` (king distance).
#[inline(always)]
pub(crate) fn zone(v: &Variant, at: Square) -> Bitboard {
    v.range_box[at.index()]
}

/// The feasible leader subsets after one more move that the leaders in `covering` could
/// have activated (each subset gains one leader it did not yet use).
#[inline]
pub(crate) fn extend_matching(feasible: u64, covering: u8) -> u64 {
    let mut next = 0u64;
    let mut f = feasible;
    while f != 0 {
        let s = f.trailing_zeros() as u8;
        f &= f - 1;
        let mut free = covering & !s;
        while free != 0 {
            let c = free.trailing_zeros();
            free &= free - 1;
            next |= 1 << (s | 1 << c);
        }
    }
    next
}

/// Leaders that are unused in at least one feasible matching.
#[inline]
pub(crate) fn available_leaders(feasible: u64) -> u8 {
    let mut avail = 0u8;
    let mut f = feasible;
    while f != 0 {
        let s = f.trailing_zeros() as u8;
        f &= f - 1;
        avail |= !s;
    }
    avail
}

/// Leaders of the side to move within activation range of `sq`, as a bit mask of slots.
#[inline(always)]
fn covering(pos: &CommandBoard, sq: Square) -> u8 {
    if pos.variant.restricted_activation {
        let kind = pos.units[pos.board[sq.index()] as usize].kind;
        covering_by(pos, sq, |leader| {
            (pos.variant.activates[leader as usize] >> kind) as u8 & 1
        })
    } else {
        // Every leader activates every kind (the Chieftain games): one test fewer a leader.
        covering_by(pos, sq, |_| 1)
    }
}

/// The slots of living leaders within range of `sq` for which `activates(leader kind)` is 1.
#[inline(always)]
fn covering_by(pos: &CommandBoard, sq: Square, activates: impl Fn(u8) -> u8) -> u8 {
    let s = pos.side.index();
    let boxes = &pos.variant.range_box;
    let mut m = 0;
    for i in 0..pos.own.activator_count[s] as usize {
        let u = &pos.units[pos.own.activators[s][i] as usize];
        // Without branches: which leaders cover a move is data the branch predictor cannot
        // learn (the `&&` form was a twentieth of made-leaf perft in Chieftain).
        let near = boxes[u.square.index()].has(sq) as u8;
        m |= (u.alive as u8 & near & activates(u.kind)) << i;
    }
    m
}

/// Which units may start a move now: within range of a leader still free in some matching.
#[inline(always)]
pub(crate) fn movers(pos: &CommandBoard) -> Bitboard {
    let s = pos.side.index();
    let avail = available_leaders(pos.turn.range.feasible);
    let mut zone = Bitboard::EMPTY;
    for i in 0..pos.own.activator_count[s] as usize {
        let u = &pos.units[pos.own.activators[s][i] as usize];
        if avail >> i & 1 != 0 && u.alive {
            let mut reach = self::zone(&pos.variant, u.square);
            if pos.variant.restricted_activation {
                reach &= pos.units_of_kinds(pos.variant.activates[u.kind as usize]);
            }
            zone |= reach;
        }
    }
    pos.occupied[s] & zone & !pos.turn.moved
}

/// Units of `side` within some leader's range (the engine's evaluation).
pub(crate) fn commanded(pos: &CommandBoard, side: Side) -> Bitboard {
    let s = side.index();
    let mut zone = Bitboard::EMPTY;
    for i in 0..pos.own.activator_count[s] as usize {
        let u = &pos.units[pos.own.activators[s][i] as usize];
        if u.alive {
            zone |= self::zone(&pos.variant, u.square);
        }
    }
    pos.occupied[s] & zone
}

/// The turn state after the unit on `from` starts a move (leaders judged where they stand).
#[inline(always)]
pub(crate) fn on_move(pos: &mut CommandBoard, from: Square) {
    let next = extend_matching(pos.turn.range.feasible, covering(pos, from));
    pos.hash ^= ZOBRIST.feasible_key(pos.turn.range.feasible) ^ ZOBRIST.feasible_key(next);
    pos.turn.range.feasible = next;
}

/// Why the own unit on `from` may not move now.
pub(crate) fn why(pos: &CommandBoard, from: Square, range: u8) -> Illegal {
    if pos.turn.moved.has(from) {
        Illegal::AlreadyMoved
    } else {
        Illegal::NoActivator { range }
    }
}

impl Describe for Range {
    fn view(&self, pos: &CommandBoard) -> CommandView {
        let s = pos.side.index();
        let avail = available_leaders(pos.turn.range.feasible);
        let mut view = CommandView {
            moves: pos.turn.moves,
            moves_cap: Some(pos.own.activator_count[s]),
            range: Some(self.range),
            ..CommandView::default()
        };
        for (id, sq, _) in pos.own_leaders() {
            let slots = (0..pos.own.activator_count[s] as usize)
                .filter(|&i| pos.own.activators[s][i] as usize == id);
            let mut available = false;
            for i in slots {
                available |= avail >> i & 1 != 0;
            }
            view.leaders.push(LeaderView {
                square: sq,
                available,
                zone: zone(&pos.variant, sq),
            });
        }
        view
    }

    /// The own units within its range (those of the kinds it activates), as `movers`
    /// finds them for a leader still free.
    fn leader(&self, v: &Variant, at: &LeaderAt) -> Option<LeaderCommand> {
        let zone = zone(v, at.square);
        let mut reach = zone & at.own;
        if v.restricted_activation {
            reach &= at.of_kinds(v.activates[at.kind as usize]);
        }
        let n = self.activations;
        Some(LeaderCommand {
            model: "range",
            text: format!(
                "activates {n} unit{} a turn, itself included, within {} squares (king distance) of where it stands when that unit's move starts",
                if n == 1 { "" } else { "s" },
                self.range
            ),
            activates: v.activates[at.kind as usize],
            reach_empty: zone,
            reach_board: reach,
            range: Some(self.range),
            links_any_friendly: None,
            cap: None,
            modes: None,
        })
    }

    fn rules(&self, v: &Variant) -> Vec<String> {
        let n = self.activations;
        vec![
            format!(
                "Each leader ({}) activates {} a turn, itself included, within {} squares (king distance), measured where the leader stands when that unit's move starts.",
                letters_named(v, |p| p.leader),
                if n == 1 { "one unit".to_string() } else { format!("{n} units") },
                self.range
            ),
            "The units move one after another, each at most once; a sequence of moves is legal when its moves can be matched to distinct activations that way.".into(),
        ]
    }

    fn link_rule(&self, v: &Variant) -> Option<String> {
        Some(format!(
            "A unit may start a move only while it stands within {} squares (king distance) of a {} of its side that may still activate it this turn.",
            self.range,
            leader_names(v)
        ))
    }

    fn legend(&self, v: &Variant) -> Option<String> {
        Some(format!(
            "Boxes: the squares within {} (king distance) of each {} of the side to move (dashed rings).",
            self.range,
            leader_names(v)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_rule_two_leaders_covering_one_piece() {
        // Leaders 0 and 1. Move A is covered only by leader 0, move B by both: B must use 1.
        let f = extend_matching(1, 0b01);
        assert_eq!(f, 1 << 0b01);
        let f = extend_matching(f, 0b11);
        assert_eq!(f, 1 << 0b11);
        assert_eq!(available_leaders(f) & 0b11, 0);
        // Move covered by both first: either leader may still be free afterwards.
        let f = extend_matching(1, 0b11);
        assert_eq!(available_leaders(f) & 0b11, 0b11);
        // A move nobody covers is impossible.
        assert_eq!(extend_matching(1, 0), 0);
    }
}
