//! Ataxx as a Cohort game family, written outside the rules crate against its public
//! interface only (`cohort_rules::Rules`): its own board (two 64-bit sets and the blocked
//! squares), its own undo and hash, its own ends. It is registered once (`FAMILY`, listed in
//! crates/families) and is then played everywhere a built-in family is: perft, matches,
//! analysis, records, the server and the web.
//!
//! Rules: a 7x7 board; White (`x`, first to move) starts on a7 and g1, Black (`o`) on g7 and
//! a1. A move is a clone (a new stone of the mover on an empty square next to one of its
//! stones) or a jump (a stone moves to an empty square exactly two squares away). Every
//! enemy stone next to the square reached then changes side. A side with no move passes.
//! The game ends when the board is full, when a side has no stones or when neither side can
//! move: the side with more stones wins. 100 half-moves without a clone draw.
//!
//! Steps: a clone is one step per destination (`Step::drop(0, to)`, written `c3`), a jump
//! is `Step::new(from, to)` (`a1-c3`), a pass `Step::PASS` (`pass`).

use std::sync::{Arc, LazyLock};

use cohort_rules::{
    Bitboard, Effect, Effects, EndReason, Explain, FamilyEntry, Illegal, Outcome, OutsideGame,
    PositionError, Rules, SearchHooks, Side, Square, Step, StepError, StepKind, StepList, Unit,
    Variant,
};

/// The family as the registry knows it: `family = ataxx` in a variant file.
pub static FAMILY: FamilyEntry = FamilyEntry {
    name: "ataxx",
    variant_files: &[("ataxx.ini", include_str!("ataxx.ini"))],
    parse: |variant, text| Ataxx::parse(variant, text).map(OutsideGame::new),
};

/// The ends of its own.
pub const BOARD_FULL: EndReason = EndReason::Family("the board is full");
pub const NO_STONES: EndReason = EndReason::Family("a side has no stones");
pub const NO_MOVES: EndReason = EndReason::Family("neither side can move");
pub const NO_CLONE: EndReason = EndReason::Family("100 half-moves without a clone");

/// Half-moves without a clone that draw.
pub const CLOCK_LIMIT: u16 = 100;

/// The variant data of the built-in `ataxx` (board, piece, value): read once.
static VARIANT: LazyLock<Arc<Variant>> = LazyLock::new(|| {
    cohort_rules::register(&FAMILY);
    cohort_rules::builtin("ataxx").expect("ataxx.ini defines ataxx")
});

// The board: bit `rank * 8 + file` (a1 = 0, g7 = 54); the eighth file is never used, so a
// set shifts sideways by one bit and the bits that leave the board land off it.
const BOARD: u64 = 0x007F_7F7F_7F7F_7F7F;

/// Squares within king distance `d` of a square (itself excluded).
const fn ring(d: i32, exact: bool) -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (f, r) = ((i % 8) as i32, (i / 8) as i32);
        if f < 7 && r < 7 {
            let mut m = 0u64;
            let mut dr = -d;
            while dr <= d {
                let mut df = -d;
                while df <= d {
                    let (tf, tr) = (f + df, r + dr);
                    let far = if df.abs() > dr.abs() {
                        df.abs()
                    } else {
                        dr.abs()
                    };
                    if tf >= 0 && tf < 7 && tr >= 0 && tr < 7 && far > 0 && (!exact || far == d) {
                        m |= 1 << (tr * 8 + tf);
                    }
                    df += 1;
                }
                dr += 1;
            }
            out[i] = m;
        }
        i += 1;
    }
    out
}

/// The squares king-adjacent to each square (where a clone lands, and the stones it turns).
static NEAR: [u64; 64] = ring(1, false);
/// The squares at king distance exactly 2 of each square (where a jump lands).
static JUMP: [u64; 64] = ring(2, true);

/// A set grown by one king step, kept on the board.
#[inline(always)]
fn dilate(b: u64) -> u64 {
    let h = b | ((b << 1 | b >> 1) & BOARD);
    (h | h << 8 | h >> 8) & BOARD
}

/// Zobrist keys: a stone of each side on each square, and the side to move.
struct Keys {
    stone: [[u64; 64]; 2],
    black: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut x = 0xA7A7_0C3E_5D1B_2F49u64;
    let mut next = || {
        // splitmix64
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut stone = [[0; 64]; 2];
    for side in &mut stone {
        for k in side.iter_mut() {
            *k = next();
        }
    }
    Keys {
        stone,
        black: next(),
    }
});

