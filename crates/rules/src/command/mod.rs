//! Command models as components. Each model lives in its own module with its own part of the
//! turn state, and answers the same questions: which units may move now (and with which
//! moves), what a step does to the turn state, whether the turn may end, the turn state's
//! hash (`key`), why a step is illegal (`Illegal`), and what it says of itself for people
//! (`Describe`: the command view, a leader's diagram, the rules page's sentences, the
//! interface's flags and hints). This module is the one place that dispatches on the model.
//!
//! - `chain` (Chesimals): the mover set is chosen by the first unit moved; links to a leader.
//! - `range` (Chieftain): leaders matched to moves per step, within a king distance.
//! - `lead` (Chesimal Fusion): a declared leader and mode spend their own budget.
//! - `single` (one move a turn) and FIDE chess (chess/, its own 8x8 core).
//!
//! The models share the generation below: movers times destinations. The command family
//! owns its state on the shared unit core (state.rs: `CommandOwner`, `CommandTurn`);
//! Lifeform's body is a family of its own (body/), and FIDE chess generates its own steps.

pub mod chain;
pub mod lead;
pub mod range;
pub mod single;
pub mod state;

use crate::bitboard::{Bitboard, Square};
use crate::effects::Effects;
use crate::error::{Illegal, StepError};
use crate::outcome::Side;
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind, StepList};
use crate::step_io::StepRules;
use crate::unit_board::Undo;
use crate::variant::{CommandModel, Variant};
use crate::view::{CommandView, LeaderCommand};
use crate::zobrist::ZOBRIST;

use chain::Chain;
pub use state::{ChainTurn, CommandTurn, LeadTurn, RangeTurn};
pub(crate) use state::{CommandBoard, Model};

/// The units reachable from `seed` through king-adjacent squares of `within`.
///
/// The fixed-point test compares the four words in scalar registers: the dilation is
/// computed word by word, and a whole-set comparison made the compiler store the words one
/// by one and reload them as one vector, a store-forwarding stall on every iteration.
#[inline(always)]
pub(crate) fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
    flood_from::<false>(seed, within)
}

/// `flood` for sets that are usually connected (a Lifeform body): it stops as soon as all
/// of `within` is reached, one dilation before the fixed point shows. `seed` must lie in
/// `within`. (Where floods rarely reach everything, as in the chain model, the extra test
/// cost more than it saved.)
#[inline(always)]
pub(crate) fn flood_connected(seed: Bitboard, within: Bitboard) -> Bitboard {
    flood_from::<true>(seed, within)
}

#[inline(always)]
fn flood_from<const STOP_WHEN_ALL: bool>(seed: Bitboard, within: Bitboard) -> Bitboard {
    let mut reach = seed;
    let w = within.0;
    loop {
        let next = reach.king_dilate() & within;
        let (a, b) = (next.0, reach.0);
        if (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) == 0 {
            return reach;
        }
        if STOP_WHEN_ALL && (a[0] ^ w[0]) | (a[1] ^ w[1]) | (a[2] ^ w[2]) | (a[3] ^ w[3]) == 0 {
            return next;
        }
        reach = next;
    }
}

/// What a command model says of itself for people, each in its own module: the command
/// picture of a position (describe.rs), what a leader commands (a piece diagram,
/// diagram.rs), the rules page's statements (rules_text.rs), and the sentences and flags an
/// interface shows (`presentation`). Each answers from its settings and its own movers
/// code, so that no description words or recomputes a rule apart from the model.
pub(crate) trait Describe {
    /// The command picture of `pos` for the side to move.
    fn view(&self, pos: &CommandBoard) -> CommandView {
        CommandView {
            moves: pos.turn.moves,
            ..CommandView::default()
        }
    }
    /// What the leader `at` commands: the units it activates on its board, its reach and
    /// the model's words (None: the model has no leaders).
    fn leader(&self, _v: &Variant, _at: &LeaderAt) -> Option<LeaderCommand> {
        None
    }
    /// The model's statements for the rules page.
    fn rules(&self, v: &Variant) -> Vec<String>;
    /// The rule that lets a unit move under a leader, in one sentence (None: none).
    fn link_rule(&self, _v: &Variant) -> Option<String> {
        None
    }
    /// What the command overlay draws, in one sentence (None: it draws nothing).
    fn legend(&self, _v: &Variant) -> Option<String> {
        None
    }
}

