//! FIDE chess, the `chess` validation variant (`rules = fide`): check, mate, stalemate,
//! castling, en passant, promotion. Chess is checked against programs nobody here wrote, so
//! it runs on its own 8x8 core (board.rs) for speed. `FideGame` (game.rs) is the family on
//! this core; text.rs reads its FEN and steps.

pub(crate) mod board;
mod game;
mod tables;
mod text;

pub use game::{FideGame, FideUndo};

use board::{ChessBoard, MoveSink, EMPTY, NO_EP};

use crate::bitboard::Square;
use crate::step::{Step, StepKind, StepList};

pub(crate) const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

#[inline(always)]
pub(crate) fn frame(sq: u8) -> Square {
    Square::new(sq % 8, sq / 8)
}
#[inline(always)]
pub(crate) fn sq64(sq: Square) -> u8 {
    sq.rank() * 8 + sq.file()
}

pub(crate) struct ListSink<'a>(pub(crate) &'a mut StepList, pub(crate) &'a [u8; 6]);
impl MoveSink for ListSink<'_> {
    #[inline(always)]
    fn set(&mut self, from: u8, mut to: u64) {
        while to != 0 {
            let t = to.trailing_zeros() as u8;
            to &= to - 1;
            self.0.push(Step::new(frame(from), frame(t)));
        }
    }
    fn promotion(&mut self, from: u8, to: u8, piece: u8) {
        self.0.push(Step {
            from: frame(from),
            to: frame(to),
            kind: StepKind::Promote(self.1[piece as usize]),
        });
    }
}

/// The FEN of a core position.
pub(crate) fn fen(b: &ChessBoard) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let pc = b.mailbox[rank * 8 + file];
            if pc == EMPTY {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out += &empty.to_string();
                empty = 0;
            }
            let l = LETTERS[(pc & 7) as usize];
            out.push(if pc >> 3 == 0 {
                l
            } else {
                l.to_ascii_lowercase()
            });
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let castling: String = [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
        .iter()
        .filter(|(m, _)| b.castling & m != 0)
        .map(|(_, c)| *c)
        .collect();
    let ep = if b.ep == NO_EP {
        "-".to_string()
    } else {
        format!("{}{}", (b'a' + b.ep % 8) as char, b.ep / 8 + 1)
    };
    format!(
        "{out} {} {} {ep} {} {}",
        if b.side == 0 { 'w' } else { 'b' },
        if castling.is_empty() { "-" } else { &castling },
        b.halfmove,
        b.fullmove
    )
}
