//! Tables of a board of (at most two) overlapping sheets, computed once per variant from its
//! geometry: per-sheet rays, the union adjacencies, knight and pawn targets, rank levels.
//! Squares are frame indices (rank * 16 + file) as u8; `NONE` marks "no square".

use crate::bitboard::{Bitboard, Square};
use crate::geometry::{Geometry, DIRECTIONS};

/// The letters of the Chessma core's kinds, as its variant file must declare them.
pub(crate) const REQUIRED_LETTERS: &str = "KQRBNPIULWCESX";

pub(crate) const NONE: u8 = 0xFF;

/// A short list of squares (a ray or a neighbourhood), nearest or lowest first.
#[derive(Copy, Clone)]
pub(crate) struct List<const N: usize> {
    pub len: u8,
    pub sq: [u8; N],
}

impl<const N: usize> Default for List<N> {
    fn default() -> Self {
        List {
            len: 0,
            sq: [NONE; N],
        }
    }
}

impl<const N: usize> List<N> {
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        &self.sq[..self.len as usize]
    }
    fn push(&mut self, s: u8) {
        if !self.as_slice().contains(&s) {
            self.sq[self.len as usize] = s;
            self.len += 1;
        }
    }
    #[inline(always)]
    pub fn first(&self) -> u8 {
        self.sq[0]
    }
}

pub(crate) type Ray = List<12>;

/// The direction opposite `d` in [`DIRECTIONS`] order.
#[inline(always)]
pub(crate) const fn opposite(d: usize) -> usize {
    d ^ 2
}

pub(crate) struct Tables {
    pub sheets: usize,
    pub exists: [bool; 256],
    pub in_sheet: [[bool; 256]; 2],
    pub all: Bitboard,
    /// rays[sheet][square][direction]
    pub rays: Vec<[[Ray; 8]; 256]>,
    /// Direction + 1 from a square to another on the same line of a sheet (0: none).
    pub line: Vec<Box<[[u8; 256]; 256]>>,
    pub king: [List<16>; 256],
    pub orth: [List<8>; 256],
    pub knight: [List<16>; 256],
    /// Squares a pawn of each side on a square captures onto (both sheets).
    pub pawn_cap: [[List<4>; 256]; 2],
    /// Squares from which a pawn of each side captures onto a square.
    pub pawn_from: [[List<4>; 256]; 2],
    /// Level of each frame rank: twin rows share a level (0, 1, 1, 2, ... 8, 8, 9).
    pub level: [u8; 16],
    /// How far a pawn of each side may run from each frame rank (1, 2 or 3).
    pub run: [[u8; 16]; 2],
    pub promo: [[bool; 256]; 2],
    pub corner: [bool; 256],
    /// Every square on a line (any sheet) through a square, plus its knight squares: what a
    /// move must avoid to leave a King there safe from sliders, leapers and withdrawals.
    pub lines: Box<[Bitboard; 256]>,
    /// The whole rank and file of a square (the Coordinator's counts).
    pub cross: Box<[Bitboard; 256]>,
    /// The King-step neighbours of a square (union over the sheets), as a set.
    pub near: Box<[Bitboard; 256]>,
    /// `rays` as sets, per sheet.
    pub ray_sets: Vec<Box<[[Bitboard; 8]; 256]>>,
    /// Orthogonal adjacency as shifts: (delta, the squares whose square `delta` further is an
    /// orthogonal neighbour). Twin rows make some vertical steps two rows long.
    pub orth_shifts: Vec<(i32, Bitboard)>,
}