/// The description of a command model (off the hot paths; describe.rs picks a variant's).
pub(crate) fn describe_model(model: &CommandModel) -> Box<dyn Describe> {
    match *model {
        CommandModel::Single => Box::new(single::Single),
        CommandModel::Chain {
            links_any_friendly,
            cap,
            reactivate,
        } => Box::new(Chain {
            links_any_friendly,
            cap,
            reactivate,
        }),
        CommandModel::Range { range, activations } => Box::new(range::Range { range, activations }),
        CommandModel::Lead { links_any_friendly } => Box::new(lead::Lead { links_any_friendly }),
    }
}

/// A leader on a board as a description needs it, readable from any family's position: its
/// kind and square and the side's other units.
pub(crate) struct LeaderAt {
    pub kind: u8,
    pub square: Square,
    /// The side's other units (the leader's square left out).
    pub own: Bitboard,
    /// Of those, the units of the leader's group; all of `own` when no unit of the leader's
    /// kind stands on `square` (a piece put there for its diagram belongs to no group).
    pub group: Bitboard,
    /// The side's other units by kind (index: kind).
    pub by_kind: Vec<Bitboard>,
}

impl LeaderAt {
    /// The side's other units of the kinds in `mask` (bit k = kind k).
    pub(crate) fn of_kinds(&self, mask: u16) -> Bitboard {
        self.by_kind
            .iter()
            .enumerate()
            .filter(|(k, _)| mask >> k & 1 != 0)
            .fold(Bitboard::EMPTY, |b, (_, &units)| b | units)
    }
}

/// The names of `v`'s leader kinds, "Chieftain" or "Chief or King", for the hints.
pub(crate) fn leader_names(v: &Variant) -> String {
    let names: Vec<&str> = v
        .pieces
        .iter()
        .filter(|p| p.leader)
        .map(|p| p.name.as_str())
        .collect();
    names.join(" or ")
}

impl CommandBoard {
    /// True at the start of a turn (no step of it made yet, no leader named).
    pub fn at_turn_start(&self) -> bool {
        self.turn.moves == 0 && self.turn.lead.leader == crate::outcome::NO_UNIT
    }

    /// The side to move's living leaders: (unit id, square, group).
    pub(crate) fn own_leaders(&self) -> Vec<(usize, Square, u8)> {
        self.units
            .iter()
            .enumerate()
            .filter(|(_, u)| {
                u.alive && u.side == self.side && self.variant.pieces[u.kind as usize].leader
            })
            .map(|(id, u)| (id, u.square, u.group))
            .collect()
    }

    /// For the command view: the links of the chain grown from `leader` through `within`,
    /// a breadth-first tree, each unit joined to one unit nearer the leader (not a hot path).
    pub(crate) fn push_links(
        &self,
        leader: Square,
        within: Bitboard,
        out: &mut Vec<(Square, Square)>,
    ) {
        let geo = &self.variant.geometry;
        let mut seen = Bitboard::from_square(leader);
        let mut frontier = std::collections::VecDeque::from([leader]);
        while let Some(sq) = frontier.pop_front() {
            for n in (geo.king(sq) & within & !seen).iter() {
                seen.set(n);
                frontier.push_back(n);
                out.push((sq, n));
            }
        }
    }

    /// Own units of the side to move of the kinds in `mask` (bit k = piece kind k).
    pub(crate) fn units_of_kinds(&self, mask: u16) -> Bitboard {
        let s = self.side;
        self.units
            .iter()
            .filter(|u| u.alive && u.side == s && mask >> u.kind & 1 != 0)
            .map(|u| u.square)
            .collect()
    }

    /// Where a chain of links of group `g` of side `s` may run: through the group's own
    /// units, or through any friendly unit (`links = friendly`). The chain and lead models
    /// and the interface's description all ask this one question.
    #[inline(always)]
    pub(crate) fn link_field(&self, s: usize, g: usize, any_friendly: bool) -> Bitboard {
        if any_friendly {
            self.occupied[s]
        } else {
            self.groups[s][g]
        }
    }

