//! FIDE chess positions and steps as text: FEN in, steps in UCI form or ours (`e7e8q`,
//! `e7-e8=Q`), with a typed reason for an illegal one.

use std::sync::Arc;

use super::board::{ChessBoard, EMPTY, KING, PAWN, ROOK};
use super::{sq64, FideGame, LETTERS};
use crate::bitboard::Square;
use crate::error::{Illegal, StepError};
use crate::interface::{Rules, SearchHooks};
use crate::outcome::Side;
use crate::position_error::{PositionError, RankProblem};
use crate::step::{Step, StepKind, StepList};
use crate::variant::Variant;

impl FideGame {
    /// Read a FEN (NOTATION.md: chess positions are FEN).
    pub(crate) fn parse(variant: &Arc<Variant>, text: &str) -> Result<FideGame, PositionError> {
        use PositionError as E;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 6 {
            return Err(E::FenFields {
                found: fields.len(),
            });
        }
        let mut kind_of = [0u8; 6];
        for (t, l) in LETTERS.iter().enumerate() {
            kind_of[t] = variant
                .kind_of_letter(*l)
                .ok_or(E::MissingPiece { letter: *l })? as u8;
        }
        let mut b = ChessBoard::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 8 {
            return Err(E::FenRanks { found: rows.len() });
        }
        for (ri, row) in rows.iter().enumerate() {
            let rank = 7 - ri as u8;
            let mut file = 0u8;
            let at = |problem| Err(E::Rank { rank, problem });
            let too_many = || at(RankProblem::TooManyFiles { files: 8 });
            for c in row.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                    file += n as u8;
                    if file > 8 {
                        return too_many();
                    }
                } else {
                    let ty = LETTERS
                        .iter()
                        .position(|l| *l == c.to_ascii_uppercase())
                        .ok_or(E::Rank {
                            rank,
                            problem: RankProblem::NotAChessPiece { letter: c },
                        })?;
                    if file >= 8 {
                        return too_many();
                    }
                    if ty == PAWN as usize && (rank == 0 || rank == 7) {
                        return at(RankProblem::PawnOnEdge);
                    }
                    b.put(
                        rank * 8 + file,
                        if c.is_ascii_uppercase() { 0 } else { 1 },
                        ty as u8,
                    );
                    file += 1;
                }
            }
            if file != 8 {
                return at(RankProblem::ChessFileCount { found: file });
            }
        }
        for (color, side) in [(0, Side::White), (1, Side::Black)] {
            let kings = (b.pieces[KING as usize] & b.colors[color]).count_ones();
            if kings != 1 {
                return Err(E::FenKings { side, count: kings });
            }
        }
        b.side = match fields[1] {
            "w" => 0,
            "b" => 1,
            other => {
                let found = other.to_string();
                return Err(E::BadSide { found });
            }
        };
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            for c in castling.chars() {
                let (bit, king, rook) = match c {
                    'K' => (1, 4, 7),
                    'Q' => (2, 4, 0),
                    'k' => (4, 60, 63),
                    'q' => (8, 60, 56),
                    _ => return Err(E::FenCastlingLetter { letter: c }),
                };
                let color = (bit >= 4) as u8;
                if b.mailbox[king] != color << 3 | KING || b.mailbox[rook] != color << 3 | ROOK {
                    return Err(E::CastlingNeeds { right: c });
                }
                b.castling |= bit;
            }
        }
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let sq = variant.geometry.parse_square(ep).map(sq64).ok_or_else(|| {
                let found = ep.to_string();
                E::FenEnPassantSquare { found }
            })?;
            let (rank, pawn_sq, color) = if b.side == 0 {
                (5, sq.wrapping_sub(8), 1u8)
            } else {
                (2, sq + 8, 0u8)
            };
            if sq / 8 != rank
                || b.mailbox[sq as usize] != EMPTY
                || b.mailbox[pawn_sq as usize] != color << 3 | PAWN
            {
                let square = ep.to_string();
                return Err(E::NoDoubleStep { square });
            }
            b.ep = sq;
        }
        let number = |i: usize, default: u16| -> Result<u16, PositionError> {
            match fields.get(i) {
                None => Ok(default),
                Some(t) => t.parse().map_err(|_| E::BadCounter {
                    found: t.to_string(),
                }),
            }
        };
        b.halfmove = number(4, 0)?;
        b.fullmove = number(5, 1)?.max(1);
        if b.opponent_in_check() {
            return Err(E::FenCheck);
        }
        b.hash = b.compute_hash();
        Ok(FideGame::new(b, kind_of, variant.clone()))
    }

    /// Parse a chess step in UCI form or ours (`e7e8q`, `e7-e8=Q`, `e7xd8=N`).
    pub(crate) fn parse_text_step(&self, text: &str) -> Result<Step, StepError> {
        let geo = &self.variant.geometry;
        let compact: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | 'x' | '='))
            .collect();
        let bad = || format!("'{text}' is not a chess move: write e2e4, e7e8q, e2-e4 or e7-e8=Q");
        if compact.len() < 4 || compact.len() > 5 || !compact.is_ascii() {
            return Err(StepError::syntax(bad()));
        }
        let square = |s: &str| geo.parse_square(s).ok_or_else(|| StepError::syntax(bad()));
        let from = square(&compact[0..2])?;
        let to = square(&compact[2..4])?;
        let kind = match compact[4..].chars().next() {
            None => StepKind::Move,
            Some(p) => {
                let t = LETTERS
                    .iter()
                    .position(|l| *l == p.to_ascii_uppercase())
                    .filter(|&t| (1..=4).contains(&t));
                let t = t.ok_or_else(|| {
                    StepError::syntax(format!("'{text}': a pawn promotes to q, r, b or n"))
                })?;
                StepKind::Promote(self.kind_of[t])
            }
        };
        self.check_step(text, Step { from, to, kind })
    }

    /// Why `step`, not legal now, is refused (`Explain::refusal`): the reason and sentence
    /// that reading its text gives, found from the step itself. Its text reads as a move
    /// from and to its squares, or as a promotion to the piece its letter names (N, B, R or
    /// Q; a kind without a letter is written Q); one naming a cell off the board, or a
    /// promotion to a pawn or king, reads as nothing (`NoSuchStep`).
    pub(crate) fn refusal_of(&self, step: Step) -> StepError {
        let text = self.step_text(step);
        let on_board = |sq: Square| sq.file() < 8 && sq.rank() < 8;
        let kind = match step.kind {
            StepKind::Promote(kind) => {
                let t = self.kind_of.iter().position(|&k| k == kind).unwrap_or(4);
                (1..=4)
                    .contains(&t)
                    .then(|| StepKind::Promote(self.kind_of[t]))
            }
            _ => Some(StepKind::Move),
        };
        let verdict = match kind {
            Some(kind) if on_board(step.from) && on_board(step.to) => {
                self.check_step(&text, Step { kind, ..step })
            }
            _ => Ok(step),
        };
        match verdict {
            Err(e) if e.illegal.is_some() => e,
            _ => StepError::no_such_step(&text),
        }
    }

    /// `step`, written `text`, if it is legal now; else why not.
    fn check_step(&self, text: &str, step: Step) -> Result<Step, StepError> {
        let geo = &self.variant.geometry;
        let Step { from, to, kind } = step;
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        if list.contains(step) {
            return Ok(step);
        }
        let (illegal, why) = match self.unit_at(from) {
            None => (
                Illegal::NoUnit,
                format!("there is no piece on {}", geo.square_name(from)),
            ),
            Some(u) if u.side != self.side_to_move() => (
                Illegal::NotYourUnit,
                format!(
                    "the piece on {} is {}'s",
                    geo.square_name(from),
                    u.side.name()
                ),
            ),
            Some(_)
                if kind == StepKind::Move && list.iter().any(|s| s.from == from && s.to == to) =>
            {
                let why = "a pawn reaching the last rank must promote (add q, r, b or n)";
                (Illegal::MustPromote, why.into())
            }
            Some(_) if self.in_check() => (Illegal::InCheck, "it does not answer the check".into()),
            Some(_) => (
                Illegal::NoSuchMove,
                "no legal move does that (blocked, or it would expose the king)".into(),
            ),
        };
        Err(StepError::new(illegal, format!("{text} is illegal: {why}")))
    }
}
