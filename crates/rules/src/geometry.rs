//! Board geometry: which cells of the 16x16 frame exist, and the tables that every piece
//! and command rule reads (neighbours, rays, activation ranges), computed once per variant.
//!
//! A board is one rectangular sheet, or several overlapping sheets (Chessma 84's two boards
//! that share their middle ranks): each sheet is an ordinary grid of some of the frame's
//! ranks, lines (slides, leaps, pushes, counts) run within one sheet, and adjacency is the
//! union over the sheets. Ranks and files may carry labels (`1'`, `z`).

use crate::bitboard::{Bitboard, Square, FRAME};

/// The eight king directions as (file delta, rank delta). Order: orthogonals then diagonals.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// Longest possible ray in the frame.
pub const MAX_RAY: usize = FRAME as usize - 1;

/// Squares along one direction from a square, nearest first, stopping at the board's edge.
#[derive(Copy, Clone, Default)]
pub struct Ray {
    pub len: u8,
    pub squares: [Square; MAX_RAY],
}

impl Ray {
    #[inline(always)]
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }
}

/// One sheet of a board made of overlapping sheets: its rows (frame ranks, bottom to top)
/// and its squares. Within a sheet, row i+1 is the next rank up from row i.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub name: String,
    pub rows: Vec<u8>,
    pub squares: Bitboard,
}

pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
    /// The cells of the frame that are squares of this board.
    pub squares: Bitboard,
    /// The sheets of a board of overlapping sheets (empty for one rectangle).
    pub sheets: Vec<Sheet>,
    /// Labels of the files and ranks (empty: letters a.. and numbers 1..).
    pub file_labels: Vec<String>,
    pub rank_labels: Vec<String>,
    king: Box<[Bitboard; 256]>,
    rays: Box<[[Ray; 8]; 256]>,
}