/// An Ataxx position.
#[derive(Clone, Debug)]
pub struct Ataxx {
    variant: Arc<Variant>,
    /// White's (`x`) and Black's (`o`) stones.
    stones: [u64; 2],
    /// Squares no stone may enter (`-`).
    blocked: u64,
    side: Side,
    /// Half-moves since the last clone.
    clock: u16,
    /// The full-move number (starts at 1, grows after Black's move).
    fullmove: u16,
    outcome: Option<Outcome>,
    hash: u64,
}

/// Two positions are equal when their boards, side, counters, outcome and hash are (the
/// variant is data, shared).
impl PartialEq for Ataxx {
    fn eq(&self, other: &Self) -> bool {
        let key = |a: &Ataxx| {
            (
                a.stones, a.blocked, a.side, a.clock, a.fullmove, a.outcome, a.hash,
            )
        };
        key(self) == key(other) && Arc::ptr_eq(&self.variant, &other.variant)
    }
}
impl Eq for Ataxx {}

/// What `unmake` needs: the stones that changed side, the hash, the clock and the outcome
/// before the step.
#[derive(Copy, Clone, Debug)]
pub struct AtaxxUndo {
    flipped: u64,
    hash: u64,
    clock: u16,
    outcome: Option<Outcome>,
}

#[inline(always)]
fn square(i: u32) -> Square {
    Square::new((i % 8) as u8, (i / 8) as u8)
}
#[inline(always)]
fn index(sq: Square) -> u32 {
    sq.rank() as u32 * 8 + sq.file() as u32
}
fn on_board(sq: Square) -> bool {
    sq.file() < 7 && sq.rank() < 7
}
fn name(i: u32) -> String {
    format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1)
}
/// `c3` -> its bit index.
fn read_square(text: &str) -> Option<u32> {
    let b = text.as_bytes();
    match b {
        [f @ b'a'..=b'g', r @ b'1'..=b'7'] => Some((r - b'1') as u32 * 8 + (f - b'a') as u32),
        _ => None,
    }
}
fn bits(mut b: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = b.trailing_zeros();
            b &= b - 1;
            i
        })
    })
}

impl Ataxx {
    /// The start: `x5o/7/7/7/7/7/o5x x 0 1`.
    pub fn start() -> Ataxx {
        Ataxx::parse(&VARIANT, &VARIANT.setup).expect("the setup of ataxx.ini")
    }

    /// A position of the built-in variant from its text (`to_text`'s form).
    pub fn from_text(text: &str) -> Result<Ataxx, PositionError> {
        Ataxx::parse(&VARIANT, text)
    }

