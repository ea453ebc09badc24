//! A piece's diagram for people: where a kind moves and captures from a square, on an empty
//! board and on a position's board, where the unit really standing there may go now, and,
//! for a leader, whom it commands and how far (the variant cards, the custom-variant panel
//! and the game page draw these). The squares come from the piece's Betza letters, or from
//! the family itself where the letters cannot say them (`Explain::piece_targets`: Chessma
//! 84); a leader's command from its command model's description (command/, `Describe`),
//! which computes it with the model's own code. The server turns it into JSON; every rule
//! it states is asked here.

use crate::bitboard::{Bitboard, Square};
use crate::command::LeaderAt;
use crate::describe::description;
use crate::interface::Family;
use crate::movement::MoveSet;
use crate::outcome::Side;
use crate::step::{Step, StepList};
use crate::variant::Variant;
/// A leader's command, in the words of its model (view.rs).
pub use crate::view::LeaderCommand as Command;

/// What a diagram shows (squares as sets; the caller names them).
pub struct PieceDiagram {
    /// On an empty board: the squares it moves to, and those where it captures a lone enemy.
    pub empty_moves: Bitboard,
    pub empty_captures: Bitboard,
    /// On the position's board, the piece in place of whatever stands on the square.
    pub board_moves: Bitboard,
    pub board_captures: Bitboard,
    /// A unit of this kind and side really stands there; then `legal_now` (its legal
    /// destinations now, by every rule of the game) and `lead_now` (the lead steps it may
    /// take, lead model).
    pub real: Option<crate::unit_board::Unit>,
    pub legal_now: Option<Bitboard>,
    pub lead_now: Vec<Step>,
    /// For a leader: whom it commands and how far.
    pub command: Option<Command>,
    /// Lead model: how this kind moves when each mode that remaps it activates it
    /// (index into `Variant::lead_modes`, empty-board moves and captures).
    pub as_activated: Vec<(usize, Bitboard, Bitboard)>,
}

fn compile(v: &Variant, moves: &str, side: Side) -> Option<MoveSet> {
    let forward = if side == Side::White { 1 } else { -1 };
    MoveSet::compile(moves, &v.geometry, forward).ok()
}

/// On an empty board: where a piece moving by `moves` from `from` goes, and where it would
/// capture a lone enemy unit.
pub fn empty_targets(v: &Variant, moves: &str, side: Side, from: Square) -> (Bitboard, Bitboard) {
    let Some(set) = compile(v, moves, side) else {
        return (Bitboard::EMPTY, Bitboard::EMPTY);
    };
    let geo = &v.geometry;
    let others = geo.squares & !Bitboard::from_square(from);
    let quiet = set.destinations(geo, from, others, Bitboard::EMPTY);
    let mut captures = Bitboard::EMPTY;
    for t in others.iter() {
        let lone = Bitboard::from_square(t);
        if set.destinations(geo, from, others & !lone, lone).has(t) {
            captures.set(t);
        }
    }
    (quiet, captures)
}

/// On `pos`'s board with the unit on `from` (if any) replaced by a piece moving by `moves`:
/// where it may move (empty squares) and capture (enemy units).
fn board_targets<R: Family>(
    pos: &R,
    moves: &str,
    side: Side,
    from: Square,
) -> (Bitboard, Bitboard) {
    let v = pos.variant();
    let Some(set) = compile(v, moves, side) else {
        return (Bitboard::EMPTY, Bitboard::EMPTY);
    };
    let geo = &v.geometry;
    let not_from = !Bitboard::from_square(from);
    let own = pos.occupied(side) & not_from;
    let enemy = pos.occupied(side.other()) & not_from;
    let empty = geo.squares & !(own | enemy) & not_from;
    let t = set.destinations(geo, from, empty, enemy);
    (t & empty, t & enemy)
}

/// Where a piece of kind `kind` and `side` on `from` moves, and where it captures: on an
/// empty board (`on_board` false; captures: where a lone enemy unit would be taken) or on
/// `pos`'s board with the piece in place of whatever stands on `from`. The family's own
/// answer where it has one (`Explain::piece_targets`: Chessma 84), else the piece's Betza
/// letters compiled on the variant's geometry.
pub fn kind_targets<R: Family>(
    pos: &R,
    kind: usize,
    side: Side,
    from: Square,
    on_board: bool,
) -> (Bitboard, Bitboard) {
    if let Some(targets) = pos.piece_targets(kind, side, from, on_board) {
        return targets;
    }
    let v = pos.variant();
    let moves = &v.pieces[kind].moves;
    if on_board {
        board_targets(pos, moves, side, from)
    } else {
        empty_targets(v, moves, side, from)
    }
}

/// The diagram of piece kind `kind` of `side` on `from`, on `pos`'s board.
pub fn piece_diagram<R: Family>(pos: &R, kind: usize, side: Side, from: Square) -> PieceDiagram {
    let v = pos.variant().clone();
    let geo = &v.geometry;
    let p = &v.pieces[kind];
    let (empty_moves, empty_captures) = kind_targets(pos, kind, side, from, false);
    let (board_moves, board_captures) = kind_targets(pos, kind, side, from, true);
    let real = pos
        .unit_at(from)
        .filter(|u| u.kind as usize == kind && u.side == side);
    let mut lead_now = vec![];
    let legal_now = real.map(|_| {
        let mut list = StepList::new();
        if pos.side_to_move() == side {
            pos.legal_steps(&mut list);
        }
        let mut b = Bitboard::EMPTY;
        for &s in list.iter().filter(|s| s.from == from && !s.is_end()) {
            if s.to != from {
                b.set(s.to);
            } else {
                // Lead model: the leader on `from` may lead the turn (`lead:b2:dia`).
                lead_now.push(s);
            }
        }
        b
    });
    let command = p
        .leader
        .then(|| command_of(pos, kind, side, from, real))
        .flatten();
    let as_activated = v
        .lead_modes
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.remap.iter().map(move |r| (i, r)))
        .filter(|(_, (k, _, _))| *k as usize == kind)
        .map(|(i, (_, betza, _))| {
            let (m, c) = empty_targets(&v, betza, side, from);
            (i, m, c)
        })
        .collect();
    let _ = geo;
    PieceDiagram {
        empty_moves,
        empty_captures,
        board_moves,
        board_captures,
        real,
        legal_now,
        lead_now,
        command,
        as_activated,
    }
}

/// A leader's command from `from`, as its model describes it (command/, `Describe::leader`):
/// its words, the kinds it activates, its reach, and the units it activates on `pos`'s board
/// (those of its group when a unit of this kind and side stands there).
fn command_of<R: Family>(
    pos: &R,
    kind: usize,
    side: Side,
    from: Square,
    real: Option<crate::unit_board::Unit>,
) -> Option<Command> {
    let v = pos.variant();
    let others = || crate::common::all_units(pos).filter(|o| o.side == side && o.square != from);
    let own: Bitboard = others().map(|o| o.square).collect();
    let group = match real {
        Some(u) => others()
            .filter(|o| o.group == u.group)
            .map(|o| o.square)
            .collect(),
        None => own,
    };
    let mut by_kind = vec![Bitboard::EMPTY; v.pieces.len()];
    for o in others() {
        by_kind[o.kind as usize].set(o.square);
    }
    let at = LeaderAt {
        kind: kind as u8,
        square: from,
        own,
        group,
        by_kind,
    };
    description(v).leader(v, &at)
}
