//! Positions: units with identity on a board, the side to move, the explicit turn state,
//! make/unmake of steps, and an incrementally kept Zobrist hash that covers the turn state.

use std::fmt;
use std::sync::Arc;

use crate::bitboard::{Bitboard, Square};
use crate::step::{Step, StepKind};
use crate::variant::{CommandModel, Variant, MAX_ACTIVATORS, MAX_GROUPS, MAX_KINDS};
use crate::zobrist::ZOBRIST;

/// Marks "no unit" in the board array and in leader slots.
pub const NO_UNIT: u8 = u8::MAX;
/// Unit ids are u8 below NO_UNIT; no built-in game comes near this.
pub const MAX_UNITS: usize = 200;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    #[inline(always)]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }
}

/// A unit with identity: it keeps its id for the whole game, so "each unit moves once a
/// turn" and chesimal membership survive any rearrangement of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub square: Square,
    pub kind: u8,
    pub side: Side,
    /// Group index (0-based; `(1)` in notation is group 0). 0 in games without groups.
    pub group: u8,
    pub alive: bool,
}

/// Where the current turn stands. A fresh turn is `TurnState::default()`.
/// Aligned to 32 bytes (64 in all) so that saving and restoring it are two whole, aligned
/// vector moves: overlapping copies defeated store forwarding in make/unmake.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(C, align(32))]
pub struct TurnState {
    /// Unit moves made so far this turn.
    pub moves: u8,
    /// Chain model: the chesimal this turn moves, fixed by its first step.
    pub group: Option<u8>,
    /// Squares of the units that moved this turn (where they stand now).
    pub moved: Bitboard,
    /// Range model: bit `s` is set when the moves so far can be matched to distinct leaders
    /// making up the subset `s` (bit i of s = the side's i-th leader). A fresh turn has only
    /// the empty subset.
    pub feasible: u64,
    /// Body model: the main move's start square, and which of its eight neighbours (bit d =
    /// direction d of `geometry::DIRECTIONS`) hold a Hair or Limb that may still follow.
    /// Kept this small so that TurnState copies as two aligned vector moves.
    pub main_from: Square,
    pub follower_dirs: u8,
    /// Body model: the turn has made its one capture.
    pub captured: bool,
    /// Placement phase: this turn places units (`K@e1`) rather than moving them.
    pub placing: bool,
    /// Lead model: the unit id of the leader leading this turn (NO_UNIT before `lead`), and
    /// the index of its mode in `Variant::lead_modes`.
    pub lead: u8,
    pub mode: u8,
}

