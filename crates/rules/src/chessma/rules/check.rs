//! Freezing and check by every capture method on both sheets, and the squares a move must
//! neither leave nor reach to be legal without testing (the King's lines, its group's
//! liberties).

use crate::bitboard::{Bitboard, Square};

use super::capture::*;
use super::*;
use crate::chessma::board::*;
use crate::chessma::tables::{opposite, Tables, NONE};
use crate::view::CheckHow;

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
    pub(super) fn cell(&self, s: u8) -> u8 {
        self.cells[s as usize]
    }

    pub(super) fn coordinate(
        &self,
        t: &Tables,
        s: usize,
        at: u8,
        only: Option<u8>,
        caps: &mut Caps,
    ) {
        coordinate(&self.cells, self.kings[s], t, s, at, only, caps)
    }
    pub(super) fn enclose(
        &self,
        t: &Tables,
        s: usize,
        at: u8,
        only_enclosers: bool,
        caps: &mut Caps,
    ) {
        enclose(&self.cells, t, s, at, only_enclosers, caps)
    }

    /// Is side `s`'s King capturable now by an unfrozen enemy piece, by any method (X1)?
    pub(crate) fn in_check(&self, t: &Tables, s: usize) -> bool {
        self.in_check_unless(t, s, self.frozen(t, s ^ 1), true)
    }

    /// `in_check` with the enemy's frozen pieces given (they cannot capture).
    /// `enclosure`: false when the King's group is known to keep two liberties. Kept out of
    /// line: inlined into the search's legality tests it cost 2.5% more instructions in
    /// perft (docs/benchmarks.md).
    #[inline(never)]
    pub(super) fn in_check_unless(
        &self,
        t: &Tables,
        s: usize,
        frozen: Bitboard,
        enclosure: bool,
    ) -> bool {
        self.king_takers(t, s, frozen, enclosure, |_, _| true)
    }

    /// The enemy pieces that give side `s`'s King check (`Explain::checkers`): each once,
    /// by the first method found, from the same search as `in_check`.
    pub(crate) fn checkers(&self, t: &Tables, s: usize) -> Vec<(u8, CheckHow)> {
        let mut found: Vec<(u8, CheckHow)> = Vec::new();
        self.king_takers(t, s, self.frozen(t, s ^ 1), true, |q, how| {
            // A line piece on a shared rank is found on both sheets' rays.
            if !found.iter().any(|&(f, _)| f == q) {
                found.push((q, how));
            }
            false
        });
        found
    }

    /// The unfrozen enemy pieces that could capture side `s`'s King now, by any method (X1),
    /// each given to `take` with its method (a piece may come more than once: once per line
    /// on each sheet); stops, answering true, when `take` answers true. `in_check` stops at
    /// the first; `checkers` collects them all.
    #[inline(always)]
    fn king_takers(
        &self,
        t: &Tables,
        s: usize,
        frozen: Bitboard,
        enclosure: bool,
        mut take: impl FnMut(u8, CheckHow) -> bool,
    ) -> bool {
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
            if (is(q, K) && take(q, CheckHow::Attack)) || (is(q, X) && take(q, CheckHow::AsKing)) {
                return true;
            }
        }
        for &q in t.knight[k as usize].as_slice() {
            if is(q, N) && take(q, CheckHow::Attack) {
                return true;
            }
        }
        for &q in t.pawn_from[a][k as usize].as_slice() {
            if is(q, P) && take(q, CheckHow::Attack) {
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
                        if (kd == Q || (kd == R && d < 4) || (kd == B && d >= 4))
                            && take(q, CheckHow::Attack)
                        {
                            return true;
                        }
                    }
                }
                // Withdrawer next to the King, moving away along the line.
                if let Some(&q) = ray.first() {
                    if is(q, W) {
                        let away = t.rays[sh][q as usize][d].first();
                        if away != NONE && self.cell(away) == EMPTY && take(q, CheckHow::Withdrawal)
                        {
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
                            if kind(c) == L
                                && free.has(Square::from_index(q))
                                && take(q, CheckHow::LongLeap)
                            {
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
            'coordinator: for c in coords.iter() {
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
                        if take(c, CheckHow::Coordination) {
                            return true;
                        }
                        continue 'coordinator;
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
                    if !touches && take(e.index() as u8, CheckHow::Enclosure) {
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
    pub(super) n: usize,
    pub(super) lib: [u8; WITNESSES],
    pub(super) path: [Bitboard; WITNESSES],
    /// Every path's squares, and the liberties: a move outside both breaks no path.
    pub(super) on_paths: Bitboard,
    pub(super) libs: Bitboard,
}

pub(super) const WITNESSES: usize = 4;

impl Witnesses {
    /// How many witness paths a move by one piece from `m.from` to `m.to` leaves whole (at
    /// least: `n` when it touches none).
    #[inline(always)]
    pub(super) fn intact(&self, m: Mv) -> usize {
        let (from, to) = (Square::from_index(m.from), Square::from_index(m.to));
        if !self.on_paths.has(from) && (self.n >= 3 || !self.libs.has(to)) {
            return self.n;
        }
        (0..self.n)
            .filter(|&i| !self.path[i].has(from) && self.lib[i] != m.to)
            .count()
    }
}

impl Game<'_> {
    /// Squares a move of the side to move must neither leave nor reach (nor capture on) to
    /// be legal without testing: the King's lines and knight squares; with an enemy
    /// Coordinator that could coordinate against it, the King's rank and file and the
    /// Coordinator's lines; with an unspent enemy Encloser, the King's group and its
    /// neighbours. Everything else a move does cannot expose the King.
    pub(super) fn risky(&self, s: usize) -> (Bitboard, Bitboard) {
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
    pub(super) fn enclosure_witnesses(
        &self,
        s: usize,
        enemy_frozen: Bitboard,
    ) -> Option<Witnesses> {
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
}
