//! FIDE chess as a game family (`FideGame`): the 8x8 core alone, searched and counted with
//! no generic view kept beside it. Its undo is the core's own record of a move.

use std::sync::Arc;

use super::board::{ChessBoard, ChessUndo, BISHOP, EMPTY, KING, KNIGHT, PAWN, QUEEN, ROOK};
use super::tables::TABLES;
use super::{frame, sq64, ListSink, LETTERS};
use crate::bitboard::{Bitboard, Square};
use crate::effects::{Effect, Effects};
use crate::interface::{Explain, Rules, SearchHooks};
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepKind, StepList};
use crate::variant::Variant;
use crate::view::{CheckHow, Checker};

/// A chess position on its own core.
#[derive(Clone)]
pub struct FideGame {
    pub(super) board: ChessBoard,
    /// Variant piece kind of each chess piece type (P N B R Q K).
    pub(super) kind_of: [u8; 6],
    pub(super) variant: Arc<Variant>,
}

/// What `FideGame::unmake` needs: the core's record of the move.
#[derive(Copy, Clone, Debug)]
pub struct FideUndo(ChessUndo);

impl FideGame {
    /// A position on the core, with the variant's kind of each chess piece type.
    pub(crate) fn new(board: ChessBoard, kind_of: [u8; 6], variant: Arc<Variant>) -> FideGame {
        FideGame {
            board,
            kind_of,
            variant,
        }
    }

    /// From, to (0..64) and promotion piece type (0 for none) of a step.
    #[inline(always)]
    fn decode(&self, step: Step) -> (u8, u8, u8) {
        let promo = match step.kind {
            StepKind::Promote(kind) => {
                self.kind_of.iter().position(|&k| k == kind).unwrap_or(0) as u8
            }
            _ => 0,
        };
        (sq64(step.from), sq64(step.to), promo)
    }

    #[inline(always)]
    fn unit_of(&self, sq: u8) -> Option<Unit> {
        let pc = self.board.mailbox[sq as usize];
        (pc != EMPTY).then(|| Unit {
            square: frame(sq),
            kind: self.kind_of[(pc & 7) as usize],
            side: Side::from_index((pc >> 3) as usize),
            group: 0,
            alive: true,
        })
    }

    /// The half-moves since the last pawn move or capture (the fifty-move rule).
    pub fn halfmove_clock(&self) -> u16 {
        self.board.halfmove
    }
    pub fn insufficient_material(&self) -> bool {
        self.board.insufficient_material()
    }
}

impl Rules for FideGame {
    type Undo = FideUndo;
    fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    #[inline(always)]
    fn side_to_move(&self) -> Side {
        Side::from_index(self.board.side)
    }
    /// Chess ends only where the side to move has no move (`without_steps`).
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn at_turn_start(&self) -> bool {
        true
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        self.board.hash
    }
    fn compute_hash(&self) -> u64 {
        self.board.compute_hash()
    }
    #[inline]
    fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        self.board.generate(&mut ListSink(list, &self.kind_of));
    }
    fn count_steps(&self) -> u64 {
        self.board.count()
    }
    #[inline]
    fn make(&mut self, step: Step) -> FideUndo {
        let (from, to, promo) = self.decode(step);
        FideUndo(self.board.make(from, to, promo))
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> FideUndo {
        fx.clear();
        let (from, to, _) = self.decode(step);
        let mover = self.unit_of(from).expect("a legal step moves a piece");
        let undo = self.make(step);
        if undo.0.captured != EMPTY {
            let pc = undo.0.captured;
            fx.push(Effect::Removed {
                side: Side::from_index((pc >> 3) as usize),
                kind: self.kind_of[(pc & 7) as usize],
                square: frame(undo.0.cap_sq),
                capture: true,
            });
        }
        fx.push(Effect::Moved {
            side: mover.side,
            kind: mover.kind,
            from: step.from,
            to: step.to,
        });
        if self.board.mailbox[to as usize] & 7 == KING && (to as i8 - from as i8).abs() == 2 {
            let (rf, rt) = if to > from {
                (to + 1, to - 1)
            } else {
                (to - 2, to + 1)
            };
            fx.push(Effect::Moved {
                side: mover.side,
                kind: self.kind_of[ROOK as usize],
                from: frame(rf),
                to: frame(rt),
            });
        }
        if let StepKind::Promote(kind) = step.kind {
            fx.push(Effect::KindChanged {
                side: mover.side,
                square: step.to,
                from: mover.kind,
                to: kind,
            });
        }
        undo
    }
    #[inline]
    fn unmake(&mut self, step: Step, undo: FideUndo) {
        let (from, to, promo) = self.decode(step);
        self.board.unmake(from, to, promo, undo.0);
    }
    fn without_steps(&self) -> (Outcome, EndReason) {
        if self.board.in_check() {
            (
                Outcome::Win(self.side_to_move().other()),
                EndReason::Checkmate,
            )
        } else {
            (Outcome::Draw, EndReason::Stalemate)
        }
    }
    #[inline]
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        if sq.file() >= 8 || sq.rank() >= 8 {
            return None;
        }
        self.unit_of(sq64(sq))
    }
    #[inline]
    fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
        let mut occ = self.board.colors[0] | self.board.colors[1];
        while occ != 0 {
            let sq = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            if let Some(u) = self.unit_of(sq) {
                f(u);
            }
        }
    }
    fn to_text(&self) -> String {
        super::fen(&self.board)
    }
    fn parse_step(&self, text: &str) -> Result<Step, crate::error::StepError> {
        self.parse_text_step(text.trim())
    }
    /// FIDE's automatic draws at a move's start: the fifty-move rule and insufficient
    /// material.
    fn automatic_draw(&self) -> Option<EndReason> {
        if self.board.halfmove >= 100 {
            Some(EndReason::FiftyMoves)
        } else if self.board.insufficient_material() {
            Some(EndReason::InsufficientMaterial)
        } else {
            None
        }
    }
    fn step_text(&self, step: Step) -> String {
        let geo = &self.variant.geometry;
        // As UnitBoard::step_text writes it: `x` when a piece stands on the destination.
        let capture = self.board.mailbox[sq64(step.to) as usize] != EMPTY;
        let mut s = format!(
            "{}{}{}",
            geo.square_name(step.from),
            if capture { 'x' } else { '-' },
            geo.square_name(step.to)
        );
        if let StepKind::Promote(kind) = step.kind {
            let t = self.kind_of.iter().position(|&k| k == kind).unwrap_or(4);
            s.push('=');
            s.push(LETTERS[t]);
        }
        s
    }
}

