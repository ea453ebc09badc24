//! Chessma 84 (`rules = chessma`): orthodox and Ultima pieces on two overlapping sheets.
//! Like FIDE chess it runs on a core of its own (board.rs, rules.rs) over tables computed
//! from the variant's sheet geometry (tables.rs); the generic view of the Position (units,
//! board, occupancy, pockets) is rebuilt from the core after every move, for the interface,
//! the notation and the engine's evaluation.

mod board;
mod rules;
mod tables;
pub(crate) mod text;

use std::cell::RefCell;
use std::sync::Arc;

use crate::bitboard::Square;
use crate::effects::{Effect, Effects};
use crate::error::{Illegal, StepError};
use crate::position::{Position, PositionError, Side, Unit, NO_UNIT};
use crate::step::{Step, StepKind, StepList};

pub(crate) use board::Saved;
use board::*;
pub(crate) use rules::{Game, How, MoveBuf, Mv, Report};
pub(crate) use tables::Tables;
use tables::NONE;

/// The letters of the core's kinds, as the variant file must declare them.
pub(crate) const REQUIRED_LETTERS: &str = "KQRBNPIULWCESX";

#[derive(Clone)]
pub(crate) struct ChessmaState {
    pub(crate) board: Board,
    tables: Arc<Tables>,
    /// What each move of the game so far changed wholesale (popped by `unmake`).
    saved: Vec<Saved>,
    /// The pieces each move took off the board (square and cell), with how many of them
    /// every earlier move left: the generic view shows them as removed units.
    removed: Vec<(u8, u8)>,
    removed_marks: Vec<usize>,
    /// Variant piece kind of each core kind (a spent Encloser is an Encloser).
    variant_kind: [u8; 16],
}

thread_local! {
    /// A scratch board for generation from `&Position` (legality is tested by making moves).
    static SCRATCH: RefCell<Board> = RefCell::new(Board::empty());
}

