//! The lead model (Chesimal Fusion I, RULES.md section 4): a turn starts with the step `lead`,
//! which names the leader that leads it and, for a leader kind with modes, the mode (the
//! Prince's Ortho or Dia). That leader then spends its own activations: each unit move must be
//! of a kind the mode may activate, linked to the leader (where it stands now) by a chain of
//! adjacent friendly units when its move starts, within the budget (the King's 7, of which at
//! most 6 go to other units; the Prince's 9 with itself). A mode may change how the units it
//! activates move (Pawns as Wazirs, Ferzes or Guards).
//!
//! The model's part of the turn is `LeadTurn`; the moves counted and the squares of moved
//! units are the common `moves` and `moved`.

use crate::bitboard::{Bitboard, Square};
use crate::command::state::LeadTurn;
use crate::command::{flood, CommandBoard, Describe, LeaderAt};
use crate::error::Illegal;
use crate::error::StepError;
use crate::movement::MoveSet;
use crate::outcome::NO_UNIT;
use crate::step::{Step, StepKind};
use crate::variant::{CommandModel, LeadMode, Variant};
use crate::view::{CommandView, LeaderCommand, LeaderView, LeadingView};
use crate::words::{describe_moves, join_words};

/// The lead model's settings, read from the variant.
#[derive(Copy, Clone)]
pub(crate) struct Lead {
    pub links_any_friendly: bool,
}

/// The units that a chain of adjacent units of `field` links to the leader on `leader` (the
/// leader included): the lead model's link rule, asked by its movers and by a leader's
/// description.
#[inline(always)]
pub(crate) fn linked_to_leader(leader: Square, field: Bitboard) -> Bitboard {
    flood(Bitboard::from_square(leader), field)
}

impl CommandBoard {
    fn lead_links_any(&self) -> bool {
        matches!(
            self.variant.command,
            CommandModel::Lead {
                links_any_friendly: true
            }
        )
    }

    /// Units that may start a move when the unit `lead` leads in `mode`, given the squares
    /// of the units already moved and the number of moves made.
    pub(crate) fn lead_movers_for(
        &self,
        lead: u8,
        mode: u8,
        moved: Bitboard,
        moves: u8,
    ) -> Bitboard {
        self.lead_movers_with(lead, mode, moved, moves, || self.lead_linked(lead))
    }

    /// `lead_movers_for` with the units linked to the leader given (asked only if needed).
    #[inline(always)]
    fn lead_movers_with(
        &self,
        lead: u8,
        mode: u8,
        moved: Bitboard,
        moves: u8,
        linked: impl FnOnce() -> Bitboard,
    ) -> Bitboard {
        let m = &self.variant.lead_modes[mode as usize];
        let leader = &self.units[lead as usize];
        if !leader.alive || moves >= m.budget {
            return Bitboard::EMPTY;
        }
        let at = leader.square;
        let self_moved = moved.has(at);
        let mut movers = Bitboard::EMPTY;
        if !self_moved {
            movers.set(at);
        }
        if moves - self_moved as u8 >= m.others {
            return movers;
        }
        let mut others = linked() & !moved & !Bitboard::from_square(at);
        // (A mode that activates every kind, like the King's, needs no look at the kinds.)
        let every_kind = (1u32 << self.variant.pieces.len()) - 1;
        if m.activates as u32 & every_kind != every_kind {
            others &= self.units_of_kinds(m.activates);
        }
        movers | others
    }

    /// The side to move's units linked to the leader `lead` where it stands now.
    #[inline(always)]
    fn lead_linked(&self, lead: u8) -> Bitboard {
        let leader = &self.units[lead as usize];
        let s = self.side.index();
        let within = self.link_field(s, leader.group as usize, self.lead_links_any());
        linked_to_leader(leader.square, within)
    }

    /// The declared turn's movers (empty before `lead`).
    pub(crate) fn lead_movers(&self) -> Bitboard {
        let t = &self.turn;
        if t.lead.leader == NO_UNIT {
            return Bitboard::EMPTY;
        }
        self.lead_movers_for(t.lead.leader, t.lead.mode, t.moved, t.moves)
    }

    /// The mode leading the turn, if declared.
    #[inline(always)]
    pub(crate) fn lead_mode(&self) -> Option<&LeadMode> {
        let t = &self.turn.lead;
        (t.leader != NO_UNIT).then(|| &self.variant.lead_modes[t.mode as usize])
    }

