//! Chessma 84's moves (RULES.md 7, RULES-DETAILS.md 7.7): generation, the capture effects of
//! each piece, make and unmake, freezing and check by every capture method.
//!
//! A move lies on one sheet; a move valid on both sheets has the union of its effects there,
//! so a move carries the mask of sheets it is valid on. Legality (the own King not capturable
//! afterwards on either sheet) is tested by making the move.

use crate::bitboard::{Bitboard, Square};

use super::board::*;
use super::tables::{opposite, Tables, NONE};

/// How a move is made. `Plain` covers every piece's own move with its own effects.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum How {
    Plain,
    Castle,
    EnPassant,
    /// A piece of this kind from the pocket.
    Drop(u8),
    Swap,
    /// A push along the sheet given; `labelled` when the other sheet's push ends otherwise.
    Push {
        sheet: u8,
        labelled: bool,
    },
    /// An Encloser or Chameleon arriving off any line to complete an enclosure.
    Teleport,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) struct Mv {
    pub from: u8,
    pub to: u8,
    pub how: How,
    /// Promotion kind (0: none).
    pub promo: u8,
    /// Sheets the move is valid on (bit s).
    pub sheets: u8,
}

impl Mv {
    fn plain(from: u8, to: u8, sheets: u8) -> Mv {
        Mv {
            from,
            to,
            how: How::Plain,
            promo: 0,
            sheets,
        }
    }
}

/// Set in `Mv::sheets` of a line move that passes over a piece it captures (a long leap, of
/// the Long Leaper or of a Chameleon over one): such moves are tested by being made.
pub(crate) const LEAPS: u8 = 0x80;

/// Up to this many pseudo-legal moves in a position (drops included).
pub(crate) const MAX_MOVES: usize = 2048;

/// A move list on the stack, left uninitialised beyond `len` (a new list costs nothing),
/// with the capture count of each move beside it.
pub(crate) struct MoveBuf {
    pub len: usize,
    mv: [std::mem::MaybeUninit<Mv>; MAX_MOVES],
    caps: [std::mem::MaybeUninit<u32>; MAX_MOVES],
}

impl MoveBuf {
    pub fn new() -> MoveBuf {
        MoveBuf {
            len: 0,
            mv: [std::mem::MaybeUninit::uninit(); MAX_MOVES],
            caps: [std::mem::MaybeUninit::uninit(); MAX_MOVES],
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Mv) {
        self.push_counted(m, 0)
    }
    #[inline(always)]
    fn push_counted(&mut self, m: Mv, caps: u32) {
        if self.len < MAX_MOVES {
            self.mv[self.len] = std::mem::MaybeUninit::new(m);
            self.caps[self.len] = std::mem::MaybeUninit::new(caps);
            self.len += 1;
        }
    }
    pub fn as_slice(&self) -> &[Mv] {
        // SAFETY: the first `len` entries were written by `push_counted`; Mv is Copy.
        unsafe { std::slice::from_raw_parts(self.mv.as_ptr() as *const Mv, self.len) }
    }
    pub fn caps(&self) -> &[u32] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts(self.caps.as_ptr() as *const u32, self.len) }
    }
}

#[inline(always)]
fn bit(s: u8) -> Bitboard {
    Bitboard::from_square(Square::from_index(s))
}
#[inline(always)]
fn file(s: u8) -> u8 {
    s & 15
}
#[inline(always)]
fn rank(s: u8) -> u8 {
    s >> 4
}

/// A small set of squares a move removes.
struct Caps {
    n: usize,
    sq: [u8; 48],
    /// Whether each goes to the mover's pocket (enclosure) or off the board.
    pocket: [bool; 48],
}

impl Caps {
    fn new() -> Caps {
        Caps {
            n: 0,
            sq: [NONE; 48],
            pocket: [false; 48],
        }
    }
    fn add(&mut self, s: u8, pocket: bool) {
        if !self.sq[..self.n].contains(&s) && self.n < 48 {
            self.sq[self.n] = s;
            self.pocket[self.n] = pocket;
            self.n += 1;
        }
    }
}

/// Pieces strictly between two squares of one rank.
fn between_on_rank(cells: &[u8; 256], a: u8, b: u8) -> u32 {
    let (lo, hi) = (file(a).min(file(b)), file(a).max(file(b)));
    ((lo + 1)..hi)
        .filter(|&f| cells[(rank(a) * 16 + f) as usize] != EMPTY)
        .count() as u32
}