    /// The hash computed from scratch (`hash()` keeps it incrementally). The clocks are not
    /// part of it.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Black {
            KEYS.black
        } else {
            0
        };
        for s in 0..2 {
            for i in bits(self.stones[s]) {
                h ^= KEYS.stone[s][i as usize];
            }
        }
        h
    }

    /// Half-moves since the last clone.
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The number of stones of `side`.
    pub fn stones(&self, side: Side) -> u32 {
        self.stones[side.index()].count_ones()
    }

    /// Read a position as `to_text` writes it: ranks from 7 down, `x` White, `o` Black, `-`
    /// a blocked square, digits for empty runs; then the side to move (`x` or `o`) and,
    /// optionally, the half-move clock and the full-move number.
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<Ataxx, PositionError> {
        let bad = |what: String| {
            Err(PositionError::Family {
                message: format!("{what} in '{text}'"),
            })
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        if !(2..=4).contains(&words.len()) {
            return bad("expected the board, the side to move, the half-move clock and the full-move number".into());
        }
        let side = match words[1] {
            "x" | "X" => Side::White,
            "o" | "O" => Side::Black,
            other => return bad(format!("side to move '{other}' is not x or o")),
        };
        let number = |i: usize, default: u16, least: u16| -> Result<u16, PositionError> {
            match words.get(i) {
                None => Ok(default),
                Some(w) => match w.parse::<u16>() {
                    Ok(n) if (least..=10_000).contains(&n) => Ok(n),
                    _ => Err(PositionError::Family {
                        message: format!("'{w}' is not a number {least}..10000 in '{text}'"),
                    }),
                },
            }
        };
        let clock = number(2, 0, 0)?;
        let fullmove = number(3, 1, 1)?;
        let rows: Vec<&str> = words[0].split('/').collect();
        if rows.len() != 7 {
            return bad(format!("{} ranks, expected 7", rows.len()));
        }
        let (mut stones, mut blocked) = ([0u64; 2], 0u64);
        for (i, row) in rows.iter().enumerate() {
            let rank = 6 - i as u32;
            let mut file = 0u32;
            for c in row.chars() {
                let bit = 1u64 << (rank * 8 + file.min(7));
                match c {
                    '1'..='7' => file += c as u32 - '0' as u32,
                    'x' | 'X' if file < 7 => stones[0] |= bit,
                    'o' | 'O' if file < 7 => stones[1] |= bit,
                    '-' if file < 7 => blocked |= bit,
                    _ => return bad(format!("'{c}' on rank {}", rank + 1)),
                }
                if !c.is_ascii_digit() {
                    file += 1;
                }
            }
            if file != 7 {
                return bad(format!("rank {} has {file} squares, expected 7", rank + 1));
            }
        }
        let mut a = Ataxx {
            variant: variant.clone(),
            stones,
            blocked,
            side,
            clock,
            fullmove,
            outcome: None,
            hash: 0,
        };
        a.hash = a.compute_hash();
        a.outcome = a.decision().map(|d| d.0);
        Ok(a)
    }

    #[inline(always)]
    fn empty(&self) -> u64 {
        BOARD & !(self.stones[0] | self.stones[1] | self.blocked)
    }

    /// Whether side `s` has a clone or a jump.
    #[inline(always)]
    fn can_move(&self, s: usize, empty: u64) -> bool {
        dilate(dilate(self.stones[s])) & empty != 0
    }

    /// The side with more stones wins; equal counts draw.
    fn by_count(&self) -> Outcome {
        let (w, b) = (self.stones[0].count_ones(), self.stones[1].count_ones());
        match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::White),
            std::cmp::Ordering::Less => Outcome::Win(Side::Black),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The game's end now, if it is over, and why.
    fn decision(&self) -> Option<(Outcome, EndReason)> {
        let empty = self.empty();
        if self.stones[0] == 0 || self.stones[1] == 0 {
            Some((self.by_count(), NO_STONES))
        } else if empty == 0 {
            Some((self.by_count(), BOARD_FULL))
        } else if !self.can_move(0, empty) && !self.can_move(1, empty) {
            Some((self.by_count(), NO_MOVES))
        } else if self.clock >= CLOCK_LIMIT {
            Some((Outcome::Draw, NO_CLONE))
        } else {
            None
        }
    }

    /// Where the side to move clones to (one step per destination).
    #[inline(always)]
    fn clone_targets(&self, empty: u64) -> u64 {
        dilate(self.stones[self.side.index()]) & empty
    }

    /// Perft by the family's own steps (no virtual calls through `OutsideGame`).
    fn perft(&mut self, depth: u32, made: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 && !made {
            return self.count_steps();
        }
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        let mut nodes = 0;
        for &step in list.iter() {
            let undo = self.make(step);
            nodes += self.perft(depth - 1, made);
            self.unmake(step, undo);
        }
        nodes
    }

    fn refuse(illegal: Illegal, text: &str) -> StepError {
        StepError {
            message: format!("{text} is illegal: {illegal}"),
            illegal: Some(illegal),
        }
    }
}