    /// The tables the unit of `kind` on the side `s` moves by now.
    #[inline(always)]
    pub(crate) fn moveset_now(&self, kind: u8, s: usize) -> &MoveSet {
        let own = &self.variant.pieces[kind as usize].movesets;
        match self.lead_mode() {
            Some(m) if !m.remap.is_empty() => m.moveset(kind, s, own),
            _ => &own[s],
        }
    }

    /// Whether leading with `lead` in `mode` leaves at least one legal unit move (RULES.md:
    /// a `lead` step is legal only then).
    /// `linked`: the units linked to the leader (`lead_linked`), shared by its modes.
    fn lead_has_move(&self, lead: u8, mode: u8, linked: Bitboard) -> bool {
        let movers = self.lead_movers_with(lead, mode, Bitboard::EMPTY, 0, || linked);
        let s = self.side.index();
        let enemy = self.occupied[s ^ 1];
        let empty = self.variant.geometry.squares & !(self.occupied[s] | enemy);
        let m = &self.variant.lead_modes[mode as usize];
        movers.iter().any(|from| {
            let kind = self.units[self.board[from.index()] as usize].kind;
            let own = &self.variant.pieces[kind as usize].movesets;
            m.moveset(kind, s, own)
                .destinations(&self.variant.geometry, from, empty, enemy)
                .any()
        })
    }

    /// Whether `lead` from `from` to `to` in `mode` is among `for_each_lead_step`'s steps
    /// (asked of that one leader and mode only: the search tries stored steps often).
    pub(crate) fn lead_is_legal(&self, from: Square, to: Square, mode: u8) -> bool {
        if self.outcome.is_some() || self.turn.lead.leader != NO_UNIT || from != to {
            return false;
        }
        let Some(m) = self.variant.lead_modes.get(mode as usize) else {
            return false;
        };
        let id = self.board[from.index()];
        if id == NO_UNIT {
            return false;
        }
        let u = &self.units[id as usize];
        u.side == self.side
            && self.variant.pieces[u.kind as usize].leader
            && m.leader == u.kind
            && self.lead_has_move(id, mode, self.lead_linked(id))
    }

    /// At a turn start: every legal `lead` step.
    pub(crate) fn for_each_lead_step(&self, mut f: impl FnMut(Step)) {
        if self.outcome.is_some() || self.turn.lead.leader != NO_UNIT {
            return;
        }
        let side = self.side;
        for (id, u) in self.units.iter().enumerate() {
            if !u.alive || u.side != side || !self.variant.pieces[u.kind as usize].leader {
                continue;
            }
            let linked = self.lead_linked(id as u8);
            for (mode, m) in self.variant.lead_modes.iter().enumerate() {
                if m.leader == u.kind && self.lead_has_move(id as u8, mode as u8, linked) {
                    f(Step {
                        from: u.square,
                        to: u.square,
                        kind: StepKind::Lead(mode as u8),
                    });
                }
            }
        }
    }

