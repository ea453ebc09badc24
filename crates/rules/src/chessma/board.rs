//! The Chessma 84 board: cells, per-piece bitboards, castling, en passant, pockets and the
//! hash, with one undo log of cell and counter changes. Every change goes through `set`,
//! which keeps the indexes, the hash and the castling rights ("rights end once the King's or
//! that Rook's start square changes contents for any reason").

use crate::bitboard::{Bitboard, Square};

use super::tables::NONE;

// Piece kinds (low four bits of a cell); Black adds BLACK.
pub(crate) const K: u8 = 1;
pub(crate) const Q: u8 = 2;
pub(crate) const R: u8 = 3;
pub(crate) const B: u8 = 4;
pub(crate) const N: u8 = 5;
pub(crate) const P: u8 = 6;
pub(crate) const I: u8 = 7;
pub(crate) const U: u8 = 8;
pub(crate) const L: u8 = 9;
pub(crate) const W: u8 = 10;
pub(crate) const C: u8 = 11;
pub(crate) const E: u8 = 12;
pub(crate) const S: u8 = 13;
pub(crate) const X: u8 = 14;
/// An Encloser that has made its capture (`E'`).
pub(crate) const ES: u8 = 15;
pub(crate) const BLACK: u8 = 16;
pub(crate) const EMPTY: u8 = 0;

/// Letters by kind; `ES` is written `E'`.
pub(crate) const LETTERS: &[u8; 16] = b"?KQRBNPIULWCESXE";

/// The kinds a Pawn promotes to (all but King and Pawn), in letter order of the setup.
pub(crate) const PROMOTIONS: [u8; 12] = [Q, R, B, N, I, U, L, W, C, E, S, X];

#[inline(always)]
pub(crate) fn kind(cell: u8) -> u8 {
    cell & 15
}
#[inline(always)]
pub(crate) fn side(cell: u8) -> usize {
    (cell >> 4) as usize
}

/// Castling rights: bit 0 K, 1 Q, 2 k, 3 q.
pub(crate) const CASTLE_SQUARES: [(u8, u8); 6] = [
    // (square, rights that end when it changes)
    (sq(5, 2), 3),  // e1: K Q
    (sq(8, 2), 1),  // h1: K
    (sq(1, 2), 2),  // a1: Q
    (sq(5, 9), 12), // e8: k q
    (sq(8, 9), 4),  // h8: k
    (sq(1, 9), 8),  // a8: q
];

pub(crate) const fn sq(file: u8, rank: u8) -> u8 {
    rank * 16 + file
}

struct Keys {
    cell: [[u64; 256]; 32],
    side: u64,
    castling: [u64; 16],
    ep: [u64; 256],
    pocket: [[[u64; 16]; 16]; 2],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn keys() -> Keys {
    let mut st = 0x00C0_4E55_0084_u64;
    let mut k = Keys {
        cell: [[0; 256]; 32],
        side: 0,
        castling: [0; 16],
        ep: [0; 256],
        pocket: [[[0; 16]; 16]; 2],
    };
    let mut c = 1;
    while c < 32 {
        let mut s = 0;
        while s < 256 {
            k.cell[c][s] = splitmix(&mut st);
            s += 1;
        }
        c += 1;
    }
    k.side = splitmix(&mut st);
    let mut i = 1;
    while i < 16 {
        k.castling[i] = splitmix(&mut st);
        i += 1;
    }
    let mut s = 0;
    while s < 256 {
        k.ep[s] = splitmix(&mut st);
        s += 1;
    }
    let mut side = 0;
    while side < 2 {
        let mut kd = 0;
        while kd < 16 {
            let mut n = 1;
            while n < 16 {
                k.pocket[side][kd][n] = splitmix(&mut st);
                n += 1;
            }
            kd += 1;
        }
        side += 1;
    }
    k
}

static KEYS: Keys = keys();

/// A change the undo log reverts: a cell's old contents, or a pocket count's old value.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Change {
    Cell(u8, u8),
    Pocket(u8, u8, u8),
}

/// What a move changes wholesale, saved before it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Saved {
    pub mark: u32,
    pub castling: u8,
    pub ep: [u8; 3],
    pub ep_victim: u8,
    pub hash: u64,
}

#[derive(Clone)]
pub(crate) struct Board {
    pub cells: [u8; 256],
    /// Squares of each piece code (kind | side).
    pub bb: [Bitboard; 32],
    pub occ: [Bitboard; 2],
    pub kings: [u8; 2],
    pub side: usize,
    pub castling: u8,
    /// Squares the last move's pawn passed over (NONE-padded), and where that pawn stands.
    pub ep: [u8; 3],
    pub ep_victim: u8,
    /// Pocket counts by side and kind (ES for a spent Encloser).
    pub pocket: [[u8; 16]; 2],
    pub hash: u64,
    pub log: Vec<Change>,
}

