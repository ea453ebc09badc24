//! Chessma 84 (`rules = chessma`): orthodox and Ultima pieces on two overlapping sheets.
//! Like FIDE chess it runs on a core of its own (board.rs, rules/) over tables computed from
//! the variant's sheet geometry (sheets.rs). `ChessmaGame` (game.rs) is the family on this
//! core, which everything plays on; notation.rs reads its positions and steps; targets.rs
//! gives the piece diagrams from the core's moves.

pub(crate) mod board;
mod game;
mod notation;
pub(crate) mod rules;
mod targets;
pub(crate) use crate::sheets as tables;
pub(crate) mod text;

use std::cell::RefCell;
use std::sync::Arc;

use crate::bitboard::Square;
use crate::effects::{Effect, Effects};
use crate::outcome::Side;
use crate::step::{Step, StepKind};

use board::*;
pub use game::{ChessmaGame, ChessmaUndo};
pub(crate) use rules::{Game, How, MoveBuf, Mv, Report};
pub(crate) use tables::Tables;
use tables::NONE;

#[derive(Clone)]
pub(crate) struct ChessmaState {
    pub(crate) board: Board,
    pub(crate) tables: Arc<Tables>,
    /// Variant piece kind of each core kind (a spent Encloser is an Encloser).
    pub(crate) variant_kind: [u8; 16],
}

thread_local! {
    /// A scratch board for generation from `&UnitBoard` (legality is tested by making moves).
    static SCRATCH: RefCell<Board> = RefCell::new(Board::empty());
}

impl ChessmaState {
    pub(crate) fn new(variant: &crate::variant::Variant) -> ChessmaState {
        let tables = variant
            .chessma
            .clone()
            .expect("a chessma variant has its tables");
        let mut variant_kind = [0u8; 16];
        for (k, letter) in LETTERS.iter().enumerate().skip(1) {
            if let Some(v) = variant.kind_of_letter(*letter as char) {
                if k < ES as usize {
                    variant_kind[k] = v as u8;
                } else {
                    variant_kind[k] = variant_kind[E as usize];
                }
            }
        }
        ChessmaState {
            board: Board::empty(),
            tables,
            variant_kind,
        }
    }

    /// Legal moves of the position, with their capture counts.
    pub(crate) fn with_moves<T>(
        &self,
        f: impl FnOnce(&[Mv], &[u32], &mut Board, &Tables) -> T,
    ) -> T {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            scratch.copy_from(&self.board);
            let mut out = MoveBuf::new();
            let mut game = Game {
                t: &self.tables,
                b: &mut scratch,
            };
            game.legal(&mut out);
            f(out.as_slice(), out.caps(), &mut scratch, &self.tables)
        })
    }

    /// Pseudo-legal moves of the position, generated on the scratch board.
    pub(crate) fn with_pseudo<T>(&self, f: impl FnOnce(&[Mv]) -> T) -> T {
        self.with_scratch(|game| {
            let mut out = MoveBuf::new();
            game.pseudo(&mut out);
            f(out.as_slice())
        })
    }

    /// Work on a copy of the position on the scratch board.
    pub(crate) fn with_scratch<T>(&self, f: impl FnOnce(&mut Game) -> T) -> T {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            scratch.copy_from(&self.board);
            f(&mut Game {
                t: &self.tables,
                b: &mut scratch,
            })
        })
    }

    pub(crate) fn step_of(&self, m: Mv) -> Step {
        let (from, to) = (Square::from_index(m.from), Square::from_index(m.to));
        match m.how {
            How::Drop(k) => {
                let spent = if k == ES { 0x80 } else { 0 };
                Step::drop(self.variant_kind[k as usize] | spent, to)
            }
            How::Push {
                sheet,
                labelled: true,
            } => Step {
                from,
                to,
                kind: StepKind::Push(sheet),
            },
            _ if m.promo != 0 => Step {
                from,
                to,
                kind: StepKind::Promote(self.variant_kind[m.promo as usize]),
            },
            _ => Step::new(from, to),
        }
    }
}

