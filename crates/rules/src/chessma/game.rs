//! Chessma 84 as a game family (`ChessmaGame`): the two-sheet core alone, searched and
//! counted with no generic view rebuilt beside it. Its undo is the core's own saved state
//! (the board's change log holds the rest).

use std::sync::Arc;

use super::board::{kind, side, Board, Saved, E, EMPTY, ES, I, L, LETTERS, P};
use super::rules::{Game, How, MoveBuf};
use super::tables::NONE;
use super::{ChessmaState, Tell};
use crate::bitboard::{Bitboard, Square};
use crate::effects::Effects;
use crate::interface::{Explain, Rules, SearchHooks};
use crate::outcome::{EndReason, Outcome, Side, Unit};
use crate::profile::SearchProfile;
use crate::step::{Step, StepList};
use crate::variant::Variant;
use crate::view::Checker;

/// A Chessma 84 position on its own core.
#[derive(Clone)]
pub struct ChessmaGame {
    pub(super) state: ChessmaState,
    pub(super) variant: Arc<Variant>,
    /// The core kind of each variant kind (0: none; the spent Encloser is the Encloser's).
    core_kind: [u8; 32],
}

/// What `ChessmaGame::unmake` needs: the core's saved state before the move.
#[derive(Copy, Clone, Debug)]
pub struct ChessmaUndo(Saved);

impl ChessmaGame {
    /// A position on the core (a copy of `state`'s board, with an empty history).
    pub(crate) fn new(state: &ChessmaState, variant: Arc<Variant>) -> ChessmaGame {
        let mut board = Board::empty();
        board.copy_from(&state.board);
        ChessmaGame {
            state: ChessmaState {
                board,
                tables: state.tables.clone(),
                variant_kind: state.variant_kind,
            },
            variant: variant.clone(),
            core_kind: {
                let mut c = [0u8; 32];
                for (k, letter) in LETTERS.iter().enumerate().skip(1) {
                    if k as u8 == ES {
                        continue;
                    }
                    if let Some(v) = variant.kind_of_letter(*letter as char) {
                        c[v & 31] = k as u8;
                    }
                }
                c
            },
        }
    }

    #[inline(always)]
    fn unit_of(&self, at: u8) -> Option<Unit> {
        let cell = self.state.board.cells[at as usize];
        (cell != EMPTY).then(|| Unit {
            square: Square::from_index(at),
            kind: self.state.variant_kind[kind(cell) as usize],
            side: Side::from_index(side(cell)),
            group: 0,
            alive: true,
        })
    }

    fn stands(&self, m: super::Mv, s: usize, n: u32) -> bool {
        stands(&self.state.board, &self.state.tables, m, s, n)
    }

    /// Make `m` if it is legal (RULES-DETAILS 7.7 as `Game::legal` decides it): None leaves
    /// the board as it was.
    fn make_mv_if_legal(&mut self, m: super::Mv) -> Option<Saved> {
        let s = self.state.board.side;
        let leaper = m.how == How::Plain && kind(self.state.board.cells[m.from as usize]) == L;
        let (saved, n) = self.core().make(m);
        if !self.stands(m, s, n) {
            self.unmake_saved(saved);
            return None;
        }
        if leaper && n == 0 {
            // A Long Leaper moves without capturing only when it has no legal capture.
            self.unmake_saved(saved);
            if self.leaper_can_capture(m.from) {
                return None;
            }
            let (saved, _) = self.core().make(m);
            return Some(saved);
        }
        Some(saved)
    }

    fn unmake_saved(&mut self, saved: Saved) {
        self.core().unmake(saved);
    }

    /// Whether the Long Leaper on `from` has a legal capture.
    fn leaper_can_capture(&mut self, from: u8) -> bool {
        let s = self.state.board.side;
        let mut out = MoveBuf::new();
        self.core().pseudo_of(
            Bitboard::from_square(Square::from_index(from)),
            false,
            &mut out,
        );
        for &m in out.as_slice() {
            let (saved, n) = self.core().make(m);
            let ok = n > 0 && self.stands(m, s, n);
            self.unmake_saved(saved);
            if ok {
                return true;
            }
        }
        false
    }