    /// Units of `side` under command at a turn start, whoever is to move: linked to a
    /// living leader (chain and lead models), within a leader's range (range model), all
    /// otherwise. The engine's evaluation uses it; it ignores the turn in progress.
    pub fn commanded_units(&self, side: Side) -> Bitboard {
        let s = side.index();
        match self.variant.command {
            CommandModel::Chain { .. } => Chain::of(self).commanded(self, side),
            CommandModel::Range { .. } => range::commanded(self, side),
            CommandModel::Lead { links_any_friendly } => {
                let mut linked = Bitboard::EMPTY;
                for u in self.units.iter() {
                    // A leader already reached stands in a field flooded before: its own
                    // (group fields are disjoint), so its flood would add nothing.
                    if u.alive
                        && u.side == side
                        && self.variant.pieces[u.kind as usize].leader
                        && !linked.has(u.square)
                    {
                        let within = self.link_field(s, u.group as usize, links_any_friendly);
                        linked |= flood(Bitboard::from_square(u.square), within);
                    }
                }
                linked
            }
            CommandModel::Single => self.occupied[s],
        }
    }

    /// What a search should know of the variant's command model (`SearchHooks::search_profile`).
    pub fn search_profile(&self) -> SearchProfile {
        let mut p = SearchProfile::from_data(&self.variant);
        let command = &self.variant.command;
        // Three or more leaders commanding within a range (Chieftain Chess), counted here.
        let leaders = self
            .units()
            .filter(|u| u.side == Side::White && self.variant.pieces[u.kind as usize].leader)
            .count();
        let many_in_range = command.range().is_some() && leaders >= 3;
        let chain = command.one_group_a_turn();
        let lead = command.declared_leader();
        p.one_step_turns = self.variant.one_step_turns();
        p.long_turns = chain || many_in_range;
        p.reduce_in_turn = chain || lead || many_in_range;
        p.locking_fronts = many_in_range || lead;
        p.threats_from_any = lead;
        p
    }

    /// Units of the side to move that may start a move now (before looking at destinations).
    pub fn movable_units(&self) -> Bitboard {
        if self.outcome.is_some() {
            return Bitboard::EMPTY;
        }
        match self.own.model {
            Model::Single => self.occupied[self.side.index()],
            Model::Chain => Chain::of(self).movers(self),
            Model::Range => range::movers(self),
            Model::Lead => self.lead_movers(),
        }
    }

    /// Where the unit on `from` could go, ignoring whether it may move now.
    #[inline(always)]
    pub fn destinations(&self, from: Square) -> Bitboard {
        let u = &self.units[self.board[from.index()] as usize];
        let s = u.side.index();
        let enemy = self.occupied[s ^ 1];
        let empty = self.variant.geometry.squares & !(self.occupied[s] | enemy);
        self.moveset_now(u.kind, s)
            .destinations(&self.variant.geometry, from, empty, enemy)
    }

    /// Hand each unit that may move now with its destinations to `f`.
    #[inline(always)]
    fn for_each_mover(&self, mut f: impl FnMut(Square, Bitboard)) {
        let movers = self.movable_units();
        if movers.is_empty() {
            return;
        }
        let s = self.side.index();
        let enemy = self.occupied[s ^ 1];
        let empty = self.variant.geometry.squares & !(self.occupied[s] | enemy);
        let geo = &self.variant.geometry;
        // Only a lead mode that remaps a kind's moves (Fusion's Pawns) looks further.
        let remap = self.lead_mode().filter(|m| !m.remap.is_empty());
        for from in movers.iter() {
            let kind = self.units[self.board[from.index()] as usize].kind;
            let own = &self.variant.pieces[kind as usize].movesets;
            let set = match remap {
                Some(m) => m.moveset(kind, s, own),
                None => &own[s],
            };
            let d = set.destinations(geo, from, empty, enemy);
            if d.any() {
                f(from, d);
            }
        }
    }

    /// Lead model, at a turn start: the turn's first step names its leader.
    #[inline(always)]
    fn awaits_lead(&self) -> bool {
        self.own.model == Model::Lead && self.turn.lead.leader == crate::outcome::NO_UNIT
    }

    /// `end` is legal once the turn has a unit move and the game goes on.
    #[inline(always)]
    fn end_is_legal(&self) -> bool {
        self.turn.moves > 0 && self.outcome.is_none() && self.own.model != Model::Single
    }

