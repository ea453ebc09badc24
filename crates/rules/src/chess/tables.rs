//! Attack tables for 8x8 chess, built once: leapers by square, sliders by PEXT index
//! (BMI2) with a ray-walking fallback, and between/line masks for pins and checks.

use std::sync::LazyLock;

pub(crate) struct Tables {
    pub knight: [u64; 64],
    pub king: [u64; 64],
    /// pawn_attacks[color][sq]: squares a pawn of `color` on `sq` attacks.
    pub pawn_attacks: [[u64; 64]; 2],
    rook_mask: [u64; 64],
    bishop_mask: [u64; 64],
    rook_offset: [usize; 64],
    bishop_offset: [usize; 64],
    rook_table: Vec<u64>,
    bishop_table: Vec<u64>,
    /// Squares strictly between two aligned squares (0 if not aligned).
    pub between: Vec<u64>,
    /// The whole line through two aligned squares (0 if not aligned).
    pub line: Vec<u64>,
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i8, r: i8) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn slide(sq: usize, occ: u64, dirs: &[(i8, i8)]) -> u64 {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f, r) {
            let t = (r * 8 + f) as usize;
            att |= 1 << t;
            if occ >> t & 1 != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Relevant occupancy for a slider: its rays without the board's edge squares.
fn mask(sq: usize, dirs: &[(i8, i8)]) -> u64 {
    let mut m = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f + df, r + dr) {
            m |= 1 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    m
}

/// Software PEXT, only used to fill the tables (and as the fallback without BMI2).
fn pext_soft(x: u64, mut m: u64) -> u64 {
    let (mut out, mut bit) = (0, 0);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        m &= m - 1;
    }
    out
}

#[inline(always)]
fn pext(x: u64, m: u64) -> u64 {
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: compiled only when the target has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(x, m) }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        pext_soft(x, m)
    }
}

fn build_slider(dirs: &[(i8, i8)], masks: &mut [u64; 64], offsets: &mut [usize; 64]) -> Vec<u64> {
    let mut table = Vec::new();
    for sq in 0..64 {
        let m = mask(sq, dirs);
        masks[sq] = m;
        offsets[sq] = table.len();
        let n = 1usize << m.count_ones();
        table.resize(table.len() + n, 0);
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut sub = 0u64;
        loop {
            table[offsets[sq] + pext_soft(sub, m) as usize] = slide(sq, sub, dirs);
            sub = sub.wrapping_sub(m) & m;
            if sub == 0 {
                break;
            }
        }
    }
    table
}

pub(crate) static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let leaper = |deltas: &[(i8, i8)]| {
        let mut t = [0u64; 64];
        for (sq, entry) in t.iter_mut().enumerate() {
            for &(df, dr) in deltas {
                let (f, r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
                if on_board(f, r) {
                    *entry |= 1 << (r * 8 + f);
                }
            }
        }
        t
    };
    let knight = leaper(&[
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ]);
    let king = leaper(&[
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ]);
    let pawn_attacks = [leaper(&[(1, 1), (-1, 1)]), leaper(&[(1, -1), (-1, -1)])];
    let (mut rook_mask, mut rook_offset) = ([0; 64], [0; 64]);
    let (mut bishop_mask, mut bishop_offset) = ([0; 64], [0; 64]);
    let rook_table = build_slider(&ROOK_DIRS, &mut rook_mask, &mut rook_offset);
    let bishop_table = build_slider(&BISHOP_DIRS, &mut bishop_mask, &mut bishop_offset);
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let from_a = slide(a, 0, dirs);
            for b in 0..64 {
                if a != b && from_a >> b & 1 != 0 {
                    let bb = 1u64 << b;
                    between[a * 64 + b] = slide(a, bb, dirs) & slide(b, 1 << a, dirs);
                    line[a * 64 + b] = (from_a & slide(b, 0, dirs)) | (1 << a) | bb;
                }
            }
        }
    }
    Tables {
        knight,
        king,
        pawn_attacks,
        rook_mask,
        bishop_mask,
        rook_offset,
        bishop_offset,
        rook_table,
        bishop_table,
        between,
        line,
    }
});

impl Tables {
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.rook_table[self.rook_offset[sq] + pext(occ, self.rook_mask[sq]) as usize]
    }
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.bishop_table[self.bishop_offset[sq] + pext(occ, self.bishop_mask[sq]) as usize]
    }
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> u64 {
        self.between[a * 64 + b]
    }
    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> u64 {
        self.line[a * 64 + b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_tables_match_ray_walking() {
        let t = &*TABLES;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(17);
            let sq = (x % 64) as usize;
            assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
            assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
        }
        assert_eq!(t.between(0, 63).count_ones(), 6);
        assert_eq!(t.line(0, 9) & (1 << 63), 1 << 63);
        assert_eq!(t.between(0, 10), 0);
    }
}