impl Geometry {
    /// A rectangular board; sizes are checked by the variant loader (1..=16 each way).
    pub fn rectangle(files: u8, ranks: u8) -> Geometry {
        assert!((1..=FRAME).contains(&files) && (1..=FRAME).contains(&ranks));
        let squares: Bitboard = (0..ranks)
            .flat_map(|r| (0..files).map(move |f| Square::new(f, r)))
            .collect();
        let mut king = Box::new([Bitboard::EMPTY; 256]);
        let mut rays = Box::new([[Ray::default(); 8]; 256]);
        for sq in squares.iter() {
            for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                let ray = &mut rays[sq.index()][d];
                let mut cur = sq;
                while let Some(next) = cur.offset(df, dr).filter(|s| squares.has(*s)) {
                    ray.squares[ray.len as usize] = next;
                    ray.len += 1;
                    cur = next;
                }
                if ray.len > 0 {
                    king[sq.index()].set(ray.squares[0]);
                }
            }
        }
        Geometry {
            files,
            ranks,
            squares,
            sheets: Vec::new(),
            file_labels: Vec::new(),
            rank_labels: Vec::new(),
            king,
            rays,
        }
    }

    /// A board of overlapping sheets with labelled files and ranks. Adjacency is the union
    /// of each sheet's; the generic rays are the first sheet's (sheet-aware rules read the
    /// sheets through `sheet_offset`).
    pub fn with_sheets(
        file_labels: Vec<String>,
        rank_labels: Vec<String>,
        sheets: Vec<Sheet>,
    ) -> Geometry {
        let (files, ranks) = (file_labels.len() as u8, rank_labels.len() as u8);
        let mut g = Geometry::rectangle(files, ranks);
        g.file_labels = file_labels;
        g.rank_labels = rank_labels;
        g.squares = sheets.iter().fold(Bitboard::EMPTY, |a, s| a | s.squares);
        g.sheets = sheets;
        let mut king = Box::new([Bitboard::EMPTY; 256]);
        let mut rays = Box::new([[Ray::default(); 8]; 256]);
        for s in 0..g.sheets.len() {
            for sq in g.sheets[s].squares.iter() {
                for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                    let mut cur = sq;
                    let mut n = 0;
                    while let Some(next) = g.sheet_offset(s, cur, df, dr) {
                        if s == 0 {
                            let ray = &mut rays[sq.index()][d];
                            ray.squares[n] = next;
                            ray.len = n as u8 + 1;
                        }
                        if n == 0 {
                            king[sq.index()].set(next);
                        }
                        n += 1;
                        cur = next;
                    }
                }
            }
        }
        g.king = king;
        g.rays = rays;
        g
    }

    /// The square (df, dr) away from `sq` in the grid of sheet `s`, if both are on it.
    pub fn sheet_offset(&self, s: usize, sq: Square, df: i8, dr: i8) -> Option<Square> {
        let sheet = &self.sheets[s];
        if !sheet.squares.has(sq) {
            return None;
        }
        let row = sheet.rows.iter().position(|&r| r == sq.rank())? as i8 + dr;
        let file = sq.file() as i8 + df;
        if row < 0 || row as usize >= sheet.rows.len() || !(0..self.files as i8).contains(&file) {
            return None;
        }
        let t = Square::new(file as u8, sheet.rows[row as usize]);
        sheet.squares.has(t).then_some(t)
    }

    #[inline(always)]
    pub fn contains(&self, sq: Square) -> bool {
        self.squares.has(sq)
    }
    /// Squares king-adjacent to `sq`.
    #[inline(always)]
    pub fn king(&self, sq: Square) -> Bitboard {
        self.king[sq.index()]
    }
    /// The ray from `sq` in direction index `dir` (see [`DIRECTIONS`]).
    #[inline(always)]
    pub fn ray(&self, sq: Square, dir: usize) -> &Ray {
        &self.rays[sq.index()][dir]
    }
    /// Squares at king-distance 1..=`radius` from `sq` plus `sq` itself.
    pub fn king_box(&self, sq: Square, radius: u8) -> Bitboard {
        self.squares
            .iter()
            .filter(|s| s.distance(sq) <= radius)
            .collect()
    }
    /// Squares reached by one leap of (df, dr) in all its symmetric forms, or only the forms
    /// passing `keep`, which sees the leap as (df, dr) with rank deltas oriented for the mover.
    pub fn leap(&self, sq: Square, df: i8, dr: i8, keep: impl Fn(i8, i8) -> bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for (x, y) in symmetric(df, dr) {
            if keep(x, y) {
                if let Some(t) = sq.offset(x, y).filter(|t| self.contains(*t)) {
                    b.set(t);
                }
            }
        }
        b
    }
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        if !self.rank_labels.is_empty() {
            let f = self
                .file_labels
                .iter()
                .position(|l| text.starts_with(l.as_str()))?;
            let rest = &text[self.file_labels[f].len()..];
            let r = self.rank_labels.iter().position(|l| l == rest)?;
            let sq = Square::new(f as u8, r as u8);
            return self.squares.has(sq).then_some(sq);
        }
        let mut chars = text.chars();
        let file = chars.next()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let rank: u8 = rank_text.parse().ok()?;
        let f = file as u8 - b'a';
        if rank == 0 || f >= self.files || rank > self.ranks || rank_text.starts_with('0') {
            return None;
        }
        Some(Square::new(f, rank - 1))
    }
    pub fn square_name(&self, sq: Square) -> String {
        if !self.rank_labels.is_empty() {
            return format!(
                "{}{}",
                self.file_labels[sq.file() as usize],
                self.rank_labels[sq.rank() as usize]
            );
        }
        format!("{}{}", (b'a' + sq.file()) as char, sq.rank() + 1)
    }
}

/// The distinct forms of a leap (df, dr) under reflection and rotation.
pub fn symmetric(df: i8, dr: i8) -> Vec<(i8, i8)> {
    let mut v = Vec::with_capacity(8);
    for (a, b) in [(df, dr), (dr, df)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let p = (a * sa, b * sb);
            if !v.contains(&p) {
                v.push(p);
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_edge() {
        let g = Geometry::rectangle(16, 12);
        let a1 = Square::new(0, 0);
        assert_eq!(g.ray(a1, 0).len, 11); // north along file a
        assert_eq!(g.ray(a1, 1).len, 15); // east along rank 1
        assert_eq!(g.ray(a1, 2).len, 0);
        assert_eq!(g.king(a1).count(), 3);
        assert_eq!(g.king_box(Square::new(7, 6), 3).count(), 49);
    }

    #[test]
    fn squares_parse_and_print() {
        let g = Geometry::rectangle(16, 12);
        for sq in g.squares.iter() {
            assert_eq!(g.parse_square(&g.square_name(sq)), Some(sq));
        }
        for bad in ["q1", "a13", "a0", "a01", "", "a", "A1", "a-1", "p123"] {
            assert_eq!(g.parse_square(bad), None, "{bad}");
        }
    }

    #[test]
    fn knight_leap_has_eight_forms() {
        assert_eq!(symmetric(1, 2).len(), 8);
        assert_eq!(symmetric(1, 0).len(), 4);
        assert_eq!(symmetric(2, 2).len(), 4);
    }
}
