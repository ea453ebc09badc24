//! Pseudo-legal moves, piece by piece: castling, the pawn's runs and en passant, the
//! Ultima pieces' moves, teleports, pushes and swaps, drops.

use crate::bitboard::{Bitboard, Square};

use super::capture::*;
use super::*;
use crate::chessma::board::*;
use crate::chessma::tables::{Tables, NONE};

/// Destinations gathered for one piece, merged over the sheets.
pub(super) struct Dests<const N: usize = 64> {
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
    pub(super) fn new(t: &Tables, from: u8) -> Dests<N> {
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
    pub(super) fn add(&mut self, to: u8, sheet: usize, cap: bool) {
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

    pub(super) fn castles(&self, from: u8, out: &mut MoveBuf) {
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
    pub(super) fn attacked_after_king_step(&self, from: u8, to: u8) -> bool {
        let mut b = self.b.clone();
        let s = b.side;
        let king = b.cells[from as usize];
        b.set(from, EMPTY);
        b.set(to, king);
        b.in_check(self.t, s)
    }

    pub(super) fn pawn(&self, from: u8, out: &mut MoveBuf) {
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
    pub(super) fn ultima(&self, from: u8, kd: u8, me: u8, last: Bitboard, out: &mut MoveBuf) {
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
    pub(super) fn push_result(&self, from: u8, target: u8, sh: usize) -> Option<[(u8, u8); 12]> {
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
    pub(super) fn push_moves(
        &self,
        from: u8,
        target: u8,
        sh: usize,
    ) -> Option<([(u8, u8); 12], usize)> {
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
}
