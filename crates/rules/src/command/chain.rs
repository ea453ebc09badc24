//! The chain model (Chesimals, RULES.md sections 2 and 3): the turn's mover set is chosen by
//! the first unit moved (its chesimal); a unit may start a move while a chain of adjacent
//! units (of its chesimal, or any friendly with `links = friendly`) links it to the
//! chesimal's living leader. Options: a cap on the turn's moves, and repeated activation
//! (Chesimals 0.75: a unit moves again while still linked).

use crate::bitboard::{Bitboard, Square};
use crate::command::flood;
use crate::error::Illegal;
use crate::outcome::{Side, NO_UNIT};
use crate::unit_board::UnitBoard;
use crate::variant::CommandModel;
use crate::zobrist::ZOBRIST;

/// The chain model's settings, read from the variant.
#[derive(Copy, Clone)]
pub(crate) struct Chain {
    pub links_any_friendly: bool,
    pub cap: u8,
    pub reactivate: bool,
}

impl Chain {
    pub(crate) fn of(pos: &UnitBoard) -> Chain {
        match pos.variant.command {
            CommandModel::Chain {
                links_any_friendly,
                cap,
                reactivate,
            } => Chain {
                links_any_friendly,
                cap,
                reactivate,
            },
            _ => unreachable!("chain model"),
        }
    }

    /// Units of group `g` of side `s` linked to its living leader now.
    #[inline(always)]
    fn linked(self, pos: &UnitBoard, s: usize, g: usize) -> Bitboard {
        let leader = pos.leaders[s][g];
        if leader == NO_UNIT {
            return Bitboard::EMPTY; // a leaderless chesimal is frozen
        }
        let within = pos.link_field(s, g, self.links_any_friendly);
        let seed = Bitboard::from_square(pos.units[leader as usize].square);
        flood(seed, within) & pos.groups[s][g]
    }

    /// Which units may start a move now.
    #[inline(always)]
    pub(crate) fn movers(self, pos: &UnitBoard) -> Bitboard {
        let t = &pos.turn;
        if self.cap > 0 && t.moves >= self.cap {
            return Bitboard::EMPTY;
        }
        let s = pos.side.index();
        let groups = pos.variant.groups.len();
        let chosen = t.chain.group.map(|g| g as usize);
        let mut movers = Bitboard::EMPTY;
        for g in chosen.unwrap_or(0)..chosen.map_or(groups, |g| g + 1) {
            let mut linked = self.linked(pos, s, g);
            if pos.variant.restricted_activation && linked.any() {
                let leader = pos.units[pos.leaders[s][g] as usize].kind;
                linked &= pos.units_of_kinds(pos.variant.activates[leader as usize]);
            }
            movers |= linked;
        }
        if self.reactivate {
            movers
        } else {
            movers & !t.moved
        }
    }

    /// Units of `side` linked to a living leader (the engine's evaluation).
    pub(crate) fn commanded(self, pos: &UnitBoard, side: Side) -> Bitboard {
        let s = side.index();
        (0..pos.variant.groups.len()).fold(Bitboard::EMPTY, |b, g| b | self.linked(pos, s, g))
    }

    /// The turn state after the unit on `from` starts a move: the first fixes the chesimal.
    #[inline(always)]
    pub(crate) fn on_move(pos: &mut UnitBoard, from: Square) {
        if pos.turn.chain.group.is_none() {
            let g = pos.units[pos.board[from.index()] as usize].group;
            pos.turn.chain.group = Some(g);
            pos.hash ^= ZOBRIST.chosen[g as usize];
        }
    }

    /// Why the own unit on `from` may not move now.
    pub(crate) fn why(self, pos: &UnitBoard, from: Square) -> Illegal {
        let u = pos.units[pos.board[from.index()] as usize];
        let g = u.group;
        if self.cap > 0 && pos.turn.moves >= self.cap {
            Illegal::CapReached { cap: self.cap }
        } else if pos.turn.moved.has(from) && !self.reactivate {
            Illegal::AlreadyMoved
        } else if let Some(chosen) = pos.turn.chain.group.filter(|&c| c != g) {
            Illegal::OtherChesimal { chosen, group: g }
        } else if pos.leaders[u.side.index()][g as usize] == NO_UNIT {
            Illegal::LeaderLost { group: g }
        } else if pos.variant.restricted_activation {
            Illegal::NotActivatable
        } else {
            Illegal::NotLinked
        }
    }
}