impl Default for TurnState {
    fn default() -> Self {
        TurnState {
            moves: 0,
            group: None,
            moved: Bitboard::EMPTY,
            feasible: 1,
            main_from: Square::from_index(0),
            follower_dirs: 0,
            captured: false,
            placing: false,
            lead: NO_UNIT,
            mode: 0,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// What `unmake` needs to take a step back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: u8,
    turn: TurnState,
    hash: u64,
    outcome: Option<Outcome>,
    side: Side,
}

#[derive(Clone)]
pub struct Position {
    pub(crate) variant: Arc<Variant>,
    pub(crate) board: [u8; 256],
    pub(crate) units: Vec<Unit>,
    pub(crate) occupied: [Bitboard; 2],
    pub(crate) groups: [[Bitboard; MAX_GROUPS]; 2],
    /// Chain model: the living leader of each group, or NO_UNIT once it is captured.
    pub(crate) leaders: [[u8; MAX_GROUPS]; 2],
    /// Range model: the side's leader units, in id order; bit i of a subset is entry i.
    pub(crate) activators: [[u8; MAX_ACTIVATORS]; 2],
    pub(crate) activator_count: [u8; 2],
    pub(crate) royals: [u8; 2],
    pub(crate) side: Side,
    pub(crate) turn: TurnState,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) hash: u64,
    /// Body model: the pinned unit under a Hand on each shared square (NO_UNIT elsewhere);
    /// `board` holds the Hand on top.
    pub(crate) under: [u8; 256],
    pub(crate) shared: Bitboard,
    /// Body model: state saved by each step, restored by `unmake` (see lifeform.rs).
    pub(crate) body_undo: Vec<crate::lifeform::BodySnapshot>,
    /// FIDE chess: the dedicated 8x8 core (the generic fields above mirror it).
    pub(crate) chess: Option<Box<crate::chess::ChessState>>,
    /// Units of each kind each side has still to place (placement variants).
    pub(crate) pocket: [[u8; MAX_KINDS]; 2],
}

/// A malformed position string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for PositionError {}

impl Position {
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    pub fn turn(&self) -> &TurnState {
        &self.turn
    }
    /// Set when a victory condition was met (possibly in the middle of a turn).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }
    pub fn unit_at(&self, sq: Square) -> Option<&Unit> {
        let id = self.board[sq.index()];
        (id != NO_UNIT).then(|| &self.units[id as usize])
    }
    /// Lifeform: the enemy piece pinned under the Hand on `sq`, if the square is shared.
    pub fn pinned_at(&self, sq: Square) -> Option<&Unit> {
        let id = self.under[sq.index()];
        (id != NO_UNIT).then(|| &self.units[id as usize])
    }
    /// Units each side has still to place (placement variants), by piece kind.
    pub fn pocket(&self, side: Side) -> &[u8] {
        &self.pocket[side.index()][..self.variant.pieces.len()]
    }
    /// The units on the board.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.alive)
    }
    /// The units taken off the board so far: captured, or removed (Lifeform's regulations).
    pub fn removed_units(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| !u.alive)
    }
    pub fn occupied(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }
    /// True at the start of a turn (no step of it made yet).
    pub fn at_turn_start(&self) -> bool {
        self.turn.moves == 0 && self.turn.lead == NO_UNIT
    }

    /// Parse a position string (NOTATION.md): `<board> <side>`.
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<Position, PositionError> {
        let err = |m: String| Err(PositionError(m));
        let geo = &variant.geometry;
        if variant.fide {
            let mut pos = Position::empty(variant, Side::White);
            pos.parse_fen(text)?;
            return Ok(pos);
        }
        let mut fields = text.split_whitespace();
        let Some(board) = fields.next() else {
            return err("empty position string".into());
        };
        let side = match fields.next() {
            Some("w") => Side::White,
            Some("b") => Side::Black,
            Some(other) => return err(format!("side to move must be 'w' or 'b', found '{other}'")),
            None => return err("missing side to move ('w' or 'b') after the board".into()),
        };
        let mut fields = fields.peekable();
        let pocket_text = if variant.placement.is_some() {
            fields.next()
        } else {
            None
        };
        if let Some(extra) = fields.next() {
            return err(format!(
                "unexpected field '{extra}' after the side to move ({} takes no more fields)",
                variant.id
            ));
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return err(format!(
                "board has {} ranks separated by '/', {} needs {}",
                rows.len(),
                variant.id,
                geo.ranks
            ));
        }
        let mut pos = Position::empty(variant, side);
        let uses_groups = !variant.groups.is_empty();
        for (ri, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - ri as u8;
            let where_ = || format!("rank {}", rank + 1);
            let chars: Vec<char> = row.chars().collect();
            let (mut i, mut file) = (0usize, 0u32);
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    let start = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    let run: String = chars[start..i].iter().collect();
                    match run.parse::<u32>() {
                        Ok(n) if n > 0 && !run.starts_with('0') => file = file.saturating_add(n),
                        _ => return err(format!("{}: bad empty-square count '{run}'", where_())),
                    }
                    continue;
                }
                let Some(kind) = variant
                    .kind_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                else {
                    return err(format!(
                        "{}: '{c}' is not a piece of {}",
                        where_(),
                        variant.id
                    ));
                };
                i += 1;
                let mut group = 0u8;
                if chars.get(i) == Some(&'(') {
                    let close = chars[i..].iter().position(|&c| c == ')').map(|p| p + i);
                    let Some(close) = close else {
                        return err(format!("{}: '(' without ')'", where_()));
                    };
                    let num: String = chars[i + 1..close].iter().collect();
                    match num.parse::<usize>() {
                        Ok(n)
                            if uses_groups
                                && (1..=variant.groups.len()).contains(&n)
                                && !num.starts_with('0') =>
                        {
                            group = n as u8 - 1
                        }
                        _ if !uses_groups => {
                            return err(format!(
                                "{}: {} has no groups, found '({num})'",
                                where_(),
                                variant.id
                            ))
                        }
                        _ => {
                            return err(format!(
                                "{}: group '({num})' must be 1..{}",
                                where_(),
                                variant.groups.len()
                            ))
                        }
                    }
                    i = close + 1;
                } else if uses_groups {
                    return err(format!(
                        "{}: unit '{c}' needs a group number, like '{c}(1)'",
                        where_()
                    ));
                }
                if file >= geo.files as u32 {
                    return err(format!("{}: more than {} files", where_(), geo.files));
                }
                let sq = Square::new(file as u8, rank);
                let side = if c.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                };
                pos.add_unit(Unit {
                    square: sq,
                    kind: kind as u8,
                    side,
                    group,
                    alive: true,
                })?;
                if chars.get(i) == Some(&'~') {
                    let pinned = chars.get(i + 1).copied().unwrap_or(' ');
                    pos.add_pinned(sq, kind, side, pinned)
                        .map_err(|m| PositionError(format!("{}: '{c}~{pinned}': {m}", where_())))?;
                    i += 2;
                }
                file += 1;
            }
            if file != geo.files as u32 {
                return err(format!(
                    "{}: {} files described, the board has {}",
                    where_(),
                    file,
                    geo.files
                ));
            }
        }
        if let Some(text) = pocket_text.filter(|t| *t != "-") {
            for c in text.chars() {
                let kind = variant
                    .kind_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                    .ok_or_else(|| {
                        PositionError(format!(
                            "pieces to place: '{c}' is not a piece of {}",
                            variant.id
                        ))
                    })?;
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                pos.pocket[side][kind] += 1;
                if pos.pocket[side][kind] > 64 {
                    return err(format!("pieces to place: too many '{c}'"));
                }
            }
        }
        let bound = pos.step_bound();
        if bound > crate::step::MAX_STEPS {
            return err(format!(
                "these units could have up to {bound} legal steps in one turn, more than the {} \
                 a step list holds; use fewer units or shorter moves",
                crate::step::MAX_STEPS
            ));
        }
        pos.outcome = pos.judge_at_turn_start();
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// An upper bound on the legal steps of either side in any position reachable from this
    /// one (units never multiply; drops come from the pockets): each unit's most destinations,
    /// twice for the body model (a Hand's capture or pin) plus its follower steps, the lead
    /// steps, the drops and `end`.
    fn step_bound(&self) -> usize {
        let v = &self.variant;
        let body = v.command == CommandModel::Body;
        let mut most = 0;
        for side in [Side::White, Side::Black] {
            let s = side.index();
            let mut n = 1;
            for u in self.units.iter().filter(|u| u.alive && u.side == side) {
                let p = &v.pieces[u.kind as usize];
                n += p.max_steps[s] as usize * if body { 2 } else { 1 } + if body { 8 } else { 0 };
                if p.leader {
                    n += v.lead_modes.iter().filter(|m| m.leader == u.kind).count();
                }
            }
            let drops = self.pocket[s].iter().filter(|&&c| c > 0).count();
            n += drops * v.geometry.squares.count() as usize;
            most = most.max(n);
        }
        most
    }

    /// A position read from text may already be over (NOTATION.md: it then has no legal
    /// steps): a side without royal units has lost; in Lifeform, once both bodies are placed,
    /// a side without Head, Torso or Neck has lost (both: a draw).
    fn judge_at_turn_start(&self) -> Option<Outcome> {
        let lost = match self.variant.victory {
            crate::variant::Victory::CaptureRoyals => [self.royals[0] == 0, self.royals[1] == 0],
            crate::variant::Victory::Body => {
                if self.pocket.iter().flatten().any(|&n| n > 0) {
                    return None;
                }
                [self.body_lost(Side::White), self.body_lost(Side::Black)]
            }
            crate::variant::Victory::Checkmate => return None,
        };
        match lost {
            [true, true] => Some(Outcome::Draw),
            [true, false] => Some(Outcome::Win(Side::Black)),
            [false, true] => Some(Outcome::Win(Side::White)),
            [false, false] => None,
        }
    }

    /// A board without units.
    fn empty(variant: &Arc<Variant>, side: Side) -> Position {
        Position {
            variant: variant.clone(),
            board: [NO_UNIT; 256],
            units: Vec::new(),
            occupied: [Bitboard::EMPTY; 2],
            groups: [[Bitboard::EMPTY; MAX_GROUPS]; 2],
            leaders: [[NO_UNIT; MAX_GROUPS]; 2],
            activators: [[NO_UNIT; MAX_ACTIVATORS]; 2],
            activator_count: [0; 2],
            royals: [0; 2],
            side,
            turn: TurnState::default(),
            outcome: None,
            hash: 0,
            under: [NO_UNIT; 256],
            shared: Bitboard::EMPTY,
            body_undo: Vec::new(),
            pocket: [[0; MAX_KINDS]; 2],
            chess: None,
        }
    }

    /// Lifeform: the unit written after `~`, pinned under the Hand just added on `sq`.
    fn add_pinned(
        &mut self,
        sq: Square,
        hand: usize,
        side: Side,
        letter: char,
    ) -> Result<(), String> {
        use crate::variant::BodyRole;
        let v = self.variant.clone();
        if v.command != CommandModel::Body {
            return Err(format!(
                "a pinned piece ('~') exists only in Lifeform, not in {}",
                v.id
            ));
        }
        if v.pieces[hand].role != Some(BodyRole::Hand) {
            return Err("only a Hand can pin ('~' must follow a Hand)".into());
        }
        let kind = v
            .kind_of_letter(letter)
            .filter(|_| letter.is_ascii_alphabetic())
            .ok_or_else(|| format!("'{letter}' is not a piece of {}", v.id))?;
        let pinned_side = if letter.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        if pinned_side == side {
            return Err("a Hand pins only an enemy piece".into());
        }
        if v.pieces[kind].role == Some(BodyRole::Hair) {
            return Err("Hair cannot be pinned".into());
        }
        let top = self.board[sq.index()];
        self.add_unit(Unit {
            square: sq,
            kind: kind as u8,
            side: pinned_side,
            group: 0,
            alive: true,
        })
        .map_err(|e| e.0)?;
        self.under[sq.index()] = self.board[sq.index()];
        self.board[sq.index()] = top;
        self.shared.set(sq);
        Ok(())
    }

    pub(crate) fn add_unit(&mut self, unit: Unit) -> Result<(), PositionError> {
        if self.units.len() >= MAX_UNITS {
            return Err(PositionError(format!("more than {MAX_UNITS} units")));
        }
        let id = self.units.len() as u8;
        let (s, g) = (unit.side.index(), unit.group as usize);
        let kind = &self.variant.pieces[unit.kind as usize];
        if kind.leader {
            match self.variant.command {
                CommandModel::Chain { .. } => {
                    if self.leaders[s][g] != NO_UNIT {
                        return Err(PositionError(format!(
                            "{}'s group ({}) has two leaders; the second is on {:?}",
                            unit.side.name(),
                            g + 1,
                            unit.square
                        )));
                    }
                    self.leaders[s][g] = id;
                }
                CommandModel::Range { activations, .. } => {
                    // A leader with k activations a turn stands for k leaders in the matching.
                    for _ in 0..activations {
                        let n = self.activator_count[s] as usize;
                        if n >= MAX_ACTIVATORS {
                            return Err(PositionError(format!(
                                "{} has more than {MAX_ACTIVATORS} activations a turn",
                                unit.side.name()
                            )));
                        }
                        self.activators[s][n] = id;
                        self.activator_count[s] += 1;
                    }
                }
                CommandModel::Single | CommandModel::Body | CommandModel::Lead { .. } => {}
            }
        }
        if kind.royal {
            self.royals[s] += 1;
        }
        self.board[unit.square.index()] = id;
        self.occupied[s].set(unit.square);
        self.groups[s][g].set(unit.square);
        self.units.push(unit);
        Ok(())
    }

    /// The position string (NOTATION.md). Only defined at the start of a turn; mid-turn it
    /// writes the board as it stands with the side still to finish its turn.
    pub fn to_text(&self) -> String {
        if self.chess.is_some() {
            return self.chess_fen();
        }
        let geo = &self.variant.geometry;
        let mut out = String::new();
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                match self.unit_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(u) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        let letter = self.variant.pieces[u.kind as usize].letter;
                        out.push(if u.side == Side::White {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                        if !self.variant.groups.is_empty() {
                            out += &format!("({})", u.group + 1);
                        }
                        let under = self.under[Square::new(file, rank).index()];
                        if under != NO_UNIT {
                            let p = &self.units[under as usize];
                            let l = self.variant.pieces[p.kind as usize].letter;
                            out.push('~');
                            out.push(if p.side == Side::White {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            });
                        }
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.side == Side::White { 'w' } else { 'b' });
        if self.variant.placement.is_some() {
            out.push(' ');
            let mut pocket = String::new();
            for side in [Side::White, Side::Black] {
                for (kind, &n) in self.pocket[side.index()].iter().enumerate() {
                    let l = self.variant.pieces.get(kind).map_or('?', |p| p.letter);
                    let l = if side == Side::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    pocket.extend(std::iter::repeat_n(l, n as usize));
                }
            }
            out += if pocket.is_empty() { "-" } else { &pocket };
        }
        out
    }

    #[inline(always)]
    fn unit_key(u: &Unit) -> u64 {
        ZOBRIST.unit(u.side, u.kind, u.group, u.square)
    }

    fn turn_key(turn: &TurnState) -> u64 {
        let z = &ZOBRIST;
        let mut h = z.moves[turn.moves as usize] ^ z.feasible_key(turn.feasible);
        if let Some(g) = turn.group {
            h ^= z.chosen[g as usize];
        }
        for sq in turn.moved.iter() {
            h ^= z.moved[sq.index()];
        }
        for d in 0..8 {
            if turn.follower_dirs >> d & 1 != 0 {
                h ^= z.follower[turn.main_from.index() * 8 + d];
            }
        }
        if turn.captured {
            h ^= z.captured;
        }
        if turn.placing {
            h ^= z.placing;
        }
        if turn.lead != NO_UNIT {
            h ^= z.lead[turn.lead as usize] ^ z.lead_mode[turn.mode as usize & 63];
        }
        h
    }

    /// The hash computed from scratch; `hash()` keeps it incrementally.
    pub fn compute_hash(&self) -> u64 {
        if let Some(c) = &self.chess {
            return c.board_hash();
        }
        let mut h = self.units().map(Self::unit_key).fold(0, |a, b| a ^ b);
        if self.side == Side::Black {
            h ^= ZOBRIST.side;
        }
        for (s, counts) in self.pocket.iter().enumerate() {
            for (kind, &n) in counts.iter().enumerate() {
                h ^= ZOBRIST.pocket(s, kind, n);
            }
        }
        h ^ Self::turn_key(&self.turn)
    }

    /// Leaders of the side to move within activation range of `sq`, as a bit mask.
    #[inline(always)]
    pub(crate) fn activators_covering(&self, sq: Square) -> u8 {
        let s = self.side.index();
        let kind = self.units[self.board[sq.index()] as usize].kind;
        let mut m = 0;
        for i in 0..self.activator_count[s] as usize {
            let u = &self.units[self.activators[s][i] as usize];
            if u.alive
                && self.variant.range_box[u.square.index()].has(sq)
                && self.variant.activates[u.kind as usize] >> kind & 1 != 0
            {
                m |= 1 << i;
            }
        }
        m
    }

    /// Own units of the kinds the leader kind `leader` may activate (`activates` lines).
    pub(crate) fn activatable_by(&self, leader: u8) -> Bitboard {
        let (s, mask) = (self.side, self.variant.activates[leader as usize]);
        self.units
            .iter()
            .filter(|u| u.alive && u.side == s && mask >> u.kind & 1 != 0)
            .map(|u| u.square)
            .collect()
    }

    /// Play one step. The step must be legal (see `legal_steps`); `unmake` takes it back.
    pub fn make(&mut self, step: Step) -> Undo {
        let mut undo = Undo {
            captured: NO_UNIT,
            turn: self.turn,
            hash: self.hash,
            outcome: self.outcome,
            side: self.side,
        };
        if self.variant.command == CommandModel::Body {
            crate::lifeform::make(self, step);
            return undo;
        }
        if self.chess.is_some() {
            self.chess_make(step);
            return undo;
        }
        match step.kind {
            StepKind::End => self.end_turn(),
            StepKind::Pin | StepKind::Drop(_) | StepKind::Promote(_) => {
                unreachable!("pins, drops and promotions exist only in Lifeform and chess")
            }
            StepKind::Lead(mode) => {
                let z = &ZOBRIST;
                let id = self.board[step.from.index()];
                self.hash ^= z.lead[id as usize] ^ z.lead_mode[mode as usize & 63];
                self.turn.lead = id;
                self.turn.mode = mode;
            }
            StepKind::Move => {
                undo.captured = self.move_unit(step.from, step.to);
                if self.variant.command == CommandModel::Single {
                    self.end_turn();
                }
            }
        }
        undo
    }

    pub fn unmake(&mut self, step: Step, undo: Undo) {
        if self.variant.command == CommandModel::Body {
            crate::lifeform::unmake(self);
        } else if self.chess.is_some() {
            self.chess_unmake(step);
        } else if step.kind == StepKind::Move {
            let id = self.board[step.to.index()];
            let u = self.units[id as usize];
            let s = u.side.index();
            self.board[step.to.index()] = NO_UNIT;
            self.board[step.from.index()] = id;
            self.units[id as usize].square = step.from;
            let both = Bitboard::from_square(step.from) | Bitboard::from_square(step.to);
            self.occupied[s] ^= both;
            self.groups[s][u.group as usize] ^= both;
            if undo.captured != NO_UNIT {
                self.restore_unit(undo.captured);
            }
        }
        self.turn = undo.turn;
        self.hash = undo.hash;
        self.outcome = undo.outcome;
        self.side = undo.side;
    }

    pub(crate) fn end_turn(&mut self) {
        self.hash ^= Self::turn_key(&self.turn) ^ ZOBRIST.side;
        self.turn = TurnState::default();
        self.side = self.side.other();
    }

    /// Move the unit on `from` to `to`, capturing what stands there; returns the captured id.
    fn move_unit(&mut self, from: Square, to: Square) -> u8 {
        let z = &ZOBRIST;
        let id = self.board[from.index()];
        let u = self.units[id as usize];
        let s = u.side.index();
        // Command bookkeeping first: activation is judged where the leaders stand now.
        match self.variant.command {
            CommandModel::Chain { .. } => {
                if self.turn.group.is_none() {
                    self.turn.group = Some(u.group);
                    self.hash ^= z.chosen[u.group as usize];
                }
            }
            CommandModel::Range { .. } => {
                let covering = self.activators_covering(from);
                let next = extend_matching(self.turn.feasible, covering);
                self.hash ^= z.feasible_key(self.turn.feasible) ^ z.feasible_key(next);
                self.turn.feasible = next;
            }
            CommandModel::Single | CommandModel::Body | CommandModel::Lead { .. } => {}
        }
        let captured = self.board[to.index()];
        if captured != NO_UNIT {
            self.remove_unit(captured);
        }
        self.board[from.index()] = NO_UNIT;
        self.board[to.index()] = id;
        self.units[id as usize].square = to;
        let both = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.occupied[s] ^= both;
        self.groups[s][u.group as usize] ^= both;
        self.hash ^= Self::unit_key(&u) ^ Self::unit_key(&self.units[id as usize]);
        if self.turn.moved.has(from) {
            self.turn.moved.clear(from);
            self.hash ^= z.moved[from.index()];
        }
        self.turn.moved.set(to);
        self.hash ^= z.moved[to.index()];
        let m = self.turn.moves as usize;
        self.hash ^= z.moves[m] ^ z.moves[m + 1];
        self.turn.moves += 1;
        captured
    }

    fn remove_unit(&mut self, id: u8) {
        let u = self.units[id as usize];
        let s = u.side.index();
        self.units[id as usize].alive = false;
        self.board[u.square.index()] = NO_UNIT;
        self.occupied[s].clear(u.square);
        self.groups[s][u.group as usize].clear(u.square);
        self.hash ^= Self::unit_key(&u);
        let kind = &self.variant.pieces[u.kind as usize];
        if kind.royal {
            self.royals[s] -= 1;
            if self.royals[s] == 0 {
                self.outcome = Some(Outcome::Win(u.side.other()));
            }
        }
        if kind.leader && self.leaders[s][u.group as usize] == id {
            self.leaders[s][u.group as usize] = NO_UNIT;
        }
    }

    fn restore_unit(&mut self, id: u8) {
        let u = self.units[id as usize];
        let s = u.side.index();
        self.units[id as usize].alive = true;
        self.board[u.square.index()] = id;
        self.occupied[s].set(u.square);
        self.groups[s][u.group as usize].set(u.square);
        let kind = &self.variant.pieces[u.kind as usize];
        if kind.royal {
            self.royals[s] += 1;
        }
        if kind.leader && matches!(self.variant.command, CommandModel::Chain { .. }) {
            self.leaders[s][u.group as usize] = id;
        }
    }
}

/// Range model: the feasible leader subsets after one more move that the leaders in
/// `covering` could have activated (each subset gains one leader it did not yet use).
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

/// Range model: leaders that are unused in at least one feasible matching.
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

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Position({} {:?})", self.to_text(), self.turn)
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