impl SearchHooks for FideGame {
    fn make_null(&mut self) -> Option<FideUndo> {
        Some(FideUndo(self.board.make_null()))
    }
    fn unmake_null(&mut self, undo: FideUndo) {
        self.board.unmake_null(undo.0)
    }
    fn search_profile(&self) -> SearchProfile {
        SearchProfile {
            one_step_turns: true,
            pawn: Some(self.kind_of[0] as usize),
            ..SearchProfile::from_data(self.variant())
        }
    }
    fn commanded(&self, side: Side) -> Bitboard {
        let mut occ = self.board.colors[side.index()];
        let mut b = Bitboard::EMPTY;
        while occ != 0 {
            b.set(frame(occ.trailing_zeros() as u8));
            occ &= occ - 1;
        }
        b
    }
    /// The squares the piece on `from` attacks or steps to, whoever is to move, ignoring
    /// pins and castling (what the evaluation asks: could it take there next turn?).
    fn destinations(&self, from: Square) -> Bitboard {
        if from.file() >= 8 || from.rank() >= 8 {
            return Bitboard::EMPTY;
        }
        let sq = sq64(from);
        let pc = self.board.mailbox[sq as usize];
        if pc == EMPTY {
            return Bitboard::EMPTY;
        }
        let (color, ty) = ((pc >> 3) as usize, pc & 7);
        let t = &*TABLES;
        let occ = self.board.colors[0] | self.board.colors[1];
        let own = self.board.colors[color];
        let i = sq as usize;
        let mut to = match ty {
            PAWN => {
                let push = if color == 0 { i + 8 } else { i.wrapping_sub(8) };
                let push = if push < 64 && occ >> push & 1 == 0 {
                    1u64 << push
                } else {
                    0
                };
                (t.pawn_attacks[color][i] & self.board.colors[1 - color]) | push
            }
            KNIGHT => t.knight[i],
            BISHOP => t.bishop(i, occ),
            ROOK => t.rook(i, occ),
            QUEEN => t.rook(i, occ) | t.bishop(i, occ),
            _ => t.king[i],
        } & !own;
        let mut out = Bitboard::EMPTY;
        while to != 0 {
            out.set(frame(to.trailing_zeros() as u8));
            to &= to - 1;
        }
        out
    }
    fn in_check(&self) -> bool {
        self.board.in_check()
    }
}

impl Explain for FideGame {
    fn refusal(&self, step: Step) -> crate::error::StepError {
        self.refusal_of(step)
    }
    /// The pieces the core's check test finds; each takes the King by moving onto it.
    fn checkers(&self) -> Vec<Checker> {
        let mut at = self.board.checkers();
        let mut out = Vec::new();
        while at != 0 {
            let sq = at.trailing_zeros() as u8;
            at &= at - 1;
            if let Some(u) = self.unit_of(sq) {
                out.push(Checker {
                    square: u.square,
                    kind: u.kind,
                    how: CheckHow::Attack,
                });
            }
        }
        out
    }
    /// From the data, but a side without a legal move is checkmated or stalemated, not
    /// judged by the variant's `no-legal-turn`.
    fn rules_text(&self) -> crate::rules_text::RulesText {
        crate::rules_text::from_data(&self.variant, false)
    }
}
