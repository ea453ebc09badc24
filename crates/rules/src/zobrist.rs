//! Zobrist keys, fixed for every run (a seeded generator), so hashes are reproducible.

use crate::bitboard::Square;
use crate::outcome::Side;
use crate::variant::{MAX_GROUPS, MAX_KINDS};

const POCKETS: usize = 2 * MAX_KINDS * 65;

pub(crate) struct Zobrist {
    /// Per (side, kind) and per (side, group), a row of square keys; a unit's key is the
    /// two rows' entries for its square xored.
    piece: [[u64; 256]; 2 * MAX_KINDS],
    group: [[u64; 256]; 2 * MAX_GROUPS],
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
    pub follower: [u64; 256 * 8],
    /// Body model: the turn's one capture is made.
    pub captured: u64,
    /// The turn is a placement turn.
    pub placing: u64,
    /// Units still to place: (side, kind, count); count 0 is 0.
    pocket: [u64; POCKETS],
    /// Lead model: the unit (by id) leading the turn, and its mode.
    pub lead: [u64; 256],
    pub lead_mode: [u64; 64],
}

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Fill `table` from the generator state `s`, returning the new state.
const fn fill<const N: usize>(mut s: u64, table: &mut [u64; N], from: usize) -> u64 {
    let mut i = from;
    while i < N {
        let (next, v) = splitmix(s);
        s = next;
        table[i] = v;
        i += 1;
    }
    s
}

const fn one(s: u64) -> (u64, u64) {
    splitmix(s)
}

/// The keys, drawn at compile time from a fixed seed in a fixed order (so hashes are
/// reproducible and the table costs nothing to reach at run time).
const fn build() -> Zobrist {
    let mut z = Zobrist {
        piece: [[0; 256]; 2 * MAX_KINDS],
        group: [[0; 256]; 2 * MAX_GROUPS],
        side: 0,
        moved: [0; 256],
        chosen: [0; MAX_GROUPS],
        moves: [0; 256],
        feasible: [0; 64],
        follower: [0; 256 * 8],
        captured: 0,
        placing: 0,
        pocket: [0; POCKETS],
        lead: [0; 256],
        lead_mode: [0; 64],
    };
    let mut s = 0xC0_4027_u64;
    // Row by row, in the order of the flat tables these once were (the keys are unchanged).
    let mut row = 0;
    while row < 2 * MAX_KINDS {
        s = fill(s, &mut z.piece[row], 0);
        row += 1;
    }
    row = 0;
    while row < 2 * MAX_GROUPS {
        s = fill(s, &mut z.group[row], 0);
        row += 1;
    }
    let (s2, side) = one(s);
    s = s2;
    z.side = side;
    s = fill(s, &mut z.moved, 0);
    s = fill(s, &mut z.chosen, 0);
    s = fill(s, &mut z.moves, 0);
    z.moves[0] = 0;
    s = fill(s, &mut z.feasible, 0);
    z.feasible[0] = 0;
    s = fill(s, &mut z.follower, 0);
    let (s2, captured) = one(s);
    let (s3, placing) = one(s2);
    s = s3;
    z.captured = captured;
    z.placing = placing;
    let mut i = 0;
    while i < POCKETS {
        if i % 65 != 0 {
            let (next, v) = splitmix(s);
            s = next;
            z.pocket[i] = v;
        }
        i += 1;
    }
    // Drawn last so that the keys above stay what they were before the lead model.
    s = fill(s, &mut z.lead, 0);
    fill(s, &mut z.lead_mode, 0);
    z
}

pub(crate) static ZOBRIST: Zobrist = build();

// `Zobrist::rows` masks kinds and groups into range.
const _: () = assert!(MAX_KINDS.is_power_of_two() && MAX_GROUPS.is_power_of_two());

impl Zobrist {
    /// The key rows of a unit. Kinds and groups are below their maxima (the variant loader
    /// checks); the masks only let the compiler drop the bounds checks.
    #[inline(always)]
    fn rows(&self, side: Side, kind: u8, group: u8) -> (&[u64; 256], &[u64; 256]) {
        let s = side.index() & 1;
        (
            &self.piece[s * MAX_KINDS + (kind as usize & (MAX_KINDS - 1))],
            &self.group[s * MAX_GROUPS + (group as usize & (MAX_GROUPS - 1))],
        )
    }
    #[inline(always)]
    pub fn unit(&self, side: Side, kind: u8, group: u8, sq: Square) -> u64 {
        let (p, g) = self.rows(side, kind, group);
        p[sq.index()] ^ g[sq.index()]
    }
    /// The hash change of a unit moving from `from` to `to`.
    #[inline(always)]
    pub fn unit_moved(&self, side: Side, kind: u8, group: u8, from: Square, to: Square) -> u64 {
        let (p, g) = self.rows(side, kind, group);
        p[from.index()] ^ p[to.index()] ^ g[from.index()] ^ g[to.index()]
    }
    pub fn pocket(&self, side: usize, kind: usize, count: u8) -> u64 {
        self.pocket[(side * MAX_KINDS + kind) * 65 + count.min(64) as usize]
    }
    #[inline]
    pub fn feasible_key(&self, feasible: u64) -> u64 {
        // The set changes wholesale at every move, so it is keyed by mixing its 64 bits
        // (two multiplies by odd keys, xorshifts between) rather than by a key per member,
        // which cost a loop over the members twice a step. The start set {∅} (1) keys to 0,
        // as every part of the turn state does at a turn start.
        let mut z = (feasible ^ 1).wrapping_mul(self.feasible[1] | 1);
        z = (z ^ (z >> 32)).wrapping_mul(self.feasible[2] | 1);
        z ^ (z >> 29)
    }
}