impl Rules for Ataxx {
    type Undo = AtaxxUndo;
    fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    fn side_to_move(&self) -> Side {
        self.side
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn end_reason(&self) -> EndReason {
        self.decision().map_or(EndReason::Victory, |(_, r)| r)
    }
    fn at_turn_start(&self) -> bool {
        true
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn compute_hash(&self) -> u64 {
        Ataxx::compute_hash(self)
    }
    fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        if self.outcome.is_some() {
            return;
        }
        let empty = self.empty();
        for to in bits(self.clone_targets(empty)) {
            list.push(Step::drop(0, square(to)));
        }
        for from in bits(self.stones[self.side.index()]) {
            let from_sq = square(from);
            for to in bits(JUMP[from as usize] & empty) {
                list.push(Step::new(from_sq, square(to)));
            }
        }
        if list.is_empty() {
            list.push(Step::PASS);
        }
    }
    fn count_steps(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let empty = self.empty();
        let mut n = self.clone_targets(empty).count_ones() as u64;
        for from in bits(self.stones[self.side.index()]) {
            n += (JUMP[from as usize] & empty).count_ones() as u64;
        }
        n.max(1)
    }
    fn make(&mut self, step: Step) -> AtaxxUndo {
        let (s, o) = (self.side.index(), 1 - self.side.index());
        let mut undo = AtaxxUndo {
            flipped: 0,
            hash: self.hash,
            clock: self.clock,
            outcome: self.outcome,
        };
        let keys = &*KEYS;
        match step.kind {
            StepKind::Pass => self.clock += 1,
            StepKind::Drop(_) => {
                let to = index(step.to) as usize;
                self.stones[s] |= 1 << to;
                self.hash ^= keys.stone[s][to];
                undo.flipped = NEAR[to] & self.stones[o];
                self.clock = 0;
            }
            _ => {
                let (from, to) = (index(step.from) as usize, index(step.to) as usize);
                self.stones[s] ^= 1 << from | 1 << to;
                self.hash ^= keys.stone[s][from] ^ keys.stone[s][to];
                undo.flipped = NEAR[to] & self.stones[o];
                self.clock += 1;
            }
        }
        let flipped = undo.flipped;
        self.stones[s] |= flipped;
        self.stones[o] &= !flipped;
        for i in bits(flipped) {
            self.hash ^= keys.stone[0][i as usize] ^ keys.stone[1][i as usize];
        }
        if self.side == Side::Black {
            self.fullmove += 1;
        }
        self.side = self.side.other();
        self.hash ^= keys.black;
        self.outcome = self.decision().map(|d| d.0);
        undo
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> AtaxxUndo {
        fx.clear();
        let side = self.side;
        let undo = self.make(step);
        match step.kind {
            StepKind::Pass => {}
            StepKind::Drop(_) => fx.push(Effect::Placed {
                side,
                kind: 0,
                square: step.to,
            }),
            _ => fx.push(Effect::Moved {
                side,
                kind: 0,
                from: step.from,
                to: step.to,
            }),
        }
        for i in bits(undo.flipped) {
            fx.push(Effect::SideChanged {
                side,
                kind: 0,
                square: square(i),
            });
        }
        undo
    }
    fn unmake(&mut self, step: Step, undo: AtaxxUndo) {
        self.side = self.side.other();
        if self.side == Side::Black {
            self.fullmove -= 1;
        }
        let (s, o) = (self.side.index(), 1 - self.side.index());
        self.stones[s] &= !undo.flipped;
        self.stones[o] |= undo.flipped;
        match step.kind {
            StepKind::Pass => {}
            StepKind::Drop(_) => self.stones[s] &= !(1 << index(step.to)),
            _ => self.stones[s] ^= 1 << index(step.from) | 1 << index(step.to),
        }
        self.hash = undo.hash;
        self.clock = undo.clock;
        self.outcome = undo.outcome;
    }
    /// Only a decided game has no step (a side without a move passes): it ends by the count
    /// of stones.
    fn without_steps(&self) -> (Outcome, EndReason) {
        self.decision().unwrap_or((self.by_count(), NO_MOVES))
    }
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        if !on_board(sq) {
            return None;
        }
        let i = index(sq);
        let side = match (self.stones[0] >> i & 1, self.stones[1] >> i & 1) {
            (1, _) => Side::White,
            (_, 1) => Side::Black,
            _ => return None,
        };
        Some(Unit {
            square: sq,
            kind: 0,
            side,
            group: 0,
            alive: true,
        })
    }
    fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
        for (s, side) in [(0, Side::White), (1, Side::Black)] {
            for i in bits(self.stones[s]) {
                f(Unit {
                    square: square(i),
                    kind: 0,
                    side,
                    group: 0,
                    alive: true,
                });
            }
        }
    }
    /// Ranks from 7 down, `x` White, `o` Black, `-` blocked, digits for empty runs; then
    /// the side to move, the half-move clock and the full-move number.
    fn to_text(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..7).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..7 {
                let bit = 1u64 << (rank * 8 + file);
                let c = if self.stones[0] & bit != 0 {
                    'x'
                } else if self.stones[1] & bit != 0 {
                    'o'
                } else if self.blocked & bit != 0 {
                    '-'
                } else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                row.push(c);
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let side = if self.side == Side::White { 'x' } else { 'o' };
        format!("{} {side} {} {}", rows.join("/"), self.clock, self.fullmove)
    }
    /// A clone by its destination (`c3`), a jump `a1-c3`, a pass `pass`.
    fn step_text(&self, step: Step) -> String {
        match step.kind {
            StepKind::Pass => "pass".into(),
            StepKind::Drop(_) => name(index(step.to)),
            _ => format!("{}-{}", name(index(step.from)), name(index(step.to))),
        }
    }
    /// `pass`, `c3` (a clone), `a1-c3` or `a1c3` (a jump; `b2-c3`, from a neighbour, is the
    /// clone to c3).
    fn parse_step(&self, text: &str) -> Result<Step, StepError> {
        let text = text.trim();
        let malformed = || StepError {
            illegal: None,
            message: format!(
                "'{text}' is not an Ataxx move: write c3 (a clone), a1-c3 (a jump) or pass"
            ),
        };
        if self.outcome.is_some() {
            return Err(Ataxx::refuse(Illegal::GameOver, text));
        }
        let empty = self.empty();
        let mine = self.stones[self.side.index()];
        let step = if text == "pass" {
            Step::PASS
        } else if let Some(to) = read_square(text) {
            if empty >> to & 1 == 0 {
                return Err(Ataxx::refuse(Illegal::Occupied, text));
            }
            if NEAR[to as usize] & mine == 0 {
                return Err(Ataxx::refuse(Illegal::CannotReach, text));
            }
            Step::drop(0, square(to))
        } else {
            let (from, to) = match text.split_once('-') {
                Some((a, b)) => (a, b),
                None if text.len() == 4 && text.is_ascii() => text.split_at(2),
                None => return Err(malformed()),
            };
            let (Some(from), Some(to)) = (read_square(from), read_square(to)) else {
                return Err(malformed());
            };
            if mine >> from & 1 == 0 {
                let other = self.stones[1 - self.side.index()] >> from & 1 != 0;
                let why = if other {
                    Illegal::NotYourUnit
                } else {
                    Illegal::NoUnit
                };
                return Err(Ataxx::refuse(why, text));
            }
            if empty >> to & 1 == 0 {
                return Err(Ataxx::refuse(Illegal::Occupied, text));
            }
            if NEAR[from as usize] >> to & 1 != 0 {
                Step::drop(0, square(to))
            } else if JUMP[from as usize] >> to & 1 != 0 {
                Step::new(square(from), square(to))
            } else {
                return Err(Ataxx::refuse(Illegal::CannotReach, text));
            }
        };
        if self.is_legal(step) {
            Ok(step)
        } else {
            Err(Ataxx::refuse(Illegal::NoSuchStep, text))
        }
    }
    fn is_legal(&self, step: Step) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let empty = self.empty();
        let mine = self.stones[self.side.index()];
        match step.kind {
            StepKind::Pass => !self.can_move(self.side.index(), empty),
            StepKind::Drop(0) if step.from == step.to && on_board(step.to) => {
                let to = index(step.to) as usize;
                empty >> to & 1 != 0 && NEAR[to] & mine != 0
            }
            StepKind::Move if on_board(step.from) && on_board(step.to) => {
                let (from, to) = (index(step.from), index(step.to));
                mine >> from & 1 != 0 && (JUMP[from as usize] & empty) >> to & 1 != 0
            }
            _ => false,
        }
    }
}