impl ChessmaState {
    fn new(variant: &crate::variant::Variant) -> ChessmaState {
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
            saved: Vec::new(),
            removed: Vec::new(),
            removed_marks: Vec::new(),
            variant_kind,
        }
    }

    /// Legal moves of the position, with their capture counts.
    fn with_moves<T>(&self, f: impl FnOnce(&[Mv], &[u32], &mut Board, &Tables) -> T) -> T {
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

    fn step_of(&self, m: Mv) -> Step {
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

impl Position {
    pub(crate) fn chessma(&self) -> &ChessmaState {
        self.chessma.as_deref().expect("a chessma variant")
    }

    /// Legal moves now (none once the game is decided).
    pub(crate) fn chessma_moves(&self) -> Vec<Mv> {
        self.chessma().with_moves(|mv, _, _, _| mv.to_vec())
    }

    pub(crate) fn chessma_legal_steps(&self, list: &mut StepList) {
        let c = self.chessma();
        c.with_moves(|mv, _, _, _| {
            for &m in mv {
                list.push(c.step_of(m));
            }
        })
    }

    pub(crate) fn chessma_count(&self) -> u64 {
        self.chessma().with_moves(|mv, _, _, _| mv.len() as u64)
    }

    /// Step perft run on a copy of the core: the same moves as `legal_steps` and `make`,
    /// without rebuilding the generic view at every node (perft.rs).
    pub(crate) fn chessma_perft(&self, depth: u32, made: bool) -> u64 {
        let c = self.chessma();
        let mut board = Board::empty();
        board.copy_from(&c.board);
        Game {
            t: &c.tables,
            b: &mut board,
        }
        .perft(depth, made)
    }

    /// Is the side to move's King capturable (in check, by any method)?
    pub(crate) fn chessma_in_check(&self) -> bool {
        let c = self.chessma();
        c.board.in_check(&c.tables, c.board.side)
    }

    /// Chessma 84: the pieces of `side` that an enemy Immobilizer (or, for an Immobilizer,
    /// an enemy Chameleon) freezes now. Empty in other games.
    pub fn frozen_units(&self, side: Side) -> crate::Bitboard {
        match &self.chessma {
            Some(c) => c.board.frozen(&c.tables, side.index()),
            None => crate::Bitboard::EMPTY,
        }
    }

    /// Whether a stalemated side to move stands with its King on a corner (it loses).
    pub fn chessma_king_on_corner(&self) -> bool {
        let c = self.chessma();
        let k = c.board.kings[c.board.side];
        k != NONE && c.tables.corner[k as usize]
    }

    /// The move a step (known to be legal) stands for, from the moving piece's moves alone.
    fn chessma_decode(&self, step: Step) -> Mv {
        let c = self.chessma();
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
            *out.as_slice()
                .iter()
                .find(|&&m| c.step_of(m) == step)
                .expect("a legal chessma step")
        })
    }

    /// Play a legal step on the core, save what unmake needs, and rebuild the generic view;
    /// `fx`, when given, gets what the step did.
    pub(crate) fn chessma_make(&mut self, step: Step, fx: Option<&mut Effects>) {
        let mv = self.chessma_decode(step);
        let c = self.chessma.as_deref_mut().expect("a chessma variant");
        let tables = c.tables.clone();
        c.removed_marks.push(c.removed.len());
        let mut tell = Tell {
            fx,
            removed: &mut c.removed,
            kinds: &c.variant_kind,
        };
        let mut game = Game {
            t: &tables,
            b: &mut c.board,
        };
        let (saved, _) = game.make_reporting(mv, &mut tell);
        c.saved.push(saved);
        self.journal.push(crate::journal::Change::Chessma);
        self.side = self.side.other();
        self.sync_chessma_view();
    }

    /// Take the core back one move (the journal calls it) and rebuild the generic view.
    pub(crate) fn chessma_unmake_core(&mut self) {
        let c = self.chessma.as_deref_mut().expect("a chessma variant");
        let saved = c.saved.pop().expect("a record per chessma move");
        let mark = c.removed_marks.pop().unwrap_or(0);
        c.removed.truncate(mark);
        let tables = c.tables.clone();
        let mut game = Game {
            t: &tables,
            b: &mut c.board,
        };
        game.unmake(saved);
        self.sync_chessma_view();
    }

    /// Units, board, occupancy, pockets and hash from the core.
    pub(crate) fn sync_chessma_view(&mut self) {
        let c = self.chessma.as_deref().expect("a chessma variant");
        self.units.clear();
        self.board = [NO_UNIT; 256];
        self.occupied = Default::default();
        self.groups = Default::default();
        self.royals = [0; 2];
        for s in c.tables.all.iter() {
            let cell = c.board.cells[s.index()];
            if cell == EMPTY {
                continue;
            }
            let side = if side(cell) == 0 {
                Side::White
            } else {
                Side::Black
            };
            let id = self.units.len() as u8;
            self.units.push(Unit {
                square: s,
                kind: c.variant_kind[kind(cell) as usize],
                side,
                group: 0,
                alive: true,
            });
            self.board[s.index()] = id;
            self.occupied[side.index()].set(s);
            self.groups[side.index()][0].set(s);
            if kind(cell) == K {
                self.royals[side.index()] += 1;
            }
        }
        for &(s, cell) in &c.removed {
            let side = if side(cell) == 0 {
                Side::White
            } else {
                Side::Black
            };
            self.units.push(Unit {
                square: Square::from_index(s),
                kind: c.variant_kind[kind(cell) as usize],
                side,
                group: 0,
                alive: false,
            });
        }
        self.pocket = Default::default();
        for s in 0..2 {
            for k in 1..16 {
                let vk = c.variant_kind[k] as usize;
                self.pocket[s][vk] += c.board.pocket[s][k];
            }
        }
        self.hash = c.board.hash;
    }

    /// Read a Chessma position string (NOTATION.md):
    /// `<board> <side> <castling> <en passant> <pockets>`.
    pub(crate) fn parse_chessma(&mut self, text: &str) -> Result<(), PositionError> {
        let err = |m: String| Err(PositionError(m));
        let mut c = ChessmaState::new(&self.variant);
        let geo = &self.variant.geometry;
        let mut fields = text.split_whitespace();
        let board_text = fields
            .next()
            .ok_or_else(|| PositionError("empty position string".into()))?;
        let side_text = fields.next().unwrap_or("");
        let castling_text = fields.next().unwrap_or("-");
        let ep_text = fields.next().unwrap_or("-");
        let pocket_text = fields.next().unwrap_or("-");
        if let Some(extra) = fields.next() {
            return err(format!("unexpected field '{extra}' after the pockets"));
        }
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return err(format!(
                "board has {} rows separated by '/', chessma needs {}",
                rows.len(),
                geo.ranks
            ));
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
            let chars: Vec<char> = row.chars().collect();
            let (mut i, mut file) = (0usize, 0u8);
            let cell_at = |file: u8| -> Result<Square, PositionError> {
                if file >= geo.files {
                    return Err(PositionError(format!(
                        "row {label}: more than {} cells",
                        geo.files
                    )));
                }
                Ok(Square::new(file, rank))
            };
            while i < chars.len() {
                let ch = chars[i];
                if ch == '*' {
                    let s = cell_at(file)?;
                    if geo.squares.has(s) {
                        return err(format!(
                            "row {label}: '*' on {}, which is a square",
                            geo.square_name(s)
                        ));
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
                        _ => return err(format!("row {label}: bad empty-square count '{run}'")),
                    };
                    for _ in 0..n {
                        let s = cell_at(file)?;
                        if !geo.squares.has(s) {
                            return err(format!("row {label}: the run of {n} empty squares crosses a cell that does not exist (write it '*')"));
                        }
                        file += 1;
                    }
                } else {
                    let Some(mut k) = letter_kind(ch) else {
                        return err(format!("row {label}: '{ch}' is not a piece of chessma-84"));
                    };
                    i += 1;
                    if chars.get(i) == Some(&'\'') {
                        if k != E {
                            return err(format!("row {label}: only an Encloser takes a ' (spent)"));
                        }
                        k = ES;
                        i += 1;
                    }
                    let s = cell_at(file)?;
                    if !geo.squares.has(s) {
                        return err(format!(
                            "row {label}: a piece where no square exists (column {})",
                            geo.file_labels[file as usize]
                        ));
                    }
                    let bl = if ch.is_ascii_lowercase() { BLACK } else { 0 };
                    b.set(s.index() as u8, k | bl);
                    file += 1;
                }
            }
            if file != geo.files {
                return err(format!(
                    "row {label} has {file} cells, chessma needs {}",
                    geo.files
                ));
            }
        }
        b.side = match side_text {
            "w" => 0,
            "b" => 1,
            "" => return err("missing side to move ('w' or 'b') after the board".into()),
            o => return err(format!("side to move must be 'w' or 'b', found '{o}'")),
        };
        for s in 0..2 {
            let kings = b.bb[(K | (s as u8) << 4) as usize].count();
            if kings != 1 {
                return err(format!(
                    "{} has {kings} Kings; a position needs exactly one each",
                    ["White", "Black"][s]
                ));
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
                    o => return err(format!("castling rights are KQkq or '-', found '{o}'")),
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
                    PositionError(format!("en passant: '{name}' is not a square"))
                })?;
                if i >= 2 || b.cells[s.index()] != EMPTY {
                    return err(format!(
                        "en passant: '{ep_text}' is not the one or two empty squares a pawn passed"
                    ));
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
                return err(format!(
                    "en passant: no {} pawn stands beyond {ep_text}",
                    ["White", "Black"][mover]
                ));
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
                    return err(format!("pockets: '{ch}' is not a piece letter"));
                };
                i += 1;
                if chars.get(i) == Some(&'\'') {
                    if k != E {
                        return err("pockets: only an Encloser takes a ' (spent)".into());
                    }
                    k = ES;
                    i += 1;
                }
                if k == K {
                    return err("pockets: a King is never in a pocket".into());
                }
                let s = if ch.is_ascii_lowercase() { 1 } else { 0 };
                if b.pocket[s][k as usize] >= 15 {
                    return err("pockets: at most 15 pieces of a kind".into());
                }
                b.pocket[s][k as usize] += 1;
            }
        }
        b.log.clear();
        b.hash = b.compute_hash();
        if b.in_check(&c.tables, b.side ^ 1) {
            return err(format!(
                "the side not to move ({}) is in check",
                ["White", "Black"][b.side ^ 1]
            ));
        }
        self.side = if b.side == 0 {
            Side::White
        } else {
            Side::Black
        };
        self.chessma = Some(Box::new(c));
        self.sync_chessma_view();
        Ok(())
    }

    /// The position string (NOTATION.md).
    pub(crate) fn chessma_text(&self) -> String {
        let c = self.chessma();
        let geo = &self.variant.geometry;
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
    fn chessma_captures(&self, step: Step) -> usize {
        let c = self.chessma();
        let mv = self.chessma_decode(step);
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
    pub(crate) fn chessma_step_text(&self, step: Step) -> String {
        let geo = &self.variant.geometry;
        let c = self.chessma();
        if let StepKind::Drop(k) = step.kind {
            let letter = self.variant.pieces[(k & 0x7F) as usize].letter;
            let spent = if k & 0x80 != 0 { "'" } else { "" };
            return format!("{letter}{spent}@{}", geo.square_name(step.to));
        }
        // Only this move is made, on the scratch board (a view writes every legal step).
        let captures = self.chessma_captures(step);
        let mut text = format!(
            "{}{}{}",
            geo.square_name(step.from),
            if captures > 0 { 'x' } else { '-' },
            geo.square_name(step.to)
        );
        match step.kind {
            StepKind::Promote(k) => {
                text.push('=');
                text.push(self.variant.pieces[k as usize].letter);
            }
            StepKind::Push(sheet) => {
                text.push('/');
                text += &geo.sheets[sheet as usize].name;
            }
            _ => {}
        }
        let _ = c;
        text
    }

    /// Read a step and check it is legal now.
    pub(crate) fn parse_chessma_step(&self, text: &str) -> Result<Step, StepError> {
        let syntax = StepError::syntax;
        let refuse = |illegal: Illegal, why: &str| {
            StepError::new(illegal, format!("step '{text}' is illegal: {why}"))
        };
        let geo = &self.variant.geometry;
        let c = self.chessma();
        let legal = self.chessma_moves();
        let steps: Vec<Step> = legal.iter().map(|&m| c.step_of(m)).collect();
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
            return if steps.contains(&step) {
                Ok(step)
            } else {
                Err(refuse(
                    Illegal::DropRefused,
                    &Illegal::DropRefused.to_string(),
                ))
            };
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
                    &format!("write it {}", self.chessma_step_text(**s)),
                ),
            });
        }
        let (illegal, why) = match self.unit_at(from) {
            None => (Illegal::NoUnit, "there is no piece there"),
            Some(u) if u.side != self.side => {
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

fn piece_text(cell: u8) -> String {
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
struct Tell<'a> {
    fx: Option<&'a mut Effects>,
    removed: &'a mut Vec<(u8, u8)>,
    kinds: &'a [u8; 16],
}

impl Tell<'_> {
    fn unit(&self, cell: u8) -> (Side, u8) {
        let s = if side(cell) == 0 {
            Side::White
        } else {
            Side::Black
        };
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
