//! The chain model (Chesimals, RULES.md sections 2 and 3): the turn's mover set is chosen by
//! the first unit moved (its chesimal); a unit may start a move while a chain of adjacent
//! units (of its chesimal, or any friendly with `links = friendly`) links it to the
//! chesimal's living leader. Options: a cap on the turn's moves, and repeated activation
//! (Chesimals 0.75: a unit moves again while still linked).

use crate::bitboard::{Bitboard, Square};
use crate::command::{flood, CommandBoard, Describe, LeaderAt};
use crate::error::Illegal;
use crate::outcome::{Side, NO_UNIT};
use crate::variant::{CommandModel, Variant};
use crate::view::{CommandView, LeaderCommand, LeaderView};
use crate::words::letters_named;
use crate::zobrist::ZOBRIST;

/// The units of `group` that a chain of adjacent units of `field` links to the leader on
/// `leader` (the leader included when it is in both): the chain rule, asked by the movers
/// and by a leader's description.
#[inline(always)]
pub(crate) fn linked_to(leader: Square, field: Bitboard, group: Bitboard) -> Bitboard {
    flood(Bitboard::from_square(leader), field) & group
}

/// The chain model's settings, read from the variant.
#[derive(Copy, Clone)]
pub(crate) struct Chain {
    pub links_any_friendly: bool,
    pub cap: u8,
    pub reactivate: bool,
}

impl Chain {
    pub(crate) fn of(pos: &CommandBoard) -> Chain {
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
    fn linked(self, pos: &CommandBoard, s: usize, g: usize) -> Bitboard {
        let leader = pos.own.leaders[s][g];
        if leader == NO_UNIT {
            return Bitboard::EMPTY; // a leaderless chesimal is frozen
        }
        let within = pos.link_field(s, g, self.links_any_friendly);
        linked_to(pos.units[leader as usize].square, within, pos.groups[s][g])
    }

    /// Which units may start a move now.
    #[inline(always)]
    pub(crate) fn movers(self, pos: &CommandBoard) -> Bitboard {
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
                let leader = pos.units[pos.own.leaders[s][g] as usize].kind;
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
    pub(crate) fn commanded(self, pos: &CommandBoard, side: Side) -> Bitboard {
        let s = side.index();
        (0..pos.variant.groups.len()).fold(Bitboard::EMPTY, |b, g| b | self.linked(pos, s, g))
    }

    /// The turn state after the unit on `from` starts a move: the first fixes the chesimal.
    #[inline(always)]
    pub(crate) fn on_move(pos: &mut CommandBoard, from: Square) {
        if pos.turn.chain.group.is_none() {
            let g = pos.units[pos.board[from.index()] as usize].group;
            pos.turn.chain.group = Some(g);
            pos.hash ^= ZOBRIST.chosen[g as usize];
        }
    }

    /// Why the own unit on `from` may not move now.
    pub(crate) fn why(self, pos: &CommandBoard, from: Square) -> Illegal {
        let u = pos.units[pos.board[from.index()] as usize];
        let g = u.group;
        if self.cap > 0 && pos.turn.moves >= self.cap {
            Illegal::CapReached { cap: self.cap }
        } else if pos.turn.moved.has(from) && !self.reactivate {
            Illegal::AlreadyMoved
        } else if let Some(chosen) = pos.turn.chain.group.filter(|&c| c != g) {
            Illegal::OtherChesimal { chosen, group: g }
        } else if pos.own.leaders[u.side.index()][g as usize] == NO_UNIT {
            Illegal::LeaderLost { group: g }
        } else if pos.variant.restricted_activation {
            Illegal::NotActivatable
        } else {
            Illegal::NotLinked
        }
    }
}

impl Chain {
    /// The units a chain may run through, in words (the link rule, the legend, a diagram).
    fn through(self) -> &'static str {
        if self.links_any_friendly {
            "adjacent friendly units (of any chesimal)"
        } else {
            "adjacent units of its own chesimal"
        }
    }
}

impl Describe for Chain {
    fn view(&self, pos: &CommandBoard) -> CommandView {
        let s = pos.side.index();
        let mut view = CommandView {
            moves: pos.turn.moves,
            moves_cap: (self.cap > 0).then_some(self.cap),
            ..CommandView::default()
        };
        for (_, sq, g) in pos.own_leaders() {
            let chosen = pos.turn.chain.group.is_none_or(|c| c == g);
            view.leaders.push(LeaderView {
                square: sq,
                available: chosen,
                zone: Bitboard::EMPTY,
            });
            if chosen {
                let within = pos.link_field(s, g as usize, self.links_any_friendly);
                pos.push_links(sq, within, &mut view.links);
            }
        }
        view
    }

    /// The units of its chesimal linked to it (those of the kinds it activates), as
    /// `movers` finds them at a turn start.
    fn leader(&self, v: &Variant, at: &LeaderAt) -> Option<LeaderCommand> {
        let me = Bitboard::from_square(at.square);
        let field = if self.links_any_friendly {
            at.own
        } else {
            at.group
        };
        let mut reach = linked_to(at.square, field | me, at.group | me) & !me;
        if v.restricted_activation {
            reach &= at.of_kinds(v.activates[at.kind as usize]);
        }
        Some(LeaderCommand {
            model: "chain",
            text: format!(
                "leads its chesimal: a turn moves units of one chesimal, each linked to its leader by a chain of {} when its move starts{}{}",
                self.through(),
                if self.cap > 0 { format!("; at most {} moves a turn", self.cap) } else { String::new() },
                if self.reactivate { "; a unit may move again while linked" } else { "" },
            ),
            activates: v.activates[at.kind as usize],
            reach_empty: v.geometry.king(at.square),
            reach_board: reach,
            range: None,
            links_any_friendly: Some(self.links_any_friendly),
            cap: Some(self.cap),
            modes: None,
        })
    }

    fn rules(&self, v: &Variant) -> Vec<String> {
        let mut out = vec![format!(
            "A turn moves units of one chesimal (group), the one of the first unit moved, one after another{}.",
            if self.reactivate { "" } else { ", each at most once" }
        )];
        out.extend(self.link_rule(v));
        out.push("A chesimal whose leader was captured is frozen.".into());
        if self.cap > 0 {
            out.push(format!("At most {} unit moves a turn.", self.cap));
        }
        if self.reactivate {
            out.push("A unit may move again and again in the same turn (each move may capture), as long as it is still linked when that move starts.".into());
        }
        out
    }

    fn link_rule(&self, v: &Variant) -> Option<String> {
        Some(format!(
            "A unit may start a move only while a chain of {} links it to its chesimal's living leader ({}), at the instant its move starts; units that already moved count as links.",
            self.through(),
            letters_named(v, |p| p.leader)
        ))
    }

    fn legend(&self, _v: &Variant) -> Option<String> {
        Some(format!(
            "Lines: the chains of {} that link each chesimal to its leader (dashed rings).",
            if self.links_any_friendly {
                "adjacent friendly units"
            } else {
                "adjacent units of one chesimal"
            }
        ))
    }
}