    /// The core and its tables, to make, unmake and generate on.
    #[inline(always)]
    fn core(&mut self) -> Game<'_> {
        Game {
            t: &self.state.tables,
            b: &mut self.state.board,
        }
    }

    /// The pseudo-legal moves of the piece a step moves (of the pocket, for a drop), into
    /// `out` (the caller's: a move list is too big to return), generated on the board itself
    /// (no copy: `make` owns it). The step stands for one of them.
    fn moves_for(&mut self, step: Step, out: &mut MoveBuf) {
        let drop = matches!(step.kind, crate::step::StepKind::Drop(_));
        let only = if drop {
            Bitboard::EMPTY
        } else {
            Bitboard::from_square(step.from)
        };
        self.core().pseudo_of(only, drop, out);
    }

    /// Make the move `mv` and say what it did (`fx` is cleared first).
    fn make_mv_reporting(&mut self, mv: super::Mv, fx: &mut Effects) -> ChessmaUndo {
        fx.clear();
        let st = &mut self.state;
        let mut removed = Vec::new();
        let mut tell = Tell {
            fx: Some(fx),
            removed: &mut removed,
            kinds: &st.variant_kind,
        };
        let (saved, _) = Game {
            t: &st.tables,
            b: &mut st.board,
        }
        .make_reporting(mv, &mut tell);
        ChessmaUndo(saved)
    }

    /// The move a legal step stands for.
    fn decode(&mut self, step: Step) -> super::Mv {
        let mut out = MoveBuf::new();
        self.moves_for(step, &mut out);
        *out.as_slice()
            .iter()
            .find(|&&m| self.state.step_of(m) == step)
            .expect("a legal chessma step")
    }
}

/// Is the move `m` just made on `b` (by the side `s`, capturing `n`) legal but for the Long
/// Leaper's duty: the own King not capturable, a drop giving no check, a teleport capturing?
fn stands(b: &Board, t: &super::Tables, m: super::Mv, s: usize, n: u32) -> bool {
    !b.in_check(t, s)
        && !(matches!(m.how, How::Drop(_)) && b.in_check(t, s ^ 1))
        && !(m.how == How::Teleport && n == 0)
}

impl Rules for ChessmaGame {
    type Undo = ChessmaUndo;
    fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }
    #[inline(always)]
    fn side_to_move(&self) -> Side {
        Side::from_index(self.state.board.side)
    }
    /// Chessma 84 ends only where the side to move has no move (`without_steps`).
    fn outcome(&self) -> Option<Outcome> {
        None
    }
    fn at_turn_start(&self) -> bool {
        true
    }
    #[inline(always)]
    fn hash(&self) -> u64 {
        self.state.board.hash
    }
    fn compute_hash(&self) -> u64 {
        self.state.board.compute_hash()
    }
    fn legal_steps(&self, list: &mut StepList) {
        list.clear();
        let st = &self.state;
        st.with_moves(|mv, _, _, _| {
            for &m in mv {
                list.push(st.step_of(m));
            }
        })
    }
    fn count_steps(&self) -> u64 {
        self.state.with_moves(|mv, _, _, _| mv.len() as u64)
    }
    fn make(&mut self, step: Step) -> ChessmaUndo {
        let mv = self.decode(step);
        let (saved, _) = self.core().make(mv);
        ChessmaUndo(saved)
    }
    fn make_reporting(&mut self, step: Step, fx: &mut Effects) -> ChessmaUndo {
        let mv = self.decode(step);
        self.make_mv_reporting(mv, fx)
    }
    fn unmake(&mut self, _step: Step, undo: ChessmaUndo) {
        self.core().unmake(undo.0);
    }
    /// 7.5: checkmate loses; a stalemate loses with the King on a corner, else draws.
    fn without_steps(&self) -> (Outcome, EndReason) {
        let b = &self.state.board;
        let lose = Outcome::Win(self.side_to_move().other());
        if self.in_check() {
            (lose, EndReason::Checkmate)
        } else if b.kings[b.side] != NONE && self.state.tables.corner[b.kings[b.side] as usize] {
            (lose, EndReason::CornerStalemate)
        } else {
            (Outcome::Draw, EndReason::Stalemate)
        }
    }
    #[inline]
    fn unit_at(&self, sq: Square) -> Option<Unit> {
        self.unit_of(sq.index() as u8)
    }
    fn for_each_unit(&self, mut f: impl FnMut(Unit)) {
        let b = &self.state.board;
        for s in (b.occ[0] | b.occ[1]).iter() {
            if let Some(u) = self.unit_of(s.index() as u8) {
                f(u);
            }
        }
    }
    fn in_hand(&self, side: Side, kind: u8) -> u8 {
        let st = &self.state;
        if st.board.pocket[side.index()] == [0; 16] {
            return 0;
        }
        (1..16)
            .filter(|&k| st.variant_kind[k] == kind)
            .map(|k| st.board.pocket[side.index()][k])
            .sum()
    }
    fn to_text(&self) -> String {
        self.state.text(&self.variant)
    }
    fn step_text(&self, step: Step) -> String {
        self.state.step_text(&self.variant, step)
    }
    fn parse_step(&self, text: &str) -> Result<Step, crate::error::StepError> {
        self.parse_text_step(text.trim())
    }
}