    /// Read `lead:<square>[:<mode>]` (`text`, in its parts) and check it is legal now:
    /// malformed text is a syntax error, a well-formed lead the rules refuse carries its
    /// typed reason.
    pub(crate) fn parse_lead_step(
        &self,
        text: &str,
        square: &str,
        mode: Option<&str>,
    ) -> Result<Step, StepError> {
        let syntax = |m: String| Err(StepError::syntax(m));
        if !matches!(self.variant.command, CommandModel::Lead { .. }) {
            return Err(crate::step_io::no_lead_step(text, &self.variant));
        }
        let geo = &self.variant.geometry;
        let Some(sq) = geo.parse_square(square) else {
            return syntax(format!(
                "'{square}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            ));
        };
        self.check_lead(text, sq, mode)
    }

    /// The lead of the leader on `sq` in the mode named `mode` (None: its unnamed one),
    /// written `text`, if it is legal now; else why not (`refusal` asks this of a lead step).
    pub(crate) fn check_lead(
        &self,
        text: &str,
        sq: Square,
        mode: Option<&str>,
    ) -> Result<Step, StepError> {
        let syntax = |m: String| Err(StepError::syntax(m));
        let refuse = |illegal: Illegal, why: String| {
            Err(StepError::new(illegal, format!("{text} is illegal: {why}")))
        };
        // The name reads back as `sq`: the words are those of the text read.
        let square = self.variant.geometry.square_name(sq);
        if self.outcome.is_some() {
            return refuse(Illegal::GameOver, "the game is over".into());
        }
        if self.turn.lead.leader != NO_UNIT {
            let why = Illegal::LeaderAlreadyNamed.to_string();
            return refuse(Illegal::LeaderAlreadyNamed, why);
        }
        let Some(u) = self.unit_at(sq) else {
            return refuse(Illegal::NoUnit, format!("there is no unit on {square}"));
        };
        let piece = &self.variant.pieces[u.kind as usize];
        if u.side != self.side {
            let why = format!(
                "the {} on {square} is {}'s, and {} is to move",
                piece.name,
                u.side.name(),
                self.side.name()
            );
            return refuse(Illegal::NotYourUnit, why);
        }
        let modes: Vec<(usize, &LeadMode)> = self
            .variant
            .lead_modes
            .iter()
            .enumerate()
            .filter(|(_, m)| m.leader == u.kind)
            .collect();
        if modes.is_empty() {
            return refuse(
                Illegal::NotALeader,
                format!("a {} does not lead", piece.name),
            );
        }
        let names = || {
            modes
                .iter()
                .map(|(_, m)| m.name.as_str())
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let found = modes.iter().find(|(_, m)| m.name == mode.unwrap_or(""));
        let Some(&(index, _)) = found else {
            return syntax(match mode {
                None => format!(
                    "'{text}': a {} leads in a mode: add :{}",
                    piece.name,
                    names()
                ),
                Some(m) if modes[0].1.name.is_empty() => {
                    format!(
                        "'{text}': a {} has no modes; write lead:{square} (not :{m})",
                        piece.name
                    )
                }
                Some(m) => format!(
                    "'{text}': '{m}' is not a mode of the {} ({})",
                    piece.name,
                    names()
                ),
            });
        };
        let id = self.board[sq.index()];
        if !self.lead_has_move(id, index as u8, self.lead_linked(id)) {
            let why = Illegal::LeadWithoutMove.to_string();
            return refuse(Illegal::LeadWithoutMove, why);
        }
        Ok(Step {
            from: sq,
            to: sq,
            kind: StepKind::Lead(index as u8),
        })
    }

    /// Play `lead`: the turn's leader and mode.
    pub(crate) fn make_lead(&mut self, from: Square, mode: u8) {
        let turn = LeadTurn {
            leader: self.board[from.index()],
            mode,
        };
        self.hash ^= self.turn.lead.key() ^ turn.key();
        self.turn.lead = turn;
    }

    /// Why the own unit on `from` may not move now under the lead model.
    pub(crate) fn why_lead(&self, from: Square) -> Illegal {
        let t = &self.turn;
        if t.lead.leader == NO_UNIT {
            return Illegal::NeedsLead;
        }
        let m = &self.variant.lead_modes[t.lead.mode as usize];
        let leader = &self.units[t.lead.leader as usize];
        if t.moves >= m.budget {
            return Illegal::BudgetUsed { budget: m.budget };
        }
        if t.moved.has(from) {
            return Illegal::AlreadyMoved;
        }
        if t.moves - t.moved.has(leader.square) as u8 >= m.others {
            return Illegal::OthersUsed { others: m.others };
        }
        let kind = self.units[self.board[from.index()] as usize].kind;
        if m.activates >> kind & 1 == 0 {
            return Illegal::NotActivatable;
        }
        Illegal::NotLinked
    }
}

/// What the leader on `at`, leading in mode `m`, allows with `used` activations spent
/// (`self_moved`: 1 once the leader itself moved).
fn leading_view(at: Square, m: &LeadMode, kinds: usize, used: u8, self_moved: u8) -> LeadingView {
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

impl Lead {
    /// The units a chain may run through, in words.
    fn through(self) -> &'static str {
        if self.links_any_friendly {
            "adjacent friendly units"
        } else {
            "adjacent units of the leader's own chesimal (group)"
        }
    }
}

impl Describe for Lead {
    fn view(&self, pos: &CommandBoard) -> CommandView {
        let v = &pos.variant;
        let s = pos.side.index();
        let t = &pos.turn;
        let mut view = CommandView {
            moves: t.moves,
            ..CommandView::default()
        };
        for (id, sq, g) in pos.own_leaders() {
            let leading = t.lead.leader == id as u8;
            let open = t.lead.leader == NO_UNIT || leading;
            view.leaders.push(LeaderView {
                square: sq,
                available: open,
                zone: Bitboard::EMPTY,
            });
            if open {
                let within = pos.link_field(s, g as usize, self.links_any_friendly);
                pos.push_links(sq, within, &mut view.links);
            }
        }
        if t.lead.leader == NO_UNIT {
            let mut options = vec![];
            pos.for_each_lead_step(|step| options.push(step));
            for step in options {
                if let StepKind::Lead(mode) = step.kind {
                    let m = &v.lead_modes[mode as usize];
                    let option = leading_view(step.from, m, v.pieces.len(), 0, 0);
                    view.lead_options.push((step, option));
                }
            }
        } else {
            let m = &v.lead_modes[t.lead.mode as usize];
            let at = pos.units[t.lead.leader as usize].square;
            let self_moved = t.moved.has(at) as u8;
            view.moves_cap = Some(m.budget);
            view.leading = Some(leading_view(at, m, v.pieces.len(), t.moves, self_moved));
        }
        view
    }

    /// The units linked to it of the kinds its modes activate, as `lead_movers_for` finds
    /// them once it leads.
    fn leader(&self, v: &Variant, at: &LeaderAt) -> Option<LeaderCommand> {
        let me = Bitboard::from_square(at.square);
        let field = if self.links_any_friendly {
            at.own
        } else {
            at.group
        };
        let modes: Vec<usize> = (0..v.lead_modes.len())
            .filter(|&i| v.lead_modes[i].leader == at.kind)
            .collect();
        let kinds = modes
            .iter()
            .fold(0u16, |k, &i| k | v.lead_modes[i].activates);
        let reach = linked_to_leader(at.square, field | me) & !me & at.of_kinds(kinds);
        Some(LeaderCommand {
            model: "lead",
            text: format!(
                "leads a turn (the step lead): activates units linked to it by a chain of {}, within its budget",
                self.through()
            ),
            activates: modes
                .first()
                .map_or(v.activates[at.kind as usize], |&i| v.lead_modes[i].activates),
            reach_empty: v.geometry.king(at.square),
            reach_board: reach,
            range: None,
            links_any_friendly: Some(self.links_any_friendly),
            cap: None,
            modes: Some(modes),
        })
    }

    fn rules(&self, v: &Variant) -> Vec<String> {
        let mut out = vec![
            "A turn starts by naming the leader who leads it (the step lead:<square>, or lead:<square>:<mode>); it then activates units one after another, each once.".to_string(),
        ];
        out.extend(self.link_rule(v));
        for m in &v.lead_modes {
            let leader = &v.pieces[m.leader as usize].name;
            let mode = if m.name.is_empty() {
                String::new()
            } else {
                format!(" in {} mode", m.name)
            };
            let others = if m.others < m.budget {
                format!(", at most {} of them for other units", m.others)
            } else {
                String::new()
            };
            let kinds: Vec<String> = (0..v.pieces.len())
                .filter(|k| m.activates & (1 << k) != 0)
                .map(|k| v.pieces[k].name.clone())
                .collect();
            let remap: Vec<String> = m
                .remap
                .iter()
                .map(|(k, moves, _)| {
                    format!(
                        "{}s move as {} ({moves})",
                        v.pieces[*k as usize].name,
                        describe_moves(moves)
                    )
                })
                .collect();
            let mut s = format!(
                "A {leader}{mode}: {} activations, itself included{others}; it activates {}",
                m.budget,
                join_words(&kinds)
            );
            if !remap.is_empty() {
                s.push_str(&format!("; {}", remap.join("; ")));
            }
            s.push('.');
            out.push(s);
        }
        out.push("A leader activated by another only moves.".into());
        out
    }

    fn link_rule(&self, _v: &Variant) -> Option<String> {
        Some(format!(
            "A unit may start a move only while a chain of {} links it to the leader leading the turn, where that leader stands at the instant the unit's move starts.",
            self.through()
        ))
    }

    fn legend(&self, _v: &Variant) -> Option<String> {
        Some(format!(
            "Lines: the chains of {} that link units to the leaders (dashed rings).",
            if self.links_any_friendly {
                "adjacent friendly units"
            } else {
                "adjacent units of one chesimal"
            }
        ))
    }
}
