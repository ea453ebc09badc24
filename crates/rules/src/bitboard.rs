//! Squares and 256-square bitboards.
//!
//! Every board lives in a fixed 16x16 frame: square index = rank * 16 + file. A fixed
//! width keeps neighbour arithmetic to shifts by 1, 15, 16 and 17, whatever the board's
//! real size; cells outside the board are simply never set in its `squares` mask.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Width and height of the frame every board is embedded in.
pub const FRAME: u8 = 16;

/// A square of the 16x16 frame. Invariant: index < 256 (always true for a u8).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Default)]
pub struct Square(u8);

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * FRAME + file)
    }
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn file(self) -> u8 {
        self.0 % FRAME
    }
    pub const fn rank(self) -> u8 {
        self.0 / FRAME
    }
    /// The square `df` files and `dr` ranks away, if it is inside the frame.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        ((0..FRAME as i8).contains(&f) && (0..FRAME as i8).contains(&r))
            .then(|| Square::new(f as u8, r as u8))
    }
    /// King-move distance (Chebyshev distance).
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i8 - other.file() as i8).unsigned_abs();
        let dr = (self.rank() as i8 - other.rank() as i8).unsigned_abs();
        df.max(dr)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A set of squares of the 16x16 frame.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct Bitboard(pub [u64; 4]);

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                let (a, b) = (self.0, o.0);
                Bitboard([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                *self = *self $op o;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        let a = self.0;
        Bitboard([!a[0], !a[1], !a[2], !a[3]])
    }
}

/// The one-square sets, aligned so that no entry straddles a cache line.
#[repr(C, align(64))]
struct SquareSets([Bitboard; 256]);

static SQUARE_SETS: SquareSets = {
    let mut t = [Bitboard([0; 4]); 256];
    let mut i = 0;
    while i < 256 {
        t[i].0[i >> 6] = 1 << (i & 63);
        i += 1;
    }
    SquareSets(t)
};

/// Files a and p of the frame: the columns a one-file shift must not wrap into.
const FILE_A: Bitboard = Bitboard([0x0001_0001_0001_0001; 4]);
const FILE_P: Bitboard = Bitboard([0x8000_8000_8000_8000; 4]);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard([0; 4]);
    pub const FULL: Bitboard = Bitboard([!0; 4]);

    /// Read from a table of one-square sets: one whole-board load that the callers combine
    /// with vector instructions (building the words in registers costs a jump table on the
    /// word index, and writing them to a stack array stalls store forwarding).
    #[inline(always)]
    pub fn from_square(sq: Square) -> Bitboard {
        SQUARE_SETS.0[sq.index()]
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.is_empty()
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        // A vector test against the one-square set: picking the word out instead made the
        // compiler spill the board to the stack and reload one word, a store-forwarding
        // stall that was a fifth of `make`.
        (self & Bitboard::from_square(sq)).any()
    }
    // Whole-board updates for the same reason as `from_square`: boards are read whole.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        *self |= Bitboard::from_square(sq);
    }
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        *self &= !Bitboard::from_square(sq);
    }
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        *self ^= Bitboard::from_square(sq);
    }
    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some(Square::from_index(
                    (i as u32 * 64 + w.trailing_zeros()) as u8,
                ));
            }
        }
        None
    }
    /// Shift the whole 256-bit set towards higher indices by `n` (< 64) bits.
    #[inline(always)]
    fn shl(self, n: u32) -> Bitboard {
        let a = self.0;
        Bitboard([
            a[0] << n,
            a[1] << n | a[0] >> (64 - n),
            a[2] << n | a[1] >> (64 - n),
            a[3] << n | a[2] >> (64 - n),
        ])
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Bitboard {
        let a = self.0;
        Bitboard([
            a[0] >> n | a[1] << (64 - n),
            a[1] >> n | a[2] << (64 - n),
            a[2] >> n | a[3] << (64 - n),
            a[3] >> n,
        ])
    }
    /// Every square moved by `delta` indices (-63..=63): bits shifted past either end drop.
    #[inline(always)]
    pub fn shifted(self, delta: i32) -> Bitboard {
        match delta {
            0 => self,
            d if d > 0 => self.shl(d as u32),
            d => self.shr((-d) as u32),
        }
    }
    /// This set plus every square king-adjacent to it (within the frame).
    #[inline(always)]
    pub fn king_dilate(self) -> Bitboard {
        let row = self | (self.shl(1) & !FILE_A) | (self.shr(1) & !FILE_P);
        row | row.shl(16) | row.shr(16)
    }
    /// Iterate the squares in ascending order.
    #[inline(always)]
    pub fn iter(self) -> BitIter {
        BitIter(self)
    }
}