impl SearchHooks for ChessmaGame {
    /// One move a turn; Ultima's captures take units off their destination, so the
    /// evaluation counts material (the Pawn's advance too) and king safety.
    fn search_profile(&self) -> SearchProfile {
        SearchProfile {
            one_step_turns: true,
            material_only: true,
            pawn: self.variant.kind_of_letter('P'),
            ..SearchProfile::from_data(&self.variant)
        }
    }
    /// The pseudo-legal steps: legality costs a make per step here, so the search tests
    /// only the steps it reaches (`make_if_legal`).
    fn candidate_steps(&self, list: &mut StepList) {
        list.clear();
        let st = &self.state;
        st.with_pseudo(|mv| {
            for &m in mv {
                list.push(st.step_of(m));
            }
        })
    }
    const CANDIDATES_ARE_LEGAL: bool = false;
    fn make_if_legal(&mut self, step: Step) -> Option<ChessmaUndo> {
        // Every move the step may stand for, in generation order: the first legal one.
        let mut out = MoveBuf::new();
        self.moves_for(step, &mut out);
        for &m in out.as_slice() {
            if self.state.step_of(m) == step {
                if let Some(saved) = self.make_mv_if_legal(m) {
                    return Some(ChessmaUndo(saved));
                }
            }
        }
        None
    }
    /// A legal move exists when one passes the King's safety (a Long Leaper kept from a
    /// quiet move by its duty has a legal capture, itself a legal move).
    /// Generated piece by piece, stopping at the first legal move (usually among the first
    /// piece's): a full generation here was a quarter of the search's time.
    fn has_legal_step(&self) -> bool {
        let st = &self.state;
        st.with_scratch(|game| {
            let s = game.b.side;
            let mut out = MoveBuf::new();
            let pieces = game.b.occ[s];
            let any_legal = |game: &mut Game, out: &MoveBuf| {
                out.as_slice().iter().any(|&m| {
                    let (saved, n) = game.make(m);
                    let ok = stands(game.b, game.t, m, s, n);
                    game.unmake(saved);
                    ok
                })
            };
            for q in pieces.iter() {
                out.len = 0;
                game.pseudo_of(Bitboard::from_square(q), false, &mut out);
                if any_legal(game, &out) {
                    return true;
                }
            }
            out.len = 0;
            game.pseudo_of(Bitboard::EMPTY, true, &mut out);
            any_legal(game, &out)
        })
    }
    fn own_perft(&self, depth: u32, made: bool) -> Option<u64> {
        let mut board = Board::empty();
        board.copy_from(&self.state.board);
        Some(
            Game {
                t: &self.state.tables,
                b: &mut board,
            }
            .perft(depth, made),
        )
    }
    /// Every Ultima piece's move (its captures are the arrival's effects), a push, and a
    /// Pawn's diagonal move (en passant).
    fn may_capture_elsewhere(&self, step: Step) -> bool {
        use crate::step::StepKind;
        match step.kind {
            StepKind::Push(_) => true,
            StepKind::Move | StepKind::Promote(_) => {
                let cell = self.state.board.cells[step.from.index()];
                cell != EMPTY
                    && (kind(cell) >= I || (kind(cell) == P && step.from.file() != step.to.file()))
            }
            _ => false,
        }
    }
    fn commanded(&self, side: Side) -> Bitboard {
        self.state.board.occ[side.index()]
    }
    fn occupied(&self, side: Side) -> Bitboard {
        self.state.board.occ[side.index()]
    }
    /// The core's sets of each piece code (an Encloser spent or not is one kind).
    fn units_of(&self, side: Side, kind: u8) -> Bitboard {
        let bb = &self.state.board.bb;
        let s = (side.index() as u8) << 4;
        match self.core_kind.get(kind as usize) {
            Some(&0) | None => Bitboard::EMPTY,
            Some(&E) => bb[(E | s) as usize] | bb[(ES | s) as usize],
            Some(&k) => bb[(k | s) as usize],
        }
    }
    fn royals(&self, side: Side) -> Bitboard {
        let k = self.state.board.kings[side.index()];
        if k == NONE {
            Bitboard::EMPTY
        } else {
            Bitboard::from_square(Square::from_index(k))
        }
    }
    fn frozen(&self, side: Side) -> Bitboard {
        self.state.board.frozen(&self.state.tables, side.index())
    }
    fn in_check(&self) -> bool {
        let b = &self.state.board;
        b.in_check(&self.state.tables, b.side)
    }
}