    /// All legal steps now (NOTATION.md's step rules).
    pub fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        if self.awaits_lead() {
            return self.for_each_lead_step(|s| list.push(s));
        }
        self.for_each_mover(|from, dests| list.push_moves(from, dests));
        if self.end_is_legal() {
            list.push(Step::END);
        }
    }

    /// The number of legal steps, without listing them.
    #[inline]
    pub fn count_steps(&self) -> u64 {
        if self.awaits_lead() {
            let mut n = 0;
            self.for_each_lead_step(|_| n += 1);
            return n;
        }
        let mut n = self.end_is_legal() as u64;
        self.for_each_mover(|_, dests| n += dests.count() as u64);
        n
    }

    /// Play one step. The step must be legal (see `legal_steps`); `unmake` takes it back.
    #[inline(always)]
    pub fn make(&mut self, step: Step) -> Undo<CommandTurn> {
        let undo = self.undo_record();
        match step.kind {
            StepKind::Move => {
                self.move_unit(step.from, step.to);
                if self.own.model == Model::Single {
                    self.end_turn();
                }
            }
            StepKind::End => self.end_turn(),
            StepKind::Lead(mode) => self.make_lead(step.from, mode),
            StepKind::Pin
            | StepKind::Drop(_)
            | StepKind::Promote(_)
            | StepKind::Push(_)
            | StepKind::Pass => {
                unreachable!("not a step of the unit-moving command models")
            }
        }
        undo
    }

    /// Play one step as `make` does and say what it did (`fx` is cleared first): the game's
    /// counters, the server's move list and records read this. Search and perft use `make`,
    /// which reports nothing and costs nothing more.
    pub fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> Undo<CommandTurn> {
        fx.clear();
        let undo = self.make(step);
        self.report_journal(step, undo.mark as usize, fx);
        undo
    }

    /// A unit move under the unit-moving models: the model's turn state first (activation is
    /// judged where the leaders stand now), then the capture, the move, the common count.
    #[inline(always)]
    fn move_unit(&mut self, from: Square, to: Square) {
        match self.own.model {
            Model::Chain => Chain::on_move(self, from),
            Model::Range => range::on_move(self, from),
            _ => {}
        }
        let captured = self.board[to.index()];
        if captured != crate::outcome::NO_UNIT {
            self.remove(captured);
        }
        // The mover is read after the capture: one value fewer held across that call (the
        // made-leaf perfts ran 1-2% more instructions and spilled without it).
        let id = self.board[from.index()];
        self.relocate(id, to);
        let z = &ZOBRIST;
        if self.turn.moved.has(from) {
            self.turn.moved.clear(from);
            self.hash ^= z.moved[from.index()];
        }
        self.turn.moved.set(to);
        self.hash ^= z.moved[to.index()];
        let m = self.turn.moves as usize;
        self.hash ^= z.moves[m] ^ z.moves[m + 1];
        self.turn.moves += 1;
    }
}

impl StepRules for CommandBoard {
    fn is_legal(&self, step: Step) -> bool {
        match step.kind {
            StepKind::Lead(mode) => self.lead_is_legal(step.from, step.to, mode),
            StepKind::Pin
            | StepKind::Drop(_)
            | StepKind::Promote(_)
            | StepKind::Push(_)
            | StepKind::Pass => false,
            StepKind::End => self.end_is_legal(),
            StepKind::Move => {
                self.occupied[self.side.index()].has(step.from)
                    && self.movable_units().has(step.from)
                    && self.destinations(step.from).has(step.to)
            }
        }
    }

    /// Why the unit on `from` may not go to `to` now.
    fn why_illegal(&self, from: Square, to: Square) -> Illegal {
        let _ = to;
        if let Some(why) = self.common_refusal(from, || self.movable_units()) {
            return why;
        }
        match self.variant.command {
            CommandModel::Chain { .. } => Chain::of(self).why(self, from),
            CommandModel::Range { range, .. } => range::why(self, from, range),
            CommandModel::Lead { .. } => self.why_lead(from),
            CommandModel::Single => Illegal::CannotReach,
        }
    }

    fn parse_lead(&self, text: &str, square: &str, mode: Option<&str>) -> Result<Step, StepError> {
        self.parse_lead_step(text, square, mode)
    }

    fn leading(&self) -> Option<(u8, u8)> {
        let t = &self.turn.lead;
        (t.leader != crate::outcome::NO_UNIT).then_some((t.leader, t.mode))
    }
}
