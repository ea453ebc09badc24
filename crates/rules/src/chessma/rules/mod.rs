//! Chessma 84's moves (RULES.md 7, RULES-DETAILS.md 7.7): generation, the capture effects of
//! each piece, make and unmake, freezing and check by every capture method.
//!
//! A move lies on one sheet; a move valid on both sheets has the union of its effects there,
//! so a move carries the mask of sheets it is valid on. Legality (the own King not capturable
//! afterwards on either sheet) is tested by making the move.
//!
//! capture.rs: the capture methods' geometry (coordination, enclosure's liberties) and the
//! `Report` of what a move does; check.rs: freezing, check by every method, the squares a
//! move must avoid; generate.rs: pseudo-legal moves piece by piece; make.rs: make and unmake
//! with each piece's captures; legal.rs: legality (shortcuts, then making), perft.

mod capture;
mod check;
mod generate;
mod legal;
mod make;

pub(crate) use capture::Report;
pub(crate) use check::Witnesses;

use crate::bitboard::{Bitboard, Square};

use super::board::*;
use super::tables::Tables;

/// How a move is made. `Plain` covers every piece's own move with its own effects.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum How {
    Plain,
    Castle,
    EnPassant,
    /// A piece of this kind from the pocket.
    Drop(u8),
    Swap,
    /// A push along the sheet given; `labelled` when the other sheet's push ends otherwise.
    Push {
        sheet: u8,
        labelled: bool,
    },
    /// An Encloser or Chameleon arriving off any line to complete an enclosure.
    Teleport,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Mv {
    pub from: u8,
    pub to: u8,
    pub how: How,
    /// Promotion kind (0: none).
    pub promo: u8,
    /// Sheets the move is valid on (bit s).
    pub sheets: u8,
}

impl Mv {
    pub(super) fn plain(from: u8, to: u8, sheets: u8) -> Mv {
        Mv {
            from,
            to,
            how: How::Plain,
            promo: 0,
            sheets,
        }
    }
}

/// Set in `Mv::sheets` of a line move that passes over a piece it captures (a long leap, of
/// the Long Leaper or of a Chameleon over one): such moves are tested by being made.
pub(crate) const LEAPS: u8 = 0x80;

/// Up to this many pseudo-legal moves in a position (drops included).
pub(crate) const MAX_MOVES: usize = 2048;

/// A move list on the stack, left uninitialised beyond `len` (a new list costs nothing),
/// with the capture count of each move beside it.
pub(crate) struct MoveBuf {
    pub len: usize,
    mv: [std::mem::MaybeUninit<Mv>; MAX_MOVES],
    caps: [std::mem::MaybeUninit<u32>; MAX_MOVES],
}

impl MoveBuf {
    pub fn new() -> MoveBuf {
        MoveBuf {
            len: 0,
            mv: [std::mem::MaybeUninit::uninit(); MAX_MOVES],
            caps: [std::mem::MaybeUninit::uninit(); MAX_MOVES],
        }
    }
    #[inline(always)]
    pub(super) fn push(&mut self, m: Mv) {
        self.push_counted(m, 0)
    }
    #[inline(always)]
    pub(super) fn push_counted(&mut self, m: Mv, caps: u32) {
        if self.len < MAX_MOVES {
            self.mv[self.len] = std::mem::MaybeUninit::new(m);
            self.caps[self.len] = std::mem::MaybeUninit::new(caps);
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[Mv] {
        // SAFETY: the first `len` entries were written by `push_counted`; Mv is Copy.
        unsafe { std::slice::from_raw_parts(self.mv.as_ptr() as *const Mv, self.len) }
    }
    pub fn caps(&self) -> &[u32] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts(self.caps.as_ptr() as *const u32, self.len) }
    }
}

#[inline(always)]
pub(super) fn bit(s: u8) -> Bitboard {
    Bitboard::from_square(Square::from_index(s))
}
#[inline(always)]
pub(super) fn file(s: u8) -> u8 {
    s & 15
}
#[inline(always)]
pub(super) fn rank(s: u8) -> u8 {
    s >> 4
}

/// A small set of squares a move removes.

pub(crate) struct Game<'a> {
    pub t: &'a Tables,
    pub b: &'a mut Board,
}