impl Explain for ChessmaGame {
    /// The legal moves generated once and each asked step made by its own move: a step is
    /// not decoded again (a decode generates the moving piece's moves).
    fn capture_squares_of(&self, steps: &[Step]) -> Vec<Vec<Square>> {
        let st = &self.state;
        let moves: Vec<(Step, super::Mv)> =
            st.with_moves(|mv, _, _, _| mv.iter().map(|&m| (st.step_of(m), m)).collect());
        let mut scratch = self.clone();
        let mut fx = Effects::new();
        steps
            .iter()
            .map(|&step| {
                let Some(&(_, m)) = moves.iter().find(|(s, _)| *s == step) else {
                    return Vec::new();
                };
                let undo = scratch.make_mv_reporting(m, &mut fx);
                scratch.unmake(step, undo);
                fx.removed().filter(|r| r.3).map(|r| r.2).collect()
            })
            .collect()
    }
    fn refusal(&self, step: Step) -> crate::error::StepError {
        self.refusal_of(step)
    }
    /// The core's check test (X1: every capture method on both sheets), asked for all the
    /// pieces it finds rather than the first.
    fn checkers(&self) -> Vec<Checker> {
        let b = &self.state.board;
        b.checkers(&self.state.tables, b.side)
            .into_iter()
            .map(|(at, how)| Checker {
                square: Square::from_index(at),
                kind: self.state.variant_kind[kind(b.cells[at as usize]) as usize],
                how,
            })
            .collect()
    }
    fn rules_text(&self) -> crate::rules_text::RulesText {
        super::text::rules_text(&self.variant)
    }
    /// Lines run on two sheets and pieces capture in their own ways: a diagram's squares are
    /// the core's own moves and captures (targets.rs says what each piece's captures are).
    fn piece_targets(
        &self,
        kind: usize,
        side: Side,
        from: Square,
        on_board: bool,
    ) -> Option<(Bitboard, Bitboard)> {
        let core = *self.core_kind.get(kind)?;
        let at = from.index() as u8;
        if core == 0 || !self.state.tables.exists[from.index()] {
            return Some((Bitboard::EMPTY, Bitboard::EMPTY));
        }
        let cell = core | (side.index() as u8) << 4;
        let t = &self.state.tables;
        Some(if on_board {
            super::targets::on_board(t, &self.state.board, cell, at)
        } else {
            super::targets::on_empty(t, cell, at)
        })
    }
}