impl SearchHooks for Ataxx {
    fn has_legal_step(&self) -> bool {
        self.outcome.is_none()
    }
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64> {
        Some(self.clone().perft(depth, made))
    }
    /// Where the stone on `from` could clone or jump, whoever is to move.
    fn destinations(&self, from: Square) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if self.unit_at(from).is_none() {
            return out;
        }
        let i = index(from) as usize;
        for t in bits((NEAR[i] | JUMP[i]) & self.empty()) {
            out.set(square(t));
        }
        out
    }
}

impl Explain for Ataxx {
    /// Stones of the side to move that can clone or jump (a clone is written by its
    /// destination, but a stone makes it).
    fn movable_units(&self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if self.outcome.is_some() {
            return out;
        }
        let empty = self.empty();
        for i in bits(self.stones[self.side.index()]) {
            if (NEAR[i as usize] | JUMP[i as usize]) & empty != 0 {
                out.set(square(i));
            }
        }
        out
    }
    /// A clone is one step per destination, made by any of the mover's stones next to it:
    /// an interface may start it from each of them. A jump starts from its stone.
    fn step_origins(&self, step: Step) -> Bitboard {
        match step.kind {
            StepKind::Drop(_) => {
                let near = NEAR[index(step.to) as usize] & self.stones[self.side.index()];
                bits(near).map(square).collect()
            }
            StepKind::Move => Bitboard::from_square(step.from),
            _ => Bitboard::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests;
