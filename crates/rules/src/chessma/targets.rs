//! Chessma 84's piece diagrams (`Explain::piece_targets`): a piece's squares from the core's
//! own move generation and make, so lines run on both sheets (twin rows 1/1' and 8/8', the
//! corners) and each piece captures its own way. Nothing here runs in search.
//!
//! Moves are the squares the piece's pseudo-legal moves end on without taking a unit there
//! (check aside, as in every diagram; a frozen piece has none; swaps and pushes end on the
//! swapped or pushed unit's square, castling on the King's). Capture squares are the squares
//! of the units its moves take, each piece by its method:
//! - King, Queen, Rook, Bishop, Knight, Pawn: the square it moves onto (a Pawn's diagonals
//!   forward on both sheets; en passant takes the passed Pawn's square);
//! - Long Leaper: the enemy it leaps over (an empty square beyond, on the same sheet);
//! - Withdrawer: the enemy next to it that it moves straight away from;
//! - Coordinator: the enemies on its file and its King's rank, or its rank and the King's
//!   file, after its move; with no King of its own (an empty board) it takes none;
//! - Encloser: an enemy group left with no empty orthogonal neighbour by its move or
//!   teleport (unspent only); a lone unit has at least two such neighbours but on a corner,
//!   where it is never enclosed, so on an empty board it takes none;
//! - Chameleon: each piece by that piece's own method; on an empty board a capture square
//!   is one where it takes a lone enemy of some kind;
//! - Immobilizer, Pusher, Swapper: none (they freeze, push and swap).
//!
//! On an empty board the lone enemy is a Knight (for the Chameleon: every kind in turn): a
//! Knight neither freezes the mover nor is taken in a way of its own.

use crate::bitboard::{Bitboard, Square};

use super::board::{Board, B, BLACK, C, E, I, K, L, N, P, Q, R, S, U, W, X};
use super::rules::{Game, MoveBuf, Report};
use super::tables::{Tables, NONE};

/// The squares a move takes units from, told as it is made.
struct Taken(Bitboard);

impl Report for Taken {
    fn removed(&mut self, at: u8, _cell: u8, _pocket: bool) {
        self.0.set(Square::from_index(at));
    }
}

/// The moves of the piece on `from` (its side to move on `b`), each made and unmade: the
/// squares they end on without taking a unit there, and the squares of the units they take.
fn moves_of(t: &Tables, b: &mut Board, from: u8, out: &mut MoveBuf) -> (Bitboard, Bitboard) {
    out.len = 0;
    let mut game = Game { t, b };
    game.pseudo_of(Bitboard::from_square(Square::from_index(from)), false, out);
    let (mut moves, mut captures) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for &m in out.as_slice() {
        let mut taken = Taken(Bitboard::EMPTY);
        let (saved, _) = game.make_reporting(m, &mut taken);
        game.unmake(saved);
        let to = Square::from_index(m.to);
        if !taken.0.has(to) {
            moves.set(to);
        }
        captures |= taken.0;
    }
    (moves, captures)
}

/// The piece `cell` (a core kind with its side's bit) on `from` of an empty board: where it
/// moves, and the squares where it would take a lone enemy.
pub(super) fn on_empty(t: &Tables, cell: u8, from: u8) -> (Bitboard, Bitboard) {
    let mut b = Board::empty();
    let side = (cell & BLACK != 0) as usize;
    b.side = side;
    b.set(from, cell);
    let mut out = MoveBuf::new();
    let (moves, _) = moves_of(t, &mut b, from, &mut out);
    let enemy = (side as u8 ^ 1) << 4;
    let victims: &[u8] = if cell & !BLACK == X { &ALL_KINDS } else { &[N] };
    let mut captures = Bitboard::EMPTY;
    for q in t.all.iter() {
        let at = q.index() as u8;
        if at == from {
            continue;
        }
        for &k in victims {
            let saved = b.save();
            b.set(at, k | enemy);
            let (_, taken) = moves_of(t, &mut b, from, &mut out);
            b.restore(saved);
            if taken.has(q) {
                captures.set(q);
                break;
            }
        }
    }
    (moves, captures)
}

/// The piece `cell` on `from` of a copy of `board`, in place of whatever stands there, its
/// side to move: where it moves, and the squares of the units it takes.
pub(super) fn on_board(t: &Tables, board: &Board, cell: u8, from: u8) -> (Bitboard, Bitboard) {
    let mut b = Board::empty();
    b.copy_from(board);
    let side = (cell & BLACK != 0) as usize;
    if b.side != side {
        // The other side's last move gave no en passant to this one.
        b.side = side;
        b.set_ep([NONE; 3], NONE);
    }
    b.set(from, cell);
    moves_of(t, &mut b, from, &mut MoveBuf::new())
}

/// Every core kind but the spent Encloser (taken as an Encloser is).
const ALL_KINDS: [u8; 14] = [K, Q, R, B, N, P, I, U, L, W, C, E, S, X];
