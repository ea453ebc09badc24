//! Chessma 84 positions and steps as text (NOTATION.md): the position string read onto the
//! core, and steps read with a typed reason when they are illegal (`f3-e4/A`, `f8'xe6`,
//! `e7-e8=Q`, `E'@d4`).

use std::sync::Arc;

use super::board::*;
use super::tables::NONE;
use super::{ChessmaGame, ChessmaState};
use crate::bitboard::Square;
use crate::error::{Illegal, StepError};
use crate::interface::{Rules, SearchHooks};
use crate::outcome::Side;
use crate::position_error::{EnPassantProblem, PocketProblem, PositionError, RowProblem};
use crate::step::{Step, StepKind, StepList};
use crate::variant::Variant;

impl ChessmaGame {
    /// Read a Chessma position string (NOTATION.md):
    /// `<board> <side> <castling> <en passant> <pockets>`.
    pub(crate) fn parse(variant: &Arc<Variant>, text: &str) -> Result<ChessmaGame, PositionError> {
        use PositionError as E;
        let mut c = ChessmaState::new(variant);
        let geo = &variant.geometry;
        let mut fields = text.split_whitespace();
        let board_text = fields.next().ok_or(E::Empty)?;
        let side_text = fields.next().unwrap_or("");
        let castling_text = fields.next().unwrap_or("-");
        let ep_text = fields.next().unwrap_or("-");
        let pocket_text = fields.next().unwrap_or("-");
        if let Some(extra) = fields.next() {
            let field = extra.to_string();
            return Err(E::ExtraAfterPockets { field });
        }
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return Err(E::RowCount {
                found: rows.len(),
                needs: geo.ranks,
            });
        }
        let b = &mut c.board;
        let letter_kind = |ch: char| -> Option<u8> {
            LETTERS
                .iter()
                .position(|&l| l as char == ch.to_ascii_uppercase())
                .filter(|&k| k > 0 && k < 15)
                .map(|k| k as u8)
        };
        for (ri, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - ri as u8;
            let label = &geo.rank_labels[rank as usize];
            let at = |problem| E::Row {
                row: label.clone(),
                problem,
            };
            let chars: Vec<char> = row.chars().collect();
            let (mut i, mut file) = (0usize, 0u8);
            let cell_at = |file: u8| -> Result<Square, PositionError> {
                if file >= geo.files {
                    let files = geo.files;
                    return Err(at(RowProblem::TooManyCells { files }));
                }
                Ok(Square::new(file, rank))
            };
            while i < chars.len() {
                let ch = chars[i];
                if ch == '*' {
                    let s = cell_at(file)?;
                    if geo.squares.has(s) {
                        let square = geo.square_name(s);
                        return Err(at(RowProblem::StarOnSquare { square }));
                    }
                    file += 1;
                    i += 1;
                } else if ch.is_ascii_digit() {
                    let start = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    let run: String = chars[start..i].iter().collect();
                    let n: u8 = match run.parse() {
                        Ok(n) if n > 0 && !run.starts_with('0') => n,
                        _ => return Err(at(RowProblem::BadCount { run })),
                    };
                    for _ in 0..n {
                        let s = cell_at(file)?;
                        if !geo.squares.has(s) {
                            return Err(at(RowProblem::RunCrossesHole { run: n }));
                        }
                        file += 1;
                    }
                } else {
                    let Some(mut k) = letter_kind(ch) else {
                        return Err(at(RowProblem::NotAPiece { letter: ch }));
                    };
                    i += 1;
                    if chars.get(i) == Some(&'\'') {
                        if k != E {
                            return Err(at(RowProblem::OnlyEncloserSpent));
                        }
                        k = ES;
                        i += 1;
                    }
                    let s = cell_at(file)?;
                    if !geo.squares.has(s) {
                        let column = geo.file_labels[file as usize].clone();
                        return Err(at(RowProblem::NoSquare { column }));
                    }
                    let bl = if ch.is_ascii_lowercase() { BLACK } else { 0 };
                    b.set(s.index() as u8, k | bl);
                    file += 1;
                }
            }
            if file != geo.files {
                return Err(at(RowProblem::CellCount {
                    found: file,
                    needs: geo.files,
                }));
            }
        }
        b.side = match side_text {
            "w" => 0,
            "b" => 1,
            "" => return Err(E::MissingSide),
            o => {
                let found = o.to_string();
                return Err(E::BadSide { found });
            }
        };
        for (s, side) in [(0u8, Side::White), (1, Side::Black)] {
            let kings = b.bb[(K | s << 4) as usize].count();
            if kings != 1 {
                return Err(E::ChessmaKings { side, count: kings });
            }
        }
        let mut castling = 0u8;
        if castling_text != "-" {
            for ch in castling_text.chars() {
                let bit = match ch {
                    'K' => 1,
                    'Q' => 2,
                    'k' => 4,
                    'q' => 8,
                    o => return Err(E::CastlingLetter { letter: o }),
                };
                castling |= bit;
            }
        }
        // Rights whose King or Rook is not on its square are void.
        for (right, king_sq, rook_sq, s) in [
            (1, (5, 2), (8, 2), 0u8),
            (2, (5, 2), (1, 2), 0),
            (4, (5, 9), (8, 9), 1),
            (8, (5, 9), (1, 9), 1),
        ] {
            let bl = s << 4;
            if b.cells[sq(king_sq.0, king_sq.1) as usize] != K | bl
                || b.cells[sq(rook_sq.0, rook_sq.1) as usize] != R | bl
            {
                castling &= !right;
            }
        }
        b.castling = castling;
        if ep_text != "-" {
            let mut ep = [NONE; 3];
            for (i, name) in ep_text.split(',').enumerate() {
                let s = geo.parse_square(name).ok_or_else(|| {
                    let found = name.to_string();
                    E::EnPassant(EnPassantProblem::NotASquare { found })
                })?;
                if i >= 2 || b.cells[s.index()] != EMPTY {
                    let field = ep_text.to_string();
                    return Err(E::EnPassant(EnPassantProblem::NotPassed { field }));
                }
                ep[i] = s.index() as u8;
            }
            // The pawn that passed them stands one square further in its direction.
            let mover = b.side ^ 1;
            let last = ep
                .iter()
                .copied()
                .filter(|&s| s != NONE)
                .max_by_key(|&s| if mover == 0 { s as i32 } else { -(s as i32) })
                .unwrap_or(NONE);
            let victim = if mover == 0 {
                last as i32 + 16
            } else {
                last as i32 - 16
            };
            let pawn = P | (mover as u8) << 4;
            if !(0..256).contains(&victim) || b.cells[victim as usize] != pawn {
                let side = [Side::White, Side::Black][mover];
                let field = ep_text.to_string();
                return Err(E::EnPassant(EnPassantProblem::NoPawn { side, field }));
            }
            b.ep = ep;
            b.ep_victim = victim as u8;
        }
        if pocket_text != "-" {
            let chars: Vec<char> = pocket_text.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let ch = chars[i];
                let Some(mut k) = letter_kind(ch) else {
                    return Err(E::Pockets(PocketProblem::NotALetter { letter: ch }));
                };
                i += 1;
                if chars.get(i) == Some(&'\'') {
                    if k != E {
                        return Err(E::Pockets(PocketProblem::OnlyEncloserSpent));
                    }
                    k = ES;
                    i += 1;
                }
                if k == K {
                    return Err(E::Pockets(PocketProblem::King));
                }
                let s = if ch.is_ascii_lowercase() { 1 } else { 0 };
                if b.pocket[s][k as usize] >= 15 {
                    return Err(E::Pockets(PocketProblem::Full));
                }
                b.pocket[s][k as usize] += 1;
            }
        }
        b.log.clear();
        b.hash = b.compute_hash();
        if b.in_check(&c.tables, b.side ^ 1) {
            let side = [Side::White, Side::Black][b.side ^ 1];
            return Err(E::ChessmaCheck { side });
        }
        Ok(ChessmaGame::new(&c, variant.clone()))
    }

    /// Read a step and check it is legal now.
    pub(crate) fn parse_text_step(&self, text: &str) -> Result<Step, StepError> {
        let syntax = StepError::syntax;
        let geo = &self.variant.geometry;
        if let Some((piece, square)) = text.split_once('@') {
            let mut chars = piece.chars();
            let letter = chars
                .next()
                .ok_or_else(|| syntax(format!("'{text}': a drop is <letter>@<square>")))?;
            let spent = match chars.as_str() {
                "" => false,
                "'" => true,
                _ => {
                    return Err(syntax(format!(
                        "'{text}': a drop is <letter>@<square> (E'@d4 for a spent Encloser)"
                    )))
                }
            };
            let kind = self.variant.kind_of_letter(letter).ok_or_else(|| {
                syntax(format!("'{text}': '{letter}' is not a piece of chessma-84"))
            })?;
            let to = geo
                .parse_square(square)
                .ok_or_else(|| syntax(format!("'{text}': '{square}' is not a square")))?;
            let step = Step::drop(kind as u8 | if spent { 0x80 } else { 0 }, to);
            return self.check_drop(text, step);
        }
        let (body, label) = match text.split_once('/') {
            Some((b, l)) => (b, Some(l)),
            None => (text, None),
        };
        let (body, promo) = match body.split_once('=') {
            Some((b, p)) => (b, Some(p)),
            None => (body, None),
        };
        let sep = body
            .find(['-', 'x'])
            .ok_or_else(|| syntax(format!("'{text}': a step is <from>-<to> or <from>x<to>")))?;
        let (from_text, to_text) = (&body[..sep], &body[sep + 1..]);
        let from = geo.parse_square(from_text).ok_or_else(|| {
            syntax(format!(
                "'{text}': '{from_text}' is not a square of chessma-84"
            ))
        })?;
        let to = geo.parse_square(to_text).ok_or_else(|| {
            syntax(format!(
                "'{text}': '{to_text}' is not a square of chessma-84"
            ))
        })?;
        let promo =
            match promo {
                None => None,
                Some(p) => {
                    let mut ch = p.chars();
                    match (ch.next(), ch.next()) {
                        (Some(l), None) => Some(self.variant.kind_of_letter(l).ok_or_else(|| {
                            syntax(format!("'{text}': '{l}' is not a piece letter"))
                        })? as u8),
                        _ => return Err(syntax(format!("'{text}': a promotion is =<letter>"))),
                    }
                }
            };
        let sheet =
            match label {
                None => None,
                Some(l) => {
                    Some(geo.sheets.iter().position(|s| s.name == l).ok_or_else(|| {
                        syntax(format!("'{text}': '/{l}' names no board (A or B)"))
                    })? as u8)
                }
            };
        let wanted = Step {
            from,
            to,
            kind: match (promo, sheet) {
                (Some(k), _) => StepKind::Promote(k),
                (None, Some(s)) => StepKind::Push(s),
                (None, None) => StepKind::Move,
            },
        };
        self.check_step(text, wanted)
    }

    /// Why `step`, not legal now, is refused (`Explain::refusal`): the reason and sentence
    /// that reading its text gives, found from the step itself. Its text reads as a drop of
    /// the piece its letter names, or as a move, promotion (to the piece its letter names)
    /// or push along the sheet its name names; one naming a cell that is no square reads as
    /// nothing (`NoSuchStep`).
    pub(crate) fn refusal_of(&self, step: Step) -> StepError {
        let text = self.step_text(step);
        let v = &self.variant;
        let (from, to) = (step.from, step.to);
        let squares = v.geometry.contains(from) && v.geometry.contains(to);
        let named = |k: u8| {
            v.kind_of_letter(v.pieces[k as usize].letter)
                .map(|k| k as u8)
        };
        let verdict = match step.kind {
            StepKind::Drop(k) if v.geometry.contains(to) => match named(k & 0x7F) {
                Some(kind) => self.check_drop(&text, Step::drop(kind | k & 0x80, to)),
                None => Ok(step),
            },
            StepKind::Drop(_) => Ok(step),
            _ if !squares => Ok(step),
            StepKind::Promote(k) => match named(k) {
                Some(kind) => self.check_step(
                    &text,
                    Step {
                        kind: StepKind::Promote(kind),
                        ..step
                    },
                ),
                None => Ok(step),
            },
            StepKind::Push(s) => {
                let name = &v.geometry.sheets[s as usize].name;
                let sheet = v.geometry.sheets.iter().position(|o| &o.name == name);
                let kind = StepKind::Push(sheet.unwrap_or(s as usize) as u8);
                self.check_step(&text, Step { kind, ..step })
            }
            _ => self.check_step(&text, Step::new(from, to)),
        };
        match verdict {
            Err(e) if e.illegal.is_some() => e,
            _ => StepError::no_such_step(&text),
        }
    }

    /// The drop `step`, written `text`, if it is legal now; else why not.
    fn check_drop(&self, text: &str, step: Step) -> Result<Step, StepError> {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        if list.contains(step) {
            return Ok(step);
        }
        let why = Illegal::DropRefused.to_string();
        Err(refuse(text, Illegal::DropRefused, &why))
    }

    /// `wanted`, a step on the board written `text`, if it is legal now; else why not.
    fn check_step(&self, text: &str, wanted: Step) -> Result<Step, StepError> {
        let refuse = |illegal: Illegal, why: &str| refuse(text, illegal, why);
        let c = &self.state;
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        let steps: Vec<Step> = list.iter().copied().collect();
        let (from, to) = (wanted.from, wanted.to);
        if steps.contains(&wanted) {
            return Ok(wanted);
        }
        // Say what is missing when the squares match a legal step.
        let same: Vec<&Step> = steps
            .iter()
            .filter(|s| s.from == from && s.to == to)
            .collect();
        if let Some(s) = same.first() {
            return Err(match s.kind {
                StepKind::Promote(_) => refuse(
                    Illegal::MustPromote,
                    "it promotes; add =<letter> (Q R B N I U L W C E S X)",
                ),
                StepKind::Push(_) => refuse(
                    Illegal::BoardNotNamed,
                    "the push ends differently on the two boards; add /A or /B",
                ),
                _ => refuse(
                    Illegal::WrittenOtherwise,
                    &format!("write it {}", self.step_text(**s)),
                ),
            });
        }
        let (illegal, why) = match self.unit_at(from) {
            None => (Illegal::NoUnit, "there is no piece there"),
            Some(u) if u.side != self.side_to_move() => {
                (Illegal::NotYourUnit, "that piece is not the side to move's")
            }
            Some(_) => {
                let frozen = {
                    let b = &c.board;
                    b.frozen(&c.tables, b.side).has(from)
                };
                if frozen {
                    (
                        Illegal::Frozen,
                        "the piece is frozen by an enemy Immobilizer",
                    )
                } else if steps.iter().any(|s| s.from == from) {
                    if self.in_check() {
                        (
                            Illegal::InCheck,
                            "the King is in check and this does not answer it",
                        )
                    } else {
                        (Illegal::NoSuchMove, "the piece cannot go there (or it would leave the King in check, or a Long Leaper with a capture must capture)")
                    }
                } else if self.in_check() {
                    (
                        Illegal::InCheck,
                        "the King is in check and this piece cannot answer it",
                    )
                } else {
                    (Illegal::NoLegalMove, "the piece has no legal move")
                }
            }
        };
        Err(refuse(illegal, why))
    }
}

/// A refusal of the step written `text`: the reason and its words.
fn refuse(text: &str, illegal: Illegal, why: &str) -> StepError {
    StepError::new(illegal, format!("step '{text}' is illegal: {why}"))
}
