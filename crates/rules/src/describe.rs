//! What the command rules look like right now, for a user interface: the leaders of the side
//! to move, the links that connect units to them, the zone each leader commands, and under the
//! lead model the leader leading the turn with its budget and the kinds it may activate.
//! The server and the browser draw this; they never recompute the rules. Also what a family
//! of rules says of itself for the rules page (rules_text.rs).

use crate::bitboard::{Bitboard, Square};
use crate::command::range::available_leaders;
use crate::outcome::NO_UNIT;
use crate::unit_board::UnitBoard;
use crate::variant::CommandModel;

/// A leader of the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderView {
    pub square: Square,
    /// It may still activate a unit this turn (range and lead models); always true for chains.
    pub available: bool,
    /// Range model: the squares it commands (king distance `range`), else empty.
    pub zone: Bitboard,
}

/// Lead model: the leader leading the turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeadingView {
    pub square: Square,
    /// The mode's name (`ortho`, `dia`), empty when the leader kind has one way to lead.
    pub mode: String,
    /// Activations of the turn, the leader's own included, and how many are used.
    pub budget: u8,
    pub used: u8,
    /// Activations still open to units other than the leader.
    pub others_left: u8,
    /// Piece kinds (indices into the variant's pieces) it may activate, besides itself.
    pub activates: Vec<u8>,
    /// Kinds that move differently when it activates them: (kind, Betza moves).
    pub remap: Vec<(u8, String)>,
}

/// The command picture of a position, for the side to move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandView {
    pub leaders: Vec<LeaderView>,
    /// Pairs of adjacent units through which a chain runs from a leader (chain and lead).
    pub links: Vec<(Square, Square)>,
    /// Unit moves made this turn and the most the turn allows now (None: no fixed cap).
    pub moves: u8,
    pub moves_cap: Option<u8>,
    /// Range model: how far (king distance) each leader commands.
    pub range: Option<u8>,
    pub leading: Option<LeadingView>,
    /// Lead model at a turn start: each legal `lead` step with what that leader and mode
    /// would allow (`used` 0). Empty otherwise.
    pub lead_options: Vec<(crate::step::Step, LeadingView)>,
}

impl UnitBoard {
    /// The command picture for the side to move (see `CommandView`).
    pub fn command_view(&self) -> CommandView {
        let v = &self.variant;
        let s = self.side.index();
        let t = &self.turn;
        let mut view = CommandView {
            leaders: vec![],
            links: vec![],
            moves: t.moves,
            moves_cap: None,
            range: v.command.range(),
            leading: None,
            lead_options: vec![],
        };
        let own_leaders: Vec<(usize, Square, u8, u8)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.alive && u.side == self.side && v.pieces[u.kind as usize].leader)
            .map(|(id, u)| (id, u.square, u.group, u.kind))
            .collect();
        match v.command {
            CommandModel::Range { .. } => {
                let avail = available_leaders(t.range.feasible);
                for (id, sq, _, _) in &own_leaders {
                    let slots = (0..self.activator_count[s] as usize)
                        .filter(|&i| self.activators[s][i] as usize == *id);
                    let mut available = false;
                    for i in slots {
                        available |= avail >> i & 1 != 0;
                    }
                    view.leaders.push(LeaderView {
                        square: *sq,
                        available,
                        zone: v.range_box[sq.index()],
                    });
                }
                view.moves_cap = Some(self.activator_count[s]);
            }
            CommandModel::Chain {
                links_any_friendly,
                cap,
                ..
            } => {
                for &(_, sq, g, _) in &own_leaders {
                    let chosen = t.chain.group.is_none_or(|c| c == g);
                    view.leaders.push(LeaderView {
                        square: sq,
                        available: chosen,
                        zone: Bitboard::EMPTY,
                    });
                    if chosen {
                        let within = self.link_field(s, g as usize, links_any_friendly);
                        self.push_links(sq, within, &mut view.links);
                    }
                }
                view.moves_cap = (cap > 0).then_some(cap);
            }
            CommandModel::Lead { links_any_friendly } => {
                for &(id, sq, g, _) in &own_leaders {
                    let leading = t.lead.leader == id as u8;
                    view.leaders.push(LeaderView {
                        square: sq,
                        available: t.lead.leader == NO_UNIT || leading,
                        zone: Bitboard::EMPTY,
                    });
                    if t.lead.leader == NO_UNIT || leading {
                        let within = self.link_field(s, g as usize, links_any_friendly);
                        self.push_links(sq, within, &mut view.links);
                    }
                }
                if t.lead.leader == NO_UNIT {
                    let mut options = vec![];
                    self.for_each_lead_step(|step| options.push(step));
                    for step in options {
                        if let crate::step::StepKind::Lead(mode) = step.kind {
                            let m = &v.lead_modes[mode as usize];
                            view.lead_options.push((
                                step,
                                Self::leading_view(step.from, m, v.pieces.len(), 0, 0),
                            ));
                        }
                    }
                }
                if t.lead.leader != NO_UNIT {
                    let m = &v.lead_modes[t.lead.mode as usize];
                    let at = self.units[t.lead.leader as usize].square;
                    let self_moved = t.moved.has(at) as u8;
                    view.moves_cap = Some(m.budget);
                    view.leading = Some(Self::leading_view(
                        at,
                        m,
                        v.pieces.len(),
                        t.moves,
                        self_moved,
                    ));
                }
            }
            CommandModel::Single | CommandModel::Body => {}
        }
        view
    }

    fn leading_view(
        at: Square,
        m: &crate::variant::LeadMode,
        kinds: usize,
        used: u8,
        self_moved: u8,
    ) -> LeadingView {
        LeadingView {
            square: at,
            mode: m.name.clone(),
            budget: m.budget,
            used,
            others_left: m
                .others
                .saturating_sub(used - self_moved)
                .min(m.budget - used),
            activates: (0..kinds as u8)
                .filter(|k| m.activates >> k & 1 != 0)
                .collect(),
            remap: m.remap.iter().map(|(k, b, _)| (*k, b.clone())).collect(),
        }
    }

    /// Links of the chain grown from `leader` through `within`: a breadth-first tree, each
    /// unit joined to one unit nearer the leader (not a hot path).
    fn push_links(&self, leader: Square, within: Bitboard, out: &mut Vec<(Square, Square)>) {
        let geo = &self.variant.geometry;
        let mut seen = Bitboard::from_square(leader);
        let mut frontier = vec![leader];
        while let Some(sq) = frontier.first().copied() {
            frontier.remove(0);
            for n in (geo.king(sq) & within & !seen).iter() {
                seen.set(n);
                frontier.push(n);
                out.push((sq, n));
            }
        }
    }
}