impl Tables {
    pub fn new(g: &Geometry) -> Tables {
        let sheets = g.sheets.len().clamp(1, 2);
        let mut t = Tables {
            sheets,
            exists: [false; 256],
            in_sheet: [[false; 256]; 2],
            all: g.squares,
            rays: vec![[[Ray::default(); 8]; 256]; sheets],
            line: (0..sheets).map(|_| Box::new([[0u8; 256]; 256])).collect(),
            king: [List::default(); 256],
            orth: [List::default(); 256],
            knight: [List::default(); 256],
            pawn_cap: [[List::default(); 256]; 2],
            pawn_from: [[List::default(); 256]; 2],
            level: [0; 16],
            run: [[1; 16]; 2],
            promo: [[false; 256]; 2],
            corner: [false; 256],
            lines: Box::new([Bitboard::EMPTY; 256]),
            cross: Box::new([Bitboard::EMPTY; 256]),
            near: Box::new([Bitboard::EMPTY; 256]),
            ray_sets: (0..sheets)
                .map(|_| Box::new([[Bitboard::EMPTY; 8]; 256]))
                .collect(),
            orth_shifts: Vec::new(),
        };
        let off = |s: usize, sq: Square, df: i8, dr: i8| {
            if g.sheets.is_empty() {
                sq.offset(df, dr).filter(|x| g.squares.has(*x))
            } else {
                g.sheet_offset(s, sq, df, dr)
            }
        };
        let on = |s: usize, sq: Square| {
            if g.sheets.is_empty() {
                g.squares.has(sq)
            } else {
                g.sheets[s].squares.has(sq)
            }
        };
        for sq in g.squares.iter() {
            let i = sq.index();
            t.exists[i] = true;
            for s in 0..sheets {
                if !on(s, sq) {
                    continue;
                }
                t.in_sheet[s][i] = true;
                for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                    let mut cur = sq;
                    while let Some(next) = off(s, cur, df, dr) {
                        t.rays[s][i][d].push(next.index() as u8);
                        t.line[s][i][next.index()] = d as u8 + 1;
                        cur = next;
                    }
                    if let Some(n) = off(s, sq, df, dr) {
                        t.king[i].push(n.index() as u8);
                        if d < 4 {
                            t.orth[i].push(n.index() as u8);
                        }
                    }
                }
                for (df, dr) in crate::geometry::symmetric(1, 2) {
                    if let Some(n) = off(s, sq, df, dr) {
                        t.knight[i].push(n.index() as u8);
                    }
                }
                for side in 0..2 {
                    let fwd = if side == 0 { 1 } else { -1 };
                    for df in [-1, 1] {
                        if let Some(n) = off(s, sq, df, fwd) {
                            t.pawn_cap[side][i].push(n.index() as u8);
                            t.pawn_from[side][n.index()].push(i as u8);
                        }
                    }
                }
            }
            t.corner[i] = t.orth[i].len == 0;
        }
        for sq in g.squares.iter() {
            let i = sq.index();
            let mut b = Bitboard::from_square(sq);
            for s in 0..sheets {
                for d in 0..8 {
                    for &q in t.rays[s][i][d].as_slice() {
                        b.set(Square::from_index(q));
                    }
                }
            }
            for &q in t.knight[i].as_slice() {
                b.set(Square::from_index(q));
            }
            t.lines[i] = b;
            t.near[i] = t.king[i]
                .as_slice()
                .iter()
                .map(|&q| Square::from_index(q))
                .collect();
            t.cross[i] = g
                .squares
                .iter()
                .filter(|q| q.rank() == sq.rank() || q.file() == sq.file())
                .collect();
        }
        for sq in g.squares.iter() {
            let i = sq.index();
            for s in 0..sheets {
                for d in 0..8 {
                    t.ray_sets[s][i][d] = t.rays[s][i][d]
                        .as_slice()
                        .iter()
                        .map(|&q| Square::from_index(q))
                        .collect();
                }
            }
            for &n in t.orth[i].as_slice() {
                let delta = n as i32 - i as i32;
                match t.orth_shifts.iter_mut().find(|(d, _)| *d == delta) {
                    Some((_, m)) => m.set(sq),
                    None => t.orth_shifts.push((delta, Bitboard::from_square(sq))),
                }
            }
        }
        // Levels: a rank shares its level with a twin rank (one in a different sheet only).
        let twin = |a: u8, b: u8| {
            g.sheets.len() == 2
                && (0..2).all(|s| !(g.sheets[s].rows.contains(&a) && g.sheets[s].rows.contains(&b)))
        };
        let mut level = 0u8;
        for r in 0..g.ranks {
            if r > 0 && !twin(r - 1, r) {
                level += 1;
            }
            t.level[r as usize] = level;
        }
        let top = level;
        for sq in g.squares.iter() {
            let lv = t.level[sq.rank() as usize];
            // The last rank(s) of each side and the corners there promote; the first two
            // levels give the pawn run (three squares from 1, two from 2).
            t.promo[0][sq.index()] = lv + 1 >= top;
            t.promo[1][sq.index()] = lv <= 1;
        }
        for r in 0..g.ranks as usize {
            let lv = t.level[r];
            t.run[0][r] = match lv {
                1 => 3,
                2 => 2,
                _ => 1,
            };
            t.run[1][r] = match top - lv {
                1 => 3,
                2 => 2,
                _ => 1,
            };
        }
        t
    }
}