/// Pieces strictly between two squares of one file, by rank level: twin rows are never
/// between each other (X2).
fn between_on_file(cells: &[u8; 256], t: &Tables, a: u8, b: u8) -> u32 {
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
fn coordinate(
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
fn last_liberties(cells: &[u8; 256], t: &Tables, pieces: Bitboard, empty: Bitboard) -> Bitboard {
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
fn group_libs(cells: &[u8; 256], t: &Tables, start: u8, limit: u32) -> (Bitboard, Bitboard) {
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
fn enclose(cells: &[u8; 256], t: &Tables, s: usize, at: u8, only_enclosers: bool, caps: &mut Caps) {
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

pub(crate) struct Game<'a> {
    pub t: &'a Tables,
    pub b: &'a mut Board,
}

impl Board {
    /// Squares of side `s`'s pieces that are frozen: next to an enemy Immobilizer, or an
    /// Immobilizer next to an enemy Chameleon (the two freeze each other).
    pub(crate) fn frozen(&self, t: &Tables, s: usize) -> Bitboard {
        let e = s ^ 1;
        let mut f = Bitboard::EMPTY;
        for q in self.bb[(I | (e as u8) << 4) as usize].iter() {
            f |= t.near[q.index()];
        }
        let own_i = self.bb[(I | (s as u8) << 4) as usize];
        let enemy_x = self.bb[(X | (e as u8) << 4) as usize];
        if own_i.any() && enemy_x.any() {
            for q in enemy_x.iter() {
                f |= t.near[q.index()] & own_i;
            }
        }
        f & self.occ[s]
    }

    #[inline(always)]
    fn cell(&self, s: u8) -> u8 {
        self.cells[s as usize]
    }

    fn coordinate(&self, t: &Tables, s: usize, at: u8, only: Option<u8>, caps: &mut Caps) {
        coordinate(&self.cells, self.kings[s], t, s, at, only, caps)
    }
    fn enclose(&self, t: &Tables, s: usize, at: u8, only_enclosers: bool, caps: &mut Caps) {
        enclose(&self.cells, t, s, at, only_enclosers, caps)
    }

    /// Is side `s`'s King capturable now by an unfrozen enemy piece, by any method (X1)?
    pub(crate) fn in_check(&self, t: &Tables, s: usize) -> bool {
        self.in_check_unless(t, s, self.frozen(t, s ^ 1), true)
    }

    /// `in_check` with the enemy's frozen pieces given (they cannot capture).
    /// `enclosure`: false when the King's group is known to keep two liberties.
    fn in_check_unless(&self, t: &Tables, s: usize, frozen: Bitboard, enclosure: bool) -> bool {
        let k = self.kings[s];
        if k == NONE {
            return false;
        }
        let a = s ^ 1;
        let ab = (a as u8) << 4;
        let free = !frozen;
        let is =
            |q: u8, kd: u8| self.cells[q as usize] == kd | ab && free.has(Square::from_index(q));
        // King steps and the Chameleon's King imitation; knights; pawns.
        for &q in t.king[k as usize].as_slice() {
            if is(q, K) || is(q, X) {
                return true;
            }
        }
        for &q in t.knight[k as usize].as_slice() {
            if is(q, N) {
                return true;
            }
        }
        for &q in t.pawn_from[a][k as usize].as_slice() {
            if is(q, P) {
                return true;
            }
        }
        for sh in 0..t.sheets {
            if !t.in_sheet[sh][k as usize] {
                continue;
            }
            for d in 0..8 {
                let ray = t.rays[sh][k as usize][d].as_slice();
                // Sliders.
                if let Some(&q) = ray.iter().find(|&&q| self.cell(q) != EMPTY) {
                    let c = self.cell(q);
                    if side(c) == a && free.has(Square::from_index(q)) {
                        let kd = kind(c);
                        if kd == Q || (kd == R && d < 4) || (kd == B && d >= 4) {
                            return true;
                        }
                    }
                }
                // Withdrawer next to the King, moving away along the line.
                if let Some(&q) = ray.first() {
                    if is(q, W) {
                        let away = t.rays[sh][q as usize][d].first();
                        if away != NONE && self.cell(away) == EMPTY {
                            return true;
                        }
                    }
                }
                // Long Leaper coming along `ray` (towards the King), landing beyond it.
                let landing = t.rays[sh][k as usize][opposite(d)].first();
                if landing != NONE && self.cell(landing) == EMPTY {
                    for (i, &q) in ray.iter().enumerate() {
                        let c = self.cell(q);
                        if c == EMPTY {
                            continue;
                        }
                        if side(c) == a {
                            if kind(c) == L && free.has(Square::from_index(q)) {
                                return true;
                            }
                            break;
                        }
                        if i == 0 || self.cell(ray[i - 1]) != EMPTY {
                            break;
                        }
                    }
                }
            }
        }
        // Coordinator: it reaches a square of the King's file or rank where the counts agree.
        let ak = self.kings[a];
        let coords = self.bb[(C | ab) as usize] & free;
        if ak != NONE && coords.any() && (rank(ak) == rank(k) || file(ak) == file(k)) {
            for c in coords.iter() {
                let c = c.index() as u8;
                for d in self.line_dests(t, c).iter() {
                    let d = d.index() as u8;
                    let hit = (rank(ak) == rank(k) && file(d) == file(k) && d != k)
                        || (file(ak) == file(k) && rank(d) == rank(k) && d != k);
                    if !hit {
                        continue;
                    }
                    // Count with the Coordinator moved (its square empty, it on d).
                    let mut caps = Caps::new();
                    let mut probe = self.cells;
                    probe[c as usize] = EMPTY;
                    probe[d as usize] = C | ab;
                    coordinate(&probe, ak, t, a, d, None, &mut caps);
                    if caps.sq[..caps.n].contains(&k) {
                        return true;
                    }
                }
            }
        }
        // Encloser (unspent): the King's group has one liberty, and the Encloser can fill it
        // (by teleport, from anywhere) without opening one where it stood.
        let enclosers = self.bb[(E | ab) as usize] & free;
        if enclosure && enclosers.any() && !t.corner[k as usize] {
            let (group, libs) = flood_libs(&self.cells, t, k, NONE, NONE, 0, 2);
            if libs == 1 {
                for e in enclosers.iter() {
                    let touches = t.orth[e.index()]
                        .as_slice()
                        .iter()
                        .any(|&n| group.has(Square::from_index(n)));
                    if !touches {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Empty squares a queen move of the piece on `from` reaches, on any sheet.
    pub(crate) fn line_dests(&self, t: &Tables, from: u8) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sh in 0..t.sheets {
            if !t.in_sheet[sh][from as usize] {
                continue;
            }
            for d in 0..8 {
                for &q in t.rays[sh][from as usize][d].as_slice() {
                    if self.cell(q) != EMPTY {
                        break;
                    }
                    out.set(Square::from_index(q));
                }
            }
        }
        out
    }
}

/// Liberties of the King's group with a path of group squares to each (rules.rs,
/// `enclosure_witnesses`).
pub(crate) struct Witnesses {
    n: usize,
    lib: [u8; WITNESSES],
    path: [Bitboard; WITNESSES],
    /// Every path's squares, and the liberties: a move outside both breaks no path.
    on_paths: Bitboard,
    libs: Bitboard,
}

const WITNESSES: usize = 4;

impl Witnesses {
    /// How many witness paths a move by one piece from `m.from` to `m.to` leaves whole (at
    /// least: `n` when it touches none).
    #[inline(always)]
    fn intact(&self, m: Mv) -> usize {
        let (from, to) = (Square::from_index(m.from), Square::from_index(m.to));
        if !self.on_paths.has(from) && (self.n >= 3 || !self.libs.has(to)) {
            return self.n;
        }
        (0..self.n)
            .filter(|&i| !self.path[i].has(from) && self.lib[i] != m.to)
            .count()
    }
}

/// Destinations gathered for one piece, merged over the sheets.
struct Dests<const N: usize = 64> {
    /// Whether the piece stands on both sheets: only then can a destination come twice.
    merge: bool,
    /// The squares already listed: a square met again (on the other sheet) is searched for.
    seen: Bitboard,
    n: usize,
    to: [u8; N],
    sheets: [u8; N],
    cap: [bool; N],
}

impl<const N: usize> Dests<N> {
    fn new(t: &Tables, from: u8) -> Dests<N> {
        Dests {
            merge: t.sheets > 1 && t.in_sheet[1][from as usize] && t.in_sheet[0][from as usize],
            seen: Bitboard::EMPTY,
            n: 0,
            to: [0; N],
            sheets: [0; N],
            cap: [false; N],
        }
    }
    #[inline(always)]
    fn add(&mut self, to: u8, sheet: usize, cap: bool) {
        if self.merge && self.seen.has(Square::from_index(to)) {
            for i in 0..self.n {
                if self.to[i] == to {
                    self.sheets[i] |= 1 << sheet;
                    self.cap[i] |= cap;
                    return;
                }
            }
        }
        if self.merge {
            self.seen.set(Square::from_index(to));
        }
        if self.n < N {
            self.to[self.n] = to;
            self.sheets[self.n] = 1 << sheet;
            self.cap[self.n] = cap;
            self.n += 1;
        }
    }
}

impl Game<'_> {
    /// Pseudo-legal moves of the side to move (legality is tested by making them).
    pub(crate) fn pseudo(&self, out: &mut MoveBuf) -> Bitboard {
        self.pseudo_of(Bitboard::FULL, true, out)
    }

    /// Pseudo-legal moves of the side to move's pieces on `only`, and drops if asked.
    /// Returns the last liberties of the enemy groups where it computed them (a side with a
    /// piece able to teleport), else the empty set.
    pub(crate) fn pseudo_of(&self, only: Bitboard, drops: bool, out: &mut MoveBuf) -> Bitboard {
        let (t, b) = (self.t, &*self.b);
        let s = b.side;
        let me = (s as u8) << 4;
        let movers = b.occ[s] & !b.frozen(t, s) & only;
        // Where a teleport may complete an enclosure: the last liberties of enemy groups
        // (computed once, and only for a side with an unspent Encloser or a Chameleon).
        let teleporters = (b.bb[(E | me) as usize] | b.bb[(X | me) as usize]) & movers;
        let last = if teleporters.any() {
            last_liberties(&b.cells, t, b.occ[s ^ 1], t.all & !(b.occ[0] | b.occ[1]))
        } else {
            Bitboard::EMPTY
        };
        let own = b.occ[s];
        for q in movers.iter() {
            let from = q.index() as u8;
            let kd = kind(b.cells[from as usize]);
            // A line mover hemmed in by its own pieces has no move (a Swapper still swaps
            // with them; an Encloser or Chameleon may still teleport).
            if (t.near[from as usize] & !own).is_empty()
                && matches!(kd, Q | R | B | I | U | L | W | C | ES)
            {
                continue;
            }
            match kd {
                K => {
                    for &n in t.king[from as usize].as_slice() {
                        let c = b.cell(n);
                        if c == EMPTY || side(c) != s {
                            out.push(Mv::plain(from, n, 3));
                        }
                    }
                    self.castles(from, out);
                }
                Q | R | B => {
                    let mut d = Dests::<64>::new(t, from);
                    for sh in 0..t.sheets {
                        if !t.in_sheet[sh][from as usize] {
                            continue;
                        }
                        for dir in 0..8 {
                            if (kd == R && dir >= 4) || (kd == B && dir < 4) {
                                continue;
                            }
                            for &n in t.rays[sh][from as usize][dir].as_slice() {
                                let c = b.cell(n);
                                if c == EMPTY {
                                    d.add(n, sh, false);
                                    continue;
                                }
                                if side(c) != s {
                                    d.add(n, sh, true);
                                }
                                break;
                            }
                        }
                    }
                    for i in 0..d.n {
                        out.push(Mv::plain(from, d.to[i], d.sheets[i]));
                    }
                }
                N => {
                    for &n in t.knight[from as usize].as_slice() {
                        let c = b.cell(n);
                        if c == EMPTY || side(c) != s {
                            out.push(Mv::plain(from, n, 3));
                        }
                    }
                }
                P => self.pawn(from, out),
                _ => self.ultima(from, kd, me, last, out),
            }
        }
        // Drops.
        for k in 1..16u8 {
            if !drops || b.pocket[s][k as usize] == 0 {
                continue;
            }
            for q in (t.all & !(b.occ[0] | b.occ[1])).iter() {
                let to = q.index() as u8;
                if k == P && t.promo[s][to as usize] {
                    continue;
                }
                out.push(Mv {
                    from: to,
                    to,
                    how: How::Drop(k),
                    promo: 0,
                    sheets: 0,
                });
            }
        }
        last
    }

    fn castles(&self, from: u8, out: &mut MoveBuf) {
        let (t, b) = (self.t, &*self.b);
        let s = b.side;
        let row = if s == 0 { 2 } else { 9 };
        if from != sq(5, row) || b.castling & (3 << (2 * s)) == 0 {
            return;
        }
        let frozen = b.frozen(t, s);
        if frozen.has(Square::from_index(from)) {
            return;
        }
        let rook = R | (s as u8) << 4;
        for (right, rook_file, empty, pass) in
            [(1u8, 8u8, &[6u8, 7][..], 6u8), (2, 1, &[2, 3, 4][..], 4)]
        {
            let right = right << (2 * s);
            let rsq = sq(rook_file, row);
            if b.castling & right == 0
                || b.cell(rsq) != rook
                || frozen.has(Square::from_index(rsq))
                || empty.iter().any(|&f| b.cell(sq(f, row)) != EMPTY)
            {
                continue;
            }
            // The King may not start in or pass through check (the arrival is the legality test).
            if b.in_check(t, s) || self.attacked_after_king_step(from, sq(pass, row)) {
                continue;
            }
            let to = if rook_file == 8 {
                sq(7, row)
            } else {
                sq(3, row)
            };
            out.push(Mv {
                from,
                to,
                how: How::Castle,
                promo: 0,
                sheets: 1,
            });
        }
    }

    /// Would the King of the side to move be in check on `to` (a step from `from`)?
    fn attacked_after_king_step(&self, from: u8, to: u8) -> bool {
        let mut b = self.b.clone();
        let s = b.side;
        let king = b.cells[from as usize];
        b.set(from, EMPTY);
        b.set(to, king);
        b.in_check(self.t, s)
    }

    fn pawn(&self, from: u8, out: &mut MoveBuf) {
        let (t, b) = (self.t, &*self.b);
        let s = b.side;
        let fwd = if s == 0 { 0 } else { 2 };
        let run = t.run[s][rank(from) as usize] as usize;
        let push = |to: u8, sheets: u8, how: How, out: &mut MoveBuf| {
            if t.promo[s][to as usize] {
                for p in PROMOTIONS {
                    out.push(Mv {
                        from,
                        to,
                        how,
                        promo: p,
                        sheets,
                    });
                }
            } else {
                out.push(Mv {
                    from,
                    to,
                    how,
                    promo: 0,
                    sheets,
                });
            }
        };
        let mut d = Dests::<8>::new(t, from);
        for sh in 0..t.sheets {
            if !t.in_sheet[sh][from as usize] {
                continue;
            }
            for &n in t.rays[sh][from as usize][fwd].as_slice().iter().take(run) {
                if b.cell(n) != EMPTY {
                    break;
                }
                d.add(n, sh, false);
            }
        }
        for i in 0..d.n {
            push(d.to[i], d.sheets[i], How::Plain, out);
        }
        for &n in t.pawn_cap[s][from as usize].as_slice() {
            let c = b.cell(n);
            if c != EMPTY && side(c) != s {
                push(n, 3, How::Plain, out);
            } else if c == EMPTY && b.ep.contains(&n) && b.ep_victim != NONE {
                out.push(Mv {
                    from,
                    to: n,
                    how: How::EnPassant,
                    promo: 0,
                    sheets: 3,
                });
            }
        }
    }

    /// The Ultima pieces: neutral queen moves with their own effects, and the special moves.
    fn ultima(&self, from: u8, kd: u8, me: u8, last: Bitboard, out: &mut MoveBuf) {
        let (t, b) = (self.t, &*self.b);
        let s = b.side;
        let enemy = |c: u8| c != EMPTY && side(c) != s;
        let mut d = Dests::<64>::new(t, from);
        // Pushes and swaps found along the lines: (target, sheet).
        let mut specials: [(u8, u8, How); 32] = [(0, 0, How::Plain); 32];
        let mut ns = 0;
        for sh in 0..t.sheets {
            if !t.in_sheet[sh][from as usize] {
                continue;
            }
            for dir in 0..8 {
                let ray = t.rays[sh][from as usize][dir].as_slice();
                let mut captured = false;
                let mut i = 0;
                while i < ray.len() {
                    let n = ray[i];
                    let c = b.cell(n);
                    if c == EMPTY {
                        d.add(n, sh, captured);
                        i += 1;
                        continue;
                    }
                    let next_empty = i + 1 < ray.len() && b.cell(ray[i + 1]) == EMPTY;
                    let ck = kind(c);
                    // Long leaps: the Long Leaper over any enemy, the Chameleon over Leapers.
                    if enemy(c) && next_empty && (kd == L || (kd == X && ck == L)) {
                        captured = true;
                        i += 1;
                        continue;
                    }
                    if captured {
                        break;
                    }
                    match kd {
                        S if ns < 32 => {
                            specials[ns] = (n, sh as u8, How::Swap);
                            ns += 1;
                        }
                        U if enemy(c) && ns < 32 => {
                            specials[ns] = (
                                n,
                                sh as u8,
                                How::Push {
                                    sheet: sh as u8,
                                    labelled: false,
                                },
                            );
                            ns += 1;
                        }
                        X if enemy(c) => {
                            let replace = match ck {
                                Q => true,
                                R => dir < 4,
                                B => dir >= 4,
                                K => i == 0,
                                P => i == 0 && t.pawn_cap[s][from as usize].as_slice().contains(&n),
                                _ => false,
                            };
                            if replace {
                                d.add(n, sh, false);
                            } else if ck == S && ns < 32 {
                                specials[ns] = (n, sh as u8, How::Swap);
                                ns += 1;
                            } else if ck == U && next_empty && ns < 32 {
                                specials[ns] = (
                                    n,
                                    sh as u8,
                                    How::Push {
                                        sheet: sh as u8,
                                        labelled: false,
                                    },
                                );
                                ns += 1;
                            }
                        }
                        _ => {}
                    }
                    break;
                }
            }
        }
        // The Chameleon takes Knights by a Knight's leap.
        if kd == X {
            for &n in t.knight[from as usize].as_slice() {
                let c = b.cell(n);
                if enemy(c) && kind(c) == N {
                    d.add(n, 0, false);
                }
            }
        }
        for i in 0..d.n {
            let leaps = if d.cap[i] { LEAPS } else { 0 };
            out.push(Mv::plain(from, d.to[i], d.sheets[i] | leaps));
        }
        // Swaps (one step per target, with the swapped Pawn's promotion chosen by the mover).
        let mut done = Bitboard::EMPTY;
        for &(target, sh, how) in &specials[..ns] {
            match how {
                How::Swap => {
                    if done.has(Square::from_index(target)) {
                        continue;
                    }
                    done.set(Square::from_index(target));
                    let c = b.cell(target);
                    let sheets = (0..t.sheets)
                        .filter(|&x| {
                            specials[..ns].iter().any(|&(tg, s2, h)| {
                                tg == target && s2 as usize == x && h == How::Swap
                            })
                        })
                        .fold(0u8, |m, x| m | 1 << x);
                    if kind(c) == P && t.promo[side(c)][from as usize] {
                        for p in PROMOTIONS {
                            out.push(Mv {
                                from,
                                to: target,
                                how,
                                promo: p,
                                sheets,
                            });
                        }
                    } else {
                        out.push(Mv {
                            from,
                            to: target,
                            how,
                            promo: 0,
                            sheets,
                        });
                    }
                }
                How::Push { .. } => {
                    if self.push_result(from, target, sh as usize).is_none() {
                        continue;
                    }
                    // The same push on the other sheet: one step if it ends the same.
                    let other = specials[..ns].iter().find(|&&(tg, s2, h)| {
                        tg == target && s2 != sh && matches!(h, How::Push { .. })
                    });
                    let differs = |s2: u8| {
                        self.push_moves(from, target, s2 as usize)
                            != self.push_moves(from, target, sh as usize)
                    };
                    match other.and_then(|&(_, s2, _)| {
                        self.push_result(from, target, s2 as usize).map(|_| s2)
                    }) {
                        Some(s2) if differs(s2) => out.push(Mv {
                            from,
                            to: target,
                            how: How::Push {
                                sheet: sh,
                                labelled: true,
                            },
                            promo: 0,
                            sheets: 1 << sh,
                        }),
                        Some(_) if sh > 0 => {}
                        _ => out.push(Mv {
                            from,
                            to: target,
                            how: How::Push {
                                sheet: sh,
                                labelled: false,
                            },
                            promo: 0,
                            sheets: 1 << sh,
                        }),
                    }
                }
                _ => {}
            }
        }
        // Teleports: an unspent Encloser to any square completing an enclosure; a Chameleon
        // to one its lines do not reach, to enclose an Encloser.
        if (kd == E || kd == X) && last.any() {
            let reach = if kd == X {
                b.line_dests(t, from)
            } else {
                Bitboard::EMPTY
            };
            // A teleport fills the last liberty of an enemy group (before the move: leaving
            // a square only adds liberties).
            for q in last.iter() {
                let n = q.index() as u8;
                {
                    if kd == E && (0..d.n).any(|i| d.to[i] == n) {
                        continue; // an ordinary move there already encloses, if it can
                    }
                    if kd == X && reach.has(Square::from_index(n)) {
                        continue;
                    }
                    let mut caps = Caps::new();
                    let mut probe = b.cells;
                    probe[from as usize] = EMPTY;
                    probe[n as usize] = kd | me;
                    enclose(&probe, t, s, n, kd == X, &mut caps);
                    if caps.n > 0 {
                        out.push(Mv {
                            from,
                            to: n,
                            how: How::Teleport,
                            promo: 0,
                            sheets: 0,
                        });
                    }
                }
            }
        }
    }

    /// Where a push along sheet `sh` from `from` onto `target` leaves the pushed pieces:
    /// (square, piece) pairs, or None when the pushed piece cannot move.
    fn push_result(&self, from: u8, target: u8, sh: usize) -> Option<[(u8, u8); 12]> {
        let (t, b) = (self.t, &*self.b);
        let dir = t.line[sh][from as usize][target as usize] as usize;
        if dir == 0 {
            return None;
        }
        let line = t.rays[sh][target as usize][dir - 1].as_slice();
        let mut chain = [(0u8, 0u8); 12];
        if kind(b.cell(from)) == X {
            // A Chameleon pushes a Pusher alone, "for the other pieces shouldn't be pushed":
            // as far as the line is free, stopping before the next piece.
            let free = line.iter().take_while(|&&q| b.cell(q) == EMPTY).count();
            if free == 0 {
                return None;
            }
            chain[0] = (line[free - 1], b.cell(target));
            return Some(chain);
        }
        let mut pieces = [b.cell(target); 12];
        let mut n = 1;
        for &q in line {
            if b.cell(q) != EMPTY {
                pieces[n] = b.cell(q);
                n += 1;
            }
        }
        let m = line.len() + 1; // squares from the target to the end
        if m - n < 1 {
            return None;
        }
        for j in 0..n {
            let idx = m - n + j; // index along [target, line...]
            chain[j] = (line[idx - 1], pieces[j]);
        }
        Some(chain)
    }

    /// The pieces a push along sheet `sh` displaces, as (from, to) pairs in chain order: two
    /// pushes that fork (rows 1/1', 8/8') are one step when these agree, since a piece that
    /// stays on its twin-row square is not moved (NOTATION.md: "would end differently").
    fn push_moves(&self, from: u8, target: u8, sh: usize) -> Option<([(u8, u8); 12], usize)> {
        let chain = self.push_result(from, target, sh)?;
        let (t, b) = (self.t, &*self.b);
        let dir = t.line[sh][from as usize][target as usize] as usize;
        let line = t.rays[sh][target as usize][dir - 1].as_slice();
        let origins =
            std::iter::once(target).chain(line.iter().copied().filter(|&q| b.cell(q) != EMPTY));
        let mut moves = [(0u8, 0u8); 12];
        let mut n = 0;
        for (orig, &(dest, piece)) in origins.zip(chain.iter()) {
            if piece == EMPTY {
                break;
            }
            if orig != dest {
                moves[n] = (orig, dest);
                n += 1;
            }
        }
        Some((moves, n))
    }

    /// Make `m` (pseudo-legal); returns the saved state and how many pieces it captured.
    pub(crate) fn make(&mut self, m: Mv) -> (Saved, u32) {
        let t = self.t;
        let b = &mut *self.b;
        let saved = b.save();
        let s = b.side;
        let me = (s as u8) << 4;
        let mut captured = 0u32;
        let mut new_ep = ([NONE; 3], NONE);
        match m.how {
            How::Drop(k) => {
                b.set(m.to, k | me);
                b.add_pocket(s, k, -1);
            }
            How::Castle => {
                let king = b.cell(m.from);
                let row = rank(m.from);
                let (rf, rt) = if file(m.to) == 7 { (8, 6) } else { (1, 4) };
                let rook = b.cell(sq(rf, row));
                b.set(m.from, EMPTY);
                b.set(sq(rf, row), EMPTY);
                b.set(m.to, king);
                b.set(sq(rt, row), rook);
            }
            How::EnPassant => {
                let pawn = b.cell(m.from);
                b.set(m.from, EMPTY);
                b.set(m.to, pawn);
                b.set(b.ep_victim, EMPTY);
                captured = 1;
            }
            How::Swap => {
                let (a, c) = (b.cell(m.from), b.cell(m.to));
                b.set(
                    m.from,
                    if m.promo != 0 {
                        m.promo | (c & BLACK)
                    } else {
                        c
                    },
                );
                b.set(m.to, a);
            }
            How::Push { sheet, .. } => {
                let game = Game { t, b };
                let chain = game
                    .push_result(m.from, m.to, sheet as usize)
                    .expect("a legal push");
                let b = game.b;
                let dir = t.line[sheet as usize][m.from as usize][m.to as usize] as usize - 1;
                let pusher = b.cell(m.from);
                b.set(m.from, EMPTY);
                b.set(m.to, EMPTY);
                // The pieces along the line are laid out again as `chain` says (a Chameleon's
                // push moves the Pusher alone and leaves the others where they stand).
                if kind(pusher) != X {
                    for &q in t.rays[sheet as usize][m.to as usize][dir].as_slice() {
                        if b.cell(q) != EMPTY {
                            b.set(q, EMPTY);
                        }
                    }
                }
                for &(q, c) in chain.iter() {
                    if c == EMPTY {
                        break;
                    }
                    b.set(q, c);
                }
                b.set(m.to, pusher);
            }
            How::Plain | How::Teleport => {
                let mover = b.cell(m.from);
                let kd = kind(mover);
                let target = b.cell(m.to);
                b.set(m.from, EMPTY);
                if target != EMPTY {
                    captured += 1;
                }
                b.set(m.to, if m.promo != 0 { m.promo | me } else { mover });
                if kd == P {
                    let dist =
                        t.level[rank(m.to) as usize].abs_diff(t.level[rank(m.from) as usize]);
                    if dist >= 2 && file(m.from) == file(m.to) {
                        let mut ep = [NONE; 3];
                        let sh = (0..t.sheets).find(|&x| m.sheets >> x & 1 != 0).unwrap_or(0);
                        let dir = if s == 0 { 0 } else { 2 };
                        for (i, &q) in t.rays[sh][m.from as usize][dir]
                            .as_slice()
                            .iter()
                            .enumerate()
                        {
                            if q == m.to || i >= 3 {
                                break;
                            }
                            ep[i] = q;
                        }
                        new_ep = (ep, m.to);
                    }
                } else if kd >= I {
                    captured += self.effects(m, kd);
                }
            }
        }
        let b = &mut *self.b;
        if b.ep != new_ep.0 || b.ep_victim != new_ep.1 {
            b.set_ep(new_ep.0, new_ep.1);
        }
        b.flip_side();
        (saved, captured)
    }

    /// The Ultima captures of a piece of kind `kd` just arrived by `m` (mover on `m.to`).
    fn effects(&mut self, m: Mv, kd: u8) -> u32 {
        let t = self.t;
        let b = &mut *self.b;
        let s = b.side;
        let mut caps = Caps::new();
        let chameleon = kd == X;
        let line_move = m.how == How::Plain;
        for sh in 0..t.sheets {
            if m.sheets >> sh & 1 == 0 || !line_move {
                continue;
            }
            let dir = t.line[sh][m.from as usize][m.to as usize];
            if dir == 0 {
                continue;
            }
            let dir = dir as usize - 1;
            if kd == W || chameleon {
                let behind = t.rays[sh][m.from as usize][opposite(dir)].first();
                if behind != NONE {
                    let c = b.cell(behind);
                    if c != EMPTY && side(c) != s && (!chameleon || kind(c) == W) {
                        caps.add(behind, false);
                    }
                }
            }
            if kd == L || chameleon {
                for &q in t.rays[sh][m.from as usize][dir].as_slice() {
                    if q == m.to {
                        break;
                    }
                    let c = b.cell(q);
                    if c != EMPTY && side(c) != s {
                        caps.add(q, false);
                    }
                }
            }
        }
        if kd == C || chameleon {
            b.coordinate(t, s, m.to, chameleon.then_some(C), &mut caps);
        }
        if kd == E || chameleon {
            b.enclose(t, s, m.to, chameleon, &mut caps);
        }
        let n = caps.n as u32;
        for i in 0..caps.n {
            let q = caps.sq[i];
            let c = b.cell(q);
            if caps.pocket[i] {
                b.add_pocket(s, kind(c), 1);
            }
            b.set(q, EMPTY);
        }
        if kd == E && caps.pocket[..caps.n].contains(&true) {
            b.set(m.to, ES | (s as u8) << 4);
        }
        n
    }

    pub(crate) fn unmake(&mut self, saved: Saved) {
        self.b.restore(saved);
        self.b.side ^= 1;
    }

    /// Squares a move of the side to move must neither leave nor reach (nor capture on) to
    /// be legal without testing: the King's lines and knight squares; with an enemy
    /// Coordinator that could coordinate against it, the King's rank and file and the
    /// Coordinator's lines; with an unspent enemy Encloser, the King's group and its
    /// neighbours. Everything else a move does cannot expose the King.
    fn risky(&self, s: usize) -> (Bitboard, Bitboard) {
        let (t, b) = (self.t, &*self.b);
        let k = b.kings[s];
        if k == NONE {
            return (Bitboard::EMPTY, Bitboard::EMPTY);
        }
        let a = s ^ 1;
        let ab = (a as u8) << 4;
        // The King's lines that hold an enemy able to strike along them once the line
        // changes: a Queen, a Rook or Bishop of the line's kind, a Long Leaper, or a
        // Withdrawer next to the King. Knights, pawns, Kings and Chameleons strike from fixed
        // squares that a move of another piece does not change.
        let mut r = bit(k);
        let enemy = |kd: u8| b.bb[(kd | ab) as usize];
        let (queens_leapers, rooks, bishops) = (enemy(Q) | enemy(L), enemy(R), enemy(B));
        for sh in 0..t.sheets {
            if !t.in_sheet[sh][k as usize] {
                continue;
            }
            for d in 0..8 {
                let ray = t.ray_sets[sh][k as usize][d];
                let sliders = queens_leapers | if d < 4 { rooks } else { bishops };
                let first = t.rays[sh][k as usize][d].first();
                let danger = (ray & sliders).any() || (first != NONE && b.cell(first) == W | ab);
                if danger {
                    r |= ray;
                    // A Long Leaper lands just beyond the King.
                    let beyond = t.rays[sh][k as usize][opposite(d)].first();
                    if beyond != NONE {
                        r.set(Square::from_index(beyond));
                    }
                }
            }
        }
        // A Coordinator strikes only when the Kings share a rank or file, from a square it
        // reaches on the King's rank (or file). A move may open its lines by leaving the
        // first square that blocks one; when it already reaches such a square, any change
        // on the King's rank and file may make the counts agree.
        let ak = b.kings[a];
        let coords = b.bb[(C | ab) as usize];
        let mut from_only = Bitboard::EMPTY;
        if coords.any() && ak != NONE && (rank(ak) == rank(k) || file(ak) == file(k)) {
            let cross = t.cross[k as usize];
            let target = if file(ak) == file(k) { rank(k) } else { 0xFF };
            for c in coords.iter() {
                let mut strikes = false;
                for sh in 0..t.sheets {
                    if !t.in_sheet[sh][c.index()] {
                        continue;
                    }
                    for d in 0..8 {
                        for &q in t.rays[sh][c.index()][d].as_slice() {
                            if b.cell(q) != EMPTY {
                                from_only.set(Square::from_index(q));
                                break;
                            }
                            let on_line = if target != 0xFF {
                                rank(q) == target
                            } else {
                                file(q) == file(k)
                            };
                            strikes |= on_line;
                        }
                    }
                }
                if strikes {
                    r |= cross;
                }
            }
        }
        (r | from_only, r)
    }

    /// With an unspent, unfrozen enemy Encloser about: up to eight liberties of the King's
    /// group, each with the group squares of a path from the King to it (None: no enemy
    /// Encloser can enclose, so no move needs the test). A move that leaves two of these
    /// paths whole and fills neither liberty leaves the group two liberties.
    fn enclosure_witnesses(&self, s: usize, enemy_frozen: Bitboard) -> Option<Witnesses> {
        let (t, b) = (self.t, &*self.b);
        let k = b.kings[s];
        let ab = ((s ^ 1) as u8) << 4;
        if k == NONE || t.corner[k as usize] || (b.bb[(E | ab) as usize] & !enemy_frozen).is_empty()
        {
            return None;
        }
        let mut w = Witnesses {
            n: 0,
            lib: [NONE; WITNESSES],
            path: [Bitboard::EMPTY; WITNESSES],
            on_paths: Bitboard::EMPTY,
            libs: Bitboard::EMPTY,
        };
        // Breadth first from the King, remembering how each member was reached.
        let mut parent = [NONE; 256];
        let mut members = bit(k);
        let mut libs = Bitboard::EMPTY;
        let mut queue = [0u8; 96];
        let (mut head, mut top) = (0, 1);
        queue[0] = k;
        'flood: while head < top {
            let q = queue[head];
            head += 1;
            for &n in t.orth[q as usize].as_slice() {
                let c = b.cell(n);
                if c == EMPTY {
                    if libs.has(Square::from_index(n)) {
                        continue;
                    }
                    libs.set(Square::from_index(n));
                    let mut path = bit(n);
                    let mut p = q;
                    while p != NONE {
                        path.set(Square::from_index(p));
                        p = parent[p as usize];
                    }
                    w.lib[w.n] = n;
                    w.path[w.n] = path;
                    w.on_paths |= path;
                    w.n += 1;
                    if w.n == WITNESSES {
                        break 'flood;
                    }
                } else if side(c) == s && !members.has(Square::from_index(n)) && top < 96 {
                    members.set(Square::from_index(n));
                    parent[n as usize] = q;
                    queue[top] = n;
                    top += 1;
                }
            }
        }
        w.libs = libs;
        Some(w)
    }

    /// Whether `m` is legal without making it: a line move off the risky squares by any piece
    /// but the King, capturing at most by replacement (an Immobilizer only if it freezes
    /// nobody). Returns the capture count then.
    #[inline(always)]
    fn quick(
        &self,
        m: Mv,
        (risky_from, risky): (Bitboard, Bitboard),
        zone: Option<&Witnesses>,
        checked: bool,
        last: Bitboard,
    ) -> Option<u32> {
        let b = &*self.b;
        if m.how == How::Swap {
            // A swap with an own piece changes no square's occupancy or colour, so no
            // attack on the King changes, unless the King or an Immobilizer moves.
            let other = b.cell(m.to);
            let ok = !checked && side(other) == b.side && !matches!(kind(other), K | I);
            return ok.then_some(0);
        }
        if m.how != How::Plain
            || risky_from.has(Square::from_index(m.from))
            || risky.has(Square::from_index(m.to))
        {
            return None;
        }
        let kd = kind(b.cell(m.from));
        if kd == I {
            // An Immobilizer that freezes nobody now unfreezes nobody by leaving.
            let s = b.side;
            let frees = self.t.king[m.from as usize].as_slice().iter().any(|&n| {
                let c = b.cell(n);
                c != EMPTY && side(c) != s
            });
            if frees {
                return None;
            }
        }
        if let Some(w) = zone {
            if w.intact(m) < 2 {
                // The King's group keeps two liberties after the move: no enclosure threat.
                let k = b.kings[b.side];
                let (_, libs) = flood_libs(&b.cells, self.t, k, m.from, m.to, b.cell(m.from), 2);
                if libs < 2 {
                    return None;
                }
            }
        }
        let replaced = (b.cell(m.to) != EMPTY) as u32;
        let s = b.side;
        // An enemy piece where a Coordinator (or a Chameleon imitating one) on `to` would
        // coordinate with the own King.
        let coordinates = || {
            let k = b.kings[s];
            k != NONE
                && [rank(k) * 16 + file(m.to), rank(m.to) * 16 + file(k)]
                    .iter()
                    .any(|&q| {
                        let c = b.cell(q);
                        self.t.exists[q as usize] && c != EMPTY && side(c) != s
                    })
        };
        let withdraws = || {
            (0..self.t.sheets).any(|sh| {
                let dir = self.t.line[sh][m.from as usize][m.to as usize];
                if m.sheets >> sh & 1 == 0 || dir == 0 {
                    return false;
                }
                let behind = self.t.rays[sh][m.from as usize][opposite(dir as usize - 1)].first();
                behind != NONE && b.cell(behind) != EMPTY && side(b.cell(behind)) != s
            })
        };
        // The captures of a Long Leaper, Coordinator, unspent Encloser or Chameleon: a leap
        // over a piece, an enemy on a coordination square, an enemy group whose last liberty
        // is `to`, an enemy behind (these go the slow way); else only a replacement.
        let leaps = m.sheets & LEAPS != 0;
        let encloses = last.has(Square::from_index(m.to));
        match kd {
            Q | R | B | N | P | U | S | ES | I => Some(replaced),
            L => (!leaps).then_some(0),
            C => (!coordinates()).then_some(0),
            E => (!encloses).then_some(0),
            // A Chameleon taking a piece may split an enemy group and enclose the part left
            // (the square it lands on was not empty): made and tested.
            X => (replaced == 0 && !leaps && !encloses && !coordinates() && !withdraws())
                .then_some(0),
            W => {
                // A withdrawal capture goes the slow way.
                let s = b.side;
                for sh in 0..self.t.sheets {
                    if m.sheets >> sh & 1 == 0 {
                        continue;
                    }
                    let dir = self.t.line[sh][m.from as usize][m.to as usize];
                    if dir == 0 {
                        continue;
                    }
                    let behind =
                        self.t.rays[sh][m.from as usize][opposite(dir as usize - 1)].first();
                    if behind != NONE && b.cell(behind) != EMPTY && side(b.cell(behind)) != s {
                        return None;
                    }
                }
                Some(0)
            }
            _ => None,
        }
    }

    /// Step perft on the core alone (NOTATION.md: one move a turn, no `end`): the moves of
    /// `legal`, made and unmade here without the generic view. Leaves are counted without
    /// being made unless `made`.
    pub(crate) fn perft(&mut self, depth: u32, made: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 && !made {
            return self.count_legal();
        }
        let mut list = MoveBuf::new();
        self.legal(&mut list);
        let mut nodes = 0;
        for &m in list.as_slice() {
            let (saved, _) = self.make(m);
            nodes += self.perft(depth - 1, made);
            self.unmake(saved);
        }
        nodes
    }

    /// Legal moves, with the capture count of each (the Long Leaper's rule applied: it moves
    /// without capturing only when it has no legal capture).
    pub(crate) fn legal(&mut self, out: &mut MoveBuf) {
        out.len = 0;
        let (leaper_caps, leaper_quiet) = self.legal_each(|m, n, _| out.push_counted(m, n));

        if (leaper_caps & leaper_quiet).any() {
            let all = std::mem::replace(out, MoveBuf::new());
            for (&m, &n) in all.as_slice().iter().zip(all.caps()) {
                let quiet_leaper = m.how == How::Plain
                    && n == 0
                    && leaper_caps.has(Square::from_index(m.from))
                    && kind(self.b.cell(m.from)) == L;
                if !quiet_leaper {
                    out.push_counted(m, n);
                }
            }
        }
    }

    /// The number of legal moves (`legal(..).len`) without listing them.
    pub(crate) fn count_legal(&mut self) -> u64 {
        let mut n = 0u64;
        // Quiet moves per Long Leaper square (few Leapers: a short list).
        let mut quiet: [(u8, u64); 8] = [(NONE, 0); 8];
        let (leaper_caps, _) = self.legal_each(|m, _, is_quiet| {
            n += 1;
            if is_quiet {
                if let Some(e) = quiet.iter_mut().find(|e| e.0 == m.from || e.0 == NONE) {
                    *e = (m.from, e.1 + 1);
                }
            }
        });
        for &(sq, k) in &quiet {
            if sq != NONE && leaper_caps.has(Square::from_index(sq)) {
                n -= k;
            }
        }
        n
    }

    /// Every move that is legal but for the Long Leaper's duty to capture, with its capture
    /// count and whether it is a Long Leaper's move without capture; returns the squares of
    /// the Long Leapers with a legal capture and of those with a legal quiet move.
    fn legal_each(&mut self, mut emit: impl FnMut(Mv, u32, bool)) -> (Bitboard, Bitboard) {
        let mut pseudo = MoveBuf::new();
        let last = self.pseudo(&mut pseudo);
        let s = self.b.side;
        let enemy_frozen = self.b.frozen(self.t, s ^ 1);
        let witnesses = self.enclosure_witnesses(s, enemy_frozen);
        let two_libs = witnesses.as_ref().is_none_or(|w| w.n >= 2);
        let checked = self.b.in_check_unless(self.t, s, enemy_frozen, !two_libs);
        let risky = if checked {
            (Bitboard::FULL, Bitboard::FULL)
        } else {
            self.risky(s)
        };
        let zone = if checked { None } else { witnesses };
        // Long Leapers with a legal capture (bit per square).
        let mut leaper_caps = Bitboard::EMPTY;
        let mut leaper_quiet = Bitboard::EMPTY;
        for &m in pseudo.as_slice() {
            let leaper = m.how == How::Plain && kind(self.b.cell(m.from)) == L;
            let quiet_leaper = |n: u32| leaper && n == 0;
            if let Some(n) = self.quick(m, risky, zone.as_ref(), checked, last) {
                let quiet = quiet_leaper(n);
                if quiet {
                    leaper_quiet.set(Square::from_index(m.from));
                }
                emit(m, n, quiet);
                continue;
            }
            // Which enemy pieces are frozen changes only when an Immobilizer or Chameleon
            // arrives (also by promotion) or leaves, or pieces are pushed or swapped.
            let mover = match m.how {
                How::Drop(k) => k,
                _ => kind(self.b.cell(m.from)),
            };
            let same_freeze = !matches!(m.how, How::Swap | How::Push { .. })
                && !matches!(mover, I | X)
                && !matches!(m.promo, I | X);
            // A move that leaves two of the witness paths whole keeps the King's group two
            // liberties (a push moves too many pieces to tell).
            // Without witnesses (no active enemy Encloser, the King on a corner, in check) the
            // test is needed when the King moves or an enemy Encloser may wake up.
            let king_moves =
                mover == K || (m.how == How::Swap && self.b.cell(m.to) == K | (s as u8) << 4);
            let enclosure = if king_moves || matches!(m.how, How::Push { .. } | How::Castle) {
                true
            } else {
                match &zone {
                    Some(w) => w.intact(m) < 2,
                    None => checked || !same_freeze,
                }
            };
            let (saved, n) = self.make(m);
            let frozen = if same_freeze {
                enemy_frozen
            } else {
                self.b.frozen(self.t, s ^ 1)
            };
            let mut ok = !self.b.in_check_unless(self.t, s, frozen, enclosure);
            if ok {
                if let How::Drop(_) = m.how {
                    ok = !self.b.in_check(self.t, s ^ 1);
                }
                if m.how == How::Teleport && n == 0 {
                    ok = false;
                }
            }
            self.unmake(saved);
            if !ok {
                continue;
            }
            let quiet = quiet_leaper(n);
            if leaper {
                if n > 0 {
                    leaper_caps.set(Square::from_index(m.from));
                } else {
                    leaper_quiet.set(Square::from_index(m.from));
                }
            }
            emit(m, n, quiet);
        }
        (leaper_caps, leaper_quiet)
    }
}

#[cfg(test)]
mod tests {
    //! The shortcuts of `legal` (moves judged without being made, the enemy's frozen pieces
    //! and the King's liberties carried over, the leaf count) against making every move and
    //! testing check in full, along random games.
    use super::*;
    use crate::position::Position;

    fn legal_slow(g: &mut Game) -> Vec<(Mv, u32)> {
        let mut pseudo = MoveBuf::new();
        g.pseudo(&mut pseudo);
        let s = g.b.side;
        let mut out = Vec::new();
        for &m in pseudo.as_slice() {
            let (saved, n) = g.make(m);
            let exposed = g.b.in_check(g.t, s);
            let drop_checks = matches!(m.how, How::Drop(_)) && g.b.in_check(g.t, s ^ 1);
            let idle_teleport = m.how == How::Teleport && n == 0;
            let ok = !exposed && !drop_checks && !idle_teleport;
            g.unmake(saved);
            if ok {
                out.push((m, n));
            }
        }
        let leaper = |g: &Game, m: Mv| m.how == How::Plain && kind(g.b.cell(m.from)) == L;
        let capturing: Vec<u8> = out
            .iter()
            .filter(|&&(m, n)| leaper(g, m) && n > 0)
            .map(|&(m, _)| m.from)
            .collect();
        out.retain(|&(m, n)| !(leaper(g, m) && n == 0 && capturing.contains(&m.from)));
        out
    }

    #[test]
    fn shortcuts_agree_with_making_every_move() {
        let v = crate::builtin("chessma-84").unwrap();
        let seeds = [
            None,
            Some("i********x/*u1lwcep1*/*rnbqkbr1*/*ppppppP1*/*4pn2*/*3N4*/*3PLB2*/*3Q2E'1*/*PPP1PP1P*/*R3KBNR*/*1U1WC1SX*/I********1 w KQq - S"),
            Some("i********1/*S2w1epx*/*rn1qkbnr*/*p1p2spp*/*1u2b2c*/*1P1ppl2*/*1UP3i1*/*3P1X1N*/*P3PP1P*/*RIBQKB1R*/*2LWCEP1*/N********1 b KQ c3 -"),
            Some("n********x/*1ulwce2*/*r1bqkb1r*/*pSp1pp2*/*3p1npp*/*Qp1i4*/*Ps5U*/*IPP5*/*3PPP1P*/*R1B1KBR1*/*2LWCEPX*/N********1 w Qkq g7 -"),
        ];
        let mut rng = 0xd1b5_4a32_d192_ed03u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut nodes = 0;
        for seed in seeds {
            let pos = match seed {
                None => v.start(),
                Some(text) => Position::parse(&v, text).unwrap(),
            };
            let c = pos.chessma();
            for _ in 0..150 {
                let mut board = Board::empty();
                board.copy_from(&c.board);
                let mut g = Game {
                    t: &c.tables,
                    b: &mut board,
                };
                for _ in 0..120 {
                    let slow = legal_slow(&mut g);
                    let mut fast = MoveBuf::new();
                    g.legal(&mut fast);
                    let fast: Vec<(Mv, u32)> = fast
                        .as_slice()
                        .iter()
                        .copied()
                        .zip(fast.caps().iter().copied())
                        .collect();
                    if fast != slow {
                        let extra: Vec<_> = fast.iter().filter(|x| !slow.contains(x)).collect();
                        let missing: Vec<_> = slow.iter().filter(|x| !fast.contains(x)).collect();
                        panic!(
                            "legal moves differ after {nodes} nodes: side {} extra {extra:?} missing {missing:?} CELLS {}",
                            g.b.side,
                            g.b.cells.iter().map(|c| format!("{c:02x}")).collect::<String>()
                        );
                    }
                    assert_eq!(g.count_legal(), slow.len() as u64);
                    nodes += 1;
                    if slow.is_empty() {
                        break;
                    }
                    let (m, _) = slow[(next() % slow.len() as u64) as usize];
                    g.make(m);
                }
            }
        }
        eprintln!("{nodes} positions checked");
        assert!(nodes > 5000, "{nodes} nodes checked");
    }
}
