//! Breakthrough as a Cohort game family, written outside the rules crate against its public
//! interface only (`cohort_rules::Rules`): its own board (two 64-bit sets), its own undo and
//! hash, its own game end. It is registered once (`FAMILY`, listed in crates/families) and
//! is then played everywhere a built-in family is: perft, matches, analysis, records, the
//! server and the web.
//!
//! Rules: each side has 16 pawns on its first two ranks. A pawn steps one square forward,
//! straight or diagonally, onto an empty square, and captures diagonally forward only. A
//! side wins by reaching the far rank or by taking every enemy pawn. One move a turn.

use std::sync::{Arc, LazyLock};

use cohort_rules::{
    Bitboard, Effect, Effects, EndReason, Explain, FamilyEntry, Outcome, OutsideGame,
    PositionError, Rules, SearchHooks, Side, Square, Step, StepList, Unit, Variant,
};

/// The family as the registry knows it: `family = breakthrough` in a variant file.
pub static FAMILY: FamilyEntry = FamilyEntry {
    name: "breakthrough",
    variant_files: &[("breakthrough.ini", include_str!("breakthrough.ini"))],
    parse: |variant, text| Breakthrough::parse(variant, text).map(OutsideGame::new),
};

/// The end reasons of its own.
const FAR_RANK: EndReason = EndReason::Family("a pawn reached the far rank");
const NO_PAWNS: EndReason = EndReason::Family("every enemy pawn taken");

/// The variant data of the built-in `breakthrough` (board, piece, value): read once.
static VARIANT: LazyLock<Arc<Variant>> = LazyLock::new(|| {
    cohort_rules::register(&FAMILY);
    cohort_rules::builtin("breakthrough").expect("breakthrough.ini defines breakthrough")
});

/// Zobrist keys: a pawn of each side on each square, and the side to move.
struct Keys {
    pawn: [[u64; 64]; 2],
    black: u64,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        // splitmix64
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut pawn = [[0; 64]; 2];
    for side in &mut pawn {
        for k in side.iter_mut() {
            *k = next();
        }
    }
    Keys {
        pawn,
        black: next(),
    }
});

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = RANK_1 << 56;

/// A Breakthrough position. Squares are a1 = 0 .. h8 = 63.
#[derive(Clone, Debug)]
pub struct Breakthrough {
    variant: Arc<Variant>,
    pawns: [u64; 2],
    side: Side,
    outcome: Option<Outcome>,
    hash: u64,
}

/// Two positions are equal when their pawns, side, outcome and hash are (the variant is
/// data, shared).
impl PartialEq for Breakthrough {
    fn eq(&self, other: &Self) -> bool {
        (self.pawns, self.side, self.outcome, self.hash)
            == (other.pawns, other.side, other.outcome, other.hash)
            && Arc::ptr_eq(&self.variant, &other.variant)
    }
}
impl Eq for Breakthrough {}

/// What `unmake` needs: whether the step captured, and the outcome before it.
#[derive(Copy, Clone, Debug)]
pub struct BreakthroughUndo {
    captured: bool,
    outcome: Option<Outcome>,
}

fn square(i: u32) -> Square {
    Square::new((i % 8) as u8, (i / 8) as u8)
}
fn index(sq: Square) -> u32 {
    sq.rank() as u32 * 8 + sq.file() as u32
}

impl Breakthrough {
    /// The start: each side's pawns on its first two ranks, White to move.
    pub fn start() -> Breakthrough {
        Breakthrough::from_sets(0xFFFF, 0xFFFF << 48, Side::White)
    }

    /// A position from its pawn sets (bit i = square i, a1 = 0).
    pub fn from_sets(white: u64, black: u64, side: Side) -> Breakthrough {
        Breakthrough::on(&VARIANT, white, black, side)
    }