impl ChessmaState {
    /// The move a step stands for, from the moving piece's moves alone; None for a step no
    /// pseudo-legal move makes (a refused step is written without playing it).
    fn find_move(&self, step: Step) -> Option<Mv> {
        let c = self;
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            scratch.copy_from(&c.board);
            let game = Game {
                t: &c.tables,
                b: &mut scratch,
            };
            let mut out = MoveBuf::new();
            let drop = matches!(step.kind, StepKind::Drop(_));
            let only = if drop {
                crate::Bitboard::EMPTY
            } else {
                crate::Bitboard::from_square(step.from)
            };
            game.pseudo_of(only, drop, &mut out);
            out.as_slice()
                .iter()
                .find(|&&m| c.step_of(m) == step)
                .copied()
        })
    }

    /// The position string (NOTATION.md).
    pub(crate) fn text(&self, variant: &crate::variant::Variant) -> String {
        let c = self;
        let geo = &variant.geometry;
        let b = &c.board;
        let mut rows = Vec::new();
        for rank in (0..geo.ranks).rev() {
            let mut out = String::new();
            let mut empty = 0;
            for file in 0..geo.files {
                let s = Square::new(file, rank);
                let cell = b.cells[s.index()];
                if geo.squares.has(s) && cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                if !geo.squares.has(s) {
                    out.push('*');
                    continue;
                }
                out += &piece_text(cell);
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            rows.push(out);
        }
        let castling: String = [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
            .iter()
            .filter(|(m, _)| b.castling & m != 0)
            .map(|(_, ch)| *ch)
            .collect();
        let ep: Vec<String> =
            b.ep.iter()
                .filter(|&&s| s != NONE)
                .map(|&s| geo.square_name(Square::from_index(s)))
                .collect();
        let mut pockets = String::new();
        for s in 0..2u8 {
            for k in [Q, R, B, N, P, I, U, L, W, C, E, ES, S, X] {
                for _ in 0..b.pocket[s as usize][k as usize] {
                    pockets += &piece_text(k | s << 4);
                }
            }
        }
        let dash = |t: String| if t.is_empty() { "-".to_string() } else { t };
        format!(
            "{} {} {} {} {}",
            rows.join("/"),
            if b.side == 0 { 'w' } else { 'b' },
            dash(castling),
            dash(ep.join(",")),
            dash(pockets)
        )
    }

    /// How many units a legal step takes, made on the scratch board: no copy of the position.
    fn captures(&self, step: Step) -> usize {
        let c = self;
        // A step no move makes captures nothing (it is written with '-').
        let Some(mv) = self.find_move(step) else {
            return 0;
        };
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            scratch.copy_from(&c.board);
            let mut removed = Vec::new();
            let mut game = Game {
                t: &c.tables,
                b: &mut scratch,
            };
            let mut tell = Tell {
                fx: None,
                removed: &mut removed,
                kinds: &c.variant_kind,
            };
            game.make_reporting(mv, &mut tell);
            removed.len()
        })
    }

    /// A step as NOTATION.md writes it: `f3-e4/A`, `f8'xe6`, `e7-e8=Q`, `E'@d4`.
    pub(crate) fn step_text(&self, variant: &crate::variant::Variant, step: Step) -> String {
        let geo = &variant.geometry;
        if let StepKind::Drop(k) = step.kind {
            let letter = variant.pieces[(k & 0x7F) as usize].letter;
            let spent = if k & 0x80 != 0 { "'" } else { "" };
            return format!("{letter}{spent}@{}", geo.square_name(step.to));
        }
        // Only this move is made, on the scratch board (a view writes every legal step).
        let captures = self.captures(step);
        let mut text = format!(
            "{}{}{}",
            geo.square_name(step.from),
            if captures > 0 { 'x' } else { '-' },
            geo.square_name(step.to)
        );
        match step.kind {
            StepKind::Promote(k) => {
                text.push('=');
                text.push(variant.pieces[k as usize].letter);
            }
            StepKind::Push(sheet) => {
                text.push('/');
                text += &geo.sheets[sheet as usize].name;
            }
            _ => {}
        }
        text
    }
}

impl Board {
    /// Copy everything but the undo log (which starts empty).
    pub(crate) fn copy_from(&mut self, o: &Board) {
        self.cells = o.cells;
        self.bb = o.bb;
        self.occ = o.occ;
        self.kings = o.kings;
        self.side = o.side;
        self.castling = o.castling;
        self.ep = o.ep;
        self.ep_victim = o.ep_victim;
        self.pocket = o.pocket;
        self.hash = o.hash;
        self.log.clear();
    }
}

pub(crate) fn piece_text(cell: u8) -> String {
    let k = kind(cell);
    let (letter, spent) = if k == ES {
        ('E', "'")
    } else {
        (LETTERS[k as usize] as char, "")
    };
    let letter = if side(cell) == 1 {
        letter.to_ascii_lowercase()
    } else {
        letter
    };
    format!("{letter}{spent}")
}

/// Turns the core's reports into the view's removed units and, when asked, effects.
pub(crate) struct Tell<'a> {
    pub(crate) fx: Option<&'a mut Effects>,
    pub(crate) removed: &'a mut Vec<(u8, u8)>,
    pub(crate) kinds: &'a [u8; 16],
}

impl Tell<'_> {
    fn unit(&self, cell: u8) -> (Side, u8) {
        let s = Side::from_index(side(cell));
        (s, self.kinds[kind(cell) as usize])
    }
}

impl Report for Tell<'_> {
    fn moved(&mut self, from: u8, to: u8, cell: u8) {
        let (side, kind) = self.unit(cell);
        if let Some(fx) = self.fx.as_deref_mut() {
            fx.push(Effect::Moved {
                side,
                kind,
                from: Square::from_index(from),
                to: Square::from_index(to),
            });
        }
    }
    fn removed(&mut self, at: u8, cell: u8, pocket: bool) {
        self.removed.push((at, cell));
        let (side, kind) = self.unit(cell);
        if let Some(fx) = self.fx.as_deref_mut() {
            let square = Square::from_index(at);
            fx.push(Effect::Removed {
                side,
                kind,
                square,
                capture: true,
            });
            if pocket {
                fx.push(Effect::Pocketed {
                    side: side.other(),
                    kind,
                });
            }
        }
    }
    fn placed(&mut self, at: u8, cell: u8) {
        let (side, kind) = self.unit(cell);
        if let Some(fx) = self.fx.as_deref_mut() {
            fx.push(Effect::Placed {
                side,
                kind,
                square: Square::from_index(at),
            });
        }
    }
    fn changed(&mut self, at: u8, old: u8, new: u8) {
        let ((side, from), (_, to)) = (self.unit(old), self.unit(new));
        // A spent Encloser is an Encloser to the view: nothing changes there.
        if from == to {
            return;
        }
        if let Some(fx) = self.fx.as_deref_mut() {
            fx.push(Effect::KindChanged {
                side,
                square: Square::from_index(at),
                from,
                to,
            });
        }
    }
}
