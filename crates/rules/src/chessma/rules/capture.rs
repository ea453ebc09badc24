//! The capture methods' geometry: counts between squares for the Coordinator, liberties
//! and groups for the Encloser; and `Report`, what a move does as it is made.

use crate::bitboard::{Bitboard, Square};

use super::*;
use crate::chessma::board::*;
use crate::chessma::tables::{Tables, NONE};

/// What a move does, told as it is made (the interface's effects); `()` tells nothing and
/// costs nothing, so search and perft make moves through the same code.
pub(crate) trait Report {
    /// `cell` went from `from` to `to` (the mover, a castling Rook, a swapped or pushed piece).
    fn moved(&mut self, _from: u8, _to: u8, _cell: u8) {}
    /// `cell` left `at`, captured; `pocket`: into the mover's pocket (enclosure).
    fn removed(&mut self, _at: u8, _cell: u8, _pocket: bool) {}
    /// `cell` entered `at` from its side's pocket.
    fn placed(&mut self, _at: u8, _cell: u8) {}
    /// The piece on `at` (after the move) changed from `old` to `new`.
    fn changed(&mut self, _at: u8, _old: u8, _new: u8) {}
}

impl Report for () {}

pub(super) struct Caps {
    pub(super) n: usize,
    pub(super) sq: [u8; 48],
    /// Whether each goes to the mover's pocket (enclosure) or off the board.
    pub(super) pocket: [bool; 48],
}

impl Caps {
    pub(super) fn new() -> Caps {
        Caps {
            n: 0,
            sq: [NONE; 48],
            pocket: [false; 48],
        }
    }
    pub(super) fn add(&mut self, s: u8, pocket: bool) {
        if !self.sq[..self.n].contains(&s) && self.n < 48 {
            self.sq[self.n] = s;
            self.pocket[self.n] = pocket;
            self.n += 1;
        }
    }
}

/// Pieces strictly between two squares of one rank.
pub(super) fn between_on_rank(cells: &[u8; 256], a: u8, b: u8) -> u32 {
    let (lo, hi) = (file(a).min(file(b)), file(a).max(file(b)));
    ((lo + 1)..hi)
        .filter(|&f| cells[(rank(a) * 16 + f) as usize] != EMPTY)
        .count() as u32
}

/// Pieces strictly between two squares of one file, by rank level: twin rows are never
/// between each other (X2).
pub(super) fn between_on_file(cells: &[u8; 256], t: &Tables, a: u8, b: u8) -> u32 {
    let (la, lb) = (t.level[rank(a) as usize], t.level[rank(b) as usize]);
    let (lo, hi) = (la.min(lb), la.max(lb));
    (0..16u8)
        .filter(|&r| {
            let l = t.level[r as usize];
            l > lo && l < hi && cells[(r * 16 + file(a)) as usize] != EMPTY
        })
        .count() as u32
}

/// The Coordinator's captures from `at` with side `s`'s King on `king` (only pieces of the
/// kind `only` allows: the Chameleon takes Coordinators only).
pub(super) fn coordinate(
    cells: &[u8; 256],
    king: u8,
    t: &Tables,
    s: usize,
    at: u8,
    only: Option<u8>,
    caps: &mut Caps,
) {
    if king == NONE {
        return;
    }
    for target in [rank(king) * 16 + file(at), rank(at) * 16 + file(king)] {
        if !t.exists[target as usize] || target == at || target == king {
            continue;
        }
        let c = cells[target as usize];
        if c == EMPTY || side(c) == s || only.is_some_and(|o| kind(c) != o) {
            continue;
        }
        let (to_king, to_coord) = if rank(target) == rank(king) {
            (
                between_on_rank(cells, target, king),
                between_on_file(cells, t, target, at),
            )
        } else {
            (
                between_on_file(cells, t, target, king),
                between_on_rank(cells, target, at),
            )
        };
        if to_king == to_coord {
            caps.add(target, false);
        }
    }
}