    /// A position of `variant` (a variant of this family) from its pawn sets.
    fn on(variant: &Arc<Variant>, white: u64, black: u64, side: Side) -> Breakthrough {
        let mut b = Breakthrough {
            variant: variant.clone(),
            pawns: [white, black & !white],
            side,
            outcome: None,
            hash: 0,
        };
        b.hash = b.compute_hash();
        b.outcome = b.decided();
        b
    }

    /// The hash computed from scratch (`hash()` keeps it incrementally).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::Black {
            KEYS.black
        } else {
            0
        };
        for s in 0..2 {
            let mut b = self.pawns[s];
            while b != 0 {
                h ^= KEYS.pawn[s][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        h
    }

    /// Read a position as `to_text` writes it: ranks from 8 down, `P` White, `p` Black,
    /// digits for empty runs, then `w` or `b`.
    pub fn parse(variant: &Arc<Variant>, text: &str) -> Result<Breakthrough, PositionError> {
        let bad = |what: String| {
            Err(PositionError::Family {
                message: format!("{what} in '{text}'"),
            })
        };
        let mut words = text.split_whitespace();
        let (Some(board), side, None) = (words.next(), words.next(), words.next()) else {
            return bad("expected the board and the side to move".into());
        };
        let side = match side {
            Some("w") => Side::White,
            Some("b") => Side::Black,
            other => {
                return bad(format!(
                    "side to move '{}' is not w or b",
                    other.unwrap_or("")
                ))
            }
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 8 {
            return bad(format!("{} ranks, expected 8", rows.len()));
        }
        let mut pawns = [0u64; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 7 - i as u32;
            let mut file = 0u32;
            for c in row.chars() {
                match c {
                    '1'..='8' => file += c as u32 - '0' as u32,
                    'P' | 'p' if file < 8 => {
                        pawns[(c == 'p') as usize] |= 1 << (rank * 8 + file);
                        file += 1;
                    }
                    _ => return bad(format!("'{c}' on rank {}", rank + 1)),
                }
            }
            if file != 8 {
                return bad(format!("rank {} has {file} squares, expected 8", rank + 1));
            }
        }
        Ok(Breakthrough::on(variant, pawns[0], pawns[1], side))
    }

    /// A side that reached the far rank, or took every enemy pawn, has won.
    fn decided(&self) -> Option<Outcome> {
        self.decision().map(|(o, _)| o)
    }

    fn decision(&self) -> Option<(Outcome, EndReason)> {
        let win = |s: Side, r| Some((Outcome::Win(s), r));
        match () {
            _ if self.pawns[0] & RANK_8 != 0 => win(Side::White, FAR_RANK),
            _ if self.pawns[1] & RANK_1 != 0 => win(Side::Black, FAR_RANK),
            _ if self.pawns[1] == 0 => win(Side::White, NO_PAWNS),
            _ if self.pawns[0] == 0 => win(Side::Black, NO_PAWNS),
            _ => None,
        }
    }

    /// Destinations of the pawns of side `s`: straight steps, and diagonal ones (each set
    /// as a shift of the pawns by `delta`).
    fn targets(&self, s: usize) -> [(u64, i32); 3] {
        let (own, enemy) = (self.pawns[s], self.pawns[1 - s]);
        let empty = !(own | enemy);
        let fwd = if s == 0 { 8 } else { -8 };
        let shift = |b: u64, d: i32| if d > 0 { b << d } else { b >> -d };
        [
            (shift(own, fwd) & empty, fwd),
            (shift(own & !FILE_A, fwd - 1) & !own, fwd - 1),
            (shift(own & !FILE_H, fwd + 1) & !own, fwd + 1),
        ]
    }
}

impl Rules for Breakthrough {
    type Undo = BreakthroughUndo;
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
        Breakthrough::compute_hash(self)
    }
    fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        if self.outcome.is_some() {
            return;
        }
        for (mut to, delta) in self.targets(self.side.index()) {
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                list.push(Step::new(square((t as i32 - delta) as u32), square(t)));
            }
        }
    }
    fn count_steps(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        self.targets(self.side.index())
            .iter()
            .map(|(b, _)| b.count_ones() as u64)
            .sum()
    }
    fn make(&mut self, step: Step) -> BreakthroughUndo {
        let (s, o) = (self.side.index(), 1 - self.side.index());
        let (from, to) = (index(step.from), index(step.to));
        let captured = self.pawns[o] >> to & 1 != 0;
        let undo = BreakthroughUndo {
            captured,
            outcome: self.outcome,
        };
        self.pawns[s] ^= 1 << from | 1 << to;
        self.hash ^= KEYS.pawn[s][from as usize] ^ KEYS.pawn[s][to as usize];
        if captured {
            self.pawns[o] ^= 1 << to;
            self.hash ^= KEYS.pawn[o][to as usize];
        }
        self.side = self.side.other();
        self.hash ^= KEYS.black;
        self.outcome = self.decided();
        undo
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> BreakthroughUndo {
        fx.clear();
        let side = self.side;
        let undo = self.make(step);
        if undo.captured {
            fx.push(Effect::Removed {
                side: side.other(),
                kind: 0,
                square: step.to,
                capture: true,
            });
        }
        fx.push(Effect::Moved {
            side,
            kind: 0,
            from: step.from,
            to: step.to,
        });
        undo
    }
    fn unmake(&mut self, step: Step, undo: BreakthroughUndo) {
        self.side = self.side.other();
        self.hash ^= KEYS.black;
        let (s, o) = (self.side.index(), 1 - self.side.index());
        let (from, to) = (index(step.from), index(step.to));
        self.pawns[s] ^= 1 << from | 1 << to;
        self.hash ^= KEYS.pawn[s][from as usize] ^ KEYS.pawn[s][to as usize];
        if undo.captured {
            self.pawns[o] ^= 1 << to;
            self.hash ^= KEYS.pawn[o][to as usize];
        }
        self.outcome = undo.outcome;
    }
    /// A side left without a step (every pawn blocked) loses.
    fn without_steps(&self) -> (Outcome, EndReason) {
        (Outcome::Win(self.side.other()), EndReason::NoLegalTurn)
    }
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        if sq.file() >= 8 || sq.rank() >= 8 {
            return None;
        }
        let i = index(sq);
        let side = match (self.pawns[0] >> i & 1, self.pawns[1] >> i & 1) {
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
            let mut b = self.pawns[s];
            while b != 0 {
                let i = b.trailing_zeros();
                b &= b - 1;
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
    /// Ranks from 8 down, `P` White, `p` Black, digits for empty runs; then `w` or `b`.
    fn to_text(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match self.unit_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(u) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(if u.side == Side::White { 'P' } else { 'p' });
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let side = if self.side == Side::White { 'w' } else { 'b' };
        format!("{} {side}", rows.join("/"))
    }
    /// `a2-a3`, or `a2xb3` for a capture.
    fn step_text(&self, step: Step) -> String {
        let geo = &self.variant().geometry;
        let capture = self.unit_at(step.to).is_some();
        format!(
            "{}{}{}",
            geo.square_name(step.from),
            if capture { 'x' } else { '-' },
            geo.square_name(step.to)
        )
    }
}

impl SearchHooks for Breakthrough {
    /// Where the pawn on `from` could step, whoever is to move (the evaluation's threats).
    fn destinations(&self, from: Square) -> Bitboard {
        let Some(u) = self.unit_at(from) else {
            return Bitboard::EMPTY;
        };
        let (s, i) = (u.side.index(), index(from));
        let mut out = Bitboard::EMPTY;
        for (to, delta) in self.targets(s) {
            let t = i as i32 + delta;
            if (0..64).contains(&t) && to >> t & 1 != 0 {
                out.set(square(t as u32));
            }
        }
        out
    }
}

impl Explain for Breakthrough {}
