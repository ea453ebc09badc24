//! Legality: shortcuts for the moves that cannot expose the King, making the rest; the
//! legal list, its count, and perft.

use crate::bitboard::{Bitboard, Square};

use super::capture::*;
use super::*;
use crate::chessma::board::*;
use crate::chessma::tables::{opposite, NONE};

impl Game<'_> {
    /// Whether `m` is legal without making it: a line move off the risky squares by any piece
    /// but the King, capturing at most by replacement (an Immobilizer only if it freezes
    /// nobody). Returns the capture count then.
    #[inline(always)]
    pub(super) fn quick(
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
    pub(super) fn legal_each(
        &mut self,
        mut emit: impl FnMut(Mv, u32, bool),
    ) -> (Bitboard, Bitboard) {
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
    use crate::chessma::ChessmaGame;

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
            let pos = ChessmaGame::parse(&v, seed.unwrap_or(&v.setup)).unwrap();
            let c = &pos.state;
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