/// The group through `start` (one side's, orthogonally connected) and its liberties, counted
/// up to `limit` (the flood stops there: the group is then incomplete). The board is read
/// as if `vacated` were empty and `filled` held `piece` (a move not yet made; NONE: none).
pub(crate) fn flood_libs(
    cells: &[u8; 256],
    t: &Tables,
    start: u8,
    vacated: u8,
    filled: u8,
    piece: u8,
    limit: u32,
) -> (Bitboard, u32) {
    let at = |q: u8| {
        if q == vacated {
            EMPTY
        } else if q == filled {
            piece
        } else {
            cells[q as usize]
        }
    };
    let owner = side(at(start));
    let mut members = bit(start);
    let mut libs = Bitboard::EMPTY;
    let mut n_libs = 0;
    // Breadth first: the liberties nearest the start are found first.
    let mut queue = [0u8; 96];
    let (mut head, mut top) = (0, 1);
    queue[0] = start;
    while head < top {
        let q = queue[head];
        head += 1;
        for &n in t.orth[q as usize].as_slice() {
            let c = at(n);
            let nb = bit(n);
            if c == EMPTY {
                if !libs.has(Square::from_index(n)) {
                    libs |= nb;
                    n_libs += 1;
                    if n_libs >= limit {
                        return (members, n_libs);
                    }
                }
            } else if side(c) == owner && !members.has(Square::from_index(n)) {
                members |= nb;
                queue[top] = n;
                top += 1;
            }
        }
    }
    (members, n_libs)
}

/// Squares that are the one liberty of a group of side `owner`'s pieces: where an enclosure
/// of that group can be completed. Each flood stops at a group's second liberty (most groups
/// have many), marking what it saw; a group's other members flood again only if unseen.
pub(super) fn last_liberties(
    cells: &[u8; 256],
    t: &Tables,
    pieces: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    // Groups with two liberties for sure, found with whole-board set operations: a piece with
    // two empty neighbours, or two neighbouring pieces with one each (two orthogonal
    // neighbours never share an orthogonal neighbour, so their liberties differ), and
    // everything connected to them. Only the other groups are flooded one by one.
    let (mut one, mut two) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for &(d, m) in &t.orth_shifts {
        let has = empty.shifted(-d) & m;
        two |= one & has;
        one |= has;
    }
    let tight = pieces & one & !two;
    let dilate = |x: Bitboard| {
        let mut out = Bitboard::EMPTY;
        for &(d, m) in &t.orth_shifts {
            out |= (x & m).shifted(d);
        }
        out
    };
    let mut safe = pieces & (two | (tight & dilate(tight)));
    if safe.any() {
        loop {
            let grown = safe | (dilate(safe) & pieces);
            if grown == safe {
                break;
            }
            safe = grown;
        }
    }
    let mut seen = safe;
    let mut out = Bitboard::EMPTY;
    for q in pieces.iter() {
        if seen.has(q) {
            continue;
        }
        let (members, libs) = group_libs(cells, t, q.index() as u8, 2);
        seen |= members;
        if libs.count() == 1 {
            out |= libs;
        }
    }
    out
}

/// The group through `start` and its liberties, the flood stopping once it has `limit` of
/// them (the members are then incomplete).
pub(super) fn group_libs(
    cells: &[u8; 256],
    t: &Tables,
    start: u8,
    limit: u32,
) -> (Bitboard, Bitboard) {
    let owner = side(cells[start as usize]);
    let mut members = bit(start);
    let mut libs = Bitboard::EMPTY;
    let mut n_libs = 0;
    let mut stack = [0u8; 96];
    let mut top = 1;
    stack[0] = start;
    while top > 0 {
        top -= 1;
        let q = stack[top];
        for &n in t.orth[q as usize].as_slice() {
            let c = cells[n as usize];
            if c == EMPTY {
                if !libs.has(Square::from_index(n)) {
                    libs.set(Square::from_index(n));
                    n_libs += 1;
                    if n_libs >= limit {
                        return (members, libs);
                    }
                }
            } else if side(c) == owner && !members.has(Square::from_index(n)) {
                members.set(Square::from_index(n));
                stack[top] = n;
                top += 1;
            }
        }
    }
    (members, libs)
}

/// Enclosure by a piece of side `s` now standing on `at`: the enemy groups touching it left
/// without an empty orthogonal neighbour (only the Enclosers of them for a Chameleon).
pub(super) fn enclose(
    cells: &[u8; 256],
    t: &Tables,
    s: usize,
    at: u8,
    only_enclosers: bool,
    caps: &mut Caps,
) {
    let mut seen = Bitboard::EMPTY;
    for &n in t.orth[at as usize].as_slice() {
        let c = cells[n as usize];
        if c == EMPTY || side(c) == s || seen.has(Square::from_index(n)) {
            continue;
        }
        // One liberty is enough to spare the group (its members are then incomplete).
        let (members, libs) = group_libs(cells, t, n, 1);
        seen |= members;
        if libs.any() {
            continue;
        }
        for q in members.iter() {
            let k = kind(cells[q.index()]);
            if !only_enclosers || k == E || k == ES {
                caps.add(q.index() as u8, true);
            }
        }
    }
}