impl Board {
    pub fn empty() -> Board {
        Board {
            cells: [EMPTY; 256],
            bb: [Bitboard::EMPTY; 32],
            occ: [Bitboard::EMPTY; 2],
            kings: [NONE; 2],
            side: 0,
            castling: 0,
            ep: [NONE; 3],
            ep_victim: NONE,
            pocket: [[0; 16]; 2],
            hash: 0,
            log: Vec::with_capacity(256),
        }
    }

    /// Put `value` on `at` (EMPTY clears it), keeping indexes, hash and castling rights.
    #[inline(always)]
    pub fn set(&mut self, at: u8, value: u8) {
        let old = self.cells[at as usize];
        self.log.push(Change::Cell(at, old));
        self.raw_set(at, value);
        if self.castling != 0 {
            for &(s, rights) in CASTLE_SQUARES.iter() {
                if s == at && self.castling & rights != 0 {
                    self.hash ^= KEYS.castling[self.castling as usize];
                    self.castling &= !rights;
                    self.hash ^= KEYS.castling[self.castling as usize];
                }
            }
        }
    }

    #[inline(always)]
    fn raw_set(&mut self, at: u8, value: u8) {
        let i = at as usize;
        let old = self.cells[i];
        let bit = Bitboard::from_square(Square::from_index(at));
        if old != EMPTY {
            self.bb[old as usize] ^= bit;
            self.occ[side(old)] ^= bit;
            self.hash ^= KEYS.cell[old as usize][i];
            if kind(old) == K && self.kings[side(old)] == at {
                self.kings[side(old)] = NONE;
            }
        }
        if value != EMPTY {
            self.bb[value as usize] ^= bit;
            self.occ[side(value)] ^= bit;
            self.hash ^= KEYS.cell[value as usize][i];
            if kind(value) == K {
                self.kings[side(value)] = at;
            }
        }
        self.cells[i] = value;
    }

    pub fn add_pocket(&mut self, s: usize, k: u8, delta: i8) {
        let old = self.pocket[s][k as usize];
        self.log.push(Change::Pocket(s as u8, k, old));
        let new = (old as i8 + delta) as u8;
        self.raw_pocket(s, k, new);
    }

    fn raw_pocket(&mut self, s: usize, k: u8, new: u8) {
        let old = self.pocket[s][k as usize];
        let key = |n: u8| {
            if n == 0 {
                0
            } else {
                KEYS.pocket[s][k as usize][(n as usize).min(15)]
            }
        };
        self.hash ^= key(old) ^ key(new);
        self.pocket[s][k as usize] = new;
    }

    pub fn set_ep(&mut self, ep: [u8; 3], victim: u8) {
        for s in self.ep {
            if s != NONE {
                self.hash ^= KEYS.ep[s as usize];
            }
        }
        self.ep = ep;
        self.ep_victim = victim;
        for s in self.ep {
            if s != NONE {
                self.hash ^= KEYS.ep[s as usize];
            }
        }
    }

    pub fn flip_side(&mut self) {
        self.side ^= 1;
        self.hash ^= KEYS.side;
    }

    pub fn save(&self) -> Saved {
        Saved {
            mark: self.log.len() as u32,
            castling: self.castling,
            ep: self.ep,
            ep_victim: self.ep_victim,
            hash: self.hash,
        }
    }

    /// Take a move back: revert the log to the mark, restore what was saved, flip the side.
    pub fn restore(&mut self, saved: Saved) {
        while self.log.len() > saved.mark as usize {
            match self.log.pop().expect("above the mark") {
                Change::Cell(at, old) => self.raw_set(at, old),
                Change::Pocket(s, k, old) => self.pocket[s as usize][k as usize] = old,
            }
        }
        self.castling = saved.castling;
        self.ep = saved.ep;
        self.ep_victim = saved.ep_victim;
        self.hash = saved.hash;
    }

    /// The hash from scratch (for checks and for positions just read).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, &c) in self.cells.iter().enumerate() {
            if c != EMPTY {
                h ^= KEYS.cell[c as usize][i];
            }
        }
        if self.side == 1 {
            h ^= KEYS.side;
        }
        h ^= KEYS.castling[self.castling as usize];
        for s in self.ep {
            if s != NONE {
                h ^= KEYS.ep[s as usize];
            }
        }
        for s in 0..2 {
            for k in 0..16 {
                let n = self.pocket[s][k];
                if n > 0 {
                    h ^= KEYS.pocket[s][k][(n as usize).min(15)];
                }
            }
        }
        h
    }
}