pub struct BitIter(Bitboard);

impl Iterator for BitIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        for i in 0..4 {
            let w = self.0 .0[i];
            if w != 0 {
                self.0 .0[i] = w & (w - 1);
                return Some(Square::from_index(
                    (i as u32 * 64 + w.trailing_zeros()) as u8,
                ));
            }
        }
        None
    }
    /// Internal iteration (`for_each`, `fold`, `count`, `collect`) walks each word in a
    /// register; `next` keeps the iterator's state in memory, which a hot loop reloads on
    /// every square.
    #[inline(always)]
    fn fold<B, F: FnMut(B, Square) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        for (i, word) in self.0 .0.into_iter().enumerate() {
            let mut w = word;
            while w != 0 {
                acc = f(
                    acc,
                    Square::from_index((i as u32 * 64 + w.trailing_zeros()) as u8),
                );
                w &= w - 1;
            }
        }
        acc
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.set(sq);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilation_does_not_wrap_files() {
        let b = Bitboard::from_square(Square::new(0, 3)).king_dilate();
        assert_eq!(b.count(), 6);
        assert!(!b.has(Square::new(15, 2)) && !b.has(Square::new(15, 3)));
        let b = Bitboard::from_square(Square::new(15, 0)).king_dilate();
        assert_eq!(b.count(), 4);
        let b = Bitboard::from_square(Square::new(7, 4)).king_dilate();
        assert_eq!(b.count(), 9);
        let across = Bitboard::from_square(Square::new(5, 3)).king_dilate(); // rank 4 -> word 0/1 edge
        assert!(across.has(Square::new(4, 4)) && across.has(Square::new(6, 2)));
    }

    #[test]
    fn iteration_and_counts_agree() {
        let sqs = [
            Square::new(0, 0),
            Square::new(3, 5),
            Square::new(15, 15),
            Square::new(9, 8),
        ];
        let b: Bitboard = sqs.iter().copied().collect();
        assert_eq!(b.count(), 4);
        let mut got: Vec<_> = b.iter().collect();
        got.sort();
        let mut want = sqs.to_vec();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(b.first(), Some(Square::new(0, 0)));
    }

    /// The table-driven one-square sets, the vector membership test and the register walk
    /// (`fold`) against the plain word arithmetic and `next`, on every square and on sets spanning all words.
    #[test]
    fn square_sets_membership_and_walk_agree_with_word_arithmetic() {
        for i in 0..=255u8 {
            let sq = Square::from_index(i);
            let b = Bitboard::from_square(sq);
            assert_eq!(b.count(), 1, "{sq:?}");
            assert_eq!(b.0[i as usize >> 6], 1u64 << (i & 63), "{sq:?}");
        }
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..200 {
            let mut b = Bitboard::EMPTY;
            for w in 0..4 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b.0[w] = state & (state >> 3);
            }
            for i in 0..=255u8 {
                let word = b.0[i as usize >> 6] >> (i & 63) & 1 != 0;
                assert_eq!(b.has(Square::from_index(i)), word);
            }
            let mut walked = vec![];
            b.iter().for_each(|sq| walked.push(sq));
            let mut it = b.iter();
            let stepped: Vec<Square> = std::iter::from_fn(|| it.next()).collect();
            assert_eq!(walked, stepped);
            assert_eq!(walked.len() as u32, b.count());
        }
    }
}
