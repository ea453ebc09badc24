//! Zobrist keys, fixed for every run (a seeded generator), so hashes are reproducible.

use std::sync::LazyLock;

use crate::bitboard::Square;
use crate::position::Side;
use crate::variant::{MAX_GROUPS, MAX_KINDS};

pub(crate) struct Zobrist {
    piece: Vec<u64>,
    group: Vec<u64>,
    pub side: u64,
    /// A unit that has moved this turn stands on the square.
    pub moved: [u64; 256],
    /// The chesimal chosen for the turn.
    pub chosen: [u64; MAX_GROUPS],
    /// Number of unit moves made this turn (entry 0 is 0: a fresh turn adds nothing).
    pub moves: [u64; 256],
    /// Range model: feasible leader subsets (bit 0, the empty subset alone, is 0).
    feasible: [u64; 64],
    /// Body model: a Hair or Limb on the square may still make its follower step.
    /// Indexed by main start square * 8 + direction.
    pub follower: Vec<u64>,
    /// Body model: the turn's one capture is made.
    pub captured: u64,
    /// The turn is a placement turn.
    pub placing: u64,
    /// Lead model: the unit (by id) leading the turn, and its mode.
    pub lead: [u64; 256],
    pub lead_mode: [u64; 64],
    /// Units still to place: (side, kind, count); count 0 is 0.
    pocket: Vec<u64>,
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(crate) static ZOBRIST: LazyLock<Zobrist> = LazyLock::new(|| {
    let mut s = 0xC0_4027_u64;
    let mut next = || splitmix(&mut s);
    let piece = (0..2 * MAX_KINDS * 256).map(|_| next()).collect();
    let group = (0..2 * MAX_GROUPS * 256).map(|_| next()).collect();
    let side = next();
    let moved = std::array::from_fn(|_| next());
    let chosen = std::array::from_fn(|_| next());
    let mut moves: [u64; 256] = std::array::from_fn(|_| next());
    moves[0] = 0;
    let mut feasible: [u64; 64] = std::array::from_fn(|_| next());
    feasible[0] = 0;
    let follower = (0..256 * 8).map(|_| next()).collect();
    let captured = next();
    let placing = next();
    let pocket = (0..2 * MAX_KINDS * 65)
        .map(|i| if i % 65 == 0 { 0 } else { next() })
        .collect();
    // Drawn last so that the keys above stay what they were before the lead model.
    let lead = std::array::from_fn(|_| next());
    let lead_mode = std::array::from_fn(|_| next());
    Zobrist {
        piece,
        group,
        side,
        moved,
        chosen,
        moves,
        feasible,
        follower,
        captured,
        placing,
        lead,
        lead_mode,
        pocket,
    }
});

impl Zobrist {
    #[inline(always)]
    pub fn unit(&self, side: Side, kind: u8, group: u8, sq: Square) -> u64 {
        let s = side.index();
        self.piece[(s * MAX_KINDS + kind as usize) * 256 + sq.index()]
            ^ self.group[(s * MAX_GROUPS + group as usize) * 256 + sq.index()]
    }
    pub fn pocket(&self, side: usize, kind: usize, count: u8) -> u64 {
        self.pocket[(side * MAX_KINDS + kind) * 65 + count.min(64) as usize]
    }
    #[inline]
    pub fn feasible_key(&self, feasible: u64) -> u64 {
        let (mut h, mut f) = (0, feasible);
        while f != 0 {
            h ^= self.feasible[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        h
    }
}
