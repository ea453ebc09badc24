//! Step generation under the command models: which units may move now, and where.
//!
//! Everything goes through `for_each_mover`, which hands out (square, destinations) pairs;
//! `legal_steps` expands them into a list, `count_steps` only counts them (perft leaves).

use crate::bitboard::{Bitboard, Square};
use crate::position::{available_leaders, Position, Side, NO_UNIT};
use crate::step::{Step, StepKind, StepList};
use crate::variant::{BodyRole, CommandModel};

/// The units of a group reachable from `seed` through king-adjacent squares of `within`.
#[inline(always)]
pub(crate) fn flood(seed: Bitboard, within: Bitboard) -> Bitboard {
    let mut reach = seed;
    loop {
        let next = reach.king_dilate() & within;
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

impl Position {
    /// Units of `side` under command at a turn start, whoever is to move: linked to a
    /// living leader (chain model), within a leader's range (range model), all otherwise.
    /// The engine's evaluation uses it; it ignores the turn in progress.
    pub fn commanded_units(&self, side: Side) -> Bitboard {
        let s = side.index();
        match self.variant.command {
            CommandModel::Chain {
                links_any_friendly, ..
            } => {
                let mut linked = Bitboard::EMPTY;
                for g in 0..self.variant.groups.len() {
                    let leader = self.leaders[s][g];
                    if leader != NO_UNIT {
                        let members = self.groups[s][g];
                        let within = if links_any_friendly {
                            self.occupied[s]
                        } else {
                            members
                        };
                        let seed = Bitboard::from_square(self.units[leader as usize].square);
                        linked |= flood(seed, within) & members;
                    }
                }
                linked
            }
            CommandModel::Range { .. } => {
                let mut zone = Bitboard::EMPTY;
                for i in 0..self.activator_count[s] as usize {
                    let u = &self.units[self.activators[s][i] as usize];
                    if u.alive {
                        zone |= self.variant.range_box[u.square.index()];
                    }
                }
                self.occupied[s] & zone
            }
            CommandModel::Lead { links_any_friendly } => {
                let mut linked = Bitboard::EMPTY;
                for u in self.units.iter() {
                    if u.alive && u.side == side && self.variant.pieces[u.kind as usize].leader {
                        let within = if links_any_friendly {
                            self.occupied[s]
                        } else {
                            self.groups[s][u.group as usize]
                        };
                        linked |= flood(Bitboard::from_square(u.square), within);
                    }
                }
                linked
            }
            CommandModel::Single | CommandModel::Body => self.occupied[s],
        }
    }

    /// Units of the side to move that may start a move now (before looking at destinations).
    pub fn movable_units(&self) -> Bitboard {
        if self.outcome.is_some() {
            return Bitboard::EMPTY;
        }
        if self.chess.is_some() {
            let mut list = StepList::new();
            self.chess_legal_steps(&mut list);
            return list.iter().map(|s| s.from).collect();
        }
        let s = self.side.index();
        match self.variant.command {
            CommandModel::Single => self.occupied[s],
            CommandModel::Body => self.body_movers(),
            CommandModel::Lead { .. } => self.lead_movers(),
            CommandModel::Chain {
                links_any_friendly,
                cap,
                reactivate,
            } => {
                if cap > 0 && self.turn.moves >= cap {
                    return Bitboard::EMPTY;
                }
                let mut movers = Bitboard::EMPTY;
                let chosen = self.turn.group.map(|g| g as usize);
                for g in chosen.unwrap_or(0)..chosen.map_or(self.variant.groups.len(), |g| g + 1) {
                    let leader = self.leaders[s][g];
                    if leader == NO_UNIT {
                        continue; // a leaderless chesimal is frozen
                    }
                    let members = self.groups[s][g];
                    let within = if links_any_friendly {
                        self.occupied[s]
                    } else {
                        members
                    };
                    let leader = &self.units[leader as usize];
                    let mut linked = flood(Bitboard::from_square(leader.square), within) & members;
                    if self.variant.restricted_activation {
                        linked &= self.activatable_by(leader.kind);
                    }
                    movers |= linked;
                }
                if reactivate {
                    movers
                } else {
                    movers & !self.turn.moved
                }
            }
            CommandModel::Range { .. } => {
                let avail = available_leaders(self.turn.feasible);
                let mut zone = Bitboard::EMPTY;
                for i in 0..self.activator_count[s] as usize {
                    let u = &self.units[self.activators[s][i] as usize];
                    if avail >> i & 1 != 0 && u.alive {
                        let mut reach = self.variant.range_box[u.square.index()];
                        if self.variant.restricted_activation {
                            reach &= self.activatable_by(u.kind);
                        }
                        zone |= reach;
                    }
                }
                self.occupied[s] & zone & !self.turn.moved
            }
        }
    }

    /// Where the unit on `from` could go, ignoring whether it may move now.
    #[inline(always)]
    pub fn destinations(&self, from: Square) -> Bitboard {
        if self.chess.is_some() {
            let mut list = StepList::new();
            self.chess_legal_steps(&mut list);
            return list
                .iter()
                .filter(|s| s.from == from)
                .map(|s| s.to)
                .collect();
        }
        let u = &self.units[self.board[from.index()] as usize];
        let s = u.side.index();
        let enemy = self.occupied[s ^ 1];
        let empty = self.variant.geometry.squares & !(self.occupied[s] | enemy);
        self.moveset_now(u.kind, s)
            .destinations(&self.variant.geometry, from, empty, enemy)
    }

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
        matches!(self.variant.command, CommandModel::Lead { .. }) && self.turn.lead == NO_UNIT
    }

    /// `end` is legal once the turn has a unit move and the game goes on.
    #[inline(always)]
    fn end_is_legal(&self) -> bool {
        self.turn.moves > 0
            && self.outcome.is_none()
            && self.variant.command != CommandModel::Single
    }

    /// All legal steps now (NOTATION.md's step rules).
    pub fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        if self.variant.command == CommandModel::Body {
            return self.for_each_body_step(|s| list.push(s));
        }
        if self.chess.is_some() {
            return self.chess_legal_steps(list);
        }
        if self.awaits_lead() {
            return self.for_each_lead_step(|s| list.push(s));
        }
        self.for_each_mover(|from, dests| {
            for to in dests.iter() {
                list.push(Step::new(from, to));
            }
        });
        if self.end_is_legal() {
            list.push(Step::END);
        }
    }

    /// The number of legal steps, without listing them.
    #[inline]
    pub fn count_steps(&self) -> u64 {
        if self.variant.command == CommandModel::Body {
            let mut n = 0;
            self.for_each_body_step(|_| n += 1);
            return n;
        }
        if self.chess.is_some() {
            return self.chess_count();
        }
        if self.awaits_lead() {
            let mut n = 0;
            self.for_each_lead_step(|_| n += 1);
            return n;
        }
        let mut n = self.end_is_legal() as u64;
        self.for_each_mover(|_, dests| n += dests.count() as u64);
        n
    }

    pub fn is_legal(&self, step: Step) -> bool {
        if self.variant.command == CommandModel::Body || self.chess.is_some() {
            let mut list = StepList::new();
            self.legal_steps(&mut list);
            return list.contains(step);
        }
        match step.kind {
            StepKind::Lead(_) => {
                let mut found = false;
                self.for_each_lead_step(|s| found |= s == step);
                found
            }
            StepKind::Pin | StepKind::Drop(_) | StepKind::Promote(_) => false,
            StepKind::End => self.end_is_legal(),
            StepKind::Move => {
                self.occupied[self.side.index()].has(step.from)
                    && self.movable_units().has(step.from)
                    && self.destinations(step.from).has(step.to)
            }
        }
    }

    /// Write a step as NOTATION.md does: `e2-e4`, `e2xe4` for a capture, or `end`.
    pub fn step_text(&self, step: Step) -> String {
        let geo = &self.variant.geometry;
        match step.kind {
            StepKind::End => "end".into(),
            StepKind::Lead(mode) => self.lead_text(step, mode),
            StepKind::Drop(kind) => format!(
                "{}@{}",
                self.variant.pieces[kind as usize].letter,
                geo.square_name(step.to)
            ),
            StepKind::Promote(kind) => format!(
                "{}{}{}={}",
                geo.square_name(step.from),
                if self.unit_at(step.to).is_some() {
                    'x'
                } else {
                    '-'
                },
                geo.square_name(step.to),
                self.variant.pieces[kind as usize].letter
            ),
            StepKind::Pin => format!(
                "{}~{}",
                geo.square_name(step.from),
                geo.square_name(step.to)
            ),
            StepKind::Move => {
                let capture = self
                    .unit_at(step.to)
                    .is_some_and(|u| Some(u.side) != self.unit_at(step.from).map(|f| f.side));
                format!(
                    "{}{}{}",
                    geo.square_name(step.from),
                    if capture { 'x' } else { '-' },
                    geo.square_name(step.to)
                )
            }
        }
    }

    /// Read a step (`e2-e4`, `e2xe4` or `end`) and check it is legal now; the error says why not.
    pub fn parse_step(&self, text: &str) -> Result<Step, String> {
        let text = text.trim();
        if text == "end" {
            let step = Step::END;
            return if self.is_legal(step) {
                Ok(step)
            } else if self.outcome.is_some() {
                Err("the game is over; no step is legal".into())
            } else if self.variant.command == CommandModel::Body
                && self.placing()
                && self.turn.moves > 0
            {
                let why = self.body_problem(self.side).unwrap_or_default();
                Err(format!("the placement is not finished: {why}"))
            } else {
                Err("'end' needs at least one unit move in the turn first".into())
            };
        }
        let geo = &self.variant.geometry;
        if self.chess.is_some() {
            return self.parse_chess_step(text);
        }
        if text.starts_with("lead") {
            return self.parse_lead(text);
        }
        if let Some((letter, square)) = text.split_once('@') {
            return self.parse_drop(text, letter, square);
        }
        let Some(sep) = text.find(['-', 'x', '~']) else {
            return Err(format!(
                "'{text}' is not a step: write <from>-<to>, <from>x<to> or end"
            ));
        };
        let pin = text[sep..].starts_with('~');
        let (a, b) = (&text[..sep], &text[sep + 1..]);
        let from = geo.parse_square(a).ok_or_else(|| {
            format!(
                "'{a}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            )
        })?;
        let to = geo.parse_square(b).ok_or_else(|| {
            format!(
                "'{b}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            )
        })?;
        let mut step = Step::new(from, to);
        if pin {
            step.kind = StepKind::Pin;
        }
        if self.is_legal(step) {
            return Ok(step);
        }
        Err(format!("{text} is illegal: {}", self.why_illegal(from, to)))
    }

    fn why_illegal(&self, from: Square, to: Square) -> String {
        let geo = &self.variant.geometry;
        let (fname, tname) = (geo.square_name(from), geo.square_name(to));
        if self.outcome.is_some() {
            return "the game is over".into();
        }
        let Some(u) = self.unit_at(from) else {
            return format!("there is no unit on {fname}");
        };
        let piece = &self.variant.pieces[u.kind as usize].name;
        if u.side != self.side {
            return format!(
                "the {piece} on {fname} is {}'s, and {} is to move",
                u.side.name(),
                self.side.name()
            );
        }
        if self.movable_units().has(from) {
            return format!("the {piece} on {fname} cannot reach {tname}");
        }
        let reactivate = matches!(
            self.variant.command,
            CommandModel::Chain {
                reactivate: true,
                ..
            }
        );
        if self.turn.moved.has(from) && !reactivate {
            return format!("the {piece} on {fname} has already moved this turn");
        }
        match self.variant.command {
            CommandModel::Chain { cap, .. } => {
                let g = u.group as usize;
                if cap > 0 && self.turn.moves >= cap {
                    format!("this turn has used all {cap} activations")
                } else if self.turn.group.is_some_and(|c| c as usize != g) {
                    format!("this turn moves chesimal ({}); the {piece} on {fname} belongs to chesimal ({})", self.turn.group.unwrap() + 1, g + 1)
                } else if self.leaders[u.side.index()][g] == NO_UNIT {
                    format!("chesimal ({}) has lost its leader and cannot move", g + 1)
                } else {
                    format!("the {piece} on {fname} is not linked to its leader by a chain of adjacent units")
                }
            }
            CommandModel::Range { range, .. } => {
                format!(
                    "no {} with an activation left is within {range} squares of {fname}",
                    self.leader_name()
                )
            }
            CommandModel::Single => format!("the {piece} on {fname} cannot move"),
            CommandModel::Lead { .. } => self.why_illegal_lead(from, piece),
            CommandModel::Body => self.why_illegal_body(from, piece),
        }
    }

    fn parse_drop(&self, text: &str, letter: &str, square: &str) -> Result<Step, String> {
        let geo = &self.variant.geometry;
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(format!(
                "'{text}': write a placement as <letter>@<square>, like K@e1"
            ));
        };
        let kind = self
            .variant
            .kind_of_letter(c)
            .filter(|_| c.is_ascii_alphabetic())
            .ok_or_else(|| format!("'{text}': '{c}' is not a piece of {}", self.variant.id))?;
        let to = geo.parse_square(square).ok_or_else(|| {
            format!(
                "'{square}' in '{text}' is not a square of the {}x{} board",
                geo.files, geo.ranks
            )
        })?;
        let step = Step::drop(kind as u8, to);
        if self.is_legal(step) {
            return Ok(step);
        }
        let why = if self.variant.placement.is_none()
            || !(self.variant.command == CommandModel::Body && self.placing())
        {
            "pieces are placed only in the placement phase".to_string()
        } else if self.pocket[self.side.index()][kind] == 0 {
            format!(
                "{} has no {} left to place",
                self.side.name(),
                self.variant.pieces[kind].name
            )
        } else if self.unit_at(to).is_some() {
            format!("{square} is occupied")
        } else {
            format!(
                "{} places on its first {} ranks only",
                self.side.name(),
                self.variant.placement.as_ref().map_or(0, |p| p.ranks)
            )
        };
        Err(format!("{text} is illegal: {why}"))
    }

    fn why_illegal_body(&self, from: Square, piece: &str) -> String {
        let fname = self.variant.geometry.square_name(from);
        let role = self
            .unit_at(from)
            .and_then(|u| self.variant.pieces[u.kind as usize].role);
        let follower = matches!(role, Some(BodyRole::Hair | BodyRole::Limb));
        if self.turn.moves == 0 && follower {
            format!("the {piece} on {fname} moves only as a follower, after the main move")
        } else if self.turn.moves == 0 {
            format!("the {piece} on {fname} is pinned")
        } else if follower {
            format!("the {piece} on {fname} did not stand next to the main piece's start square, or is pinned")
        } else {
            "this turn's main move is made; only follower steps of Hair and Limbs remain".into()
        }
    }

    fn leader_name(&self) -> String {
        self.variant
            .pieces
            .iter()
            .find(|p| p.leader)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| "leader".into())
    }

    /// Play a whole turn written as steps (spaces or commas between them); the turn is closed
    /// with `end` if the text does not end it. On error the position is unchanged.
    pub fn apply_turn(&mut self, text: &str) -> Result<Vec<Step>, String> {
        let start_side = self.side;
        let mut played = Vec::new();
        let mut undos = Vec::new();
        let words: Vec<&str> = text
            .split([' ', ',', '\t', '\n'])
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() {
            return Err("the turn has no steps".into());
        }
        let fail = |pos: &mut Position, played: &Vec<Step>, undos: &mut Vec<_>, msg: String| {
            for (step, undo) in played.iter().zip(undos.drain(..)).rev() {
                pos.unmake(*step, undo);
            }
            Err(msg)
        };
        for (i, w) in words.iter().enumerate() {
            if self.side != start_side {
                let msg = format!("step {} '{w}': the turn already ended", i + 1);
                return fail(self, &played, &mut undos, msg);
            }
            match self.parse_step(w) {
                Ok(step) => {
                    undos.push(self.make(step));
                    played.push(step);
                }
                Err(e) => {
                    return fail(
                        self,
                        &played,
                        &mut undos,
                        format!("step {} '{w}': {e}", i + 1),
                    )
                }
            }
        }
        if self.side == start_side && self.outcome.is_none() {
            match self.parse_step("end") {
                Ok(end) => {
                    undos.push(self.make(end));
                    played.push(end);
                }
                Err(e) => return fail(self, &played, &mut undos, format!("closing the turn: {e}")),
            }
        }
        Ok(played)
    }

    /// Side whose units these are, for the UI.
    pub fn side_of(&self, sq: Square) -> Option<Side> {
        self.unit_at(sq).map(|u| u.side)
    }
}
